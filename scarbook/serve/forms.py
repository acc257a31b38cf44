"""A posted form, as the event the CLI command it stands for would record (the same event classes and the
same `writing.record`: a web write is a CLI write with other fingers). Each function returns the event and
the command line a player would type for it."""

from __future__ import annotations

import datetime
import shlex

from scarbook.campaign.events import Destroyed, Event, GameEnded, GameStarted, Linked, Opened, Passed, Placed, Ticked

Fields = dict[str, list[str]]


def one(fields: Fields, name: str) -> str:
    """A field's value, stripped ('' when absent)."""
    return (fields.get(name) or [""])[0].strip()


def note(fields: Fields) -> str:
    """The note typed with a write (as typed: `writing.record` cleans and checks it)."""
    return (fields.get("note") or [""])[0]


def with_note(command: str, fields: Fields) -> str:
    """The command line with its `--note` (the note quoted for the shell)."""
    text = note(fields).strip()
    return command + (f" --note {_q(text)}" if text else "")


def many(fields: Fields, name: str) -> list[str]:
    return [v.strip() for v in fields.get(name, []) if v.strip()]


def _q(value: str) -> str:
    return shlex.quote(value)


def place(fields: Fields) -> tuple[Event, str]:
    sticker, target, by, name = one(fields, "sticker"), one(fields, "target"), one(fields, "by"), one(fields, "name")
    picked, _, stepped = one(fields, "option").partition("=")  # an option of the target: NAME or NAME=VALUE
    name = name or picked
    raw = one(fields, "value") or stepped
    value = int(raw) if raw.lstrip("-").isdigit() else None
    to = one(fields, "to")
    command = f"scarbook campaign place {_q(sticker)} {_q(target)}" + (f" --by {_q(by)}" if by else "") + (
        f" --name {_q(name)}" if name else "") + (f" --value {value}" if value is not None else "") + (
        f" --to {_q(to)}" if to else "")
    return Placed(sticker, target, by, name, value, to), command


def destroy(fields: Fields) -> tuple[Event, str]:
    card, by = one(fields, "card"), one(fields, "by")
    return Destroyed(card, by), f"scarbook campaign destroy {_q(card)}" + (f" --by {_q(by)}" if by else "")


def pass_step(fields: Fields) -> tuple[Event, str]:
    step, by, piece, why = one(fields, "step"), one(fields, "by"), one(fields, "for"), one(fields, "why")
    command = f"scarbook campaign pass {_q(step)} --by {_q(by)}" + (f" --for {_q(piece)}" if piece else "") + (
        f" --why {_q(why)}" if why else "")
    return Passed(step, by, piece, why), command


def open_packet(fields: Fields) -> tuple[Event, str]:
    packet = one(fields, "packet")
    return Opened(packet, ""), f"scarbook campaign open {_q(packet)}"


def tick(fields: Fields) -> tuple[Event, str]:
    target, raw = one(fields, "target"), one(fields, "boxes") or "1"
    if not raw.isdigit() or int(raw) < 1:
        raise ValueError(f"how many boxes: a whole number, 1 or more, not {raw!r}")
    boxes = int(raw)
    return Ticked(target, boxes), f"scarbook campaign tick {_q(target)}" + (
        f" --boxes {boxes}" if boxes != 1 else "")


def link(fields: Fields) -> tuple[Event, str]:
    sticker, a, b, by = one(fields, "sticker"), one(fields, "a"), one(fields, "b"), one(fields, "by")
    return Linked(sticker, a, b, by), f"scarbook campaign link {_q(sticker)} {_q(a)} {_q(b)}" + (
        f" --by {_q(by)}" if by else "")


def start(fields: Fields, players: list[str], kinds: int) -> tuple[Event, str]:
    """`play-N-K`: player N's piece of kind K (a player who chose none sits this game out; in a game without
    pieces every player plays); `start-N`: where player N starts; `seating`: NAME,NAME,..."""
    plays, starts = [], []
    for n, player in enumerate(players):
        pieces = tuple(p for p in (one(fields, f"play-{n}-{k}") for k in range(kinds)) if p)
        if kinds and not pieces:
            continue
        plays.append((player, pieces))
        where = one(fields, f"start-{n}")
        if where:
            starts.append((player, where))
    seating = tuple(s.strip() for s in one(fields, "seating").split(",") if s.strip())
    command = "scarbook campaign game start " + " ".join(
        f"--play {_q(p + ('=' + ','.join(ps) if ps else ''))}" for p, ps in plays) + "".join(
        f" --start {_q(p + '=' + t)}" for p, t in starts) + (f" --seating {_q(','.join(seating))}" if seating else "")
    return GameStarted(tuple(plays), tuple(starts), "", seating), command


def end(fields: Fields) -> tuple[Event, str]:
    winner, team = one(fields, "winner"), one(fields, "team")
    eliminated = tuple(many(fields, "eliminated"))
    event = GameEnded(winner, (), eliminated, (), datetime.date.today().isoformat(), (), team)
    command = "scarbook campaign game end" + (f" --team {_q(team)}" if team else f" --winner {_q(winner)}") + "".join(
        f" --eliminated {_q(e)}" for e in eliminated)
    return event, command


MAKERS = {"place": place, "destroy": destroy, "pass": pass_step, "end": end, "tick": tick, "link": link}
