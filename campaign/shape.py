"""Campaigns of other shapes, read from `game.campaign` (docs/campaign-shapes.md); nothing here names a game.

- team results: a co-operative game ends with the team's result (`game end --team won|lost`), no winner;
- chapters (scenarios, missions …) played in order with tries, in the game's own words;
- tracks: campaign-wide values (a level the table shares) moved by each result, bounded;
- obligations on a condition (`owed_when`): a sticker owed on a target once one of its values reaches a
  threshold, before the next game;
- the campaign's outcome (`outcome`): standings, the winner with a roll-off for a tie, or the team's tally.
Each function takes the effective content and the state; none changes the state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from scarbook.campaign.checks import a, plural
from scarbook.campaign.lang import Compare, Constant, Scope, Verdict, chapter_results
from scarbook.campaign.lang import chapters_over as chapters_over  # moved to the language; still importable here
from scarbook.campaign.model import TEAM_RESULTS, OwedWhen
from scarbook.campaign.state import track_value
from scarbook.compiler.views_more import more
from scarbook.kernel.diagnostics import Diagnostic, refusal

__all__ = ["track_value"]

#: Whether a sticker could legally go on a target now (the rules' answer, given by the caller).
Legal = Callable[[str, "Target"], bool]

if TYPE_CHECKING:
    from scarbook.campaign.content import Content, Target
    from scarbook.campaign.events import GameEnded
    from scarbook.campaign.state import CampaignState, GameRecord


# --- team results ------------------------------------------------------------------------------
def team_end_problems(content: Content, state: CampaignState, ev: GameEnded, game: GameRecord,
                      rule: tuple[str, str]) -> list[Diagnostic] | None:
    """What is wrong with a game's end as far as team results go (None: nothing to say, go on with the rest)."""
    model = content.model
    title = content.game.title
    team_rule = ("a co-operative game ends with the team's result", model.chapters.cite if model.chapters
                 else rule[1])
    if model.team:
        if ev.winner.strip():
            return [refusal("R350", f"{title} is co-operative: nobody wins alone; record the team's result with "
                            "--team won or --team lost", *team_rule)]
        if ev.team not in TEAM_RESULTS:
            got = f", not {ev.team!r}" if ev.team else ""
            return [refusal("R350", f"say how the team did with --team won or --team lost{got}", *team_rule)]
        return None
    if ev.team:
        return [refusal("R350", f"{title} is not co-operative: leave out --team and say who won with --winner NAME",
                        *rule)]
    return None


# --- chapters ----------------------------------------------------------------------------------
def chapter_label(content: Content, game: GameRecord) -> str:
    """'chapter 4, try 2' in the game's own words (its name for a chapter) ('' when the campaign has no chapters)."""
    chapters = content.model.chapters
    if chapters is None or not game.chapter:
        return ""
    out = f"{chapters.name} {game.chapter}"
    return out + (f", {chapters.try_word} {game.attempt}" if chapters.tries > 1 else "")


def game_extras(content: Content, game: GameRecord) -> dict[str, Any]:
    """What a game record adds where the game keeps it: the scenario played (id and name) and the scores."""
    out: dict[str, Any] = {}
    if game.scenario:
        sc = content.model.scenarios.get(game.scenario)
        out.update({"scenario": game.scenario, "scenario_name": sc.name if sc else game.scenario})
    if game.scores:
        out["scores"] = dict(game.scores)
    return out


def player_totals(content: Content, state: CampaignState, player: str) -> tuple[int | None, list[str] | None]:
    """A player's totals over the campaign where the game keeps them: the score over every game ended
    (`score_total`, None where no game has scores), the places their claims make their own (`claimed`, None where
    the game has no claims)."""
    from scarbook.campaign.lang import owner_of

    total = None
    if any(g.scores for g in state.games):
        held = state.holders(player)  # their own, and what players who left handed to them
        total = sum(n for g in state.games if g.ended for q, n in g.scores.items() if q in held)
    claims = content.model.claims
    claimed = [pid for pid, ms in state.marks.items()
               if any(m.sticker in claims and m.active for m in ms)
               and owner_of(content, state, pid) == player] if claims else None
    return total, claimed


def region_owner(content: Content, state: CampaignState, rid: str) -> str | None:
    """The player whose claim is on the region, where the game has claims (else None)."""
    from scarbook.campaign.lang import owner_of

    return (owner_of(content, state, rid) or None) if content.model.claims else None


def place_values(content: Content, state: CampaignState) -> list[dict[str, Any]]:
    """Values kept on board spaces (territories; regions beside their bonus, shown with the regions): every field
    a mark there `adds`, with the value now (printed plus what the marks add)."""
    out = []
    views = more(content)
    for section, named in ((content.territories, views.territories), (content.regions, views.regions)):
        for pid, item in section.items():
            fields: list[str] = []
            for m in state.active_marks(pid):
                for k in content.sticker_view(m.sticker).adds:
                    if k not in fields and not (section is content.regions and k == "bonus"):
                        fields.append(str(k))
            if fields:
                out.append({"place": pid, "name": str(named[pid].printed_name or pid),
                            "values": {k: state.value(content, pid, item, k) for k in fields}})
    return out


def campaign_over(content: Content, state: CampaignState) -> bool:
    """Whether every chapter has been played (the next game would play a chapter past the last)."""
    from scarbook.campaign.state import next_chapter

    chapters = content.model.chapters
    if chapters is None or chapters.count is None or state.in_progress is not None:
        return False
    return next_chapter(content, state)[0] > chapters.count


def end_verdict(content: Content, state: CampaignState) -> Verdict | None:
    """The campaign's end (`game.campaign.end`): the verdict when its condition holds between games, else None."""
    end = content.model.end
    if end is None or state.in_progress is not None:
        return None
    verdict = holds(content, state, end.when)
    return verdict if verdict.ok else None


def start_problems(content: Content, state: CampaignState) -> list[Diagnostic]:
    """A game may not start once every chapter has been played, nor once the campaign's end condition holds."""
    ended = end_verdict(content, state)
    if ended is not None:
        end = content.model.end
        assert end is not None  # an end verdict is the end condition's
        return [refusal("R351", f"the campaign is over ({ended.why}): no game starts after its end",
                        end.text or "the campaign ends when its end condition holds", end.cite or ended.cite)]
    chapters = content.model.chapters
    if chapters is None or not campaign_over(content, state):
        return []
    return [refusal("R351", f"all {plural(chapters.count or 0, chapters.name, chapters.plural)} are played: the "
                    "campaign is over", f"{content.game.title} is played in {chapters.count} {chapters.plural}, "
                    "in order", chapters.cite)]


# --- tracks ------------------------------------------------------------------------------------
# --- obligations on a condition ----------------------------------------------------------------
@dataclass(frozen=True)
class Owed:
    """One sticker owed on one target because of an `owed_when` condition."""

    rule: OwedWhen
    target: str
    value: int
    player: str = ""  # `each: player`: the player who owes it (any target)

    @property
    def said(self) -> str:
        """Where (or by whom) it is owed, and why, in words."""
        if self.player:
            return f"{self.player} owes {self.rule.place}"
        why = f" ({self.rule.field} {self.value})" if self.rule.when is None else ""
        return f"{self.rule.place} on {self.target}{why}"


def holds(content: Content, state: CampaignState, condition: Any, actor: str = "",
          target: Target | None = None) -> Verdict:
    """Whether a condition of the campaign language holds now (compiled once per content)."""
    return content.conditions.holds(condition, Scope(content, state, actor, target))


def owed_now(content: Content, state: CampaignState, legal: Legal) -> list[Owed]:
    """Every sticker `owed_when` asks for now: targets of its kind whose value reached the threshold (or where its
    `when` condition holds), where the sticker is not placed yet and could legally go now (`legal`, from the
    rules: a sticker that cannot go there owes nothing); with `each: player`, every player for whom `when` holds
    and who has no active mark of that sticker yet."""
    out: list[Owed] = []
    for rule in content.model.owed_when:
        sticker = content.sticker_views.get(rule.place)
        if sticker is None:
            continue
        if rule.when is not None and rule.each == "player":
            for player in state.players:
                if holds(content, state, rule.when, player).ok and not any(
                        m.sticker == rule.place and m.active and m.by == player for ms in state.marks.values()
                        for m in ms):
                    out.append(Owed(rule, "", 0, player))
            continue
        kinds = [rule.targets] if rule.targets else list(sticker.targets)
        for kind in kinds:
            for tid in content.target_ids(kind, sticker):
                target = content.target_of_kind(kind, tid)
                if any(m.sticker == rule.place for m in state.active_marks(tid)):
                    continue
                if rule.when is not None:
                    value = 0
                    if not holds(content, state, rule.when, "", target).ok:
                        continue
                else:
                    value = state.value(content, tid, as_stats(target.item), rule.field)
                    if value < rule.at_least:
                        continue
                if legal(rule.place, target):
                    out.append(Owed(rule, tid, value))
    return out


def as_stats(item: dict[str, Any]) -> dict[str, Any]:
    """An item's values as `state.value` reads them: its printed stats beside its other fields."""
    stats = item.get("stats")
    return {**item, **stats} if isinstance(stats, dict) else item


def owed_problems(content: Content, state: CampaignState, legal: Legal) -> list[Diagnostic]:
    """R316: a sticker an `owed_when` condition asks for, not placed yet, blocks the next game."""
    out = []
    for o in owed_now(content, state, legal):
        label = content.sticker_views[o.rule.place].name
        if o.player or o.rule.when is not None:
            how = f"--by {o.player}" if o.player else o.target
            out.append(refusal("R316", f"{a(label)} is owed{' by ' + o.player if o.player else ' on ' + o.target} "
                               f"before the next game ('scarbook campaign place {o.rule.place} "
                               f"{'TARGET ' + how if o.player else how}')", o.rule.text, o.rule.cite))
            continue
        out.append(refusal("R316", f"{o.target} has {o.value} {o.rule.field}: {a(label)} is owed there before the "
                           f"next game ('scarbook campaign place {o.rule.place} {o.target}')",
                           o.rule.text, o.rule.cite))
    return out


# --- the campaign's result -------------------------------------------------------------------
def decided(content: Content, state: CampaignState) -> bool:
    """Whether the outcome is decided: its `when` holds (the outcome's own moment, e.g. after game 15 of a
    campaign that goes on), else the campaign's `end` holds."""
    rule = content.model.outcome
    if rule is not None and rule.when is not None:
        return holds(content, state, rule.when).ok
    return end_verdict(content, state) is not None


def team_verdict(content: Content, state: CampaignState, over: bool) -> tuple[str | None, Verdict]:
    """The team's result by `won_when` (and `lost_when`): won once `won_when` holds and the outcome is decided,
    lost once it is decided without; with `lost_when` the result is known before: won as soon as `won_when`
    holds, lost as soon as `lost_when` does. (None: still open.)"""
    rule = content.model.outcome
    assert rule is not None and rule.won_when is not None
    won = holds(content, state, rule.won_when)
    if rule.lost_when is not None:
        if won.ok:
            return "won", won
        lost = holds(content, state, rule.lost_when)
        if lost.ok:
            return "lost", lost
    return (("won" if won.ok else "lost") if over else None), won


def team_result(content: Content, state: CampaignState) -> dict[str, Any] | None:
    """The team's tally (`outcome: {won_when: {COUNT, at_least: N}, show: tally}`): how many chapters (or games)
    the team won so far, of how many, the threshold, and whether the campaign is won, lost or still open (None).
    None when the outcome is not shown as a tally, or `won_when` is not a count compared with `at_least: N`."""
    rule = content.model.outcome
    if rule is None or rule.show != "tally" or rule.won_when is None:
        return None
    cond = content.conditions.compile(rule.won_when)
    if not (isinstance(cond, Compare) and cond.op == "at_least" and isinstance(cond.against[0], Constant)):
        return None
    scope = Scope(content, state)
    need = cond.against[0].value
    total, word = cond.query.tally(scope)
    result, _why = team_verdict(content, state, decided(content, state))
    return {"team": True, "won": cond.query.read(scope), "of": total, "at_least": need, "unit": word,
            "result": result, "text": rule.text, "cite": rule.cite_as_written}


def overall_winner(content: Content, state: CampaignState, still_open: Callable[[], bool]) -> dict[str, Any] | None:
    """The outcome shown as its winner (`outcome: {rank_by, show: winner}`), once decided: the players first by
    `rank_by` and the first value they share, a tie and, with `ties: {roll_off: {bonus}}`, what each tied player
    adds to the roll-off. `still_open`: a step of the last game is still to be taken (the winner is provisional).
    The JSON keeps the form `status` always gave it (the first value under `signatures`; `by` names the value when
    it is not signatures)."""
    rule = content.model.outcome
    last = state.last_ended
    if rule is None or rule.show != "winner" or not rule.ranked or last is None or not decided(content, state):
        return None
    standings, by = ranked(content, state)
    leaders = [r["player"] for r in standings if r["rank"] == 1]
    best = standings[0]["values"][0] if standings else 0
    out: dict[str, Any] = {"players": leaders, "signatures": best, "tie": len(leaders) > 1, "text": rule.text,
                           "cite": rule.cite_as_written, "provisional": still_open(), "after_game": last.number}
    if by and by[0] != "signatures":
        out["by"] = by[0]
    if len(leaders) > 1 and rule.ties is not None:
        if rule.ties.bonus is not None:
            bonus = content.conditions.query(rule.ties.bonus)
            out["roll_off_bonus"] = {p: bonus.read(Scope(content, state, p)) for p in leaders}
        out["roll_off"] = rule.ties.text
    return out


def ranked(content: Content, state: CampaignState) -> tuple[list[dict[str, Any]], list[str]]:
    """Every player's values of `rank_by`, ranked (highest first; later queries break ties; tied players share a
    rank), and the queries in words."""
    rule = content.model.outcome
    assert rule is not None
    library = content.conditions
    queries = [library.query(q) for q in rule.rank_by]
    rows = []
    for player in state.players:
        scope = Scope(content, state, player)
        rows.append((player, [q.read(scope) for q in queries]))

    def key(row: tuple[str, list[Any]]) -> list[int]:
        return [-(v if isinstance(v, int) else 0) for v in row[1]]

    rows.sort(key=key)
    standings: list[dict[str, Any]] = []
    for i, (player, values) in enumerate(rows):
        rank = i + 1 if i == 0 or key(rows[i - 1]) != key((player, values)) else standings[-1]["rank"]
        standings.append({"player": player, "rank": rank, "values": values})
    nobody = Scope(content, state, "")
    return standings, [q.words(nobody) for q in queries]


def status_data(content: Content, state: CampaignState, legal: Legal) -> dict[str, Any]:
    """What `status` adds for these shapes: the chapter now, the chapters' results, tracks, owed stickers."""
    from scarbook.campaign.state import next_chapter

    chapters = content.model.chapters
    out: dict[str, Any] = {"team": content.model.team}
    if chapters is not None:
        live = state.in_progress
        chapter, attempt = (live.chapter, live.attempt) if live is not None else next_chapter(content, state)
        over = campaign_over(content, state)
        out["chapter"] = {"name": chapters.name, "plural": chapters.plural, "count": chapters.count,
                          "tries": chapters.tries, "try_word": chapters.try_word,
                          "now": None if over else chapter, "try": None if over else attempt,
                          "in_progress": live is not None, "over": over,
                          "results": {str(k): v for k, v in sorted(chapter_results(content, state).items())}}
    pieces = {pid for kind in content.model.pieces for pid in content.pieces_of(kind)}
    out["card_values"] = [
        {"card": cid, "name": str(card.name or cid),
         "values": {k: state.stat(content, cid, v, k) for k, v in card.stats.items()},
         "marks": [content.sticker_view(m.sticker).name or m.sticker for m in state.active_marks(cid)
                   if not content.sticker_view(m.sticker).adds]}  # what adds is in the values
        for cid, card in more(content).cards.items() if card.stats is not None and cid not in pieces]
    out["place_values"] = place_values(content, state)
    out["tracks"] = [{"id": t.id, "name": t.name, "value": track_value(content, state, t.id), "min": t.low,
                      "max": t.high} for t in content.model.tracks.values()]
    if content.model.levels:
        out["levels"] = levels_data(content, state)
    if content.model.scenarios:
        out["scenarios"] = scenarios_data(content, state)
    if content.model.outcome and content.model.outcome.show == "standings":
        out["outcome"] = outcome(content, state)
    out["owed"] = [{"sticker": o.rule.place, "target": o.target, "field": o.rule.field, "value": o.value,
                    "text": o.rule.text, **({"player": o.player} if o.player else {}), "said": o.said}
                   for o in owed_now(content, state, legal)] if state.in_progress is None else []
    return out


def outcome(content: Content, state: CampaignState) -> dict[str, Any] | None:
    """The campaign's outcome by `game.campaign.outcome`: the standings (every player's values of `rank_by`,
    ranked, ties sharing a rank) or the team's result by `won_when`; `over` once it is decided (its `when`, else
    the end condition). A tie for first with `ties: {roll_off: ...}`: what each tied player adds to the roll-off."""
    rule = content.model.outcome
    if rule is None:
        return None
    over = decided(content, state)
    out: dict[str, Any] = {"over": over, "text": rule.text, "cite": rule.cite}
    if rule.ranked:
        standings, by = ranked(content, state)
        out["by"] = by
        out["standings"] = standings
        out["winners"] = [r["player"] for r in standings if r["rank"] == 1] if over else []
        if len(out["winners"]) > 1 and rule.ties is not None:  # ({} : a roll-off without a bonus)
            bonus = content.conditions.query(rule.ties.bonus) if rule.ties.bonus is not None else None
            out["roll_off_bonus"] = {p: bonus.read(Scope(content, state, p)) for p in out["winners"]} if bonus else {}
            out["roll_off"] = rule.ties.text
    if rule.won_when is not None:
        result, verdict = team_verdict(content, state, over)
        out["team"] = result
        out["why"] = verdict.why
    return out


def levels_data(content: Content, state: CampaignState) -> list[dict[str, Any]]:
    """Every derived value now (`game.campaign.levels`): its level and the value read, per player when it is one."""
    from scarbook.campaign.lang import level_of

    out = []
    for lv in content.model.levels.values():
        who = state.players if lv.per_player else [""]
        values = {p: dict(zip(("level", "value"), level_of(content, state, lv.id, p), strict=True)) for p in who}
        row = {"id": lv.id, "name": lv.name, "per_player": lv.per_player, "at": list(lv.at), "values": values}
        if not lv.per_player:  # one value for the whole campaign: also at the top, without the empty player key
            row.update(values[""])
        out.append(row)
    return out


def scenarios_data(content: Content, state: CampaignState) -> list[dict[str, Any]]:
    """Every scenario of the graph: its result so far and whether it may be played next (and why not)."""
    from scarbook.campaign.lang import scenario_result

    out = []
    for sc in content.model.scenarios.values():
        result = scenario_result(state, sc.id)
        why = scenario_locked(content, state, sc.id)
        out.append({"id": sc.id, "name": sc.name, "result": result, "open": why is None, "why": why or ""})
    return out


def scenario_locked(content: Content, state: CampaignState, sid: str) -> str | None:
    """Why a scenario may not be played next (None: it may): won already, or its `open` condition fails."""
    from scarbook.campaign.lang import scenario_result

    sc = content.model.scenarios[sid]
    if scenario_result(state, sid) == "won" and not sc.again:
        return f"{sc.name} is already won"
    if sc.open is not None:
        verdict = holds(content, state, sc.open)
        if not verdict.ok:
            return verdict.why
    return None


def status_lines(data: dict[str, Any]) -> list[str]:
    """The lines `status` prints for these shapes (from `status_data`'s output)."""
    out: list[str] = []
    ch = data.get("chapter")
    if ch:
        if ch["over"]:
            out.append(f"All {ch['count']} {ch['plural']} are played.")
        else:
            tries = f", {ch['try_word']} {ch['try']} of {ch['tries']}" if ch["tries"] > 1 else ""
            doing = "in progress" if ch["in_progress"] else "next"
            out.append(f"{ch['name'].capitalize()} {ch['now']}{tries} ({doing})")
        if ch["results"]:
            out.append(f"{ch['plural'].capitalize()}: " + ", ".join(f"{k} {v}" for k, v in ch["results"].items()))
    for t in data.get("tracks") or []:
        bounds = f" ({t['min']} to {t['max']})" if t["min"] is not None and t["max"] is not None else ""
        out.append(f"{t['name'].capitalize()}: {t['value']}{bounds}")
    cards = [c for c in data.get("card_values") or [] if c["marks"] or any(c["values"].values())]
    if cards:
        out.append("Cards: " + "; ".join(
            f"{c['name']}: " + ", ".join([f"{k} {'?' if v is None else v}" for k, v in c["values"].items()]
                                         + c["marks"]) for c in cards))
    places = data.get("place_values") or []
    if places:
        out.append("Places: " + "; ".join(f"{pl['name']}: " + ", ".join(f"{k.replace('_', ' ')} {v}"
                                                                        for k, v in pl["values"].items())
                                          for pl in places))
    for o in data.get("owed") or []:
        out.append(f"Owed before the next game: {o['said']}")
    for lv in data.get("levels") or []:
        if lv["per_player"]:
            out.append(f"{lv['name'].capitalize()}: " + ", ".join(
                f"{p} {v['level']} ({v['value']})" for p, v in lv["values"].items()))
        else:
            v = lv["values"][""]
            out.append(f"{lv['name'].capitalize()}: {v['level']} ({v['value']})")
    scenarios = data.get("scenarios") or []
    if scenarios:
        done = [f"{s['name']} {s['result']}" for s in scenarios if s["result"] != "unplayed"]
        if done:
            out.append("Played: " + ", ".join(done))
        open_now = [s["name"] for s in scenarios if s["open"]]
        out.append("Open to play: " + (", ".join(open_now) or "none"))
    res = data.get("outcome")
    if res:
        out.extend(outcome_lines(res))
    return out


def outcome_lines(res: dict[str, Any]) -> list[str]:
    """The campaign's outcome (from `outcome`), in words."""
    out = []
    if res.get("standings"):
        head = "Final standings" if res["over"] else "Standings"
        by = ", then ".join(res["by"])
        out.append(f"{head} (by {by}): " + "; ".join(
            f"{r['rank']}. {r['player']} " + "/".join(str(v) for v in r["values"]) for r in res["standings"]))
        if len(res["winners"]) > 1 and "roll_off" in res:
            bonus = ", ".join(f"{p} +{n}" for p, n in res["roll_off_bonus"].items())
            out.append(f"A tie between {' and '.join(res['winners'])}: roll off" + (f", adding {bonus}" if bonus
                                                                                   else ""))
        elif res["winners"]:
            out.append(f"The campaign is won by {' and '.join(res['winners'])}")
    if "team" in res:
        if res["team"] is None:
            out.append(f"The campaign is still open ({res['why']})")
        else:
            out.append(f"The campaign is {res['team']} ({res['why']})")
    return out


def result_line(w: dict[str, Any]) -> str:
    """The campaign's result by its threshold, in words."""
    of = f" of {w['of']}" if w["of"] is not None else ""
    tally = f"{w['won']}{of} {w['unit']} won, at least {w['at_least']} needed"
    if w["result"] == "won":
        return f"The campaign is won ({tally})"
    if w["result"] == "lost":
        return f"The campaign is lost ({tally})"
    return f"The campaign is still open ({tally})"
