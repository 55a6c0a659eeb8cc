"""Benchmark of pipeline-parallel schedules on the scheduling core.

For each schedule and a range of sizes (p devices, m micro-batches) it prints the number of passes,
the seconds to build the graph and evaluate + verify the order (median of several runs), the
seconds to compute the figures (in-flight curves, lower bounds), and the makespan and bubble, so
that the widget's and the notebooks' ranges can be checked to stay interactive.

Usage::

    python benchmarks/pipeline_parallel.py [--repeat 3]

Prints figures; asserts nothing (timings do not belong in tests).
"""

from __future__ import annotations

import argparse
import statistics
import time

from lecturekit.llm.pipeline_parallel import SCHEDULES, pipeline_schedule

SIZES = ((4, 8), (8, 32), (8, 64), (16, 64))


def measure(name: str, p: int, m: int, repeat: int) -> tuple[float, float, object]:
    v, t = (2, 2) if name == "interleaved" else (None, 1)
    build, figures = [], []
    run = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        run = pipeline_schedule(name, p, m, v, t, t, t)
        t1 = time.perf_counter()
        run.summary()
        run.lower_bounds  # noqa: B018 - computing it is the point
        figures.append(time.perf_counter() - t1)
        build.append(t1 - t0)
    return statistics.median(build), statistics.median(figures), run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(
        f"{'schedule':<12}{'p':>4}{'m':>5}{'passes':>8}{'run s':>9}{'figures s':>11}"
        f"{'makespan':>10}{'bubble':>8}"
    )
    for name in SCHEDULES:
        for p, m in SIZES:
            if name == "interleaved" and m % p:
                continue
            try:
                build, figures, run = measure(name, p, m, args.repeat)
            except Exception as exc:  # noqa: BLE001 - a benchmark reports and goes on
                print(f"{name:<12}{p:>4}{m:>5}  {exc}")
                continue
            print(
                f"{name:<12}{p:>4}{m:>5}{len(run.ops):>8}{build:>9.3f}{figures:>11.3f}"
                f"{run.makespan:>10}{run.bubble_fraction:>8.1%}"
            )


if __name__ == "__main__":
    main()
