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

from ..language import _
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

    raise ScheduleError(
        _("expected a dependence graph or a core Graph, got {name}").format(name=type(obj).__name__)
    )


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
    jobs: Iterable[tuple[int, int]],
    capacity: int,
    busy: Mapping[int, int] | None = None,
    *,
    stop: int | None = None,
) -> int | None:
    """Optimal value of the relaxed one-resource problem: unit-time jobs ``(release, tail)``, at
    most ``capacity`` per cycle (minus ``busy[cycle]`` slots already taken), minimising
    ``max(cycle + tail)``. Solved by Jackson's rule (longest tail first among the available
    jobs), which is exact for unit-time jobs. ``None`` when there are no jobs. With ``stop``,
    returns as soon as the value reaches ``stop`` (a search only asks "is it at least this?")."""
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
            if best is None or value > best:
                best = value
                if stop is not None and best >= stop:
                    return best
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


def _relaxed_max(graph: Graph, jobs: Iterable[tuple[int, int, int]]) -> int | None:
    """The largest Rim–Jain relaxed bound over the issue slots and every unit, for operations
    given as ``(op, release, tail)`` (no slot busy beforehand); ``None`` without jobs."""
    issue: list[tuple[int, int]] = []
    pieces: dict[str, list[tuple[int, int]]] = {}
    for j, rel, tail in jobs:
        issue.append((rel, tail))
        for r in graph.ops[j].reservations:
            lst = pieces.setdefault(r.unit, [])
            for k in range(r.cycles):
                lst.append((rel + r.offset + k, tail - r.offset - k))
    if not issue:
        return None
    best = None
    if graph.issue_width is not None:
        best = jackson_bound(issue, graph.issue_width)
    for unit, lst in pieces.items():
        v = jackson_bound(lst, graph.units[unit])
        if v is not None and (best is None or v > best):
            best = v
    return best


def _longest_paths(start: int, adjacency, order) -> dict[int, int]:
    """The longest latency path between ``start`` and every operation reachable from it along
    ``adjacency`` (predecessors: its ancestors; successors: its descendants); ``order`` visits
    ``start`` first and every operation after those that lead to it (a topological order, or
    its reverse)."""
    dist = {start: 0}
    for u in order:
        du = dist.get(u)
        if du is None:
            continue
        for v, lat in adjacency[u]:
            if dist.get(v, du + lat - 1) < du + lat:
                dist[v] = du + lat
    return dist


def heads_and_tails(
    graph, tail_of=None, *, tails_only: bool = False
) -> tuple[list[int], list[int]]:
    """Resource-constrained heads and tails (Langevin and Cerny's recursive bounds).

    ``head[j]`` is a cycle no legal schedule issues ``j`` before, ``tail[j]`` a number of cycles
    no legal schedule ends in fewer of after ``j`` issues. They start as ``asap`` and
    ``heights`` (latencies alone) and are raised by the resources, recursively:

    * heads, in topological order: every ancestor ``i`` of ``j`` issues by ``start[j] -
      dist(i, j)`` (``dist``: the longest latency path), so the relaxed one-resource problem
      on the ancestors, each released at its own (already computed) head and with the tail
      ``dist(i, j)``, is a lower bound on ``start[j]``, for the issue slots and each unit;
    * tails, in reverse topological order, the mirror image: the descendants of ``i``
      released ``dist(i, j)`` after ``i`` with their own (already computed) tails bound the
      cycles from ``i``'s issue to the end.

    Each operation's bound uses its neighbours' *raised* values, so a bottleneck deep in the
    block raises everything above it. ``tail_of(i, dist, tail)``, if given, may raise the tail
    of ``i`` further (it must return a valid tail, or ``None``): ``dist`` maps ``i`` and each
    descendant to the longest latency path from ``i``, and ``tail`` holds the raised tails of
    the descendants (engine="optsched" solves small descendant sets exactly with it).
    ``tails_only=True`` leaves the heads at ``asap`` (half the work).
    Quadratic in the block's size (one longest-path sweep and one Jackson's rule per
    operation). ``max(head + tail)`` and the relaxed bounds released at
    the heads with these tails are lower bounds on the whole block (:func:`strong_lower_bound`).
    """
    g = as_graph(graph)
    n = len(g.ops)
    head, tail = asap(g), heights(g)
    succs: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    preds: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for (s, d), lat in g.delays().items():
        succs[s].append((d, lat))
        preds[d].append((s, lat))
    topo = _topo(g)
    for pos, j in enumerate([] if tails_only else topo):
        for s, lat in preds[j]:
            head[j] = max(head[j], head[s] + lat)
        dist = _longest_paths(j, preds, (topo[k] for k in range(pos, -1, -1)))  # to j
        if len(dist) > 1:
            v = _relaxed_max(g, ((i, head[i], d) for i, d in dist.items()))
            head[j] = max(head[j], v)
    for pos in range(n - 1, -1, -1):
        i = topo[pos]
        for d, lat in succs[i]:
            tail[i] = max(tail[i], lat + tail[d])
        dist = _longest_paths(i, succs, (topo[k] for k in range(pos, n)))  # from i
        if len(dist) > 1:
            v = _relaxed_max(g, ((j, d, tail[j]) for j, d in dist.items()))
            tail[i] = max(tail[i], v)
            if tail_of is not None:
                v = tail_of(i, dist, tail)
                if v is not None and v > tail[i]:
                    tail[i] = v
    return head, tail


def strong_lower_bound(graph, head_tail: tuple[list[int], list[int]] | None = None) -> int:
    """:func:`lower_bound` raised by :func:`heads_and_tails`: the largest of it, of
    ``max(head + tail)`` and of the relaxed bounds of the whole block released at the heads
    with those tails. What ``engine="optsched"`` starts its search from."""
    g = as_graph(graph)
    if not g.ops:
        return 0
    head, tail = heads_and_tails(g) if head_tail is None else head_tail
    best = max(lower_bound(g), max(a + b for a, b in zip(head, tail, strict=True)))
    v = _relaxed_max(g, ((j, head[j], tail[j]) for j in range(len(g.ops))))
    return best if v is None else max(best, v)


def flow_feasible(
    graph,
    head,
    tail,
    target: int,
    ops: Iterable[int] | None = None,
    busy: Mapping[str, Mapping[int, int]] | None = None,
) -> bool:
    """Whether the *transportation relaxation* has a schedule ending by cycle ``target``.

    The relaxation keeps every resource at once but no precedence: operation ``j`` must issue in
    a cycle of its window ``head[j] .. target - tail[j]``, at most ``issue_width`` operations
    per cycle, and an operation with one reservation takes one slot of its unit in the cycle
    it reaches it (further busy cycles, and the units of operations with several reservations,
    are dropped: a relaxation may only forget constraints). Deciding it is a maximum flow,
    source -> operation -> (unit, cycle) -> cycle -> sink with capacities 1, the unit's
    capacity and the issue width, found by augmenting paths after a greedy start (earliest
    deadline first). ``False`` proves that no legal schedule ends by ``target``. It sees what
    the one-resource bounds cannot: two units each busy every cycle *and* the issue slots full.
    Only meaningful when every reservation of a unit starts at the same offset (the search
    checks ``uniform_reservations``). ``head`` and ``tail`` are indexed by operation (lists or
    mappings); ``ops`` restricts the problem to some operations (default: all). ``busy`` gives
    the slots already taken, per cycle, of the issue slots (key ``ISSUE``) and of each unit (as
    for :func:`relaxed_bounds`): the exhaustive search asks whether what is left of a partial
    schedule still fits.
    """
    g = as_graph(graph)
    todo = list(range(len(g.ops))) if ops is None else list(ops)
    n = len(todo)
    lo = {j: head[j] for j in todo}
    hi = {j: target - tail[j] for j in todo}
    if any(hi[j] < lo[j] for j in todo):
        return False
    width = n + 1 if g.issue_width is None else g.issue_width
    busy = busy or {}
    kind = {}  # (unit, cycles after issue) of each operation's slot; None: issue slot only
    for j in todo:
        op = g.ops[j]
        if len(op.reservations) == 1:
            kind[j] = (op.reservations[0].unit, op.reservations[0].offset)
        else:
            kind[j] = None

    def free_issue(t: int) -> int:
        return width - busy.get(ISSUE, {}).get(t, 0)

    def free_unit(j: int, t: int) -> int:  # free places of j's unit when j issues in cycle t
        unit, offset = kind[j]
        return g.units[unit] - busy.get(unit, {}).get(t + offset, 0)

    def room(j: int, t: int) -> bool:
        return free_issue(t) > 0 and (kind[j] is None or free_unit(j, t) > 0)

    # residual graph: node -> {neighbour: capacity}
    cap: dict = {}

    def edge(a, b, c):
        cap.setdefault(a, {})[b] = cap.get(a, {}).get(b, 0) + c
        cap.setdefault(b, {}).setdefault(a, 0)

    for j in todo:
        edge("s", ("j", j), 1)
        for t in range(lo[j], hi[j] + 1):
            if not room(j, t):
                continue
            if kind[j] is None:
                edge(("j", j), ("t", t), 1)
            else:
                slot = ("u", kind[j][0], t)
                edge(("j", j), slot, 1)
                if ("t", t) not in cap[slot]:
                    edge(slot, ("t", t), free_unit(j, t))
            if "z" not in cap.get(("t", t), {}):
                edge(("t", t), "z", free_issue(t))

    def push(path):
        for a, b in zip(path, path[1:]):  # noqa: B905 - consecutive pairs
            cap[a][b] -= 1
            cap[b][a] += 1

    # greedy start: earliest deadline first, each operation in the first cycle with room
    flow = 0
    for j in sorted(todo, key=lambda j: (hi[j], lo[j])):
        for t in range(lo[j], hi[j] + 1):
            if not room(j, t):
                continue
            path = ["s", ("j", j)]
            if kind[j] is not None:
                path.append(("u", kind[j][0], t))
            path += [("t", t), "z"]
            if all(cap[a][b] > 0 for a, b in zip(path, path[1:])):  # noqa: B905
                push(path)
                flow += 1
                break
    while flow < n:  # augmenting paths (breadth first)
        parent = {"s": None}
        queue = ["s"]
        for a in queue:
            if "z" in parent:
                break
            for b, c in cap[a].items():
                if c > 0 and b not in parent:
                    parent[b] = a
                    queue.append(b)
        if "z" not in parent:
            return False
        path = ["z"]
        while path[-1] != "s":
            path.append(parent[path[-1]])
        push(path[::-1])
        flow += 1
    return True


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
    "flow_feasible",
    "heads_and_tails",
    "heights",
    "issue_width_bound",
    "jackson_bound",
    "lower_bound",
    "one_iteration",
    "relaxed_bounds",
    "strong_lower_bound",
    "unit_bounds",
]
