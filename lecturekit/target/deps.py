"""Dependence analysis: from a block of instructions to the dependence graph (a DAG).

For every pair of instructions in program order we find

* **RAW** (true dependence): the later one reads a register the earlier one wrote, and no
  instruction in between wrote it again;
* **WAR** (anti): the later one writes a register the earlier one read, and is the first write of
  it after that read;
* **WAW** (output): both write the register, with no write in between;

and the same three through memory, for loads and stores. Two memory operands with the same base
register (not redefined in between) and different offsets do not alias; anything else may alias
and is kept as a dependence, unless a store between the two may alias both: then the pair is
already ordered through that store (the two edges' latencies add up to at least the direct one),
just as a register's RAW comes only from the reaching definition. A branch keeps its place: every
earlier instruction back to the previous branch gets a ``CTRL`` edge to it (unless already
ordered before it by another edge) and it gets one to every later instruction up to the next
branch (latency 0: the pipeline model does not model control hazards, so an instruction may issue
in the same cycle as a branch before it); instructions further away are ordered through the
branches between.

On a machine with a branch **delay slot** (``delay_slot = true``), the instruction written right
after a branch executes whether or not the branch is taken: it belongs with the branch, so it
gets a ``CTRL`` edge from the branch (on ``delay slot``) and one to every later instruction up to
the next branch. It thus stays in the slot: no scheduler moves it above the branch (it could
change what the branch reads, or run only on one path) and nothing later moves above it. Filling
the slot (moving an independent instruction from before the branch into it) is a rewrite of the
code: list scheduling does it on a block that ends with its branch
(:func:`fill_delay_slot`, H&P's "from before"), and the rewritten
block is analysed again, so the filled slot keeps these edges. A branch in a delay slot is
refused (MIPS leaves it undefined).

The analysis is near-linear in the block's length (per-register last writer and readers; memory
accesses grouped by base register and its redefinitions), so blocks of tens of thousands of
instructions are analysed in seconds.

Each edge's latency comes from the machine (:meth:`lecturekit.target.machine.Machine.latency`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # networkx loads only when a DiGraph is asked for (to_networkx)
    import networkx as nx

from ..asm import Instruction, Program, parse
from ..core.graph import Edge, Graph, Operation, Reservation
from ..errors import ScheduleError
from .machine import Machine, get_machine


def may_alias(program: Program, i: int, j: int) -> bool:
    """Whether the memory operands of instructions ``i`` < ``j`` may refer to the same word."""
    a, b = program[i].mem, program[j].mem
    if a is None or b is None:
        return False
    if a.base != b.base:
        return True
    redefined = any(a.base in program[k].writes() for k in range(i, j))
    if redefined:
        return True
    if a.size is not None and b.size is not None:  # byte ranges (RISC-V: lb is 1 byte, ld 8)
        return a.offset < b.offset + b.size and b.offset < a.offset + a.size
    return a.offset == b.offset


def _memory_groups(program: Program) -> dict[int, tuple[str, int]]:
    """For each memory access, (base, version): version counts the writes of the base before it.
    Accesses in different groups may alias; in one group, as :func:`may_alias` decides by
    offsets (no redefinition in between), in O(1) per pair."""
    version: dict[str, int] = {}
    out = {}
    for k, ins in enumerate(program):
        if ins.mem is not None:
            out[k] = (ins.mem.base, version.get(ins.mem.base, 0))
        for reg in ins.writes():
            version[reg] = version.get(reg, 0) + 1
    return out


def _same_group_alias(a, b) -> bool:
    if a.size is not None and b.size is not None:
        return a.offset < b.offset + b.size and b.offset < a.offset + a.size
    return a.offset == b.offset


def register_dependences(program: Program) -> list[tuple[int, int, str, str]]:
    """(src, dst, kind, register) for every register dependence, in program order."""
    found = []
    last_write: dict[str, int] = {}
    reads_since_write: dict[str, list[int]] = {}
    for j, ins in enumerate(program):
        for reg in dict.fromkeys(ins.reads()):
            if reg in last_write:
                found.append((last_write[reg], j, "RAW", reg))
        for reg in dict.fromkeys(ins.writes()):
            for i in reads_since_write.get(reg, []):
                if i != j:
                    found.append((i, j, "WAR", reg))
            if reg in last_write:
                found.append((last_write[reg], j, "WAW", reg))
        for reg in dict.fromkeys(ins.reads()):
            reads_since_write.setdefault(reg, []).append(j)
        for reg in ins.writes():
            last_write[reg] = j
            reads_since_write[reg] = []
    return found


def memory_dependences(program: Program) -> list[tuple[int, int, str, str]]:
    """(src, dst, kind, operand) for pairs of memory accesses that may alias (one a store), except
    pairs already ordered through a store between them that may alias both.

    Each access looks back over earlier stores (and, for a store, loads too) until the stores
    seen cover every earlier access (two stores in different base groups: everything before
    aliases one of them), so the work per access is bounded by the distinct words in play."""
    groups = _memory_groups(program)
    found = []
    stores: list[int] = []
    accesses: list[int] = []

    def alias(i: int, j: int) -> bool:
        return groups[i] != groups[j] or _same_group_alias(program[i].mem, program[j].mem)

    for j in groups:
        b = program[j]
        seen: list[int] = []  # stores between the candidate and j that may alias j
        seen_groups: set = set()
        for i in reversed(accesses if b.is_store else stores):
            if len(seen_groups) >= 2:
                break  # every earlier access aliases one of them: already ordered
            if not alias(i, j):
                continue
            a = program[i]
            if not any(alias(i, k) for k in seen):
                kind = "WAW" if a.is_store and b.is_store else "RAW" if a.is_store else "WAR"
                on = f"mem {b.mem}" if a.mem == b.mem else f"mem {a.mem}~{b.mem}"
                found.append((i, j, kind, on))
            if a.is_store:
                seen.append(i)
                seen_groups.add(groups[i])
        accesses.append(j)
        if b.is_store:
            stores.append(j)
    found.sort(key=lambda t: (t[0], t[1]))
    return found


@dataclass
class DependenceGraph:
    """A block, the machine it runs on, and every dependence with its latency."""

    program: Program
    machine: Machine
    edges: list[Edge]
    graph: Graph

    @property
    def instructions(self) -> list[Instruction]:
        return self.program.instructions

    def reduction(self) -> list[Edge]:
        """The edges that remain in the transitive reduction (the ones worth drawing)."""
        red = self.graph.to_networkx(reduce=True)
        return [e for e in self.edges if red.has_edge(e.src, e.dst)]

    def to_networkx(self, reduce: bool = False) -> nx.DiGraph:
        return self.graph.to_networkx(reduce=reduce)

    def critical_path(self) -> tuple[list[int], int]:
        """The longest latency-weighted path (start to last finish): instructions and its length
        in cycles from the first issue to the end of the block."""
        g = self.graph
        order = g.topological_order()
        best: dict[int, tuple[int, int | None]] = {}
        for v in order:
            options = [(best[e.src][0] + e.latency, e.src) for e in g.preds(v) if not e.distance]
            best[v] = max(options, default=(0, None))
        end = max(range(len(order)), key=lambda v: best[v][0] + g.ops[v].tail, default=None)
        if end is None:
            return [], 0
        length = best[end][0] + g.ops[end].tail + g.earliest
        path = [end]
        while best[path[-1]][1] is not None:
            path.append(best[path[-1]][1])
        return path[::-1], length

    def fill_delay_slot(self, priority="height", *, lookahead: int = 0) -> DelaySlotFill | None:
        """The block with its delay slot filled (:func:`fill_delay_slot`), or ``None``. List
        scheduling asks a block for this before it schedules it; a bare core Graph has no such
        method and is scheduled as it is."""
        return fill_delay_slot(self, priority, lookahead=lookahead)

    def to_dict(self) -> dict:
        """The JSON contract of ``lecturekit deps``: machine, instructions, edges."""
        m = self.machine
        return {
            "machine": {"name": m.name, "issue_width": m.issue_width, "units": dict(m.units)},
            "instructions": [
                {"index": k, "text": ins.text, "unit": m.timing(m.timing_key(ins)).unit}
                for k, ins in enumerate(self.program)
            ],
            "edges": [
                {"src": e.src, "dst": e.dst, "kind": e.kind, "on": e.on, "latency": e.latency}
                for e in self.edges
            ],
        }


def instruction_label(k: int) -> str:
    """Instructions are named I1, I2, ... (1-based, as a lecturer numbers lines)."""
    return f"I{k + 1}"


def instruction_graph(
    instructions: list[Instruction],
    edges: list[Edge],
    machine: Machine,
    label=instruction_label,
) -> Graph:
    """The scheduling core's graph for instructions on a machine: one operation per instruction,
    holding its functional unit in the execute stage, finishing when it leaves the last stage;
    the machine's issue width and first issue cycle. (The one place instructions meet the core.)"""
    ops = []
    per_key: dict[str, tuple] = {}  # the machine's figures per timing key, computed once
    for k, ins in enumerate(instructions):
        key = machine.timing_key(ins)  # the class, or the opcode on a per-opcode machine
        if key not in per_key:
            held = tuple(Reservation(*r) for r in machine.reservations(key))
            per_key[key] = (held, machine.tail(key))
        reservations, tail = per_key[key]
        ops.append(
            Operation(
                name=label(k),
                text=ins.text or str(ins),
                reservations=reservations,
                tail=tail,
                kind=ins.op_class,
            )
        )
    return Graph(
        ops,
        edges,
        units=dict(machine.units),
        issue_width=machine.issue_width,
        earliest=machine.first_issue,
        name=machine.name,
    )


def _delay_slot_edges(program: Program, branches: list[int], edges: list[Edge]) -> None:
    """Keep each branch's delay-slot instruction right after it (see the module docstring)."""
    n = len(program)
    successors: dict[int, set[int]] = {}
    for e in edges:
        successors.setdefault(e.src, set()).add(e.dst)
    slots = set()
    for b, j in enumerate(branches):
        slot = j + 1
        if slot >= n:
            continue  # the slot lies past the block: whatever follows it
        if program[slot].is_branch:
            ins = program[slot]
            raise ScheduleError(
                f"line {ins.line}: a branch ({ins.text or ins}) in the delay slot of the branch "
                f"on line {program[j].line}; put a nop or another instruction there"
            )
        slots.add((j, slot))
        end = branches[b + 1] if b + 1 < len(branches) else n - 1
        linked = successors.get(slot, set())
        edges.extend(
            Edge(slot, k, 0, "CTRL", "delay slot")
            for k in range(slot + 1, end + 1)
            if k not in linked
        )
    edges[:] = [e for e in edges if not (e.kind == "CTRL" and (e.src, e.dst) in slots)]
    edges.extend(Edge(j, slot, 0, "CTRL", "delay slot") for j, slot in sorted(slots))


def analyze(program: Program | str, machine: Machine | str | None = None) -> DependenceGraph:
    """Dependence graph of ``program`` (text or parsed) on ``machine`` (preset, file, Machine)."""
    if isinstance(program, str):
        program = parse(program)
    machine = get_machine(machine)
    edges: list[Edge] = []
    classes = [machine.timing_key(ins) for ins in program]  # class, or opcode (per-opcode)
    latencies: dict[tuple, int] = {}  # (kind, producer, consumer, memory) -> latency, once each

    def latency(kind: str, src: int, dst: int, memory: bool) -> int:
        key = (kind, classes[src], classes[dst], memory)
        if key not in latencies:
            latencies[key] = machine.latency(kind, key[1], key[2], memory=memory)
        return latencies[key]

    for src, dst, kind, reg in register_dependences(program):
        edges.append(Edge(src, dst, latency(kind, src, dst, False), kind, reg))
    for src, dst, kind, operand in memory_dependences(program):
        edges.append(Edge(src, dst, latency(kind, src, dst, True), kind, operand))
    branches = [j for j, ins in enumerate(program) if ins.is_branch]
    if branches:
        has_succ_before: dict[int, set[int]] = {}  # branch -> instructions with an edge to it
        for e in edges:
            if program[e.dst].is_branch:
                has_succ_before.setdefault(e.dst, set()).add(e.src)
        previous = -1
        for b, j in enumerate(branches):
            linked = has_succ_before.get(j, set())
            start = max(previous, 0)  # the previous branch and everything after it
            edges.extend(
                Edge(i, j, 0, "CTRL", "branch") for i in range(start, j) if i not in linked
            )
            end = branches[b + 1] if b + 1 < len(branches) else len(program) - 1
            for k in range(j + 1, end + 1):  # after it, in order (control hazards unmodelled)
                if not (k == end and program[k].is_branch):  # the next branch adds that edge
                    edges.append(Edge(j, k, 0, "CTRL", "branch"))
            previous = j
        if machine.delay_slot:
            _delay_slot_edges(program, branches, edges)
    edges.sort(key=lambda e: (e.src, e.dst, e.kind, e.on))
    graph = instruction_graph(list(program), edges, machine)
    dg = DependenceGraph(program, machine, edges, graph)
    graph.source = dg
    return dg


# -- filling a branch delay slot (a rewrite of the block, before list scheduling) ---------------
@dataclass
class DelaySlotFill:
    """How :func:`fill_delay_slot` filled a branch delay slot: ``block`` is the rewritten
    block's dependence graph (the instruction in the slot written right after the branch),
    ``moved`` the index in the original block of the instruction moved there (``None``: a
    ``nop`` was added), ``branch`` the branch's index, ``message`` the choice in one sentence."""

    block: object
    moved: int | None
    branch: int
    message: str


#: how many independent instructions (the latest first) :func:`fill_delay_slot` tries
DELAY_SLOT_CANDIDATES = 8


def fill_delay_slot(graph, priority: str | Callable = "height", *, lookahead: int = 0):
    """Fill the delay slot of a block's closing branch "from before" (Hennessy & Patterson,
    Appendix C), or return ``None`` when there is nothing to fill.

    On a machine with ``delay_slot = true``, the instruction written right after a branch
    always executes (this module keeps it there). A block whose last instruction is
    a branch leaves that slot empty: whatever comes next would run in it. The classic fill moves
    into it an instruction from *before* the branch that nothing after it depends on: no
    dependence (RAW, WAR, WAW, memory) from it to a later instruction of the block or to the
    branch itself, no label on it, and not a branch. It then runs after the branch, whichever
    way the branch goes, exactly as it would have before it. Among such instructions (the
    :data:`DELAY_SLOT_CANDIDATES` latest) the one whose rewritten block list-schedules
    shortest is taken (ties: the latest in program order); with none, a ``nop`` fills the slot
    (the cycle is spent either way). ``graph``: a :class:`~lecturekit.target.deps.DependenceGraph`
    (or a core Graph built from one); other graphs, machines without a delay slot and blocks
    not ending with a branch give ``None``."""
    from ..core.list_sched import list_schedule_trace

    dg = graph if isinstance(graph, DependenceGraph) else getattr(graph, "source", None)
    if not isinstance(dg, DependenceGraph) or not dg.machine.delay_slot:
        return None
    prog = dg.program
    n = len(prog)
    if n == 0 or not prog[n - 1].is_branch:
        return None
    b = n - 1
    first = max((j + 1 for j in range(b) if prog[j].is_branch), default=0)
    labelled = set(prog.labels.values())
    out: dict[int, set[str]] = {}
    for e in dg.edges:
        out.setdefault(e.src, set()).add(e.kind)
    candidates = [
        i
        for i in range(b - 1, first - 1, -1)
        if i not in labelled and not prog[i].is_branch and out.get(i, {"CTRL"}) <= {"CTRL"}
    ][:DELAY_SLOT_CANDIDATES]

    def rewritten(i: int | None) -> Program:
        if i is None:
            ins = parse("nop").instructions[0]
            order = list(prog.instructions) + [ins]
            labels = dict(prog.labels)
        else:
            order = [x for k, x in enumerate(prog.instructions) if k != i] + [prog[i]]
            labels = {name: p - (p > i) for name, p in prog.labels.items()}
        return Program(order, labels, prog.source)

    branch_text = prog[b].text or str(prog[b])
    if not candidates:
        block = analyze(rewritten(None), dg.machine)
        return DelaySlotFill(
            block,
            None,
            b,
            f"delay slot of {branch_text}: no instruction before it is independent of the rest "
            "of the block and of the branch, so a nop fills it",
        )
    best = None
    for i in candidates:
        block = analyze(rewritten(i), dg.machine)
        length = list_schedule_trace(block, priority, lookahead=lookahead, record=False)[0].length
        if best is None or length < best[0]:
            best = (length, i, block)
    _length, i, block = best
    return DelaySlotFill(
        block,
        i,
        b,
        f"delay slot of {branch_text}: filled from before with {prog[i].text or prog[i]} "
        f"(line {prog[i].line}; nothing after it, nor the branch, depends on it"
        + (f"; the best of {len(candidates)} such instructions" if len(candidates) > 1 else "")
        + ")",
    )
