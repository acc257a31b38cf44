"""campaign/steps.py called directly on a made-up campaign model: who owes which end-of-game step.

The scripted campaigns reach these functions only through hundreds of events, and through the two
shipped models; here every role (`everyone`, `winner`, `held-on`, `eliminated`, `winner-for-unassigned`,
`team`), per-piece steps with `skip`, lost and returned pieces, claimed pieces whose owner acts, team
results, steps that place nothing, and the matching of a placement to the first open entry, one by one.
"""

from __future__ import annotations

from typing import Any

from scarbook.campaign.content import Content, Target
from scarbook.campaign.model import GameType, Step
from scarbook.campaign.state import CampaignState, GameRecord, Mark
from scarbook.campaign.steps import Owed, assign, entitled, gone_pieces, offered_now, open_entries
from scarbook.compiler.items import Place

EVERYONE = Step("upgrade", "Upgrade", "everyone", stickers=("boost",))
PER_HERO = Step("hero-mark", "Hero mark", "everyone", stickers=("hero-mark",), piece="hero", skip=("ghost",))
WINNER = Step("reward", "Winner's reward", "winner", stickers=("crown",), fallback=("coin",))
HELD = Step("held", "Held-on reward", "held-on", stickers=("coin",))
OUT = Step("out", "Eliminated", "eliminated", stickers=("scar",), piece="hero")
SIGN = Step("sign", "Sign the board", "winner", does="sign")
UNASSIGNED = Step("spare", "Spare heroes", "winner-for-unassigned", stickers=("hero-mark",), piece="hero",
                  skip=("ghost",))
TEAM = Step("debrief", "Debrief", "team", stickers=("medal",))
AFTER_WIN = Step("parade", "Parade", "team", stickers=("flag",), result="won")


class Model:
    """The lookups of a campaign model that steps.py uses."""

    def __init__(self, steps: tuple[Step, ...], rewarded_until: int = 10, claim: str | None = "oath") -> None:
        self.types = {"main": GameType("main", "Main", ("hero",), steps)}
        self.until = rewarded_until
        self.claim = claim

    def rewarded(self, number: int) -> bool:
        return number <= self.until

    def claim_kinds(self) -> dict[str, str]:
        return {self.claim: "hero"} if self.claim else {}


class World:
    """A content with heroes (pieces), their own stickers and a hero deck."""

    belongs_to = {"hero-mark-of-kai": "kai", "kai-deck": "kai"}

    def __init__(self, *steps: Step, rewarded_until: int = 10, claim: str | None = "oath") -> None:
        self.model = Model(steps, rewarded_until, claim)

    piece_of = Content.piece_of

    def piece_kind_of(self, item_id: str) -> str | None:
        return "hero" if item_id in ("kai", "raaz", "mira", "ghost", "pia") else None

    def place(self, target: Target) -> Place:
        return Place.of(target.id, target.item)  # as Content reads an item not of its kind's section


def game(number: int = 1, **kw: Any) -> GameRecord:
    plays = kw.pop("plays", {"Ann": "kai", "Bob": "raaz"})
    record = GameRecord(number, dict(plays), ended=kw.pop("ended", True), type=kw.pop("type", "main"),
                        pieces=kw.pop("pieces", {p: {"hero": h} for p, h in plays.items()}),
                        pieces_at_end=kw.pop("pieces_at_end", {"hero": ["kai", "raaz", "mira", "ghost"]}), **kw)
    return record


def state(*games: GameRecord, players: tuple[str, ...] = ("Ann", "Bob", "Cat")) -> CampaignState:
    s = CampaignState(list(players))
    s.games = list(games)
    return s


def rows(owed: list[Owed]) -> list[tuple[str, str, str, str]]:
    return [(o.step.id, o.subject, o.actor, o.piece) for o in owed]


def hero(tid: str) -> Target:
    return Target("hero-card", tid, {})


# --- entitled: who owes what ---------------------------------------------------------------


def test_every_role_in_step_order() -> None:
    world = World(SIGN, EVERYONE, WINNER, HELD, OUT)
    g = game(plays={"Ann": "kai", "Bob": "raaz", "Cat": "mira"}, winner="Ann", held_on=["Bob"], eliminated=["Cat"])
    owed = entitled(world, g)  # type: ignore[arg-type]
    assert rows(owed) == [("upgrade", "Ann", "Ann", ""), ("upgrade", "Bob", "Bob", ""), ("upgrade", "Cat", "Cat", ""),
                          ("reward", "Ann", "Ann", ""), ("held", "Bob", "Bob", ""),
                          ("out", "Cat", "Cat", "mira")]
    assert [o.index for o in owed] == [1, 1, 1, 2, 3, 4]  # the step's place in its type, sign (0) places nothing
    assert all(o.game == 1 for o in owed)
    assert [o.key for o in owed][:2] == [(1, "upgrade", "Ann"), (1, "upgrade", "Bob")]


def test_everyone_without_a_piece_kind_is_one_per_player() -> None:
    g = game(plays={"Ann": "", "Bob": ""}, pieces={"Ann": {}, "Bob": {}})
    assert rows(entitled(World(EVERYONE), g)) == [("upgrade", "Ann", "Ann", ""), ("upgrade", "Bob", "Bob", "")]  # type: ignore[arg-type]


def test_per_piece_step_skips_missing_lost_and_skipped_pieces() -> None:
    pieces = {"Ann": {"hero": "kai"}, "Bob": {"hero": "ghost"}, "Cat": {"hero": "mira"}, "Dan": {}}
    g = game(plays={"Ann": "kai", "Bob": "ghost", "Cat": "mira", "Dan": ""}, pieces=pieces, lost=["mira"])
    assert rows(entitled(World(PER_HERO), g)) == [("hero-mark", "kai", "Ann", "kai")]  # type: ignore[arg-type]


def test_nothing_before_the_end_of_rewarded_games_of_a_known_type() -> None:
    world = World(EVERYONE, WINNER)
    assert entitled(world, game(ended=False, winner="Ann")) == []  # type: ignore[arg-type]
    assert entitled(world, game(type="other", winner="Ann")) == []  # type: ignore[arg-type]
    assert entitled(World(EVERYONE, WINNER, rewarded_until=2), game(3, winner="Ann")) == []  # type: ignore[arg-type]
    assert len(entitled(World(EVERYONE, WINNER, rewarded_until=3), game(3, winner="Ann"))) == 3  # type: ignore[arg-type]


def test_roles_nobody_has_owe_nothing() -> None:
    assert entitled(World(WINNER, HELD, OUT), game()) == []  # type: ignore[arg-type]


def test_team_steps_and_result_steps() -> None:
    world = World(TEAM, AFTER_WIN)
    won = game(team="won")
    owed = entitled(world, won)  # type: ignore[arg-type]
    assert rows(owed) == [("debrief", "team", "", ""), ("parade", "team", "", "")]
    assert owed[0].players == ("Ann", "Bob")
    assert rows(entitled(world, game(team="lost"))) == [("debrief", "team", "", "")]  # type: ignore[arg-type]
    assert rows(entitled(World(AFTER_WIN), game())) == []  # type: ignore[arg-type]


def test_winner_acts_for_every_unplayed_piece_still_in_the_game() -> None:
    g = game(winner="Ann", pieces_at_end={"hero": ["kai", "raaz", "mira", "ghost", "zed"]}, lost=["zed"])
    assert rows(entitled(World(UNASSIGNED), g)) == [("spare", "mira", "Ann", "mira")]  # type: ignore[arg-type]
    assert entitled(World(UNASSIGNED), game(winner="")) == []  # type: ignore[arg-type]  # no winner: nobody acts
    assert entitled(World(Step("spare", "Spare", "winner-for-unassigned", stickers=("x",))),  # type: ignore[arg-type]
                    game(winner="Ann")) == []  # no piece kind: nothing is unassigned


def test_an_owner_who_played_acts_for_their_claimed_piece() -> None:
    world = World(UNASSIGNED)

    def claimed(sticker: str, by: str) -> CampaignState:
        s = state(game(winner="Ann", plays={"Ann": "kai", "Bob": "raaz"}))
        s.marks["mira"] = [Mark(sticker, "claim", "mira", by=by)]
        return s

    s = claimed("oath", "Bob")
    assert rows(entitled(world, s.games[0], s)) == [("spare", "mira", "Bob", "mira")]  # type: ignore[arg-type]
    assert rows(entitled(world, s.games[0])) == [("spare", "mira", "Ann", "mira")]  # type: ignore[arg-type]  # no state
    s = claimed("oath", "Cat")  # Cat did not play: the winner acts
    assert rows(entitled(world, s.games[0], s)) == [("spare", "mira", "Ann", "mira")]  # type: ignore[arg-type]
    s = claimed("other", "Bob")  # not the claim sticker
    assert rows(entitled(world, s.games[0], s)) == [("spare", "mira", "Ann", "mira")]  # type: ignore[arg-type]


def test_a_piece_lost_earlier_is_left_out_until_played_again() -> None:
    g1 = game(1, winner="Ann", lost=["mira"])
    g2 = game(2, winner="Ann")
    s = state(g1, g2)
    assert gone_pieces(s, 2) == {"mira"}
    assert gone_pieces(s, 1) == set()
    assert rows(entitled(World(UNASSIGNED), g2, s)) == []  # type: ignore[arg-type]
    assert rows(entitled(World(UNASSIGNED), g2)) == [("spare", "mira", "Ann", "mira")]  # type: ignore[arg-type]
    g3 = game(3, winner="Ann", plays={"Ann": "mira", "Bob": "raaz"})  # mira returns in game 3
    g4 = game(4, winner="Ann")
    s = state(g1, g2, g3, g4)
    assert gone_pieces(s, 3) == {"mira"}
    assert gone_pieces(s, 4) == set()
    assert rows(entitled(World(UNASSIGNED), g4, s)) == [("spare", "mira", "Ann", "mira")]  # type: ignore[arg-type]
    s = state(g1, g2, game(3, winner="Ann", lost=["raaz"]), g4)
    assert gone_pieces(s, 4) == {"mira", "raaz"}


class CountingGames(list):  # type: ignore[type-arg]
    """A list of games that counts how many games its reads hand out (one by one or in slices)."""

    handed = 0

    def __getitem__(self, i: Any) -> Any:
        got = list.__getitem__(self, i)
        CountingGames.handed += len(got) if isinstance(i, slice) else 1
        return got

    def __iter__(self) -> Any:
        CountingGames.handed += len(self)
        return list.__iter__(self)


def test_gone_pieces_folds_each_game_once_as_the_campaign_grows() -> None:
    """Issue 36 item 5: asking at each game start must not walk every earlier game again (quadratic in games)."""
    s = state()
    s.games = CountingGames()
    CountingGames.handed = 0
    n = 400
    for number in range(1, n + 1):
        s.games.append(game(number, winner="Ann", lost=["mira"] if number == 3 else []))
        assert gone_pieces(s, number + 1) == ({"mira"} if number >= 3 else set())
        assert gone_pieces(s, number) == ({"mira"} if number >= 4 else set())
    assert CountingGames.handed < 4 * n, CountingGames.handed  # the old walk: about n * n
    assert gone_pieces(s, 3) == set() and gone_pieces(s, n + 1) == {"mira"}  # an older game, then the last again


def test_gone_pieces_does_not_remember_a_game_in_progress() -> None:
    g2 = game(2, winner="", ended=False)
    s = state(game(1, winner="Ann"), g2)
    assert gone_pieces(s, 3) == set()
    g2.ended, g2.lost = True, ["kai"]  # the game ends, losing kai
    assert gone_pieces(s, 3) == {"kai"}


# --- the open entries and the one a placement takes -----------------------------------------


def test_open_entries_leave_out_taken_steps_and_wait_for_the_game_to_end() -> None:
    world = World(WINNER, HELD)
    s = state(game(winner="Ann", held_on=["Bob"]))
    assert rows(open_entries(world, s)) == [("reward", "Ann", "Ann", ""), ("held", "Bob", "Bob", "")]  # type: ignore[arg-type]
    s.steps[(1, "reward", "Ann")] = "placed"
    assert rows(open_entries(world, s)) == [("held", "Bob", "Bob", "")]  # type: ignore[arg-type]
    s.steps[(2, "held", "Bob")] = "placed"  # another game's key takes nothing
    assert rows(open_entries(world, s)) == [("held", "Bob", "Bob", "")]  # type: ignore[arg-type]
    s.games.append(game(2, ended=False))
    assert open_entries(world, s) == []  # type: ignore[arg-type]
    assert open_entries(world, state()) == []  # type: ignore[arg-type]


def test_open_entries_are_those_of_the_last_ended_game() -> None:
    world = World(WINNER)
    s = state(game(1, winner="Ann"), game(2, winner="Bob"))
    assert rows(open_entries(world, s)) == [("reward", "Bob", "Bob", "")]  # type: ignore[arg-type]


def test_a_placement_takes_the_first_open_entry_of_its_actor_and_sticker() -> None:
    world = World(WINNER, HELD, EVERYONE)
    s = state(game(winner="Ann", held_on=["Bob"]))
    t = Target("territory", "north", {})
    assert rows([assign(world, s, "crown", t, "Ann")]) == [("reward", "Ann", "Ann", "")]  # type: ignore[arg-type,list-item]
    assert rows([assign(world, s, "coin", t, "Ann")]) == [("reward", "Ann", "Ann", "")]  # type: ignore[arg-type,list-item]
    assert rows([assign(world, s, "coin", t, "Bob")]) == [("held", "Bob", "Bob", "")]  # type: ignore[arg-type,list-item]
    assert rows([assign(world, s, "boost", t, "Bob")]) == [("upgrade", "Bob", "Bob", "")]  # type: ignore[arg-type,list-item]
    assert assign(world, s, "crown", t, "Bob") is None  # type: ignore[arg-type]  # not Bob's step
    assert assign(world, s, "crown", t, "") is None  # type: ignore[arg-type]  # no placer
    assert assign(world, s, "nothing", t, "Ann") is None  # type: ignore[arg-type]
    s.steps[(1, "reward", "Ann")] = "placed"
    assert assign(world, s, "crown", t, "Ann") is None  # type: ignore[arg-type]


def test_a_per_piece_entry_is_taken_only_for_its_own_piece() -> None:
    world = World(UNASSIGNED)
    s = state(game(winner="Ann", pieces_at_end={"hero": ["kai", "raaz", "mira", "pia"]}))
    assert rows([assign(world, s, "hero-mark", hero("pia"), "Ann")]) == [  # type: ignore[arg-type,list-item]
        ("spare", "pia", "Ann", "pia")]
    assert rows([assign(world, s, "hero-mark", hero("mira"), "Ann")]) == [  # type: ignore[arg-type,list-item]
        ("spare", "mira", "Ann", "mira")]
    assert assign(world, s, "hero-mark", hero("kai"), "Ann") is None  # type: ignore[arg-type]  # kai was played
    assert assign(world, s, "hero-mark-of-kai", Target("territory", "north", {}), "Ann") is None  # type: ignore[arg-type]
    # a target of no piece: the first open entry
    assert rows([assign(world, s, "hero-mark", Target("territory", "north", {}), "Ann")]) == [  # type: ignore[arg-type,list-item]
        ("spare", "mira", "Ann", "mira")]


def test_team_entries_are_taken_by_any_player_of_the_game() -> None:
    world = World(TEAM)
    s = state(game(team="won"))
    t = Target("territory", "north", {})
    entry = assign(world, s, "medal", t, "Bob")  # type: ignore[arg-type]
    assert entry is not None and entry.subject == "team"
    assert assign(world, s, "medal", t, "Cat") is None  # type: ignore[arg-type]  # Cat did not play
    assert assign(world, s, "medal", t, "") is None  # type: ignore[arg-type]


def test_offered_now_only_after_a_game_whose_type_offers_the_sticker() -> None:
    world = World(WINNER)
    assert offered_now(world, state(), "crown") is False  # type: ignore[arg-type]
    s = state(game(winner="Ann"))
    assert offered_now(world, s, "crown") is True  # type: ignore[arg-type]
    assert offered_now(world, s, "coin") is True  # type: ignore[arg-type]  # a fallback is offered too
    assert offered_now(world, s, "boost") is False  # type: ignore[arg-type]
    s.steps[(1, "reward", "Ann")] = "placed"
    assert offered_now(world, s, "crown") is True  # type: ignore[arg-type]  # taken or not: the type offers it
    assert offered_now(world, state(game(winner="Ann", type="other")), "crown") is False  # type: ignore[arg-type]
    s.games.append(game(2, ended=False))
    assert offered_now(world, s, "crown") is False  # type: ignore[arg-type]


# --- Owed itself ------------------------------------------------------------------------------


def test_owed_text_and_who() -> None:
    assert Owed(1, WINNER, 0, "Ann", "Ann").text() == "Winner's reward (Ann)"
    assert Owed(1, UNASSIGNED, 0, "mira", "Ann", "mira").text() == "Spare heroes (Ann for mira)"
    assert Owed(1, PER_HERO, 0, "kai", "kai", "kai").text() == "Hero mark (kai)"
    assert Owed(1, TEAM, 0, "team", "").text() == "Debrief (the team)"
    assert Owed(1, TEAM, 0, "team", "").who == "the team"
    assert Owed(1, WINNER, 0, "Ann", "Ann").who == "Ann"


def test_owed_takes() -> None:
    mine = Owed(1, WINNER, 0, "Ann", "Ann", players=("Ann", "Bob"))
    assert mine.takes("Ann") and not mine.takes("Bob") and not mine.takes("")
    team = Owed(1, TEAM, 0, "team", "", players=("Ann", "Bob"))
    assert team.takes("Bob") and not team.takes("Cat") and not team.takes("")
    assert Owed(1, TEAM, 0, "team", "").takes("Ann") is False


# --- what the first mutation run of steps.py left alive -------------------------------------------


def test_every_entry_carries_its_game_and_step_index() -> None:
    team = entitled(World(SIGN, TEAM), game(4, team="won"))  # type: ignore[arg-type]
    assert [(o.game, o.index) for o in team] == [(4, 1)]
    spare = entitled(World(SIGN, WINNER, UNASSIGNED), game(3, winner="Ann"))  # type: ignore[arg-type]
    assert [(o.game, o.index, o.step.id) for o in spare] == [(3, 1, "reward"), (3, 2, "spare")]


def test_a_player_without_the_piece_is_passed_over_not_the_end_of_the_list() -> None:
    pieces = {"Dan": {}, "Bob": {"hero": "ghost"}, "Ann": {"hero": "kai"}}
    g = game(plays={"Dan": "", "Bob": "ghost", "Ann": "kai"}, pieces=pieces)
    assert rows(entitled(World(PER_HERO), g)) == [("hero-mark", "kai", "Ann", "kai")]  # type: ignore[arg-type]


def test_a_role_step_per_piece_when_the_player_has_none_of_that_kind() -> None:
    crowned = Step("crowned", "Crown", "winner", stickers=("crown",), piece="hero")
    g = game(winner="Ann", pieces={"Bob": {"hero": "raaz"}})  # Ann's pieces are not recorded
    assert rows(entitled(World(crowned), g)) == [("crowned", "Ann", "Ann", "")]  # type: ignore[arg-type]
    g = game(winner="Ann", pieces={"Ann": {}, "Bob": {"hero": "raaz"}})
    assert rows(entitled(World(crowned), g)) == [("crowned", "Ann", "Ann", "")]  # type: ignore[arg-type]


def test_open_entries_know_who_owns_a_claimed_piece() -> None:
    s = state(game(winner="Ann", plays={"Ann": "kai", "Bob": "raaz"}))
    s.marks["mira"] = [Mark("oath", "claim", "mira", by="Bob")]
    s.marks["ghost"] = [Mark("oath", "claim", "ghost", by="Bob")]
    assert rows(open_entries(World(UNASSIGNED), s)) == [("spare", "mira", "Bob", "mira")]  # type: ignore[arg-type]


def test_a_sticker_of_its_own_piece_takes_only_that_pieces_entry() -> None:
    step = Step("spare", "Spare", "winner-for-unassigned", stickers=("hero-mark", "hero-mark-of-kai"), piece="hero")
    s = state(game(winner="Ann", plays={"Ann": "raaz", "Bob": "pia"},
                   pieces_at_end={"hero": ["mira", "kai", "raaz", "pia"]}))  # mira, then kai unplayed
    north = Target("territory", "north", {})
    entry = assign(World(step), s, "hero-mark-of-kai", north, "Ann")  # type: ignore[arg-type]
    assert entry is not None and entry.piece == "kai"
    entry = assign(World(step), s, "hero-mark", north, "Ann")  # type: ignore[arg-type]
    assert entry is not None and entry.piece == "mira"  # no piece of its own: the first open entry
