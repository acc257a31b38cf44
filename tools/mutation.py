"""Mutation testing and coverage of the core modules: would the tests catch your own mistakes?

    .venv/bin/python tools/mutation.py                       # coverage, then every core module
    .venv/bin/python tools/mutation.py compiler/atomic.py    # one module (a path in the checkout)
    .venv/bin/python tools/mutation.py --no-coverage campaign/checks.py --tests tests/test_campaign_rules.py

mutmut (configured under [tool.mutmut] in pyproject.toml) names a mutant after the module's path,
so it must see the package laid out as it is installed (`scarbook/compiler/...`), not as this
checkout keeps it (`compiler/...` mapped by package-dir). This script copies the tracked tree
to a scratch folder (SCARBOOK_MUTATION_DIR, default a temporary one) in that layout, runs
mutmut there, and prints the score and the surviving mutants. The checkout is never modified.
Slow (minutes per module on 2 cores): not part of .ci/run.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE_DIRS = ("compiler", "campaign", "content", "schemas", "templates", "examples")


def stage(dest: Path) -> None:
    """The tracked (and new, not ignored) files of the checkout, each package folder also under scarbook/."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, check=True,
                            capture_output=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        src = ROOT / name
        if not src.is_file():
            continue
        for target in [dest / name] + ([dest / "scarbook" / name] if name.split("/")[0] in PACKAGE_DIRS else []):
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", help="modules to mutate, as paths in the checkout "
                        "(default: [tool.mutmut] only_mutate in pyproject.toml)")
    parser.add_argument("--tests", nargs="*", help="test files to run (default: the whole suite)")
    parser.add_argument("--no-coverage", action="store_true", help="skip the coverage report of the core modules")
    parser.add_argument("--max-children", default="2", help="parallel mutmut workers (default 2)")
    args = parser.parse_args()
    python = sys.executable
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["mutmut"]
    env = {**os.environ, "SCARBOOK_CACHE": os.environ.get("SCARBOOK_CACHE") or tempfile.mkdtemp(prefix="sb-cache-"),
           "COVERAGE_FILE": os.path.join(tempfile.mkdtemp(prefix="sb-coverage-"), ".coverage")}  # not in the checkout

    if not args.no_coverage:
        modules = [f"scarbook/{m}" for m in args.modules] or config["only_mutate"]
        cov = ["--cov=" + Path(m).with_suffix("").as_posix().replace("/", ".") for m in modules]
        subprocess.run([python, "-m", "pytest", "-q", *cov, "--cov-report=term-missing:skip-covered",
                        *(args.tests or [])], cwd=ROOT, env=env, check=False)

    work = Path(os.environ.get("SCARBOOK_MUTATION_DIR") or tempfile.mkdtemp(prefix="scarbook-mutation-"))
    if (work / "mutants").exists():
        shutil.rmtree(work / "mutants")
    stage(work)
    if args.modules or args.tests:  # narrow the run: rewrite the copied configuration only
        text = (work / "pyproject.toml").read_text("utf-8")
        data = tomllib.loads(text)["tool"]["mutmut"]
        only = [f"scarbook/{m}" for m in args.modules] if args.modules else data["only_mutate"]
        tests = args.tests or data["pytest_add_cli_args_test_selection"]
        text = text.replace("[tool.mutmut]", "[tool.mutmut-checkout]")  # keep it for reference, unused
        text += f"\n[tool.mutmut]\nsource_paths = {data['source_paths']!r}\nalso_copy = {data['also_copy']!r}\n"
        text += f"only_mutate = {only!r}\npytest_add_cli_args_test_selection = {tests!r}\n"
        (work / "pyproject.toml").write_text(text.replace("'", '"'), "utf-8")
    print(f"mutating in {work}", flush=True)
    run = subprocess.run([python, "-m", "mutmut", "run", "--max-children", args.max_children], cwd=work, env=env)
    results = subprocess.run([python, "-m", "mutmut", "results"], cwd=work, env=env, capture_output=True, text=True)
    print(results.stdout)
    return run.returncode


if __name__ == "__main__":
    raise SystemExit(main())
