"""Benchmark of software pipelining (modulo scheduling) on random loops.

The loops: :func:`lecturekit.loops.randloop.random_loop` with seed ``10_000 * size + k`` writes
a loop body of ``size`` operations from a safe set: loads and stores through one or two
induction pointers (``$s1``, ``$s2``, each into its own array), a global scalar through a
loop-invariant pointer, ALU operations (``add sub and or xor slt``) and multiplies on six
temporaries, the pointer updates at random places and an exit test (``bne``, ``blt``/``bgt`` or
a count-down ``bnez``); every other loop (``k`` even) also has a recurrence: a running sum and a
value stored and loaded back one iteration later. The loop is analysed with renamed registers
(:meth:`lecturekit.loops.model.Loop.graph`), on the ``lecture`` and ``dual`` machines.

The default run prints, per size (5 to 30 operations) and machine: the share of loops scheduled
at II = MII, the mean II / MII, how often RecMII (rather than ResMII) binds, the mean stage
count and kernel unroll factor (modulo variable expansion), the median and worst seconds per
loop (each loop's time is the median of several runs of the whole pipeline: analysis, both
scheduling variants, code generation), and the mean cycles per iteration of the
software-pipelined loop against the list-scheduled loop.

With ``--exact`` it instead checks the II against the true minimum, for
:func:`~lecturekit.loops.modulo.modulo_schedule` (what the course uses: iterative modulo
scheduling, then, above MII, lecturekit's exact search over the reservation table's rows for
every smaller II, :mod:`lecturekit.loops.exact_ii`), and for each heuristic alone:
Rau's iterative modulo scheduling (IMS) and swing modulo scheduling (SMS). An II equal to MII
is the minimum; otherwise every smaller II down to MII is decided by an independent exact model
(OR-Tools CP-SAT: one start cycle per operation, its row ``start mod II`` as one-hot booleans,
every dependence ``start[d] - start[s] >= latency - II x distance``, every
modulo-reservation-table cell within its capacity) with a time limit; a loop whose smaller IIs
are not all decided counts as "unknown". ``proven`` counts the loops where
``modulo_schedule`` itself proved its II the smallest (``info["proven_minimum"]``). Every
schedule is verified. OR-Tools is an optional benchmark dependency:
``pip install 'lecturekit[bench]'`` (or ``pip install ortools``).

With ``--mii`` it prints, for both modulo schedulers on the same loops (5 to 65 operations,
renamed registers), the share scheduled at II = MII and the mean excess II / MII - 1 (fast: no
exact model; MII is a lower bound, so both figures are pessimistic by the loops whose true
minimum is above MII, which ``--exact`` counts).

Usage::

    python benchmarks/modulo.py [--loops 20] [--repeat 3]
    python benchmarks/modulo.py --mii [--loops 20] [--sizes 5 15 25 35 45 55 65]
    python benchmarks/modulo.py --exact [--loops 10] [--sizes 5 15 25 35 45 55 65]

Prints figures; asserts nothing (timings do not belong in tests).
"""

from __future__ import annotations

import argparse
import statistics
import time

from lecturekit.core import verify
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


def feasible_at(graph, ii: int, seconds: float) -> bool | None:
    """Whether some legal modulo schedule of ``graph`` exists at ``ii`` (CP-SAT; None: not
    decided within ``seconds``)."""
    from ortools.sat.python import cp_model

    n = len(graph.ops)
    for e in graph.edges:
        if e.src == e.dst and e.latency - ii * e.distance > 0:
            return False
    horizon = sum(max(0, e.latency) for e in graph.edges) + (n + 2) * ii + 8
    model = cp_model.CpModel()
    start = [model.new_int_var(0, horizon, f"s{k}") for k in range(n)]
    stage = [model.new_int_var(0, horizon // ii + 1, f"q{k}") for k in range(n)]
    row = [[model.new_bool_var(f"b{k}_{t}") for t in range(ii)] for k in range(n)]
    for k in range(n):
        model.add_exactly_one(row[k])
        model.add(start[k] == ii * stage[k] + sum(t * row[k][t] for t in range(ii)))
    for e in graph.edges:
        if e.src != e.dst:
            model.add(start[e.dst] - start[e.src] >= e.latency - ii * e.distance)
    if graph.issue_width is not None:
        for t in range(ii):
            model.add(sum(row[k][t] for k in range(n)) <= graph.issue_width)
    for unit, cap in graph.units.items():
        for t in range(ii):
            uses = [
                row[k][(t - r.offset - c) % ii]
                for k, op in enumerate(graph.ops)
                for r in op.reservations
                if r.unit == unit
                for c in range(r.cycles)
            ]
            if len(uses) > cap:
                model.add(sum(uses) <= cap)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = seconds
    solver.parameters.num_workers = 1
    status = solver.solve(model)
    if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        found = [solver.value(x) for x in start]
        verify(graph, found, ii=ii)  # the exact model's own answer is checked too
        return True
    if status == cp_model.INFEASIBLE:
        return False
    return None


def true_minimum(graph, mii: int, found: int, seconds: float) -> int | None:
    """The smallest feasible II, given that ``found`` is feasible (None: not decided)."""
    for ii in range(mii, found):
        ok = feasible_at(graph, ii, seconds)
        if ok is None:
            return None
        if ok:
            return ii
    return found


def exact_main(args) -> None:
    try:
        import ortools.sat.python.cp_model  # noqa: F401
    except ImportError:
        print(
            "--exact needs OR-Tools' CP-SAT: pip install 'lecturekit[bench]' "
            "(or: pip install ortools)"
        )
        return
    from lecturekit.core import verify as _verify
    from lecturekit.loops.model import analyze_loop
    from lecturekit.loops.modulo import iterative_modulo_schedule
    from lecturekit.loops.swing import swing_modulo_schedule

    print(
        f"II against the true minimum (CP-SAT, {args.exact_seconds:g} s per II), "
        f"{args.loops} random loops per row"
    )
    head = (
        f"{'ops':>4} {'machine':<8} {'lk=min':>7} {'proven':>7} {'IMS=min':>8} {'SMS=min':>8} "
        f"{'unknown':>8} {'MII<min':>8}"
    )
    print(head)
    print("-" * len(head))
    totals = {"lk": 0, "proven": 0, "ims": 0, "sms": 0, "known": 0, "loops": 0}
    for size in args.sizes:
        for machine in MACHINES:
            row = {"lk": 0, "proven": 0, "ims": 0, "sms": 0}
            unknown = gap = 0
            for seed in range(args.loops):
                rl = random_loop(10_000 * size + seed, size=size, recurrence=seed % 2 == 0)
                r = modulo_schedule(rl.source, machine, codegen=False)
                _verify(r.graph, r.schedule, ii=r.ii)
                free = analyze_loop(rl.source, machine).graph(renamed=True)
                ims, _ = iterative_modulo_schedule(free)
                sms, _ = swing_modulo_schedule(free)
                _verify(free, ims, ii=ims.ii)
                _verify(free, sms, ii=sms.ii)
                best = min(r.ii, ims.ii, sms.ii)
                low = true_minimum(free, r.mii, best, args.exact_seconds)
                row["proven"] += bool(r.schedule.info.get("proven_minimum"))
                if low is None:
                    unknown += 1
                    continue
                gap += low > r.mii
                row["lk"] += r.ii == low
                row["ims"] += ims.ii == low
                row["sms"] += sms.ii == low
                if r.ii != low:
                    print(f"  above the minimum: {size} ops, {machine}, seed {seed}: II {r.ii}, "
                          f"minimum {low}")  # fmt: skip
            known = args.loops - unknown
            for key in row:
                totals[key] += row[key]
            totals["known"] += known
            totals["loops"] += args.loops
            k = max(known, 1)
            print(
                f"{size:>4} {machine:<8} {row['lk'] / k:>7.0%} {row['proven']:>7} "
                f"{row['ims'] / k:>8.0%} {row['sms'] / k:>8.0%} {unknown:>8} {gap:>8}",
                flush=True,
            )
    k = max(totals["known"], 1)
    print(
        f"all: modulo_schedule at the true minimum on {totals['lk']}/{totals['known']} decided "
        f"loops ({totals['proven']} proven by itself), IMS alone on {totals['ims'] / k:.1%}, "
        f"SMS alone on {totals['sms'] / k:.1%} ({totals['loops'] - totals['known']} "
        f"undecided); every schedule verified"
    )


def mii_main(args) -> None:
    from lecturekit.loops.model import analyze_loop
    from lecturekit.loops.modulo import iterative_modulo_schedule, rec_mii, res_mii
    from lecturekit.loops.swing import swing_modulo_schedule

    print(f"II against MII, {args.loops} random loops per row (IMS: iterative, SMS: swing)")
    head = (
        f"{'ops':>4} {'machine':<8} {'IMS=MII':>8} {'SMS=MII':>8} "
        f"{'IMS excess':>11} {'SMS excess':>11}"
    )
    print(head)
    print("-" * len(head))
    hits = {"ims": 0, "sms": 0}
    excess: dict[str, list[float]] = {"ims": [], "sms": []}
    for size in args.sizes:
        for machine in MACHINES:
            row = {"ims": [], "sms": []}
            for seed in range(args.loops):
                rl = random_loop(10_000 * size + seed, size=size, recurrence=seed % 2 == 0)
                g = analyze_loop(rl.source, machine).graph(renamed=True)
                mii = max(res_mii(g), rec_mii(g), 1)
                for key, scheduler in (
                    ("ims", iterative_modulo_schedule),
                    ("sms", swing_modulo_schedule),
                ):
                    s, _ = scheduler(g)
                    verify(g, s, ii=s.ii)
                    row[key].append(s.ii / mii - 1)
            for key in row:
                hits[key] += sum(x == 0 for x in row[key])
                excess[key] += row[key]
            print(
                f"{size:>4} {machine:<8} "
                f"{sum(x == 0 for x in row['ims']) / args.loops:>8.0%} "
                f"{sum(x == 0 for x in row['sms']) / args.loops:>8.0%} "
                f"{statistics.mean(row['ims']):>11.2%} {statistics.mean(row['sms']):>11.2%}"
            )
    total = len(excess["ims"])
    print(
        f"all {total} loops: IMS at MII on {hits['ims'] / total:.1%} (mean excess "
        f"{statistics.mean(excess['ims']):.2%}), SMS on {hits['sms'] / total:.1%} (mean excess "
        f"{statistics.mean(excess['sms']):.2%}); every schedule verified"
    )


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loops", type=int, default=20, help="random loops per size (20)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per loop (median)")
    parser.add_argument("--exact", action="store_true", help="check II against the true minimum")
    parser.add_argument(
        "--mii", action="store_true", help="II = MII and mean excess, iterative beside swing"
    )
    parser.add_argument("--sizes", type=int, nargs="*", default=[5, 15, 25, 35, 45, 55, 65])
    parser.add_argument(
        "--exact-seconds", type=float, default=20.0, help="CP-SAT time limit per II (20)"
    )
    args = parser.parse_args(argv)
    if args.exact:
        exact_main(args)
        return
    if args.mii:
        mii_main(args)
        return
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
