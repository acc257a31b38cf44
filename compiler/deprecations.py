"""The table of content constructs a later edition replaced: one row each, read by `compiler.editions`.

Each row says what the old form looks like, what it becomes (with the same meaning), the edition that
replaced it, and how to name the replacement in a warning. `validate`, `build` and the tracker read the
old form through the row (with a warning X600); `scarbook migrate` writes the new form into the file.
A change that removes or renames a construct adds its row here, a case to tests/compat/ and a line to
CHANGELOG.md.

Edition 2 (release 0.2.0) replaced:
- the count checks `once-per-target`, `one-per-player`, `one-per-game` and `one-reward-per-game` by the
  scoped `limit` (`{check: limit, max: 1, of: [...], per: [...]}`);
- cites naming a shipped game's transcription file (`001_e430d55b72a215e6.txt § If you won`) by cites
  naming the source the game declares (`rulebook § If you won`).

Edition 3 (the campaign language) replaced:
- an obligation's `field`/`at_least` (`owed_when: [{targets: K, field: F, at_least: N, place: S}]`) by a
  condition of the language on each target (`when: {stat: F, at_least: N}`);
- a packet trigger's own forms that the language says the same way: `{placed: X, count: N}` by
  `{count: {sticker: X, status: any}, at_least: N}` (every X ever placed, covered or not), `{after_game: N}` by
  `{game: played, at_least: N}`, `{event: game-ended}` by `{game: played, at_least: 1}` and
  `{event: game-started}` by `{game: number, at_least: 1}`. (`opened: X` is the language's own form already.)

Edition 4 replaced the packet triggers' last own forms that say a state of the campaign:
`{signatures_by_one_player: N}` by `{signatures: {most: true}, at_least: N}`, `{after_chapter: N}` by
`{game: chapters, at_least: N}`, and `{event: faction-eliminated}` / `{event: player-eliminated}` by
`{game: eliminated, at_least: 1}`. (`about_to_place: X` is not a state but the moment a placement of X is
tried, answered at that placement: it stays a trigger form of its own.)

Edition 5 replaced the campaign's last special form, `overall_winner` (warning X602), by `outcome` in the
language: `{after_game: N, most: signatures, tie_bonus: {per: P, named: B, text: T}}` by `{when: {game: played,
at_least: N}, rank_by: [{signatures: actor}], ties: {roll_off: {bonus: {count: {kind: P, by: actor, named: B}}},
text: T}, show: winner}`, and the team threshold `{team: true, count: chapters-won, at_least: N}` by `{won_when:
{chapters: won, at_least: N}, lost_when: {sum: [{chapters: won}, {chapters: left}], at_most: N-1}, show: tally}`
(games won, `{games: {result: won}}` and `{game: left}`, when it counts games). (`{unknown: ...}` stays.)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from scarbook.compiler.sources import SECTION_MARK


@dataclass(frozen=True)
class Deprecation:
    """One construct a later edition replaced: how to find it, what it becomes, and in words for people.

    `matches(pointer, value)` says whether the node at `pointer` is the old form; `rewrite(value, doc_data)`
    gives the node in the new form (the same meaning); `replacement(value, new)` names it for the warning.
    """

    name: str  # the old form in a few words ("check 'one-per-game'")
    edition: int  # the first edition in which the old form is gone
    matches: Callable[[str, Any], bool]
    rewrite: Callable[[Any, Any], Any]
    replacement: Callable[[Any, Any], str]
    at: str = ""  # a key of the node whose value the warning points at ('' : the node itself)
    #: The quick test every mapping of a file goes through first: the old form can be there only when the mapping
    #: has the key `probe_key` and `probe` says yes to its value (most files have no old form: one cheap pass).
    probe_key: str = ""
    probe: Callable[[Any], bool] = lambda value: True
    #: Where a value of the old form went in the new one ({new pointer: old pointer}, below the node): a later
    #: diagnostic about it points at the value as the file writes it.
    moved: Callable[[Any], dict[str, str]] = lambda value: {}
    code: str = "X600"  # the diagnostic code of the warning (X600, or a code of its own in the X6xx range)


# --- the count checks (edition 2: the scoped limit) ------------------------------------------------------

#: Old check name -> the scope of the `limit` that says the same, and when it applies (`only`).
COUNT_CHECKS: dict[str, tuple[list[str], str]] = {
    "once-per-target": (["target"], ""),
    "one-per-player": (["player"], ""),
    "one-per-game": (["player", "game"], "during-a-game"),
    "one-reward-per-game": (["player", "game"], "between-games"),
}


def _reward_stickers(data: Any) -> list[str]:
    """The stickers of a document that carry `one-reward-per-game`: together, one of them per player per game."""
    out = []
    for st in data.get("stickers") or [] if isinstance(data, dict) else []:
        if isinstance(st, dict) and isinstance(st.get("id"), str) and any(
                isinstance(c, dict) and c.get("check") == "one-reward-per-game" for c in st.get("checks") or []):
            out.append(st["id"])
    return out


def count_check_as_limit(old: dict[str, Any], data: Any) -> dict[str, Any]:
    """An old count check as the scoped limit: `check: limit`, `max: 1`, then `of` (the old `group`), `per` and
    `only`, then the other keys in their old order; a reward check's `pool` cannot be said by a limit: dropped."""
    name = str(old["check"])
    per, only = COUNT_CHECKS[name]
    group = _reward_stickers(data) if name == "one-reward-per-game" else old.get("group")
    new: dict[str, Any] = {"check": "limit", "max": 1}
    if group:
        new["of"] = list(group)
    new["per"] = list(per)
    if only:
        new["only"] = only
    for key, value in old.items():
        if key not in ("check", "group") and not (key == "pool" and name == "one-reward-per-game"):
            new[key] = value
    return new


def _check_named(name: str) -> Callable[[str, Any], bool]:
    return lambda pointer, value: isinstance(value, dict) and value.get("check") == name


def _limit_words(old: Any, new: Any) -> str:
    parts = [f"{k}: {_flow(v)}" for k, v in new.items() if k != "cite"]
    dropped = " (its pool is dropped: a limit counts every pool)" if "pool" in old and "pool" not in new else ""
    return "{" + ", ".join(parts) + "}" + dropped


def _flow(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, bool):
        return "true" if value else "false"  # as YAML writes it
    return str(value)


# --- cites naming a transcription file (edition 2: declared sources) -----------------------------------

#: A shipped game's transcription file, as cites named it before edition 2 -> (the game, its source id now).
TRANSCRIPTIONS: dict[str, tuple[str, str]] = {
    "001_e430d55b72a215e6.txt": ("risk-legacy", "rulebook"),
    "reference/risk-legacy.md": ("risk-legacy", "component-scans"),
    "000_abea47e8b6bf01a9.txt": ("risk-shadow-forces", "rulebook"),
    "002_51be650b083078b8.txt": ("shadow-blades", "rulebook"),
    "004_b8ada0d1ef488161.txt": ("risk-warhammer-40k", "rulebook"),
    "reference/risk-warhammer-40k.md": ("risk-warhammer-40k", "community-board"),
    "reference/classic-map.md": ("risk-legacy", "classic-map"),  # Shadow Forces declares the same id
}


def _file_of(cite: str) -> str | None:
    head = cite.split(SECTION_MARK, 1)[0].strip()
    if head in TRANSCRIPTIONS:
        return head
    tail = head.rsplit("/", 1)[-1]
    return tail if tail.endswith(".txt") and tail in TRANSCRIPTIONS else None


def _cite_matches(pointer: str, value: Any) -> bool:
    if not isinstance(value, str):
        return False
    parts = pointer.rsplit("/", 2)
    in_cite = parts[-1] == "cite" or (len(parts) == 3 and parts[-2] == "cite" and parts[-1].isdigit())
    return in_cite and _file_of(value) is not None


def _names_a_file(value: Any) -> bool:
    """A `cite` value (one cite or a list) of which one names a shipped game's transcription file."""
    cites = value if isinstance(value, list) else [value]
    return any(isinstance(c, str) and (".txt" in c or "reference/" in c) and _file_of(c) is not None for c in cites)


def cite_by_source(old: str, data: Any) -> str:
    """'001_e430d55b72a215e6.txt § If you won' -> 'rulebook § If you won'."""
    head, sep, rest = old.partition(SECTION_MARK)
    name = _file_of(old)
    assert name is not None
    return f"{TRANSCRIPTIONS[name][1]}{SECTION_MARK}{rest}" if sep else TRANSCRIPTIONS[name][1]


def _cite_words(old: Any, new: Any) -> str:
    name = _file_of(old) or old
    game, source = TRANSCRIPTIONS.get(name, ("", ""))
    return f"'{new}' (the source '{source}' {game} declares, not its transcription file '{name}')"


# --- an obligation's field/at_least (edition 3: a condition of the campaign language) ------------------------

_OWED = re.compile(r"/game/campaign/owed_when/\d+")


def _owed_threshold(pointer: str, value: Any) -> bool:
    """An `owed_when` entry written with `field` (and `at_least`) and no `when`."""
    return isinstance(value, dict) and "field" in value and "when" not in value and _OWED.fullmatch(pointer) is not None


def owed_as_condition(old: dict[str, Any], data: Any) -> dict[str, Any]:
    """`{targets: K, field: F, at_least: N, place: S, ...}` -> `{targets: K, when: {stat: F, at_least: N}, place: S,
    ...}`: the condition stands where `field` stood; `at_least` defaulted to 1, as it was read."""
    new: dict[str, Any] = {}
    for key, value in old.items():
        if key == "field":
            new["when"] = {"stat": value, "at_least": old.get("at_least", 1)}
        elif key != "at_least":
            new[key] = value
    return new


def _owed_words(old: Any, new: Any) -> str:
    when = new.get("when", {})
    return f"when: {{stat: {when.get('stat')}, at_least: {when.get('at_least')}}} (a condition on each target)"


# --- a packet trigger's own forms (edition 3: conditions of the campaign language) ---------------------------

_TRIGGER = re.compile(r"(/.*)?/trigger/when")
#: The trigger events the language says: event -> the condition that holds from then on.
TRIGGER_EVENTS: dict[str, dict[str, Any]] = {"game-ended": {"game": "played", "at_least": 1},
                                             "game-started": {"game": "number", "at_least": 1}}
#: The trigger events edition 4 replaced: an elimination in any game so far.
ELIMINATION_EVENTS: dict[str, dict[str, Any]] = {"faction-eliminated": {"game": "eliminated", "at_least": 1},
                                                 "player-eliminated": {"game": "eliminated", "at_least": 1}}


def _trigger_form(key: str, events: dict[str, dict[str, Any]] | None = None) -> Callable[[str, Any], bool]:
    """A trigger's `when` written in the old form named by `key` that the language says the same way (for `event`,
    one of `events`)."""
    def matches(pointer: str, value: Any) -> bool:
        if not isinstance(value, dict) or _TRIGGER.fullmatch(pointer) is None or key not in value:
            return False
        if key == "placed":
            return set(value) <= {"placed", "count"} and isinstance(value.get("count", 1), int)
        if key == "event":
            return set(value) == {"event"} and value["event"] in (events or {})
        return set(value) == {key} and isinstance(value[key], int) and not isinstance(value[key], bool)
    return matches


def trigger_as_condition(old: dict[str, Any], data: Any) -> dict[str, Any]:
    """The old trigger form as the language's condition with the same meaning."""
    if "placed" in old:
        return {"count": {"sticker": old["placed"], "status": "any"}, "at_least": old.get("count", 1)}
    if "after_game" in old:
        return {"game": "played", "at_least": old["after_game"]}
    if "signatures_by_one_player" in old:  # some player has signed N times: the most of one player is N or more
        return {"signatures": {"most": True}, "at_least": old["signatures_by_one_player"]}
    if "after_chapter" in old:  # chapter N is over (won, or out of tries)
        return {"game": "chapters", "at_least": old["after_chapter"]}
    return dict({**TRIGGER_EVENTS, **ELIMINATION_EVENTS}[str(old["event"])])


def _trigger_moved(old: Any) -> dict[str, str]:
    """The sticker a `placed` trigger names is the count's sticker now."""
    return {"/count/sticker": "/placed"} if isinstance(old, dict) and "placed" in old else {}


def _trigger_words(old: Any, new: Any) -> str:
    return f"when: {_flow(new)}"


# --- the overall winner (edition 5: the campaign's outcome in the language) ----------------------------------

def _overall_old(pointer: str, value: Any) -> bool:
    """`game.campaign` holding an `overall_winner` that says something (not `{unknown: ...}`)."""
    if pointer != "/game/campaign" or not isinstance(value, dict):
        return False
    rule = value.get("overall_winner")
    return isinstance(rule, dict) and "unknown" not in rule


def overall_as_outcome_rule(rule: dict[str, Any], campaign: dict[str, Any]) -> dict[str, Any]:
    """An `overall_winner` rule as the `outcome` that says the same (see the module's edition 5)."""
    out: dict[str, Any] = {}
    if rule.get("team"):
        need = rule.get("at_least", 0)
        need = need if isinstance(need, int) and not isinstance(need, bool) else 0
        chapters = campaign.get("chapters")
        if rule.get("count") == "chapters-won" and isinstance(chapters, dict) and chapters:
            won: dict[str, Any] = {"chapters": "won"}
            left: dict[str, Any] = {"chapters": "left"}
            total = chapters.get("count")
        else:
            won, left, total = {"games": {"result": "won"}}, {"game": "left"}, campaign.get("games")
        out["won_when"] = {**won, "at_least": need}
        if need > 0 and isinstance(total, int) and not isinstance(total, bool):  # lost once it cannot be reached
            out["lost_when"] = {"sum": [dict(won), left], "at_most": need - 1}
        out["show"] = "tally"
    else:
        after = rule.get("after_game")
        if isinstance(after, int) and not isinstance(after, bool):
            out["when"] = {"game": "played", "at_least": after}
        out["rank_by"] = [{"signatures": "actor"}]
        bonus = rule.get("tie_bonus")
        if isinstance(bonus, dict):
            count: dict[str, Any] = {"kind": bonus.get("per"), "by": "actor"}
            if bonus.get("named"):
                count["named"] = True
            ties: dict[str, Any] = {"roll_off": {"bonus": {"count": count}}}
            if "text" in bonus:
                ties["text"] = bonus["text"]
            out["ties"] = ties
        out["show"] = "winner"
    for key in ("text", "cite"):
        if key in rule:
            out[key] = rule[key]
    return out


def overall_as_outcome(old: dict[str, Any], data: Any) -> dict[str, Any]:
    """`game.campaign` with its `overall_winner` replaced, at its place, by the `outcome` that says the same (a
    campaign that has an `outcome` already keeps it: the old rule is dropped)."""
    new: dict[str, Any] = {}
    for key, value in old.items():
        if key == "overall_winner":
            if "outcome" not in old:
                new["outcome"] = overall_as_outcome_rule(value, old)
        else:
            new[key] = value
    return new


def _overall_moved(old: Any) -> dict[str, str]:
    """The ids a tie bonus counts are the count's `kind` now."""
    rule = old.get("overall_winner") if isinstance(old, dict) else None
    bonus = rule.get("tie_bonus") if isinstance(rule, dict) else None
    per = bonus.get("per") if isinstance(bonus, dict) else None
    out = {"/outcome": "/overall_winner"}
    if isinstance(per, list):
        out.update({f"/outcome/ties/roll_off/bonus/count/kind/{i}": f"/overall_winner/tie_bonus/per/{i}"
                    for i in range(len(per))})
    elif per is not None:
        out["/outcome/ties/roll_off/bonus/count/kind"] = "/overall_winner/tie_bonus/per"
    return out


def _overall_words(old: Any, new: Any) -> str:
    if "outcome" in old:
        return "the 'outcome' this campaign has already (the 'overall_winner' beside it is dropped)"
    return f"outcome: {_flow(new['outcome'])}"


DEPRECATIONS: tuple[Deprecation, ...] = (
    *(Deprecation(f"the check '{name}'", 2, _check_named(name), count_check_as_limit, _limit_words, at="check",
                  probe_key="check", probe=name.__eq__)
      for name in COUNT_CHECKS),
    Deprecation("a cite naming a transcription file", 2, _cite_matches, cite_by_source, _cite_words,
                probe_key="cite", probe=_names_a_file),
    Deprecation("an obligation's 'field'/'at_least'", 3, _owed_threshold, owed_as_condition, _owed_words,
                at="field", probe_key="field", probe=lambda value: isinstance(value, str)),
    *(Deprecation(f"the packet trigger '{key}'", 3, _trigger_form(key, TRIGGER_EVENTS), trigger_as_condition,
                  _trigger_words, probe_key=key, probe=probe, moved=_trigger_moved)
      for key, probe in (("placed", lambda value: isinstance(value, str)),
                         ("after_game", lambda value: isinstance(value, int)),
                         ("event", lambda value: value in TRIGGER_EVENTS))),
    *(Deprecation(f"the packet trigger '{key}'" + (f" ({', '.join(ELIMINATION_EVENTS)})" if key == "event" else ""),
                  4, _trigger_form(key, ELIMINATION_EVENTS), trigger_as_condition, _trigger_words, probe_key=key,
                  probe=probe)
      for key, probe in (("signatures_by_one_player", lambda value: isinstance(value, int)),
                         ("after_chapter", lambda value: isinstance(value, int)),
                         ("event", lambda value: value in ELIMINATION_EVENTS))),
    Deprecation("'overall_winner'", 5, _overall_old, overall_as_outcome, _overall_words, at="overall_winner",
                probe_key="overall_winner", probe=lambda value: isinstance(value, dict) and "unknown" not in value,
                moved=_overall_moved, code="X602"),
)
