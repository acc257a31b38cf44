"""`scarbook campaign status|log|check`: show the campaign's state, its events, and re-check it all."""

import json

from scarbook.cli.campaign._shared import CampaignFile, campaign_errors, campaign_path
from scarbook.cli.common import AfterOption, FormatOption, TextOrJson, game_numbers
from scarbook.cli.terminal import echo, width, wrapped


def status(fmt: FormatOption = TextOrJson.text, campaign: CampaignFile = None, after: AfterOption = None) -> None:
    """Show where the campaign stands: games, signatures, continents, cities, scars, cards, packets.

    With --after N, where it stood after game N: what 'status' said then.

    Example: scarbook campaign status --format json
    Example: scarbook campaign status --after 3
    """
    from scarbook.campaign.service import reading
    from scarbook.cli.reporters import render

    with campaign_errors(writing=False), game_numbers():
        path = campaign_path(campaign)
        if after is None:
            found = reading.status(path)
        else:
            from scarbook.campaign.service import history  # the history's folds and wording: --after only

            found = history.status_after(path, after)
    text = render(fmt, "status", found.data if fmt is TextOrJson.json else found.rows)
    echo(text if fmt is TextOrJson.json else wrapped(text, width()))
    if found.warning:
        echo(f"warning: {found.warning}", err=True)


def log(fmt: FormatOption = TextOrJson.text, campaign: CampaignFile = None) -> None:
    """List the recorded events in order, with their line in the campaign file.

    An event's note follows it, indented. With --format json: a list of {line, said, event} (the event as the
    campaign file records it, its note included).

    Example: scarbook campaign log
    Example: scarbook campaign log --format json
    """
    from scarbook.campaign.service import reading

    with campaign_errors(writing=False):
        ledger, lines = reading.log(campaign_path(campaign))
    if fmt is TextOrJson.json:
        echo(json.dumps([{"line": line, "said": said, "event": ev.to_dict()}
                         for (line, said), ev in zip(lines, ledger.events, strict=True)], indent=2, ensure_ascii=False))
    else:
        for (line, said), ev in zip(lines, ledger.events, strict=True):
            echo(f"{ledger.display}:{line}: {said}")
            if ev.note:
                echo(noted(ev.note))
    for d in ledger.problems:
        echo(d.render(), err=True)
    if ledger.problems:
        raise SystemExit(1)


def noted(note: str, indent: str = "    ") -> str:
    """A note under the event it belongs to: `note: ` then its lines, each indented."""
    shown = "".join(c if c in "\n\t" or c.isprintable() else f"\\u{ord(c):04x}" for c in note)  # hand-edited
    first, *more = shown.splitlines() or [""]
    return "\n".join([f"{indent}note: {first}", *(f"{indent}      {line}" for line in more)])


def check(fmt: FormatOption = TextOrJson.text, campaign: CampaignFile = None) -> None:
    """Re-check every event of the campaign file against the rules; report the first illegal one at its line.

    If the game's content changed since 'campaign new', say which recorded events that affects.

    Example: scarbook campaign check -c our-world.yaml
    """
    from scarbook.campaign.service import reading
    from scarbook.cli.reporters import CheckView, render

    with campaign_errors(writing=False):
        ledger, diags = reading.check(campaign_path(campaign))
    echo(render(fmt, "check", CheckView(diags, ledger.display, len(ledger.events))))
    if any(d.is_error for d in diags):
        raise SystemExit(1)
