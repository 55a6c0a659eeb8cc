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

The exhaustive search (``engine="optsched"``) goes further, at a price only it pays:
:func:`heads_and_tails` raise ``asap`` and ``height`` by the resources recursively;
:func:`flow_feasible` keeps every resource at once (a maximum flow, no precedence); and
:func:`shave_windows`, *destructive lower bounding*, asks "can any schedule end by cycle T?"
and narrows each operation's window ``head .. T - tail`` by pinning it to an end of the window
and asking the relaxations again, with the latencies carrying the pin to its neighbours: an
empty window proves ``T + 1`` a lower bound.
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
    return flow_assignment(graph, head, tail, target, ops, busy) is not None


def flow_assignment(
    graph,
    head,
    tail,
    target: int,
    ops: Iterable[int] | None = None,
    busy: Mapping[str, Mapping[int, int]] | None = None,
    start: Mapping[int, int] | None = None,
) -> dict[int, int] | None:
    """:func:`flow_feasible` with its witness: the issue cycle of every operation in a solution
    of the transportation relaxation ending by ``target`` (resources respected, precedences
    not), or ``None`` when there is none. ``start`` (a previous witness) is kept wherever it is
    still inside the windows, and only the rest is placed anew: the destructive bound asks
    hundreds of slightly different questions in a row."""
    g = as_graph(graph)
    todo = list(range(len(g.ops))) if ops is None else list(ops)
    lo = {j: head[j] for j in todo}
    hi = {j: target - tail[j] for j in todo}
    if any(hi[j] < lo[j] for j in todo):
        return None
    width = len(todo) + 1 if g.issue_width is None else g.issue_width
    busy = busy or {}
    issue_busy = busy.get(ISSUE, {})
    kind = {}  # (unit, cycles after issue) of each operation's slot; None: issue slot only
    for j in todo:
        op = g.ops[j]
        kind[j] = (op.reservations[0].unit, op.reservations[0].offset)
        if len(op.reservations) != 1:
            kind[j] = None

    # The network: source -> operation -> (unit slot of its issue cycle) -> cycle -> sink, with
    # capacities 1, the unit's free places and the free issue slots. The flow is kept as the
    # cycle of every placed operation; the residual edges are found from it when needed.
    def slot(j: int, t: int):
        return ("t", t) if kind[j] is None else ("s", kind[j][0], kind[j][1], t)

    def capacity(node) -> int:  # free places of a unit slot or a cycle
        if node[0] == "t":
            return width - issue_busy.get(node[1], 0)
        unit, offset, t = node[1:]
        return g.units[unit] - busy.get(unit, {}).get(t + offset, 0)

    where: dict[int, int] = {}
    members: dict = {}  # unit slot or cycle -> the operations placed through it

    def move(j: int, t: int) -> None:
        if j in where:
            old = where[j]
            members[("t", old)].remove(j)
            if kind[j] is not None:
                members[slot(j, old)].remove(j)
        where[j] = t
        members.setdefault(("t", t), []).append(j)
        if kind[j] is not None:
            members.setdefault(slot(j, t), []).append(j)

    def room(j: int, t: int) -> bool:
        return all(len(members.get(node, ())) < capacity(node) for node in {slot(j, t), ("t", t)})

    # a start: the previous witness where it still fits, then earliest deadline first
    for j in sorted(todo, key=lambda j: (hi[j], lo[j])):
        if start is not None and j in start and lo[j] <= start[j] <= hi[j] and room(j, start[j]):
            move(j, start[j])
    for j in sorted(todo, key=lambda j: (hi[j], lo[j])):
        if j not in where:
            for t in range(lo[j], hi[j] + 1):
                if room(j, t):
                    move(j, t)
                    break
    while len(where) < len(todo):  # augmenting paths, breadth first from every unplaced one
        parent: dict = {("j", j): None for j in todo if j not in where}
        queue = list(parent)
        end = None
        for node in queue:
            if node[0] == "j":  # an operation: to the slot of any other cycle of its window
                j = node[1]
                nexts = [slot(j, t) for t in range(lo[j], hi[j] + 1) if where.get(j) != t]
                nexts = [s for s in nexts if capacity(s) > 0 and capacity(("t", s[-1])) > 0]
            elif node[0] == "s":  # a unit slot: on to its cycle if it has room, or back to
                # an operation placed through it (which then moves elsewhere)
                nexts = [("j", k) for k in members.get(node, ())]
                if len(members.get(node, ())) < capacity(node):
                    nexts.append(("t", node[-1]))
            else:  # a cycle: to the sink if it has room, else back through what it holds
                if len(members.get(node, ())) < capacity(node):
                    end = node
                    break
                nexts = [slot(k, node[1]) if kind[k] else ("j", k) for k in members.get(node, ())]
            for nxt in nexts:
                if nxt not in parent:
                    parent[nxt] = node
                    queue.append(nxt)
        if end is None:
            return None  # the flow is maximal and some operation has no place
        path = [end]
        while parent[path[-1]] is not None:
            path.append(parent[path[-1]])
        path.reverse()
        for node, nxt in zip(path, path[1:]):  # noqa: B905 - consecutive pairs
            if node[0] == "j":  # an operation on the path moves to the cycle after it
                move(node[1], nxt[-1])
    return dict(where)


def shave_windows(graph, head, tail, target: int, out_of_time=None):
    """Destructive lower bounding: can any legal schedule end by cycle ``target``?

    Every operation ``j`` must then issue in its window ``head[j] .. target - tail[j]``. The
    windows are narrowed by *shaving*: pretend ``j`` issues in the first cycle of its window,
    narrow every other window by the latencies (a predecessor ``i`` issues by ``start[j] -
    latency``, a successor no earlier than ``start[j] + latency``) and ask the relaxations that
    forget precedence: Jackson's rule per resource (:func:`jackson_bound`) and the
    transportation relaxation (:func:`flow_assignment`, all resources at once). If they find no
    room, no schedule ending by ``target`` issues ``j`` there, and the first cycle is cut off;
    the same from the last cycle of each window; round after round until nothing changes.
    Returns ``None`` when some window becomes empty: no legal schedule ends by ``target``, so
    ``target + 1`` is a lower bound. Otherwise the narrowed windows ``(first, last)``: every
    legal schedule ending by ``target`` issues each ``j`` in ``first[j] .. last[j]`` (a search
    for such a schedule may use them as heads and tails). ``out_of_time()``, if given, is asked
    before each test; when it says so, the windows narrowed so far are returned.

    The relaxations alone see each question once; shaving asks them hundreds of times, each
    with one more operation pinned and the latencies carrying that pin to its neighbours,
    which is what they cannot see by themselves. On three ``dual`` blocks of 120 and 150
    instructions (issue 30) the windows at the best earlier bound empty within about 500 to
    800 tests. Each test's flow starts from the last one's witness (``start``), so most cost
    a few augmenting paths. Only meaningful when every reservation of a unit starts at the
    same offset (as :func:`flow_feasible`).
    """
    g = as_graph(graph)
    n = len(g.ops)
    succs: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    preds: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for (s, d), lat in g.delays().items():
        succs[s].append((d, lat))
        preds[d].append((s, lat))
    topo = _topo(g)

    def narrow(first: list[int], last: list[int]) -> bool:  # by the latencies; False: empty
        for j in topo:
            for s, lat in preds[j]:
                if first[s] + lat > first[j]:
                    first[j] = first[s] + lat
        for j in reversed(topo):
            for d, lat in succs[j]:
                if last[d] - lat < last[j]:
                    last[j] = last[d] - lat
        return all(a <= b for a, b in zip(first, last, strict=True))

    witness = None

    def room(first: list[int], last: list[int]) -> bool:  # may every j issue in its window?
        nonlocal witness
        if not narrow(first, last):
            return False
        if witness is not None and all(
            a <= witness[j] <= b for j, (a, b) in enumerate(zip(first, last, strict=True))
        ):
            return True  # the last witness still fits
        left = [target - b for b in last]
        value = _relaxed_max(g, ((j, first[j], left[j]) for j in range(n)))
        if value is not None and value > target:
            return False
        found = flow_assignment(g, first, left, target, start=witness)
        if found is None:
            return False
        witness = found
        return True

    first, last = list(head), [target - q for q in tail]
    if not room(first, last):
        return None
    changed = True
    while changed:
        changed = False
        for side in ("first", "last"):
            for j in topo if side == "first" else reversed(topo):
                while True:
                    if out_of_time is not None and out_of_time():
                        return first, last
                    a, b = list(first), list(last)
                    if side == "first":
                        b[j] = first[j]  # j pinned to the first cycle of its window
                    else:
                        a[j] = last[j]
                    if room(a, b):
                        break
                    if side == "first":
                        first[j] += 1
                    else:
                        last[j] -= 1
                    changed = True
                    if not narrow(first, last):
                        return None
    return first, last


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
    "flow_assignment",
    "flow_feasible",
    "heads_and_tails",
    "heights",
    "issue_width_bound",
    "jackson_bound",
    "lower_bound",
    "one_iteration",
    "relaxed_bounds",
    "shave_windows",
    "strong_lower_bound",
    "unit_bounds",
]
