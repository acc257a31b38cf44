"""`scarbook build`: reference sheets, card and sticker sheets and rule tables for games.

A thin face over `compiler.build`. Planning is cheap; WeasyPrint and Jinja2 are imported only
when something must be rendered, so a no-op build stays well under a second.
"""

from __future__ import annotations

import os
import sys
import time
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from scarbook.cli.common import (
    AfterOption,
    CampaignOption,
    PackOption,
    content_errors,
    fail_usage,
    game_numbers,
    load,
    report,
)
from scarbook.cli.terminal import echo
from scarbook.compiler.sizes import DEFAULT_GUTTER_MM, MAX_GUTTER_MM

if TYPE_CHECKING:
    from scarbook.compiler.model import Game


class OutputName(str, Enum):
    reference = "reference"
    digest = "digest"
    cards = "cards"
    stickers = "stickers"
    tables = "tables"


class Paper(str, Enum):
    a4 = "a4"
    letter = "letter"


def _load_games(games: list[str], packs: list[Path], campaign: Path | None, after: int | None = None) -> list[Game]:
    from scarbook.compiler.load import shipped_games

    if after is not None and campaign is None:
        fail_usage("--after N builds a campaign as it stood after game N; give --campaign FILE too")
    if campaign is not None:
        if len(games) > 1:
            fail_usage("--campaign builds the one game of that campaign; give at most one GAME")
        if after is not None:
            from scarbook.campaign.service.history import game_after
            from scarbook.cli.campaign._shared import campaign_errors

            with campaign_errors(writing=False), game_numbers(), content_errors():
                return [game_after(campaign, packs, after)]
        return [load(games[0] if games else "", packs, campaign)]
    known_games = list(shipped_games())
    if packs and not games:
        fail_usage("with --pack, name the GAME the pack extends (scarbook build GAME --pack DIR)")
    chosen = games or known_games
    with content_errors():
        from scarbook.compiler.spoilers import for_players
        from scarbook.compiler.validate import cached_game

        loaded = []
        for game_id in chosen:
            full = cached_game(game_id, packs)
            loaded.append(for_players(full.effective(), full))
        return loaded


class ProgressDisplay:
    """Where the build reports progress: a bar under the messages on a terminal, plain lines
    otherwise (CI, pipes, files), so that logs stay readable. Rich loads only once there is
    something to render, so a no-op build does not pay for it."""

    def __init__(self, tty: bool, quiet: bool = False) -> None:
        self.tty = tty or quiet  # quiet: standard output carries the output itself (`--out -`): lines go to stderr
        self.bar: Any = None
        self.task: Any = None

    def line(self, text: str) -> None:
        if self.bar is not None:
            self.bar.console.print(text, markup=False, highlight=False)
        else:
            echo(text, err=self.tty)

    def step(self, done: int, total: int) -> None:
        if not self.tty:
            return
        if self.bar is None:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

            self.bar = Progress(TextColumn("rendering"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                                console=Console(stderr=True), transient=True)
            self.bar.start()
            self.task = self.bar.add_task("render", total=total)
        self.bar.update(self.task, completed=done, total=total)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def _check_out_folder(out: Path) -> None:
    """--out must be a folder to build in: not the file system's root (the build would scatter a folder per game
    there), not an existing file, FIFO or device (exit 2, nothing written)."""
    import stat

    real = Path(os.path.realpath(out))
    if real == Path(real.anchor):
        fail_usage(f"--out {out} is the root of the file system: the build writes a folder per game there; "
                   "give a folder of its own, e.g. --out build")
    try:
        st = os.stat(out)
    except FileNotFoundError:
        return
    except OSError as exc:
        fail_usage(f"--out {out}: {exc.strerror}; give a folder, e.g. --out build")
    if not stat.S_ISDIR(st.st_mode):
        fail_usage(f"--out {out} exists and is not a folder; nothing was written: give a folder, e.g. --out build")


def _check_out_is_a_build(out: Path, games: set[str], force: bool) -> None:
    """Without --force, --out is new, or holds only the folders of the games built (with the user's own files in
    them, kept; hidden files such as `.gitkeep` aside), or is a folder an earlier build wrote (its manifest is
    there): a folder of other things (a home folder, a system folder, a project) is refused, exit 1, nothing
    written."""
    from scarbook.compiler.build import MANIFEST

    if force or not os.path.isdir(out) or os.path.lexists(out / MANIFEST):
        return
    try:
        with os.scandir(out) as entries:
            # hidden files (a `.gitkeep` holding an empty folder in a repository, a `.gitignore`) are not "things"
            other = next((e.name for e in entries if e.name not in games and not e.name.startswith(".")), None)
    except OSError as exc:
        fail_usage(f"--out {out}: {exc.strerror}; give a folder, e.g. --out build")
    if other is not None:
        echo(f"error: --out {out} holds other things ({other}, ...) and no earlier build of scarbook; nothing was "
             "written: give a new or empty folder with --out, or add --force to build there", err=True)
        raise typer.Exit(1)


def build(
    games: Annotated[list[str] | None, typer.Argument(
        help="Game ids, or folders of homebrew games, to build (default: every shipped game).")] = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="Output folder; nothing is written elsewhere (- writes the "
                                      "one file of --only cards or --only stickers to standard output).")] =
    Path("build"),
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", min=1, help="Worker processes (default: cores).")] =
    None,
    paper: Annotated[Paper, typer.Option("--paper", help="Paper size of the PDFs.")] = Paper.a4,
    pack: PackOption = None,
    campaign: CampaignOption = None,
    after: AfterOption = None,
    only: Annotated[list[OutputName] | None, typer.Option(
        "--only", help="Build only these outputs (repeatable), e.g. --only cards to reprint the cards.")] = None,
    gutter: Annotated[float, typer.Option(
        "--gutter", metavar="MM", min=0.0, max=MAX_GUTTER_MM,
        help="Space between the cards of the card sheets, in mm (default 0: cards share their cut lines; "
             "6 gives every card its own 3 mm bleed, fewer cards a page).")] = DEFAULT_GUTTER_MM,
    digest: Annotated[bool, typer.Option(
        "--digest", help="Also build digest.pdf (+ .html): every rule table in full, with its sources.")] = False,
    force: Annotated[bool, typer.Option(
        "--force", help="Replace files in OUT that are not previous outputs of scarbook.")] = False,
) -> None:
    """Build reference sheets, print-and-play card and sticker sheets, and rule tables.

    Writes OUT/GAME/reference.pdf (+ .html), the player aid of at most two pages, cards.pdf,
    stickers.pdf and tables/*.{md,csv,json}; with --digest (or --only digest) also digest.pdf (+ .html),
    every rule table in full. Only outputs whose content changed are rendered again; the build says why.

    Example: scarbook build risk-legacy --out build --paper letter
    Example: scarbook build --campaign our-world.yaml --after 3
    Example: scarbook build risk-legacy --only cards --out - > cards.pdf
    """
    from scarbook.kernel.outputs import is_stdout

    if is_stdout(out):
        _build_to_stdout(games, only, jobs, paper, pack, campaign, after, gutter)
        return
    _build(games, out, jobs, paper, pack, campaign, after, only, gutter, digest, force)


def _build(games: list[str] | None, out: Path, jobs: int | None, paper: Paper, pack: list[Path] | None,
           campaign: Path | None, after: int | None, only: list[OutputName] | None, gutter: float, digest: bool,
           force: bool, quiet: bool = False) -> None:
    """The build itself (`quiet`: no summary line; progress on standard error)."""
    from scarbook.compiler.build import DEFAULT_OUTPUTS
    from scarbook.compiler.build import build as run_build

    _check_out_folder(out)
    wanted_outputs = {o.value for o in only} if only else None
    if digest:
        wanted_outputs = (wanted_outputs or set(DEFAULT_OUTPUTS)) | {"digest"}
    started = time.perf_counter()
    loaded = _load_games(list(games or []), list(pack or []), campaign, after)
    shown = None if campaign is None else f"{campaign} after game {after}" if after is not None else str(campaign)
    from scarbook.compiler.build import out_folder

    _check_out_is_a_build(out, {out_folder(g, shown) for g in loaded}, force)
    display = ProgressDisplay(sys.stderr.isatty() and not os.environ.get("CI"), quiet)
    from scarbook.kernel.outputs import OutputRefused

    try:
        result = run_build(loaded, out, jobs=jobs, paper=paper.value, campaign=shown,
                           progress=display.line, step=display.step, only=wanted_outputs, gutter=gutter, force=force)
    except OutputRefused as exc:
        echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    finally:
        display.close()
    if result.diagnostics:
        report(sorted(result.diagnostics, key=lambda d: d.sort_key()), None)
        if any(d.is_error for d in result.diagnostics):
            raise typer.Exit(1)
    elapsed = time.perf_counter() - started
    if quiet:
        return
    if not result.rendered and not result.up_to_date:
        wanted = ", ".join(o.value for o in only) if only else "any"
        echo(f"nothing to build: {', '.join(g.id for g in loaded)} has no {wanted} output "
                   "(stickers need a sticker in the content, cards a printable deck)")
    elif not result.rendered:
        echo(f"everything is up to date in {out} ({len(result.up_to_date)} outputs, {elapsed:.2f} s)")
    else:
        echo(f"built {len(result.rendered)} outputs, {len(result.up_to_date)} up to date, in {out} "
                   f"({elapsed:.1f} s)")


def _build_to_stdout(games: list[str] | None, only: list[OutputName] | None, jobs: int | None, paper: Paper,
                     pack: list[Path] | None, campaign: Path | None, after: int | None, gutter: float) -> None:
    """`--out -`: build in a scratch folder and write the one file built to standard output (exit 2 when the
    build makes more than one file: name one output with --only, e.g. --only cards)."""
    import tempfile

    from scarbook.compiler.build import MANIFEST
    from scarbook.kernel.outputs import write_output

    if not only or len(only) != 1 or len(games or []) > 1 or only[0] in (OutputName.tables,):
        fail_usage("--out - writes one file to standard output: name one game and one output that is one file, "
                   "e.g. --only cards or --only stickers")
    with tempfile.TemporaryDirectory(prefix="scarbook-build-") as scratch:
        _build(games, Path(scratch), jobs, paper, pack, campaign, after, only, gutter, False, True, quiet=True)
        made = sorted(p for p in Path(scratch).rglob("*") if p.is_file() and p.name != MANIFEST
                      and "fonts" not in p.relative_to(scratch).parts)
        pdfs = [p for p in made if p.suffix == ".pdf"] if len(made) > 1 else made
        if len(pdfs) != 1:
            fail_usage(f"--out - writes one file, and this build made {len(made)}: "
                       f"{', '.join(p.name for p in made) or 'none'}; give --out FOLDER")
        write_output(Path("-"), pdfs[0].read_bytes())
        echo(f"wrote {pdfs[0].name} to standard output", err=True)
