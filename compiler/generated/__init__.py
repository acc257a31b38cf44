"""Code written by tools (never by hand): `validator` is fastjsonschema's code for the content schema,
written by `tools/generate_validator.py` and loaded by `scarbook.compiler.compiled` while its digest matches;
`grammar.json` holds inflect's answers for shipped nouns (`tools/generate_grammar.py`); `game-ID.json` holds each
shipped game validated, used while its files are the bytes it was made from (`tools/generate_games.py`).
"""

from pathlib import Path

GENERATED_DIR = Path(__file__).resolve().parent
