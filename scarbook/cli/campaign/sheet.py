"""`scarbook campaign sheet`: the campaign's state as a printable page (PDF), a self-contained HTML
page, or the board picture alone (SVG)."""

from enum import Enum
from pathlib import Path
from typing import Annotated

from scarbook.cli import opt
from scarbook.cli.campaign._shared import CampaignFile, campaign_errors, campaign_path
from scarbook.cli.common import AfterOption, game_numbers
from scarbook.cli.terminal import echo, progress


class SheetFormat(str, Enum):
    pdf = "pdf"
    html = "html"
    svg = "svg"


class SheetPaper(str, Enum):
    a4 = "a4"
    letter = "letter"


def ledger_file_named(target: Path, ledger: Path) -> str | None:
    """None unless `target` is the ledger, its `.bak`, its lock or its append journal (through any symlink or
    hard link): then which."""
    import os

    real = Path(os.path.realpath(ledger))
    wanted = Path(os.path.realpath(target))
    for name, what in (("{}", ""), ("{}.bak", "'s backup"), ("{}.lock", "'s lock"), (".{}.append", "'s journal")):
        # `-c .` or `-c /` has no file name: nothing beside it is named after it (the read then says L001)
        for side in {base.with_name(name.format(base.name)) for base in (ledger, real) if base.name}:
            if wanted == Path(os.path.realpath(side)):
                return what
            try:
                if os.path.samefile(target, side):
                    return what
            except OSError:
                pass
    return None


def refuse_output(target: Path, ledger: Path, given: bool, force: bool) -> None:
    """Exit (nothing written) when `target` is one of the campaign's own files, or may not be written
    (`scarbook.kernel.outputs.check_output`: an unrelated existing file without --force, a folder, ...)."""
    from scarbook.kernel.outputs import OutputRefused, check_output, is_stdout

    clash = None if is_stdout(target) else ledger_file_named(target, ledger)
    if clash is not None:
        how = "choose another --out FILE" if given else "rename the campaign file, or give --out FILE"
        echo(f"error: {target} is the campaign file{clash}; nothing was written ({how})", err=True)
        raise SystemExit(2 if given else 1)
    try:
        check_output(target, force)
    except OutputRefused as exc:
        echo(f"error: {exc}", err=True)
        raise SystemExit(1) from None


def say_written(written: Path) -> None:
    """`wrote FILE` (on standard error when the output itself went to standard output)."""
    from scarbook.kernel.outputs import is_stdout

    if is_stdout(written):
        echo("wrote the output to standard output", err=True)
    else:
        echo(f"wrote {written}")


def sheet(
    out: Annotated[Path | None, opt.Option("--out", "-o", help="The file to write (default: the campaign file "
                                           "with .pdf, .html or .svg; - for standard output).",
                                           dir_okay=False)] = None,
    fmt: Annotated[SheetFormat, opt.Option("--format", "-f", help="pdf (printable), html (one self-contained "
                                           "file: fonts and picture inside) or svg (the board picture alone).")]
    = SheetFormat.pdf,
    paper: Annotated[SheetPaper, opt.Option("--paper", help="a4 or letter: the page size of the PDF (and of the "
                                            "HTML when printed).")] = SheetPaper.a4,
    campaign: CampaignFile = None,
    after: AfterOption = None,
    force: Annotated[bool, opt.Option("--force", help="Replace an existing --out file that is not a previous "
                                      "output of scarbook.")] = False,
) -> None:
    """Write the campaign sheet: the board with every permanent mark, then the game's regions, players,
    records, its mark groups (in its own words), changed cards, stickers left, packets and games.

    Example: scarbook campaign sheet --out our-world.pdf
    Example: scarbook campaign sheet --paper letter
    Example: scarbook campaign sheet --format svg --out board.svg
    Example: scarbook campaign sheet --after 3 --out after-game-3.pdf
    """
    from scarbook.campaign.service import history, reading

    path = campaign_path(campaign)
    target = out or (path if path.name else Path("campaign.yaml")).with_suffix(f".{fmt.value}")
    refuse_output(target, path, out is not None, force)
    show = progress("sheet")
    if show is not None:
        show(f"reading the campaign and drawing the {fmt.value.upper()}")
    with campaign_errors(writing=False), game_numbers():
        try:
            written, note = (reading.sheet_noted(path, target, fmt.value, paper.value) if after is None
                             else (history.sheet_after(path, after, target, fmt.value, paper.value), ""))
        except ValueError as exc:
            from scarbook.campaign.service.history import NoSuchPoint

            if isinstance(exc, NoSuchPoint):
                raise  # a game number the campaign has no end for: exit 2 (game_numbers)
            echo(f"error: {exc}; nothing was written", err=True)
            raise SystemExit(1) from None
        finally:
            if show is not None:
                show("")
    say_written(written)
    if note:
        echo(f"warning: {note}", err=True)
