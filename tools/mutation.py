"""Mutation testing and coverage of the core modules: would the tests catch your own mistakes?

    .venv/bin/python tools/mutation.py                       # coverage, then every core module
    .venv/bin/python tools/mutation.py scarbook/kernel/atomic.py    # one module (a path in the checkout)
    .venv/bin/python tools/mutation.py --no-coverage campaign/checks.py --tests tests/test_campaign_rules.py
    .venv/bin/python tools/mutation.py --no-coverage campaign/rules.py --sample 300 --tests ...  # an estimate

--sample N tests N mutants drawn at random (a fixed seed, --seed) instead of all of them, for modules whose
full run would take hours on this machine: the score is then an estimate, printed with its 95 % interval.

mutmut (configured under [tool.mutmut] in pyproject.toml) names a mutant after the module's path,
so it must see the package laid out as it is installed (`scarbook/compiler/...`), not as this
checkout keeps it (`compiler/...`, reached from scarbook/ through a symlink). This script copies the tracked tree
to a scratch folder (SCARBOOK_MUTATION_DIR, default a temporary one) in that layout, runs
mutmut there, and prints the score and the surviving mutants. The checkout is never modified.
Slow (minutes per module on 2 cores): not part of .ci/run.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import math
import os
import random
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
    parser.add_argument("--sample", type=int, default=0, help="test only N mutants drawn at random (an estimate)")
    parser.add_argument("--seed", type=int, default=17, help="the random draw of --sample (default 17)")
    parser.add_argument("--only", nargs="*", default=[], help="mutant names or globs to test, e.g. "
                        "'scarbook.campaign.checks.x_steps_value*' (mutmut's names)")
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
    mutmut = [python, "-m", "mutmut", "run", "--max-children", args.max_children]
    names: list[str] = list(args.only)
    if args.sample:
        # mutmut generates every mutant and maps tests to functions before it filters by name; a name that
        # matches nothing stops it right after (an assertion), leaving the mutants listed in the .meta files
        subprocess.run([*mutmut, "no-such-mutant-just-generate"], cwd=work, env=env, capture_output=True)
        every = sorted(k for meta in (work / "mutants").rglob("*.meta")
                       for k in json.loads(meta.read_text())["exit_code_by_key"])
        if not every:
            raise SystemExit("mutmut generated no mutants (see `python -m mutmut run` in " + str(work) + ")")
        names = sorted(random.Random(args.seed).sample(every, min(args.sample, len(every))))
        print(f"testing {len(names)} of {len(every)} mutants drawn at random (seed {args.seed})", flush=True)
    run = subprocess.run([*mutmut, *names], cwd=work, env=env)
    results = subprocess.run([python, "-m", "mutmut", "results"], cwd=work, env=env, capture_output=True, text=True)
    print(results.stdout)
    print(score(work, set(names), sampled=bool(args.sample)))
    return run.returncode


def score(work: Path, names: set[str], sampled: bool = False) -> str:
    """Killed / tested per module from mutmut's .meta files (only those matching `names` when given)."""

    lines = []
    for meta in sorted((work / "mutants").rglob("*.meta")):
        codes = json.loads(meta.read_text())["exit_code_by_key"]
        codes = {k: v for k, v in codes.items() if not names or any(fnmatch.fnmatch(k, n) for n in names)}
        killed = sum(1 for v in codes.values() if v in (1, 3))
        timeout = sum(1 for v in codes.values() if v in (36, -24, 24, 152, 255))
        survived = sum(1 for v in codes.values() if v == 0)
        no_tests = sum(1 for v in codes.values() if v in (5, 33))
        unchecked = sum(1 for v in codes.values() if v is None)
        n = len(codes) - unchecked
        if not n:
            continue
        share = (killed + timeout) / n
        line = (f"{meta.relative_to(work / 'mutants').with_suffix('')}: {killed + timeout} of {n} killed "
                f"({100 * share:.1f} %; {timeout} by timeout), {survived} survived, {no_tests} reached by no test")
        if sampled:  # Wilson's 95 % interval for a share estimated from a random sample
            z = 1.96
            centre = (share + z * z / (2 * n)) / (1 + z * z / n)
            half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
            line += f"; 95 % interval {100 * (centre - half):.1f}-{100 * (centre + half):.1f} %"
        lines.append(line + (f"; {unchecked} not run" if unchecked else ""))
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
