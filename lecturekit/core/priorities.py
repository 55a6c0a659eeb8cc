"""The priorities of list scheduling: which ready operation goes first (:mod:`.list_sched`).

The lecture's three heuristics (``PRIORITIES``):

``height`` -- "weight the DAG! (edge weights are instruction latencies)" (对 DAG 进行加权调整)
    the latency-weighted height: the cycles from the operation's issue until the block can end,
    along the longest latency path (:func:`lecturekit.core.bounds.heights`). Operations on the
    critical path go first.
``successors`` / ``descendants`` -- "more dependents first" (将依赖关系较多的指令安排在前)
    how many operations wait directly on this one (immediate successors), or at all (every
    operation reachable from it).
``noninterfering`` -- "run to completion without interference first"
    (将可以不受干扰地运行完成的指令安排在会造成干扰的指令之前)
    The conventional reading (Gibbons & Muchnick 1986; Krishnamurthy's survey; Muchnick's
    textbook, section 17.1.2), where "interference" is an *interlock* (a stall). It has two
    halves. (1) Never issue an instruction that would interlock now: one whose operands have
    not arrived or whose unit is busy. The cycle-driven ready list already keeps such
    instructions out, so this half is the same for every priority. (2) Among the ready ones,
    prefer the instructions that would otherwise cause their successors to interlock: those
    whose results are waited for longest, that is the largest latency on an edge to a
    successor (long-latency producers first: a load or a multiply before an add whose result
    is needed in the next cycle, and any producer before an instruction nobody waits for).
    Issued early, such an instruction has its latency covered by the instructions issued
    after it. The value is ``max(latency of i -> j)`` over i's successors (0 with none); ties
    go to the original order. Unlike the height, it looks one edge ahead only.
``original`` -- program order
    the order the instructions were written in (lowest index first): no reordering beyond what
    the ready list does.

Ties are always broken by the original order (the lower index first). A user-supplied priority
is a function ``f(graph, i) -> number`` (higher goes first); :func:`resolve_priority` turns a
name or such a function into one value per operation.

The polynomial special cases (``THEORY_PRIORITIES``, chapter 13): ``hu`` (Hu's levels) and
``coffman_graham`` (the Coffman–Graham labels), see :mod:`lecturekit.core.polynomial`.

Beyond the lecture (``MORE_PRIORITIES``)
----------------------------------------
The classic heuristics above stay as they are taught (``PRIORITIES`` holds exactly them). What
the literature does better is offered under its own names, traced like the others:

``height_descendants`` -- documented tie-breaking
    the height, then (among equal heights) the number of descendants, then program order. A
    value is the pair ``(height, descendants)``; the trace says "height 8, 3 descendant(s)".
``bottleneck`` -- a priority that knows the bottleneck unit (for multi-unit machines: ``dual``)
    the *resource-constrained height* (the ``rheight`` of Langevin and Cerny / the backward
    Rim-Jain bound): the cycles from the operation's issue until the block can end, counting
    not only the longest latency path below it but also that its descendants must share the
    issue slots and every unit. For each resource it is the relaxed one-resource bound
    (:func:`~lecturekit.core.bounds.jackson_bound`) of the operation's descendants, each
    released at its longest-path distance from the operation. Where a unit is the bottleneck
    (the memory port of ``dual`` under a run of loads) this exceeds the height and those chains
    go first. Ties: the height, then the load of the operation's unit (busy cycles per slot over
    the block: the bottleneck unit's operations first), then descendants, then program order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from ..errors import ScheduleError
from ..language import N_, _
from .bounds import _topo, as_graph, heights, jackson_bound
from .graph import Graph


@dataclass(frozen=True)
class Priority:
    """A named priority function: ``compute(graph)`` gives one number per operation (higher is
    scheduled first); ``says(v)`` words a value ("height 8"), ``best(v)`` the winning value
    ("highest height 8"), for the reasons in a trace."""

    name: str
    heuristic: str
    compute: Callable[[Graph], list[float]]
    says: Callable[[str], str]
    best: Callable[[str], str]


def _successor_counts(graph: Graph) -> list[int]:
    succs: dict[int, set[int]] = {}
    for e in graph.intra_edges():
        succs.setdefault(e.src, set()).add(e.dst)
    return [len(succs.get(i, ())) for i in range(len(graph.ops))]


def _descendant_counts(graph: Graph) -> list[int]:
    succs: dict[int, set[int]] = {}
    for e in graph.intra_edges():
        succs.setdefault(e.src, set()).add(e.dst)
    below: dict[int, set[int]] = {}
    for i in reversed(_topo(graph)):
        reach: set[int] = set()
        for d in succs.get(i, ()):
            reach.add(d)
            reach |= below[d]
        below[i] = reach
    return [len(below[i]) for i in range(len(graph.ops))]


def _noninterfering(graph: Graph) -> list[int]:
    """The longest latency from an operation to one of its successors (0 with none): a successor
    issued right behind it would interlock for that many cycles minus one."""
    out = [0] * len(graph.ops)
    for (s, _d), lat in graph.delays().items():
        out[s] = max(out[s], lat)
    return out


def _original(graph: Graph) -> list[int]:
    return [-i for i in range(len(graph.ops))]


PRIORITIES: dict[str, Priority] = {
    "height": Priority(
        "height",
        N_("weight the DAG: longest latency path to the end first (对 DAG 进行加权调整)"),
        lambda g: heights(g),
        lambda v: _("height {v}").format(v=v),
        lambda v: _("highest height {v}").format(v=v),
    ),
    "successors": Priority(
        "successors",
        N_("more dependents first: immediate successors (依赖关系较多的指令在前)"),
        _successor_counts,
        lambda v: _("{v} successor(s)").format(v=v),
        lambda v: _("most successors ({v})").format(v=v),
    ),
    "descendants": Priority(
        "descendants",
        N_("more dependents first: all operations that depend on it (依赖关系较多的指令在前)"),
        _descendant_counts,
        lambda v: _("{v} descendant(s)").format(v=v),
        lambda v: _("most descendants ({v})").format(v=v),
    ),
    "noninterfering": Priority(
        "noninterfering",
        N_(
            "run to completion without interference first: never issue an instruction that would "
            "interlock, and prefer those whose successors wait longest for them "
            "(不受干扰地运行完成的指令在前)"
        ),
        _noninterfering,
        lambda v: _("latency {v} to a successor").format(v=v),
        lambda v: _("longest latency to a successor ({v})").format(v=v),
    ),
    "original": Priority(
        "original",
        N_("program order: no priority beyond readiness"),
        _original,
        lambda v: _("program order"),
        lambda v: _("first in program order"),
    ),
}


def _height_descendants(graph: Graph) -> list[tuple[int, int]]:
    return list(zip(heights(graph), _descendant_counts(graph), strict=True))


def _longest_from(graph: Graph, i: int, succs: dict[int, list[tuple[int, int]]], topo_pos):
    """Longest-path distance from ``i`` to every operation reachable from it (``i`` itself: 0)."""
    dist = {i: 0}
    for j in sorted(_reachable(i, succs), key=topo_pos.__getitem__):
        if j not in dist:
            continue
        for d, lat in succs.get(j, ()):
            if dist.get(d, -1) < dist[j] + lat:
                dist[d] = dist[j] + lat
    return dist


def _reachable(i: int, succs) -> set[int]:
    seen = {i}
    stack = [i]
    while stack:
        j = stack.pop()
        for d, _unused in succs.get(j, ()):
            if d not in seen:
                seen.add(d)
                stack.append(d)
    return seen


def resource_heights(graph) -> list[int]:
    """The resource-constrained height of every operation: a lower bound on the cycles from its
    issue until the block can end, counting its latency paths (the height) *and* that it and
    its descendants share the issue slots and each unit (one relaxed one-resource problem per
    resource, each descendant released at its longest-path distance; see ``bottleneck``)."""
    g = as_graph(graph)
    h = heights(g)
    succs: dict[int, list[tuple[int, int]]] = {}
    for (src, d), lat in g.delays().items():
        succs.setdefault(src, []).append((d, lat))
    topo = _topo(g)
    pos = {j: k for k, j in enumerate(topo)}
    out = list(h)
    for i in range(len(g.ops)):
        if not succs.get(i):
            continue
        dist = _longest_from(g, i, succs, pos)
        if g.issue_width is not None:
            v = jackson_bound(((dist[j], h[j]) for j in dist), g.issue_width)
            out[i] = max(out[i], v or 0)
        jobs: dict[str, list[tuple[int, int]]] = {}
        for j, dj in dist.items():
            for r in g.ops[j].reservations:
                for k in range(r.cycles):
                    jobs.setdefault(r.unit, []).append((dj + r.offset + k, h[j] - r.offset - k))
        for unit, lst in jobs.items():
            v = jackson_bound(lst, g.units[unit])
            out[i] = max(out[i], v or 0)
    return out


def _unit_loads(graph: Graph) -> list[float]:
    """Per operation: the heaviest load (busy cycles per slot over the block) of the units it
    uses, the issue slots counted as one more resource."""
    busy: Counter = Counter()
    for op in graph.ops:
        for r in op.reservations:
            busy[r.unit] += r.cycles
    issue = len(graph.ops) / graph.issue_width if graph.issue_width else 0
    out = []
    for op in graph.ops:
        loads = [busy[r.unit] / graph.units[r.unit] for r in op.reservations]
        out.append(round(max(loads + [issue]), 3))
    return out


def _bottleneck(graph: Graph) -> list[tuple]:
    return list(
        zip(
            resource_heights(graph),
            heights(graph),
            _unit_loads(graph),
            _descendant_counts(graph),
            strict=True,
        )
    )


def _says_height_descendants(v: str) -> str:
    h, d = v.split(", ")
    return _("height {h}, {d} descendant(s)").format(h=h, d=d)


def _says_bottleneck(v: str) -> str:
    r, h, load, d = v.split(", ")
    return _("resource height {r}, height {h}, unit load {load}, {d} descendant(s)").format(
        r=r, h=h, load=load, d=d
    )


#: Priorities beyond the lecture's (see the module docstring). ``list_schedule`` accepts their
#: names like those of ``PRIORITIES``; they are kept apart so that the lecture's tables, which
#: compare ``PRIORITIES``, stay as they are taught.
MORE_PRIORITIES: dict[str, Priority] = {
    "height_descendants": Priority(
        "height_descendants",
        N_("the height, ties broken by descendants, then by program order"),
        _height_descendants,
        _says_height_descendants,
        lambda v: _("highest {says}").format(says=_says_height_descendants(v)),
    ),
    "bottleneck": Priority(
        "bottleneck",
        N_(
            "resource-constrained height: the latency path below an operation and the work its "
            "descendants put on the busiest unit or the issue slots; ties by height, then by the "
            "load of the operation's unit, descendants, program order"
        ),
        _bottleneck,
        _says_bottleneck,
        lambda v: _("highest {says}").format(says=_says_bottleneck(v)),
    ),
}


def hu_levels(graph) -> list[int]:
    """Hu's level of every operation: the number of operations on the longest path from it to
    an operation with no successor (itself included), every edge counted once whatever its
    latency. On a graph of unit-time tasks with unit latencies it is the height plus one, so
    Hu's algorithm is chapter 04's height priority there."""
    g = as_graph(graph)
    succs: dict[int, set[int]] = {}
    for e in g.intra_edges():
        succs.setdefault(e.src, set()).add(e.dst)
    level = [1] * len(g.ops)
    for i in reversed(_topo(g)):
        level[i] = 1 + max((level[j] for j in succs.get(i, ())), default=0)
    return level


def coffman_graham_labels(graph) -> list[int]:
    """The Coffman–Graham labels 1..n (higher is scheduled first).

    On the transitive reduction of the graph (the edges implied by others dropped), label the
    operations one at a time, from the sinks up: among the operations whose successors are all
    labelled, the next label goes to the one whose successors' labels, sorted from the highest
    down, form the lexicographically smallest sequence (a sequence that is a prefix of another is
    the smaller; ties go to the lower index). List scheduling with these labels as the priority
    is optimal for unit-time tasks on two processors (Coffman and Graham, Acta Informatica 1,
    1972)."""
    g = as_graph(graph)
    n = len(g.ops)
    if n == 0:
        return []
    red = g.to_networkx(reduce=True)
    succs = {i: set(red.successors(i)) for i in range(n)}
    label = [0] * n
    for k in range(1, n + 1):
        best = None
        for i in range(n):
            if label[i] or any(not label[j] for j in succs[i]):
                continue
            key = (tuple(sorted((label[j] for j in succs[i]), reverse=True)), i)
            if best is None or key < best:
                best = key
        label[best[1]] = k
    return label


#: the priorities of the polynomial special cases (:mod:`lecturekit.core.polynomial`): list
#: scheduling with them is optimal where their theorems hold, and only there
THEORY_PRIORITIES: dict[str, Priority] = {
    "hu": Priority(
        "hu",
        N_(
            "Hu (1961): the highest level first (operations on the longest path to the end); "
            "optimal for unit-time in-forests on any number of processors"
        ),
        hu_levels,
        lambda v: _("level {v}").format(v=v),
        lambda v: _("highest level {v}").format(v=v),
    ),
    "coffman_graham": Priority(
        "coffman_graham",
        N_(
            "Coffman and Graham (1972): the highest label first; optimal for unit-time tasks on "
            "two processors"
        ),
        coffman_graham_labels,
        lambda v: _("label {v}").format(v=v),
        lambda v: _("highest label {v}").format(v=v),
    ),
}


def _all_priorities() -> dict[str, Priority]:
    return {**PRIORITIES, **MORE_PRIORITIES, **THEORY_PRIORITIES}


def _custom_says(v: str) -> str:
    return _("priority {v}").format(v=v)


def _custom_best(v: str) -> str:
    return _("highest priority {v}").format(v=v)


def resolve_priority(
    graph, priority: str | Callable = "height"
) -> tuple[str, list[float], Priority]:
    """``(name, values, Priority)`` for a priority name or a function ``f(graph, i) -> number``."""
    g = as_graph(graph)
    if isinstance(priority, str):
        known = _all_priorities()
        if priority not in known:
            raise ScheduleError(
                _(
                    "unknown priority {priority!r}; choose one of {join} (or pass a "
                    "function f(graph, i) -> number)"
                ).format(priority=priority, join=", ".join(known))
            )
        p = known[priority]
        return p.name, list(p.compute(g)), p
    if not callable(priority):
        raise ScheduleError(
            _(
                "a priority is a name ({join}) or a function f(graph, i) -> number, got {name}"
            ).format(join=", ".join(PRIORITIES), name=type(priority).__name__)
        )
    name = getattr(priority, "__name__", "custom")
    name = "custom" if name == "<lambda>" else name
    values = []
    for i in range(len(g.ops)):
        v = priority(g, i)
        if isinstance(v, bool) or not isinstance(v, int | float):
            raise ScheduleError(
                _(
                    "priority function {name} returned {v!r} for {label}; it must return a number"
                ).format(name=name, v=v, label=g.label(i))
            )
        if v != v:  # NaN
            raise ScheduleError(
                _("priority function {name} returned NaN for {label}").format(
                    name=name, label=g.label(i)
                )
            )
        values.append(v)
    return (
        name,
        values,
        Priority(name, N_("user-supplied"), lambda _g: values, _custom_says, _custom_best),
    )
