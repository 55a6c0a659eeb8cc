"""Benchmark: chapter 14's loop-nest machinery (lecturekit.tensor).

Targets: costing one schedule with the cache model in about a millisecond (a search of a few
thousand schedules in seconds); the interpreter runs a 128³ matmul's nest in well under a
second; the LRU cache simulation, one Python step per access, is for nests of up to a few
million accesses. For the chapter's 128³ matmul it prints the median seconds over several runs of

* ``cost``: :func:`lecturekit.tensor.cost.cost` of each of the chapter's schedules (fresh
  footprint memo each time, as the explorer does),
* ``run``: :meth:`~lecturekit.tensor.loopnest.LoopNest.run` (2,097,152 iteration points),
* ``simulate``: :func:`lecturekit.tensor.cost.simulate_cache` of 64³ on 8 KiB (786,432
  accesses), also per access,
* ``exhaustive``: the chapter's exhaustive search (5,280 schedules), per schedule,

Prints figures; asserts nothing. Usage::

    python benchmarks/tensor_schedules.py [--repeat 3]

The machine is shared: quote medians, and compare runs made at the same time.
"""

from __future__ import annotations

import argparse
import statistics
import time

from lecturekit.tensor.cost import cost, simulate_cache
from lecturekit.tensor.loopnest import apply, matmul
from lecturekit.tensor.search import exhaustive, space

SCHEDULES = {
    "as written": "",
    "reorder i k j": "reorder i k j",
    "tile 32x32, vectorize, parallel": "split i 32\nsplit j 32\nsplit k 4\n"
    "reorder i_o j_o k_o k_i i_i j_i\nsplit j_i 8\nvectorize j_i_i\nparallel i_o",
}


def median(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    mm = matmul(128, 128, 128)
    inputs = mm.random_inputs(0)
    for name, sched in SCHEDULES.items():
        nest = apply(mm, sched)
        c = median(lambda nest=nest: cost(nest), args.repeat)
        r = median(lambda nest=nest: nest.run(inputs), args.repeat)
        print(f"{name:34} cost {c * 1e3:7.2f} ms   run {r:6.3f} s")
    small = apply(matmul(64, 64, 64), "tile i j 16 16\nsplit k 16\nreorder i_o j_o k_o i_i k_i j_i")
    s = median(lambda: simulate_cache(small, 8192), args.repeat)
    accesses = 64**3 * 3
    print(f"simulate 64^3 on 8 KiB: {s:.2f} s, {s / accesses * 1e9:.0f} ns per access")
    sp = space(mm, [2, 8, 32, 128])
    e = median(lambda: exhaustive(sp, time_limit=None), 1)
    print(f"exhaustive search, {sp.size:,} schedules: {e:.1f} s, {e / sp.size * 1e3:.2f} ms each")


if __name__ == "__main__":
    main()
