"""Write compiler/generated/validator.py: the compiled validator of the content schema, shipped with the package.

    .venv/bin/python tools/generate_validator.py          # after changing anything under schemas/
    .venv/bin/python tools/generate_validator.py --check  # exit 1 when the schemas changed since

The module is fastjsonschema's code for `content-file.schema.json` (see `scarbook.compiler.compiled`),
headed by the digest of the schema files it was made from; the tracker and `validate` use it only while that
digest matches, so a stale module is slower (the code is generated at run time), never wrong.
tests/test_compiled_validator.py fails while it is stale.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from generated import write_if_changed

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "compiler" / "generated" / "validator.py"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only say whether the shipped module is current")
    args = parser.parse_args()
    from scarbook.compiler import compiled as schema

    if args.check:
        if schema.shipped_file() is None:
            print(f"{TARGET.relative_to(ROOT)} is out of date: run python tools/generate_validator.py",
                  file=sys.stderr)
            return 1
        return 0
    write_if_changed(TARGET, schema.shipped_source(), ROOT)
    return 0


if __name__ == "__main__":
    sys.exit(main())
