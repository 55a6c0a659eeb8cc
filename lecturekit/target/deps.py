"""Dependence analysis: from a block of instructions to the dependence graph (a DAG).

For every pair of instructions in program order we find

* **RAW** (true dependence): the later one reads a register the earlier one wrote, and no
  instruction in between wrote it again;
* **WAR** (anti): the later one writes a register the earlier one read, and is the first write of
  it after that read;
* **WAW** (output): both write the register, with no write in between;

and the same three through memory, for loads and stores, as a reaching-definitions analysis
finds them. Two memory operands with the same base register (not redefined in between) and
different offsets do not alias; anything else may alias. A memory pair is a dependence (marked
*must* or *may* alias) unless a store between them certainly overwrites every byte the earlier
one accessed (same base, not redefined, covering offsets): a store that only *may* alias kills
nothing, just as a register's value dies only at the next write of that register. Every such
pair is listed; the scheduler's graph leaves out a pair already ordered through a store between
that may alias both (the two edges' latencies add up to at least the direct one) and the list
says which store that is (``via``). A branch keeps its place: every
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

Building the scheduler's graph is near-linear in the block's length (per-register last writer and
readers; memory accesses grouped by base register and its redefinitions, each looking back only
until it is ordered), so blocks of tens of thousands of instructions are analysed in seconds. The
complete list is built when first read (:attr:`DependenceGraph.edges`).

Each edge's latency comes from the machine (:meth:`lecturekit.target.machine.Machine.latency`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from ..language import N_, _

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


def _covers(a, b) -> bool:
    """Whether operand ``a`` (same base, same value of it) writes every byte ``b`` accesses."""
    if a.size is not None and b.size is not None:
        return a.offset <= b.offset and b.offset + b.size <= a.offset + a.size
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


class MemoryPair(NamedTuple):
    """A dependence through memory: ``alias`` is ``"must"`` (same base, same value of it,
    overlapping bytes) or ``"may"`` (anything else that may alias); ``via`` is ``None`` when the
    pair is an edge of the scheduler's graph, else a store between the two that may alias both,
    through which the pair is already ordered (its two edges' latencies add up to at least the
    direct one)."""

    src: int
    dst: int
    kind: str
    on: str
    alias: str
    via: int | None


def memory_dependences(program: Program, *, complete: bool = True) -> list[MemoryPair]:
    """Every dependence through memory sorted by (src, dst): see :func:`iter_memory_dependences`."""
    return sorted(iter_memory_dependences(program, complete=complete), key=lambda t: (t[0], t[1]))


def iter_memory_dependences(program: Program, *, complete: bool = True) -> Iterator[MemoryPair]:
    """Every dependence through memory, as a reaching-definitions analysis finds it: two
    accesses (one a store) that may alias, unless a store between them certainly overwrites
    every byte the earlier one accessed (same base, same value of it, covering offsets: the
    earlier value is dead, as a register's is after the next write of it). A store that only
    *may* alias kills nothing, so the pair is listed, with ``via`` naming a store between that
    may alias both (the scheduler's graph orders the pair through it and leaves the direct edge
    out).

    ``complete=False`` gives only the scheduler's pairs (``via is None``) and stops looking back
    as soon as every earlier access is ordered through a store already seen: near-linear
    however long the block. The complete list can be quadratic (a block whose stores all use
    a freshly redefined base), so :class:`DependenceGraph` builds it only when asked.

    Each access looks back over the *live* accesses: those whose location no store since has
    certainly overwritten (for a load, the live stores). A store removes from the live set the
    accesses of its group it covers, so in one group the live set is bounded by the distinct
    words in play."""
    groups = _memory_groups(program)
    live: dict[int, None] = {}  # accesses in program order (dicts keep it; deletion is O(1))
    live_stores: dict[int, None] = {}
    live_in_group: dict[tuple[str, int], dict[int, None]] = {}

    for j, g in groups.items():
        b = program[j]
        seen: list[int] = []  # live stores between the candidate and j that may alias j
        seen_groups: set = set()
        found: list[MemoryPair] = []
        for i in reversed(live if b.is_store else live_stores):
            gi = groups[i]
            a = program[i]
            if gi == g and not _same_group_alias(a.mem, b.mem):
                continue
            if len(seen_groups) >= 2 and not complete:
                break  # every earlier access aliases one of them: already ordered
            via = next(
                (k for k in seen if groups[k] != gi or _same_group_alias(program[k].mem, a.mem)),
                None,
            )
            if via is None or complete:
                kind = "WAW" if a.is_store and b.is_store else "RAW" if a.is_store else "WAR"
                on = f"mem {b.mem}" if a.mem == b.mem else f"mem {a.mem}~{b.mem}"
                found.append(MemoryPair(i, j, kind, on, "must" if gi == g else "may", via))
            if a.is_store:
                seen.append(i)
                seen_groups.add(gi)
        if b.is_store:  # the accesses of its group whose every byte it overwrites are dead
            mine = live_in_group.get(g, {})
            for i in [i for i in mine if _covers(b.mem, program[i].mem)]:
                del mine[i], live[i]
                live_stores.pop(i, None)
            live_stores[j] = None
        live[j] = None
        live_in_group.setdefault(g, {})[j] = None
        yield from reversed(found)  # by src


@dataclass(frozen=True)
class Dependence(Edge):
    """A dependence as the analysis lists it: an :class:`~lecturekit.core.graph.Edge` with
    ``alias`` (``"must"`` or ``"may"`` through memory, ``""`` otherwise) and ``via``: ``None``
    when it is an edge of the scheduler's graph, else the store through which the graph orders
    the pair (see :func:`memory_dependences`)."""

    alias: str = ""
    via: int | None = None


@dataclass
class DependenceGraph:
    """A block, the machine it runs on, its dependences and the scheduling core's graph.

    ``edges`` lists every dependence (:class:`Dependence`), registers and memory, may and must
    alias: what a student reads (``lecturekit deps``, the JSON, the full drawing). ``graph``
    holds the ones a scheduler needs: a memory pair already ordered through a store between
    (``via``) is left out of it, which keeps long blocks near-linear. The complete list is built
    on first use (on a block whose stores all use a freshly redefined base it is quadratic)."""

    program: Program
    machine: Machine
    graph: Graph
    _latency: Callable[[str, int, int, bool], int] = field(repr=False)
    _edges: list[Dependence] | None = field(default=None, repr=False)

    @property
    def instructions(self) -> list[Instruction]:
        return self.program.instructions

    @property
    def edges(self) -> list[Dependence]:
        """Every dependence, sorted by (src, dst, kind, on): the graph's edges and the memory
        pairs it orders through a store (``via`` set)."""
        if self._edges is None:
            implied = [
                Dependence(
                    p.src,
                    p.dst,
                    self._latency(p.kind, p.src, p.dst, True),
                    p.kind,
                    p.on,
                    alias=p.alias,
                    via=p.via,
                )  # fmt: skip
                for p in memory_dependences(self.program)
                if p.via is not None
            ]
            self._edges = sorted(self.graph.edges + implied, key=_edge_order)
        return self._edges

    def iter_edges(self) -> Iterator[Dependence]:
        """Every dependence, by (dst, src), built as it goes: the complete list of a block too
        long to list whole can be printed up to a cap (``lecturekit deps``)."""
        by_dst: list[list[Edge]] = [[] for _ in self.program]
        for e in self.graph.edges:
            by_dst[e.dst].append(e)
        pairs = iter_memory_dependences(self.program)
        pending = next(pairs, None)
        for j, into in enumerate(by_dst):
            here = list(into)
            while pending is not None and pending.dst == j:
                p = pending
                if p.via is not None:
                    lat = self._latency(p.kind, p.src, p.dst, True)
                    here.append(
                        Dependence(p.src, p.dst, lat, p.kind, p.on, alias=p.alias, via=p.via)
                    )
                pending = next(pairs, None)
            here.sort(key=_edge_order)
            yield from here

    def implied(self) -> list[Dependence]:
        """The dependences the scheduler's graph orders through a store instead of an edge."""
        return [e for e in self.edges if e.via is not None]

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
        """The JSON contract of ``lecturekit deps``: machine, instructions, edges (every
        dependence; ``alias`` is "must"/"may" through memory, else null; ``via`` is null for an
        edge of the scheduler's graph, else the index of the store through which it orders
        the pair)."""
        m = self.machine
        return {
            "machine": {"name": m.name, "issue_width": m.issue_width, "units": dict(m.units)},
            "instructions": [
                {"index": k, "text": ins.text, "unit": m.timing(m.timing_key(ins)).unit}
                for k, ins in enumerate(self.program)
            ],
            "edges": [
                {
                    "src": e.src,
                    "dst": e.dst,
                    "kind": e.kind,
                    "on": e.on,
                    "latency": e.latency,
                    "alias": e.alias or None,
                    "via": e.via,
                }
                for e in self.edges
            ],
        }


def _edge_order(e: Edge) -> tuple:
    return (e.src, e.dst, e.kind, e.on)


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
                _(
                    "line {line}: a branch ({text}) in the delay slot of the branch on "
                    "line {branch_line}; put a nop or another instruction there"
                ).format(line=ins.line, text=ins.text or ins, branch_line=program[j].line)
            )
        slots.add((j, slot))
        end = branches[b + 1] if b + 1 < len(branches) else n - 1
        linked = successors.get(slot, set())
        edges.extend(
            Dependence(slot, k, 0, "CTRL", N_("delay slot"))
            for k in range(slot + 1, end + 1)
            if k not in linked
        )
    edges[:] = [e for e in edges if not (e.kind == "CTRL" and (e.src, e.dst) in slots)]
    edges.extend(Dependence(j, slot, 0, "CTRL", N_("delay slot")) for j, slot in sorted(slots))


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
        edges.append(Dependence(src, dst, latency(kind, src, dst, False), kind, reg))
    for p in memory_dependences(program, complete=False):
        edges.append(
            Dependence(
                p.src, p.dst, latency(p.kind, p.src, p.dst, True), p.kind, p.on, alias=p.alias
            )
        )
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
                Dependence(i, j, 0, "CTRL", N_("branch"))
                for i in range(start, j)
                if i not in linked
            )
            end = branches[b + 1] if b + 1 < len(branches) else len(program) - 1
            for k in range(j + 1, end + 1):  # after it, in order (control hazards unmodelled)
                if not (k == end and program[k].is_branch):  # the next branch adds that edge
                    edges.append(Dependence(j, k, 0, "CTRL", N_("branch")))
            previous = j
        if machine.delay_slot:
            _delay_slot_edges(program, branches, edges)
    edges.sort(key=_edge_order)
    graph = instruction_graph(list(program), edges, machine)
    dg = DependenceGraph(program, machine, graph, latency)
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
            _(
                "delay slot of {branch}: no instruction before it is independent "
                "of the rest of the block and of the branch, so a nop fills it"
            ).format(branch=branch_text),
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
        (
            _(
                "delay slot of {branch}: filled from before with {text} (line {line}; nothing "
                "after it, nor the branch, depends on it; the best of {n} such instructions)"
            )
            if len(candidates) > 1
            else _(
                "delay slot of {branch}: filled from before with {text} (line {line}; nothing "
                "after it, nor the branch, depends on it)"
            )
        ).format(
            branch=branch_text, text=prog[i].text or prog[i], line=prog[i].line, n=len(candidates)
        ),
    )
