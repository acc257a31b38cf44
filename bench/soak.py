"""Soak test of the ledger's write path: many writers, SIGKILLs at any moment, hand edits racing.

    python bench/soak.py [--kills 500] [--writers 4] [--seed 1] [--interval 0.25]

`--writers` processes append events to one ledger in a loop through the real write path (lock, read,
append as text, `write_atomic` with the bytes read, which refuses when the file changed). Each
prints an acknowledgement after every write that returned. A killer SIGKILLs a random writer at a
random moment (a third of the writers are started with `SCARBOOK_FAULT` so that they die at a named
point of the write: after `.bak`, just before the last comparison, halfway through the append
(`ledger-append:torn` writes half the event, then dies) or just after it) and starts another, until
`--kills` kills. Meanwhile a "hand editor" appends a comment line to the file without the lock, like
`echo '# note' >> campaign.yaml`, as fast as it can, and a reader reads the file as scarbook's
commands do (`ledger.read`, which hides half an event a killed writer left until the next write
cuts it) and parses its `.bak`, all the time. At the end it prints a table: kills, writes
acknowledged, events lost, hand edits lost, refusals (L012 changed / L005 busy), unreadable reads
of the ledger and of .bak, raw reads that showed a torn append, temp files and journals left.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

WORKER = r"""
import sys
from pathlib import Path
from scarbook.campaign.ledger.file import LedgerBusy, LedgerError
from scarbook.campaign.ledger.cache import read
from scarbook.campaign.ledger.write import locked, write_atomic
from scarbook.campaign.ledger.text import with_event
from scarbook.campaign.events import parse_event
from scarbook.kernel.diagnostics import Span
path, name = Path(sys.argv[1]), sys.argv[2]
n = 0
while True:
    try:
        with locked(path, wait=5):
            ledger = read(path)
            event = parse_event({"event": "place", "sticker": "coin", "target": f"{name}-{n}"}, Span("x"), 0)
            write_atomic(path, with_event(ledger, event), expected=ledger.raw)
        print(f"ack {name}-{n}", flush=True)
        n += 1
    except LedgerBusy:
        print("busy", flush=True)
    except LedgerError as exc:
        print("changed" if exc.diagnostics[0].code == "L012" else f"error {exc}", flush=True)
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kills", type=int, default=500)
    ap.add_argument("--writers", type=int, default=4)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--interval", type=float, default=0.25,
                    help="the killer waits up to this many seconds between kills (default 0.25); raise it on a "
                    "loaded machine, where a writer needs longer to start, so that writes land between kills")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="scarbook-soak-"))
    os.environ["SCARBOOK_CACHE"] = str(work / "cache")
    ledger = work / "c.yaml"
    ledger.write_text("# soak\ncampaign: {game: risk-legacy, fingerprint: x, players: [A, B, C]}\nevents:\n")

    from scarbook.campaign.ledger.cache import read
    from scarbook.campaign.ledger.file import LedgerError, parse

    acked: set[str] = set()
    edits: list[str] = []
    counts = {"kills": 0, "fault kills": 0, "changed": 0, "busy": 0, "other errors": 0, "bad reads": 0,
              "bad .bak reads": 0, "reads": 0, "raw torn": 0}
    lock = threading.Lock()
    stop = threading.Event()

    def pump(proc: subprocess.Popen[str]) -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            word, _, rest = line.strip().partition(" ")
            with lock:
                if word == "ack":
                    acked.add(rest)
                elif word in ("changed", "busy"):
                    counts[word] += 1
                else:
                    counts["other errors"] += 1

    def editor() -> None:
        k = 0
        while not stop.is_set():
            note = f"# hand edit {k}"
            fd = os.open(ledger, os.O_WRONLY | os.O_APPEND)  # like the shell's `>>`: open, one write
            try:
                os.write(fd, (note + "\n").encode())
            finally:
                os.close(fd)
            with lock:
                edits.append(note)
            k += 1
            time.sleep(rng.uniform(0.005, 0.03))

    def reader() -> None:
        while not stop.is_set():
            try:
                read(ledger)
            except LedgerError:
                with lock:
                    counts["bad reads"] += 1
            for file, key in ((ledger, "raw torn"), (ledger.with_name("c.yaml.bak"), "bad .bak reads")):
                try:
                    text = file.read_text("utf-8")
                except FileNotFoundError:
                    continue
                try:
                    parse(text, file)
                except LedgerError:
                    with lock:
                        counts[key] += 1
            with lock:
                counts["reads"] += 1
            time.sleep(0.01)

    def start(i: int) -> subprocess.Popen[str]:
        env = dict(os.environ)
        env.pop("SCARBOOK_FAULT", None)
        if rng.random() < 1 / 3:
            env["SCARBOOK_FAULT"] = rng.choice(["ledger-after-bak:kill", "ledger-before-replace:kill",
                                                "ledger-append:torn", "ledger-after-append:kill"])
        proc = subprocess.Popen([sys.executable, "-c", WORKER, str(ledger), f"w{i}"], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        proc.fault = "SCARBOOK_FAULT" in env  # type: ignore[attr-defined]
        threading.Thread(target=pump, args=(proc,), daemon=True).start()
        return proc

    started = time.perf_counter()
    threads = [threading.Thread(target=editor, daemon=True), threading.Thread(target=reader, daemon=True)]
    for t in threads:
        t.start()
    launched = 0
    procs = []
    for _ in range(args.writers):
        procs.append(start(launched))
        launched += 1
    while counts["kills"] < args.kills:
        time.sleep(rng.uniform(0.0, args.interval))
        for i, proc in enumerate(procs):
            if proc.poll() is not None:  # died at its fault point
                counts["kills"] += 1
                counts["fault kills"] += 1
                procs[i] = start(launched)
                launched += 1
        i = rng.randrange(len(procs))
        if procs[i].poll() is None:
            procs[i].send_signal(signal.SIGKILL)
            procs[i].wait()
            counts["kills"] += 1
        procs[i] = start(launched)
        launched += 1
    for proc in procs:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    stop.set()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - started
    time.sleep(0.2)  # let the pumps drain
    left_by_kills = len([p for p in work.iterdir() if p.name.endswith(".tmp")])
    journals_by_kills = len([p for p in work.iterdir() if p.name.endswith(".append")])
    from scarbook.campaign.events import ParseProblem, parse_event
    from scarbook.campaign.ledger.text import with_event
    from scarbook.campaign.ledger.write import locked, write_atomic
    from scarbook.kernel.diagnostics import Span

    with locked(ledger):  # one more write: it removes the temporary files and journals of the killed writers
        last = read(ledger)
        event = parse_event({"event": "place", "sticker": "coin", "target": "final"}, Span("x"), 0)
        assert not isinstance(event, ParseProblem), event
        write_atomic(ledger, with_event(last, event), expected=last.raw)
    acked.add("final")
    final = ledger.read_text("utf-8")
    events = {e.to_dict()["target"] for e in parse(final, ledger).events}
    lost_events = sorted(acked - events)
    lost_edits = [e for e in edits if e not in final]
    temps = [p.name for p in work.iterdir() if p.name.endswith(".tmp")]
    journals = [p.name for p in work.iterdir() if p.name.endswith(".append")]
    rows = [
        ("writers at once", args.writers), ("kills (SIGKILL)", counts["kills"]),
        ("  of which at a fault point", counts["fault kills"]), ("writes acknowledged", len(acked)),
        ("events in the final file", len(events)), ("acknowledged events lost", len(lost_events)),
        ("hand edits (unlocked appends)", len(edits)), ("hand edits lost", len(lost_edits)),
        ("writes refused: file changed (L012)", counts["changed"]), ("writes refused: busy (L005)", counts["busy"]),
        ("other errors", counts["other errors"]), ("reads of ledger and .bak", counts["reads"]),
        ("unreadable ledger reads", counts["bad reads"]), ("unreadable .bak reads", counts["bad .bak reads"]),
        ("raw parses showing half an event (hidden by read)", counts["raw torn"]),
        ("temp files of killed writers before the next write", left_by_kills),
        ("temp files left after the next write", len(temps)),
        ("append journals of killed writers before / after the next write", f"{journals_by_kills} / {len(journals)}"),
        ("seconds", f"{elapsed:.1f}"),
    ]
    width = max(len(r[0]) for r in rows)
    print(f"{'soak of the ledger write path':<{width}}  value")
    for name, value in rows:
        print(f"{name:<{width}}  {value}")
    if lost_events:
        print("lost events:", ", ".join(lost_events[:10]))
    if lost_edits:
        print("lost hand edits:", ", ".join(lost_edits[:10]))
    import shutil

    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
