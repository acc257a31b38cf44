"""The shipped games: one folder of YAML per game. Only locates them; never parses."""

from pathlib import Path

CONTENT_DIR = Path(__file__).resolve().parent
