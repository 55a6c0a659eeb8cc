"""Cycle-by-cycle simulation of an in-order pipeline, as the lecture's stage tables show it.

Every cycle, instructions move one stage forward, oldest first, as far as room allows. An
instruction in the stage before the read stage issues (enters the read stage) only when the
hardware's interlock lets it: the instructions ahead of it have issued, the issue width is not
used up, every register it reads is available (written, or forwarded in time), its own write will
land after any older write of the same register, memory accesses stay in order, and its
functional unit will be free when it reaches the execute stage. Otherwise it waits, and the
reason is recorded as a :class:`Stall`.

The interlock looks at where the older instructions *are* in the pipeline (and how long they will
stay), not at the dependence graph: the simulator is an independent way to the same figures as
:func:`lecturekit.core.evaluate`, and the tests check that both always agree.

On a machine with a per-opcode table (the real-core presets) each instruction gets its opcode's
timing (:meth:`~lecturekit.target.machine.Machine.timing_key`), and an operation may hold several
units (a divide holds its pipe and the divider). Under llvm-mca's issue rules
(``issue_rules = "llvm-mca"``) the interlock also keeps write-back in issue order (an instruction
waits until it would finish no earlier than every older one: a ``write-back`` stall), lets a
second write of a register land in the same cycle as the first, and orders no memory accesses
(llvm-mca assumes loads and stores do not alias).
:func:`evaluate_order` is the same figure through the scheduling core: the dependence graph plus
the edges these rules add for the order (:func:`llvm_order_edges`).

Two textbook options follow the machine: a ``latency_pairs`` table (the interlock then holds a
reader until the table's number of cycles after its producer issued), and a branch that
resolves early (``branch_resolves_in``: the branch needs forwarded operands in that stage). A
branch delay slot (``delay_slot``) changes which orders are legal (its instruction stays right
after the branch: an order that moves it is refused), not the timing of an order, since control
hazards are not modelled.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from ..asm import Program, parse
from ..core.evaluate import evaluate, with_order_edges
from ..core.graph import Edge, Graph, describe_dependence
from ..core.schedule import Schedule
from ..errors import ScheduleError
from ..language import N_, _
from .deps import _memory_groups, _same_group_alias, analyze, instruction_label
from .machine import Machine, get_machine

#: what a stall's ``cause`` can be (the words marked for the catalog: shown as ``_(cause)``)
STALL_CAUSES = ("RAW", "WAW", N_("memory"), N_("structural"), N_("write-back"))


@dataclass(frozen=True)
class Stall:
    """In ``cycle``, instruction ``index`` could not issue because of ``cause``
    (``RAW``, ``WAW``, ``memory``, ``structural``, or under llvm-mca's rules ``write-back``) on
    ``on`` (a register, a memory operand, a unit, or ``in-order write-back``), waiting for
    instruction ``waits_for``."""

    cycle: int
    index: int
    cause: str
    on: str
    waits_for: int | None

    def describe(self) -> str:
        label = instruction_label(self.index)
        what = describe_dependence(self.cause, _(self.on))
        if self.waits_for is None:
            return _("cycle {cycle}: {op} stalls ({what})").format(
                cycle=self.cycle, op=label, what=what
            )
        return _("cycle {cycle}: {op} stalls ({what}) for {other}").format(
            cycle=self.cycle, op=label, what=what, other=instruction_label(self.waits_for)
        )


@dataclass
class Snapshot:
    """The pipeline during one cycle: which instructions are in which stage, what issued, who
    stalled (and who waited behind a stalled instruction)."""

    cycle: int
    stages: dict[str, list[int]]
    issued: list[int]
    stalls: list[Stall]
    blocked: list[int]
    retired: list[int]


@dataclass
class SimResult:
    """Everything the simulation saw. Instructions are identified by their program index."""

    program: Program
    machine: Machine
    order: list[int]
    issue: dict[int, int]
    finish: dict[int, int]
    where: dict[int, dict[int, str]]
    stalls: list[Stall]
    snapshots: list[Snapshot] = field(default_factory=list)

    @property
    def cycles(self) -> int:
        """The cycle in which the last instruction leaves the last stage."""
        return max(self.finish.values(), default=0)

    def stall_counts(self) -> dict[str, int]:
        """Stall cycles per cause."""
        counts: dict[str, int] = {}
        for s in self.stalls:
            counts[s.cause] = counts.get(s.cause, 0) + 1
        return counts

    def stage_table(self) -> list[dict[str, list[int]]]:
        """Cycles × stages, as on the slides: row c-1 maps each stage to the instructions in it."""
        return [snap.stages for snap in self.snapshots]

    def instruction_table(self) -> list[list[str]]:
        """Instructions (in issue order) × cycles: the stage each is in, '' when not in the pipe."""
        return [[self.where[k].get(c, "") for c in range(1, self.cycles + 1)] for k in self.order]

    def to_schedule(self) -> Schedule:
        """The simulated issue cycles as a schedule of the dependence graph (with the edges
        llvm-mca's rules add for this order, on a machine that follows them)."""
        n = len(self.program)
        graph = analyze(self.program, self.machine).graph
        if self.machine.llvm_rules:
            graph = with_order_edges(graph, {"main": list(self.order)}, llvm_order_edges)
        s = Schedule(graph, [self.issue[k] for k in range(n)], "program-order", list(self.order))
        s.info["stalls"] = len(self.stalls)
        return s

    def to_dict(self) -> dict:
        """The ``schedule`` part of ``lecturekit simulate --json``."""
        n = len(self.program)
        return {
            "algorithm": "program-order" if self.order == list(range(n)) else "given-order",
            "order": list(self.order),
            "issue": [self.issue[k] for k in range(n)],
            "finish": [self.finish[k] for k in range(n)],
            "cycles": self.cycles,
            "stalls": [
                {
                    "cycle": s.cycle,
                    "index": s.index,
                    "cause": s.cause,
                    "on": s.on,
                    "waits_for": s.waits_for,
                }
                for s in self.stalls
            ],
        }


class PipeChoice:
    """llvm-mca's choice of a member for an operation that holds a unit group (the U74's ALU
    ops take pipe A or pipe B), for a machine with ``groups`` under llvm-mca's rules.

    llvm-mca (``ResourceManager`` with its ``DefaultResourceStrategy``, LLVM 14) keeps, per
    group, the members "next in sequence" (at first all of them) and the members "removed" from
    it. To choose, it takes the free members next in sequence (if none, it starts the sequence
    again) and picks the one with the highest resource mask (pipe B before pipe A); the sequence
    keeps that member and those below it. Every use of a member, chosen or named directly (a
    load takes pipe A, a multiply pipe B), then marks it used: it leaves the sequence, or when
    it lies above the whole sequence it is put aside until the sequence starts again. Members
    are listed in the order of their masks (``machine.groups``).

    ``keys`` are the operations' timing keys (index -> key); :meth:`extra` says which member an
    operation starting in cycle ``t`` would take (without choosing), :meth:`commit` chooses.
    Both the simulator and :func:`lecturekit.core.evaluate` ask the same object."""

    def __init__(self, machine: Machine, keys: list[str]):
        self.machine = machine
        self.keys = keys
        self.group_of = {u: g for g, members in machine.groups.items() for u in members}
        self.bit = {u: k for members in machine.groups.values() for k, u in enumerate(members)}
        self.next = {g: set(members) for g, members in machine.groups.items()}
        self.removed: dict[str, set] = {g: set() for g in machine.groups}
        self.delay = machine.execute_delay

    def _select(self, g: str, ready: set, state: tuple[set, set]) -> str:
        nxt, removed = state
        members = set(self.machine.groups[g])
        candidates = ready & nxt
        if not candidates:
            nxt.clear()
            nxt.update(members - removed)
            removed.clear()
            candidates = ready & nxt
        if not candidates:
            nxt.clear()
            nxt.update(members)
            candidates = ready & nxt
        pick = max(candidates, key=self.bit.__getitem__)
        nxt.intersection_update(u for u in members if self.bit[u] <= self.bit[pick])
        return pick

    def _used(self, unit: str, state: tuple[set, set]) -> None:
        nxt, removed = state
        if not nxt or self.bit[unit] > max(self.bit[u] for u in nxt):
            removed.add(unit)
            return
        nxt.discard(unit)
        if not nxt:
            nxt.update(set(self.machine.groups[self.group_of[unit]]) - removed)
            removed.clear()

    def _run(self, i: int, t: int, free, commit: bool):
        key = self.keys[i]
        chosen: list[tuple[str, int, int]] = []
        for g, cycles in self.machine.choices(key):
            ready = {u for u in self.machine.groups[g] if free(u, t + self.delay, cycles)}
            if not ready:
                return None
            state = (self.next[g], self.removed[g])
            if not commit:
                state = (set(state[0]), set(state[1]))
            member = self._select(g, ready, state)
            self._used(member, state)
            chosen.append((member, self.delay, cycles))
        if commit:
            for u, _n in self.machine.timing(key).holds():
                if u in self.group_of:
                    g = self.group_of[u]
                    self._used(u, (self.next[g], self.removed[g]))
        return tuple(chosen)

    def extra(self, i: int, t: int, free) -> tuple[tuple[str, int, int], ...] | None:
        """The members operation ``i`` would take starting at ``t`` ((unit, offset, cycles)
        each; empty when it names its units), or None when no member is free. ``free(unit,
        first, cycles)`` says whether a unit is free over those cycles."""
        return self._run(i, t, free, commit=False)

    def commit(self, i: int, t: int, free) -> tuple[tuple[str, int, int], ...]:
        """Choose (updating llvm-mca's sequence) and return what :meth:`extra` returns."""
        out = self._run(i, t, free, commit=True)
        if out is None:
            raise ScheduleError(
                _("{op}: no member of its unit group is free").format(op=instruction_label(i))
            )
        return out


class _InFlight:
    """One instruction's position: stage index and cycles left in that stage."""

    def __init__(self, index: int, cls: str):
        self.index = index
        self.cls = cls
        self.stage = -1  # not fetched yet
        self.left = 0


def simulate(
    program: Program | str,
    machine: Machine | str | None = None,
    order: list[int] | None = None,
    max_cycles: int | None = None,
    time_limit: float | None = None,
) -> SimResult:
    """Run ``program`` (instructions in ``order``, default program order) through ``machine``.

    ``order`` must respect the dependences (it is an order a compiler could emit); a reordering
    that breaks one raises ScheduleError naming it. ``time_limit`` (seconds, default none) stops
    a simulation that runs longer with a ScheduleError naming the limit and the cycle reached.
    """
    if isinstance(program, str):
        program = parse(program)
    m = get_machine(machine)
    n = len(program)
    order = list(range(n)) if order is None else list(order)
    if sorted(order) != list(range(n)):
        shown = (
            order
            if len(order) <= 20
            else _("{first} ... ({n} entries)").format(first=order[:20], n=len(order))
        )
        raise ScheduleError(
            _("order must list each instruction index 0..{last} once, got {shown}").format(
                last=n - 1, shown=shown
            )
        )
    if order != list(range(n)):  # program order respects every dependence by definition
        _check_order(program, m, order)

    stages = m.stages
    r, x = m.index(m.read_stage), m.index(m.execute_stage)
    w = m.index(m.write_stage)
    last_stage = len(stages) - 1
    mem_stage = m.index(m.memory_stage or m.execute_stage)
    width = m.issue_width
    llvm = m.llvm_rules
    seq = [_InFlight(k, m.timing_key(program[k])) for k in order]  # cls: the timing key
    classes = [ins.op_class for ins in program]
    groups = _memory_groups(program)  # may_alias in O(1) per pair
    reads = [ins.reads() for ins in program]  # computed once, not in every cycle
    writes = [ins.writes() for ins in program]

    def stay(f: _InFlight, j: int) -> int:
        return m.timing(f.cls).execute_cycles if j == x else 1

    def done_at(f: _InFlight, j: int, c: int) -> int:
        """The last cycle ``f`` spends in stage ``j``, seen from cycle ``c`` (past if done)."""
        if f.stage > j:
            return -1
        t = c + f.left - 1
        for s in range(f.stage + 1, j + 1):
            t += stay(f, s)
        return t

    def fresh_done(f: _InFlight, j: int, c: int) -> int:
        """Like done_at, for an instruction that would enter the read stage in cycle c."""
        t = c - 1
        for s in range(r, j + 1):
            t += stay(f, s)
        return t

    def unit_windows(f: _InFlight, c: int) -> list[tuple[str, int, int]]:
        """(unit, first cycle, last cycle) of every unit ``f`` would hold, issuing in cycle c."""
        t = m.timing(f.cls)
        begin = fresh_done(f, x, c) - t.execute_cycles + 1
        return [(unit, begin, begin + n - 1) for unit, n in t.holds()]

    # unit -> (first, last, index) of every reservation of an issued instruction (a scoreboard)
    held: dict[str, list[tuple[int, int, int]]] = {u: [] for u in m.units}
    chooser = PipeChoice(m, [m.timing_key(ins) for ins in program]) if llvm and m.groups else None

    def free(unit: str, first: int, cycles: int) -> bool:
        """Whether ``unit`` has room in every cycle first .. first + cycles - 1 (absolute)."""
        cap = m.units[unit]
        return all(
            sum(1 for b, e, _k in held[unit] if b <= t <= e) < cap
            for t in range(first, first + cycles)
        )

    # a machine's latency table (latency_pairs) fixes the issue distance of a RAW pair outright:
    # the interlock then counts cycles since the producer issued, which it may do after the
    # producer has left the pipeline, so each reader's producers are found here, in issue order
    paired: dict[int, dict[str, int]] = {}
    if m.latency_pairs:
        last: dict[str, int] = {}
        for f in seq:
            paired[f.index] = {
                reg: last[reg]
                for reg in reads[f.index]
                if reg in last and (classes[last[reg]], classes[f.index]) in m.latency_pairs
            }
            for reg in writes[f.index]:
                last[reg] = f.index

    def hazard(f: _InFlight, pos: int, c: int) -> Stall | None:
        ins = program[f.index]
        older = seq[first:pos]  # everything before first has left the pipeline
        producers = paired.get(f.index, {})
        for reg in reads[f.index]:
            if reg in producers:
                p = producers[reg]
                if issue[p] + m.latency_pairs[(classes[p], classes[f.index])] > c:
                    return Stall(c, f.index, "RAW", reg, p)
                continue
            writer = next((p for p in reversed(older) if reg in writes[p.index]), None)
            if writer is None or writer.stage >= len(stages):
                continue
            written = done_at(writer, w, c)
            ok = written < c or (m.same_cycle_read and written <= c)
            if not ok and m.forwarding:
                result = m.index(m.timing(writer.cls).result_stage or m.execute_stage)
                ok = done_at(writer, result, c) <= c + m.operand_delay(f.cls) - 1
            if not ok:
                return Stall(c, f.index, "RAW", reg, writer.index)
        for reg in writes[f.index]:
            writer = next((p for p in reversed(older) if reg in writes[p.index]), None)
            if writer is not None and writer.stage < len(stages):
                mine, theirs = fresh_done(f, w, c), done_at(writer, w, c)
                if mine < theirs or (mine == theirs and not llvm):  # llvm-mca: same cycle ok
                    return Stall(c, f.index, "WAW", reg, writer.index)
        if llvm:
            # write-back in issue order: finish no earlier than any older instruction
            mine = fresh_done(f, last_stage, c)
            for p in reversed(older):
                if p.stage < len(stages) and done_at(p, last_stage, c) > mine:
                    return Stall(c, f.index, "write-back", N_("in-order write-back"), p.index)
            # (memory: llvm-mca assumes loads and stores do not alias and orders none of them)
        elif ins.mem is not None:
            mine = fresh_done(f, mem_stage, c)
            for p in reversed(older):
                other = program[p.index]
                if other.mem is None or not (ins.is_store or other.is_store):
                    continue
                g, h = groups[p.index], groups[f.index]
                if p.stage < len(stages) and (g != h or _same_group_alias(other.mem, ins.mem)):
                    theirs = done_at(p, mem_stage, c)
                    war = not other.is_store  # a store after a load: not before its last cycle
                    if mine < theirs or (mine == theirs and not war):
                        return Stall(c, f.index, "memory", f"mem {other.mem}", p.index)
        for unit, begin, end in unit_windows(f, c):
            capacity = m.units[unit]
            for t in range(begin, end + 1):
                users = [k for b, e, k in held[unit] if b <= t <= e]
                if len(users) >= capacity:
                    return Stall(c, f.index, "structural", f"unit {unit}", users[-1])
        if chooser is not None and chooser.extra(f.index, c, free) is None:
            group = m.choices(f.cls)[0][0]
            users = [k for u in m.groups[group] for _b, e, k in held[u] if e >= c]
            return Stall(c, f.index, "structural", f"unit {group}", users[-1] if users else None)
        return None

    issue: dict[int, int] = {}
    finish: dict[int, int] = {}
    where: dict[int, dict[int, str]] = {k: {} for k in order}
    stalls: list[Stall] = []
    snapshots: list[Snapshot] = []
    limit = max_cycles or 50 + n * (
        len(stages) + 4 + max(t.execute_cycles for t in m.ops.values()) * 3
    )
    if time_limit is not None and not (
        isinstance(time_limit, (int, float)) and 0 <= time_limit < float("inf")
    ):
        raise ScheduleError(
            _("time_limit must be a finite number of seconds >= 0, got {time_limit!r}").format(
                time_limit=time_limit
            )
        )
    deadline = time.perf_counter() + (time_limit or 0)
    c = 0
    first = 0  # seq[:first] has left the pipeline; only a window of instructions is in flight
    while len(finish) < n:
        while first < n and seq[first].stage >= len(stages):
            first += 1
        c += 1
        if c % 8 == 0:  # forget reservations that ended (keeps the check short)
            for windows in held.values():
                windows[:] = [h for h in windows if h[1] >= c]
        if time_limit is not None and c % 256 == 0 and time.perf_counter() > deadline:
            raise ScheduleError(
                _(
                    "simulation stopped at the time limit of {time_limit:g} s (cycle {c:,} "
                    "of a {n:,}-instruction block)"
                ).format(time_limit=time_limit, c=c, n=n)
            )
        if c > limit:
            raise ScheduleError(
                _("simulation did not finish within {limit} cycles").format(limit=limit)
            )
        occupancy = [0] * len(stages)
        issued_now: list[int] = []
        stalled_now: list[Stall] = []
        blocked_now: list[int] = []
        retired_now: list[int] = []
        pos = first
        for pos in range(first, n):  # (an index loop: slicing seq would copy it every cycle)
            f = seq[pos]
            if f.stage == -1 and pos > first and seq[pos - 1].stage == -1:
                break  # its predecessor is not fetched: neither it nor any later one can move
            if f.stage >= len(stages):
                continue
            if f.stage >= r:  # issued: flows on, no more waiting
                if f.left > 1:
                    f.left -= 1
                elif f.stage + 1 == len(stages):
                    f.stage = len(stages)
                    finish[f.index] = c - 1
                    retired_now.append(f.index)
                    continue
                else:
                    f.stage += 1
                    f.left = stay(f, f.stage)
            elif f.stage == r - 1 or (r == 0 and f.stage == -1):
                ahead_issued = pos == 0 or seq[pos - 1].stage >= r
                if not ahead_issued or len(issued_now) >= width:
                    blocked_now.append(f.index)
                else:
                    stall = hazard(f, pos, c)
                    if stall is None:
                        for u, b, e in unit_windows(f, c):
                            held[u].append((b, e, f.index))
                        if chooser is not None:
                            for u, off, cycles in chooser.commit(f.index, c, free):
                                held[u].append((c + off, c + off + cycles - 1, f.index))
                        f.stage, f.left = r, stay(f, r)
                        issue[f.index] = c
                        issued_now.append(f.index)
                    else:
                        stalled_now.append(stall)
            else:  # front end: move up if the next stage has room
                ahead_fetched = pos == 0 or seq[pos - 1].stage > f.stage
                if ahead_fetched and occupancy[f.stage + 1] < width:
                    f.stage += 1
            if 0 <= f.stage < len(stages):
                occupancy[f.stage] += 1
                where[f.index][c] = stages[f.stage]
        if len(finish) == n and not any(where[k].get(c) for k in order):
            c -= 1  # nothing happened in this cycle: the block ended in the previous one
            break
        stalls.extend(stalled_now)
        snapshots.append(
            Snapshot(
                cycle=c,
                stages={
                    s: [f.index for f in seq[first : pos + 1] if f.stage == j]
                    for j, s in enumerate(stages)
                },
                issued=issued_now,
                stalls=stalled_now,
                blocked=blocked_now,
                retired=retired_now,
            )
        )
    while snapshots and snapshots[-1].cycle > max(finish.values(), default=0):
        snapshots.pop()
    return SimResult(program, m, order, issue, finish, where, stalls, snapshots)


def llvm_order_edges(graph: Graph, order: list[int]) -> list[Edge]:
    """The edges llvm-mca's in-order rules add to a dependence graph for one issue ``order``:
    write-back in issue order. Each operation finishes no earlier than the one issued before
    it, ``start[b] >= start[a] + tail[a] - tail[b]``: an edge ``a -> b`` of that latency, when
    positive (with in-order issue, the consecutive pairs imply every pair: the latencies of a
    chain add up to at least ``tail[a] - tail[c]``)."""
    edges: list[Edge] = []
    for a, b in zip(order, order[1:], strict=False):
        lat = graph.ops[a].tail - graph.ops[b].tail
        if lat > 0:
            edges.append(Edge(a, b, lat, "WB", N_("in-order write-back")))
    return edges


def evaluate_order(
    program: Program | str, machine: Machine | str | None = None, order: list[int] | None = None
) -> Schedule:
    """:func:`lecturekit.core.evaluate` of ``order`` (default: program order) on the block's
    dependence graph, with the edges the machine's issue rules add for that order: the same
    issue cycles as :func:`simulate`, through the scheduling core."""
    dg = analyze(program, machine)
    m = dg.machine
    order = list(range(len(dg.program))) if order is None else list(order)
    if not m.llvm_rules:
        return evaluate(dg.graph, order)
    chooser = None
    if m.groups:
        chooser = PipeChoice(m, [m.timing_key(ins) for ins in dg.program])
    return evaluate(dg.graph, order, order_edges=llvm_order_edges, unit_choice=chooser)


def _check_order(program: Program, machine: Machine, order: list[int]) -> None:
    position = {k: i for i, k in enumerate(order)}
    for e in analyze(program, machine).edges:
        if position[e.dst] < position[e.src]:
            raise ScheduleError(
                _("the order puts {dst} before {src}, but it depends on it ({dependence})").format(
                    dst=instruction_label(e.dst),
                    src=instruction_label(e.src),
                    dependence=describe_dependence(e.kind, _(e.on)),
                )
            )
