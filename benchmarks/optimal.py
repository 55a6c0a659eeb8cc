"""Benchmark of the exhaustive optimal search (branch and bound): issue 17's targets and issue
30's comparison with CP-SAT.

Issue 17's targets: proven optimal on 100% of random blocks of up to 100 instructions within
1 s, and on >= 95% of high-ILP blocks (32 registers) of up to 100 instructions within 10 s, on
the ``lecture`` and ``dual`` machines. The default run prints exactly those figures:

1. blocks over 8 registers (many dependences), 20, 50 and 100 instructions, time limit 1 s;
2. blocks over 32 registers (high ILP), 50 and 100 instructions, time limit 10 s;

per machine, engine and size: the share proven optimal within the limit, the median and worst
seconds (the whole call: bounds, first incumbent and search), the median and worst number of
search nodes, and how often the root lower bound already equals the optimum found (then the
proof costs no search at all). The blocks are seeded, so every run measures the same ones.

``--versus-cpsat`` (issue 30) times the search (the default engine) and OR-Tools' CP-SAT side by
side on the same high-ILP blocks: ``--per-size`` blocks (default 3) of each of 60, 90, 120 and
150 instructions over 32 registers, on ``lecture`` and on ``dual``. Each block is made by
:func:`lecturekit.asm.random_blocks.random_block` with seed ``1000 * size + k`` (``add``,
``sub``, ``mul``, ``addi``, ``lw``, ``sw`` drawn uniformly; operands from 32 registers, so few
dependences: much instruction-level parallelism; memory through ``$s0``/``$s1`` at offsets 0, 4,
8). Time to proof is the wall time until the optimum is proven: the whole
:func:`~lecturekit.core.optimal.optimal_schedule` call (time limit ``--limit``, default 10 s),
and CP-SAT's model building plus solving until it reports OPTIMAL (``WORKERS`` = 2 workers,
the same limit). A block not proven within the limit counts as the limit (for CP-SAT that
flatters it, so the printed ratio is if anything too high). Per machine it prints both
medians, the worst times, how many blocks each proved, and the ratio of the medians (search /
CP-SAT; the target is at most 1.0), and it checks the answers against each other: a proven
optimum that CP-SAT beats, or a length below CP-SAT's proven optimum, is reported as a
DISAGREEMENT (a bug). The CP-SAT model: a start variable per operation, every latency a
difference constraint, ``no_overlap`` on a unit of capacity 1 and ``cumulative`` on the issue
slots and larger units, the makespan minimised, a list schedule as a hint (the search starts
from list schedules too) and a loose horizon (the sum of every duration and latency: a tight
one, the list schedule's length, made CP-SAT much slower).

What decides the ``dual`` blocks (issue 30, measured with this table): their ALU and issue
slots are both full nearly every cycle, so a first schedule that lets the ALU idle once is a
cycle too long, and every one-resource bound, and even the flow relaxation of all resources at
once, stops a cycle short of the optimum. The engine's forward-backward descents with the ALU's
operations first find the optimal schedules (66 and 80 cycles on blocks 120002 and 150000,
where plain descents give 69 and 83), and destructive lower bounding
(:func:`lecturekit.core.bounds.shave_windows`) proves that no schedule one cycle shorter exists,
which CP-SAT's own bounds (63 and 66 after 150 s) do not reach.

``--cross-check S`` also solves every block of the default tables with CP-SAT (S seconds per
block) and reports any disagreement the same way. The model is a reference only; the engine
stays the hand-written search.

OR-Tools is an optional benchmark dependency: ``pip install 'lecturekit[bench]'`` (or ``pip
install ortools``); without it the comparison says so and the rest still runs.

Usage::

    python benchmarks/optimal.py [--blocks 20] [--engine optsched|classic|both]
                                 [--machines lecture dual] [--cross-check 20]
    python benchmarks/optimal.py --sizes 20 30 --registers 16 --time-limit 5   # one custom table
    python benchmarks/optimal.py --versus-cpsat [--per-size 3] [--limit 10]

Prints figures; asserts nothing (timings do not belong in tests).
"""

from __future__ import annotations

import argparse
import statistics
import time

from lecturekit.asm.random_blocks import random_block
from lecturekit.core import verify
from lecturekit.core.optimal import DEFAULT_ENGINE, optimal_schedule
from lecturekit.target.deps import analyze

MACHINES = ("lecture", "dual")
#: CP-SAT's parallel workers (the issue measured 2, this machine's cores)
WORKERS = 2
#: (registers, sizes, time limit in seconds): the issue's two targets
TARGETS = ((8, (20, 50, 100), 1.0), (32, (50, 100), 10.0))


INSTALL = "pip install 'lecturekit[bench]'  (or: pip install ortools)"
#: issue 30's comparison: sizes of the high-ILP blocks (32 registers)
VERSUS_SIZES = (60, 90, 120, 150)


def cpsat_model(g):
    """The CP-SAT model of the block (see the module docstring): (model, start variables,
    makespan variable); None when OR-Tools is missing."""
    try:
        from ortools.sat.python import cp_model
    except ImportError:
        return None
    from lecturekit.core.list_sched import list_schedule

    n = len(g.ops)
    delays = g.delays()
    first = list_schedule(g, "height")  # a hint: the search starts from list schedules too
    # a loose horizon: with the list schedule's length as the horizon CP-SAT is much slower
    # (measured: a 60-instruction lecture block proven in 0.07 s, not found in 10 s)
    horizon = (
        g.earliest
        + sum(op.tail + sum(r.offset + r.cycles for r in op.reservations) + 1 for op in g.ops)
        + sum(max(0, lat) for lat in delays.values())
    )
    m = cp_model.CpModel()
    start = [m.new_int_var(g.earliest, horizon - g.ops[j].tail, f"s{j}") for j in range(n)]
    for (a, b), lat in delays.items():
        m.add(start[b] >= start[a] + lat)
    if g.issue_width is not None and g.issue_width < n:
        slots = [m.new_fixed_size_interval_var(start[j], 1, f"i{j}") for j in range(n)]
        if g.issue_width == 1:
            m.add_no_overlap(slots)
        else:
            m.add_cumulative(slots, [1] * n, g.issue_width)
    for unit, cap in g.units.items():
        uses = [
            m.new_fixed_size_interval_var(start[j] + r.offset, r.cycles, f"{unit}{j}")
            for j, op in enumerate(g.ops)
            for r in op.reservations
            if r.unit == unit
        ]
        if len(uses) > cap:
            if cap == 1:
                m.add_no_overlap(uses)
            else:
                m.add_cumulative(uses, [1] * len(uses), cap)
    end = m.new_int_var(0, horizon, "end")
    for j, op in enumerate(g.ops):
        m.add(end >= start[j] + op.tail)
    m.minimize(end)
    for j in range(n):
        m.add_hint(start[j], first.start[j])
    return m, start, end


def cpsat_optimum(g, seconds: float):
    """(length, proven, seconds) of the block by CP-SAT, its schedule verified; None when
    OR-Tools is missing."""
    t0 = time.perf_counter()
    built = cpsat_model(g)
    if built is None:
        return None
    from ortools.sat.python import cp_model

    model, start, _end = built
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = max(0.01, seconds - (time.perf_counter() - t0))
    solver.parameters.num_workers = WORKERS
    status = solver.solve(model)
    took = time.perf_counter() - t0
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None
    verify(g, [solver.value(x) for x in start])  # the model's own answer is checked too
    return int(solver.objective_value), status == cp_model.OPTIMAL, took


def measure(size, machine, blocks, time_limit, regs, engine, cross_check=None):
    seconds, nodes, proven, root_tight, problems = [], [], 0, 0, []
    for seed in range(blocks):
        g = analyze(random_block(1000 * size + seed, size=size, registers=regs), machine).graph
        t0 = time.perf_counter()
        best = optimal_schedule(g, time_limit=time_limit, engine=engine)
        seconds.append(time.perf_counter() - t0)
        nodes.append(best.info["nodes"])
        ok = bool(best.info["proven_optimal"])
        proven += ok
        root_tight += best.info["lower_bound"] == best.length
        if cross_check:
            other = cpsat_optimum(g, cross_check)
            if other is not None:
                length, exact, _ = other
                if length < best.length and ok or exact and length > best.length:
                    problems.append((seed, best.length, ok, length, exact))
    return {
        "proven": proven / blocks,
        "s_med": statistics.median(seconds),
        "s_max": max(seconds),
        "nodes_med": statistics.median(nodes),
        "nodes_max": max(nodes),
        "root": root_tight / blocks,
        "problems": problems,
    }


def table(regs, sizes, time_limit, args, engines) -> None:
    print(f"\n{regs} registers, time limit {time_limit:g} s, {args.blocks} random blocks per row")
    head = (
        f"{'engine':<8} {'machine':<8} {'n':>4} {'proven':>7} {'s med':>7} {'s max':>7} "
        f"{'nodes med':>9} {'nodes max':>9} {'root=opt':>8}"
    )
    print(head)
    print("-" * len(head))
    for machine in args.machines:
        for size in sizes:
            for engine in engines:
                r = measure(size, machine, args.blocks, time_limit, regs, engine, args.cross_check)
                print(
                    f"{engine:<8} {machine:<8} {size:>4} {r['proven']:>7.0%} {r['s_med']:>7.3f} "
                    f"{r['s_max']:>7.3f} {r['nodes_med']:>9.0f} {r['nodes_max']:>9} "
                    f"{r['root']:>8.0%}",
                    flush=True,
                )
                for seed, length, ok, other, exact in r["problems"]:
                    print(
                        f"  DISAGREEMENT seed {seed}: search {length} (proven {ok}), "
                        f"CP-SAT {other} (proven {exact})"
                    )


def versus_cpsat(args) -> None:
    """Issue 30's table: time to proof of the search and of CP-SAT on the same blocks."""
    if _no_ortools():
        print(f"CP-SAT comparison skipped: OR-Tools is not installed. Install it with {INSTALL}")
        return
    print(
        f"time to proof, search ({DEFAULT_ENGINE}) vs CP-SAT ({WORKERS} workers), limit "
        f"{args.limit:g} s; high-ILP blocks (32 registers) of {', '.join(map(str, VERSUS_SIZES))} "
        f"instructions, {args.per_size} per size"
    )
    head = (
        f"{'machine':<8} {'blocks':>6} {'search proven':>13} {'CP-SAT proven':>13} "
        f"{'search med':>10} {'CP-SAT med':>10} {'search max':>10} {'CP-SAT max':>10} "
        f"{'ratio':>6}"
    )
    print(head)
    print("-" * len(head))
    for machine in args.machines:
        ours, theirs, proven, proven_cp, problems = [], [], 0, 0, []
        for size in VERSUS_SIZES:
            for k in range(args.per_size):
                seed = 1000 * size + k
                g = analyze(random_block(seed, size=size, registers=32), machine).graph
                t0 = time.perf_counter()
                best = optimal_schedule(g, time_limit=args.limit)
                took = time.perf_counter() - t0
                ok = bool(best.info["proven_optimal"])
                length, exact, took_cp = cpsat_optimum(g, args.limit) or (None, False, args.limit)
                proven += ok
                proven_cp += exact
                ours.append(took if ok else max(took, args.limit))
                theirs.append(took_cp if exact else args.limit)
                if args.verbose:
                    print(
                        f"  {machine} n={size} seed={seed}: search {best.length} "
                        f"({'proven' if ok else 'bound ' + str(best.info['lower_bound'])}) "
                        f"{took:.2f} s; CP-SAT {length} ({'proven' if exact else 'not proven'}) "
                        f"{took_cp:.2f} s",
                        flush=True,
                    )
                if length is not None and (
                    (ok and length < best.length)
                    or (exact and length > best.length)
                    or best.length < best.info["lower_bound"]
                ):
                    problems.append((size, seed, best.length, ok, length, exact))
        med, med_cp = statistics.median(ours), statistics.median(theirs)
        n = len(ours)
        print(
            f"{machine:<8} {n:>6} {f'{proven}/{n}':>13} {f'{proven_cp}/{n}':>13} {med:>10.3f} "
            f"{med_cp:>10.3f} {max(ours):>10.3f} {max(theirs):>10.3f} {med / med_cp:>6.2f}",
            flush=True,
        )
        for size, seed, length, ok, other, exact in problems:
            print(
                f"  DISAGREEMENT n={size} seed {seed}: search {length} (proven {ok}), "
                f"CP-SAT {other} (proven {exact})"
            )


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--blocks", type=int, default=20, help="random blocks per row")
    parser.add_argument(
        "--engine", choices=("classic", "optsched", "both"), default="optsched", help="engine"
    )
    parser.add_argument("--machines", nargs="*", default=list(MACHINES))
    parser.add_argument("--sizes", type=int, nargs="*", help="one custom table: these sizes")
    parser.add_argument("--registers", type=int, default=8, help="custom table: registers")
    parser.add_argument("--time-limit", type=float, default=1.0, help="custom table: seconds")
    parser.add_argument(
        "--cross-check", type=float, metavar="S", help="check against CP-SAT, S s per block"
    )
    parser.add_argument(
        "--versus-cpsat", action="store_true", help="issue 30: time to proof beside CP-SAT"
    )
    parser.add_argument("--per-size", type=int, default=3, help="--versus-cpsat: blocks per size")
    parser.add_argument("--limit", type=float, default=10.0, help="--versus-cpsat: seconds")
    parser.add_argument("--verbose", action="store_true", help="--versus-cpsat: every block")
    args = parser.parse_args(argv)
    if args.versus_cpsat:
        versus_cpsat(args)
        return
    engines = ("classic", "optsched") if args.engine == "both" else (args.engine,)
    print("optimal search: share of random blocks proven optimal within the time limit")
    if args.cross_check and _no_ortools():
        print(f"(OR-Tools is not installed: no cross-check; install it with {INSTALL})")
        args.cross_check = None
    targets = ((args.registers, args.sizes, args.time_limit),) if args.sizes else TARGETS
    for regs, sizes, time_limit in targets:
        table(regs, sizes, time_limit, args, engines)


def _no_ortools() -> bool:
    try:
        import ortools.sat.python.cp_model  # noqa: F401
    except ImportError:
        return True
    return False


if __name__ == "__main__":
    main()
