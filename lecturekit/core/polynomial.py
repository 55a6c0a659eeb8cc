"""When scheduling is easy: the polynomial special cases, and where the hardness begins.

Chapter 05 shows that finding the shortest schedule is NP-hard in general. Two classic results
say when it is not, and in both the optimal algorithm is an ordinary list scheduler with a
well-chosen priority (:mod:`.priorities`):

**Hu's algorithm** (T. C. Hu, *Parallel sequencing and assembly line problems*, Operations
Research 9, 1961). Unit-time tasks whose precedences form an *in-forest* (every task has at most
one successor: an assembly line, an expression tree), on any number ``m`` of identical
processors: scheduling the task with the highest *level* (the longest path to the end) first is
optimal. On the course's graphs with unit latencies this is the height priority of chapter 04.

**The Coffman–Graham algorithm** (E. G. Coffman and R. L. Graham, *Optimal scheduling for
two-processor systems*, Acta Informatica 1, 1972). Unit-time tasks with *any* precedences on
*two* processors: label the tasks from the sinks up, each time giving the next label to the task
whose successors' labels, highest first, are lexicographically smallest; scheduling the highest
label first is optimal. (Fujii, Kasami and Ninomiya had a polynomial algorithm for two
processors in 1969, by matching.)

Where they stop being optimal, the problem becomes hard or open — exactly as chapter 05 states:

* ``m`` processors with ``m`` part of the input and arbitrary precedences: NP-complete (J. D.
  Ullman, *NP-complete scheduling problems*, JCSS 10, 1975). Hu's rule is not optimal on general
  DAGs, even with two processors.
* any *fixed* ``m >= 3``: open (listed in Garey and Johnson, 1979, and still open);
  Coffman–Graham is no longer optimal there (it is within ``2 - 2/m`` of the optimum: Lam and
  Sethi, SIAM J. Computing 6, 1977).
* two processors, tasks of one *or two* time units: NP-hard (Ullman 1975).
* latencies: one processor with latencies is already NP-hard (Hennessy and Gross, 1983; see
  chapter 05); Hu's rule on an in-tree with longer latencies is no longer optimal.

A task graph here is a core :class:`~.graph.Graph`: every task holds one of ``m`` processors
(unit ``"proc"`` with capacity ``m``) for its duration, a precedence is an edge whose latency is
the predecessor's duration, and a task's ``tail`` is its duration minus one, so a schedule's
``length`` is the last busy cycle: the makespan ``C_max`` when the first task starts in cycle 1.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..errors import ScheduleError
from ..language import _
from .graph import Edge, Graph, Operation, Reservation
from .list_sched import list_schedule
from .schedule import Schedule

PROCESSOR = "proc"


def task_graph(
    tasks: int | Sequence[str],
    precedences: Iterable[tuple[int, int]],
    processors: int,
    durations: Sequence[int] | None = None,
) -> Graph:
    """Unit-time (or ``durations``-time) tasks with ``precedences`` ``(i, j)`` (j after i) on
    ``processors`` identical processors, as a core Graph (module docstring)."""
    names = [f"T{i + 1}" for i in range(tasks)] if isinstance(tasks, int) else list(tasks)
    n = len(names)
    durations = [1] * n if durations is None else list(durations)
    if len(durations) != n:
        raise ScheduleError(_("{given} durations for {n} tasks").format(given=len(durations), n=n))
    for i, p in enumerate(durations):
        if isinstance(p, bool) or not isinstance(p, int) or p < 1:
            raise ScheduleError(
                _("task {task}: a duration is a whole number >= 1, got {p!r}").format(
                    task=names[i], p=p
                )
            )
    if isinstance(processors, bool) or not isinstance(processors, int) or processors < 1:
        raise ScheduleError(
            _("processors must be a whole number >= 1, got {processors!r}").format(
                processors=processors
            )
        )
    ops = [
        Operation(name, reservations=(Reservation(PROCESSOR, 0, p),), tail=p - 1, kind="task")
        for name, p in zip(names, durations, strict=True)
    ]
    edges = []
    for pair in precedences:
        try:
            i, j = pair
        except (TypeError, ValueError):
            raise ScheduleError(
                _("a precedence is a pair (i, j), got {pair!r}").format(pair=pair)
            ) from None
        if not (isinstance(i, int) and isinstance(j, int) and 0 <= i < n and 0 <= j < n):
            raise ScheduleError(
                _("precedence {pair!r} names a task outside 0..{last}").format(
                    pair=pair, last=n - 1
                )
            )
        edges.append(Edge(i, j, durations[i], "DEP"))
    g = Graph(ops, edges, units={PROCESSOR: processors}, name=f"{processors} processors")
    g.check_acyclic()
    return g


def processors(graph: Graph) -> int:
    """How many processors a task graph has (its ``"proc"`` capacity)."""
    if PROCESSOR not in graph.units:
        raise ScheduleError(_("not a task graph: it has no 'proc' unit (use task_graph)"))
    return graph.units[PROCESSOR]


def unit_times(graph: Graph) -> bool:
    """Whether every task takes one cycle and every precedence has latency 1."""
    return all(
        op.reservations == (Reservation(PROCESSOR, 0, 1),) and op.tail == 0 for op in graph.ops
    ) and all(e.latency == 1 for e in graph.intra_edges())


def is_in_forest(graph: Graph) -> bool:
    """Whether every task has at most one successor (the precedences form an in-forest)."""
    succs: dict[int, set[int]] = {}
    for e in graph.intra_edges():
        succs.setdefault(e.src, set()).add(e.dst)
    return all(len(s) <= 1 for s in succs.values())


def is_out_forest(graph: Graph) -> bool:
    """Whether every task has at most one predecessor (an out-forest)."""
    preds: dict[int, set[int]] = {}
    for e in graph.intra_edges():
        preds.setdefault(e.dst, set()).add(e.src)
    return all(len(p) <= 1 for p in preds.values())


def hu_schedule(graph: Graph, *, check: bool = True) -> Schedule:
    """Hu's algorithm: the list schedule with the highest level first. With ``check`` (the
    default) the graph must be a unit-time in-forest, where the schedule is optimal (Hu 1961);
    ``check=False`` runs the same rule anywhere (to see where it stops being optimal)."""
    processors(graph)
    if check and not unit_times(graph):
        raise ScheduleError(_("Hu's theorem needs unit-time tasks and unit latencies"))
    if check and not is_in_forest(graph):
        raise ScheduleError(
            _(
                "Hu's theorem needs an in-forest (every task with at most one successor); "
                "pass check=False to run the rule anyway"
            )
        )
    s = list_schedule(graph, "hu")
    s.info["optimal_by_theorem"] = check
    return s


def coffman_graham_schedule(graph: Graph, *, check: bool = True) -> Schedule:
    """The Coffman–Graham algorithm: the list schedule with the highest label first. With
    ``check`` (the default) the graph must have unit-time tasks on two processors, where the
    schedule is optimal (Coffman and Graham 1972); ``check=False`` runs it anyway."""
    m = processors(graph)
    if check and not unit_times(graph):
        raise ScheduleError(
            _("the Coffman-Graham theorem needs unit-time tasks and unit latencies")
        )
    if check and m != 2:
        raise ScheduleError(
            _(
                "the Coffman-Graham theorem is about two processors, this graph has "
                "{m}; pass check=False to run the algorithm anyway"
            ).format(m=m)
        )
    s = list_schedule(graph, "coffman_graham")
    s.info["optimal_by_theorem"] = check
    return s


__all__ = [
    "PROCESSOR",
    "coffman_graham_schedule",
    "hu_schedule",
    "is_in_forest",
    "is_out_forest",
    "processors",
    "task_graph",
    "unit_times",
]
