"""Lower bounds on the initiation interval of a software-pipelined loop (chapter 07).

**ResMII** (resources): in every II cycles one iteration's work must fit on the machine, so a
unit that one iteration keeps busy ``uses`` cycles, with ``count`` copies, needs
``II >= ceil(uses / count)``, and ``n`` instructions issued ``w`` per cycle need
``II >= ceil(n / w)`` (:func:`resource_bounds`, :func:`res_mii`).

**RecMII** (recurrences): a cycle of dependences around the loop with total latency ``L`` over
total iteration distance ``D`` needs ``II >= ceil(L / D)``. :func:`rec_mii` finds the exact bound
as the smallest II for which no cycle has positive weight ``sum(latency - II*distance)``;
:func:`recurrences` lists the cycles so that the binding one can be named
(:func:`critical_recurrence`).

``MII = max(ResMII, RecMII)``: :mod:`lecturekit.loops.modulo` starts its search there.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..core.graph import Edge, Graph
from ..errors import ScheduleError
from ..language import _

#: the resource name of the issue slots in bounds and reservation tables
ISSUE = "issue"


class _OutOfTime(Exception):
    pass


def _clock() -> float:
    import time as _time

    return _time.perf_counter()


def _deadline(time_limit: float | None) -> float | None:
    if time_limit is None:
        return None
    if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)):
        raise ScheduleError(
            _("time_limit must be a number of seconds, got {time_limit!r}").format(
                time_limit=time_limit
            )
        )
    if not 0 <= time_limit < float("inf"):
        raise ScheduleError(
            _("time_limit must be a finite number of seconds >= 0, got {time_limit}").format(
                time_limit=time_limit
            )
        )
    return _clock() + time_limit


# -- lower bounds ------------------------------------------------------------------------------
@dataclass(frozen=True)
class ResourceBound:
    """One iteration keeps ``resource`` busy for ``uses`` cycles; it has ``capacity`` copies
    (issue slots per cycle for ``issue``): II is at least ``bound = ceil(uses / capacity)``."""

    resource: str
    uses: int
    capacity: int
    bound: int

    def describe(self) -> str:
        text = (
            _("{uses} instructions issued / {capacity} per cycle -> II >= {bound}")
            if self.resource == ISSUE
            else _("{uses} busy cycles of unit {resource} / {capacity} per cycle -> II >= {bound}")
        )
        return text.format(
            uses=self.uses, resource=self.resource, capacity=self.capacity, bound=self.bound
        )


@dataclass(frozen=True)
class Recurrence:
    """A cycle of dependences around the loop: ``ops`` in order, ``edges`` taken, total
    ``latency`` over total ``distance``: II is at least ``bound = ceil(latency / distance)``."""

    ops: tuple[int, ...]
    edges: tuple[Edge, ...]
    latency: int
    distance: int
    bound: int

    def cycle(self, graph: Graph) -> str:
        """The cycle as code names it, the same in every language: ``I6 -> I6 (RAW s1)``."""
        parts = self._parts(graph)
        return f"{parts['path']} ({parts['via']})"

    def _parts(self, graph: Graph) -> dict[str, str]:
        return {
            "path": " -> ".join(graph.label(i) for i in (*self.ops, self.ops[0])),
            "via": ", ".join(f"{e.kind} {e.on}" for e in self.edges),
        }

    def describe(self, graph: Graph) -> str:
        return _(
            "{path} ({via}): latency {latency} over distance {distance} -> II >= {bound}"
        ).format(
            **self._parts(graph), latency=self.latency, distance=self.distance, bound=self.bound
        )


def resource_bounds(graph: Graph) -> list[ResourceBound]:
    """The issue-width bound and one bound per unit (see :class:`ResourceBound`)."""
    out = []
    n = len(graph.ops)
    if graph.issue_width is not None:
        out.append(ResourceBound(ISSUE, n, graph.issue_width, -(-n // graph.issue_width)))
    busy: Counter = Counter()
    for op in graph.ops:
        for r in op.reservations:
            busy[r.unit] += r.cycles
    for unit, cap in graph.units.items():
        out.append(ResourceBound(unit, busy[unit], cap, -(-busy[unit] // cap)))
    return out


def res_mii(graph: Graph) -> int:
    """ResMII: the largest resource bound (at least 1)."""
    return max([1] + [b.bound for b in resource_bounds(graph)])


def _positive_cycle(graph: Graph, ii: int, deadline: float | None = None) -> bool:
    """Whether some cycle has positive total weight ``latency - ii*distance`` (Bellman-Ford on
    longest paths from a virtual source)."""
    from collections import deque

    n = len(graph.ops)
    out: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for e in graph.edges:
        out[e.src].append((e.dst, e.latency - ii * e.distance))
    # queue-based Bellman-Ford (SPFA): a node relaxed n times lies on a positive cycle
    dist = [0] * n
    queued = [True] * n
    relaxed = [0] * n
    queue = deque(range(n))
    steps = 0
    while queue:
        steps += 1
        if deadline is not None and steps % 4096 == 0 and _clock() > deadline:
            raise _OutOfTime
        s = queue.popleft()
        queued[s] = False
        for d, w in out[s]:
            if dist[s] + w > dist[d]:
                dist[d] = dist[s] + w
                if not queued[d]:
                    relaxed[d] += 1
                    if relaxed[d] > n:
                        return True
                    queued[d] = True
                    queue.append(d)
    return False


_REC_MII_CACHE: dict = {}


def rec_mii(graph: Graph, deadline: float | None = None) -> int:
    """RecMII: the smallest II at which no recurrence is violated (0 if the loop has none).

    With a ``deadline`` (a ``time.perf_counter()`` value) that passes, the search stops and the
    largest II proven too small plus one is returned: still a lower bound (``_OutOfTime`` is not
    raised)."""
    key = tuple((e.src, e.dst, e.latency, e.distance) for e in graph.edges)
    if key in _REC_MII_CACHE:
        return _REC_MII_CACHE[key]
    if not any(e.distance for e in graph.edges):
        return 0
    lo, hi = 1, max(1, sum(max(0, e.latency) for e in graph.edges))
    try:
        if not _positive_cycle(graph, 0, deadline):
            result = 0
        else:
            step = 1  # gallop up from 1: RecMII is usually small, and checks below it are slow
            while step < hi and _positive_cycle(graph, step, deadline):
                lo, step = step + 1, step * 2
            hi = min(hi, step)
            while lo < hi:
                mid = (lo + hi) // 2
                if _positive_cycle(graph, mid, deadline):
                    lo = mid + 1
                else:
                    hi = mid
            result = lo
    except _OutOfTime:
        return lo  # a lower bound; not cached
    if len(_REC_MII_CACHE) > 256:
        _REC_MII_CACHE.clear()
    _REC_MII_CACHE[key] = result
    return result


def recurrences(graph: Graph, limit: int = 2000) -> list[Recurrence]:
    """The elementary cycles of the dependence graph (at most ``limit``), each with the parallel
    edge that binds most, sorted by bound (largest first)."""
    import networkx as nx  # loaded only when recurrences are listed

    g = nx.DiGraph()
    g.add_nodes_from(range(len(graph.ops)))
    options: dict[tuple[int, int], list[Edge]] = {}
    for e in graph.edges:
        options.setdefault((e.src, e.dst), []).append(e)
        g.add_edge(e.src, e.dst)
    found = []
    for k, cycle in enumerate(nx.simple_cycles(g)):
        if k >= limit:
            break
        pairs = [(cycle[i], cycle[(i + 1) % len(cycle)]) for i in range(len(cycle))]
        best: Recurrence | None = None
        # each pair may have several edges; try the combinations (few in practice)
        combos = [[]]
        for p in pairs:
            combos = [c + [e] for c in combos for e in options[p]][:256]
        for combo in combos:
            lat = sum(e.latency for e in combo)
            dist = sum(e.distance for e in combo)
            if dist == 0:
                continue
            bound = max(0, -(-lat // dist))
            rec = Recurrence(tuple(cycle), tuple(combo), lat, dist, bound)
            if best is None or (bound, lat) > (best.bound, best.latency):
                best = rec
        if best is not None:
            found.append(best)
    best = rec_mii(graph)
    if best and all(r.bound < best for r in found):  # the binding cycle was not listed
        critical = critical_recurrence(graph, best - 1)
        if critical is not None:
            found.append(critical)
    found.sort(key=lambda r: (-r.bound, len(r.ops), r.ops))
    return found


def critical_recurrence(graph: Graph, ii: int) -> Recurrence | None:
    """A recurrence that ``ii`` violates (a cycle of positive weight ``latency - ii*distance``),
    found by Bellman-Ford with parent pointers; ``None`` if ``ii`` violates none."""
    n = len(graph.ops)
    dist = [0] * n
    parent: list[Edge | None] = [None] * n
    last = None
    for _unused in range(n + 1):
        last = None
        for e in graph.edges:
            w = e.latency - ii * e.distance
            if dist[e.src] + w > dist[e.dst]:
                dist[e.dst] = dist[e.src] + w
                parent[e.dst] = e
                last = e.dst
        if last is None:
            return None
    v = last
    for _unused in range(n):  # walk back into the cycle
        v = parent[v].src
    edges, u = [], v
    while True:
        e = parent[u]
        edges.append(e)
        u = e.src
        if u == v:
            break
    edges.reverse()
    lat = sum(e.latency for e in edges)
    d = sum(e.distance for e in edges)
    if d == 0:  # pragma: no cover - distance-0 edges form no cycle
        return None
    return Recurrence(tuple(e.src for e in edges), tuple(edges), lat, d, max(0, -(-lat // d)))


def modulo_heights(graph: Graph, ii: int) -> list[int]:
    """Height of each operation at ``ii``: the longest path to the end of the iteration with
    edge weights ``latency - ii*distance`` (the operation's own tail included). The order in
    which the iterative scheduler and the exact search place operations."""
    n = len(graph.ops)
    h = [op.tail for op in graph.ops]
    edges = [(e.src, e.dst, e.latency - ii * e.distance) for e in graph.edges if e.src != e.dst]
    for _unused in range(n + 1):
        changed = False
        for s, d, w in edges:
            if h[d] + w > h[s]:
                h[s] = h[d] + w
                changed = True
        if not changed:
            break
    return h


__all__ = [
    "modulo_heights",
    "ISSUE",
    "Recurrence",
    "ResourceBound",
    "critical_recurrence",
    "rec_mii",
    "recurrences",
    "res_mii",
    "resource_bounds",
]
