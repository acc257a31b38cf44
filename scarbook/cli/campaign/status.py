"""`scarbook campaign status|log|check`: show the campaign's state, its events, and re-check it all."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import typer

from scarbook.cli.campaign._shared import CampaignFile, campaign_errors, campaign_path, load, load_state
from scarbook.cli.common import AfterOption, FormatOption, TextOrJson, game_numbers
from scarbook.cli.terminal import echo

if TYPE_CHECKING:
    from scarbook.campaign.engine import Campaign, Replay
    from scarbook.kernel.diagnostics import Diagnostic


def status(fmt: FormatOption = TextOrJson.text, campaign: CampaignFile = None, after: AfterOption = None) -> None:
    """Show where the campaign stands: games, signatures, continents, cities, scars, cards, packets.

    With --after N, where it stood after game N: what 'status' said then.

    Example: scarbook campaign status --format json
    Example: scarbook campaign status --after 3
    """
    from scarbook.campaign.report import status_data, status_text

    with campaign_errors(writing=False), game_numbers():
        if after is None:
            camp, replay = load_state(campaign_path(campaign))
        else:
            from scarbook.campaign.history import load_after

            camp, replay = load_after(campaign_path(campaign), after)
        data = status_data(camp.ledger, replay)
    if fmt is TextOrJson.json:
        echo(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        echo(status_text(data))
    bad = replay.first_problem
    if camp.ledger.problems:
        echo(f"warning: the campaign file has an unreadable event ({camp.ledger.problems[0].render()}); "
                   "run 'scarbook campaign check'", err=True)
    elif bad is not None:
        echo(f"warning: the campaign file has an illegal event at line {bad[0].span.line}; "
                   "run 'scarbook campaign check'", err=True)


def log(campaign: CampaignFile = None) -> None:
    """List the recorded events in order, with their line in the campaign file.

    Example: scarbook campaign log
    """
    from scarbook.campaign.events import GameStarted
    from scarbook.campaign.ledger.cache import read
    from scarbook.campaign.report import describe

    with campaign_errors(writing=False):
        ledger = read(campaign_path(campaign))
    game = 0
    for ev in ledger.events:
        if isinstance(ev, GameStarted):
            game += 1
            echo(f"{ledger.display}:{ev.span.line}: game {game} " + describe(ev).removeprefix("game "))
            continue
        echo(f"{ledger.display}:{ev.span.line}: {describe(ev)}")
    for d in ledger.problems:
        echo(d.render(), err=True)
    if ledger.problems:
        raise typer.Exit(1)


def changed_packs(camp: Campaign, replay: Replay) -> list[Diagnostic]:
    """L013 for every added pack whose files changed since it was added, naming the events now refused."""
    from scarbook.campaign.events import PackAdded
    from scarbook.cli.campaign._shared import pack_fingerprint
    from scarbook.kernel.diagnostics import warning

    out = []
    for ev in camp.ledger.events:
        if not isinstance(ev, PackAdded) or not ev.fingerprint:
            continue
        where = camp.pack_path(ev.pack)
        now = pack_fingerprint(where) if where.exists() else "missing"
        if now != ev.fingerprint:
            later = sorted({e.span.line for e, _ in replay.problems if e.span.line > ev.span.line})
            which = (f"events now refused at lines {', '.join(map(str, later))}" if later
                     else "every recorded event is still legal")
            out.append(warning(ev.span, "L013", f"the pack {ev.pack} changed since it was added (fingerprint "
                               f"{ev.fingerprint[:12]}, now {now[:12]}); {which}"))
    return out


def check(fmt: FormatOption = TextOrJson.text, campaign: CampaignFile = None) -> None:
    """Re-check every event of the campaign file against the rules; report the first illegal one at its line.

    If the game's content changed since 'campaign new', say which recorded events that affects.

    Example: scarbook campaign check -c our-world.yaml
    """
    from scarbook.kernel.diagnostics import error, render_json, render_text, warning

    with campaign_errors(writing=False):
        camp, replay = load(campaign_path(campaign))
        ledger = camp.ledger
        diags = list(ledger.problems) + list(replay.pack_problems)
        first = replay.first_problem
        if first is not None:
            ev = first[0]
            for problem in [p for e, p in replay.problems if e is ev]:
                diags.append(error(ev.span, problem.code, problem.text(), f"/events/{ev.index}"))
        now = camp.game(()).fingerprint
        if ledger.fingerprint and now and ledger.fingerprint != now:
            affected = sorted({e.span.line for e, _ in replay.problems})
            which = (f"events now refused at lines {', '.join(map(str, affected))}" if affected
                     else "every recorded event is still legal")
            from scarbook.kernel.diagnostics import Span

            diags.append(warning(Span(ledger.display, 1, 1), "L004", f"the {ledger.game} content changed since "
                                 f"this campaign began (fingerprint {ledger.fingerprint[:12]}, now {now[:12]}); "
                                 f"{which}"))
        diags.extend(changed_packs(camp, replay))
    if fmt is TextOrJson.json:
        echo(render_json(diags))
    elif diags:
        echo(render_text(diags, 1))
    errors = [d for d in diags if d.is_error]
    if fmt is TextOrJson.text and not errors:
        echo(f"{ledger.display}: {len(ledger.events)} events, all legal")
    if errors:
        raise typer.Exit(1)
