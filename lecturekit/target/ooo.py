"""An out-of-order core on the lecture's machines: reservation stations, renaming, a reorder
buffer, in-order commit (乱序 + 超标量).

The lecture's closing question about modern processors: they are 乱序且是超标量的 (out of order and
superscalar), so why schedule at all? This module runs a block on an out-of-order version of any
machine, and it does so with the scheduling core's own list scheduler: the hardware's
"issue whatever is ready, oldest first, inside a window" *is* list scheduling with the age
priority and an instruction window (:class:`lecturekit.core.window.Window`). There is no second
simulator loop.

What the hardware does, and where it is in the model:

* **dispatch** (H&P call it *issue*): instructions enter in program order, ``width`` per cycle,
  into the **reservation stations** (``window`` entries, the scheduler) and the **reorder
  buffer** (``rob`` entries); an instruction waits when either is full;
* **register renaming**: every result gets its own name (a reservation-station tag, a ROB entry,
  a physical register), so the register WAR and WAW dependences of the block disappear and only
  the true (RAW) ones, memory order and the machine's units remain: the edges of
  :func:`renamed_graph`;
* **issue / execute**: an instruction in the stations starts when its operands are ready and
  its functional unit and an issue slot are free, the oldest ready instruction first; it takes
  the machine's latencies (the same :class:`~lecturekit.target.machine.Machine`);
* **write result** (the common data bus): the cycle it leaves the machine's write stage; the
  instructions waiting for it may start as the machine's RAW latency allows;
* **commit** (retire): in program order, ``width`` per cycle, the cycle after the result was
  written at the earliest; only then does it leave the reorder buffer.

Branches: with ``predict=True`` (the default) the core predicts every branch correctly, so no
instruction waits for a branch (its ``CTRL`` edges go); it still commits in order. Memory: the
core compares addresses (``memory_order="addresses"``, the default): a load waits for an older
store only when they may touch the same word, which it tells from the code where pointers move
by constants (:func:`memory_addresses`); ``memory_order=True`` keeps every memory dependence of
the analysis (as the in-order pipeline does), ``False`` drops them all, ``"llvm-mca"`` orders
them as llvm-mca does.

With ``window=1, rename=False, predict=False, memory_order=True`` and no reorder-buffer limit, a
single-issue
machine runs exactly as the in-order pipeline (:func:`lecturekit.target.pipeline.simulate`) and
:func:`lecturekit.core.evaluate` say (the tests check it on random blocks).

Not modelled: the common data bus as a shared resource (one result per cycle in H&P's Tomasulo;
the ports the real cores have), mispredicted branches, caches, micro-ops (one instruction is one
operation), and reservation stations per unit (here one shared pool, freed when an instruction
starts, as in today's cores; Tomasulo's original stations stayed busy until the result was
broadcast).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..asm import Program, parse
from ..core.graph import Edge, Graph
from ..core.list_sched import list_schedule
from ..core.schedule import Schedule
from ..core.verify import verify
from ..core.window import Window
from ..errors import ScheduleError
from ..language import N_, _
from .deps import DependenceGraph, analyze, instruction_label
from .machine import Machine, get_machine

#: the most instructions :func:`simulate_ooo` runs (a loop's dynamic trace included)
MAX_INSTRUCTIONS = 1000


def _limit(name: str, value) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ScheduleError(
            _("{name} must be a whole number >= 1 or None, got {value!r}").format(
                name=name, value=value
            )
        )
    return value


def renamed_graph(
    dg: DependenceGraph,
    *,
    rename: bool = True,
    predict: bool = True,
    memory_order: bool | str = "addresses",
    addresses: list[int | None] | None = None,
) -> Graph:
    """The dependence graph an out-of-order core respects: ``dg``'s edges without register WAR
    and WAW (``rename``), without ``CTRL`` (``predict``), without memory edges
    (``memory_order=False``), with only those between accesses to the same address where the
    addresses can be told apart (``"addresses"``, :func:`memory_addresses`), or with llvm-mca's
    memory order instead (``"llvm-mca"``: loads pass stores, since it assumes they never alias,
    but a store waits until the stores before it have executed and the loads before it have
    started). ``True`` keeps every memory edge of the analysis. ``addresses`` (the address
    each instruction accessed in a run, as :func:`lecturekit.loops.interp.run` records them)
    are what the core compares when they are given. Operations, units and issue width are the
    block's."""
    if memory_order not in (True, False, "addresses", "llvm-mca"):
        raise ScheduleError(
            _(
                "memory_order is True, False, 'addresses' or 'llvm-mca', got {memory_order!r}"
            ).format(memory_order=memory_order)
        )
    where = memory_addresses(dg.program) if memory_order == "addresses" else {}
    if memory_order == "addresses" and addresses is not None:
        if len(addresses) != len(dg.program):
            raise ScheduleError(
                _("{given} addresses for {n} instructions").format(
                    given=len(addresses), n=len(dg.program)
                )
            )
        where = {
            k: ("memory", a, dg.program[k].mem.size or 4)
            for k, a in enumerate(addresses)
            if a is not None and dg.program[k].mem is not None
        }
    keep: list[Edge] = []
    for e in dg.edges:
        memory = e.on.startswith("mem ")
        if rename and not memory and e.kind in ("WAR", "WAW"):
            continue
        if predict and e.kind == "CTRL":
            continue
        if memory and memory_order == "addresses":
            a, b = where.get(e.src), where.get(e.dst)
            if a is not None and b is not None and a[0] == b[0] and not _overlap(a, b):
                continue  # the core compares the addresses: these two never meet
        elif memory and memory_order is not True:
            continue
        keep.append(e)
    g = dg.graph
    if memory_order == "llvm-mca":
        last_store, loads = None, []
        for k, ins in enumerate(dg.program):
            if ins.is_store:
                if last_store is not None:
                    keep.append(
                        Edge(last_store, k, g.ops[last_store].tail, "MEM", N_("store order"))
                    )
                keep.extend(Edge(i, k, 0, "MEM", N_("store after load")) for i in loads)
                last_store, loads = k, []
            elif ins.is_load:
                loads.append(k)
    return Graph(
        g.ops,
        keep,
        units=dict(g.units),
        issue_width=g.issue_width,
        earliest=g.earliest,
        name=g.name,
        source=dg,
    )


def memory_addresses(program: Program) -> dict[int, tuple[str, int, int]]:
    """The address of every load and store as ``(origin, offset, size)`` where it can be known
    from the code: a register that only moves by constants (``addi $s1, $s1, 4``, ``move``)
    keeps its origin (its value at the start, or the instruction that last set it otherwise),
    so ``0($s1)`` before and after ``addi $s1, $s1, 4`` are ``(s1, 0)`` and ``(s1, 4)``: two
    different words. An out-of-order core knows the addresses once it has computed them and
    lets a load pass an older store to another address (H&P's load and store buffers compare
    them); accesses with different origins may be anywhere and stay in order."""
    state: dict[str, tuple[str, int]] = {}
    out: dict[int, tuple[str, int, int]] = {}
    for k, ins in enumerate(program):
        if ins.mem is not None:
            origin, const = state.get(ins.mem.base, (ins.mem.base, 0))
            out[k] = (origin, const + ins.mem.offset, ins.mem.size or 1)
        for reg in ins.writes():
            src = ins.srcs[0] if ins.srcs else None
            if ins.opcode in ("addi", "subi", "addiu", "daddui") and ins.imm is not None:
                origin, const = state.get(src, (src, 0))
                step = ins.imm if ins.opcode != "subi" else -ins.imm
                state[reg] = (origin, const + step)
            elif ins.opcode in ("move", "mv") and src is not None:
                state[reg] = state.get(src, (src, 0))
            else:
                state[reg] = (f"{reg}@{k}", 0)
    return out


def _overlap(a: tuple[str, int, int], b: tuple[str, int, int]) -> bool:
    return a[1] < b[1] + b[2] and b[1] < a[1] + a[2]


@dataclass
class OooResult:
    """A block run on an out-of-order core. Instructions are identified by their index in the
    program; every per-instruction list is indexed by it. Cycles count from 1.

    ``dispatch``: the cycle it entered the reservation stations and the reorder buffer (H&P's
    *issue*); ``issue``: the cycle it started (lecturekit's issue: operands read, unit taken);
    ``complete``: its last cycle in the execute stage; ``write``: the cycle its result is written
    (it leaves the machine's write stage: H&P's *write result*); ``commit``: the cycle it leaves
    the reorder buffer. ``schedule`` is the verified schedule of ``graph`` (the renamed
    dependence graph) the list scheduler made; ``removed``: the dependences renaming and
    prediction took away.
    """

    program: Program
    machine: Machine
    window: int | None
    rob: int | None
    width: int | None
    rename: bool
    predict: bool
    order: list[int]
    graph: Graph
    schedule: Schedule
    dispatch: list[int]
    issue: list[int]
    complete: list[int]
    write: list[int]
    commit: list[int]
    removed: list[Edge] = field(default_factory=list)
    held: dict[int, str] = field(default_factory=dict)

    @property
    def cycles(self) -> int:
        """The cycle the last result is written: the block's length, as for the in-order
        pipeline (the cycle its last instruction leaves the last stage)."""
        return max(self.write, default=0)

    @property
    def retired(self) -> int:
        """The cycle the last instruction commits."""
        return max(self.commit, default=0)

    def waits(self, k: int) -> tuple[str, int | None, int]:
        """Why instruction ``k`` started when it did: ``(cause, producer, cycles)`` with cause
        ``"operands"`` (waiting for ``producer``'s result), ``"unit"`` (ready, but its unit or an
        issue slot was taken by an older instruction) or ``""`` (it started as soon as it could
        after dispatch); ``cycles`` it waited in the stations."""
        first = self.dispatch[k] + 1
        ready, producer = first, None
        for e in self.graph.preds(k):
            t = self.issue[e.src] + e.latency
            if t > ready:
                ready, producer = t, e.src
        waited = self.issue[k] - first
        if self.issue[k] > ready:
            return "unit", producer, waited
        if producer is not None:
            return "operands", producer, waited
        return "", None, waited

    def state(self, cycle: int) -> dict:
        """What the core holds during ``cycle`` (after its dispatches):

        ``stations``: instructions waiting in the reservation stations, each with the
        instructions whose results it still waits for (its tags: ``Qj``/``Qk`` in H&P);
        ``executing``: instructions that have started and not yet written their result;
        ``rob``: the reorder buffer's entries at the end of the cycle, oldest first, each
        ``(k, status)`` with status ``waiting``, ``executing`` or ``written`` (from its write
        cycle on; those that commit in this cycle have left it); ``renamed``: register -> the
        instruction whose result it will hold (H&P's register status), for registers written by
        an instruction still in flight; ``dispatched`` / ``committed``: what entered and left
        in this cycle.
        """
        n = len(self.program)
        stations = []
        for k in self.order:
            if self.dispatch[k] <= cycle < self.issue[k]:
                tags = [
                    e.src
                    for e in self.graph.preds(k)
                    if e.kind == "RAW" and self.issue[e.src] + e.latency > cycle
                ]
                stations.append((k, sorted(set(tags))))
        executing = [k for k in self.order if self.issue[k] <= cycle < self.write[k]]
        rob = []
        for k in self.order:
            if self.dispatch[k] <= cycle < self.commit[k]:
                if cycle < self.issue[k]:
                    status = "waiting"
                elif cycle < self.write[k]:
                    status = "executing"
                else:
                    status = "written"
                rob.append((k, status))
        renamed: dict[str, int] = {}
        for k in self.order:  # in program order: the youngest writer in flight wins
            if self.dispatch[k] <= cycle < self.commit[k]:
                for reg in self.program[k].writes():
                    renamed[reg] = k
        return {
            "cycle": cycle,
            "stations": stations,
            "executing": executing,
            "rob": rob,
            "renamed": renamed,
            "dispatched": [k for k in range(n) if self.dispatch[k] == cycle],
            "committed": [k for k in range(n) if self.commit[k] == cycle],
            "held": self.held.get(cycle, ""),
        }

    def table(self) -> list[dict]:
        """One row per instruction in program order, H&P's *instruction status* with cycles:
        dispatch (their issue), issue, complete, write, commit."""
        return [
            {
                "instruction": self.program[k].text or str(self.program[k]),
                "dispatch": self.dispatch[k],
                "issue": self.issue[k],
                "complete": self.complete[k],
                "write": self.write[k],
                "commit": self.commit[k],
            }
            for k in range(len(self.program))
        ]


def _check_order(dg: DependenceGraph, order: list[int]) -> None:
    n = len(dg.program)
    if sorted(order) != list(range(n)):
        shown = order if len(order) <= 20 else f"{order[:20]} ..."
        raise ScheduleError(
            _("order must list each instruction index 0..{last} once, got {shown}").format(
                last=n - 1, shown=shown
            )
        )
    position = {k: i for i, k in enumerate(order)}
    for e in dg.edges:
        if position[e.dst] < position[e.src]:
            raise ScheduleError(
                _(
                    "the order puts {later} before {earlier}, but it depends on it ({kind} on {on})"
                ).format(
                    later=instruction_label(e.dst),
                    earlier=instruction_label(e.src),
                    kind=e.kind,
                    on=_(e.on),
                )
            )


def simulate_ooo(
    program: Program | str,
    machine: Machine | str | None = None,
    *,
    window: int | None = 16,
    rob: int | None = None,
    width: int | None = None,
    retire_width: int | None | str = "width",
    rename: bool = True,
    predict: bool = True,
    memory_order: bool | str = "addresses",
    select: str = "age",
    order: list[int] | None = None,
    addresses: list[int | None] | None = None,
) -> OooResult:
    """Run ``program`` (instructions in ``order``, default program order: the order of the
    binary) on an out-of-order version of ``machine`` (module docstring).

    ``window``: reservation-station entries; ``rob``: reorder-buffer entries (``None``: no
    limit); ``width``: instructions dispatched and committed per cycle (default: the machine's
    issue width, which also limits how many start per cycle); ``retire_width``: instructions
    committed per cycle when it differs from ``width`` (``None``: no limit). ``select``: which
    ready instruction goes first: ``"age"`` (the oldest, the textbook rule) or ``"llvm-mca"``
    (llvm-mca's scheduler: the smallest position in the program minus the number of
    instructions that read its result, ties to the oldest). ``addresses``: the address each
    instruction accessed in a run (the stream of a loop, :func:`lecturekit.regions.paths.
    dynamic_stream`): the core then orders only accesses to the same word.
    """
    if isinstance(program, str):
        program = parse(program)
    m = get_machine(machine)
    window = _limit("window", window)
    rob = _limit("rob", rob)
    width = m.issue_width if width is None else _limit("width", width)
    retire_width = width if retire_width == "width" else _limit(_("retire width"), retire_width)
    n = len(program)
    if n > MAX_INSTRUCTIONS:
        raise ScheduleError(
            _(
                "the out-of-order simulation runs at most {max_instructions:,} "
                "instructions; this block has {n:,}"
            ).format(max_instructions=MAX_INSTRUCTIONS, n=n)
        )
    dg = analyze(program, m)
    order = list(range(n)) if order is None else list(order)
    _check_order(dg, order)
    graph = renamed_graph(
        dg, rename=rename, predict=predict, memory_order=memory_order, addresses=addresses
    )
    kept = set(map(id, graph.edges))
    removed = [e for e in dg.edges if id(e) not in kept]
    # the stations are the stage before the read stage: an instruction dispatched in a cycle may
    # start in the next (the stages before them are the front end's pipeline)
    w = Window(order, size=window, width=width, rob=rob, retire_width=retire_width, delay=1)
    if select == "age":
        priority = "original"
    elif select == "llvm-mca":
        users = [len({e.dst for e in graph.succs(i) if e.kind == "RAW"}) for i in range(n)]
        position = {k: i for i, k in enumerate(order)}

        def priority(_g, i):  # higher first: llvm-mca's rank, position - users, smallest first
            return users[i] - position[i]
    else:
        raise ScheduleError(
            _("select is 'age' or 'llvm-mca', got {select!r}").format(select=select)
        )
    sched = list_schedule(graph, priority, window=w) if n else Schedule(graph, [])
    verify(graph, sched)
    if n == 0:
        dispatch = commit = []
    else:
        dispatch = list(sched.info["dispatch"])
        commit = list(sched.info["retire"])
    keys = [m.timing_key(ins) for ins in program]
    issue = list(sched.start)
    complete = [issue[k] + m.offset_done(keys[k], m.execute_stage) for k in range(n)]
    write = [issue[k] + m.write_offset(keys[k]) for k in range(n)]
    sched.algorithm = "out-of-order"
    return OooResult(
        program,
        m,
        window,
        rob,
        width,
        rename,
        predict,
        order,
        graph,
        sched,
        dispatch,
        issue,
        complete,
        write,
        commit,
        removed,
        dict(w.held),
    )


def compare_windows(
    program: Program | str,
    machine: Machine | str | None = None,
    windows=(1, 2, 4, 8, 16, 32),
    *,
    orders: dict[str, list[int]] | None = None,
    **options,
) -> dict[str, dict]:
    """Cycles of ``program`` in each of ``orders`` (name -> order; default: program order) on
    the in-order machine (``"in-order"``) and on out-of-order cores with each window size:
    ``{name: {"in-order": cycles, 1: cycles, 2: ..., ...}}``. ``options`` go to
    :func:`simulate_ooo` (``rob``, ``width``, ...)."""
    from .pipeline import simulate

    if isinstance(program, str):
        program = parse(program)
    orders = orders or {"program order": list(range(len(program)))}
    out: dict[str, dict] = {}
    for name, order in orders.items():
        row: dict = {"in-order": simulate(program, machine, order=order).cycles}
        for w in windows:
            row[w] = simulate_ooo(program, machine, window=w, order=order, **options).cycles
        out[name] = row
    return out


def trace_of(program: Program | str, iterations: int) -> Program:
    """The dynamic instruction stream of ``iterations`` passes through a loop body (the body
    repeated, its labels dropped, the loop-closing branch kept in each pass as a predicted
    branch): what an out-of-order core sees when it runs a loop. Registers keep their names;
    renaming is the core's business."""
    if isinstance(program, str):
        program = parse(program)
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
        raise ScheduleError(
            _("iterations must be a whole number >= 1, got {iterations!r}").format(
                iterations=iterations
            )
        )
    if len(program) * iterations > MAX_INSTRUCTIONS:
        raise ScheduleError(
            _(
                "{iterations} passes of {n} instructions exceed the {max_instructions:,} "
                "instructions the simulation runs"
            ).format(iterations=iterations, n=len(program), max_instructions=MAX_INSTRUCTIONS)
        )
    from dataclasses import replace

    body = [replace(ins, labels=()) for ins in program]
    return Program(body * iterations, {}, program.source)


__all__ = [
    "MAX_INSTRUCTIONS",
    "OooResult",
    "compare_windows",
    "memory_addresses",
    "renamed_graph",
    "simulate_ooo",
    "trace_of",
]
