"""Example homebrew packs and games shipped with scarbook (`scarbook examples`). Only locates them; never parses.

Each folder is one complete example: a pack on a shipped game, or a whole new game. The tests read them from
here too, so what users copy is what is tested.
"""

from pathlib import Path

EXAMPLES_DIR = Path(__file__).resolve().parent


def examples() -> dict[str, Path]:
    """Example name -> folder."""
    return {p.name: p for p in sorted(EXAMPLES_DIR.iterdir()) if p.is_dir() and any(p.glob("*.yaml"))}
