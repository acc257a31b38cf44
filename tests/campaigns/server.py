"""`scarbook serve` as a real process on a free loopback port, for the browser and process tests."""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

from .procs import SCARBOOK, proc_env


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def served(file: Path, *args: str, cache: Path | None = None) -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """Start `scarbook serve FILE` on a free port; yield its base URL and the process; stop it after."""
    port = free_port()
    extra = {"SCARBOOK_CACHE": str(cache)} if cache else {}
    proc = subprocess.Popen([SCARBOOK, "serve", str(file), "--port", str(port), *args], env=proc_env(**extra),
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"{base}/api/fingerprint", timeout=5) as answer:
                    json.load(answer)
                break
            except urllib.error.HTTPError:  # it answers (shared: 403 without the join token)
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    said = proc.stdout.read() if proc.stdout else ""
                    raise AssertionError(f"scarbook serve did not start: {said}") from None
                time.sleep(0.2)
        yield base, proc
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
