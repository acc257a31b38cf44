"""Writes `risk-shadow-forces-15.txt` from its hand-written opening (games 1-3, with illegal moves)
by playing games 4-15 through the tracker, choosing each legal target with `campaign where`.

Run it after changing the Shadow Forces content or rules, then review the diff of the script:
    python tests/campaigns/make_shadow_forces.py
The test replays the written script; it never runs this generator.
"""

from __future__ import annotations

import shlex
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from campaigns.helpers import invoke, run_script  # noqa: E402

OPENING = HERE / "risk-shadow-forces-opening.txt"
OUT = HERE / "risk-shadow-forces-15.txt"
PLAYERS = {"Ann": ("green-faction", "kai-weller"), "Bob": ("white-faction", "raaz-garcia"),
           "Cat": ("blue-faction", "angus-smith")}
WARLORDS = ["angus-smith", "cassandra-evans", "jett-st-clair", "kai-weller", "raaz-garcia"]
SKIRMISH = {2, 4, 7, 10, 13}
PACKETS = {2: "container-b", 4: "envelope-c", 7: "envelope-d", 10: "envelope-e", 13: "envelope-f"}
CONTINENTS = {  # packet -> (continent sticker, its continent, lines: two per new territory, then the optional one)
    "envelope-c": [("continent-sticker-nb", "continent-nb", [("nb-01", "eu-01"), ("nb-01", "na-07"),
                                                             ("nb-01", "eu-02")])],
    "envelope-e": [("continent-sticker-ol", "continent-ol", [("ol-01", "oc-01"), ("ol-01", "as-09"),
                                                             ("ol-02", "oc-02"), ("ol-02", "ol-01")])],
}
DRAFTS = {5: "extra-tactic", 11: "energy-tactic", 14: "cyber-operations-tactic"}
OWED = {  # packet -> what it adds that goes in place before the next game (rules and scar card stickers)
    "envelope-c": ["rules-sticker-c-1", "rules-sticker-c-2", "scar-card-sticker-c-1", "scar-card-sticker-c-2"],
    "envelope-d": ["scar-card-sticker-d-1", "scar-card-sticker-d-2"], "envelope-e": ["rules-sticker-e"],
    "envelope-f": ["rules-sticker-f"]}
STATS = ["melee_dice", "range_dice", "shield_dice", "melee_to_hit", "range_to_hit", "shield_to_block"]


def main() -> None:
    lines = OPENING.read_text("utf-8").splitlines()
    with tempfile.TemporaryDirectory() as tmp:
        file = Path(tmp) / "c.yaml"
        failures = run_script("\n".join(lines), file)
        assert not failures, failures

        def run(line: str) -> None:
            result = invoke(shlex.split(line), file)
            assert result.exit_code == 0, f"{line}: {result.output}"
            lines.append(line)

        def where(sticker: str, by: str) -> list[str]:
            result = invoke(["where", sticker, "--by", by], file)
            return [x.strip() for x in result.output.splitlines() if x.strip() and " " not in x.strip()]

        stat_values: dict[tuple[str, str], int] = {  # what the opening set
            ("kai-weller", "melee_dice"): 3, ("jett-st-clair", "range_to_hit"): 4, ("angus-smith", "shield_dice"): 2,
            ("raaz-garcia", "melee_dice"): 2, ("cassandra-evans", "range_dice"): 2}
        skirmish_wins: dict[str, int] = {}
        opened = {"container-b"}
        for number in range(4, 16):
            winner = ["Ann", "Bob", "Cat"][number % 3]
            lines.append(f"# --- game {number} ({'skirmish' if number in SKIRMISH else 'global'})")
            if number in SKIRMISH:
                plays = " ".join(f"--play {p}={w}" for p, (_, w) in PLAYERS.items())
            else:
                plays = " ".join(f"--play {p}={f},{w}" for p, (f, w) in PLAYERS.items())
            run(f"game start {plays}")
            if number in DRAFTS:
                for faction in ("green-faction", "white-faction", "blue-faction"):
                    run(f"place {DRAFTS[number]} {faction}")
            lost = " --lost angus-smith" if number == 13 else ""
            if number == 13:  # refused: a piece not in play is not lost
                lines.append(f"!R307 game end --winner {winner} --lost xenia-jones")
            run(f"game end --winner {winner}{lost}")
            played = {w for _, w in PLAYERS.values()}
            order = [winner] + [p for p in PLAYERS if p != winner]  # the winner first, choosing the order
            extra = [w for w in WARLORDS if w not in played] + (["xenia-jones"] if "container-b" in opened else [])
            if number in SKIRMISH:
                for player in order:
                    w = PLAYERS[player][1]
                    if w == "angus-smith" and number == 13:
                        continue
                    _stat(run, stat_values, player, w, number, file)
                for w in extra:  # Xenia too: only game 2's end leaves her card alone
                    _stat(run, stat_values, winner, w, number, file)
                own = PLAYERS[winner][1]
                skirmish_wins[winner] = skirmish_wins.get(winner, 0) + 1
                done = [s for s in ("cyber-tech-upgrade", "influence-upgrade") if where(s, winner)]
                if done:
                    run(f"place {done[0]} {own} --by {winner}")
                else:
                    run(f"place continent-minus-one {where('continent-minus-one', winner)[0]} --by {winner}"
                        if where("continent-minus-one", winner) else
                        f"place cancel-square {where('cancel-square', winner)[0]} --by {winner}")
            else:
                for player in order:
                    w = PLAYERS[player][1]
                    run(f"place {w}-warlord-sticker {where(f'{w}-warlord-sticker', player)[0]} --by {player}")
                for w in extra:
                    run(f"place {w}-warlord-sticker {where(f'{w}-warlord-sticker', winner)[0]} --by {winner}")
                for player in order:
                    run(f"place warlord-upgrade-tactic {PLAYERS[player][1]}-warlord-deck --by {player}")
                if number == 15:  # refused: a pass of a step taken per piece names the piece, one nobody played
                    lines.append(f"!R331 pass warlord-upgrade-unassigned --by {winner} --why \"the winner leaves the "
                                 "last stickers\"")
                    lines.append(f"!R331 pass warlord-upgrade-unassigned --by {winner} --for kai-weller --why \"not "
                                 "owed for a played warlord\"")
                for w in extra:
                    why = ("her warlord cards are not known" if w == "xenia-jones"
                           else "the winner leaves the last stickers")
                    run(f"pass warlord-upgrade-unassigned --by {winner} --for {w} --why \"{why}\"")
                names = where("continent-name", winner)
                if names:
                    run(f"place continent-name {names[0]} --by {winner} --name \"{winner}land {number}\"")
                elif where("restricted-operating-zone", winner):
                    run(f"place restricted-operating-zone {where('restricted-operating-zone', winner)[0]} "
                        f"--by {winner}")
                else:
                    run(f"place cancel-square {where('cancel-square', winner)[0]} --by {winner}")
            if number in PACKETS:
                run(f"open {PACKETS[number]}")
                opened.add(PACKETS[number])
                for sticker in OWED.get(PACKETS[number], []):
                    run(f"place {sticker} {where(sticker, winner)[0]}")
                for sticker, continent, drawn in CONTINENTS.get(PACKETS[number], []):
                    run(f"place {sticker} {continent} --by {winner} --name \"{winner}'s {continent}\"")
                    for a, b in drawn:
                        run(f"link {sticker} {a} {b} --by {winner}")
    OUT.write_text("\n".join(lines) + "\n", "utf-8")
    print(f"wrote {OUT} ({len(lines)} lines)")


def _stat(run, values, player: str, warlord: str, number: int, file: Path) -> None:  # type: ignore[no-untyped-def]
    import json

    field = STATS[(number + len(warlord)) % len(STATS)]
    step = -1 if field.endswith(("to_hit", "to_block")) else 1
    pieces = json.loads(invoke(["status", "--format", "json"], file).stdout)["pieces"]
    known = next((p["stats"].get(field) for p in pieces if p["piece"] == warlord), None)
    value = (known if known is not None else values.get((warlord, field), 5 if step < 0 else 1)) + step
    values[(warlord, field)] = value
    run(f"place warlord-stat-upgrade {warlord} --by {player} --name {field} --value {value}")


if __name__ == "__main__":
    main()
