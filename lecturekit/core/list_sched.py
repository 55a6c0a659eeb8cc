"""List scheduling: the lecture's practical answer to an NP-hard problem (数据依赖指导下的指令调度).

The algorithm walks the cycles one by one, starting at the first issue cycle, keeping a *ready
list*: the operations whose predecessors have all been scheduled *and* whose latencies have
elapsed, so that they can start in this cycle without waiting. In each cycle it takes ready
operations, highest priority first, as long as the issue width and their functional units allow,
then moves to the next cycle. An operation whose unit is busy stays in the ready list; when no
operation is ready, the cycle is a stall.

The priority (:mod:`lecturekit.core.priorities`) is what the lecture's three heuristics are
about: ``height`` (weight the DAG, 对 DAG 进行加权调整), ``successors`` / ``descendants`` (more
dependents first), ``noninterfering`` (run to completion without interference first), and
``original`` (program order); ``PRIORITIES`` holds exactly them, ``MORE_PRIORITIES`` what the
literature adds (``height_descendants``, ``bottleneck``). A user-supplied priority is a function
``f(graph, i) -> number`` (higher goes first).

Ties are always broken by the original order (the lower index first), and a trace step says so
when it happened.

Given a block (a :class:`~lecturekit.target.deps.DependenceGraph`) on a machine with a branch
delay slot (``delay_slot = true``) that ends with its branch, the list scheduler has the block
fill the slot first, "from before" (the block's ``fill_delay_slot``, see
:func:`lecturekit.target.deps.fill_delay_slot`): an instruction nothing after it depends on moves
into the slot, else a ``nop``; the schedule is then of the rewritten block (``schedule.graph``,
whose ``source`` is the rewritten block), and ``info["delay_slot"]`` and the first trace step say
what was chosen. A bare core Graph is scheduled as it is (its operations stay the caller's).

Beyond the lecture (the lookahead scheduler and :func:`improved_schedule`)
-------------------------------------------------------------------------
``lookahead=W`` (``list_schedule(g, p, lookahead=W)``, algorithm ``list:<p>+lookahead<W>``)
    a list scheduler that may leave a cycle idle. The classic one is *non-delay*: a ready
    operation whose unit is free always issues. That is wrong when a more urgent operation is
    about to be ready: a non-pipelined ``mul`` issued now holds the ALU for three cycles and
    blocks a higher-priority ``add`` whose operands arrive next cycle. With lookahead, before
    issuing a ready operation the scheduler looks at the operations whose predecessors are all
    placed and whose operands arrive within the next ``W`` cycles; if one of them has a higher
    priority and would fit in its arrival cycle, but would no longer fit with the candidate
    placed now, the candidate is held back ("held back: would block I5 (height 9), ready in
    cycle 4"), and a lower-priority operation that does not get in its way may go instead.
:func:`improved_schedule` -- the improved heuristic (algorithm ``list:improved``)
    the best of several list schedules (every priority above, with and without lookahead), then
    forward-backward improvement (Li and Willis 1992; Valls et al. 2005's justification): the
    best schedule is *right-justified* (each operation, latest first, moved as late as its
    successors, units and issue slots allow without lengthening the block), and the latest
    starts so found become a new priority (earliest latest start first) for another forward
    pass; repeated while it helps. Everything stays polynomial (a bounded number of list
    schedules), the winner is an ordinary list schedule with an ordinary trace, and
    ``info["candidates"]`` lists each candidate's length. Last, when the block is still above
    its lower bound, the *pilot method* (Duin and Voss 1999): at each choice the list scheduler
    faces, every ready operation that fits is tried and the block completed greedily (with
    ``height_descendants``, then with ``bottleneck``); the choice with the shortest completion
    is taken. Its picks, as a priority (earlier pick first), replay as an ordinary list
    schedule. At most n^2 greedy completions per pilot: still polynomial.

The result is a :class:`~lecturekit.core.Schedule` of issue cycles that has passed
:func:`~lecturekit.core.verify` (for a loop body: one iteration, loop-carried edges ignored).
Its issue order, fed to in-order hardware (:func:`~lecturekit.core.evaluate` or
:func:`lecturekit.target.pipeline.simulate`), runs in the same number of cycles or fewer: the
hardware issues each instruction as early as it can, never later than the list scheduler planned.

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
from ..language import N_, _
from .bounds import as_graph, lower_bound, one_iteration
from .graph import Graph
from .pressure import RegisterBudget
from .priorities import (  # noqa: F401 - PRIORITIES, MORE_PRIORITIES: list_sched's names too
    MORE_PRIORITIES,
    PRIORITIES,
    Priority,
    resolve_priority,
    resource_heights,
)
from .schedule import Schedule
from .verify import verify
from .window import Window, window_violations


def _le(a: int | None, b: int) -> bool:
    return a is not None and a <= b


def _fmt(v) -> str:
    if isinstance(v, tuple):
        return ", ".join(_fmt(x) for x in v)
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def _rank(v) -> tuple:
    """Sort key of a priority value (a number or a tuple compared left to right), best first."""
    return tuple(-x for x in v) if isinstance(v, tuple) else (-v,)


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
    #: the cycle in one sentence without its number (``message`` says "cycle N: " first, in the
    #: language spoken: a table with a cycle column shows this, it does not cut the message)
    happened: str = ""
    #: the operations lookahead held back in this cycle: ``op -> (the higher-priority operation
    #: it would block, the cycle that one is ready)``, what the reason says in words
    held: dict[int, tuple[int, int]] = field(default_factory=dict)

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
                raise ScheduleError(
                    _("{op} reserves unit {unit} for {cycles} cycles").format(
                        op=g.label(i), unit=r.unit, cycles=r.cycles
                    )
                )


def _check_lookahead(lookahead) -> int:
    if isinstance(lookahead, bool) or not isinstance(lookahead, int) or lookahead < 0:
        raise ScheduleError(
            _("lookahead is a whole number of cycles >= 0, got {lookahead!r}").format(
                lookahead=lookahead
            )
        )
    return lookahead


#: the largest block list scheduling takes: its cycle-by-cycle ready list and trace grow faster
#: than linearly (about 2 s at 1,000 operations, 10 s at 2,000), so larger blocks are refused
#: up front rather than left running
MAX_OPS = 1000

#: how a reason says lookahead held an operation back (``ListStep.held`` says it for code)
HELD_BACK = N_("held back")
#: the fact "the issue width is used up" (list_schedule_trace's ``say`` writes it as text)
WIDTH_USED_UP = ("width",)


def list_schedule_trace(
    graph,
    priority: str | Callable = "height",
    *,
    lookahead: int = 0,
    values=None,
    record: bool = True,
    window: Window | None = None,
    registers: RegisterBudget | None = None,
) -> tuple[Schedule, list[ListStep]]:
    """List-schedule ``graph`` and return the schedule and one :class:`ListStep` per cycle.

    ``lookahead`` (cycles, default 0: the classic non-delay scheduler) lets a ready operation
    be held back when it would block a higher-priority operation arriving within that many
    cycles (module docstring). ``values`` (internal) gives precomputed priority values for a
    named priority. ``record=False`` makes the same schedule without the steps (an empty list):
    a step lists every waiting operation and every ready cycle, most of the work on a block
    whose trace nobody reads.

    ``window`` (a :class:`~lecturekit.core.window.Window`) restricts every cycle's ready list to
    the operations inside an instruction window sliding over a fixed order: the out-of-order
    core of :mod:`lecturekit.target.ooo` is this scheduler with the age priority (``"original"``)
    and a window. Its dispatch and retire cycles are recorded in the window and in
    ``info["dispatch"]`` / ``info["retire"]``.

    ``registers`` (a :class:`~lecturekit.core.pressure.RegisterBudget`) holds back an operation
    that would raise the number of live values above the budget while an operation that would
    not is still to come (:mod:`lecturekit.core.pressure`); ``info["max_live"]`` is then the
    most values live at once in the order chosen, ``info["over_budget"]`` the operations placed
    above the budget."""
    lookahead = _check_lookahead(lookahead)
    if window is not None and lookahead:
        raise ScheduleError(_("a list schedule with a window does not look ahead (lookahead=0)"))
    slot = None
    fill = getattr(graph, "fill_delay_slot", None)  # a block (DependenceGraph), not a bare graph
    if values is None and fill is not None and window is None and registers is None:
        slot = fill(priority, lookahead=lookahead)
    if slot is not None:
        sched, steps = list_schedule_trace(slot.block, priority, lookahead=lookahead, record=record)
        sched.info["delay_slot"] = slot.message
        if steps:
            steps[0].message = _("{delay_slot}. {message}").format(
                delay_slot=slot.message, message=steps[0].message
            )
        return sched, steps
    g = as_graph(graph)
    if len(g.ops) > MAX_OPS:
        raise ScheduleError(
            _(
                "list scheduling handles at most {max_ops:,} operations; this block "
                "has {n_ops:,} (split it, or time the order as written with `simulate`)"
            ).format(max_ops=MAX_OPS, n_ops=len(g.ops))
        )
    _check_schedulable(g)
    name, prio, how = resolve_priority(g, priority) if values is None else values
    n = len(g.ops)
    delays = g.delays()
    preds: dict[int, list[tuple[int, int]]] = {j: [] for j in range(n)}
    for (s, d), lat in delays.items():
        preds[d].append((s, lat))
    start: dict[int, int] = {}
    picked: list[int] = []
    # why each operation started when it did, and why others waited: kept as facts, written
    # as text (say) only for a recorded trace or when someone reads the schedule's reasons
    reasons_for: dict[int, tuple] = {}

    def say(fact: tuple) -> str:
        kind = fact[0]
        if kind == "width":
            return _("issue width {issue_width} used up").format(issue_width=g.issue_width)
        if kind == "unit":
            return _("unit {unit} busy").format(unit=fact[1])
        if kind == "registers":
            return _("would raise the live values above the budget of {limit} registers").format(
                limit=fact[1]
            )
        if kind == "held":
            _kind, k, at = fact
            return _("{held_back}: would block {op} ({says}), ready in cycle {at}").format(
                held_back=_(HELD_BACK), op=g.label(k), says=how.says(_fmt(prio[k])), at=at
            )
        _kind, choice, ties = fact
        value = _fmt(prio[choice])
        if kind == "only":
            return _("the only ready operation")
        if kind == "only_fits":
            return _("the only ready operation that fits ({says})").format(says=how.says(value))
        if kind == "tie":
            tied = ", ".join(g.label(j) for j in ties)
            return _("{says}, tie with {tied} broken by original order").format(
                says=how.says(value), tied=tied
            )
        if kind == "next":
            return _("next best: {says}").format(says=how.says(value))
        if kind == "best_fits":
            return _("best that fits: {says}").format(says=how.says(value))
        return how.best(value)

    width_used: Counter = Counter()
    unit_used: Counter = Counter()
    steps: list[ListStep] = []
    horizon = (
        g.earliest
        + 1
        + lookahead * n
        + sum(
            max([lat for _unused, lat in preds[j]], default=0)
            + max((r.offset + r.cycles for r in g.ops[j].reservations), default=1)
            for j in range(n)
        )
    )
    if registers is not None:
        registers.open(n)
    if window is not None:
        window.open(n, g.earliest)
        horizon += window.horizon(n, max((op.tail for op in g.ops), default=0))

    def key(i: int):
        return (_rank(prio[i]), i)

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

    def busy_unit(i: int, t: int, extra: int | None = None, at: int = 0) -> str | None:
        """The unit that keeps ``i`` from starting at ``t`` (``extra``: also count operation
        ``extra`` as if started at ``at``), or None."""
        for r in g.ops[i].reservations:
            for c in range(t + r.offset, t + r.offset + r.cycles):
                used = unit_used[(r.unit, c)]
                if extra is not None:
                    used += sum(
                        1
                        for x in g.ops[extra].reservations
                        if x.unit == r.unit and at + x.offset <= c < at + x.offset + x.cycles
                    )
                if used >= g.units[r.unit]:
                    return r.unit
        return None

    def blocks_urgent(j: int, t: int) -> tuple[int, int] | None:
        """A higher-priority operation, ready within ``lookahead`` cycles, that fits in its
        arrival cycle but would not with ``j`` started at ``t``: ``(op, arrival)``, or None."""
        if not lookahead:
            return None
        for k in range(n):
            if k in start or k == j or key(k) >= key(j):
                continue
            at = operands_at(k)
            if at is None or not t < at <= t + lookahead:
                continue
            if busy_unit(k, at) is None and busy_unit(k, at, j, t) is not None:
                return k, at
        return None

    t = g.earliest
    while len(start) < n:
        if window is not None:
            window.begin(t)
        if t > horizon:  # cannot happen for a valid graph; a guard against hanging
            raise ScheduleError(_("list scheduling made no progress by cycle {t}").format(t=t))
        scheduled_before = list(picked)
        chosen: list[int] = []
        reasons: dict[int, tuple] = {}  # facts (say): written as text for the recorded step
        held: dict[int, tuple[int, int]] = {}
        seen_ready: dict[int, float] = {}
        blocked: set[int] = set()
        while True:
            ready = sorted(
                (
                    j
                    for j in range(n)
                    if j not in start
                    and _le(operands_at(j), t)
                    and (window is None or window.eligible(j, t))
                ),
                key=key,
            )
            for j in ready:
                seen_ready.setdefault(j, prio[j])
            candidates = [j for j in ready if j not in blocked]
            choice = None
            for j in candidates:
                if g.issue_width is not None and width_used[t] >= g.issue_width:
                    reasons[j] = WIDTH_USED_UP
                    blocked.add(j)
                    continue
                unit = busy_unit(j, t)
                if unit is not None:
                    reasons[j] = ("unit", unit)
                    blocked.add(j)
                    continue
                if registers is not None and not registers.fits(j):
                    pending = [k for k in range(n) if k not in start and operands_at(k) is not None]
                    if any(registers.fits(k) for k in pending):
                        reasons[j] = ("registers", registers.limit)
                        blocked.add(j)
                        continue
                urgent = blocks_urgent(j, t)
                if urgent is not None:
                    reasons[j] = ("held", *urgent)
                    held[j] = urgent
                    blocked.add(j)
                    continue
                choice = j
                break
            if choice is None:
                break
            others = [j for j in candidates if j != choice and j not in blocked]
            ties = tuple(j for j in others if prio[j] == prio[choice])
            if not others and len(ready) == 1:
                case = "only"
            elif not others:
                case = "only_fits"
            elif ties:
                case = "tie"
            elif chosen:
                case = "next"
            elif any(prio[j] > prio[choice] for j in blocked):
                case = "best_fits"
            else:
                case = "best"
            reasons[choice] = (case, choice, ties)
            chosen.append(choice)
            start[choice] = t
            if registers is not None:
                registers.place(choice)
            if window is not None:
                window.started(choice, t, t + g.ops[choice].tail)
            picked.append(choice)
            reasons_for[choice] = (t, reasons[choice])
            width_used[t] += 1
            for r in g.ops[choice].reservations:
                for c in range(t + r.offset, t + r.offset + r.cycles):
                    unit_used[(r.unit, c)] += 1
        if record:
            waiting = sorted(
                (j, at)
                for j in range(n)
                if j not in start and (at := operands_at(j)) is not None and at > t
            )
            ready_list = sorted(seen_ready.items(), key=lambda item: key(item[0]))
            for j in seen_ready:
                if j not in start and j not in reasons:
                    reasons[j] = WIDTH_USED_UP
            reasons = {j: say(fact) for j, fact in reasons.items()}

            def said(ops, reasons=reasons) -> str:
                return ", ".join(
                    _("{op} ({why})").format(op=g.label(j), why=reasons[j]) for j in ops
                )

            if chosen:
                happened = _("issue {ops}").format(ops=said(chosen))
                left = [j for j, _prio in ready_list if j not in chosen]
                if left:
                    happened = _("{message}; not issued: {ops}").format(
                        message=happened, ops=said(left)
                    )
            elif ready_list:
                happened = _("stall: ready but blocked: {ops}").format(
                    ops=said(j for j, _prio in ready_list)
                )
            elif waiting:
                waits = "; ".join(
                    _("{op} waits until cycle {at}").format(op=g.label(j), at=at)
                    for j, at in waiting
                )
                happened = _("nothing ready: stall ({waits})").format(waits=waits)
            else:
                happened = _("nothing ready: stall")
            message = _("cycle {cycle}: {why}").format(cycle=t, why=happened)
            steps.append(
                ListStep(
                    cycle=t,
                    ready=ready_list,
                    chosen=chosen,
                    reasons=reasons,
                    waiting=waiting,
                    scheduled=scheduled_before,
                    message=message,
                    happened=happened,
                    start=dict(start),
                    ready_at={j: bound_by_placed(j) for j in range(n)},
                    held=held,
                )
            )
        if window is not None:
            window.end(t)
        t += 1
    sched = Schedule(
        g,
        [start[i] for i in range(n)],
        algorithm=f"list:{name}" + (f"+lookahead{lookahead}" if lookahead else ""),
        order=list(picked),
    )
    sched.explain_by(
        lambda: [
            _("cycle {cycle}: {why}").format(cycle=reasons_for[i][0], why=say(reasons_for[i][1]))
            for i in range(n)
        ]
    )
    sched.info.update(
        {
            "priority": name,
            "lookahead": lookahead,
            "priorities": list(prio),
            "lower_bound": lower_bound(g) if n else 0,
        }
    )
    sched.info["proven_optimal"] = sched.length <= sched.info["lower_bound"]
    verify(one_iteration(g), sched)
    if window is not None:
        window.finish_retirement(sched.finish)
        problems = window_violations(window, sched.start, sched.finish)
        if problems:  # cannot happen: the loop above keeps the window's rules
            raise ScheduleError(
                _("the window's rules were broken:\n  {problems}").format(
                    problems="\n  ".join(problems)
                )
            )
        sched.algorithm += "+window"
        sched.info["dispatch"] = [window.dispatch[i] for i in range(n)]
        sched.info["retire"] = [window.retire[i] for i in range(n)]
    if registers is not None:
        sched.algorithm += f"+registers{registers.limit}"
        sched.info["max_live"] = registers.peak
        sched.info["over_budget"] = list(registers.over)
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
            raise ScheduleError(_("this trace has no ready cycles (ListStep.ready_at is empty)"))
        new = {j: st.ready_at[j] - base for j in range(n)}
        changed = tuple(j for j in range(n) if new[j] != numbers[j])
        done.extend(st.chosen)
        frames.append(ReadyFrame(tuple(st.chosen), st.cycle - base, new, tuple(done), changed))
        numbers = new
    return frames


def list_schedule(
    graph,
    priority: str | Callable = "height",
    *,
    trace: bool = False,
    lookahead: int = 0,
    window: Window | None = None,
    registers: RegisterBudget | None = None,
):
    """List-schedule ``graph`` (a core Graph or a DependenceGraph) with ``priority`` (a name in
    ``PRIORITIES`` or ``MORE_PRIORITIES``, or a function).

    Returns a verified :class:`~lecturekit.core.Schedule` (``algorithm = "list:<priority>"``,
    with ``+lookahead<W>`` when ``lookahead=W > 0``); with ``trace=True``, the pair
    ``(schedule, steps)``.
    """
    if not trace:
        return list_schedule_trace(
            graph, priority, lookahead=lookahead, record=False, window=window, registers=registers
        )[0]
    return list_schedule_trace(
        graph, priority, lookahead=lookahead, window=window, registers=registers
    )


#: the candidates :func:`improved_schedule` tries: every priority, non-delay and lookahead 2
IMPROVED_PRIORITIES = (
    "height",
    "height_descendants",
    "bottleneck",
    "descendants",
    "noninterfering",
    "successors",
    "original",  # program order: on some blocks better than all the others
)
IMPROVED_LOOKAHEADS = (0, 2)
#: the greedy completions the pilot method of :func:`improved_schedule` tries, in turn
IMPROVED_PILOTS = ("height_descendants", "bottleneck")


def right_justify(graph, schedule: Schedule) -> list[int] | None:
    """The backward half of forward-backward improvement: every operation, latest start first,
    moved as late as its successors, its units and the issue slots allow without ending after
    ``schedule.length``. Returns the latest starts (a legal schedule no longer than
    ``schedule``), or None when some operation cannot be placed (never on a Machine's graphs)."""
    g = as_graph(graph)
    n = len(g.ops)
    succs: dict[int, list[tuple[int, int]]] = {}
    for (src, d), lat in g.delays().items():
        succs.setdefault(src, []).append((d, lat))
    end = schedule.length
    late = [0] * n
    issued: Counter = Counter()
    used: Counter = Counter()
    for i in sorted(range(n), key=lambda i: (-schedule.start[i], -i)):
        t = end - g.ops[i].tail
        for d, lat in succs.get(i, ()):
            t = min(t, late[d] - lat)
        while t >= g.earliest:
            if g.issue_width is None or issued[t] < g.issue_width:
                if all(
                    used[(r.unit, c)] < g.units[r.unit]
                    for r in g.ops[i].reservations
                    for c in range(t + r.offset, t + r.offset + r.cycles)
                ):
                    break
            t -= 1
        if t < g.earliest:
            return None
        late[i] = t
        issued[t] += 1
        for r in g.ops[i].reservations:
            for c in range(t + r.offset, t + r.offset + r.cycles):
                used[(r.unit, c)] += 1
    return late


class _Greedy:
    """A bare non-delay list scheduler (no trace) whose state can be copied: the pilot's
    completions in :func:`pilot_order`. ``ops`` in program order; ``rank[i]``: smaller first."""

    def __init__(self, g: Graph, rank: list):
        self.g = g
        self.n = len(g.ops)
        self.rank = rank
        self.preds: list[list[tuple[int, int]]] = [[] for _ in range(self.n)]
        for (src, d), lat in g.delays().items():
            self.preds[d].append((src, lat))
        self.resv = [
            [(r.unit, r.offset, r.cycles, g.units[r.unit]) for r in op.reservations] for op in g.ops
        ]
        self.tail = [op.tail for op in g.ops]

    def fresh(self):
        return ({}, Counter(), Counter(), self.g.earliest)

    def ready_fitting(self, state) -> list[int]:
        start, used, width, t = state
        out = []
        w = self.g.issue_width
        if w is not None and width[t] >= w:
            return out
        for j in range(self.n):
            if j in start:
                continue
            ok = True
            for src, lat in self.preds[j]:
                if src not in start or start[src] + lat > t:
                    ok = False
                    break
            if not ok:
                continue
            if all(
                used[(u, c)] < cap
                for u, off, cyc, cap in self.resv[j]
                for c in range(t + off, t + off + cyc)
            ):
                out.append(j)
        out.sort(key=lambda j: (self.rank[j], j))
        return out

    def place(self, state, j: int) -> None:
        start, used, width, t = state
        start[j] = t
        width[t] += 1
        for u, off, cyc, _cap in self.resv[j]:
            for c in range(t + off, t + off + cyc):
                used[(u, c)] += 1

    def advance(self, state):
        """The state after placing greedily until some choice exists (or all are placed)."""
        start, used, width, t = state
        while len(start) < self.n:
            ready = self.ready_fitting((start, used, width, t))
            if ready:
                return (start, used, width, t), ready
            t += 1
        return (start, used, width, t), []

    def complete(self, state) -> int:
        state = (dict(state[0]), Counter(state[1]), Counter(state[2]), state[3])
        while True:
            state, ready = self.advance(state)
            if not ready:
                break
            self.place(state, ready[0])
        start = state[0]
        return max(start[i] + self.tail[i] for i in range(self.n))


def pilot_order(graph, priority: str = "height_descendants") -> list[int]:
    """The pilot method (Duin and Voss 1999) on list scheduling: at every choice the list
    scheduler faces (the ready operations that fit in this cycle), each candidate is tried and
    the rest of the block completed greedily with ``priority``; the candidate whose completion
    is shortest is taken (ties: the priority). Returns the pick order; list scheduling with
    "earlier pick first" as its priority replays it exactly. O(n^2) greedy completions at most:
    polynomial."""
    g = as_graph(graph)
    _name, values, _p = resolve_priority(g, priority)
    greedy = _Greedy(g, [_rank(v) for v in values])
    state = greedy.fresh()
    picks: list[int] = []
    while True:
        state, ready = greedy.advance(state)
        if not ready:
            return picks
        if len(ready) == 1:
            choice = ready[0]
        else:
            best = None
            for j in ready:
                trial = (dict(state[0]), Counter(state[1]), Counter(state[2]), state[3])
                greedy.place(trial, j)
                length = greedy.complete(trial)
                if best is None or length < best[0]:
                    best = (length, j)
            choice = best[1]
        greedy.place(state, choice)
        picks.append(choice)


def improved_schedule(graph, *, trace: bool = False, rounds: int = 4, pilot: bool = True):
    """The improved heuristic (module docstring): the best of the list schedules of
    ``IMPROVED_PRIORITIES`` x ``IMPROVED_LOOKAHEADS``, then up to ``rounds`` rounds of
    forward-backward improvement, each a list schedule whose priority is the latest start found
    by :func:`right_justify` (earlier latest start first). Polynomial: at most
    ``len(IMPROVED_PRIORITIES) * len(IMPROVED_LOOKAHEADS) * (1 + rounds)`` list schedules.

    Returns the winning list schedule (verified) with ``algorithm = "list:improved"``,
    ``info["from"]`` naming the candidate that won and ``info["candidates"]`` every candidate's
    length; with ``trace=True`` the pair ``(schedule, steps)``, the winner's own trace.
    """
    g = as_graph(graph)
    _check_schedulable(g)
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 0:
        raise ScheduleError(
            _("rounds is a whole number >= 0, got {rounds!r}").format(rounds=rounds)
        )
    candidates: dict[str, int] = {}
    best = None
    bound = lower_bound(g) if g.ops else 0

    def consider(label, sched, steps):
        nonlocal best
        candidates[label] = sched.length
        if best is None or sched.length < best[1].length:
            best = (label, sched, steps)

    for p in IMPROVED_PRIORITIES:
        values = resolve_priority(g, p)
        for w in IMPROVED_LOOKAHEADS:
            sched, steps = list_schedule_trace(g, p, lookahead=w, values=values, record=trace)
            consider(sched.algorithm.removeprefix("list:"), sched, steps)
            if best[1].length <= bound:
                break
        if best[1].length <= bound:
            break
    for r in range(1, rounds + 1):
        if best[1].length <= bound:
            break
        late = right_justify(g, best[1])
        if late is None:
            break
        values = (
            "justified",
            [-t for t in late],
            Priority(
                "justified",
                _("forward-backward improvement: earliest latest start first"),
                lambda _g, v=late: [-t for t in v],
                lambda v: _("latest start {start}").format(start=_fmt(-float(v))),
                lambda v: _("earliest latest start {start}").format(start=_fmt(-float(v))),
            ),
        )
        before = best[1].length
        for w in IMPROVED_LOOKAHEADS:
            sched, steps = list_schedule_trace(
                g, values[2].name, lookahead=w, values=values, record=trace
            )
            consider(f"justified{r}" + (f"+lookahead{w}" if w else ""), sched, steps)
        if best[1].length >= before:
            break
    for base in IMPROVED_PILOTS if pilot else ():
        if best[1].length <= bound:
            break
        order = pilot_order(g, base)
        pos = {j: k for k, j in enumerate(order)}
        values = (
            "pilot",
            [-pos[j] for j in range(len(g.ops))],
            Priority(
                "pilot",
                _("pilot method: the choice whose greedy completion is shortest"),
                lambda _g, p=pos: [-p[j] for j in range(len(g.ops))],
                lambda v: _("pilot pick {pick}").format(pick=_fmt(-float(v))),
                lambda v: _("earliest pilot pick {pick}").format(pick=_fmt(-float(v))),
            ),
        )
        sched, steps = list_schedule_trace(g, "pilot", values=values, record=trace)
        consider(f"pilot:{base}", sched, steps)
    label, sched, steps = best
    sched.algorithm = "list:improved"
    sched.info["from"] = label
    sched.info["candidates"] = candidates
    verify(one_iteration(g), sched)
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
    "IMPROVED_LOOKAHEADS",
    "IMPROVED_PILOTS",
    "IMPROVED_PRIORITIES",
    "MORE_PRIORITIES",
    "PRIORITIES",
    "improved_schedule",
    "pilot_order",
    "resource_heights",
    "right_justify",
    "ListStep",
    "Priority",
    "ReadyFrame",
    "compare_priorities",
    "list_schedule",
    "list_schedule_trace",
    "ready_frames",
    "resolve_priority",
]
