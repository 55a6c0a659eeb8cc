"""Benchmark of start-up: how long a cold ``lecturekit`` command takes, and what it imports.

Runs each command as a fresh process several times (after one warm-up) and prints the median
and the fastest wall time and the median CPU time (user + system of the child), then, for
``lecturekit simulate``, whether networkx, matplotlib, the schedulers or another subcommand's
module was imported (``python -X importtime``) and the slowest imports.

Issue 17's target: a cold ``lecturekit simulate`` in at most 0.1 s. That is a machine-dependent
figure, so the floor is printed first: ``python -c pass``, the interpreter and its ``site``
(``.pth`` files of the environment included) with nothing of lecturekit; "over the floor" is
what lecturekit itself adds. Python caches compiled modules in ``__pycache__``; an environment
with ``PYTHONDONTWRITEBYTECODE`` set compiles every module on every start, which is not how an
installed package starts, so the commands run with the cache (kept in a temporary directory,
``PYTHONPYCACHEPREFIX``) and, with ``--no-cache`` too, without it.

Usage::

    python benchmarks/startup.py [--runs 7] [--no-cache]

Prints figures; asserts nothing (timings do not belong in tests).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BLOCK = "lw $t0, 0($s0)\nadd $t1, $t0, $t2\nmul $t3, $t1, $t1\nsw $t3, 4($s0)\n"
TARGET = 0.1  # seconds, issue 17


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(cmd: list[str], runs: int, env: dict) -> tuple[float, float, float]:
    """Median wall, fastest wall and median CPU seconds of ``runs`` fresh processes."""
    subprocess.run(cmd, capture_output=True, check=False, env=env)  # warm-up (disk, bytecode)
    walls, cpus = [], []
    for _ in range(runs):
        c0, t0 = _child_cpu(), time.perf_counter()
        subprocess.run(cmd, capture_output=True, check=False, env=env)
        walls.append(time.perf_counter() - t0)
        cpus.append(_child_cpu() - c0)
    return statistics.median(walls), min(walls), statistics.median(cpus)


def imports(cmd: list[str], env: dict) -> list[tuple[int, str]]:
    """(cumulative microseconds, module) for every module the command imports."""
    out = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env).stderr
    rows = []
    for line in out.splitlines():
        if line.startswith("import time:") and "|" in line:
            _self, cumulative, name = line[len("import time:") :].split("|")
            if cumulative.strip().isdigit():
                rows.append((int(cumulative), name.rstrip()))
    return rows


def table(commands: dict[str, list[str]], runs: int, env: dict, title: str) -> None:
    print(title)
    print(f"{'command':<22} {'median':>8} {'fastest':>8} {'cpu':>8} {'over the floor':>15}")
    floor = None
    for name, cmd in commands.items():
        med, low, cpu = timed(cmd, runs, env)
        floor = med if floor is None else floor
        over = "" if name == "python -c pass" else f"{med - floor:>+15.3f}"
        print(f"{name:<22} {med:>8.3f} {low:>8.3f} {cpu:>8.3f} {over}")
        if name == "lecturekit simulate":
            verdict = "meets" if med <= TARGET else "misses"
            print(
                f"  -> {verdict} the {TARGET} s target (median wall); the floor alone is "
                f"{floor:.3f} s on this machine now"
            )
    print()


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs per command")
    parser.add_argument(
        "--no-cache", action="store_true", help="also time every command compiling its modules"
    )
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
        cached = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        cached["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        print(f"cold start, {args.runs} runs after a warm-up (seconds; cpu = user + system)")
        print(f"load average now: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
        print()
        table(commands, args.runs, cached, "with compiled modules cached (as installed)")
        if args.no_cache:
            bare = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
            table(commands, args.runs, bare, "compiling every module on every start")
        rows = imports([py, "-X", "importtime", "-m", "lecturekit", "simulate", str(block)], cached)
    names = {name.strip() for _, name in rows}
    print("lecturekit simulate imports:")
    for what in (
        "networkx",
        "matplotlib",
        "ipywidgets",
        "numpy",
        "lecturekit.target.real",
        "lecturekit.llm",
        "lecturekit.core.list_sched",
        "lecturekit.core.optimal",
    ):
        hit = any(n == what or n.startswith(what + ".") for n in names)
        print(f"  {what:<28} {'imported' if hit else 'not imported'}")
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
