"""List scheduling: the lecture's practical answer to an NP-hard problem (数据依赖指导下的指令调度).

The algorithm walks the cycles one by one, starting at the first issue cycle, keeping a *ready
list*: the operations whose predecessors have all been scheduled *and* whose latencies have
elapsed, so that they can start in this cycle without waiting. In each cycle it takes ready
operations, highest priority first, as long as the issue width and their functional units allow,
then moves to the next cycle. An operation whose unit is busy stays in the ready list; when no
operation is ready, the cycle is a stall.

The priority is what the lecture's three heuristics are about (``PRIORITIES``):

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

Ties are always broken by the original order (the lower index first), and a trace step says so
when it happened. A user-supplied priority is a function ``f(graph, i) -> number`` (higher goes
first).

The result is a :class:`~lecturekit.core.Schedule` of issue cycles that has passed
:func:`~lecturekit.core.verify` (for a loop body: one iteration, loop-carried edges ignored).
Its issue order, fed to in-order hardware (:func:`~lecturekit.core.evaluate` or
:func:`lecturekit.pipeline.simulate`), runs in the same number of cycles or fewer: the hardware
issues each instruction as early as it can, never later than the list scheduler planned.

With ``trace=True`` (or :func:`list_schedule_trace`) every cycle is recorded as a
:class:`ListStep`: the ready list with each operation's priority, what was chosen and why ("highest
height 8", "tie broken by original order"), what was ready but blocked ("unit mul busy", "issue
width 1 used up"), and what is still waiting ("nothing ready: stall").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from ..errors import ScheduleError
from .bounds import _topo, as_graph, heights, lower_bound, one_iteration
from .graph import Graph
from .schedule import Schedule
from .verify import verify


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
        "weight the DAG: longest latency path to the end first (对 DAG 进行加权调整)",
        lambda g: heights(g),
        lambda v: f"height {v}",
        lambda v: f"highest height {v}",
    ),
    "successors": Priority(
        "successors",
        "more dependents first: immediate successors (依赖关系较多的指令在前)",
        _successor_counts,
        lambda v: f"{v} successor(s)",
        lambda v: f"most successors ({v})",
    ),
    "descendants": Priority(
        "descendants",
        "more dependents first: all operations that depend on it (依赖关系较多的指令在前)",
        _descendant_counts,
        lambda v: f"{v} descendant(s)",
        lambda v: f"most descendants ({v})",
    ),
    "noninterfering": Priority(
        "noninterfering",
        "run to completion without interference first: never issue an instruction that would "
        "interlock, and prefer those whose successors wait longest for them "
        "(不受干扰地运行完成的指令在前)",
        _noninterfering,
        lambda v: f"latency {v} to a successor",
        lambda v: f"longest latency to a successor ({v})",
    ),
    "original": Priority(
        "original",
        "program order: no priority beyond readiness",
        _original,
        lambda v: "program order",
        lambda v: "first in program order",
    ),
}


def _custom_says(v: str) -> str:
    return f"priority {v}"


def _custom_best(v: str) -> str:
    return f"highest priority {v}"


def resolve_priority(
    graph, priority: str | Callable = "height"
) -> tuple[str, list[float], Priority]:
    """``(name, values, Priority)`` for a priority name or a function ``f(graph, i) -> number``."""
    g = as_graph(graph)
    if isinstance(priority, str):
        if priority not in PRIORITIES:
            raise ScheduleError(
                f"unknown priority {priority!r}; choose one of {', '.join(PRIORITIES)} "
                "(or pass a function f(graph, i) -> number)"
            )
        p = PRIORITIES[priority]
        return p.name, list(p.compute(g)), p
    if not callable(priority):
        raise ScheduleError(
            f"a priority is a name ({', '.join(PRIORITIES)}) or a function f(graph, i) -> number, "
            f"got {type(priority).__name__}"
        )
    name = getattr(priority, "__name__", "custom")
    name = "custom" if name == "<lambda>" else name
    values = []
    for i in range(len(g.ops)):
        v = priority(g, i)
        if isinstance(v, bool) or not isinstance(v, int | float):
            raise ScheduleError(
                f"priority function {name} returned {v!r} for {g.label(i)}; it must return a number"
            )
        if v != v:  # NaN
            raise ScheduleError(f"priority function {name} returned NaN for {g.label(i)}")
        values.append(v)
    return (
        name,
        values,
        Priority(name, "user-supplied", lambda _g: values, _custom_says, _custom_best),
    )


def _le(a: int | None, b: int) -> bool:
    return a is not None and a <= b


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


@dataclass
class ListStep:
    """One cycle of list scheduling.

    ``ready``: ``(op, priority)`` for every operation that could start in this cycle as far as
    dependences go, best first (ties in original order). ``chosen``: what started, in the order
    picked. ``reasons``: per operation in ``ready``, why it was or was not chosen. ``waiting``:
    ``(op, cycle)`` for operations whose predecessors are scheduled but whose operands arrive only
    in a later cycle. ``scheduled``: operations scheduled before this cycle. ``message``: the
    cycle in one sentence. ``ready_at``: for every operation, after this cycle's placements, the
    earliest cycle its *scheduled* predecessors allow it to start (``max(start(p) + latency)``
    over them, at least the first issue cycle): the number the lecture's *升级版的指令调度* writes
    on each node and updates after each placement. It is final for an operation once all its
    predecessors are placed (then it is the cycle its operands arrive).
    """

    cycle: int
    ready: list[tuple[int, float]]
    chosen: list[int]
    reasons: dict[int, str]
    waiting: list[tuple[int, int]]
    scheduled: list[int]
    message: str
    start: dict[int, int] = field(default_factory=dict)
    ready_at: dict[int, int] = field(default_factory=dict)

    def states(self, n: int, *, after: bool = True) -> dict[int, str]:
        """``index -> 'scheduled' | 'ready' | 'waiting'`` for drawing the graph at this step
        (``after``: the operations chosen in this cycle count as scheduled)."""
        done = set(self.scheduled) | (set(self.chosen) if after else set())
        ready = {i for i, _ in self.ready}
        return {
            i: "scheduled" if i in done else "ready" if i in ready else "waiting" for i in range(n)
        }


def _check_schedulable(g: Graph) -> None:
    g.check_acyclic()
    for i, op in enumerate(g.ops):
        for r in op.reservations:
            if r.cycles < 1:
                raise ScheduleError(f"{g.label(i)} reserves unit {r.unit} for {r.cycles} cycles")


def list_schedule_trace(
    graph, priority: str | Callable = "height"
) -> tuple[Schedule, list[ListStep]]:
    """List-schedule ``graph`` and return the schedule and one :class:`ListStep` per cycle."""
    g = as_graph(graph)
    _check_schedulable(g)
    name, prio, how = resolve_priority(g, priority)
    n = len(g.ops)
    delays = g.delays()
    preds: dict[int, list[tuple[int, int]]] = {j: [] for j in range(n)}
    for (s, d), lat in delays.items():
        preds[d].append((s, lat))
    start: dict[int, int] = {}
    picked: list[int] = []
    reasons_for: dict[int, str] = {}
    width_used: Counter = Counter()
    unit_used: Counter = Counter()
    steps: list[ListStep] = []
    horizon = (
        g.earliest
        + 1
        + sum(
            max([lat for _, lat in preds[j]], default=0)
            + max((r.offset + r.cycles for r in g.ops[j].reservations), default=1)
            for j in range(n)
        )
    )

    def key(i: int):
        return (-prio[i], i)

    def operands_at(j: int) -> int | None:
        """The cycle j's operands are ready, or None while a predecessor is unscheduled."""
        t = g.earliest
        for s, lat in preds[j]:
            if s not in start:
                return None
            t = max(t, start[s] + lat)
        return t

    def bound_by_placed(j: int) -> int:
        """The earliest cycle j's scheduled predecessors allow (the slide's node number)."""
        return max([g.earliest] + [start[s] + lat for s, lat in preds[j] if s in start])

    def busy_unit(i: int, t: int) -> str | None:
        for r in g.ops[i].reservations:
            for c in range(t + r.offset, t + r.offset + r.cycles):
                if unit_used[(r.unit, c)] >= g.units[r.unit]:
                    return r.unit
        return None

    t = g.earliest
    while len(start) < n:
        if t > horizon:  # cannot happen for a valid graph; a guard against hanging
            raise ScheduleError(f"list scheduling made no progress by cycle {t}")
        scheduled_before = list(picked)
        chosen: list[int] = []
        reasons: dict[int, str] = {}
        seen_ready: dict[int, float] = {}
        blocked: set[int] = set()
        while True:
            ready = sorted(
                (j for j in range(n) if j not in start and _le(operands_at(j), t)),
                key=key,
            )
            for j in ready:
                seen_ready.setdefault(j, prio[j])
            candidates = [j for j in ready if j not in blocked]
            choice = None
            for j in candidates:
                if g.issue_width is not None and width_used[t] >= g.issue_width:
                    reasons[j] = f"issue width {g.issue_width} used up"
                    blocked.add(j)
                    continue
                unit = busy_unit(j, t)
                if unit is not None:
                    reasons[j] = f"unit {unit} busy"
                    blocked.add(j)
                    continue
                choice = j
                break
            if choice is None:
                break
            others = [j for j in candidates if j != choice and j not in blocked]
            ties = [j for j in others if prio[j] == prio[choice]]
            value = _fmt(prio[choice])
            if not others and len(ready) == 1:
                why = "the only ready operation"
            elif not others:
                why = f"the only ready operation that fits ({how.says(value)})"
            elif ties:
                tied = ", ".join(g.label(j) for j in ties)
                why = f"{how.says(value)}, tie with {tied} broken by original order"
            elif chosen:
                why = f"next best: {how.says(value)}"
            elif any(prio[j] > prio[choice] for j in blocked):
                why = f"best that fits: {how.says(value)}"
            else:
                why = how.best(value)
            reasons[choice] = why
            chosen.append(choice)
            start[choice] = t
            picked.append(choice)
            reasons_for[choice] = f"cycle {t}: {why}"
            width_used[t] += 1
            for r in g.ops[choice].reservations:
                for c in range(t + r.offset, t + r.offset + r.cycles):
                    unit_used[(r.unit, c)] += 1
        waiting = sorted(
            (j, at)
            for j in range(n)
            if j not in start and (at := operands_at(j)) is not None and at > t
        )
        ready_list = sorted(seen_ready.items(), key=lambda item: key(item[0]))
        for j in seen_ready:
            if j not in start and j not in reasons:
                reasons[j] = f"issue width {g.issue_width} used up"
        if chosen:
            message = f"cycle {t}: issue " + ", ".join(
                f"{g.label(j)} ({reasons[j]})" for j in chosen
            )
            left = [j for j, _ in ready_list if j not in chosen]
            if left:
                message += "; not issued: " + ", ".join(
                    f"{g.label(j)} ({reasons[j]})" for j in left
                )
        elif ready_list:
            message = f"cycle {t}: stall: ready but blocked: " + ", ".join(
                f"{g.label(j)} ({reasons[j]})" for j, _ in ready_list
            )
        else:
            parts = [f"{g.label(j)} waits until cycle {at}" for j, at in waiting]
            message = f"cycle {t}: nothing ready: stall" + (
                " (" + "; ".join(parts) + ")" if parts else ""
            )
        steps.append(
            ListStep(
                cycle=t,
                ready=ready_list,
                chosen=chosen,
                reasons=reasons,
                waiting=waiting,
                scheduled=scheduled_before,
                message=message,
                start=dict(start),
                ready_at={j: bound_by_placed(j) for j in range(n)},
            )
        )
        t += 1
    sched = Schedule(
        g,
        [start[i] for i in range(n)],
        algorithm=f"list:{name}",
        order=list(picked),
    )
    sched.reasons = [reasons_for[i] for i in range(n)]
    sched.info.update(
        {
            "priority": name,
            "priorities": list(prio),
            "lower_bound": lower_bound(g) if n else 0,
        }
    )
    sched.info["proven_optimal"] = sched.length <= sched.info["lower_bound"]
    verify(one_iteration(g), sched)
    return sched, steps


@dataclass(frozen=True)
class ReadyFrame:
    """One frame of the lecture's animation (升级版的指令调度), read off a list-scheduling trace.

    ``placed``: the operations placed in this frame (none in the first frame), ``cycle``: the
    cycle they were placed in, counted from 0 (the first issue cycle is 0), ``numbers``: every
    operation's ready cycle after the placement, counted from 0 (:attr:`ListStep.ready_at`),
    ``scheduled``: every operation placed so far, ``changed``: the operations whose number this
    placement raised.
    """

    placed: tuple[int, ...]
    cycle: int | None
    numbers: dict[int, int]
    scheduled: tuple[int, ...]
    changed: tuple[int, ...]


def ready_frames(graph, steps: list[ListStep]) -> list[ReadyFrame]:
    """The slide's frames from a trace (:func:`list_schedule_trace`): a first frame with every
    number 0, then one frame per cycle that placed something, with the ready cycles the trace
    recorded after it (``ready_at``, shifted so that the first issue cycle is 0). Nothing is
    recomputed: the numbers are the scheduler's own."""
    g = as_graph(graph)
    base = g.earliest
    n = len(g.ops)
    numbers = {j: 0 for j in range(n)}
    frames = [ReadyFrame((), None, dict(numbers), (), ())]
    done: list[int] = []
    for st in steps:
        if not st.chosen:
            continue
        if not st.ready_at:
            raise ScheduleError("this trace has no ready cycles (ListStep.ready_at is empty)")
        new = {j: st.ready_at[j] - base for j in range(n)}
        changed = tuple(j for j in range(n) if new[j] != numbers[j])
        done.extend(st.chosen)
        frames.append(ReadyFrame(tuple(st.chosen), st.cycle - base, new, tuple(done), changed))
        numbers = new
    return frames


def list_schedule(graph, priority: str | Callable = "height", *, trace: bool = False):
    """List-schedule ``graph`` (a core Graph or a DependenceGraph) with ``priority``.

    Returns a verified :class:`~lecturekit.core.Schedule` (``algorithm = "list:<priority>"``);
    with ``trace=True``, the pair ``(schedule, steps)``.
    """
    sched, steps = list_schedule_trace(graph, priority)
    return (sched, steps) if trace else sched


def compare_priorities(graph, priorities=None) -> dict[str, int]:
    """Length of the list schedule for each priority (default: all built-in ones)."""
    names = list(PRIORITIES) if priorities is None else list(priorities)
    out = {}
    for p in names:
        s = list_schedule(graph, p)
        out[s.info["priority"]] = s.length
    return out


__all__ = [
    "PRIORITIES",
    "ListStep",
    "Priority",
    "ReadyFrame",
    "compare_priorities",
    "list_schedule",
    "list_schedule_trace",
    "ready_frames",
    "resolve_priority",
]
