"""Benchmark of pipeline-parallel schedules on the scheduling core.

For every schedule ``lecturekit parallel pipeline --schedule`` offers, with the durations the
command line gives it by default (one time unit a pass; ``v`` for a schedule with ``v`` chunks
per device), and a range of sizes (p devices, m micro-batches), it prints the number of passes,
the seconds to build the graph and evaluate + verify the order ("run"), the seconds to compute
every figure ("figures": the summary with the in-flight and held peaks, the lower bounds, the
zero-bubble peak memory with M_W < M_B, the whole ``--json`` contract with every pass of every
device, and for PipeDream its weight versions), their sum, the CPU seconds of that sum, and the
makespan and bubble. Each time is the median of ``--repeat`` runs.

Issue 17's target: p = 32, m = 256 with all figures in at most 2 s per schedule; the last
column says whether the median total meets it (wall time: on a shared, loaded machine compare
the CPU column, which counts only the time this process ran).

Usage::

    python benchmarks/pipeline_parallel.py [--repeat 3] [--only 32x256] [--schedule zb-v ...]

Prints figures; asserts nothing (timings do not belong in tests).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from lecturekit.cli.parallel import _default_durations
from lecturekit.llm.pipeline_parallel import ALL_SCHEDULES, pipeline_schedule, weight_versions

SIZES = ((4, 8), (8, 32), (8, 64), (16, 64), (32, 256))
TARGET = (32, 256, 2.0)  # issue 17: p, m, seconds per schedule with all its figures


def durations(name: str) -> tuple[int, int, int]:
    """T_F, T_B, T_W as ``lecturekit parallel pipeline --schedule NAME`` sets them by default."""
    args = argparse.Namespace(compare=False, schedule=name, v=None, tf=None, tb=None, tw=None)
    _default_durations(args)
    return args.tf, args.tb, args.tw


def figures(run) -> None:
    """Everything the command line and the notebooks compute from a run (and PipeDream's
    weight versions, which its note points to)."""
    run.summary()
    run.lower_bounds  # noqa: B018 - computing it is the point
    run.peak_memory(3, 1)
    run.to_dict()
    if run.name == "pipedream":
        weight_versions(run)


def measure(name: str, p: int, m: int, repeat: int) -> tuple[float, float, float, float, object]:
    """Median seconds: run, figures, their sum (wall), their sum (CPU); and the last run."""
    tf, tb, tw = durations(name)
    runs, figs, totals, cpus = [], [], [], []
    run = None
    for _ in range(repeat):
        c0, t0 = time.process_time(), time.perf_counter()
        run = pipeline_schedule(name, p, m, None, tf, tb, tw)
        t1 = time.perf_counter()
        figures(run)
        t2, c2 = time.perf_counter(), time.process_time()
        runs.append(t1 - t0)
        figs.append(t2 - t1)
        totals.append(t2 - t0)
        cpus.append(c2 - c0)
    med = statistics.median
    return med(runs), med(figs), med(totals), med(cpus), run


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per row (median)")
    parser.add_argument(
        "--only", metavar="PxM", help="one size, e.g. 32x256 (default: a range up to 32x256)"
    )
    parser.add_argument("--schedule", nargs="+", metavar="NAME", help="default: every schedule")
    args = parser.parse_args(argv)
    sizes = SIZES
    if args.only:
        p, m = (int(x) for x in args.only.lower().split("x"))
        sizes = ((p, m),)
    names = args.schedule or list(ALL_SCHEDULES)
    print(f"median of {args.repeat} run(s); load average now {os.getloadavg()[0]:.1f}")
    print(
        f"{'schedule':<12}{'p':>4}{'m':>5}{'passes':>8}{'run s':>8}{'figures s':>10}"
        f"{'total s':>9}{'cpu s':>8}{'makespan':>10}{'bubble':>8}  target"
    )
    verdicts = []
    for name in names:
        for p, m in sizes:
            try:
                run_s, fig_s, total, cpu, run = measure(name, p, m, args.repeat)
            except Exception as exc:  # noqa: BLE001 - a benchmark reports and goes on
                print(f"{name:<12}{p:>4}{m:>5}  {exc}")
                continue
            mark = ""
            if (p, m) == TARGET[:2]:
                ok = total <= TARGET[2]
                verdicts.append((name, total, cpu, ok))
                mark = f"{'meets' if ok else 'MISSES'} {TARGET[2]:g} s"
            print(
                f"{name:<12}{p:>4}{m:>5}{len(run.ops):>8}{run_s:>8.3f}{fig_s:>10.3f}"
                f"{total:>9.3f}{cpu:>8.3f}{run.makespan:>10}{run.bubble_fraction:>8.1%}  {mark}"
            )
    if verdicts:
        met = sum(ok for *_, ok in verdicts)
        worst = max(verdicts, key=lambda v: v[1])
        print(
            f"\np = {TARGET[0]}, m = {TARGET[1]}: {met} of {len(verdicts)} schedules within "
            f"{TARGET[2]:g} s (median wall); slowest {worst[0]} at {worst[1]:.3f} s "
            f"({worst[2]:.3f} s CPU)"
        )


if __name__ == "__main__":
    main()
