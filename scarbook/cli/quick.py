"""A plain campaign command line, run without importing Typer.

Importing Typer (and the Click it runs on) is about 13 ms of the 90 ms a warm `campaign status` takes, paid by
every command at the table. `parse` reads a command line of the campaign group from `quicktable` (generated from
the Typer commands by tools/generate_cli.py) and gives the command's function the very values Typer would give
it (tests/test_quick.py checks that on generated command lines). It takes only the plain forms: the command's
words, then its options (`--by Ann`, `--by=Ann`, `-c FILE`, `-cFILE`, flags, each option at most once unless it
repeats) and arguments in any order, every value valid. Anything else (`--help`, a `--`, a value that starts
with a dash, an unknown or missing option, a bad value, completion) returns None and Typer runs the command as
it always did, with its own help and errors.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

Parsed = tuple[Callable[..., Any], dict[str, Any]]


def run(argv: Sequence[str]) -> bool:
    """Run `argv` (the words after `scarbook`) here when `parse` takes it: True when it ran (an exit code, if any,
    is raised as SystemExit, as the command raises it), False when Typer must run it."""
    parsed = parse(argv)
    if parsed is None:
        return False
    func, kwargs = parsed
    import errno
    import sys

    try:
        func(**kwargs)
    except EOFError:  # as Typer's main reports them
        sys.stderr.write("\nAborted!\n")
        raise SystemExit(1) from None
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    except OSError as exc:
        if exc.errno == errno.EPIPE:
            raise SystemExit(1) from None
        raise
    return True


def parse(argv: Sequence[str]) -> Parsed | None:
    """The command's function and its keyword arguments, or None when Typer must read `argv`."""
    if any(k.endswith("_COMPLETE") for k in os.environ if k.startswith("_")):
        return None  # a shell asks for completions
    from scarbook.cli.quicktable import COMMANDS

    for size in (3, 2):
        found = COMMANDS.get(tuple(argv[:size]))
        if found is not None:
            break
    else:
        return None
    target, params = found
    values = _values(list(argv[size:]), params)
    if values is None:
        return None
    import importlib

    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name), values


def _values(args: list[str], params: tuple[tuple[Any, ...], ...]) -> dict[str, Any] | None:
    """Each parameter's value as Typer gives it, or None for anything but the plain forms."""
    by_opt = {opt: p for p in params if p[1] != "argument" for opt in p[2]}
    given: dict[str, list[str] | bool] = {}
    positional: list[str] = []
    i = 0
    while i < len(args):
        token = args[i]
        i += 1
        if token == "--" or token.startswith("---"):
            return None
        if token.startswith("--"):
            name, eq, attached = token.partition("=")
            param = by_opt.get(name)
            value: str | None = attached if eq else None
        elif token.startswith("-") and len(token) > 1:
            param = by_opt.get(token[:2])
            value = token[2:] or None
        else:
            positional.append(token)
            continue
        if param is None:
            return None
        pname, kind = param[0], param[1]
        if kind == "flag":
            if value is not None or pname in given:
                return None
            given[pname] = True
            continue
        if value is None:
            if i >= len(args) or (args[i].startswith("-") and len(args[i]) > 1):
                return None
            value = args[i]
            i += 1
        seen = given.setdefault(pname, [])
        if not isinstance(seen, list) or (seen and not param[4]):
            return None
        seen.append(value)
    arguments = [p for p in params if p[1] == "argument"]
    if len(positional) > len(arguments):
        return None
    for param, value in zip(arguments, positional, strict=False):
        given[param[0]] = [value]
    out: dict[str, Any] = {}
    for name, kind, _opts, form, multiple, required, default in params:
        got = given.get(name)
        if got is None:
            if required:
                return None
            out[name] = _default(form, default, multiple)
            continue
        if kind == "flag":
            out[name] = True
            continue
        assert isinstance(got, list)
        converted = [_convert(form, v) for v in got]
        if any(c is _BAD for c in converted):
            return None
        out[name] = converted if multiple else converted[0]
    return out


_BAD = object()


def _default(form: tuple[Any, ...], default: Any, multiple: bool) -> Any:
    if default is None:
        return None
    if form[0] == "choice":
        return _enum(form[1])(default)
    if form[0] == "path":
        from pathlib import Path

        return Path(default)
    return list(default) if multiple else default


def _enum(where: str) -> Any:
    import importlib

    module, _, name = where.partition(":")
    return getattr(importlib.import_module(module), name)


def _convert(form: tuple[Any, ...], value: str) -> Any:
    """`value` as Click reads it and Typer hands it on, or _BAD where Click would refuse it."""
    kind = form[0]
    if kind == "str":
        return value
    if kind == "int":
        try:
            number = int(value)
        except ValueError:
            return _BAD
        low, high = form[1], form[2]
        if (low is not None and number < low) or (high is not None and number > high):
            return _BAD
        return number
    if kind == "choice":
        return _enum(form[1])(value) if value in form[2] else _BAD
    if kind == "path":
        return _path(form, value)
    return _BAD


def _path(form: tuple[Any, ...], value: str) -> Any:
    """Click's (Typer's) checks of a path, then the path; _BAD where one fails (Typer then says why)."""
    import stat
    from pathlib import Path

    _kind, exists, file_okay, dir_okay, readable, writable = form
    try:
        st = os.stat(value)
    except (OSError, ValueError):
        return _BAD if exists or not value else Path(value)
    if not file_okay and stat.S_ISREG(st.st_mode):
        return _BAD
    if not dir_okay and stat.S_ISDIR(st.st_mode):
        return _BAD
    if readable and not os.access(value, os.R_OK):
        return _BAD
    if writable and not os.access(value, os.W_OK):
        return _BAD
    return Path(value)
