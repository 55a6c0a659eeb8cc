"""Swing modulo scheduling (Llosa, González, Ayguadé and Valero 1996; LLVM's MachinePipeliner).

A second software-pipelining algorithm beside Rau's iterative modulo scheduling
(:mod:`lecturekit.loops.modulo`), sharing its bounds (ResMII, RecMII), its modulo reservation
table and its verifier. Where Rau places operations highest first and repairs conflicts by
evicting, swing modulo scheduling (SMS) never backtracks: it spends its effort on the *order* in
which operations are placed, so that each one is placed next to operations it depends on and
register lifetimes stay short.

The order
---------
The dependence graph at a candidate II is split into *sets* (Llosa et al. section 3.1; LLVM's
``findCircuits`` and ``groupRemainingNodes``): every elementary circuit (a recurrence; Johnson's
algorithm, at most :data:`MAX_CIRCUITS` of them), the most constraining first (largest
``ceil(latency / distance)``); a node already in an earlier set stays there, and each set also
takes the nodes on a path (within an iteration) between it and the sets before it. A recurrence
with slack (its RecMII at most half the II) is not given priority: placed first it only fixes
its nodes before the rest of the graph is seen (LLVM drops the recurrence sets for this reason
when all of them are small against a large MII, ``checkNodeSets``; here each is judged on its
own). The remaining nodes form one set per connected component, those next to a recurrence
first.

Within the sets the order *swings*, over the dependences within an iteration (the paper orders
the graph with its back edges removed, so a recurrence is a path): starting bottom-up from the
node with the largest ASAP (or from the neighbours of what is already ordered), it takes, among
the candidates, the one with the greatest *depth* (bottom-up: ASAP, the longest path from a
start) or *height* (top-down: the longest path to an end), ties to the least mobility
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
ASAP upwards. One refinement (see :func:`_window`): the side the scan starts from is set by the
placed neighbours in the *same* iteration; a neighbour ``d`` iterations away only narrows the
window (the paper's loop-carried edges are register recurrences of distance 1; the random
loops' memory dependences reach 3 or 4 iterations, and anchoring on them stretched lifetimes
and starved later nodes). If a node finds no row, II is increased by one and the whole order is
redone (no eviction). Past one iteration's own length the iterations need not overlap and one
iteration's list schedule is used, as in :func:`~lecturekit.loops.modulo.iterative_modulo_schedule`.

How often it reaches the minimum: ``python benchmarks/modulo.py --mii`` prints it beside
iterative modulo scheduling's. On its 280 random loops of 5 to 65 operations, whose issue slots
are 80-100 % full at MII, SMS without backtracking reaches MII on 52 % (mean II 2.6 % above
MII), IMS, which evicts and retries, on 91 % (0.5 %); with SCCs for sets, back edges in the
order and the scan anchored on loose bounds it was about 20 % (5 % above). Where both reach the
same II, SMS's lifetimes are shorter on most loops (chapter 07).

Every step is recorded as a :class:`~lecturekit.loops.modulo.ModuloStep` (the same trace the
modulo widget steps through), and the schedule passes :func:`lecturekit.core.verify` at its II.
"""

from __future__ import annotations

from ..core.graph import Graph
from ..core.schedule import Schedule
from ..core.verify import verify
from ..errors import ScheduleError
from ..language import N_, _
from .mii import _clock, _deadline, rec_mii, res_mii
from .modulo import SNAPSHOT_OPS, ModuloStep, _fallback, _Occupancy


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


#: at most this many elementary circuits are enumerated (Johnson's algorithm is linear in their
#: number, which can grow exponentially); LLVM's pipeliner caps its search the same way
MAX_CIRCUITS = 400


def _circuits(n: int, succ: list[list[int]], limit: int = MAX_CIRCUITS) -> list[list[int]]:
    """Elementary circuits of the graph (Johnson 1975), each as its node sequence from its
    smallest node; at most ``limit`` of them."""
    out: list[list[int]] = []
    for s in range(n):
        if len(out) >= limit:
            break
        _circuits_from(s, succ, out, limit)
    return out


def _circuits_from(s: int, succ: list[list[int]], out: list, limit: int) -> None:
    """Johnson's search for the circuits through ``s`` among the nodes ``>= s``."""
    n = len(succ)
    blocked = [False] * n
    bmap: list[set[int]] = [set() for _ in range(n)]
    stack: list[int] = []

    def unblock(u: int) -> None:
        todo = [u]
        while todo:
            w = todo.pop()
            if blocked[w]:
                blocked[w] = False
                todo.extend(bmap[w])
                bmap[w].clear()

    def circuit(v: int) -> bool:
        found = False
        stack.append(v)
        blocked[v] = True
        for w in succ[v]:
            if w < s or len(out) >= limit:
                continue
            if w == s:
                out.append(list(stack))
                found = True
            elif not blocked[w] and circuit(w):
                found = True
        if found:
            unblock(v)
        else:
            for w in succ[v]:
                if w >= s:
                    bmap[w].add(v)
        stack.pop()
        return found

    circuit(s)


def _node_sets(graph: Graph, ii: int, n: int, succ, pred, branches, asap) -> list[set[int]]:
    """SMS's partial order (Llosa et al. section 3.1; LLVM's ``findCircuits``,
    ``groupRemainingNodes``, ``removeDuplicateNodes``): every elementary circuit is a set, the
    most constraining first (largest ``ceil(latency / distance)`` at ``ii``); each set also takes
    the nodes on a path between it and the sets before it; then the remaining nodes, a set per
    connected component, first those next to a recurrence."""
    best: dict[tuple[int, int], tuple[int, int]] = {}
    for e in graph.edges:
        if e.src in branches or e.dst in branches:
            continue
        key = (e.src, e.dst)
        if key not in best or e.latency - ii * e.distance > best[key][0] - ii * best[key][1]:
            best[key] = (e.latency, e.distance)
    loops = [[v] for v in range(n) if (v, v) in best]
    inner = [[w for w in succ[v] if w != v] for v in range(n)]
    # (the search recurses once per node on a path: past a few hundred operations only the
    # self-loops are taken as recurrences)
    recs = []
    for cyc in loops + (_circuits(n, inner) if n <= 400 else []):
        pairs = [best[(a, b)] for a, b in zip(cyc, cyc[1:] + cyc[:1], strict=True)]
        lat = sum(p[0] for p in pairs)
        dist = sum(p[1] for p in pairs)
        recs.append((-(-lat // max(dist, 1)), max(asap[v] for v in cyc), sorted(cyc)))
    recs.sort(key=lambda r: (-r[0], -r[1], r[2]))
    # a recurrence with slack (RecMII at most half the II) constrains nothing worth placing
    # first; giving it priority only fixes its nodes before the rest of the graph is seen. LLVM
    # drops the recurrence sets for the same reason when all of them are small against a large
    # MII (``checkNodeSets``); here each one is judged on its own
    recs = [r for r in recs if 2 * r[0] > ii]
    # the paths within an iteration (distance 0), for the nodes between two sets
    fwd: list[list[int]] = [[] for _ in range(n)]
    bwd: list[list[int]] = [[] for _ in range(n)]
    for e in graph.edges:
        if not e.distance and e.src != e.dst and not {e.src, e.dst} & branches:
            fwd[e.src].append(e.dst)
            bwd[e.dst].append(e.src)

    def reach(start: set[int], nxt) -> set[int]:
        seen = set(start)
        todo = list(start)
        while todo:
            for w in nxt[todo.pop()]:
                if w not in seen:
                    seen.add(w)
                    todo.append(w)
        return seen

    sets: list[set[int]] = []
    added: set[int] = set()
    for _rec, _depth, nodes in recs:
        cur = set(nodes) - added
        if not cur:
            continue
        if added:
            between = (reach(cur, fwd) & reach(added, bwd)) | (reach(added, fwd) & reach(cur, bwd))
            cur |= between - added
        sets.append(cur)
        added |= cur
    rest = [v for v in range(n) if v not in added and v not in branches]
    if rest:
        near = [[*succ[v], *pred[v]] for v in range(n)]
        seeds = [w for v in sorted(added) for w in succ[v] if w not in added]
        seeds += [w for v in sorted(added) for w in pred[v] if w not in added]
        seeds += rest
        for v in seeds:
            if v in added:
                continue
            comp = reach({v}, near) - added - branches
            sets.append(comp)
            added |= comp
    return sets


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
    succ0: list[list[int]] = [[] for _ in range(n)]
    pred0: list[list[int]] = [[] for _ in range(n)]
    for e in graph.edges:
        if e.src in branches or e.dst in branches:
            continue
        if e.src != e.dst and e.dst not in succ[e.src]:
            succ[e.src].append(e.dst)
            pred[e.dst].append(e.src)
        if e.src != e.dst and not e.distance and e.dst not in succ0[e.src]:
            succ0[e.src].append(e.dst)
            pred0[e.dst].append(e.src)
    # ASAP / ALAP over the edges within an iteration (SMS ignores the back edges here)
    intra = [(e.src, e.dst, e.latency) for e in graph.edges if not e.distance and e.src != e.dst]
    asap = [0] * n
    for _unused in range(n):
        changed = False
        for s, d, lat in intra:
            if asap[s] + lat > asap[d]:
                asap[d] = asap[s] + lat
                changed = True
        if not changed:
            break
    height = [op.tail for op in graph.ops]
    for _unused in range(n):
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

    sets = _node_sets(graph, ii, n, succ, pred, branches, asap)

    # the swing follows the dependences within an iteration (Llosa et al. order the graph
    # with its back edges removed, so a recurrence is a path and only the node closing it has
    # placed neighbours on both sides); the loop-carried ones only shape the sets above
    succ, pred = succ0, pred0
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


def _tight(e) -> bool:
    """Whether a placed neighbour across ``e`` should anchor the scan: a dependence in the same
    iteration, or a register value carried to the next iterations (whose lifetime the placement
    keeps short). A memory dependence ``d`` iterations away only bounds the start, ``d x II``
    cycles off."""
    return not e.distance or (e.kind == "RAW" and not e.on.startswith("mem"))


def _window(op: int, ii: int, time: dict, preds: list, succs: list, asap: int):
    """The cycles SMS scans for ``op`` (in order) and how they were chosen.

    Llosa et al.: with placed predecessors only, up from the earliest start ``early`` for II
    cycles; with placed successors only, down from the latest start ``late``; with both, up from
    ``early`` to ``min(late, early + II - 1)``; with neither, up from its ASAP. The published
    algorithm's loop-carried edges are register recurrences; a memory dependence ``d`` iterations
    away (common in the random loops, through arrays) bounds a start only loosely, ``d x II``
    cycles off, and anchoring the scan on it stretches every lifetime on the way and starves the
    nodes placed later (LLVM's pipeliner meets the same problem and scans backwards when the
    placed predecessors are only loop-carried memory or output dependences). So the side the
    scan starts from is set by the :func:`_tight` neighbours, and with neighbours on both sides
    by those in the same iteration; the others only narrow the window. When every neighbour is
    in the same iteration this is the published rule."""
    tight_p = [e for e in preds if e.src in time and _tight(e)]
    tight_s = [e for e in succs if e.dst in time and _tight(e)]
    early_in = [time[e.src] + e.latency - ii * e.distance for e in tight_p]
    late_in = [time[e.dst] - e.latency + ii * e.distance for e in tight_s]
    early = early_in + [
        time[e.src] + e.latency - ii * e.distance for e in preds if e.src in time and not _tight(e)
    ]
    late = late_in + [
        time[e.dst] - e.latency + ii * e.distance for e in succs if e.dst in time and not _tight(e)
    ]
    lo = max(early) if early else None
    hi = min(late) if late else None
    if lo is not None and hi is not None:
        # with neighbours on both sides, the side in the same iteration sets the anchor (a
        # register value from another iteration is as loose here as a memory dependence: the
        # window already holds it, and anchoring on it pulls the node away from its iteration)
        early_in = [t for e, t in zip(tight_p, early_in, strict=True) if not e.distance]
        late_in = [t for e, t in zip(tight_s, late_in, strict=True) if not e.distance]
        if hi < lo:
            return range(0), _("between {lo} and {hi}: empty").format(lo=lo, hi=hi)
        if early_in or not late_in:
            if not early_in:  # only loose neighbours: near ASAP within the window
                return _around(min(max(asap, lo), hi), lo, hi, ii), (
                    _(
                        "between {lo} and {hi} (neighbours only across iterations), near ASAP "
                        "{asap}"
                    ).format(lo=lo, hi=hi, asap=asap)
                )
            return range(lo, min(hi, lo + ii - 1) + 1), _("between {lo} and {hi}").format(
                lo=lo, hi=hi
            )
        return range(hi, max(lo, hi - ii + 1) - 1, -1), (
            _("between {lo} and {hi}, down from the successors in its iteration").format(
                lo=lo, hi=hi
            )
        )
    if lo is not None:
        if early_in:
            return range(lo, lo + ii), _("as early as its predecessors allow ({lo})").format(lo=lo)
        start = max(asap, lo)
        return range(start, start + ii), (
            _(
                "predecessors only through memory across iterations (from {lo}): from "
                "ASAP {asap} or later"
            ).format(lo=lo, asap=asap)
        )
    if hi is not None:
        if late_in:
            return range(hi, hi - ii, -1), _("as late as its successors allow ({hi})").format(hi=hi)
        start = min(asap, hi)
        return range(start, start - ii, -1), (
            _(
                "successors only through memory across iterations (until {hi}): from "
                "ASAP {asap} or earlier"
            ).format(hi=hi, asap=asap)
        )
    return range(asap, asap + ii), _("no placed neighbour: from ASAP {asap}").format(asap=asap)


def _around(a: int, lo: int, hi: int, ii: int) -> list[int]:
    """Cycles in ``[lo, hi]`` within II of ``a``, nearest first, one per row."""
    cycles = sorted(
        range(max(lo, a - ii + 1), min(hi, a + ii - 1) + 1), key=lambda c: (abs(c - a), c)
    )
    rows: set[int] = set()
    out = []
    for c in cycles:
        if c % ii not in rows:
            rows.add(c % ii)
            out.append(c)
    return out


def _place_all(
    graph: Graph, ii: int, order: list[int], asap: list[int], steps: list, deadline
) -> dict | None:
    n = len(graph.ops)
    label = graph.label
    occ = _Occupancy(graph, ii)
    time: dict[int, int] = {}
    snap = (lambda d: dict(d)) if n <= SNAPSHOT_OPS else (lambda d: {})
    preds = [[] for _unused in range(n)]
    succs = [[] for _unused in range(n)]
    for e in graph.edges:
        if e.src != e.dst:
            preds[e.dst].append(e)
            succs[e.src].append(e)
    for op in order:
        if deadline is not None and _clock() > deadline:
            return "timeout"
        slots, how = _window(op, ii, time, preds[op], succs[op], asap[op])
        slot = next((t for t in slots if occ.fits(op, t)), None)
        if slot is None:
            steps.append(
                ModuloStep(
                    "give-up",
                    ii,
                    _("II = {ii}: no free row for {op} ({how}): try II = {next}").format(
                        ii=ii, op=label(op), how=how, next=ii + 1
                    ),
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
                _("II = {ii}: place {op} at cycle {slot}, {how}").format(
                    ii=ii, op=label(op), slot=slot, how=how
                ),
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
        raise ScheduleError(_("the loop has no operations to schedule"))
    graph.check_acyclic()
    bound = max(res_mii(graph), rec_mii(graph), 1)
    ii = bound if ii is None else ii
    if isinstance(ii, bool) or not isinstance(ii, int) or ii < 1:
        raise ScheduleError(
            _("initiation interval must be a whole number >= 1, got {ii!r}").format(ii=ii)
        )
    last_ii, fallback = _fallback(graph)
    steps: list[ModuloStep] = []
    timed_out = False
    order: list[int] = []
    while True:
        if ii < bound:
            steps.append(
                ModuloStep(
                    "give-up",
                    ii,
                    _("II = {ii} is below MII = {bound}: impossible").format(ii=ii, bound=bound),
                )
            )
            ii += 1
            continue
        order, asap = _swing(graph, ii)
        steps.append(
            ModuloStep(
                "ii",
                ii,
                _("try II = {ii} (MII = {bound}); swing order {order}").format(
                    ii=ii, bound=bound, order=" ".join(graph.label(k) for k in order)
                ),
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
                    _("time limit reached: use one iteration's list schedule at II = {ii}").format(
                        ii=ii
                    ),
                )
            )
            break
        if time is None and ii >= last_ii:
            time = fallback
            steps.append(
                ModuloStep(
                    "place",
                    ii,
                    _(
                        "II = {ii}: the iterations no longer need to overlap; use one "
                        "iteration's list schedule"
                    ).format(ii=ii),
                )
            )
        if time is not None:
            break
        ii += 1
    first = min(time.values())
    start = [time[k] - first for k in range(len(graph.ops))]
    sched = Schedule(graph, start, algorithm=N_("swing modulo"), ii=ii)
    verify(graph, sched, ii=ii)
    sched.info.update(mii=bound, order=order, timed_out=timed_out)
    steps.append(
        ModuloStep(
            "done",
            ii,
            _("schedule found at II = {ii} (MII = {bound})").format(ii=ii, bound=bound),
            placed=dict(enumerate(start)),
        )
    )
    return sched, steps


__all__ = ["swing_modulo_schedule", "swing_order"]
