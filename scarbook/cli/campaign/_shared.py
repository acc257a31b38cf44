"""What the campaign commands share: the campaign file option, error reporting, recording an event.

`record` is the one write path: lock, read, replay, check the new event, write atomically.
Any refusal or failure leaves the file byte-for-byte unchanged and exits 1. The replay before a
write checks every old event again unless the cache vouches for these very bytes under the same
content (`Campaign.replay_for_write`); `load` (status, check) always checks every event.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from scarbook.cli.terminal import echo
from scarbook.kernel.diagnostics import render_text

if TYPE_CHECKING:
    from scarbook.campaign.engine import Campaign, Replay
    from scarbook.campaign.events import Event
    from scarbook.campaign.rules import Problem

CampaignFile = Annotated[
    str | None,
    typer.Option("--campaign", "-c", help="The campaign file (default: $SCARBOOK_CAMPAIGN, else campaign.yaml).",
                 show_default=False),
]
ByOption = Annotated[str, typer.Option("--by", help="The player who takes it (a reward); default: the only "
                                       "player it can be for.")]


def campaign_path(given: str | None) -> Path:
    if given:
        return Path(given)
    return Path(os.environ.get("SCARBOOK_CAMPAIGN") or "campaign.yaml")


def refuse(problems: list[Problem], code: int = 1) -> NoReturn:
    for p in problems:
        echo(f"error {p.code}: {p.text()}", err=True)
    echo("nothing was written", err=True)
    raise typer.Exit(code)


@contextmanager
def campaign_errors(writing: bool = True) -> Iterator[None]:
    """Ledger, lock and content problems as diagnostics with exit 1 (never a traceback).

    `writing=False` (status, log, check, sheet) never blames a failure on writing the campaign file.
    """
    from scarbook.campaign.ledger.file import LedgerBusy, LedgerError

    try:
        yield
    except LedgerError as exc:
        echo(render_text(exc.diagnostics), err=True)
        raise typer.Exit(1) from None
    except LedgerBusy as exc:
        echo(f"error L005: {exc}", err=True)
        raise typer.Exit(1) from None
    except OSError as exc:
        where = f" ({exc.filename})" if getattr(exc, "filename", None) else ""
        if writing:
            echo(f"error L006: cannot write the campaign file{where}: {exc.strerror or exc}; nothing was "
                       "written", err=True)
        else:
            echo(f"error L006: cannot read or write a file{where}: {exc.strerror or exc}", err=True)
        raise typer.Exit(1) from None
    except ImportError:
        raise
    except Exception as exc:  # content errors from the compiler
        diags = getattr(exc, "diagnostics", None)
        if diags is None:
            from scarbook.compiler.validate import UnknownGame

            if isinstance(exc, UnknownGame):
                echo(f"error: {exc}", err=True)
                raise typer.Exit(2) from None
            raise
        echo(render_text(diags), err=True)
        echo("the content has errors; run 'scarbook validate' for the full list", err=True)
        raise typer.Exit(1) from None


def pack_fingerprint(pack: Path) -> str:
    """A fingerprint of a pack's files (as `campaign add-pack` records it)."""
    from scarbook.compiler.load import fingerprint, pack_paths

    files, _ = pack_paths(pack)
    return fingerprint(files, pack.resolve() if pack.is_dir() else None)


def recorded_pack(ledger_path: Path, pack: Path) -> str:
    """A pack's path as a ledger records it: relative to the ledger's folder, in '/' form."""
    return Path(os.path.relpath(pack.resolve(), ledger_path.resolve().parent)).as_posix()


def load(path: Path) -> tuple[Campaign, Replay]:
    """Read and replay a campaign, checking every event (`check`): (Campaign, Replay)."""
    from scarbook.campaign.engine import Campaign
    from scarbook.campaign.ledger.cache import read

    campaign = Campaign(read(path))
    return campaign, campaign.checked_replay()


def load_state(path: Path) -> tuple[Campaign, Replay]:
    """Read a campaign to show or question its state (`status`, `where`, `sheet`): the state the cache keeps
    with its verdict for these very bytes under the same content (as before a write), else every event checked."""
    from scarbook.campaign.engine import Campaign
    from scarbook.campaign.ledger.cache import read

    campaign = Campaign(read(path))
    return campaign, campaign.replay_for_write()


def record(path: Path, make: Callable[..., Event | list[Problem]], dry_run: bool = False,
           undo_hint: bool = True) -> None:
    """Check one new event against the campaign and append it (or only answer, with dry_run)."""
    from scarbook.campaign.engine import Campaign
    from scarbook.campaign.events import Opened, PackAdded
    from scarbook.campaign.ledger.cache import placed_at, raw_sha256, read, remember_appended
    from scarbook.campaign.ledger.text import with_event
    from scarbook.campaign.ledger.write import locked, write_atomic
    from scarbook.campaign.links import cuts
    from scarbook.campaign.report import describe
    from scarbook.campaign.rules import Problem

    with campaign_errors(), locked(path):
        campaign = Campaign(read(path))
        replay = campaign.replay_for_write()
        bad = replay.first_problem
        if bad is not None or campaign.ledger.problems:
            where = (f"line {bad[0].span.line}" if bad else f"{campaign.ledger.problems[0].span}")
            refuse([Problem("L007", f"the campaign file already has an illegal or unreadable event ({where}); "
                            "see 'scarbook campaign check', then fix it by hand or 'scarbook campaign undo'")])
        event = make(campaign, replay)
        if isinstance(event, list):
            refuse(event)
        problems, fixed = campaign.check_event(replay, event)
        if problems or fixed is None:
            refuse(problems or [Problem("L003", "this event cannot be recorded")])
        if dry_run:
            cutting = frozenset(sid for sid, st in replay.content.stickers.items() if cuts(st))
            echo(f"legal: {describe(fixed, cutting)}")
            return
        text = with_event(campaign.ledger, fixed)
        fixed = placed_at(campaign.ledger, text, fixed)  # the state keeps each mark's line
        triggered = campaign.fold_new(replay, fixed)
        cutting = frozenset(sid for sid, st in replay.content.stickers.items() if cuts(st))
        note = write_atomic(path, text, expected=campaign.ledger.raw, expected_sha256=raw_sha256(campaign.ledger))
        keeps = not isinstance(fixed, (Opened, PackAdded)) or not fixed.pack  # a new pack: a new content key
        remember_appended(campaign.ledger, text, fixed, replay.verified, replay.state if keeps else None,
                          replay.packs)
        echo(f"recorded: {describe(fixed, cutting)}")
        if note:
            echo(note, err=True)
        for env in triggered:
            info = replay.content.envelopes.get(env, {})
            trigger = (info.get("trigger") or {}).get("text", "")
            echo(f"open the sealed packet now: {env} ({info.get('name', env)}: {trigger}) -> "
                       f"scarbook campaign open {env} [--pack DIR]")
