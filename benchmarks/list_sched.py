"""Benchmark of the list-scheduling heuristics against the proven optimum on random blocks.

For random blocks of 6 to 40 instructions on the ``lecture`` and ``dual`` machines (seeded, so
every run measures the same blocks) it prints, per machine and size, for the classic height
priority, the new priorities, the lookahead scheduler and the improved heuristic
(:func:`lecturekit.core.list_sched.improved_schedule`): the share of blocks scheduled optimally
and the mean and worst excess over the optimum. The optimum comes from the branch and bound
(:func:`lecturekit.core.optimal.optimal_schedule`); blocks it does not prove within the time
limit are left out (and counted). A final line per machine gives the totals over all sizes, the
figures issue 17's target is about (best polynomial heuristic optimal on >= 95% of the blocks,
mean excess <= 0.3%).

Usage::

    python benchmarks/list_sched.py [--blocks 25] [--sizes 6 10 15 20 30 40] [--registers 8]

Prints figures; asserts nothing (timings and targets do not belong in tests).
"""

from __future__ import annotations

import argparse
import statistics
import time

from lecturekit.asm.random_blocks import random_block
from lecturekit.core.list_sched import improved_schedule, list_schedule
from lecturekit.core.optimal import optimal_schedule
from lecturekit.target.deps import analyze

SIZES = (6, 10, 15, 20, 30, 40)
MACHINES = ("lecture", "dual")
METHODS = {
    "height": lambda g: list_schedule(g, "height"),
    "height_desc": lambda g: list_schedule(g, "height_descendants"),
    "bottleneck": lambda g: list_schedule(g, "bottleneck"),
    "height+la2": lambda g: list_schedule(g, "height", lookahead=2),
    "improved": improved_schedule,
}


def measure(machine: str, size: int, blocks: int, regs: int, time_limit: float):
    excess = {m: [] for m in METHODS}
    seconds = {m: 0.0 for m in METHODS}
    unproven = 0
    for seed in range(blocks):
        g = analyze(random_block(7000 * size + seed, size=size, registers=regs), machine).graph
        best = optimal_schedule(g, time_limit=time_limit)
        if not best.info["proven_optimal"]:
            unproven += 1
            continue
        for name, run in METHODS.items():
            t0 = time.perf_counter()
            s = run(g)
            seconds[name] += time.perf_counter() - t0
            if s.length < best.length:  # pragma: no cover - would be a bug in either
                raise SystemExit(f"{name} beat the proven optimum on seed {seed}")
            excess[name].append((s.length - best.length) / best.length)
    return excess, seconds, unproven


def row(label: str, excess: dict, seconds: dict | None = None) -> str:
    cells = []
    for name in METHODS:
        xs = excess[name]
        if not xs:
            cells.append(f"{'-':>22}")
            continue
        opt = sum(x == 0 for x in xs) / len(xs)
        cells.append(f"{opt:>6.0%} {statistics.fmean(xs):>7.2%} {max(xs):>6.1%}")
    return f"{label:<14}" + " | ".join(cells)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--blocks", type=int, default=25, help="random blocks per size")
    parser.add_argument("--sizes", type=int, nargs="*", default=list(SIZES))
    parser.add_argument("--registers", type=int, default=8, help="registers the blocks use")
    parser.add_argument("--time-limit", type=float, default=10.0, help="seconds per optimum")
    parser.add_argument("--machines", nargs="*", default=list(MACHINES))
    args = parser.parse_args(argv)
    print(
        f"list scheduling vs the proven optimum: {args.blocks} random blocks per size, "
        f"{args.registers} registers; per method: share optimal, mean excess, worst excess"
    )
    print(f"{'':<14}" + " | ".join(f"{m:^22}" for m in METHODS))
    for machine in args.machines:
        total = {m: [] for m in METHODS}
        secs = {m: 0.0 for m in METHODS}
        left_out = 0
        for size in args.sizes:
            excess, seconds, unproven = measure(
                machine, size, args.blocks, args.registers, args.time_limit
            )
            left_out += unproven
            for m in METHODS:
                total[m] += excess[m]
                secs[m] += seconds[m]
            print(row(f"{machine} n={size}", excess))
        print(row(f"{machine} ALL", total))
        count = len(total["height"])
        print(
            f"  {machine}: {count} blocks compared, {left_out} left out (optimum not proven); "
            "mean ms per block: "
            + ", ".join(f"{m} {1000 * secs[m] / max(count, 1):.1f}" for m in METHODS)
        )


if __name__ == "__main__":
    main()
