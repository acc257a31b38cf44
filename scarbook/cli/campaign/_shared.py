"""What the campaign commands share: the campaign file option, error reporting, and the reporter of a write.

A command parses its options, calls one function of `scarbook.campaign.service` and hands the result to
a reporter here (`record` for writes: "recorded: ...", "legal: ...", or the refusal and exit 1). Any
refusal or failure leaves the file byte-for-byte unchanged and exits 1.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

from scarbook.cli import opt
from scarbook.cli.terminal import echo, width, wrapped
from scarbook.kernel.diagnostics import render_text

if TYPE_CHECKING:
    from scarbook.campaign.service.reading import Owed
    from scarbook.campaign.service.writing import MakeEvent, Recorded
    from scarbook.kernel.diagnostics import Diagnostic

CampaignFile = Annotated[
    str | None,
    opt.Option("--campaign", "-c", help="The campaign file (default: $SCARBOOK_CAMPAIGN, else campaign.yaml).",
               show_default=False),
]
ByOption = Annotated[str, opt.Option("--by", help="The player who takes it (a reward); default: the only "
                                     "player it can be for.")]
NoteOption = Annotated[str, opt.Option("--note", help="A note the event keeps in the campaign file (who agreed "
                                       "to what, the story), shown by log, diff, chronicle and serve; at most "
                                       "1000 characters.", metavar="TEXT")]


def campaign_path(given: str | None) -> Path:
    """The campaign file named (`-c`, else $SCARBOOK_CAMPAIGN, else campaign.yaml). A path with no file name (`.`,
    `/`) is a folder: L001 at once, as reading it would say (no `.bak`, lock or journal can be named after it)."""
    if given:
        path = Path(given)
        if not path.name:
            from scarbook.kernel.diagnostics import Span, error

            echo(error(Span(str(given), 1, 1), "L001", "the campaign file is not a regular file (a folder, FIFO, "
                       "device or socket); give the campaign's YAML file").render(), err=True)
            raise SystemExit(1)
        return path
    return Path(os.environ.get("SCARBOOK_CAMPAIGN") or "campaign.yaml")


def refuse(problems: list[Diagnostic], code: int = 1) -> NoReturn:
    """Print why the command is refused (each problem with its rule), say nothing was written, exit `code`."""
    for problem in problems:
        echo(problem.render(), err=True)
    echo("nothing was written", err=True)
    raise SystemExit(code)


@contextmanager
def campaign_errors(writing: bool = True) -> Iterator[None]:
    """Ledger, lock and content problems as diagnostics with exit 1 (never a traceback).

    `writing=False` (status, log, check, sheet) never blames a failure on writing the campaign file.
    """
    from scarbook.campaign.service import LedgerBusy, LedgerError

    try:
        yield
    except LedgerError as exc:
        echo(render_text(exc.diagnostics), err=True)
        missing = any(d.code == "L001" and d.message.startswith("no campaign file here") for d in exc.diagnostics)
        raise SystemExit(2 if missing else 1) from None  # a missing file: the command line is wrong (exit 2)
    except LedgerBusy as exc:
        echo(f"error L005: {exc}", err=True)
        raise SystemExit(1) from None
    except OSError as exc:
        where = f" ({exc.filename})" if getattr(exc, "filename", None) else ""
        if writing:
            echo(f"error L006: cannot write the campaign file{where}: {exc.strerror or exc}; nothing was "
                       "written", err=True)
        else:
            echo(f"error L006: cannot read or write a file{where}: {exc.strerror or exc}", err=True)
        raise SystemExit(1) from None
    except ImportError:
        raise
    except Exception as exc:  # content errors from the compiler
        diags = getattr(exc, "diagnostics", None)
        if diags is None:
            from scarbook.compiler.validate import UnknownGame
            from scarbook.kernel.outputs import OutputRefused

            if isinstance(exc, OutputRefused):  # an --out that may not be written (a FIFO nobody reads, ...)
                echo(f"error: {exc}", err=True)
                raise SystemExit(1) from None

            if isinstance(exc, UnknownGame):
                echo(f"error: {exc}", err=True)
                raise SystemExit(2) from None
            raise
        echo(render_text(diags), err=True)
        echo("the content has errors; run 'scarbook validate' for the full list", err=True)
        raise SystemExit(1) from None


def record(path: Path, make: MakeEvent, dry_run: bool = False, note: str = "", owed: str | None = None) -> None:
    """Record one new event (or, with `dry_run`, only say whether it is legal) with its `note`, and report; with
    `owed` (the words for nothing owed), then everything owed before the next game, as `report_owed` does."""
    from scarbook.campaign.service import writing

    with campaign_errors():
        result = writing.record(path, make, dry_run, note, owed=owed is not None)
    report_recorded(result)
    if owed is not None and not result.dry_run:
        report_owed(path, owed, result.owed)


def report_recorded(result: Recorded) -> None:
    """A write's result as a group at the table reads it (a refusal: each problem, then exit 1)."""
    if result.problems:
        refuse(result.problems)
    if result.dry_run:
        echo(f"legal: {result.said}")
        if result.note:
            echo(result.note, err=True)
        return
    echo(f"recorded: {result.said}")
    if result.note:
        echo(result.note, err=True)
    for packet in result.to_open:
        echo(f"open the sealed packet now: {packet.id} ({packet.name}: {packet.trigger}) -> "
             f"scarbook campaign open {packet.id} [--pack DIR]")


def report_owed(path: Path, none_text: str = "", found: Owed | None = None) -> None:
    """After a write that changes what is owed (a game's end, an opened packet): everything owed before the next
    game, in order, each with its command (as `status` lists it); `none_text` when nothing is. `found`: what the
    write already knew is owed (else the campaign is read again)."""
    from scarbook.campaign.service import reading
    from scarbook.campaign.views.todo import todo_lines

    if found is None:
        with campaign_errors(writing=False):
            found = reading.owed(path)
    lines = todo_lines(found.items, found.next_game)
    if lines:
        echo(wrapped("\n".join(lines), width()))
    if not lines and none_text:
        echo(none_text)
