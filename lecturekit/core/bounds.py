"""Lower bounds on the length of any legal schedule of a block.

Every bound here is a cycle number: no legal schedule (no assignment of issue cycles that
:func:`~lecturekit.core.verify` accepts) can finish before it. The exhaustive search in
:mod:`lecturekit.core.optimal` stops as soon as it finds a schedule that meets the best one, and
the notebooks show how far each heuristic schedule is from it.

The pieces, from the simplest:

``asap`` / earliest start
    Ignore resources: an operation starts as soon as its predecessors allow
    (``asap[j] = max(earliest, asap[i] + latency)`` over the edges ``i -> j``).
``heights`` (latency-weighted height, "weight the DAG")
    Cycles from an operation's issue until the block can end at the earliest: its own tail, or an
    edge's latency plus the successor's height, whichever is longer. The block cannot end before
    ``start[j] + height[j]`` for any ``j``.
``critical_path``
    ``max(asap[j] + height[j])``: the longest latency path, from the first issue cycle to the last
    finish. For the lecture's six-instruction block it is 10.
``issue_width``
    ``n`` operations issued ``w`` per cycle need ``ceil(n / w)`` issue cycles: the last one issues
    at ``earliest + ceil(n / w) - 1`` at the soonest and finishes at least the smallest tail later.
``unit:<name>``
    The same count for each functional unit: a unit with capacity ``c`` that must be busy for
    ``B`` cycles in total (a non-pipelined multiply counts all its cycles) is busy until at least
    ``first possible use + ceil(B / c) - 1``, and the block ends at least the smallest remaining
    tail after that.
``relaxed:issue`` and ``relaxed:<unit>`` (Rim and Jain 1994; Langevin and Cerny 1996)
    A stronger bound from a relaxed problem that keeps exactly one resource and forgets all
    precedences *except* what they imply as a release time (``asap``) and a tail (``height``). For
    the issue slots: ``n`` unit-time jobs, job ``j`` available from cycle ``asap[j]``, at most
    ``w`` jobs per cycle, and the block ending no earlier than ``start[j] + height[j]``. For a unit,
    each busy cycle of an operation is one job: the ``k``-th cycle of ``j``'s reservation is
    available from ``asap[j] + offset + k`` and leaves a tail of ``height[j] - offset - k``.
    Every legal schedule is a legal schedule of the relaxed problem, so the relaxed optimum is a
    lower bound. For unit-time jobs with integer release times the relaxed problem is solved
    exactly by a greedy rule (Jackson's rule): at each cycle run the available jobs with the
    longest tails (an exchange argument: swapping a longer-tailed job into an earlier slot never
    makes the maximum worse). This bound is at least the ``issue_width`` and ``unit`` bounds and
    catches what they miss: jobs that cannot start early and still have a long way to go.

:func:`lower_bound` is the maximum of all of them; :func:`bounds` names each one.
Edges with an iteration distance (loops) are ignored: these are bounds for one block.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Mapping

from .graph import Graph

#: the resource name used for issue slots in ``busy`` maps (cannot clash with a unit name)
ISSUE = "<issue>"


def as_graph(obj) -> Graph:
    """A core :class:`Graph` from a Graph or anything with a ``.graph`` (a DependenceGraph)."""
    if isinstance(obj, Graph):
        return obj
    inner = getattr(obj, "graph", None)
    if isinstance(inner, Graph):
        return inner
    from ..errors import ScheduleError

    raise ScheduleError(f"expected a dependence graph or a core Graph, got {type(obj).__name__}")


def one_iteration(graph: Graph) -> Graph:
    """``graph`` without its loop-carried edges (iteration distance > 0): what a schedule of one
    iteration must respect. The graph itself when it has none."""
    if all(e.distance == 0 for e in graph.edges):
        return graph
    return Graph(
        graph.ops,
        graph.intra_edges(),
        units=dict(graph.units),
        issue_width=graph.issue_width,
        earliest=graph.earliest,
        name=graph.name,
        source=graph.source,
    )


def _topo(graph: Graph) -> list[int]:
    """Program-order-first topological order (as ``Graph.topological_order``), without networkx."""
    n = len(graph.ops)
    succs: dict[int, set[int]] = {}
    indeg = [0] * n
    for e in graph.intra_edges():
        if e.dst not in succs.setdefault(e.src, set()):
            succs[e.src].add(e.dst)
            indeg[e.dst] += 1
    ready = [i for i in range(n) if indeg[i] == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        i = heapq.heappop(ready)
        order.append(i)
        for j in succs.get(i, ()):
            indeg[j] -= 1
            if indeg[j] == 0:
                heapq.heappush(ready, j)
    if len(order) < n:
        graph.check_acyclic()  # raises ScheduleError naming the cycle
    return order


def asap(graph, release: Mapping[int, int] | None = None) -> list[int]:
    """Earliest start of every operation with unlimited resources (the lecture's forward numbers).

    ``release`` optionally gives a cycle before which an operation may not start (default
    ``graph.earliest`` for every operation).
    """
    g = as_graph(graph)
    est = [g.earliest] * len(g.ops)
    if release:
        for i, r in release.items():
            est[i] = max(est[i], r)
    delays = g.delays()
    preds: dict[int, list[tuple[int, int]]] = {}
    for (s, d), lat in delays.items():
        preds.setdefault(d, []).append((s, lat))
    for j in _topo(g):
        for s, lat in preds.get(j, ()):
            est[j] = max(est[j], est[s] + lat)
    return est


def heights(graph, *, tails: bool = True) -> list[int]:
    """Latency-weighted height of every operation: the cycles from its issue until the block can
    end (its tail, or an edge's latency plus the successor's height, whichever is longer).

    With ``tails=False`` only edge latencies count (the longest latency path to a sink, the
    weights the slide writes on the DAG's edges); on a machine where every operation has the same
    tail the two differ by that constant.
    """
    g = as_graph(graph)
    h = [op.tail if tails else 0 for op in g.ops]
    succs: dict[int, list[tuple[int, int]]] = {}
    for (s, d), lat in g.delays().items():
        succs.setdefault(s, []).append((d, lat))
    for i in reversed(_topo(g)):
        for d, lat in succs.get(i, ()):
            h[i] = max(h[i], lat + h[d])
    return h


def alap(graph, length: int | None = None) -> list[int]:
    """Latest start of every operation so that the block still ends by cycle ``length`` (default:
    the critical-path bound), with unlimited resources. ``alap - asap`` is an operation's slack."""
    g = as_graph(graph)
    if length is None:
        length = critical_path_bound(g)
    return [length - h for h in heights(g)]


def critical_path_bound(graph) -> int:
    """``max(asap[j] + height[j])``: the longest latency path, first issue to last finish."""
    g = as_graph(graph)
    if not g.ops:
        return 0
    return max(a + h for a, h in zip(asap(g), heights(g), strict=True))


def issue_width_bound(graph) -> int | None:
    """``earliest + ceil(n / width) - 1 + min tail``; ``None`` when the issue width is unlimited."""
    g = as_graph(graph)
    if g.issue_width is None or not g.ops:
        return None
    n = len(g.ops)
    return g.earliest + -(-n // g.issue_width) - 1 + min(op.tail for op in g.ops)


def _pieces(graph: Graph, est: list[int], height: list[int], ops: Iterable[int] | None = None):
    """Per unit: the (release, tail) of every busy cycle of every operation using it."""
    out: dict[str, list[tuple[int, int]]] = {}
    for j in range(len(graph.ops)) if ops is None else ops:
        for r in graph.ops[j].reservations:
            for k in range(r.cycles):
                out.setdefault(r.unit, []).append((est[j] + r.offset + k, height[j] - r.offset - k))
    return out


def unit_bounds(graph, est: list[int] | None = None, height: list[int] | None = None):
    """Per unit: ``first possible use + ceil(busy cycles / capacity) - 1 + smallest tail``."""
    g = as_graph(graph)
    est = asap(g) if est is None else est
    height = heights(g) if height is None else height
    out: dict[str, int] = {}
    for unit, jobs in sorted(_pieces(g, est, height).items()):
        first = min(r for r, _ in jobs)
        tail = min(q for _, q in jobs)
        out[unit] = first + -(-len(jobs) // g.units[unit]) - 1 + tail
    return out


def jackson_bound(
    jobs: Iterable[tuple[int, int]], capacity: int, busy: Mapping[int, int] | None = None
) -> int | None:
    """Optimal value of the relaxed one-resource problem: unit-time jobs ``(release, tail)``, at
    most ``capacity`` per cycle (minus ``busy[cycle]`` slots already taken), minimising
    ``max(cycle + tail)``. Solved by Jackson's rule (longest tail first among the available
    jobs), which is exact for unit-time jobs. ``None`` when there are no jobs."""
    pending = sorted(jobs)
    if not pending:
        return None
    busy = busy or {}
    heap: list[int] = []  # -tail of the available jobs
    best = None
    k = 0
    t = pending[0][0]
    while k < len(pending) or heap:
        if not heap and pending[k][0] > t:
            t = pending[k][0]
        while k < len(pending) and pending[k][0] <= t:
            heapq.heappush(heap, -pending[k][1])
            k += 1
        free = capacity - busy.get(t, 0)
        while free > 0 and heap:
            value = t - heapq.heappop(heap)
            best = value if best is None or value > best else best
            free -= 1
        t += 1
    return best


def relaxed_bounds(
    graph,
    est: list[int] | None = None,
    height: list[int] | None = None,
    *,
    ops: Iterable[int] | None = None,
    busy: Mapping[str, Mapping[int, int]] | None = None,
) -> dict[str, int]:
    """The Rim–Jain relaxed bound for the issue slots (key ``"issue"``) and for every unit.

    By default for the whole block; the exhaustive search passes the release times ``est`` of
    the operations still to place (``ops``) and the slots already ``busy`` per resource
    (``ISSUE`` for issue slots) to bound what is left of a partial schedule.
    """
    g = as_graph(graph)
    est = asap(g) if est is None else est
    height = heights(g) if height is None else height
    todo = list(range(len(g.ops))) if ops is None else list(ops)
    busy = busy or {}
    out: dict[str, int] = {}
    if g.issue_width is not None:
        value = jackson_bound(((est[j], height[j]) for j in todo), g.issue_width, busy.get(ISSUE))
        if value is not None:
            out["issue"] = value
    for unit, jobs in sorted(_pieces(g, est, height, todo).items()):
        value = jackson_bound(jobs, g.units[unit], busy.get(unit))
        if value is not None:
            out[unit] = value
    return out


def bounds(graph) -> dict[str, int]:
    """Every lower bound by name: ``critical_path``, ``issue_width``, ``unit:<u>``,
    ``relaxed:issue``, ``relaxed:<u>`` (only those that apply)."""
    g = as_graph(graph)
    if not g.ops:
        return {"critical_path": 0}
    est, height = asap(g), heights(g)
    out = {"critical_path": max(a + h for a, h in zip(est, height, strict=True))}
    iw = issue_width_bound(g)
    if iw is not None:
        out["issue_width"] = iw
    for unit, value in unit_bounds(g, est, height).items():
        out[f"unit:{unit}"] = value
    for name, value in relaxed_bounds(g, est, height).items():
        out[f"relaxed:{name}"] = value
    return out


def lower_bound(graph) -> int:
    """The best (largest) of :func:`bounds`: no legal schedule finishes earlier."""
    return max(bounds(graph).values())


__all__ = [
    "ISSUE",
    "alap",
    "as_graph",
    "asap",
    "bounds",
    "critical_path_bound",
    "heights",
    "issue_width_bound",
    "jackson_bound",
    "lower_bound",
    "one_iteration",
    "relaxed_bounds",
    "unit_bounds",
]
