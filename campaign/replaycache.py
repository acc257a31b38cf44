"""The cached replay: the ledger cache wrapped around the pure replay, as beancount wraps its loader.

`engine.Campaign.replay` folds and checks events and knows no cache. This module decides, for a ledger
read through the cache, whether the cache may answer: when it vouches for these very bytes ("all legal
under this content key", `content_key`) it returns the state it stored, so a write checks only its new
event and `status` folds nothing; else it lets the replay run and stores the verdict and the state it
ends with. A ledger with illegal events keeps its verdict too (the problems and the state, for these very bytes:
reading it again checks nothing; writing onto it stays refused). A hand edit (other bytes), a changed pack
or a changed tracker voids the verdict, and `checked` (the `check` command) always checks every event.
Nothing in the fold, the rules or the state imports this module.
"""

from __future__ import annotations

import copy
import functools
import json

import scarbook.campaign
import scarbook.compiler
import scarbook.kernel
from scarbook.campaign.engine import Campaign, Replay
from scarbook.campaign.ledger.cache import (
    RECENT_GAMES,
    fast_pickle,
    holds_state,
    recall_judged,
    recall_state,
    remember_judged,
    remember_state,
)
from scarbook.campaign.ledger.file import LedgerError
from scarbook.campaign.state import CampaignState, GameRecord
from scarbook.kernel.sha import key


def checked(campaign: Campaign) -> Replay:
    """The replay with every event checked; when all are legal, the verdict and the state are cached (when some
    are not, the verdict with its problems is, for these very bytes: `for_state` answers from it)."""
    result = campaign.replay(copy_before_last=copy_state)
    _vouch(campaign, result)
    return result


def _judged(campaign: Campaign) -> Replay | None:
    """The replay of a ledger with illegal events, as the last check of these very bytes found it, when the
    content key still holds (same tracker, game, packs and their bytes); None otherwise."""
    from scarbook.compiler.validate import ContentError

    found = recall_judged(campaign.ledger)
    if found is None:
        return None
    key, state, packs, problems = found
    try:
        if content_key(campaign, packs) != key:
            return None
        return Replay(state, campaign.content_for(packs, list(state.opened), state), problems=problems, packs=packs)
    except (ContentError, LedgerError):
        return None  # a recorded pack is gone or broken now: the full replay reports it


def for_state(campaign: Campaign) -> Replay:
    """The replay a write checks its new event against (and `where`, `status` answer from).

    The cached state when the cache vouches for these very bytes under the content key it ends with;
    else, with a verdict but no state, the events only folded (and the state cached); else all checked.
    """
    ledger = campaign.ledger
    cached = _cached(campaign)
    if cached is not None:
        return cached
    if ledger.verified and not ledger.problems:
        folded = campaign.replay(check=False, copy_before_last=copy_state)
        if not folded.pack_problems and content_key(campaign, folded.packs) == ledger.verified:
            remember_state(ledger, ledger.verified, folded.state, folded.packs, folded.before_last)
            folded.verified = ledger.verified
            return folded
    judged = _judged(campaign)  # illegal events, found so in these very bytes before: not checked again
    if judged is not None:
        return judged
    return checked(campaign)


def _vouch(campaign: Campaign, result: Replay) -> None:
    ledger = campaign.ledger
    if not (result.problems or result.pack_problems or ledger.problems or result.earlier):
        result.verified = content_key(campaign, result.packs)
        if result.verified and not holds_state(ledger, result.verified):
            remember_state(ledger, result.verified, result.state, result.packs, result.before_last)
    elif result.problems and not (result.pack_problems or ledger.problems or result.earlier):
        remember_judged(ledger, content_key(campaign, result.packs), result.state, result.packs, result.problems)


def _cached(campaign: Campaign) -> Replay | None:
    """The replay the cache holds for these very bytes, when its verdict holds under the content key the
    state ends with (same tracker, game, packs and their bytes); None otherwise."""
    from scarbook.compiler.validate import ContentError

    ledger = campaign.ledger
    if not ledger.verified or ledger.problems:
        return None
    found = recall_state(ledger, lambda: _games_again(campaign))
    if found is None:
        return None
    state, packs = found
    try:
        if content_key(campaign, packs) != ledger.verified:
            return None
        result = Replay(state, campaign.content_for(packs, list(state.opened), state), packs=packs)
    except (ContentError, LedgerError):
        return None  # a recorded pack is gone or broken now: the full replay reports it
    result.verified = ledger.verified
    return result


def _games_again(campaign: Campaign) -> list[GameRecord]:
    """The games, folded again (when the cache's archive of old games no longer verifies)."""
    return list(campaign.replay(check=False).state.games)


def copy_state(state: CampaignState) -> CampaignState:
    """A copy that later `apply` calls leave alone: everything is copied but the games older than the last
    RECENT_GAMES, which no event changes again (`apply` changes only the game in progress), so they are shared."""
    pickle = fast_pickle()
    keep = max(0, len(state.games) - RECENT_GAMES)
    light = copy.copy(state)
    light.games = list(state.games[keep:])
    prior: CampaignState = pickle.loads(pickle.dumps(light, protocol=5))
    prior.games = [*state.games[:keep], *prior.games]
    return prior


def content_key(campaign: Campaign, packs: tuple[str, ...]) -> str:
    """The content key of a fold that ends with these packs merged: the tracker's version and source, the
    game, the fingerprint of every content file merged (the game's and its packs' bytes), and where those
    packs are ('' when unknown)."""
    from scarbook import __version__

    fingerprint = campaign.game(packs).fingerprint
    code = code_fingerprint()
    if not fingerprint or not code:
        return ""
    places = [str(p.resolve()) for p in campaign.extra_packs + [campaign.pack_path(p) for p in packs]]
    parts = [__version__, code, campaign.ledger.game, fingerprint, places]
    return key(json.dumps(parts).encode("utf-8")).hexdigest()[:32]


def _sources(folder: str, prefix: str = "") -> list[tuple[str, str]]:
    """Every .py file under `folder`: (its path, its name relative to `folder`), by os.scandir (no Path objects:
    rglob compiles its pattern every time, and a Path per file costs more than its stat)."""
    import os

    found: list[tuple[str, str]] = []
    with os.scandir(folder) as entries:
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                if entry.name != "__pycache__":
                    found += _sources(entry.path, f"{prefix}{entry.name}/")
            elif entry.name.endswith(".py"):
                found.append((entry.path, prefix + entry.name))
    return found


@functools.cache
def code_fingerprint() -> str:
    """A digest of the tracker's and the content model's source files, each by its name, size and modification
    time (as Python's own .pyc check does): a changed rule, or a changed reading of the content (the board's
    adjacency, say), voids every cached verdict ('' if unreadable). Stat, not read: hashing the 1.5 MB of
    source on every command cost more than the rest of the cache check."""
    import os

    digest = key()
    try:
        for package in (scarbook.campaign, scarbook.compiler, scarbook.kernel):
            for path, name in sorted(_sources(os.path.dirname(str(package.__file__))), key=lambda found: found[1]):
                st = os.stat(path)
                digest.update(f"{name}\0{st.st_size}\0{st.st_mtime_ns}\0".encode())
    except OSError:
        return ""
    return digest.hexdigest()[:16]
