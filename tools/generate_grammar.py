"""Write compiler/generated/grammar.json: inflect's answers for the nouns of every shipped game and example.

    .venv/bin/python tools/generate_grammar.py          # after changing the nouns of shipped content
    .venv/bin/python tools/generate_grammar.py --check  # exit 1 when the file is out of date

`scarbook.compiler.words` asks inflect for articles, plurals and singulars and keeps each answer in the cache
folder; this file holds the same answers for the words shipped content uses (declared words, mark groups, the
names of sticker kinds and slots, stickers and decks), so a command on a shipped game imports inflect only for a
word of the user's own (a cold `campaign status` saved ~0.15 s of CPU, inflect's import). It is a cache, never a
source of meaning: tests/test_game_words.py checks every entry against inflect and that the file is current.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

from generated import check_or_write

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "compiler" / "generated" / "grammar.json"


def nouns() -> set[str]:
    """Every noun the tracker may inflect for shipped content: words, groups, kinds, slots, stickers, decks."""
    from scarbook.compiler.load import shipped_games
    from scarbook.compiler.model import known
    from scarbook.compiler.validate import load_game
    from scarbook.compiler.words import DEFAULT_WORDS, kind_name, mark_groups, words

    found = {one for one, _ in DEFAULT_WORDS.values()}
    games = [str(g) for g in sorted(shipped_games())]
    games += [str(p) for p in sorted((ROOT / "examples").glob("*/game.yaml"))]
    for game_id in games:
        game = load_game(str(Path(game_id).parent) if game_id.endswith("game.yaml") else game_id)
        found |= {w.one for w in words(game).values()} | {g.word.one for g in mark_groups(game)}
        stickers = game.section("stickers")
        kinds = {str(st.get(k)) for st in stickers.values() for k in ("kind", "slot") if isinstance(st.get(k), str)}
        found |= {kind_name(game, k) for k in kinds}
        found |= {str(st["name"]) for st in stickers.values() if known(st.get("name"))}
        found |= {str(d["name"]) for d in game.section("decks").values() if isinstance(d.get("name"), str)}
    return {n for n in found if n.strip()}


def answers() -> dict[str, str]:
    """inflect's answers for every noun, as `words` keeps them ('plural:valley': 'valleys', 'a:hour': 'an')."""
    with tempfile.TemporaryDirectory() as cache:
        os.environ["SCARBOOK_CACHE"] = cache  # never the user's kept answers: inflect's own, asked afresh
        from scarbook.compiler import words as w

        w._MEMO = {}
        for noun in sorted(nouns()):
            w.plural_of(noun)
            w.singular_of(noun)
            w.article(noun)
        memo = dict(sorted(w._MEMO.items()))
        w._MEMO = None
    return memo


def main() -> int:
    return check_or_write(__doc__ or "", TARGET, lambda: json.dumps(answers(), ensure_ascii=False, indent=0) + "\n",
                          ROOT, "generate_grammar.py")


if __name__ == "__main__":
    sys.exit(main())
