"""Each kind of event in words, in its two registers: one narrator per kind, registered in `eventspecs.SPECS`.

`line_*` is the short line `log`, a recorded event's confirmation and `undo` say, with ids as the ledger spells
them (`cutting`: the stickers whose lines cut edges, when the content is at hand). `tell_*` is the sentence
`diff`, `history` and the chronicle tell, as a group would say it, from the content's names (`history.Words`: the
name printed on a sticker, a territory, a card, a packet; the name a player gave) and from what the sticker's data
says it does (`founds`, `named`, `cancels`, `adds`, a set value, lines): nothing here knows a game. What both
registers say alike (a newcomer joining) is said by one function.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from scarbook.campaign.links import cuts

if TYPE_CHECKING:
    from scarbook.campaign import events
    from scarbook.campaign.history import Words


def plain(key: str) -> str:
    """A field's key or a left-over id in the prose's words: "melee_dice" -> "melee dice"."""
    return key.replace("_", " ") if " " not in key else key


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _by(by: str) -> str:
    return f" by {by}" if by else ""


def _boxes(n: int) -> str:
    return f"{n} box{'' if n == 1 else 'es'} ticked"


def scenario_name(words: Words, sid: str) -> str:
    """A scenario's name as the content gives it ('' for none)."""
    if not sid:
        return ""
    sc = words.content.model.scenarios.get(sid)
    return sc.name if sc is not None else sid


def _scenario_of(words: Words, game: int) -> str:
    """' (The Cave)': the scenario a game played, where it played one."""
    record = words.state.games[game - 1] if 0 < game <= len(words.state.games) else None
    name = scenario_name(words, record.scenario) if record is not None else ""
    return f" ({name})" if name else ""


def team_result(result: str, words: Words, game: int) -> str:
    """A team game's result in the game's words ("<Chapter> 2 lost (try 1 of 2)" where games play chapters, "The
    Cave lost" where they play scenarios), else "the team lost"."""
    chapters = words.content.model.chapters
    record = words.state.games[game - 1] if 0 < game <= len(words.state.games) else None
    if record is not None and record.scenario:
        return f"{scenario_name(words, record.scenario)} {result}"
    if chapters is None or record is None or not record.chapter:
        return f"the team {result}"
    tries = f" ({chapters.try_word} {record.attempt} of {chapters.tries})" if chapters.tries > 1 else ""
    return f"{chapters.name[:1].upper()}{chapters.name[1:]} {record.chapter} {result}{tries}"


# --- game-start -------------------------------------------------------------------------------------
def line_game_start(ev: events.GameStarted, cutting: frozenset[str]) -> str:
    starts = dict(ev.starts)
    plays = ", ".join((f"{p} as {' and '.join(f)}" if f else p) + (f" from {starts[p]}" if p in starts else "")
                      for p, f in ev.plays)
    return (f"game starts: {plays}" + (f" ({ev.type})" if ev.type else "")
            + (f"; scenario: {ev.scenario}" if ev.scenario else "")
            + (f"; seated clockwise: {', '.join(ev.seating)}" if ev.seating else ""))


def tell_game_start(ev: events.GameStarted, words: Words, game: int) -> str:
    starts = dict(ev.starts)
    plays = [p + (f" plays {' and '.join(words(i) for i in ids)}" if ids else "")
             + (f" from {words(starts[p])}" if p in starts else "") for p, ids in ev.plays]
    played = scenario_name(words, ev.scenario)
    return f"game {game} starts: {played + '; ' if played else ''}{', '.join(plays)}"


# --- game-end ---------------------------------------------------------------------------------------
def line_game_end(ev: events.GameEnded, cutting: frozenset[str]) -> str:
    parts = [f"the team {ev.team}" if ev.team else f"{ev.winner} wins"]
    if ev.held_on:
        parts.append(f"held on: {', '.join(ev.held_on)}")
    if ev.eliminated:
        parts.append(f"eliminated: {', '.join(ev.eliminated)}")
    if ev.scores:
        parts.append(_scores(ev))
    return "game ends: " + "; ".join(parts)


def tell_game_end(ev: events.GameEnded, words: Words, game: int) -> str:
    parts = [team_result(ev.team, words, game) if ev.team else f"{ev.winner} wins" + _scenario_of(words, game)]
    if ev.held_on:
        parts.append(f"{' and '.join(ev.held_on)} held on")
    if ev.eliminated:
        parts.append(f"{' and '.join(ev.eliminated)} {'was' if len(ev.eliminated) == 1 else 'were'} eliminated")
    if ev.lost:
        parts.append(f"lost for good: {', '.join(words(p) for p in ev.lost)}")
    if ev.scores:
        parts.append(_scores(ev))
    return f"game {game} ends: " + "; ".join(parts)


def _scores(ev: events.GameEnded) -> str:
    return "scores: " + ", ".join(f"{p} {n}" for p, n in ev.scores)


# --- place ------------------------------------------------------------------------------------------
def line_place(ev: events.Placed, cutting: frozenset[str]) -> str:
    name = f" {ev.name!r}" if ev.name else ""
    joined = "cut from" if ev.sticker in cutting else "joined to"
    return f"{ev.sticker}{name} on {ev.target}" + (f", {joined} {ev.to}" if ev.to else "") + _by(ev.by)


def tell_place(ev: events.Placed, words: Words, game: int) -> str:
    who = ev.by or "the group"
    st = words.sticker(ev.sticker)
    what, where = words(ev.sticker, "stickers"), words(ev.target)
    founds = st.get("founds") if isinstance(st.get("founds"), dict) else None
    if founds is not None:
        text = f"{who} founds {ev.name!r} ({what}) in {where}" if ev.name else f"{who} founds a {what} in {where}"
    elif st.get("named") and ev.name:
        text = f"{who} names {where} {ev.name!r} ({what})"
    elif st.get("cancels"):
        gone = [m for m in words.state.marks.get(ev.target, []) if m.covered_by == ev.sticker
                and m.line < ev.span.line]  # the latest mark it may cover went under it
        covered = f"the {words(gone[-1].sticker, 'stickers')}" if gone else "what was"
        text = f"{who} cancels {covered} on {where} ({what})"
    elif ev.value is not None:
        text = f"{who} sets {plain(words(ev.name)) if ev.name else 'the value'} of {where} to {ev.value} ({what})"
    elif ev.name:
        text = f"{who} places {what} on {where}: {plain(words(ev.name))}"
    else:
        text = f"{who} places {what}" + ("" if where == what else f" on {where}")
    adds = st.get("adds")
    pairs = adds.items() if isinstance(adds, dict) else ()
    changes = [f"{plain(k)} {_signed(v)}" for k, v in pairs if isinstance(v, int) and not isinstance(v, bool)
               and f"{_signed(v)} " not in f"{what} "]  # a mark whose name already says its value says it once
    if changes:
        text += f" ({', '.join(changes)})"
    if ev.to:
        text += f", {'cut from' if cuts(words.content.sticker_view(ev.sticker)) else 'joined to'} {words(ev.to)}"
    return text


# --- destroy, open, add-pack, link, tick ------------------------------------------------------------
def line_destroy(ev: events.Destroyed, cutting: frozenset[str]) -> str:
    return f"{ev.card} destroyed" + _by(ev.by)


def tell_destroy(ev: events.Destroyed, words: Words, game: int) -> str:
    return f"{ev.by or 'the group'} destroys {words(ev.card)}"


def line_open(ev: events.Opened, cutting: frozenset[str]) -> str:
    return f"packet {ev.envelope} opened" + (f" (pack {ev.pack})" if ev.pack else "")


def tell_open(ev: events.Opened, words: Words, game: int) -> str:
    return f"{words(ev.envelope, 'envelopes')} is opened" + (f" (its pack: {ev.pack})" if ev.pack else "")


def line_add_pack(ev: events.PackAdded, cutting: frozenset[str]) -> str:
    return f"pack {ev.pack} added"


def tell_add_pack(ev: events.PackAdded, words: Words, game: int) -> str:
    return f"the house-rule pack {ev.pack} is added"


def line_link(ev: events.Linked, cutting: frozenset[str]) -> str:
    done = "cut" if ev.sticker in cutting else "drawn"
    return f"line {ev.a} - {ev.b} {done} ({ev.sticker})" + _by(ev.by)


def tell_link(ev: events.Linked, words: Words, game: int) -> str:
    done = "cuts the line" if cuts(words.content.sticker_view(ev.sticker)) else "draws a line"
    return f"{ev.by or 'the group'} {done} {words(ev.a)} - {words(ev.b)} ({words(ev.sticker, 'stickers')})"


def line_tick(ev: events.Ticked, cutting: frozenset[str]) -> str:
    return f"{_boxes(ev.boxes)} on {ev.target}"


def tell_tick(ev: events.Ticked, words: Words, game: int) -> str:
    return f"{_boxes(ev.boxes)} in {words(ev.target)}"


# --- join, leave, retire, pass ----------------------------------------------------------------------
def line_join(ev: events.Joined, cutting: frozenset[str]) -> str:
    """Both registers: the players' names are their own."""
    return f"{ev.player} joins the campaign" + (f" in {ev.replaces}'s place, taking over their holdings"
                                                 if ev.replaces else "")


def tell_join(ev: events.Joined, words: Words, game: int) -> str:
    return line_join(ev, frozenset())


def line_leave(ev: events.Left, cutting: frozenset[str]) -> str:
    return f"{ev.player} leaves the campaign" + (f"; their holdings go to {ev.to}" if ev.to else "")


def tell_leave(ev: events.Left, words: Words, game: int) -> str:
    return f"{ev.player} leaves the campaign" + (f", handing their holdings to {ev.to}" if ev.to else "")


def line_retire(ev: events.Retired, cutting: frozenset[str]) -> str:
    return f"{ev.sticker} on {ev.target} {ev.status}" + (f" ({ev.by}'s)" if ev.by else "")


def tell_retire(ev: events.Retired, words: Words, game: int) -> str:
    return (f"{words(ev.sticker, 'stickers')} on {words(ev.target)}" + (f" ({ev.by}'s)" if ev.by else "")
            + f" is {ev.status} for good")


def line_pass(ev: events.Passed, cutting: frozenset[str]) -> str:
    return f"{ev.by} passes {ev.step}" + (f" for {ev.piece}" if ev.piece else "") + (f" ({ev.why})" if ev.why else "")


def tell_pass(ev: events.Passed, words: Words, game: int) -> str:
    return (f"{ev.by} passes: {words.steps.get(ev.step, ev.step)}" + (f" for {words(ev.piece)}" if ev.piece else "")
            + (f" ({ev.why})" if ev.why else ""))
