"""Evaluating a fixed order on resources: what in-order hardware (or a GPU running its op list)
does with the order it is given.

Each operation starts as early as its place in the order, its dependences, the issue width and
its units allow, and never before the operation ahead of it in the same stream. For one stream
this is the in-order pipeline of the lecture; the cycle-by-cycle simulator in
:mod:`lecturekit.target.pipeline` must agree with it exactly. For several streams (one per GPU) it
is how a pipeline-parallel schedule plays out; a cross-stream wait that can never be satisfied is a
deadlock and is reported as such.

Some in-order hardware adds rules that depend on the order itself, not only on the
dependences: llvm-mca's in-order model writes results back in issue order, so an operation may
not finish before the one issued ahead of it. Such a rule is a set of extra edges between
operations by their place in the order; ``order_edges`` (a function of the graph and one
stream's order) supplies them, and the schedule returned is of the graph with those edges
(:func:`with_order_edges`), so the one verifier checks them too. And some hardware *chooses*
a unit when an operation starts (llvm-mca gives an ALU op on the U74 pipe A or pipe B by a fixed
policy): ``unit_choice`` is that policy, asked where an operation could start and told where it
does; the chosen units join the operation's reservations in the returned schedule's graph.
"""

from __future__ import annotations

import heapq
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from ..errors import DeadlockError, ScheduleError
from ..language import _
from .graph import Edge, Graph, Reservation, describe_dependence
from .schedule import Schedule

#: extra edges a machine's rules add for one stream's issue order: f(graph, order) -> edges
OrderEdges = Callable[[Graph, list[int]], list[Edge]]


@dataclass(frozen=True)
class Wait:
    """Why an operation started later than order and issue width alone allowed.

    ``cause`` is a dependence kind (RAW, WAR, WAW, CTRL, ...), ``"unit"`` (a busy unit) or
    ``"start"`` (not delayed); ``on`` the register/unit; ``waits_for`` the operation waited on.
    ``cycles`` is how many cycles it was held back.
    """

    cause: str
    cycles: int = 0
    on: str = ""
    waits_for: int | None = None

    def describe(self, graph: Graph) -> str:
        if self.cycles == 0:
            return _("no stall")
        if self.cause == "unit":
            return _("{cycles} stall(s): unit {on} busy").format(cycles=self.cycles, on=self.on)
        who = graph.label(self.waits_for) if self.waits_for is not None else "?"
        return _("{cycles} stall(s): {dependence}, waits for {who}").format(
            cycles=self.cycles, dependence=describe_dependence(self.cause, self.on), who=who
        )


def _normalise(graph: Graph, order) -> dict[str, list[int]]:
    if isinstance(order, Mapping):
        streams = {str(k): list(v) for k, v in order.items()}
    elif isinstance(order, Sequence) and not isinstance(order, str):
        streams = {"main": list(order)}
    else:
        raise ScheduleError(
            _("an order is a list of operation indices, got {name}").format(
                name=type(order).__name__
            )
        )
    seen: Counter = Counter()
    n = len(graph.ops)
    for name, ops in streams.items():
        for i in ops:
            if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < n:
                raise ScheduleError(
                    _(
                        "order {name!r} names {i!r}, which is not an operation index 0..{last}"
                    ).format(name=name, i=i, last=n - 1)
                )
            seen[i] += 1
    twice = [graph.label(i) for i, c in seen.items() if c > 1]
    if twice:
        raise ScheduleError(_("the order lists {ops} more than once").format(ops=", ".join(twice)))
    missing = [graph.label(i) for i in range(n) if i not in seen]
    if missing:
        raise ScheduleError(_("the order leaves out {ops}").format(ops=", ".join(missing)))
    return streams


def with_order_edges(graph: Graph, streams: Mapping[str, list[int]], order_edges) -> Graph:
    """``graph`` with the edges ``order_edges`` adds for each stream's order (a new graph: the
    operations, units and width are shared, the edge list is extended)."""
    extra = [e for ops in streams.values() for e in order_edges(graph, list(ops))]
    if not extra:
        return graph
    return Graph(
        graph.ops,
        list(graph.edges) + extra,
        units=graph.units,
        issue_width=graph.issue_width,
        earliest=graph.earliest,
        name=graph.name,
        source=graph.source,
    )


def evaluate(
    graph: Graph,
    order,
    algorithm: str = "program-order",
    *,
    order_edges: OrderEdges | None = None,
    unit_choice=None,
) -> Schedule:
    """Place ``order`` (a list of indices, or a mapping stream -> list) ASAP, in order.

    ``order_edges``: a function ``(graph, stream_order) -> [Edge]`` giving the edges the
    hardware's own rules add for that order (e.g. write-back in issue order); the schedule is
    then of the graph with those edges. ``unit_choice`` (one stream only): an object whose
    ``extra(i, t, free)`` gives the units operation ``i`` would take if it started at ``t``
    (``(unit, offset, cycles)`` each; ``None``: none is free; ``free(unit, first, cycles)``
    says whether a unit has room over those absolute cycles) and whose ``commit(i, t, free)``
    chooses them when it does start there. Raises ScheduleError if a single order puts an
    operation before one it depends on, and DeadlockError if several streams wait on each other
    forever.
    """
    streams = _normalise(graph, order)
    if unit_choice is not None and len(streams) != 1:
        raise ScheduleError(_("unit_choice needs a single order (one stream)"))
    if order_edges is not None:
        graph = with_order_edges(graph, streams, order_edges)
    if len(streams) == 1:
        (only,) = streams.values()
        pos = {op: k for k, op in enumerate(only)}
        for e in graph.intra_edges():
            if pos[e.dst] < pos[e.src]:
                raise ScheduleError(
                    _(
                        "the order puts {dst} before {src}, but it depends on it ({dependence})"
                    ).format(
                        dst=graph.label(e.dst), src=graph.label(e.src), dependence=e.describe()
                    )
                )
    preds = graph._adjacency()[0]  # edges into each operation (read only)
    if unit_choice is None and _each_unit_one_stream(graph, streams):
        start, waits, issued = _place_by_dependences(graph, streams, preds)
        return _schedule(graph, streams, start, waits, issued, algorithm)
    start: dict[int, int] = {}
    waits: dict[int, Wait] = {}
    width = graph.issue_width
    width_used: Counter = Counter()
    used: dict[str, Counter] = {u: Counter() for u in graph.units}  # unit -> cycle -> slots
    heads = {name: 0 for name in streams}
    last_start = {name: graph.earliest for name in streams}
    issued: list[int] = []

    chosen: dict[int, tuple[Reservation, ...]] = {}  # units unit_choice gave an operation

    def free(unit: str, first: int, cycles: int) -> bool:
        busy, cap = used[unit], graph.units[unit]
        return all(busy[c] < cap for c in range(first, first + cycles))

    def fits(i: int, t: int) -> str | None:
        """None if ``i`` may start at ``t`` as far as width and units go, else the busy unit."""
        if width is not None and width_used[t] >= width:
            return "width"
        for r in graph.ops[i].reservations:
            busy, cap = used[r.unit], graph.units[r.unit]
            for c in range(t + r.offset, t + r.offset + r.cycles):
                if busy[c] >= cap:
                    return r.unit
        if unit_choice is not None and unit_choice.extra(i, t, free) is None:
            return "choice"
        return None

    def next_try(i: int, t: int) -> int | None:
        """None if ``i``'s units are free for a start at ``t`` (no issue width); else the next
        start worth trying: one past the last full cycle of the first reservation that has one
        (every start in between would hold that cycle too)."""
        for r in graph.ops[i].reservations:
            busy, cap = used[r.unit], graph.units[r.unit]
            first = t + r.offset
            for c in range(first + r.cycles - 1, first - 1, -1):
                if busy.get(c, 0) >= cap:
                    return c - r.offset + 1
        return None

    def earliest(i: int, stream: str) -> tuple[int, Wait]:
        base = last_start[stream]
        if width is not None:
            while fits(i, base) == "width":  # order and width alone
                base += 1
        t, wait = base, Wait("start")
        for e in preds[i]:
            if e.distance:
                continue
            ready = start[e.src] + e.latency
            if ready > t:
                t, wait = ready, Wait(e.kind, 0, e.on, e.src)
        res = graph.ops[i].reservations
        if width is None and len(res) == 1 and unit_choice is None:
            # one unit, no issue width: while a cycle c of the reservation is full, no start
            # up to c - offset fits either, so jump past the last full cycle of the window (the
            # same start and wait as trying every cycle in turn)
            (r,) = res
            busy, cap = used[r.unit], graph.units[r.unit]
            while True:
                first = t + r.offset
                full = next(
                    (c for c in range(first + r.cycles - 1, first - 1, -1) if busy[c] >= cap), None
                )
                if full is None:
                    break
                if wait.cause in ("start", "unit"):
                    wait = Wait("unit", 0, r.unit)
                t = full - r.offset + 1
        elif width is None:
            # several units: the same jumps, reservation by reservation; the wait names the unit
            # that blocked the last start tried one cycle at a time would have (at t - 1)
            blocked = False
            while (after := next_try(i, t)) is not None:
                t, blocked = after, True
            if blocked and wait.cause in ("start", "unit"):
                wait = Wait("unit", 0, fits(i, t - 1))
        else:
            while (busy := fits(i, t)) is not None:
                if busy != "width" and wait.cause in ("start", "unit"):
                    wait = Wait("unit", 0, busy)
                t += 1
        return t, Wait(wait.cause, t - base, wait.on, wait.waits_for) if t > base else Wait("start")

    names = list(streams)
    # Each stream head's earliest start is cached (in a heap, best first) and recomputed only
    # when something it depends on changed: its stream moved on, a predecessor was placed, or a
    # unit it uses (with an issue width: any issue slot) got busier. Placing n operations on k
    # streams so costs O(n log k) heap steps plus the recomputations, not O(n k) placements.
    unplaced = [sum(1 for e in preds[i] if not e.distance) for i in range(len(graph.ops))]
    succs_of: dict[int, list[int]] = {}
    for e in graph.edges:
        if not e.distance:
            succs_of.setdefault(e.src, []).append(e.dst)
    units_of = [{r.unit for r in op.reservations} for op in graph.ops]
    rank_of = {s: k for k, s in enumerate(names)}
    version = dict.fromkeys(names, 0)
    cached: dict[str, tuple[int, Wait]] = {}
    heap: list[tuple[int, int, int, str]] = []
    stream_of_head: dict[int, str] = {}
    on_unit: dict[str, set[str]] = {}  # unit -> streams whose head uses it
    dirty: set[str] = set()

    def new_head(s: str) -> None:
        if heads[s] < len(streams[s]):
            i = streams[s][heads[s]]
            stream_of_head[i] = s
            for u in units_of[i]:
                on_unit.setdefault(u, set()).add(s)
            if not unplaced[i]:
                dirty.add(s)

    def invalidate(s: str) -> None:
        version[s] += 1
        cached.pop(s, None)
        if not unplaced[streams[s][heads[s]]]:
            dirty.add(s)

    for s in names:
        new_head(s)
    remaining = sum(len(streams[s]) for s in names)
    while remaining:
        for s in dirty:
            i = streams[s][heads[s]]
            cached[s] = earliest(i, s)
            heapq.heappush(heap, (cached[s][0], rank_of[s], version[s], s))
        dirty.clear()
        while heap and heap[0][2] != version[heap[0][3]]:
            heapq.heappop(heap)
        if not heap:
            raise DeadlockError(_deadlock_message(graph, streams, heads, start, preds))
        t, _rank, _v, s = heapq.heappop(heap)
        i = streams[s][heads[s]]
        wait = cached.pop(s)[1]
        version[s] += 1
        remaining -= 1
        del stream_of_head[i]
        for u in units_of[i]:
            on_unit[u].discard(s)
        for j in succs_of.get(i, ()):
            unplaced[j] -= 1
            if j in stream_of_head and stream_of_head[j] != s:
                invalidate(stream_of_head[j])
        if graph.issue_width is not None:
            others = [x for x in names if x != s and heads[x] < len(streams[x])]
        else:
            others = {x for u in units_of[i] for x in on_unit.get(u, ()) if x != s}
        for x in others:
            invalidate(x)
        start[i] = t
        waits[i] = wait
        issued.append(i)
        heads[s] += 1
        last_start[s] = t
        width_used[t] += 1
        for r in graph.ops[i].reservations:
            used[r.unit].update(range(t + r.offset, t + r.offset + r.cycles))
        if unit_choice is not None:
            chosen[i] = tuple(Reservation(*x) for x in unit_choice.commit(i, t, free))
            for r in chosen[i]:
                used[r.unit].update(range(t + r.offset, t + r.offset + r.cycles))
        new_head(s)
    if any(chosen.values()):  # the schedule's graph holds the units that were chosen
        ops = [
            replace(op, reservations=op.reservations + chosen.get(i, ()))
            for i, op in enumerate(graph.ops)
        ]
        graph = Graph(ops, graph.edges, graph.units, graph.issue_width, graph.earliest,
                      graph.name, graph.source)  # fmt: skip
    return _schedule(graph, streams, start, waits, issued, algorithm)


def _schedule(graph, streams, start, waits, issued, algorithm) -> Schedule:
    n = len(graph.ops)
    sched = Schedule(
        graph,
        [start[i] for i in range(n)],
        algorithm=algorithm,
        order=sorted(issued, key=lambda i: start[i]) if len(streams) > 1 else issued,
    )
    sched.explain_by(lambda: [waits[i].describe(graph) for i in range(n)])
    sched.info["waits"] = [waits[i] for i in range(n)]
    sched.info["stalls"] = sum(waits[i].cycles for i in range(n))
    return sched


def _each_unit_one_stream(graph: Graph, streams: dict[str, list[int]]) -> bool:
    """Whether the order is one in which no operation can delay another stream's except
    through a dependence: no issue width, every operation holds one unit of capacity 1 from its
    start for at least one cycle, no other stream's operation uses that unit, and every
    dependence is within an iteration with a latency of at least one cycle. A pipeline-parallel
    schedule is of this kind: a device is a unit, and only that device's stream runs on it."""
    if graph.issue_width is not None:
        return False
    owner: dict[str, str] = {}
    ops, units = graph.ops, graph.units
    for s, order in streams.items():
        # operations often share one reservation tuple: check each distinct one once
        for res in {id(ops[i].reservations): ops[i].reservations for i in order}.values():
            if len(res) != 1:
                return False
            (r,) = res
            if r.offset != 0 or r.cycles < 1 or units[r.unit] != 1:
                return False
            if owner.setdefault(r.unit, s) != s:
                return False
    return all(e.latency >= 1 and not e.distance for e in graph.edges)


def _place_by_dependences(graph, streams, preds):
    """:func:`evaluate`'s placement when :func:`_each_unit_one_stream` holds, in O(n + e).

    There an operation's start depends only on the starts of its predecessors and of the
    operation ahead of it in its stream (its unit is busy exactly until the latest finish of
    the operations ahead of it), so one pass in a topological order of the dependences and the
    stream orders gives every start and every wait exactly as the general loop does. The
    general loop places operations in order of start (latencies and durations are at least
    one cycle, so every operation of another stream starting at cycle t is a stream head
    before the first one is placed) and, for one cycle, by stream rank, then in stream order
    (a stream with several units may start two operations in one cycle): that is the issue
    order."""
    n = len(graph.ops)
    names = list(streams)
    succs = graph._adjacency()[1]  # edges out of each operation (read only)
    stream_of = [0] * n
    place_in_stream = [0] * n
    after = [-1] * n  # the next operation in the same stream
    # predecessors not placed yet (every edge is within the iteration here), the stream's
    # previous operation included
    waiting = [len(p) for p in preds]
    for k, s in enumerate(names):
        order = streams[s]
        for a, b in zip(order, order[1:], strict=False):
            after[a] = b
            waiting[b] += 1
        for pos, i in enumerate(order):
            stream_of[i] = k
            place_in_stream[i] = pos
    ops = graph.ops
    unit_of = [op.reservations[0].unit for op in ops]
    cycles_of = [op.reservations[0].cycles for op in ops]
    free_from = dict.fromkeys(graph.units, graph.earliest)  # first cycle the unit is free
    last_start = [graph.earliest] * len(names)
    start: list = [None] * n
    waits: list = [None] * n
    placed = 0
    not_delayed = Wait("start")
    ready = [order[0] for order in streams.values() if order and not waiting[order[0]]]
    while ready:
        i = ready.pop()
        k = stream_of[i]
        base = last_start[k]
        t, wait = base, None
        for e in preds[i]:
            at = start[e.src] + e.latency
            if at > t:
                t, wait = at, e
        unit = unit_of[i]
        if t < free_from[unit]:
            t = free_from[unit]
            if wait is None:
                wait = unit
        if t == base:
            waits[i] = not_delayed
        elif isinstance(wait, str):  # t > base: a dependence or the unit held it back
            waits[i] = Wait("unit", t - base, wait)
        else:
            waits[i] = Wait(wait.kind, t - base, wait.on, wait.src)
        start[i] = t
        placed += 1
        last_start[k] = t
        free_from[unit] = t + cycles_of[i]
        for e in succs[i]:
            j = e.dst
            waiting[j] -= 1
            if not waiting[j]:
                ready.append(j)
        j = after[i]
        if j >= 0:
            waiting[j] -= 1
            if not waiting[j]:
                ready.append(j)
    if placed < n:
        done = {i: t for i, t in enumerate(start) if t is not None}
        heads = {s: sum(1 for i in streams[s] if i in done) for s in names}
        raise DeadlockError(_deadlock_message(graph, streams, heads, done, preds))
    if len(names) == 1:
        return start, waits, list(streams[names[0]])
    return (
        start,
        waits,
        sorted(range(n), key=lambda i: (start[i], stream_of[i], place_in_stream[i])),
    )


def _deadlock_message(graph, streams, heads, start, preds) -> str:
    parts = []
    for s, ops in streams.items():
        if heads[s] >= len(ops):
            continue
        i = ops[heads[s]]
        missing = [graph.label(e.src) for e in preds[i] if not e.distance and e.src not in start]
        parts.append(
            _("{stream} is stuck at {op}, waiting for {ops}").format(
                stream=s, op=graph.label(i), ops=", ".join(missing)
            )
        )
    return _("deadlock: no stream can make progress: {parts}").format(parts="; ".join(parts))
