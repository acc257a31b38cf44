"""The campaign at the table (`scarbook serve`): what is to do now, in order, each with the command it stands
for; what may go on one place; the shape of the game start and end forms; the board; the ledger's hash.

Reads only, through the same cache and replay as `status` and `where`. The words come from the content
(step, sticker, piece and packet names); nothing here names a game. Writes go through `writing`.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from scarbook.campaign import replaycache, rules, shape, steps
from scarbook.campaign.content import Content
from scarbook.campaign.engine import Campaign, Replay
from scarbook.campaign.eventspecs import pack_of
from scarbook.campaign.ledger.cache import read
from scarbook.campaign.ledger.file import Ledger
from scarbook.campaign.links import lines_of
from scarbook.campaign.rules import _choices as placement_choices  # the options `where` tries for a target
from scarbook.campaign.service.writing import redoable
from scarbook.campaign.state import CampaignState, Mark
from scarbook.compiler.views_more import more
from scarbook.kernel.sha import hexdigest


def ledger_sha256(ledger: Ledger) -> str:
    """The sha256 of the ledger's bytes: every page carries it, every write from a page compares it."""
    return hexdigest(ledger.raw)


def fingerprint(path: Path) -> str:
    """The sha256 of the campaign file as it is now (a page polls it to see another device's write)."""
    return ledger_sha256(read(path))


@dataclass(frozen=True)
class Action:
    """One thing to do now: what (in the game's words), who, the rule, the CLI command it stands for, and
    what one tap needs (`sticker` on `target` by `by`; `packet` to open; `step` to pass)."""

    kind: str  # setup | open | put | step | may | owed
    text: str
    who: str = ""
    command: str = ""
    sticker: str = ""
    target: str = ""  # set when exactly one target is legal: one tap records it
    targets: tuple[str, ...] = ()
    by: str = ""
    piece: str = ""
    packet: str = ""
    step: str = ""
    can_pass: bool = False
    stickers: tuple[str, ...] = ()  # every sticker the step offers that can go somewhere (the player picks one)
    ready: bool = True  # False: it waits for an earlier step in the order the rules require
    rule: str = ""
    cite: str = ""


@dataclass(frozen=True)
class Choice:
    """One option of a select in a form: its id and how the game names it."""

    id: str
    name: str


@dataclass
class Table:
    """Everything the table page shows: where the campaign stands and what to do now."""

    sha256: str
    title: str
    game: str
    players: list[str]
    next_game: int
    in_progress: int | None
    actions: list[Action]
    play_kinds: list[tuple[str, list[Choice]]] = field(default_factory=list)  # (piece kind name, its pieces)
    team: bool = False
    over: bool = False
    warning: str = ""
    data: dict[str, Any] = field(default_factory=dict)
    stickers: list[Choice] = field(default_factory=list)  # stickers with some left, to ask where they may go
    names: dict[str, str] = field(default_factory=dict)  # territory and sticker ids -> the game's names
    tickable: list[Choice] = field(default_factory=list)  # during a game: places whose mark has boxes left (tick)
    linkable: list[Choice] = field(default_factory=list)  # placed stickers that bring lines (link)
    territories: list[Choice] = field(default_factory=list)  # every place on the board as played (link's ends)
    packs: list[Choice] = field(default_factory=list)  # between games: house-rule packs beside the file (add-pack)
    redo: str = ""  # how `log` tells the event `redo` would record again ('' when there is nothing to redo)


def _name(content: Any, item_id: str) -> str:
    label = content.label(item_id)
    return str(label) if label else item_id


def _place(sid: str, target: str, by: str, piece: str = "") -> str:
    by_part = f" --by {by}" if by else ""
    return f"scarbook campaign place {sid} {target or 'TARGET'}{by_part}" + (f"  # for {piece}" if piece else "")


def _setup(replay: Replay, number: int) -> list[Action]:
    """The setup obligations left before game `number` (as `game start` would refuse them, R221), one
    action per player who still owes one."""
    content, state = replay.content, replay.state
    problems = rules.setup_problems(content, state, number)
    out = []
    for ob in content.model.setup:
        st = content.stickers.get(ob.sticker)
        if st is None or ob.before_game > number:
            continue
        what = ob.text or f"place {st.get('name', ob.sticker)}"
        found = [p for p in problems if p.rule == what and p.cite == ob.cite]
        if not found:
            continue
        if ob.each == "player":
            missing = [p for p in state.players
                       if not any(m.sticker == ob.sticker and m.by == p for ms in state.marks.values() for m in ms)]
            for player in missing:
                targets = rules.where(content, state, ob.sticker, player, in_order=False)
                out.append(Action("setup", f"{what}: {_name(content, ob.sticker)}", player,
                                  _place(ob.sticker, "", player), ob.sticker,
                                  targets[0] if len(targets) == 1 else "", tuple(targets), player,
                                  rule=what, cite=ob.cite))
        else:
            targets = rules.where(content, state, ob.sticker, in_order=False)
            out.append(Action("setup", found[0].message.split(" (scarbook")[0], "", _place(ob.sticker, "", ""),
                              ob.sticker, targets[0] if len(targets) == 1 else "", tuple(targets),
                              rule=what, cite=ob.cite))
    return out


def _steps(replay: Replay) -> list[Action]:
    """The end-of-game steps still open, in the order the rules give them: owed ones first (what keeps the
    next game from starting), then those a player may still take."""
    content, state = replay.content, replay.state
    blocking = rules.blocking(content, state)
    owed = {o.key for o in blocking}
    out = []
    for o in [*blocking, *(o for o in steps.open_entries(content, state) if o.key not in owed)]:
        actor = o.actor or next(iter(o.players), "")
        offered = [s for s in (*o.step.stickers, *o.step.fallback) if s in content.stickers]
        now = {s: rules.where(content, state, s, actor, o.piece) for s in offered}
        later = {s: rules.where(content, state, s, actor, o.piece, in_order=False) for s in offered}
        usable = [s for s in offered if now[s]] or [s for s in offered if later[s]]
        sid = usable[0] if usable else (offered[0] if offered else "")
        targets = tuple(now.get(sid, [])) if sid else ()
        mandatory = o.key in owed
        can_pass = not o.step.mandatory or bool(o.step.pass_if)
        command = _place(sid, "", o.actor, o.piece if o.piece != o.actor else "") if sid else (
            f"scarbook campaign pass {o.step.id} --by {actor}")
        text = o.step.name + (f" for {o.piece}" if o.piece and o.piece != o.actor else "")  # who is shown apart
        out.append(Action("step" if mandatory else "may", text, o.who, command, sid,
                          targets[0] if len(targets) == 1 else "", targets, o.actor,
                          o.piece if o.piece != o.actor else "", step=o.step.id, can_pass=can_pass,
                          stickers=tuple(usable), ready=any(now[s] for s in usable), rule=o.step.name,
                          cite=o.step.cite))
    return out


def actions(replay: Replay) -> list[Action]:
    """Everything to do now, in order: setup before the next game, packets to open, an opened packet's
    stickers to put in place, stickers a condition owes, then the last game's steps."""
    content, state = replay.content, replay.state
    out: list[Action] = []
    if state.in_progress is None:
        out += _setup(replay, state.started + 1)
    for env in replay.pending:
        info = content.envelope_views.get(env)
        name, trigger = (info.name, info.trigger_text) if info is not None else (env, "")
        out.append(Action("open", f"open the sealed packet {name}" + (f" ({trigger})" if trigger
                          else ""), command=f"scarbook campaign open {env}", packet=env))
    for sid, target, env in rules.to_put_in_place(content, state):
        out.append(Action("put", f"put {_name(content, sid)} from the packet {_name(content, env)} on "
                          f"{_name(content, target)}", command=_place(sid, target, ""), sticker=sid, target=target,
                          targets=(target,)))
    for owed in shape.owed_now(content, state, lambda sid, t: rules.legal_now(content, state, sid, t)):
        out.append(Action("owed", f"{owed.rule.text or 'place ' + _name(content, owed.rule.place)} on "
                          f"{_name(content, owed.target)}", command=_place(owed.rule.place, owed.target, ""),
                          sticker=owed.rule.place, target=owed.target, targets=(owed.target,),
                          cite=owed.rule.cite))
    return out + _steps(replay)


def table(path: Path) -> Table:
    """The campaign as the table page shows it (status data, what to do now, the forms' shape)."""
    from scarbook.campaign.service.reading import status

    campaign = Campaign(read(path))
    replay = replaycache.for_state(campaign)
    content, state = replay.content, replay.state
    found = status(path)
    live = state.in_progress
    number = live.number if live else state.started + 1
    model = content.model
    kinds = [model.pieces[k] for k in model.types[model.type_of(number)].plays if k in model.pieces]
    plays = [(k.name, [Choice(pid, str(item.printed_name or pid))
                       for pid, item in more(content).pieces_of(k.id).items()]) for k in kinds]
    left = {s.sticker: s.left for s in found.rows.stickers}
    stickers = [Choice(sid, st.name or sid) for sid, st in content.sticker_views.items()
                if (n := left.get(sid)) is None or n > 0]
    names = {**{tid: str(t.printed_name or tid) for tid, t in more(content).territories.items()},
             **{sid: st.name or sid for sid, st in content.sticker_views.items()}}
    tickable = [Choice(tid, names.get(tid, tid)) for tid in content.territories
                if live and any(m.boxes and m.boxes > m.ticked for m in state.active_marks(tid))]
    linkable = [Choice(sid, names.get(sid, sid)) for sid, st in content.sticker_views.items()
                if state.placed.get(sid) and any(lines_of(st))]
    redone = redoable(path)
    return Table(ledger_sha256(campaign.ledger), campaign.ledger.name or campaign.ledger.path.stem,
                 content.game.title, list(state.players), number, live.number if live else None,
                 actions(replay), plays, model.team, shape.campaign_over(content, state), found.warning,
                 found.data, stickers, names, tickable, linkable,
                 [Choice(tid, names.get(tid, tid)) for tid in content.territories] if linkable else [],
                 [] if live else pack_choices(path, [pack for ev in campaign.ledger.events if (pack := pack_of(ev))]),
                 redone.said if redone else "")


#: How deep `pack_choices` looks under the campaign file's folder, and how many folders it reads at most.
PACK_DEPTH, PACK_FOLDERS = 3, 2000


def pack_choices(path: Path, added: list[str]) -> list[Choice]:
    """The house-rule packs a page may add (`add-pack`): folders holding a `pack.yaml` under the campaign file's
    folder (hidden folders skipped), as `add-pack` records them (relative to the file), not added yet. A page
    adds only one of these: a phone never names a path on the server's disk."""
    from scarbook.campaign.ledger.file import recorded_path

    top = path.resolve().parent
    found, seen = [], 0
    folders = [(top, 0)]
    while folders and seen < PACK_FOLDERS:
        folder, depth = folders.pop(0)
        seen += 1
        try:
            children = sorted(p for p in folder.iterdir() if not p.name.startswith(".") and p.is_dir()
                              and not p.is_symlink())
        except OSError:
            continue
        if folder != top and (folder / "pack.yaml").is_file():
            stored = recorded_path(path, folder)
            if stored not in added:
                found.append(Choice(stored, stored))
            continue
        if depth < PACK_DEPTH:
            folders.extend((child, depth + 1) for child in children)
    return found


@dataclass(frozen=True)
class Legal:
    """A sticker that may go on one place now, who may place it, and what else it asks for."""

    sticker: str
    name: str
    players: list[str]
    named: bool  # it founds or names something: a name is asked for


def on_place(content: Content, marks: list[Mark]) -> list[str]:
    """What is on one place (or its card) now, a line per sticker in the game's words: its name, what it was
    named, who holds it and since when, the boxes left to tick, what covers it
    ('Major City “Sunny Glasgow”: Ann, after game 1')."""
    def name(sid: str) -> str:
        view = content.sticker_views.get(sid)
        return view.name if view is not None and view.name else sid

    out = []
    for m in marks:
        when = (f"during game {m.during_game}" if m.during_game else
                f"after game {m.after_game}" if m.after_game else "before game 1")
        facts = [m.by, when] if m.by else [when]
        if m.value is not None:
            facts.append(f"set to {m.value}")
        if m.boxes:
            facts.append(f"{m.boxes - m.ticked} of {m.boxes} boxes left")
        if m.cancels:
            under = [x for x in marks if x.covered_by == m.sticker]
            facts.append(f"cancels the {name(under[-1].sticker)} under it" if under else "cancels what was under it")
        if m.covered_by is not None:
            facts.append(f"covered by {name(m.covered_by)}")
        if m.status:
            facts.append(m.status)
        out.append((f"{name(m.sticker)}" + (f" “{m.name}”" if m.name else ""), ", ".join(facts)))
    counted = Counter(out)  # two coins placed alike: one line, ×2
    return [f"{what}{f' ×{counted[(what, facts)]}' if counted[(what, facts)] > 1 else ''}: {facts}"
            for what, facts in dict.fromkeys(out)]


@dataclass(frozen=True)
class Refused:
    """A sticker that goes on places like this one but may not go here now: the first rule against it, as
    `place` would refuse it."""

    sticker: str
    name: str
    why: str


@dataclass
class Here:
    """One place as its page shows it: its name, what may go on it now and for whom, what may not and why, and
    what is on it (and on its card) now."""

    name: str
    legal: list[Legal]
    refused: list[Refused]
    on_it: list[str]


def _why_not(content: Content, state: CampaignState, sid: str, target: str) -> str:
    """The first rule `place` would cite against this sticker on this place now, for whoever would place it."""
    view = content.sticker_views[sid]
    for kind in view.targets:
        if target not in content.target_ids(kind, view):
            continue
        found = content.target_of_kind(kind, target)
        name, value = next(iter(placement_choices(content, state, view, found)), ("", None))
        r = rules.Resolved(sid, view, found, rules.default_actor(content, state, view), name or "x", value)
        for problem in rules.placement_problems(content, state, r):
            if problem.code != "R224":
                return problem.explained
    return "it may not go here now"


def legal_here(path: Path, target: str) -> Here:
    """One place now: every sticker that may legally go there, with the players who may place it (the same check
    as `where` and `place`); every other sticker that goes on such places, with the rule against it; and what
    is on it (`on_place`)."""
    campaign = Campaign(read(path))
    replay = replaycache.for_state(campaign)
    content, state = replay.content, replay.state
    out = []
    refused = []
    for sid, st in content.sticker_views.items():
        if not any(target in content.target_ids(kind, st) for kind in st.targets):
            continue
        players = [p for p in state.players if rules.where(content, state, sid, p, only=target)]
        if not players and rules.where(content, state, sid, only=target):
            players = [""]
        if players:
            out.append(Legal(sid, st.name or sid, players, st.named))
        else:
            refused.append(Refused(sid, st.name or sid, _why_not(content, state, sid, target)))
    card = content.card_of_territory.get(target)
    here = on_place(content, state.marks.get(target, []))
    if card is not None:
        here += [f"{_name(content, card)} card: {line}" for line in on_place(content, state.marks.get(card, []))]
    return Here(_name(content, target), out, refused, here)


def sticker_info(path: Path, sticker: str) -> tuple[str, bool]:
    """How the game names a sticker ('' when the campaign has no such sticker), and whether placing it asks
    for a name (it founds or names something)."""
    campaign = Campaign(read(path))
    content = replaycache.for_state(campaign).content
    st = content.sticker_views.get(sticker)
    if st is None:
        return "", False
    return st.name or sticker, st.named


def options(path: Path, sticker: str, targets: list[str]) -> dict[str, list[Choice]]:
    """For a sticker that picks one of a target's options (a starting power: `choice-of`) or sets a value one
    step on (a stat: `steps-value`): each target's options, as `place --name [--value]` takes them (id
    `name` or `name=value`). Empty for any other sticker."""
    campaign = Campaign(read(path))
    replay = replaycache.for_state(campaign)
    content, state = replay.content, replay.state
    view = content.sticker_view(sticker)
    if not (view.checks_named("choice-of") or view.checks_named("steps-value")):
        return {}
    out = {}
    for tid in targets:
        target = content.target(view, tid)
        powers = {str(o.get("id")): str(o.get("name") or o.get("id")) for c in view.checks_named("choice-of")
                  for o in target.item.get(c.field or "powers", []) or [] if isinstance(o, dict)}
        out[tid] = [Choice(name if value is None else f"{name}={value}",
                           powers.get(name, name) if value is None else f"{name} to {value}")
                    for name, value in placement_choices(content, state, view, target) if name]
    return out


def labels(path: Path, ids: list[str]) -> dict[str, str]:
    """How the game names each of these items (a territory, a card, a faction ...; the id when it has no name)."""
    campaign = Campaign(read(path))
    content = replaycache.for_state(campaign).content
    return {i: _name(content, i) for i in ids}


def packet_contents(path: Path, packet: str) -> list[str]:
    """What an opened packet holds, as the game names it (for the page that opened it)."""
    campaign = Campaign(read(path))
    content = replaycache.for_state(campaign).content
    info = content.envelope_views.get(packet)
    return [_name(content, item) for item in (info.contents if info is not None else None) or ()]


@dataclass(frozen=True)
class Board:
    """The board picture with the campaign's marks, and where each place is on it (fractions of its size)."""

    svg: str
    places: list[tuple[str, str, float, float, float]]  # (id, name, x, y, radius) as fractions of the picture


def board(path: Path, after: int | None = None) -> Board | None:
    """The board as `campaign sheet` draws it (now, or as it stood after game `after`); None when the game
    draws no board."""
    from scarbook.campaign.effective import applied
    from scarbook.campaign.history import replay_after
    from scarbook.campaign.sheet import sheet_svg
    from scarbook.compiler.boardmap import layout_of

    campaign = Campaign(read(path))
    replay = replaycache.for_state(campaign) if after is None else replay_after(campaign, after)
    svg = sheet_svg(campaign.ledger, replay)
    if svg is None:
        return None
    size = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg)
    if size is None:
        return Board(svg, [])
    width, height = float(size.group(1)), float(size.group(2))
    game = applied(replay)
    layout = layout_of(game)  # where each place is: the same for every request until the board changes
    names = game.section("territories")
    places = [(tid, str((names.get(tid) or {}).get("name") or tid), x / width, y / height, layout.radius / width)
              for tid, (x, y) in layout.pos.items()]
    return Board(svg, places)
