"""Benchmark of software pipelining (iterative modulo scheduling) on random loops.

For loop bodies of 5 to 30 operations (seeded random loops from
:func:`lecturekit.loops.randloop.random_loop`, half of them with a recurrence: a running sum and a
value stored and loaded back one iteration later) on the ``lecture`` and ``dual`` machines it
prints, per size and machine: the share of loops scheduled at II = MII, the mean II / MII, how
often RecMII (rather than ResMII) binds, the mean stage count and kernel unroll factor (modulo
variable expansion), the median and worst seconds per loop (each loop's time is the median of
several runs of the whole pipeline: analysis, both scheduling variants, code generation), and
the mean cycles per iteration of the software-pipelined loop against the list-scheduled loop.

Usage::

    python benchmarks/modulo.py [--loops 20] [--repeat 3]

Prints figures; asserts nothing (timings do not belong in tests).
"""

from __future__ import annotations

import argparse
import statistics
import time

from lecturekit.loops.modulo import modulo_schedule
from lecturekit.loops.randloop import random_loop
from lecturekit.loops.unroll import unroll

SIZES = (5, 10, 15, 20, 25, 30)
MACHINES = ("lecture", "dual")


def measure(size: int, machine: str, loops: int, repeat: int) -> dict:
    at_mii = rec_binds = 0
    ratios, stages, unrolls, seconds, speedups = [], [], [], [], []
    for seed in range(loops):
        rl = random_loop(10_000 * size + seed, size=size, recurrence=seed % 2 == 0)
        runs = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            r = modulo_schedule(rl.source, machine)
            runs.append(time.perf_counter() - t0)
        seconds.append(statistics.median(runs))
        at_mii += r.ii == r.mii
        rec_binds += r.rec_mii > r.res_mii
        ratios.append(r.ii / r.mii)
        stages.append(r.stage_count)
        unrolls.append(r.unroll)
        plain = unroll(rl.source, 1, machine, scheduler="list").cycles_per_iteration
        speedups.append(plain / r.ii)
    return {
        "at_mii": at_mii / loops,
        "ratio": statistics.mean(ratios),
        "worst_ratio": max(ratios),
        "rec_binds": rec_binds / loops,
        "stages": statistics.mean(stages),
        "unroll": statistics.mean(unrolls),
        "median_s": statistics.median(seconds),
        "worst_s": max(seconds),
        "speedup": statistics.mean(speedups),
    }


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loops", type=int, default=20, help="random loops per size (20)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per loop (median)")
    args = parser.parse_args(argv)
    head = (
        f"{'ops':>4} {'machine':<8} {'II=MII':>7} {'II/MII':>7} {'worst':>6} {'RecMII':>7} "
        f"{'stages':>7} {'unroll':>7} {'median s':>9} {'worst s':>8} {'speedup':>8}"
    )
    print(f"iterative modulo scheduling, {args.loops} random loops per row")
    print("(RecMII: share of loops where RecMII > ResMII; speedup: list-scheduled cycles per")
    print(" iteration / II)")
    print(head)
    print("-" * len(head))
    for size in SIZES:
        for machine in MACHINES:
            m = measure(size, machine, args.loops, args.repeat)
            print(
                f"{size:>4} {machine:<8} {m['at_mii']:>7.0%} {m['ratio']:>7.3f} "
                f"{m['worst_ratio']:>6.2f} {m['rec_binds']:>7.0%} {m['stages']:>7.2f} "
                f"{m['unroll']:>7.2f} {m['median_s']:>9.4f} {m['worst_s']:>8.4f} "
                f"{m['speedup']:>7.2f}x"
            )


if __name__ == "__main__":
    main()
