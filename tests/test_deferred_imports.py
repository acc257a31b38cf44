"""The page of deferred imports is the table of the code: a new import inside a function is a new row."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import deferred_imports  # noqa: E402


def test_the_page_is_the_table_of_the_code() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "deferred_imports.py"), "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_a_deferred_import_is_a_row_and_a_top_level_one_is_not(tmp_path: Path) -> None:
    source = tmp_path / "campaign" / "probe.py"
    source.parent.mkdir()
    source.write_text('"""probe."""\nfrom scarbook.kernel import atomic\n\n\nclass A:\n    def m(self):\n'
                      '        from scarbook.campaign import rules\n        import json\n\n\n'
                      'def f():\n    def g():\n        from . import state\n    return g\n', "utf-8")
    old = deferred_imports.ROOT
    deferred_imports.ROOT = tmp_path
    try:
        rows = deferred_imports.rows(source)
    finally:
        deferred_imports.ROOT = old
    assert rows == [("scarbook.campaign.probe", "A.m", "`scarbook.campaign.rules`"),
                    ("scarbook.campaign.probe", "f.g", "`scarbook.campaign.state`")]
