"""The scheduling core's graph: operations competing for resources, joined by latency edges.

The same structure holds a basic block on a pipelined machine (an operation per instruction, a
unit per functional unit, an issue width) and a pipeline-parallel training step (an operation per
forward or backward pass of a micro-batch on a device, a unit per device). That is the lecture's
bridge between its two halves, and the reason there is one verifier and one evaluator.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..language import _

if TYPE_CHECKING:  # networkx loads only in to_networkx and where a cycle must be named
    import networkx as nx

from ..errors import ScheduleError


@dataclass(frozen=True)
class Reservation:
    """An operation started at cycle t holds one slot of ``unit`` for cycles
    ``t + offset`` .. ``t + offset + cycles - 1``."""

    unit: str
    offset: int = 0
    cycles: int = 1


@dataclass(frozen=True)
class Operation:
    """A node: ``name`` is a short label (``I3``, ``F2@1``), ``text`` the long one (the
    instruction); it finishes ``tail`` cycles after it starts; ``kind`` is free-form (an
    operation class, or F/B/W); ``stream`` names the in-order stream it belongs to, if any."""

    name: str
    text: str = ""
    reservations: tuple[Reservation, ...] = ()
    tail: int = 0
    kind: str = ""
    stream: str | None = None


@dataclass(frozen=True)
class Edge:
    """``dst`` may start at the earliest ``latency`` cycles after ``src`` starts
    (``latency - ii * distance`` in a loop whose iterations start every ``ii`` cycles).
    ``kind`` is RAW/WAR/WAW/CTRL for instructions, free-form elsewhere; ``on`` names what the
    dependence is through (a register, a memory operand, an activation)."""

    src: int
    dst: int
    latency: int
    kind: str = "DEP"
    on: str = ""
    distance: int = 0

    def describe(self) -> str:
        """``RAW on r1`` (the kind, and what the dependence is through), in the language spoken."""
        return describe_dependence(self.kind, self.on)


def describe_dependence(kind: str, on: str = "") -> str:
    """``RAW on r1``: a dependence's kind and what it is through (just the kind without one;
    ``on`` is data, a register or a name marked N_ where it was made: "branch", "delay slot")."""
    return _("{kind} on {on}").format(kind=kind, on=_(on)) if on else kind


@dataclass
class Graph:
    """Operations, edges, resource capacities and an issue width (``None`` = unlimited).

    ``earliest`` is the first cycle any operation may start. ``source`` keeps whatever the graph
    was built from (a :class:`~lecturekit.target.deps.DependenceGraph`, a pipeline plan), for
    display.
    """

    ops: list[Operation]
    edges: list[Edge] = field(default_factory=list)
    units: dict[str, int] = field(default_factory=dict)
    issue_width: int | None = None
    earliest: int = 1
    name: str = ""
    source: Any = None

    def __post_init__(self) -> None:
        n = len(self.ops)
        for e in self.edges:
            if not (0 <= e.src < n and 0 <= e.dst < n):
                raise ScheduleError(
                    _("edge {src}->{dst} names an operation that does not exist").format(
                        src=e.src, dst=e.dst
                    )
                )
            if e.distance < 0:
                raise ScheduleError(
                    _("edge {src}->{dst}: negative distance").format(
                        src=self.label(e.src), dst=self.label(e.dst)
                    )
                )
        for i, op in enumerate(self.ops):
            for r in op.reservations:
                if r.unit not in self.units:
                    raise ScheduleError(
                        _(
                            "operation {name} (index {i}) uses unit {unit!r}, which has no "
                            "capacity; units: {units}"
                        ).format(name=op.name, i=i, unit=r.unit, units=sorted(self.units))
                    )
        for unit, count in self.units.items():
            if not isinstance(count, int) or count < 1:
                raise ScheduleError(
                    _("unit {unit!r} must have a capacity of at least 1, got {count!r}").format(
                        unit=unit, count=count
                    )
                )
        if self.issue_width is not None and self.issue_width < 1:
            raise ScheduleError(
                _("issue width must be at least 1, got {issue_width}").format(
                    issue_width=self.issue_width
                )
            )

    def __len__(self) -> int:
        return len(self.ops)

    def label(self, i: int) -> str:
        return self.ops[i].name

    def _adjacency(self) -> tuple[list[list[Edge]], list[list[Edge]]]:
        """Edges into and out of each operation, built once (rebuilt if ``edges`` changes), so
        preds/succs cost O(degree), not O(edges)."""
        key = (id(self.edges), len(self.edges), len(self.ops))
        cached = self.__dict__.get("_adj")
        if cached is None or cached[0] != key:
            preds: list[list[Edge]] = [[] for _ in self.ops]
            succs: list[list[Edge]] = [[] for _ in self.ops]
            for e in self.edges:
                preds[e.dst].append(e)
                succs[e.src].append(e)
            cached = (key, preds, succs)
            self.__dict__["_adj"] = cached
        return cached[1], cached[2]

    def preds(self, i: int) -> list[Edge]:
        return list(self._adjacency()[0][i])

    def succs(self, i: int) -> list[Edge]:
        return list(self._adjacency()[1][i])

    def intra_edges(self) -> list[Edge]:
        """Edges within one iteration (distance 0): these must form a DAG."""
        return [e for e in self.edges if e.distance == 0]

    def delays(self) -> dict[tuple[int, int], int]:
        """The binding latency per ordered pair (max over parallel edges), distance-0 edges only."""
        d: dict[tuple[int, int], int] = {}
        for e in self.edges:
            if not e.distance:
                key = (e.src, e.dst)
                if key not in d or e.latency > d[key]:
                    d[key] = e.latency
        return d

    def to_networkx(self, reduce: bool = False) -> nx.DiGraph:
        """A DiGraph over operation indices with the binding ``latency`` and the list of
        ``edges`` per pair. ``reduce=True`` keeps only the transitive reduction (for drawing)."""
        import networkx as nx

        g = nx.DiGraph()
        for i, op in enumerate(self.ops):
            g.add_node(i, name=op.name, text=op.text, kind=op.kind)
        for e in self.intra_edges():
            if g.has_edge(e.src, e.dst):
                data = g.edges[e.src, e.dst]
                data["edges"].append(e)
                data["latency"] = max(data["latency"], e.latency)
            else:
                g.add_edge(e.src, e.dst, latency=e.latency, edges=[e])
        if reduce:
            if not nx.is_directed_acyclic_graph(g):
                raise ScheduleError(_("the dependence graph has a cycle, so it has no reduction"))
            red = nx.transitive_reduction(g)
            red.add_nodes_from(g.nodes(data=True))
            red.add_edges_from((u, v, g.edges[u, v]) for u, v in red.edges)
            return red
        return g

    def check_acyclic(self) -> None:
        n = len(self.ops)
        indeg = [0] * n
        succs: list[list[int]] = [[] for _unused in range(n)]
        for e in self.edges:
            if e.distance == 0:
                succs[e.src].append(e.dst)
                indeg[e.dst] += 1
        todo = [i for i in range(n) if indeg[i] == 0]
        seen = 0
        while todo:
            i = todo.pop()
            seen += 1
            for j in succs[i]:
                indeg[j] -= 1
                if indeg[j] == 0:
                    todo.append(j)
        if seen == n:
            return
        import networkx as nx  # only to name the cycle

        g = self.to_networkx()
        try:
            cycle = nx.find_cycle(g)
        except nx.NetworkXNoCycle:
            return
        names = (
            " -> ".join(self.label(u) for u, _unused in cycle) + f" -> {self.label(cycle[0][0])}"
        )
        raise ScheduleError(_("dependences form a cycle: {names}").format(names=names))

    def topological_order(self) -> list[int]:
        """A topological order, smallest index first among the ready ones (program order)."""
        import heapq

        preds, succs = self._adjacency()
        waiting = [sum(1 for e in p if e.distance == 0) for p in preds]
        ready = [i for i, k in enumerate(waiting) if k == 0]
        heapq.heapify(ready)
        order = []
        while ready:  # Kahn's algorithm, smallest index first: O(edges log n)
            v = heapq.heappop(ready)
            order.append(v)
            for e in succs[v]:
                if e.distance == 0:
                    waiting[e.dst] -= 1
                    if waiting[e.dst] == 0:
                        heapq.heappush(ready, e.dst)
        if len(order) < len(self.ops):
            self.check_acyclic()  # names the cycle
            raise ScheduleError(_("the dependences (distance 0) form a cycle"))
        return order

    def finish_of(self, i: int, start: int) -> int:
        return start + self.ops[i].tail
