"""Software pipelining by modulo scheduling (软件流水线).

"在前一个循环体未结束前启动一个新的循环体": start a new iteration every **II** cycles (the
*initiation interval*), before the previous one has finished. All iterations use the same
schedule, shifted by II: operation ``k`` of iteration ``i`` issues at ``start[k] + i*II``. Two
things bound II from below:

**ResMII** (resources). In every II cycles, one iteration's worth of work must fit on the
machine: a unit with ``count`` copies that one iteration keeps busy for ``uses`` cycles needs
``II >= ceil(uses / count)``, and ``n`` instructions issued ``w`` per cycle need
``II >= ceil(n / w)``.

**RecMII** (recurrences). A cycle of dependences that goes around the loop, e.g. the running sum
``s = s + B[j]`` (the add needs the previous iteration's add) or a pointer ``addi $s1, $s1, 4``,
with total latency ``L`` over a total iteration distance ``D``: the operation comes back ``D``
iterations = ``D*II`` cycles later and must have waited ``L``, so ``II >= ceil(L / D)``.
:func:`rec_mii` finds the exact bound as the smallest II for which no cycle has positive weight
``sum(latency - II*distance)`` (a longest-path test), and :func:`recurrences` lists the cycles
(``networkx.simple_cycles``) so that the binding one can be named.

``MII = max(ResMII, RecMII)`` is a lower bound (both computed in :mod:`lecturekit.loops.mii`);
the scheduler looks for a schedule at ``MII``, then ``MII + 1``, ...

The scheduler: iterative modulo scheduling (Rau 1994)
-----------------------------------------------------
For a candidate II, operations are placed one at a time, highest **height** first (the longest
path to the end of the iteration with edge weights ``latency - II*distance``: operations on long
recurrences and long chains go first). An operation's earliest start comes from its already
placed predecessors; it goes into the first of the II cycles ``[earliest, earliest + II - 1]``
whose rows of the **modulo reservation table** (MRT: row ``t mod II`` of every unit it uses, and
the issue slots) have room. Trying more than II cycles is pointless: the rows repeat.

If no cycle has room, the operation is placed anyway, at its earliest start (or one cycle after
where it was last time, so the search does not repeat itself), and whatever is in the way is
**evicted**: the operations holding the rows it needs, and placed successors whose dependences it
now breaks. Evicted operations go back into the queue. A **budget** (``budget_ratio`` × number of
operations placements) bounds the work; when it runs out, II is increased by one and the search
restarts. Every step (placements, evictions, II increments) is recorded in the trace the widget
steps through.

Finally the schedule goes through :func:`lecturekit.core.verify` with ``ii=II``, and is shifted so
that the loop's branch ends the kernel: stage ``s = (t - first) // II`` and row ``(t - first) % II``
with the branch in the last row of the last stage. Operation ``k`` of iteration ``i`` is in
stage ``s_k``; the kernel (the steady state) executes stage ``s`` of iteration ``i - s`` for every
``s`` at once. :mod:`lecturekit.loops.codegen` turns this into prologue, kernel and epilogue code.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..core.graph import Edge, Graph
from ..core.schedule import Schedule
from ..core.verify import verify, violations
from ..errors import ScheduleError
from ..target.machine import Machine
from .mii import (
    ISSUE,
    Recurrence,
    ResourceBound,
    _clock,
    _deadline,
    _OutOfTime,
    critical_recurrence,
    modulo_heights,
    rec_mii,
    recurrences,
    res_mii,
    resource_bounds,
)
from .model import Loop, analyze_loop, edge_dict


# -- the modulo reservation table ---------------------------------------------------------------
class _Occupancy:
    """Who holds which row of each resource, for a partial schedule at one II."""

    def __init__(self, graph: Graph, ii: int):
        self.graph = graph
        self.ii = ii
        self.cells: dict[tuple[str, int], list[int]] = {}
        self.capacity = dict(graph.units)
        if graph.issue_width is not None:
            self.capacity[ISSUE] = graph.issue_width

    def needs(self, op: int, t: int) -> Counter:
        need: Counter = Counter()
        if ISSUE in self.capacity:
            need[(ISSUE, t % self.ii)] += 1
        for r in self.graph.ops[op].reservations:
            for c in range(t + r.offset, t + r.offset + r.cycles):
                need[(r.unit, c % self.ii)] += 1
        return need

    def fits(self, op: int, t: int) -> bool:
        return all(
            len(self.cells.get(cell, ())) + k <= self.capacity[cell[0]]
            for cell, k in self.needs(op, t).items()
        )

    def blockers(self, op: int, t: int, order) -> list[tuple[int, str]]:
        """Operations to evict so that ``op`` fits at ``t`` (lowest ``order`` first), with the
        cell each one was in the way in."""
        out: list[tuple[int, str]] = []
        gone: set[int] = set()
        for cell, k in sorted(self.needs(op, t).items()):
            holders = [h for h in self.cells.get(cell, ()) if h not in gone and h != op]
            excess = len(holders) + k - self.capacity[cell[0]]
            for h in sorted(holders, key=order)[: max(0, excess)]:
                gone.add(h)
                where = "issue slot" if cell[0] == ISSUE else f"unit {cell[0]}"
                out.append((h, f"{where}, row {cell[1]}"))
        return out

    def add(self, op: int, t: int) -> None:
        for cell, k in self.needs(op, t).items():
            self.cells.setdefault(cell, []).extend([op] * k)

    def remove(self, op: int, t: int) -> None:
        for cell, _k in self.needs(op, t).items():
            self.cells[cell] = [h for h in self.cells[cell] if h != op]


@dataclass
class ReservationTable:
    """The modulo reservation table: ``rows`` (0..II-1) × ``columns`` (the issue slots, then
    each unit), each cell the operations (and their stages) that use it in that row.

    Rows count from the first cycle of the schedule, so row ``r`` is cycle ``r`` of the kernel.
    """

    ii: int
    columns: list[tuple[str, int]]
    cells: dict[tuple[int, str], list[tuple[int, int]]]
    labels: list[str]

    def overflows(self) -> list[tuple[int, str, int, int]]:
        """``(row, column, used, capacity)`` for every over-full cell."""
        cap = dict(self.columns)
        return [
            (row, col, len(who), cap[col])
            for (row, col), who in sorted(self.cells.items())
            if len(who) > cap[col]
        ]

    def cell_text(self, row: int, col: str) -> str:
        return " ".join(f"{self.labels[k]}/s{s}" for k, s in self.cells.get((row, col), ()))

    def rows(self) -> list[list[str]]:
        return [[self.cell_text(r, c) for c, _ in self.columns] for r in range(self.ii)]

    def text(self) -> str:
        """The table as text (``I3/s1``: instruction I3, stage 1)."""
        heads = ["row"] + [f"{c} (×{cap})" if cap > 1 else c for c, cap in self.columns]
        body = [[str(r)] + row for r, row in enumerate(self.rows())]
        widths = [max(len(x[i]) for x in [heads] + body) for i in range(len(heads))]
        lines = ["  ".join(h.ljust(w) for h, w in zip(heads, widths, strict=True)).rstrip()]
        lines.append("  ".join("-" * w for w in widths))
        for r in body:
            lines.append("  ".join(x.ljust(w) for x, w in zip(r, widths, strict=True)).rstrip())
        return "\n".join(lines)


def reservation_table(
    graph: Graph, start: dict[int, int] | list[int], ii: int, first: int | None = None
) -> ReservationTable:
    """The MRT of a (possibly partial) schedule ``start`` at ``ii``; rows and stages count from
    ``first`` (default: the earliest start)."""
    placed = dict(enumerate(start)) if isinstance(start, list) else dict(start)
    if first is None:
        first = min(placed.values(), default=0)
    columns = ([(ISSUE, graph.issue_width)] if graph.issue_width is not None else []) + list(
        graph.units.items()
    )
    cells: dict[tuple[int, str], list[tuple[int, int]]] = {}
    for k in sorted(placed, key=lambda k: (placed[k], k)):
        t = placed[k] - first
        stage = t // ii
        if graph.issue_width is not None:
            cells.setdefault((t % ii, ISSUE), []).append((k, stage))
        for r in graph.ops[k].reservations:
            for c in range(t + r.offset, t + r.offset + r.cycles):
                cells.setdefault((c % ii, r.unit), []).append((k, stage))
    return ReservationTable(ii, columns, cells, [op.name for op in graph.ops])


# -- iterative modulo scheduling ---------------------------------------------------------------
@dataclass
class ModuloStep:
    """One step of the scheduler, for the widget.

    ``kind``: ``ii`` (start trying an initiation interval), ``place`` (an operation placed, maybe
    evicting others), ``give-up`` (the budget ran out at this II), ``done``. ``placed`` is the
    partial schedule after the step (operation -> cycle, counting from 0).
    """

    kind: str
    ii: int
    message: str
    op: int | None = None
    time: int | None = None
    earliest: int | None = None
    evicted: list[tuple[int, str]] = field(default_factory=list)
    placed: dict[int, int] = field(default_factory=dict)
    forced: bool = False


#: trace steps keep a snapshot of the placed operations only for loops up to this size (the
#: snapshots of a long loop's trace would take gigabytes)
SNAPSHOT_OPS = 300


def _attempt(
    graph: Graph,
    ii: int,
    budget: int,
    steps: list[ModuloStep],
    deadline: float | None = None,
) -> dict[int, int] | None:
    n = len(graph.ops)
    snap = (lambda d: dict(d)) if n <= SNAPSHOT_OPS else (lambda d: {})
    label = graph.label
    height = modulo_heights(graph, ii)
    preds: dict[int, list[Edge]] = {i: [] for i in range(n)}
    succs: dict[int, list[Edge]] = {i: [] for i in range(n)}
    for e in graph.edges:
        if e.src != e.dst:
            preds[e.dst].append(e)
            succs[e.src].append(e)
    occ = _Occupancy(graph, ii)
    time: dict[int, int] = {}
    prev: dict[int, int] = {}
    todo = set(range(n))
    used = 0

    def unplace(k: int) -> None:
        occ.remove(k, time.pop(k))
        todo.add(k)

    while todo:
        if deadline is not None and _clock() > deadline:
            raise _OutOfTime
        if used >= budget:
            steps.append(
                ModuloStep(
                    "give-up",
                    ii,
                    f"II = {ii}: budget of {budget} placements used up with "
                    f"{len(todo)} operation(s) unplaced: try II = {ii + 1}",
                    placed=snap(time),
                )
            )
            return None
        op = max(todo, key=lambda i: (height[i], -i))
        earliest, why = 0, "no placed predecessor"
        for e in preds[op]:
            if e.src in time:
                t = time[e.src] + e.latency - ii * e.distance
                if t > earliest:
                    lag = f" - {ii}×{e.distance}" if e.distance else ""
                    earliest = t
                    why = (
                        f"{e.kind} on {e.on} from {label(e.src)} "
                        f"(cycle {time[e.src]} + {e.latency}{lag})"
                    )
        slot = next((t for t in range(earliest, earliest + ii) if occ.fits(op, t)), None)
        forced = slot is None
        if forced:
            slot = earliest if (op not in prev or earliest > prev[op]) else prev[op] + 1
        evicted = occ.blockers(op, slot, order=lambda k: (height[k], -k))
        for k, _where in evicted:
            unplace(k)
        occ.add(op, slot)
        time[op] = slot
        prev[op] = slot
        todo.discard(op)
        for e in succs[op]:
            if e.dst in time and e.dst != op and time[e.dst] < slot + e.latency - ii * e.distance:
                evicted.append(
                    (
                        e.dst,
                        f"{e.kind} on {e.on} needs it at cycle >= "
                        f"{slot + e.latency - ii * e.distance}",
                    )
                )
                unplace(e.dst)
        for e in preds[op]:
            if e.src in time and e.src != op and slot < time[e.src] + e.latency - ii * e.distance:
                evicted.append((e.src, f"{e.kind} on {e.on} to {label(op)} broken"))
                unplace(e.src)
        used += 1
        msg = (
            f"II = {ii}: place {label(op)} (height {height[op]}) at cycle {slot}; "
            f"earliest {earliest}: {why}"
        )
        if forced:
            msg += f"; no free row in cycles {earliest}..{earliest + ii - 1}, so it is forced in"
        if evicted:
            msg += "; evicts " + ", ".join(f"{label(k)} ({w})" for k, w in evicted)
        steps.append(ModuloStep("place", ii, msg, op, slot, earliest, evicted, snap(time), forced))
    return time


#: bodies up to this many operations get a list-scheduled fallback; longer ones program order
LIST_FALLBACK_MAX = 200


def _fallback(graph: Graph) -> tuple[int, dict[int, int]]:
    """An II at which one iteration's list schedule is a legal modulo schedule (no overlap)."""
    from ..core.list_sched import list_schedule

    intra = Graph(
        graph.ops,
        graph.intra_edges(),
        units=dict(graph.units),
        issue_width=graph.issue_width,
        earliest=0,
        name=graph.name,
    )
    if len(graph.ops) <= LIST_FALLBACK_MAX:
        s = list_schedule(intra).start
    else:  # a long body: one iteration in program order (linear time) is legal just as well
        from ..core.evaluate import evaluate

        s = evaluate(intra, intra.topological_order()).start
    span = max(
        [
            t + r.offset + r.cycles
            for t, op in zip(s, graph.ops, strict=True)
            for r in op.reservations
        ]
        + [t + 1 for t in s]
    ) - min(s)
    need = [span]
    for e in graph.edges:
        if e.distance:
            need.append(-(-(e.latency + s[e.src] - s[e.dst]) // e.distance))
    return max(need), dict(enumerate(s))


def iterative_modulo_schedule(
    graph: Graph,
    *,
    budget_ratio: int = 6,
    ii: int | None = None,
    time_limit: float | None = 10.0,
    deadline: float | None = None,
) -> tuple[Schedule, list[ModuloStep]]:
    """Modulo-schedule ``graph`` (Rau's iterative modulo scheduling; see the module docstring).

    Starts at ``ii`` (default: MII) and increases it until a schedule is found. Returns a
    verified :class:`~lecturekit.core.Schedule` (``ii`` set, start cycles from 0) and the trace.
    After ``time_limit`` seconds (checked at every placement) it stops searching and uses one
    iteration's list schedule, which is legal at its own II (``info["timed_out"]`` is then true:
    the II found is not the smallest the search might have reached).
    """
    if deadline is None:
        deadline = _deadline(time_limit)
    if not graph.ops:
        raise ScheduleError("the loop has no operations to schedule")
    graph.check_acyclic()
    bound = max(res_mii(graph), rec_mii(graph, deadline), 1)
    ii = bound if ii is None else ii
    if ii < 1:
        raise ScheduleError(f"initiation interval must be at least 1, got {ii}")
    budget = max(1, budget_ratio) * len(graph.ops)
    last_ii, fallback = _fallback(graph)
    steps: list[ModuloStep] = []
    timed_out = False
    while True:
        steps.append(
            ModuloStep("ii", ii, f"try II = {ii} (MII = {bound}); budget {budget} placements")
        )
        time = None
        if ii >= bound:
            try:
                time = _attempt(graph, ii, budget, steps, deadline)
            except _OutOfTime:
                timed_out = True
                ii = max(ii, last_ii)
                time = fallback
                steps.append(
                    ModuloStep(
                        "give-up",
                        ii,
                        f"time limit reached: stop searching; use one iteration's list schedule "
                        f"at II = {ii} (best found, not the smallest II possible)",
                        placed=dict(time) if len(graph.ops) <= SNAPSHOT_OPS else {},
                    )
                )
                break
        else:
            steps.append(ModuloStep("give-up", ii, f"II = {ii} is below MII = {bound}: impossible"))
        if time is None and ii >= last_ii:
            time = fallback
            steps.append(
                ModuloStep(
                    "place",
                    ii,
                    f"II = {ii}: the iterations no longer need to overlap; use one iteration's "
                    "list schedule",
                    placed=dict(time),
                )
            )
        if time is not None:
            break
        ii += 1
    first = min(time.values())
    start = [time[k] - first for k in range(len(graph.ops))]
    sched = Schedule(graph, start, algorithm="iterative modulo", ii=ii)
    verify(graph, sched, ii=ii)
    placements = sum(1 for s in steps if s.kind == "place")
    evictions = sum(len(s.evicted) for s in steps)
    sched.info.update(mii=bound, placements=placements, evictions=evictions, timed_out=timed_out)
    steps.append(
        ModuloStep(
            "done",
            ii,
            f"schedule found at II = {ii} (MII = {bound}) after {placements} placement(s) and "
            f"{evictions} eviction(s)",
            placed={k: t for k, t in enumerate(start)},
        )
    )
    return sched, steps


# -- the loop-level result --------------------------------------------------------------------
@dataclass
class ModuloResult:
    """A software-pipelined loop: bounds, schedule, table, stages, code and the trace.

    ``schedule.start[k]`` is the issue cycle of instruction ``k`` in iteration 0 (iteration ``i``
    adds ``i*ii``); the first starts in the machine's first issue cycle. ``stages[k]`` and
    ``rows[k]`` place it in the kernel. ``prologue``, ``kernel`` and ``epilogue`` are lines of
    code (the kernel starts with its label and ends with its branch); ``code`` is the whole
    runnable program (trip count, fallback for short trip counts, live-in/live-out copies), or
    ``None`` when the trip count cannot be computed (``notes`` says why). ``unroll``: how many
    times the kernel is unrolled by modulo variable expansion; ``registers``: distinct registers
    in the kernel; ``code_size``: instructions in ``code`` besides those before and after the
    loop. ``graph`` is the graph the schedule respects (see ``keep_war`` of
    :func:`modulo_schedule`); ``bounds_graph`` holds only the true dependences, from which ResMII,
    RecMII and the recurrences are computed.
    """

    loop: Loop
    graph: Graph
    res_mii: int
    rec_mii: int
    mii: int
    ii: int
    schedule: Schedule
    stage_count: int
    stages: list[int]
    rows: list[int]
    table: ReservationTable
    trace: list[ModuloStep]
    resources: list[ResourceBound]
    recurrences: list[Recurrence]
    bounds_graph: Graph | None = None
    lifetimes: list = field(default_factory=list)
    unroll: int = 1
    prologue: list[str] = field(default_factory=list)
    kernel: list[str] = field(default_factory=list)
    epilogue: list[str] = field(default_factory=list)
    code: str | None = None
    registers: int = 0
    code_size: int = 0
    move_induction: bool = False
    motion: list[dict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def machine(self) -> Machine:
        return self.loop.machine

    @property
    def first(self) -> int:
        return self.graph.earliest

    def iteration_starts(self, iterations: int) -> list[list[int]]:
        """Issue cycle of every instruction in iterations 0..iterations-1 (pipelined)."""
        return [[t + i * self.ii for t in self.schedule.start] for i in range(iterations)]

    def kernel_window(self, iterations: int) -> tuple[int, int] | None:
        """Cycles ``(first, last)`` in which the kernel runs when ``iterations`` iterations are
        pipelined (``None`` if there are fewer iterations than stages)."""
        kernels = iterations - self.stage_count + 1
        if kernels < 1:
            return None
        a = self.first + (self.stage_count - 1) * self.ii
        return a, a + kernels * self.ii - 1

    def to_dict(self) -> dict:
        """The JSON contract of ``lecturekit modulo``."""
        m = self.machine
        return {
            "machine": {"name": m.name, "issue_width": m.issue_width, "units": dict(m.units)},
            "instructions": [
                {"index": k, "text": ins.text or str(ins), "unit": m.timing(ins.op_class).unit}
                for k, ins in enumerate(self.loop.body)
            ],
            "edges": [edge_dict(e) for e in self.graph.edges],
            "res_mii": self.res_mii,
            "rec_mii": self.rec_mii,
            "mii": self.mii,
            "ii": self.ii,
            "timed_out": bool(self.schedule.info.get("timed_out", False)),
            "stage_count": self.stage_count,
            "ops": [
                {"index": k, "cycle": t, "stage": s, "row": r}
                for k, (t, s, r) in enumerate(
                    zip(self.schedule.start, self.stages, self.rows, strict=True)
                )
            ],
            "unroll": self.unroll,
            "registers": self.registers,
            "code_size": self.code_size,
            "prologue": list(self.prologue),
            "kernel": list(self.kernel),
            "epilogue": list(self.epilogue),
            "code": self.code,
            "notes": list(self.notes),
            "motion": list(self.motion),
        }


def _rotate(graph: Graph, start: list[int], ii: int, branch: int) -> list[int]:
    """Shift a modulo schedule so that it starts in the graph's first cycle and the branch is in
    the last row of the kernel (legal shifts: the constraints only see differences)."""
    first = graph.earliest
    shift = first - min(start)
    t = [s + shift for s in start]
    extra = (ii - 1 - (t[branch] - first)) % ii
    return [s + extra for s in t]


def modulo_schedule(
    source,
    machine: Machine | str | None = None,
    *,
    restrict: bool = True,
    budget_ratio: int = 6,
    ii: int | None = None,
    keep_war: bool | str = "auto",
    codegen: bool = True,
    time_limit: float | None = 10.0,
    move_induction: bool = True,
) -> ModuloResult:
    """Software-pipeline the loop in ``source`` (text, parsed program, or a :class:`Loop`).

    Computes ResMII, RecMII and MII from the true dependences, modulo-schedules with
    :func:`iterative_modulo_schedule` (starting at ``ii`` if given), puts the branch at the end of
    the kernel, draws the modulo reservation table and, with ``codegen``, generates prologue,
    kernel and epilogue with modulo variable expansion (:mod:`lecturekit.loops.codegen`).

    ``keep_war``: whether register WAR dependences within an iteration constrain the schedule
    (see :meth:`Loop.graph`). ``"auto"`` schedules both ways and keeps the WAR edges unless
    that costs a larger II: the same speed with shorter register lifetimes.

    ``time_limit`` (seconds, for everything): when it is reached the search stops and one
    iteration's list schedule is used (``info["timed_out"]``; best found, not proven smallest).

    ``move_induction``: in the generated code, loads and stores through an induction variable
    read the newest pointer value already computed and have their offsets rewritten
    (induction-variable motion, :func:`lecturekit.loops.codegen._move_induction`); ``motion``
    and ``notes`` say which (issue 17: what LLVM's ``MachinePipeliner`` does, through
    ``changeDependences``; GCC's modulo scheduler keeps the old pointer value with register moves
    instead, ``schedule_reg_moves``, and GCC rewrites offsets only in its list scheduler,
    ``find_modifiable_mems``). Default ``True``;
    ``False`` gives the lecture's slide form, every access reading its own iteration's pointer
    (renamed, so the pointer may need modulo variable expansion).
    """
    if keep_war not in (True, False, "auto"):
        raise ScheduleError(f"keep_war must be True, False or 'auto', got {keep_war!r}")
    deadline = _deadline(time_limit)  # one limit for everything below
    loop = analyze_loop(source, machine, restrict=restrict)
    free = loop.graph(renamed=True)
    rmii, cmii = res_mii(free), rec_mii(free, deadline)
    options = []
    if keep_war in (True, "auto"):
        tight = loop.graph(renamed=True, keep_war=True)
        options.append(
            (
                tight,
                *iterative_modulo_schedule(
                    tight, budget_ratio=budget_ratio, ii=ii, deadline=deadline
                ),
            )
        )
    if keep_war in (False, "auto"):
        options.append(
            (
                free,
                *iterative_modulo_schedule(
                    free, budget_ratio=budget_ratio, ii=ii, deadline=deadline
                ),
            )
        )
    graph, sched, trace = min(options, key=lambda o: o[1].ii)  # ties: the first (WAR kept)
    mii = max(rmii, cmii, 1)
    proven = sched.ii <= mii
    searched: list[str] = []
    if not proven and ii is None:
        graph, sched, trace, proven, searched = _smallest_ii(
            free, graph, sched, trace, mii, deadline
        )
    ii = sched.ii
    start = _rotate(graph, sched.start, ii, loop.branch)
    schedule = Schedule(graph, start, algorithm=sched.algorithm, ii=ii, info=dict(sched.info))
    schedule.info["proven_minimum"] = proven
    verify(graph, schedule, ii=ii)
    first = graph.earliest
    stages = [(t - first) // ii for t in start]
    rows = [(t - first) % ii for t in start]
    notes = list(loop.notes) + searched
    if len(options) == 2:
        kept = graph is options[0][0]
        notes.append(
            "register WAR dependences within an iteration were kept (same II, shorter lifetimes)"
            if kept
            else f"register WAR dependences within an iteration were dropped: keeping them "
            f"would need II = {options[0][1].ii}"
        )
    result = ModuloResult(
        loop=loop,
        graph=graph,
        res_mii=rmii,
        rec_mii=cmii,
        mii=max(rmii, cmii, 1),
        ii=ii,
        schedule=schedule,
        stage_count=max(stages) + 1,
        stages=stages,
        rows=rows,
        table=reservation_table(graph, start, ii, first),
        trace=trace,
        resources=resource_bounds(free),
        recurrences=recurrences(free),
        bounds_graph=free,
        notes=notes,
        move_induction=move_induction,
    )
    if codegen:
        from .codegen import pipeline_code

        pipeline_code(result)
    return result


def _smallest_ii(free: Graph, graph: Graph, sched: Schedule, trace, mii: int, deadline):
    """The iterative scheduler stopped above MII: every II between MII and the one it found is
    decided exactly (:func:`~lecturekit.loops.exact_ii.modulo_schedule_at`), smallest first;
    the first that has a schedule is the smallest II. Returns (graph, schedule, trace, proven,
    notes): ``proven`` is false when the time limit left an II undecided (the schedule found
    is kept)."""
    from .exact_ii import modulo_schedule_at

    notes: list[str] = []
    for ii in range(mii, sched.ii):
        try:
            start, nodes = modulo_schedule_at(free, ii, deadline=deadline)
        except _OutOfTime:
            notes.append(f"II = {ii} not decided within the time limit: II = {sched.ii} is the "
                         "best found, not proven the smallest")  # fmt: skip
            return graph, sched, trace, False, notes
        if start is None:
            notes.append(f"II = {ii} is impossible (exact search over the table's rows, "
                         f"{nodes} nodes)")  # fmt: skip
            continue
        exact = Schedule(free, start, algorithm="exact modulo", ii=ii)
        exact.info.update(mii=mii, timed_out=False, nodes=nodes)
        notes.append(
            f"iterative modulo scheduling stopped at II = {sched.ii}; the exact search found "
            f"II = {ii} "
            f"({nodes} nodes)"
        )
        steps = [
            ModuloStep("ii", ii, f"exact search at II = {ii} (MII = {mii})"),
            ModuloStep(
                "done",
                ii,
                f"schedule found at II = {ii} by the exact search ({nodes} nodes)",
                placed=dict(enumerate(start)),
            ),
        ]
        return free, exact, steps, True, notes
    return graph, sched, trace, True, notes


# -- why a smaller II fails --------------------------------------------------------------------
@dataclass
class IIReport:
    """Whether initiation interval ``ii`` works, and why not.

    ``resources``: the resource bounds above ``ii`` (some row of that resource would have to hold
    more than it can). ``recurrences``: the dependence cycles that need more than ``ii``.
    ``scheduler``: for an ``ii`` at or above MII, what the scheduler did. ``table``: the found
    schedule folded onto ``ii`` rows (over-full cells show where it no longer fits), and
    ``broken``: the dependences the folded schedule would break.
    """

    ii: int
    feasible: bool
    resources: list[ResourceBound]
    recurrences: list[Recurrence]
    scheduler: str
    table: ReservationTable
    broken: list[str]

    def reasons(self, graph: Graph) -> list[str]:
        """Why ``ii`` fails (or that it works), one sentence each."""
        out = []
        for b in self.resources:
            have = self.ii * b.capacity
            if b.resource == ISSUE:
                out.append(
                    f"issue slots: {b.uses} instructions per iteration, but {self.ii} row(s) × "
                    f"{b.capacity} slot(s) = {have}: some row overflows (needs II >= {b.bound})"
                )
            else:
                out.append(
                    f"unit {b.resource}: busy {b.uses} cycle(s) per iteration, but {self.ii} "
                    f"row(s) × {b.capacity} = {have}: some row overflows (needs II >= {b.bound})"
                )
        for r in self.recurrences:
            path = " -> ".join(graph.label(i) for i in (*r.ops, r.ops[0]))
            via = ", ".join(f"{e.kind} {e.on}" for e in r.edges)
            out.append(
                f"recurrence {path} ({via}): latency {r.latency} must pass within {r.distance} "
                f"iteration(s) = {r.distance}×{self.ii} = {r.distance * self.ii} cycles "
                f"(needs II >= {r.bound})"
            )
        if self.scheduler:
            out.append(self.scheduler)
        return out


def explain_ii(result: ModuloResult, ii: int) -> IIReport:
    """Why ``ii`` does or does not work for the loop of ``result`` (computed, for the II slider)."""
    if not isinstance(ii, int) or isinstance(ii, bool) or ii < 1:
        raise ScheduleError(f"initiation interval must be a positive integer, got {ii!r}")
    g = result.bounds_graph or result.graph
    res = [b for b in result.resources if b.bound > ii]
    recs = [r for r in result.recurrences if r.bound > ii]
    if not recs and ii < result.rec_mii:  # more cycles than were listed: find one exactly
        critical = critical_recurrence(g, ii)
        recs = [critical] if critical is not None else []
    scheduler = ""
    feasible = not res and not recs
    if feasible:
        if ii >= result.ii:
            scheduler = f"II = {ii} works: the scheduler found a schedule at II = {result.ii}"
            if ii > result.ii:
                scheduler += " (a larger II only wastes cycles)"
        else:
            steps: list[ModuloStep] = []
            budget = 6 * len(g.ops)
            found = _attempt(g, ii, budget, steps)
            if found is not None:
                scheduler = f"II = {ii} works (a schedule exists)"
            else:
                feasible = False
                evictions = sum(len(s.evicted) for s in steps)
                scheduler = (
                    f"scheduler: no schedule found at II = {ii} within its budget of {budget} "
                    f"placements ({evictions} evictions); MII = {result.mii} is only a lower bound"
                )
    folded = reservation_table(result.graph, result.schedule.start, ii, g.earliest)
    broken = [v for v in violations(result.graph, result.schedule.start, ii) if "row" not in v]
    return IIReport(ii, feasible, res, recs, scheduler, folded, broken)


__all__ = [
    "ISSUE",
    "IIReport",
    "ModuloResult",
    "ModuloStep",
    "Recurrence",
    "ReservationTable",
    "ResourceBound",
    "critical_recurrence",
    "explain_ii",
    "iterative_modulo_schedule",
    "modulo_heights",
    "modulo_schedule",
    "rec_mii",
    "recurrences",
    "res_mii",
    "reservation_table",
    "resource_bounds",
]
