"""docs/development/architecture.md's layout names every module of the code, and no module that is gone."""

from __future__ import annotations

import re

from conftest import ROOT

DOC = ROOT / "docs" / "development" / "architecture.md"
CODE = ("scarbook/kernel", "scarbook/cli", "scarbook/serve", "compiler", "campaign")


def listed_modules(text: str) -> set[str]:
    """The .py paths the first code block under '## Layout' names: a line starting with `folder/` opens that
    folder (under the folder of the nearest less indented line) and names the modules after it on the line;
    any other line names modules of the folder it is indented under. A line's names end where its description
    starts (the first word that is no .py file)."""
    block = re.search(r"^## Layout\n+```\n(.*?)^```", text, re.S | re.M)
    assert block, "docs/development/architecture.md has no '## Layout' code block"
    listed: set[str] = set()
    stack: list[tuple[int, str]] = []  # (indent, folder path ending in /)
    for line in block.group(1).splitlines():
        words = line.split()
        if not words:
            continue
        indent = len(line) - len(line.lstrip())
        while stack and stack[-1][0] >= indent:
            stack.pop()
        here = stack[-1][1] if stack else ""
        if words[0].endswith("/"):
            here += words[0]
            stack.append((indent, here))
            words = words[1:]
        for w in words:
            if not w.endswith(".py"):
                break  # the description: it may name other files
            listed.add(here + w)
    return listed


def test_the_parser_reads_folders_modules_and_nesting() -> None:
    text = ("## Layout\n\n```\nscarbook/\n  kernel/     shared\n    a.py      what a is\n  cli/\n"
            "    campaign/ b.py c.py   commands\n    d.py  e.py   more\npkg/   the package\n  f.py  g/h.py\n"
            "  sub/ i.py   made by tools/j.py\n```\n")
    assert listed_modules(text) == {"scarbook/kernel/a.py", "scarbook/cli/campaign/b.py", "scarbook/cli/campaign/c.py",
                                    "scarbook/cli/d.py", "scarbook/cli/e.py", "pkg/f.py", "pkg/g/h.py", "pkg/sub/i.py"}


def test_the_layout_lists_every_module_and_only_modules_that_exist() -> None:
    modules = {p.relative_to(ROOT).as_posix() for top in CODE for p in (ROOT / top).rglob("*.py")
               if p.name != "__init__.py"}
    listed = listed_modules(DOC.read_text("utf-8"))
    missing = sorted(modules - listed)
    assert missing == [], ("add these modules to the layout in docs/development/architecture.md (under their "
                           f"folder, with what they do): {missing}")
    gone = sorted(listed - modules - {p for p in listed if not p.startswith(tuple(f"{t}/" for t in CODE))})
    assert gone == [], f"docs/development/architecture.md lists modules that do not exist: {gone}"
