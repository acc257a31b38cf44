"""The campaign's history: the world as it stood after any game, and what each stretch of games changed.

A *point* is the end of a game: `after N` is the ledger up to (not including) the start of game N+1,
so it holds game N's end-of-game steps (rewards, passes, packets opened before the next game);
`after 0` is what was done before the first game. The world after game N is the pure fold of those
events (`Campaign.replay` of a prefix): exactly what `status` says of the ledger cut there, and
spoiler-safe as of then (a packet opened later is still sealed in that fold's content).

`story` tells events as a group would say them (`eventspecs.tell`: each kind's sentence in `narrate`) with
`Words`, the content's names (the name printed on a sticker, a territory, a card, a packet; the name a player
gave): nothing here knows a game.
`diff_data` is `scarbook campaign diff N [M]`; `chronicle` is the view the printable chronicle shows
(`templates/chronicle.html.j2`, rendered by the compiler's Jinja2 environment and WeasyPrint path).
Nothing here writes a file but `write_chronicle`, the one output it is asked for.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scarbook.campaign.engine import Campaign, Replay
from scarbook.campaign.events import Event
from scarbook.campaign.eventspecs import spec_of, tell
from scarbook.campaign.narrate import scenario_name, team_result
from scarbook.campaign.shape import status_lines as shape_lines
from scarbook.compiler.words import a

if TYPE_CHECKING:
    from scarbook.campaign.status_rows import GroupedMark
    from scarbook.campaign.status_rows import Status as StatusRows


class NoSuchPoint(ValueError):
    """A game number the campaign has no end for (the command line is wrong: exit 2)."""


def points(events: list[Event]) -> list[int]:
    """`points[N]`: how many events the world after game N holds (N = 0 before the first game), for every
    game that has ended (a game in progress has no point yet)."""
    out: list[int] = []
    ended = True  # before the first game, "game 0" has ended
    for i, ev in enumerate(events):
        edge = spec_of(ev).game
        if edge == "start":
            out.append(i)  # the world after the previous game: everything before this start
            ended = False
        elif edge == "end":
            ended = True
    if ended:
        out.append(len(events))
    return out


def point(events: list[Event], game: int) -> int:
    """How many events the world after `game` holds; NoSuchPoint when that game has not ended."""
    found = points(events)
    if not 0 <= game < len(found):
        last = len(found) - 1
        raise NoSuchPoint(f"game {game} has not ended: the campaign has {last} game{'' if last == 1 else 's'} "
                          f"ended (give a number from 0 to {last}; 0 is before the first game)")
    return found[game]


def replay_after(campaign: Campaign, game: int, check: bool = True) -> Replay:
    """The fold of the events up to the end of `game` (each checked first, as `status` checks them)."""
    return campaign.replay(campaign.ledger.events[:point(campaign.ledger.events, game)], check=check)


# --- telling events --------------------------------------------------------------------------------
class Words:
    """Names as printed, from the content a fold ended with (never a packet opened after it)."""

    def __init__(self, replay: Replay) -> None:
        from scarbook.campaign.sheet import Names

        self.content = replay.content
        self.state = replay.state
        self.name = Names(replay)
        self.steps = {s.id: s.name for t in self.content.model.types.values() for s in t.steps}
        # an option without a printed name (a faction's power) is told by its place in its list, as the sheet does
        self.powers = self.content.option_names

    def __call__(self, item_id: str, section: str | None = None) -> str:
        found = self.name(item_id, section)
        return self.powers.get(item_id, found) if found == item_id else found

    def sticker(self, sid: str) -> dict[str, Any]:
        return self.content.stickers.get(sid, {})


#: The box a chronicle's board prints in (chronicle.html.j2: an A4 page less 12 mm margins; at most 160 mm tall).
CHRONICLE_BOARD_MM = (186.0, 160.0)


@dataclass
class Told:
    """One event in its place in the story: the game it belongs to and when (before, during, after)."""

    event: Event
    game: int  # the game it belongs to (0: before the first game)
    when: str  # "before" (the first game), "start", "during", "end", "after"
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"line": self.event.span.line, "game": self.game, "when": self.when, "event": self.event.to_dict(),
                "text": self.text, "note": self.event.note}


def story(events: list[Event], start: int, stop: int, words: Words) -> list[Told]:
    """events[start:stop], each told, with the game it belongs to."""
    game, playing = 0, False
    out = []
    for i, ev in enumerate(events[:stop]):
        edge = spec_of(ev).game
        if edge == "start":
            game, playing, when = game + 1, True, "start"
        elif edge == "end":
            playing, when = False, "end"
        else:
            when = "during" if playing else ("after" if game else "before")
        if i >= start:
            out.append(Told(ev, game, when, tell(ev, words, game)))
    return out


# --- what changed between two points ---------------------------------------------------------------
def changes(before: StatusRows, after: StatusRows) -> dict[str, Any]:
    """What differs between two statuses: continents, cities, marks (by mark group), cards, signatures, packets."""
    def keyed(data: StatusRows, section: str, *keys: str) -> dict[tuple[Any, ...], dict[str, Any]]:
        return {tuple(row[k] for k in keys): row for row in data.rest[section]}

    old_regions = {r.id: r for r in before.continents}
    continents = []
    for r in after.continents:
        was = old_regions.get(r.id)
        name, bonus = (was.name, was.bonus) if was is not None else (None, None)
        if name != r.name or bonus != r.bonus:
            continents.append({"id": r.id, "name": [name, r.name], "bonus": [bonus, r.bonus]})
    old_cards = {c.card: c.resources for c in before.resources}
    cards = [{"card": c.card, "resources": [old_cards.get(c.card, c.printed), c.resources]}
             for c in after.resources if old_cards.get(c.card, c.printed) != c.resources]
    old_cities = keyed(before, "cities", "territory", "name", "sticker")
    new_cities = keyed(after, "cities", "territory", "name", "sticker")
    old_marks, new_marks = _plain_marks(before), _plain_marks(after)
    return {
        "continents": continents, "cards": cards,
        "cities_founded": [c for k, c in new_cities.items() if k not in old_cities],
        "cities_gone": [c for k, c in old_cities.items() if k not in new_cities],
        # a mark placed in the range is told as placed even when it was cancelled in the range too (then it is
        # told as cancelled as well): the reader never meets a cancelled mark they were not told of
        "marks_placed": [_told(m) for k, m in new_marks.items() if k not in old_marks],
        "marks_cancelled": [_told(m) for k, m in new_marks.items() if m[0].cancelled and not m[0].mark.status
                            and not (k in old_marks and old_marks[k][0].cancelled)],
        "marks_retired": [_told(m) for k, m in new_marks.items() if m[0].mark.status
                          and not (k in old_marks and old_marks[k][0].mark.status)],
        "players_joined": [j for j in after.rest["joined"] if j not in before.rest["joined"]],
        "players_left": [x for x in after.rest["left"] if x not in before.rest["left"]],
        "destroyed_cards": [c for c in after.destroyed_cards if c not in before.destroyed_cards],
        "signatures": [s.json() for s in after.signatures if s not in before.signatures],
        "opened_packets": [e for e in after.opened_packets if e not in before.opened_packets],
    }


def _told(m: tuple[GroupedMark, str]) -> dict[str, Any]:
    """A mark as the diff tells it: its status fields and its group's title."""
    return {**m[0].json(), "group": m[1]}


def _plain_marks(data: StatusRows) -> dict[tuple[Any, ...], tuple[GroupedMark, str]]:
    """The marks of every mark group that no other line of the diff tells (a founded place is a city, a value a
    card's change, a name a continent's), keyed by where and when they were placed, each with its group's title."""
    return {(g.mark.target, g.mark.sticker, g.mark.game, g.mark.during_game, g.mark.name): (g, group.title)
            for group in data.mark_groups for g in group.marks
            if g.population is None and g.shown_as is None}


def diff_data(campaign: Campaign, first: int, last: int | None = None) -> dict[str, Any]:
    """`campaign diff FIRST [LAST]`: every event after game FIRST up to the end of game LAST (default: the
    ledger's last event, a game in progress included), told, and what those events changed."""
    from scarbook.campaign.report import status

    events = campaign.ledger.events
    start = point(events, first)
    stop = len(events) if last is None else point(events, last)
    if stop < start:
        raise NoSuchPoint(f"game {last} ends before game {first}: give the earlier game first")
    then = campaign.replay(events[:start])
    now = campaign.replay(events[:stop])
    words = Words(now)
    told = story(events, start, stop, words)
    changed = changes(status(campaign.ledger, then), status(campaign.ledger, now))
    return {"campaign": campaign.ledger.name or None, "game": now.content.game.id, "from": first, "to": last,
            "events": [t.to_json() for t in told], "changes": changed, "names": _names_of(changed, words)}


def _names_of(changed: dict[str, Any], words: Words) -> dict[str, str]:
    """The printed name of every id the changes mention (for the text form)."""
    found: dict[str, str] = {}

    def walk(value: Any) -> None:
        if isinstance(value, str) and value not in found and (words.content.game.item(value) is not None
                                                              or value in words.name.slots):
            found[value] = words(value)
        elif isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(changed)
    return found


def diff_text(data: dict[str, Any]) -> str:
    """The diff for people: the events game by game, then what they changed."""
    since = f"the end of game {data['from']}" if data["from"] else "the set-up before the first game"
    span = f"since {since}" if data["to"] is None else f"from {since} to the end of game {data['to']}"
    out = [f"{data['campaign'] or 'campaign'} ({data['game']}): what happened {span}"]
    if not data["events"]:
        return out[0] + "\n  nothing was recorded"
    heading = None
    for e in data["events"]:
        now = ("before the first game" if e["game"] == 0 else f"game {e['game']}"
               + {"after": ", after it", "during": ", during it"}.get(e["when"], ""))
        if now != heading and e["when"] not in ("start", "end"):
            out.append(f"  {now}:")
            heading = now
        elif e["when"] in ("start", "end"):
            heading = None
        indent = "  " if e["when"] in ("start", "end") else "    "
        out.append(f"{indent}{e['text'][0].upper()}{e['text'][1:]} (line {e['line']})")
        for n, line in enumerate((e.get("note") or "").splitlines()):
            out.append(f"{indent}  {'note: ' if n == 0 else '      '}{line}")
    lines = change_lines(data["changes"], data["names"])
    if lines:
        out.append("What changed:")
        out.extend(f"  {line}" for line in lines)
    return "\n".join(out)


def change_lines(ch: dict[str, Any], names: dict[str, str]) -> list[str]:
    """`changes` in words."""
    def n(i: str) -> str:
        return names.get(i, i)

    out = []
    for r in ch["continents"]:
        (name0, name1), (bonus0, bonus1) = r["name"], r["bonus"]
        bits = []
        if name0 != name1:
            bits.append(f"named {name1!r}" if name1 else "unnamed")
        if bonus0 != bonus1:
            bits.append(f"bonus {bonus0} -> {bonus1}")
        out.append(f"{n(r['id'])}: {', '.join(bits)}")
    out += [f"city {c['name']!r} founded in {n(c['territory'])} ({n(c['sticker'])}, {c['by'] or 'the group'})"
            for c in ch["cities_founded"]]
    out += [f"city {c['name']!r} in {n(c['territory'])} is gone" for c in ch["cities_gone"]]
    out += [f"{m['group']}: {n(m['sticker'])} placed on {n(m['target'])}" for m in ch["marks_placed"]]
    out += [f"{m['group']}: {n(m['sticker'])} on {n(m['target'])} cancelled" for m in ch["marks_cancelled"]]
    out += [f"{m['group']}: {n(m['sticker'])} on {n(m['target'])} {m['status']}" for m in ch.get("marks_retired", [])]
    out += [f"{j['player']} joins the campaign" for j in ch.get("players_joined", [])]
    out += [f"{x['player']} leaves the campaign" + (f"; {x['to']} holds what was theirs" if x["to"] else "")
            for x in ch.get("players_left", [])]
    out += [f"{n(c['card'])}: resources {c['resources'][0]} -> {c['resources'][1]}" for c in ch["cards"]]
    out += [f"{n(c)} destroyed" for c in ch["destroyed_cards"]]
    out += [f"{s['player']} signs after game {s['game']}" for s in ch["signatures"]]
    out += [f"{n(e)} opened" for e in ch["opened_packets"]]
    return out


# --- the chronicle ---------------------------------------------------------------------------------
def chronicle(campaign: Campaign, progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Everything the printable chronicle shows: a title page, one page per game (who played what, from
    where, how it ended, every event of that game told, the board after it), and the end of the campaign.
    Each page is told from the fold that ends with it: nothing from a packet opened later."""
    from scarbook.campaign.report import status
    from scarbook.campaign.sheet import sheet_svg

    ledger = campaign.ledger
    events = ledger.events
    ends = points(events)
    starts = [i for i, ev in enumerate(events) if spec_of(ev).game == "start"]
    pages: list[dict[str, Any]] = []
    drawn: tuple[int, str | None] = (0, None)  # the last board drawn, and after which game
    for number, begin in enumerate(starts, 1):
        if progress is not None:
            progress(f"game {number} of {len(starts)}")
        stop = ends[number] if number < len(ends) else len(events)
        replay = campaign.replay(events[:stop], check=False)
        words = Words(replay)
        told = story(events, begin, stop, words)
        record = replay.state.games[number - 1]
        typed = status(ledger, replay)
        board = sheet_svg(ledger, replay, typed, CHRONICLE_BOARD_MM)
        same = board is not None and board == drawn[1]  # the very picture drawn before: say so, draw it once
        if board is not None and not same:
            drawn = (number, board)
        pages.append({
            "number": number, "type": record.type, "ended": record.ended, "date": record.date,
            "players": [{"name": p, "pieces": [words(i) for i in record.pieces.get(p, {}).values()],
                         "start": words(record.starts[p]) if record.starts.get(p) else "",
                         "result": record.role(p).replace("-", " ") if record.ended else "playing",
                         "score": record.scores.get(p)}
                        for p in record.plays],
            **_page_shape(words, record, number),
            "signed": record.winner if record.signed else "",
            "notes": [t.event.note for t in told if t.when in ("start", "end") and t.event.note],
            "during": _lines([t for t in told if t.when == "during"]),
            "after": _lines([t for t in told if t.when == "after"]),
            "board": None if same else board, "board_as_after": drawn[0] if same else None,
            "standings": _standings(typed)})
    final = campaign.replay(check=False)
    data = status(ledger, final)
    words = Words(final)
    setup = starts[0] if starts else len(events)
    before = story(events, 0, setup, Words(campaign.replay(events[:setup], check=False)))
    return {"title": ledger.name or ledger.path.stem, "game_title": final.content.game.title,
            "meta_title": f"{a(final.content.game.title)} campaign", "signs": data.signs,
            "shape_lines": shape_lines(data.shape), "comings": _comings(data.rest),
            "regions_shown": data.regions_named or any(r.bonus or r.changes for r in data.continents),
            "players": [*ledger.players, *(j["player"] for j in data.rest["joined"]
                                             if j["player"] not in ledger.players)], "games": pages,
            "holders": [{"name": words(r.id, "regions"), "owner": r.owner} for r in data.continents if r.owner],
            "totals": [{"name": p.name, "total": p.score_total} for p in data.players if p.score_total is not None],
            "before": _lines(before), "standings": _standings(data), "overall_winner": data.overall_winner,
            "continents": [{"name": words(r.id, "regions"), "named": r.name or "", "by": r.named_by or "",
                            "bonus": r.bonus} for r in data.continents],
            "cities": [{"name": c["name"], "where": words(c["territory"]), "by": c["by"] or ""}
                       for c in data.rest["cities"]],
            "played": data.games_played, "in_progress": data.game_in_progress,
            "team": bool(data.shape.get("team")), "result_line": _result_line(data.overall_winner),
            "signature": data.words["signature"], "region": data.words["region"]}


def _comings(data: dict[str, Any]) -> list[str]:
    """Who joined and who left the campaign, and when, in words."""
    said = [(j["after_game"], f"{j['player']} joined after game {j['after_game']}" if j["after_game"] else
             f"{j['player']} joined before game 1") for j in data.get("joined", [])]
    said += [(x["after_game"], f"{x['player']} left after game {x['after_game']}"
              + (f", handing their holdings to {x['to']}" if x["to"] else "")) for x in data.get("left", [])]
    return [text for _n, text in sorted(said, key=lambda t: t[0])]


def _page_shape(words: Words, record: Any, number: int) -> dict[str, Any]:
    """What a game's page says in the game's shape: what was played (a scenario, a chapter), a team's result, and
    which columns its table needs (pieces, starts, scores only where the game has them)."""
    from scarbook.campaign.shape import chapter_label

    played = scenario_name(words, record.scenario) or chapter_label(words.content, record)
    return {"played": played, "team": (team_result(record.team, words, number) if record.team else ""),
            "columns": {"pieces": any(record.pieces.get(p) for p in record.plays),
                        "start": any(record.starts.get(p) for p in record.plays), "score": bool(record.scores),
                        "result": not record.team}}


def _result_line(winner: dict[str, Any] | None) -> str:
    """A team campaign's result in words ('The campaign is won (11 of 12 <chapters> won …)'), else ''."""
    from scarbook.campaign.shape import result_line

    return result_line(winner) if winner and winner.get("team") else ""


def _standings(data: StatusRows) -> list[dict[str, Any]]:
    return [{"name": p.name, "signatures": p.signatures} for p in data.players]


def _lines(told: list[Told]) -> list[dict[str, str]]:
    """The events told, in order, each `{text, note}`; a line said several times in a row without a note once,
    with its count."""
    out: list[tuple[str, int, str]] = []
    for t in told:
        if out and out[-1][0] == t.text and not out[-1][2] and not t.event.note:
            out[-1] = (t.text, out[-1][1] + 1, "")
        else:
            out.append((t.text, 1, t.event.note))
    return [{"text": f"{line} (x{n})" if n > 1 else line, "note": note} for line, n, note in out]


def chronicle_html(campaign: Campaign, inline_fonts: bool = False,
                   progress: Callable[[str], None] | None = None) -> str:
    """The chronicle as HTML (`templates/chronicle.html.j2`, the compiler's environment: autoescape,
    StrictUndefined); with `inline_fonts`, one self-contained file."""
    from scarbook.campaign.sheet import _inline_fonts
    from scarbook.compiler.render.html import environment

    html = str(environment().get_template("chronicle.html.j2").render(c=chronicle(campaign, progress)))
    return _inline_fonts(html) if inline_fonts else html


def write_chronicle(campaign: Campaign, out: Path, fmt: str = "pdf",
                    progress: Callable[[str], None] | None = None) -> Path:
    """Write the chronicle as `fmt` (pdf, or html: one self-contained file) to `out` (a regular file, or a FIFO
    or device as a stream: `kernel.outputs`); `progress` hears each stage (a game's page, the layout)."""
    from scarbook.kernel.outputs import write_output

    if fmt == "html":
        write_output(out, chronicle_html(campaign, inline_fonts=True, progress=progress).encode("utf-8"))
        return out
    from scarbook.compiler.render.pdf import render_pdf
    from scarbook.templates import TEMPLATE_DIR

    html = chronicle_html(campaign, progress=progress)
    if progress is not None:
        progress("laying out the PDF")
    write_output(out, render_pdf(html, [TEMPLATE_DIR], TEMPLATE_DIR))
    return out
