"""Benchmark: dependence analysis and simulation of long blocks (issue 16, Build item 5).

Target: near-linear in block length, 5,000 instructions in <= 2 s, 50,000 in <= 20 s, memory
<= 1 GB. For random blocks (``lecturekit.asm.random_blocks.random_block``: six registers, loads and
stores through two base registers, so many accesses alias) of each size it prints the median
seconds over several runs of

* ``parse``: text to instructions,
* ``deps``: :func:`lecturekit.target.deps.analyze` (edges, latencies, the core's graph),
* ``listing``: the complete list of dependences (``DependenceGraph.edges``: also the memory
  pairs the graph orders through a store between, built when first read),
* ``simulate``: :func:`lecturekit.target.pipeline.simulate` in program order, cycle by cycle,
* ``critical``: the critical path of the dependence graph,
* ``list`` (with ``--list``): list scheduling by height,

and the peak Python memory of one more run under ``tracemalloc`` (its overhead is left out of
the times), plus the process's peak resident size. Prints figures; asserts nothing.

Usage::

    python benchmarks/large_blocks.py [--sizes 5000 50000] [--repeat 3] [--machine lecture] [--list]

The machine is shared: quote medians, and compare runs made at the same time.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time
import tracemalloc

from lecturekit.asm import parse
from lecturekit.asm.random_blocks import random_block
from lecturekit.target.deps import analyze
from lecturekit.target.pipeline import simulate


def stages(text: str, machine: str, with_list: bool) -> dict[str, float]:
    times = {}
    t = time.perf_counter()
    program = parse(text)
    times["parse"] = time.perf_counter() - t
    t = time.perf_counter()
    dg = analyze(program, machine)
    times["deps"] = time.perf_counter() - t
    t = time.perf_counter()
    listed = len(dg.edges)
    times["listing"] = time.perf_counter() - t
    t = time.perf_counter()
    sim = simulate(program, machine)
    times["simulate"] = time.perf_counter() - t
    t = time.perf_counter()
    dg.critical_path()
    times["critical"] = time.perf_counter() - t
    if with_list:
        from lecturekit.core.list_sched import list_schedule

        t = time.perf_counter()
        list_schedule(dg.graph, "height")
        times["list"] = time.perf_counter() - t
    times["_edges"] = listed
    times["_cycles"] = sim.cycles
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[5000, 50000])
    ap.add_argument("--repeat", type=int, default=3, help="timed runs per size (default 3)")
    ap.add_argument("--machine", default="lecture", help="machine preset (default lecture)")
    ap.add_argument("--list", action="store_true", help="also time list scheduling")
    args = ap.parse_args()
    print(f"machine {args.machine}; median of {args.repeat} run(s); seconds")
    names = ["parse", "deps", "listing", "simulate", "critical"] + (["list"] if args.list else [])
    print(
        f"{'size':>7} {'edges':>8} "
        + " ".join(f"{n:>9}" for n in names)
        + f" {'deps+list+sim':>13} {'peak MiB':>9}"
    )
    for size in args.sizes:
        text = "\n".join(ins.text for ins in random_block(size, size=size))
        runs = [stages(text, args.machine, args.list) for _ in range(args.repeat)]
        med = {n: statistics.median(r[n] for r in runs) for n in names}
        tracemalloc.start()
        stages(text, args.machine, False)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(
            f"{size:>7} {runs[0]['_edges']:>8} "
            + " ".join(f"{med[n]:>9.2f}" for n in names)
            + f" {med['deps'] + med['listing'] + med['simulate']:>13.2f} {peak / 2**20:>9.0f}"
        )
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"process peak resident size: {rss:.0f} MiB")


if __name__ == "__main__":
    main()
