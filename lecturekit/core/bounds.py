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
from .verify import is_legal

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
            if v is not None:  # None: no issue width and no unit among them
                head[j] = max(head[j], v)
    for pos in range(n - 1, -1, -1):
        i = topo[pos]
        for d, lat in succs[i]:
            tail[i] = max(tail[i], lat + tail[d])
        dist = _longest_paths(i, succs, (topo[k] for k in range(pos, n)))  # from i
        if len(dist) > 1:
            v = _relaxed_max(g, ((j, d, tail[j]) for j, d in dist.items()))
            if v is not None:
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
    Operations of one unit whose reservations start at different offsets after issue take
    slots of different kinds (unit, offset, cycle), so two of them may meet in one busy cycle
    of the unit: forgotten too (until issue 30 they shared the slot of their issue cycle, which
    could refute a feasible target on such graphs; the search asks only where every offset is
    the same, ``uniform_reservations``, and there both agree). ``head`` and ``tail`` are
    indexed by operation (lists or mappings); ``ops`` restricts the problem to some operations
    (default: all). ``busy`` gives the slots already taken, per cycle, of the issue slots (key
    ``ISSUE``) and of each unit (as for :func:`relaxed_bounds`): the exhaustive search asks
    whether what is left of a partial schedule still fits.
    """
    return flow_assignment(graph, head, tail, target, ops, busy) is not None


def flow_assignment(
    graph,
    head,
    tail,
    target: int,
    ops: Iterable[int] | None = None,
    busy: Mapping[str, Mapping[int, int]] | None = None,
) -> dict[int, int] | None:
    """:func:`flow_feasible` with its witness: the issue cycle of every operation in a solution
    of the transportation relaxation ending by ``target`` (resources respected, precedences
    not), or ``None`` when there is none."""
    g = as_graph(graph)
    todo = list(range(len(g.ops))) if ops is None else list(ops)
    flow = _Transportation(g, todo, busy)
    first = {j: head[j] for j in todo}
    last = {j: target - tail[j] for j in todo}
    return dict(flow.where) if flow.solve(first, last) else None


class _Transportation:
    """The transportation relaxation as a maximum flow, kept between questions about the same
    operations with different windows (``solve``): what still fits stays where it is.

    The network: source -> operation -> (unit slot of its issue cycle) -> cycle -> sink, with
    capacities 1, the unit's free places and the free issue slots. The flow is kept as the
    cycle of every placed operation (``where``); the residual edges are read from it when a
    breadth-first search for an augmenting path needs them."""

    def __init__(self, g: Graph, todo: list[int], busy: Mapping[str, Mapping[int, int]] | None):
        self.g, self.todo = g, todo
        self.width = len(todo) + 1 if g.issue_width is None else g.issue_width
        self.busy = busy or {}
        self.kind = {}  # (unit, cycles after issue) of each operation's slot; None: issue only
        for j in todo:
            rs = g.ops[j].reservations
            self.kind[j] = (rs[0].unit, rs[0].offset) if len(rs) == 1 else None
        self.free: dict = {}  # free places of each unit slot and cycle
        self.where: dict[int, int] = {}
        self.members: dict = {}  # unit slot or cycle -> the operations placed through it
        self.options: dict = {}  # operation -> (its window, the slots in it with a free place)

    def slot(self, j: int, t: int):
        kind = self.kind[j]
        return ("t", t) if kind is None else ("s", kind[0], kind[1], t)

    def capacity(self, node) -> int:
        if node not in self.free:
            if node[0] == "t":
                self.free[node] = self.width - self.busy.get(ISSUE, {}).get(node[1], 0)
            else:
                unit, offset, t = node[1:]
                left = self.busy.get(unit, {}).get(t + offset, 0)
                self.free[node] = self.g.units[unit] - left
        return self.free[node]

    def nodes_of(self, j: int, t: int):
        return (("t", t),) if self.kind[j] is None else (self.slot(j, t), ("t", t))

    def move(self, j: int, t: int | None) -> None:  # t None: unplace
        if j in self.where:
            for node in self.nodes_of(j, self.where.pop(j)):
                self.members[node].remove(j)
        if t is not None:
            self.where[j] = t
            for node in self.nodes_of(j, t):
                self.members.setdefault(node, []).append(j)

    def room(self, j: int, t: int) -> bool:
        return all(len(self.members.get(n, ())) < self.capacity(n) for n in self.nodes_of(j, t))

    def solve(self, first, last) -> bool:
        """Whether every operation fits a cycle of its window ``first[j] .. last[j]`` (then
        ``where`` is a witness); what the last call placed stays where its window allows."""
        if any(first[j] > last[j] for j in self.todo):
            return False
        for j, t in list(self.where.items()):
            if not first[j] <= t <= last[j]:
                self.move(j, None)
        options = self.options

        def slots_of(j: int) -> list:  # the slots of j's window with a free place
            if options.get(j, (None,))[0] != (first[j], last[j]):
                cycles = (self.slot(j, t) for t in range(first[j], last[j] + 1))
                slots = [s for s in cycles if self.capacity(s) > 0 and self.capacity(("t", s[-1]))]
                options[j] = ((first[j], last[j]), slots)
            return options[j][1]

        # a start: earliest deadline first, the first cycle with room
        for j in sorted((j for j in self.todo if j not in self.where), key=lambda j: last[j]):
            for s in slots_of(j):
                if self.room(j, s[-1]):
                    self.move(j, s[-1])
                    break
        members = self.members
        while len(self.where) < len(self.todo):  # augmenting paths from every unplaced one
            parent: dict = {("j", j): None for j in self.todo if j not in self.where}
            queue = list(parent)
            end = None
            for node in queue:
                if node[0] == "j":  # an operation: to the slot of any other cycle of its window
                    here = self.where.get(node[1])
                    nexts = [s for s in slots_of(node[1]) if s[-1] != here]
                elif node[0] == "s":  # a unit slot: on to its cycle if it has room, or back
                    # to an operation placed through it (which then moves elsewhere)
                    nexts = [("j", k) for k in members.get(node, ())]
                    if len(members.get(node, ())) < self.capacity(node):
                        nexts.append(("t", node[-1]))
                else:  # a cycle: to the sink if it has room, else back through what it holds
                    if len(members.get(node, ())) < self.capacity(node):
                        end = node
                        break
                    held = members.get(node, ())
                    nexts = [self.slot(k, node[1]) if self.kind[k] else ("j", k) for k in held]
                for nxt in nexts:
                    if nxt not in parent:
                        parent[nxt] = node
                        queue.append(nxt)
            if end is None:
                return False  # the flow is maximal and some operation has no place
            path = [end]
            while parent[path[-1]] is not None:
                path.append(parent[path[-1]])
            path.reverse()
            for node, nxt in zip(path, path[1:]):  # noqa: B905 - consecutive pairs
                if node[0] == "j":  # an operation on the path moves to the cycle after it
                    self.move(node[1], nxt[-1])
        return True


def _latency_lists(g: Graph):
    """(successors, predecessors) of every operation as (operation, latency) pairs."""
    succs: list[list[tuple[int, int]]] = [[] for _ in g.ops]
    preds: list[list[tuple[int, int]]] = [[] for _ in g.ops]
    for (s, d), lat in g.delays().items():
        succs[s].append((d, lat))
        preds[d].append((s, lat))
    return succs, preds


def _narrow(first: list[int], last: list[int], j: int, succs, preds) -> bool:
    """Carry a change of ``j``'s window along the latencies, in place: a later first cycle to
    its successors (``start[d] >= start[i] + latency``), an earlier last cycle to its
    predecessors, and on from each window that changed. False when a window becomes empty."""
    work = [j]
    while work:
        i = work.pop()
        if first[i] > last[i]:
            return False
        for d, lat in succs[i]:
            if first[i] + lat > first[d]:
                first[d] = first[i] + lat
                work.append(d)
        for p, lat in preds[i]:
            if last[i] - lat < last[p]:
                last[p] = last[i] - lat
                work.append(p)
    return True


def shave_windows(graph, head, tail, target: int, out_of_time=None):
    """Destructive lower bounding: can any legal schedule end by cycle ``target``?

    Every operation ``j`` must then issue in its window ``head[j] .. target - tail[j]``. The
    windows are narrowed by *shaving*: pretend ``j`` issues in the first cycle of its window,
    narrow the other windows by the latencies (a predecessor ``i`` issues by ``start[j] -
    latency``, a successor no earlier than ``start[j] + latency``) and ask the transportation
    relaxation (every resource at once, no precedence; :func:`flow_feasible`) whether every
    operation still has room. If not, no schedule ending by ``target`` issues ``j`` there, and
    the first cycle is cut off; the same from the last cycle of each window; round after round
    until nothing changes. Returns ``None`` when some window becomes empty: no legal schedule
    ends by ``target``, so ``target + 1`` is a lower bound. Otherwise the narrowed windows
    ``(first, last)``: every legal schedule ending by ``target`` issues each ``j`` in
    ``first[j] .. last[j]`` (a search for such a schedule may use them as heads and tails).
    ``out_of_time()``, if given, is asked before each test; when it says so, the windows
    narrowed so far are returned.

    The relaxation alone sees each question once; shaving asks it hundreds of times, each
    time with one more operation pinned and the latencies carrying that pin to its
    neighbours, which is what it cannot see by itself. On three ``dual`` blocks of 120 and 150
    instructions (issue 30) the windows at the best earlier bound empty within about 500 to
    800 tests. The flow is kept from test to test: only the operations whose windows a test
    changed move, so a test costs a few augmenting paths.
    """
    g = as_graph(graph)
    n = len(g.ops)
    succs, preds = _latency_lists(g)
    topo = _topo(g)
    flow = _Transportation(g, list(range(n)), None)
    first, last = list(head), [target - q for q in tail]
    if not all(_narrow(first, last, j, succs, preds) for j in topo):
        return None
    if not flow.solve(first, last):
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
                    if side == "first":  # j pinned to the first cycle of its window
                        b[j] = first[j]
                    else:
                        a[j] = last[j]
                    if _narrow(a, b, j, succs, preds) and flow.solve(a, b):
                        break
                    if side == "first":
                        first[j] += 1
                    else:
                        last[j] -= 1
                    changed = True
                    if not _narrow(first, last, j, succs, preds) or not flow.solve(first, last):
                        return None
    return first, last


def schedule_in_windows(graph, first, last, out_of_time=None) -> list[int] | None:
    """Issue cycles of a legal schedule with every operation ``j`` in ``first[j] .. last[j]``
    (windows from :func:`shave_windows`), or ``None`` when none was found.

    The constructive twin of shaving, a depth-first search over issue cycles as a constraint
    solver does it: take the operation whose window starts first (then the narrowest), and
    either pin it to that cycle or postpone it by one; after each step the latencies narrow
    the windows and the transportation relaxation checks that everything still has room.
    When every window is a single cycle the latencies hold (narrowing) and so do the issue
    slots and units where every operation holds at most one unit for one cycle (there the
    relaxation is exact; :func:`~lecturekit.core.verify.is_legal` is the judge: an answer it
    rejects is not returned). Elsewhere, a non-pipelined unit for instance, the relaxation
    lets through pins that are no schedule and the search can take exponential time (on
    random 8-instruction blocks of ``lecture`` it often finds nothing in 5 s): use it where
    it is exact, as the search does. ``out_of_time()`` is asked before each step; ``None`` then too.
    The search of :mod:`lecturekit.core.optimal` places the order sorted by these cycles in
    order, which is no longer (that module docstring's second fact).
    """
    g = as_graph(graph)
    n = len(g.ops)
    succs, preds = _latency_lists(g)
    flow = _Transportation(g, list(range(n)), None)
    stack = [(list(first), list(last))]
    while stack:
        if out_of_time is not None and out_of_time():
            return None
        a, b = stack.pop()
        if not flow.solve(a, b):
            continue
        open_ = [j for j in range(n) if a[j] < b[j]]
        if not open_:
            if is_legal(g, a):
                return a
            continue
        j = min(open_, key=lambda j: (a[j], b[j] - a[j], j))
        later, pinned = (list(a), list(b)), (list(a), list(b))
        later[0][j] += 1  # postponed (tried second: pushed first)
        pinned[1][j] = a[j]
        for child in (later, pinned):
            if _narrow(child[0], child[1], j, succs, preds):
                stack.append(child)
    return None


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
    "schedule_in_windows",
    "shave_windows",
    "strong_lower_bound",
    "unit_bounds",
]
