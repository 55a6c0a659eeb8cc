"""Swing modulo scheduling (Llosa, González, Ayguadé and Valero 1996; LLVM's MachinePipeliner).

A second software-pipelining algorithm beside Rau's iterative modulo scheduling
(:mod:`lecturekit.loops.modulo`), sharing its bounds (ResMII, RecMII), its modulo reservation
table and its verifier. Where Rau places operations highest first and repairs conflicts by
evicting, swing modulo scheduling (SMS) never backtracks: it spends its effort on the *order* in
which operations are placed, so that each one is placed next to operations it depends on and
register lifetimes stay short.

The order
---------
The dependence graph at a candidate II is split into *sets*: each recurrence (a strongly connected
component with a cycle), the most constraining first (largest ``ceil(latency / distance)``),
then everything else. Within the sets the order *swings*: starting bottom-up from the node with
the largest ASAP (or from the neighbours of what is already ordered), it takes, among the
candidates, the one with the greatest *depth* (bottom-up: ASAP, the longest path from a start)
or *height* (top-down: the longest path to an end), ties to the least mobility
(``ALAP - ASAP``), adds that node's predecessors (bottom-up) or successors (top-down) in the set
to the candidates, and when no candidate is left swings to the other direction from the nodes
ordered so far. So every node but the first of a set is ordered right after one of its
neighbours, and (outside recurrences) has either only predecessors or only successors among the
nodes placed before it.

The placement
-------------
Nodes are placed in that order, each in the first free row of the modulo reservation table
within II cycles of where its placed neighbours want it: with only placed predecessors, as early
as possible (scanning ``early .. early + II - 1`` upwards); with only placed successors, as late
as possible (scanning ``late .. late - II + 1`` downwards, which keeps the value's lifetime
short); with both, upwards from ``early`` to ``min(late, early + II - 1)``; with neither, from its
ASAP upwards. If a node finds no row, II is increased by one and the whole order is redone (no
eviction). Past one iteration's own length the iterations need not overlap and one iteration's
list schedule is used, as in :func:`~lecturekit.loops.modulo.iterative_modulo_schedule`.

Every step is recorded as a :class:`~lecturekit.loops.modulo.ModuloStep` (the same trace the
modulo widget steps through), and the schedule passes :func:`lecturekit.core.verify` at its II.
"""

from __future__ import annotations

from ..core.graph import Graph
from ..core.schedule import Schedule
from ..core.verify import verify
from ..errors import ScheduleError
from .modulo import (
    SNAPSHOT_OPS,
    ModuloStep,
    _clock,
    _deadline,
    _fallback,
    _Occupancy,
    rec_mii,
    res_mii,
)


def _sccs(n: int, succ: list[list[int]]) -> list[list[int]]:
    """Strongly connected components (Tarjan, iterative), each sorted."""
    index = [-1] * n
    low = [0] * n
    on = [False] * n
    stack: list[int] = []
    out: list[list[int]] = []
    counter = 0
    for root in range(n):
        if index[root] >= 0:
            continue
        work = [(root, 0)]
        while work:
            v, k = work.pop()
            if k == 0:
                index[v] = low[v] = counter
                counter += 1
                stack.append(v)
                on[v] = True
            if k < len(succ[v]):
                work.append((v, k + 1))
                w = succ[v][k]
                if index[w] < 0:
                    work.append((w, 0))
                elif on[w]:
                    low[v] = min(low[v], index[w])
                continue
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on[w] = False
                    comp.append(w)
                    if w == v:
                        break
                out.append(sorted(comp))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
    return out


def swing_order(graph: Graph, ii: int) -> list[int]:
    """The swing order of the operations of ``graph`` at ``ii`` (see the module docstring)."""
    return _swing(graph, ii)[0]


def _swing(graph: Graph, ii: int) -> tuple[list[int], list[int]]:
    """The swing order and every operation's ASAP (within an iteration)."""
    n = len(graph.ops)
    # the loop's branch (the target of the CTRL edges that keep every instruction in its
    # iteration) is left out of the swing and ordered last, as LLVM's pipeliner leaves the
    # terminator out: ordered early, it would pin every other instruction before it
    branches = {e.dst for e in graph.edges if e.kind == "CTRL"}
    succ: list[list[int]] = [[] for _ in range(n)]
    pred: list[list[int]] = [[] for _ in range(n)]
    for e in graph.edges:
        if e.src in branches or e.dst in branches:
            continue
        if e.src != e.dst and e.dst not in succ[e.src]:
            succ[e.src].append(e.dst)
            pred[e.dst].append(e.src)
    # ASAP / ALAP over the edges within an iteration (SMS ignores the back edges here)
    intra = [(e.src, e.dst, e.latency) for e in graph.edges if not e.distance and e.src != e.dst]
    asap = [0] * n
    for _ in range(n):
        changed = False
        for s, d, lat in intra:
            if asap[s] + lat > asap[d]:
                asap[d] = asap[s] + lat
                changed = True
        if not changed:
            break
    height = [op.tail for op in graph.ops]
    for _ in range(n):
        changed = False
        for s, d, lat in intra:
            if height[d] + lat > height[s]:
                height[s] = height[d] + lat
                changed = True
        if not changed:
            break
    length = max(a + h for a, h in zip(asap, height, strict=True))
    alap = [length - h for h in height]
    mobility = [b - a for a, b in zip(asap, alap, strict=True)]

    # sets: recurrences, most constraining first, then the rest
    cyc = []
    for comp in _sccs(n, succ):
        members = set(comp)
        if members & branches:
            continue
        if len(comp) == 1 and not any(
            e.src == e.dst == comp[0] for e in graph.edges
        ):  # no self-loop: not a recurrence
            continue
        lat = sum(e.latency for e in graph.edges if e.src in members and e.dst in members)
        dist = sum(e.distance for e in graph.edges if e.src in members and e.dst in members)
        cyc.append((-(-lat // max(dist, 1)), comp))
    cyc.sort(key=lambda x: (-x[0], x[1]))
    sets = [set(c) for _, c in cyc]
    rest = set(range(n)) - branches - (set().union(*sets) if sets else set())
    if rest:
        sets.append(rest)

    order: list[int] = []
    done: set[int] = set()
    for s in sets:
        preds_o = {p for v in done for p in pred[v]} & s - done
        succs_o = {q for v in done for q in succ[v]} & s - done
        if preds_o:
            cand, bottom_up = preds_o, True
        elif succs_o:
            cand, bottom_up = succs_o, False
        else:
            first = max(s, key=lambda v: (asap[v], -v))
            cand, bottom_up = {first}, True
        while True:
            while cand:
                if bottom_up:
                    v = max(cand, key=lambda v: (asap[v], -mobility[v], -v))
                    nxt = pred[v]
                else:
                    v = max(cand, key=lambda v: (height[v], -mobility[v], -v))
                    nxt = succ[v]
                order.append(v)
                done.add(v)
                cand = (cand | {w for w in nxt if w in s}) - done
            bottom_up = not bottom_up
            near = pred if bottom_up else succ
            cand = {w for v in done for w in near[v] if w in s} - done
            if not cand:
                left = s - done
                if not left:
                    break
                # a set that is not connected through what is ordered: start a new sweep
                cand, bottom_up = {max(left, key=lambda v: (asap[v], -v))}, True
    return order + sorted(branches), asap


def _place_all(
    graph: Graph, ii: int, order: list[int], asap: list[int], steps: list, deadline
) -> dict | None:
    n = len(graph.ops)
    label = graph.label
    occ = _Occupancy(graph, ii)
    time: dict[int, int] = {}
    snap = (lambda d: dict(d)) if n <= SNAPSHOT_OPS else (lambda d: {})
    preds = [[] for _ in range(n)]
    succs = [[] for _ in range(n)]
    for e in graph.edges:
        if e.src != e.dst:
            preds[e.dst].append(e)
            succs[e.src].append(e)
    for op in order:
        if deadline is not None and _clock() > deadline:
            return "timeout"
        early = [time[e.src] + e.latency - ii * e.distance for e in preds[op] if e.src in time]
        late = [time[e.dst] - e.latency + ii * e.distance for e in succs[op] if e.dst in time]
        if early and not late:
            lo = max(early)
            slots, how = range(lo, lo + ii), f"as early as its predecessors allow ({lo})"
        elif late and not early:
            hi = min(late)
            slots, how = range(hi, hi - ii, -1), f"as late as its successors allow ({hi})"
        elif early and late:
            lo, hi = max(early), min(late)
            slots, how = range(lo, min(hi, lo + ii - 1) + 1), f"between {lo} and {hi}"
        else:
            slots, how = (
                range(asap[op], asap[op] + ii),
                f"no placed neighbour: from ASAP {asap[op]}",
            )
        slot = next((t for t in slots if occ.fits(op, t)), None)
        if slot is None:
            steps.append(
                ModuloStep(
                    "give-up",
                    ii,
                    f"II = {ii}: no free row for {label(op)} ({how}): try II = {ii + 1}",
                    op=op,
                    placed=snap(time),
                )
            )
            return None
        occ.add(op, slot)
        time[op] = slot
        steps.append(
            ModuloStep(
                "place",
                ii,
                f"II = {ii}: place {label(op)} at cycle {slot}, {how}",
                op=op,
                time=slot,
                placed=snap(time),
            )
        )
    return time


def swing_modulo_schedule(
    graph: Graph, *, ii: int | None = None, time_limit: float | None = 10.0
) -> tuple[Schedule, list[ModuloStep]]:
    """Swing modulo scheduling of a loop graph (see the module docstring): returns a verified
    :class:`~lecturekit.core.Schedule` (``ii`` set, start cycles from 0, ``algorithm =
    "swing modulo"``) and the trace. ``info``: ``mii``, ``order`` (the swing order at the final
    II), ``timed_out``. After ``time_limit`` seconds one iteration's list schedule is used, as in
    the iterative scheduler."""
    deadline = _deadline(time_limit)
    if not graph.ops:
        raise ScheduleError("the loop has no operations to schedule")
    graph.check_acyclic()
    bound = max(res_mii(graph), rec_mii(graph), 1)
    ii = bound if ii is None else ii
    if isinstance(ii, bool) or not isinstance(ii, int) or ii < 1:
        raise ScheduleError(f"initiation interval must be a whole number >= 1, got {ii!r}")
    last_ii, fallback = _fallback(graph)
    steps: list[ModuloStep] = []
    timed_out = False
    order: list[int] = []
    while True:
        if ii < bound:
            steps.append(ModuloStep("give-up", ii, f"II = {ii} is below MII = {bound}: impossible"))
            ii += 1
            continue
        order, asap = _swing(graph, ii)
        steps.append(
            ModuloStep(
                "ii",
                ii,
                f"try II = {ii} (MII = {bound}); swing order "
                + " ".join(graph.label(k) for k in order),
            )
        )
        time = _place_all(graph, ii, order, asap, steps, deadline)
        if time == "timeout":
            timed_out = True
            ii = max(ii, last_ii)
            time = fallback
            steps.append(
                ModuloStep(
                    "give-up",
                    ii,
                    f"time limit reached: use one iteration's list schedule at II = {ii}",
                )
            )
            break
        if time is None and ii >= last_ii:
            time = fallback
            steps.append(
                ModuloStep(
                    "place",
                    ii,
                    f"II = {ii}: the iterations no longer need to overlap; use one iteration's "
                    "list schedule",
                )
            )
        if time is not None:
            break
        ii += 1
    first = min(time.values())
    start = [time[k] - first for k in range(len(graph.ops))]
    sched = Schedule(graph, start, algorithm="swing modulo", ii=ii)
    verify(graph, sched, ii=ii)
    sched.info.update(mii=bound, order=order, timed_out=timed_out)
    steps.append(
        ModuloStep(
            "done",
            ii,
            f"schedule found at II = {ii} (MII = {bound})",
            placed=dict(enumerate(start)),
        )
    )
    return sched, steps


__all__ = ["swing_modulo_schedule", "swing_order"]
