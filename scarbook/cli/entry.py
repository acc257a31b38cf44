"""The `scarbook` console script: a plain campaign command line straight away (`scarbook.cli.quick`), anything
else through the lazy Typer app of `scarbook.cli.main`.

Whatever the arguments, a command ends in a diagnostic and exit 1 or 2, never a traceback: an operating
system error that no command turned into a diagnostic (a name too long, a path through a file, standard
output on a full device) and a name that cannot be encoded are reported here, with the file they concern.
"""

from __future__ import annotations

import sys


def _say(message: str) -> None:
    try:
        sys.stderr.write(f"error: {message}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _flush_stdout() -> int:
    """Flush standard output now (not at the interpreter's exit, where a failure is a traceback): 0, or 1 after
    saying why it could not be written. Standard output is then pointed at nothing, so nothing fails later."""
    import os

    try:
        sys.stdout.flush()
        return 0
    except BrokenPipeError:
        code = 0  # the reader went away (`| head`): not an error of ours
    except (OSError, ValueError) as exc:
        _say(f"cannot write to standard output: {getattr(exc, 'strerror', None) or exc}")
        code = 1
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError):
        pass
    return code


def _describe(exc: BaseException) -> str:
    """An unexpected OSError or UnicodeError as one line that names the file or argument it concerns."""
    if isinstance(exc, OSError):
        import errno

        where = getattr(exc, "filename", None)
        if where is None and exc.errno in (errno.ENOSPC, errno.EIO, errno.EFBIG, getattr(errno, "EDQUOT", -1)):
            where = "cannot write to standard output"  # no file named: the output stream failed
        what = exc.strerror or str(exc)
        return f"{where}: {what}" if where else what
    return f"a name or argument is not valid text ({exc}); use UTF-8 names"


def run() -> None:
    import gc

    from scarbook.cli.codecache import install

    # A command makes its objects once and drops them at exit: Python's default (a young-object collection every
    # 700 new containers) walked them 52 times in a warm `campaign status`, ~5 % of its CPU. Cycles are still
    # collected, every 50,000 (so a server or a 100,000-event replay stays bounded).
    gc.set_threshold(50_000, 20, 20)
    install()  # the methods of dataclasses compiled once per user, not once per command
    from scarbook.cli.quick import run as run_plain

    code: int | str | None = 0
    try:
        if not run_plain(sys.argv[1:]):  # a plain campaign command line runs without importing Typer
            from scarbook.cli.main import app

            app()
    except SystemExit as done:
        code = done.code
    except (OSError, UnicodeError) as exc:
        _say(f"{_describe(exc)}; the command did not finish")
        code = 1
    finally:
        # The process ends here: Python's last garbage collection would walk every object still alive (a
        # 50,000-card pack's parsed values: 1.3 s of CPU); frozen, they are left to the operating system.
        gc.freeze()
    if _flush_stdout() and code in (0, None):
        code = 1
    sys.exit(code)
