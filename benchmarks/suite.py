"""Benchmark of the test suite: where its time goes on the two xdist workers.

Runs the README's test command (``python -m pytest``, every core, ``--dist loadfile``) once with
a small plugin (this file, loaded with ``-p suite``) that records every test's set-up, call and
tear-down time and the worker that ran it, then prints

* the wall time of the whole command and the item counts pytest reports,
* each worker's busy time (the sum of its tests' phases) and when it finished: a worker that
  finishes long before the other is time the suite could save by starting a long file earlier,
* per-file totals (with the worker each file ran on), longest first,
* the slowest single phases (a session fixture's set-up shows in its first test's set-up).

The README says "about five and a half minutes on two cores"; this script is how to check that claim
(issue 28). Timings on a shared machine are noisy: quote the wall time with the load it ran under
(printed: the load average before and after).

Usage::

    python benchmarks/suite.py [--keep FILE.json] [-- PYTEST ARGS...]

Extra pytest arguments (after ``--``) narrow the run, e.g. ``-- -m "not browser"``.
Prints figures; asserts nothing (timings do not belong in tests).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RECORD_ENV = "LECTUREKIT_SUITE_TIMINGS"

# -- the plugin (runs inside pytest's controller process) -------------------------------------


_RECORD: str | None = None


def pytest_configure(config):
    """Record in the controller only (xdist's workers load this plugin too, and their reports
    reach the controller, which knows which worker sent each)."""
    global _RECORD
    if not hasattr(config, "workerinput"):
        _RECORD = os.environ.get(RECORD_ENV)


def pytest_runtest_logreport(report):
    """One JSON line per phase of every test: worker, node id, phase, seconds, outcome."""
    path = _RECORD
    if not path:
        return
    node = getattr(report, "node", None)  # xdist: the WorkerController that sent the report
    worker = node.gateway.id if node is not None else "main"
    row = {
        "worker": worker,
        "nodeid": report.nodeid,
        "when": report.when,
        "seconds": report.duration,
        "outcome": report.outcome,
        "stop": report.stop,
    }
    with open(path, "a", encoding="utf-8") as out:
        out.write(json.dumps(row) + "\n")


# -- the report -------------------------------------------------------------------------------


def file_of(nodeid: str) -> str:
    return nodeid.split("::")[0]


def summarize(rows: list[dict], wall: float, top: int) -> str:
    lines = []
    start = min(r["stop"] - r["seconds"] for r in rows)
    busy = collections.Counter()
    finished: dict[str, float] = {}
    per_file: dict[str, float] = collections.Counter()
    worker_of: dict[str, set] = collections.defaultdict(set)
    for r in rows:
        busy[r["worker"]] += r["seconds"]
        finished[r["worker"]] = max(finished.get(r["worker"], 0.0), r["stop"] - start)
        per_file[file_of(r["nodeid"])] += r["seconds"]
        worker_of[file_of(r["nodeid"])].add(r["worker"])
    lines.append(f"wall time of the command: {wall:.0f} s ({wall / 60:.1f} min)")
    for w in sorted(busy):
        lines.append(
            f"  {w}: busy {busy[w]:.0f} s, its last test ended {finished[w]:.0f} s after the first "
            "began"
        )
    lines.append(f"\nper file (total of its tests' phases; {len(per_file)} files), longest first:")
    for name, seconds in sorted(per_file.items(), key=lambda kv: -kv[1])[:top]:
        lines.append(f"  {seconds:7.1f} s  {','.join(sorted(worker_of[name])):8} {name}")
    rest = sorted(per_file.values(), reverse=True)[top:]
    if rest:
        lines.append(f"  {sum(rest):7.1f} s  in the other {len(rest)} files")
    lines.append(
        f"\nslowest phases (a session fixture shows in its first user's setup), top {top}:"
    )
    for r in sorted(rows, key=lambda r: -r["seconds"])[:top]:
        lines.append(f"  {r['seconds']:7.1f} s  {r['worker']:4} {r['when']:8} {r['nodeid']}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", type=Path, help="keep the raw timings (JSON lines) here")
    parser.add_argument("--top", type=int, default=25, help="files and phases listed")
    parser.add_argument("pytest_args", nargs="*", help="after --: arguments for pytest")
    args = parser.parse_args()
    record = args.keep or Path(tempfile.mkstemp(prefix="lk-suite-", suffix=".jsonl")[1])
    record.write_text("", encoding="utf-8")
    env = dict(os.environ, **{RECORD_ENV: str(record)})
    env["PYTHONPATH"] = os.pathsep.join(
        [str(Path(__file__).parent)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])
    )
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    t0 = time.perf_counter()
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "suite", "-q", *args.pytest_args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - t0
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    tail = [ln for ln in run.stdout.splitlines() if ln.strip()][-3:]
    print("pytest:", *tail, sep="\n  ")
    rows = [json.loads(ln) for ln in record.read_text(encoding="utf-8").splitlines() if ln]
    if not rows:
        print(run.stdout[-3000:], run.stderr[-3000:], sep="\n")
        return 1
    print(summarize(rows, wall, args.top))
    if not args.keep:
        record.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
