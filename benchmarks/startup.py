"""Benchmark of start-up: how long a cold ``lecturekit`` command takes, and what it imports.

Runs each command as a fresh process several times (after one warm-up) and prints the median and
the fastest wall time, then, for ``lecturekit simulate``, whether networkx, matplotlib or another
subcommand's module was imported (``python -X importtime``) and the slowest imports. Issue 17's
target: a cold ``lecturekit simulate`` in at most 0.1 s (a machine-dependent figure: compare
with ``python -c pass`` on the same machine, printed first).

Usage::

    python benchmarks/startup.py [--runs 7]

Prints figures; asserts nothing (timings do not belong in tests).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BLOCK = "lw $t0, 0($s0)\nadd $t1, $t0, $t2\nmul $t3, $t1, $t1\nsw $t3, 4($s0)\n"


def wall(cmd: list[str], runs: int) -> tuple[float, float]:
    subprocess.run(cmd, capture_output=True, check=False)  # warm-up (disk cache)
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, capture_output=True, check=False)
        times.append(time.perf_counter() - t0)
    return statistics.median(times), min(times)


def imports(cmd: list[str]) -> list[tuple[int, str]]:
    """(cumulative microseconds, module) for every module the command imports."""
    out = subprocess.run(cmd, capture_output=True, text=True, check=False).stderr
    rows = []
    for line in out.splitlines():
        if line.startswith("import time:") and "|" in line:
            _self, cumulative, name = line[len("import time:") :].split("|")
            if cumulative.strip().isdigit():
                rows.append((int(cumulative), name.rstrip()))
    return rows


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs per command")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        block = Path(tmp) / "block.s"
        block.write_text(BLOCK)
        py = sys.executable
        commands = {
            "python -c pass": [py, "-c", "pass"],
            "import lecturekit": [py, "-c", "import lecturekit"],
            "lecturekit simulate": [py, "-m", "lecturekit", "simulate", str(block)],
            "lecturekit schedule": [py, "-m", "lecturekit", "schedule", str(block)],
            "lecturekit --help": [py, "-m", "lecturekit", "--help"],
        }
        print(f"cold start, {args.runs} runs after a warm-up (wall seconds)")
        print(f"{'command':<22} {'median':>8} {'fastest':>8}")
        for name, cmd in commands.items():
            med, low = wall(cmd, args.runs)
            print(f"{name:<22} {med:>8.3f} {low:>8.3f}")
        rows = imports([py, "-X", "importtime", "-m", "lecturekit", "simulate", str(block)])
    names = {name.strip() for _, name in rows}
    print()
    print("lecturekit simulate imports:")
    for what in ("networkx", "matplotlib", "ipywidgets", "lecturekit.real", "lecturekit.llm"):
        hit = any(n == what or n.startswith(what + ".") for n in names)
        print(f"  {what:<18} {'imported' if hit else 'not imported'}")
    others = sorted(
        n
        for n in names
        if n.startswith("lecturekit.cli.")
        and n not in ("lecturekit.cli.common", "lecturekit.cli.simulate")
    )
    print(f"  other subcommand modules imported: {', '.join(others) or 'none'}")
    print("  slowest top-level imports (cumulative ms):")
    top = [(us, n) for us, n in rows if len(n) - len(n.lstrip()) == 1]
    for us, n in sorted(top, reverse=True)[:6]:
        print(f"    {us / 1000:>7.1f}  {n.strip()}")


if __name__ == "__main__":
    main()
