"""Traces, trace scheduling with compensation code, tail duplication and superblocks.

A basic block is often short: a compare and a branch every few instructions leave the list
scheduler little to overlap. Global scheduling schedules a longer piece of straight-line code,
a **trace** — a path through the control-flow graph that is likely to run — as if it were one
block, and repairs the other paths afterwards (Fisher, *Trace scheduling*, IEEE Trans.
Computers C-30, 1981; Engineering a Compiler §12.4; Muchnick ch. 17).

**Trace selection** (:func:`select_trace`): from a block, follow the most frequent edge to a
block not yet on the trace, while that edge is also the most frequent one into its target
("mutual most likely"), never along a back edge. The frequencies come from running the program
on sample inputs (:func:`lecturekit.regions.paths.edge_profile`).

**Scheduling the trace** (:func:`schedule_trace`). The trace's instructions, in order, form one
block: the branches that leave it are **side exits** (turned, if needed, so that leaving is the
taken direction), the edges from elsewhere into its middle are **side entrances** (joins). The
block's dependence graph (:func:`lecturekit.target.deps.analyze`) keeps every register and memory
dependence; the control dependences are replaced by what the motion rules allow:

* *up past a side exit* (speculation): an instruction from below an exit may run before it only
  if that is harmless on the exit's path: it is not a store, not a divide (it could trap), not a
  load (unless ``speculative_loads``), and it writes no register live at the exit's target;
* *down past a side exit*: always allowed; the instruction is then copied onto the exit's edge
  (**compensation code**), so the exit's path still runs it;
* *up past a side entrance*: allowed; the instructions from below the join that end up before
  the point where the entering path rejoins the new code are copied onto the entrance's edge
  (compensation code); the rejoin point is right after the last instruction from above the join;
* branches keep their order, and a branch from below a join stays below everything from above
  it (so compensation code never holds a branch).

Then the list scheduler orders the block (chapter 04, the same :func:`~lecturekit.core.list_sched
.list_schedule`), and the code is rebuilt: the trace in its new order, a compensation block on
each exit and entrance that needs one.

**Superblocks** (Hwu et al., *The superblock*, J. Supercomputing 7, 1993). Side entrances make
trace scheduling's bookkeeping hard. **Tail duplication** (:func:`tail_duplicate`) removes them:
from the first block with a side entrance to the end of the trace, the blocks are copied, and
every side entrance goes into the copy instead. The trace is then a *superblock* — one entry,
several exits — and :func:`superblock` schedules it with only the exit rules. The price is code
size: the copied tail, counted in :attr:`GlobalSchedule.growth`.

Every result is checked on the interpreter by the tests: the original and the transformed
program, on inputs that take every path, leave the same memory and the same registers live at
the exit (:func:`lecturekit.regions.paths.same_on_every_path`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..asm import Instruction, Program
from ..core.graph import Edge, Graph
from ..core.list_sched import list_schedule
from ..core.schedule import Schedule
from ..language import N_, _
from ..target.deps import analyze
from ..target.machine import get_machine
from .cfg import CFG, Block, RegionError, retarget


def _fresh(name: str, taken: set[str]) -> str:
    k = 1
    candidate = name
    while candidate in taken:
        k += 1
        candidate = f"{name}{k}"
    taken.add(candidate)
    return candidate


def back_edges(cfg: CFG) -> set[tuple[str, str]]:
    """Edges to a block already on the depth-first path from the entry (loops' back edges)."""
    out: set[tuple[str, str]] = set()
    state: dict[str, int] = {}

    def visit(name: str) -> None:
        state[name] = 1
        for s in cfg[name].successors:
            if state.get(s) == 1:
                out.add((name, s))
            elif s not in state:
                visit(s)
        state[name] = 2

    visit(cfg.entry)
    return out


def select_trace(cfg: CFG, counts: Counter, start: str | None = None) -> list[str]:
    """The trace through ``start`` (default: the entry) by the edge frequencies ``counts``
    (``(block, next block) -> times``), mutual most likely, no back edge (module docstring)."""
    start = cfg.entry if start is None else start
    cfg[start]
    back = back_edges(cfg)
    trace = [start]
    while True:
        here = trace[-1]
        options = [
            (counts.get((here, s), 0), s)
            for s in cfg[here].successors
            if (here, s) not in back and s not in trace
        ]
        if not options:
            return trace
        freq, best = max(options)
        if freq == 0:
            return trace
        into = max(counts.get((p, best), 0) for p in cfg.preds(best))
        if into > freq:
            return trace
        trace.append(best)


@dataclass
class _Item:
    ins: Instruction
    block: int  # position of its block on the trace
    kind: str = "op"  # "op", "exit" (a branch leaving the trace), "end" (a final j)
    target: str | None = None


@dataclass
class GlobalSchedule:
    """A trace (or superblock) scheduled and the code rebuilt around it.

    ``cfg`` / ``program``: the transformed code; ``trace``: the blocks scheduled together;
    ``before`` / ``after``: the trace as one block in its original and its new order (texts);
    ``schedule``: the list schedule of that block (verified); ``speculated``: instructions moved
    above a side exit; ``sunk``: instructions moved below one (with their compensation copies);
    ``exit_copies`` / ``join_copies``: compensation instructions on exits and entrances;
    ``duplicated``: instructions copied by tail duplication; ``growth``: static instructions
    added overall (``size_after - size_before``)."""

    kind: str
    cfg: CFG
    program: Program
    trace: list[str]
    before: list[str]
    after: list[str]
    schedule: Schedule
    speculated: list[str] = field(default_factory=list)
    sunk: list[str] = field(default_factory=list)
    exit_copies: int = 0
    join_copies: int = 0
    duplicated: int = 0
    size_before: int = 0
    size_after: int = 0

    @property
    def growth(self) -> int:
        return self.size_after - self.size_before


def _check_trace(cfg: CFG, trace: list[str]) -> None:
    if not trace:
        raise RegionError(_("a trace needs at least one block"))
    if len(set(trace)) != len(trace):
        raise RegionError(_("a block appears twice on the trace {trace}").format(trace=trace))
    for a, b in zip(trace, trace[1:], strict=False):
        if b not in cfg[a].successors:
            raise RegionError(
                _("the trace goes from {a} to {b}, but {a} has no edge to {b}").format(a=a, b=b)
            )
        if b == cfg.entry:
            raise RegionError(
                _("the trace goes back to the entry {b}: a trace has no cycle").format(b=b)
            )


def _linear(cfg: CFG, trace: list[str]) -> tuple[list[_Item], str | None]:
    """The trace as one block of items, and the successor after its last block."""
    items: list[_Item] = []
    m = len(trace)
    after: str | None = None
    for i, name in enumerate(trace):
        b = cfg[name]
        items.extend(_Item(ins, i) for ins in b.body)
        br = b.branch
        nxt = trace[i + 1] if i + 1 < m else None
        if nxt is not None:
            if br is None or (br.opcode == "j" and br.target == nxt):
                continue
            if b.fall == nxt:
                items.append(_Item(br, i, "exit", br.target))
            else:  # the trace goes the taken way: turn the branch so leaving is taken
                items.append(_Item(retarget(br, b.fall, invert=True), i, "exit", b.fall))
            continue
        if br is not None and br.opcode == "j":
            items.append(_Item(br, i, "end", br.target))
        elif br is not None:
            items.append(_Item(br, i, "exit", br.target))
            after = b.fall
        else:
            after = b.fall
    return items, after


def _safe_above(ins: Instruction, live: frozenset[str], speculative_loads: bool) -> bool:
    if ins.is_store or ins.is_branch or ins.op_class == "div":
        return False
    if ins.is_load and not speculative_loads:
        return False
    return not (set(ins.writes()) & live)


def schedule_trace(
    cfg: CFG,
    trace: list[str],
    machine=None,
    *,
    priority: str = "height",
    speculative_loads: bool = False,
    kind: str = "trace",
) -> GlobalSchedule:
    """Schedule ``trace`` as one block and rebuild the code with compensation (module
    docstring); the blocks off the trace are kept as they are."""
    _check_trace(cfg, trace)
    m = get_machine(machine)
    on_trace = set(trace)
    items, after = _linear(cfg, trace)
    n = len(items)
    live = cfg.live_in()
    first_of = {}
    for k in range(len(trace)):
        first_of[k] = next((i for i, it in enumerate(items) if it.block >= k), n)
    # side entrances: edges into trace[k] (k >= 1) other than the on-trace edge from trace[k-1]
    entrances: dict[int, list[str]] = {}
    for k in range(1, len(trace)):
        from_elsewhere = [p for p in cfg.preds(trace[k]) if p != trace[k - 1]]
        b = cfg[trace[k - 1]]
        if b.branch is not None and b.branch.opcode != "j" and b.target == b.fall == trace[k]:
            from_elsewhere.append(trace[k - 1])
        if from_elsewhere:
            entrances[k] = from_elsewhere
    if kind == "superblock" and entrances:
        raise RegionError(
            _("a superblock has no side entrance: {entrances} (tail_duplicate first)").format(
                entrances=", ".join(
                    _("{block} from {preds}").format(block=trace[k], preds=", ".join(p))
                    for k, p in entrances.items()
                )
            )
        )

    if n == 0:
        raise RegionError(_("the trace has no instructions to schedule"))
    program = Program([it.ins for it in items], {}, "")
    dg = analyze(program, m)
    edges = [e for e in dg.edges if e.kind != "CTRL"]
    branches = [i for i, it in enumerate(items) if it.kind != "op"]
    for a, b in zip(branches, branches[1:], strict=False):
        edges.append(Edge(a, b, 0, "CTRL", N_("branch order")))
    for b in branches:
        it = items[b]
        if it.kind == "end":
            edges.extend(Edge(i, b, 0, "CTRL", N_("end of trace")) for i in range(b))
            continue
        target_live = live[it.target]
        for x in range(b + 1, n):
            if items[x].kind == "op" and not _safe_above(
                items[x].ins, target_live, speculative_loads
            ):
                edges.append(Edge(b, x, 0, "CTRL", N_("not speculated")))
    for k in entrances:
        p = first_of[k]
        for b in branches:
            if b >= p:
                edges.extend(Edge(i, b, 0, "CTRL", N_("below a join")) for i in range(p))
    g = dg.graph
    graph = Graph(
        g.ops,
        edges,
        units=dict(g.units),
        issue_width=g.issue_width,
        earliest=g.earliest,
        name=g.name,
    )
    sched = list_schedule(graph, priority)
    order = list(sched.order)
    pos = {i: j for j, i in enumerate(order)}

    taken = set(cfg.names)
    speculated, sunk = [], []
    exit_comp: dict[int, list[int]] = {}
    for b in branches:
        if items[b].kind != "exit":
            continue
        comp = [i for i in order if i < b and pos[i] > pos[b] and items[i].kind == "op"]
        exit_comp[b] = comp
        sunk.extend(items[i].ins.text for i in comp if items[i].ins.text not in sunk)
        for x in range(b + 1, n):
            if pos[x] < pos[b] and items[x].ins.text not in speculated:
                speculated.append(items[x].ins.text)
    rejoin: dict[int, int] = {}
    join_comp: dict[int, list[int]] = {}
    for k in entrances:
        p = first_of[k]
        r = 1 + max((pos[i] for i in range(p)), default=-1)
        rejoin[k] = r
        join_comp[k] = [order[j] for j in range(r) if order[j] >= p]

    # -- rebuild: the trace's blocks, split at its branches and rejoin points ----------------
    rejoin_name = {k: _fresh(f"{trace[k]}_r", taken) for k in entrances}
    at_position: dict[int, list[str]] = {}
    for k, r in rejoin.items():
        at_position.setdefault(r, []).append(rejoin_name[k])
    new_blocks: list[Block] = []
    exit_blocks: list[Block] = []
    current = Block(trace[0])

    def close(next_name: str | None) -> None:
        nonlocal current
        if current.branch is None or current.branch.opcode != "j":
            current.fall = next_name
        new_blocks.append(current)

    for j, i in enumerate(order):
        for label in at_position.get(j, ()):
            close(label)
            current = Block(label)
        it = items[i]
        if it.kind == "op":
            current.body.append(it.ins)
            continue
        if it.kind == "end":
            current.branch = it.ins
            close(None)
            current = Block(_fresh(f"{trace[0]}_{len(new_blocks) + 1}", taken))
            continue
        target = it.target
        if exit_comp.get(i):
            comp_name = _fresh(f"{trace[it.block]}_x", taken)
            exit_blocks.append(Block(comp_name, [items[c].ins for c in exit_comp[i]], None, target))
            target = comp_name
        current.branch = retarget(it.ins, target)
        nxt = _fresh(f"{trace[0]}_{len(new_blocks) + 1}", taken)
        close(nxt)
        current = Block(nxt)
    for label in at_position.get(len(order), ()):
        close(label)
        current = Block(label)
    ended = bool(order) and items[order[-1]].kind == "end"
    if not ended or current.body or current.name in rejoin_name.values():
        current.fall = after
        new_blocks.append(current)
    join_blocks = [
        Block(trace[k], [items[c].ins for c in join_comp[k]], None, rejoin_name[k])
        for k in entrances
    ]
    layout: list[Block] = []
    for b in cfg.blocks:
        if b.name == trace[0]:
            layout.extend(new_blocks)
        elif b.name not in on_trace:
            layout.append(b)
    layout.extend(join_blocks + exit_blocks)
    out = CFG(layout, cfg.live_at_exit)
    program_out = out.to_program()
    return GlobalSchedule(
        kind=kind,
        cfg=out,
        program=program_out,
        trace=list(trace),
        before=[it.ins.text for it in items],
        after=[items[i].ins.text for i in order],
        schedule=sched,
        speculated=speculated,
        sunk=sunk,
        exit_copies=sum(len(c) for c in exit_comp.values()),
        join_copies=sum(len(c) for c in join_comp.values()),
        size_before=cfg.size(),
        size_after=len(program_out),
    )


def tail_duplicate(cfg: CFG, trace: list[str]) -> tuple[CFG, int]:
    """Copy the trace from its first block with a side entrance to its end, and send every side
    entrance into the copy: the trace becomes a superblock. Returns the new CFG and how many
    instructions were copied."""
    _check_trace(cfg, trace)
    m = len(trace)
    first = None
    for k in range(1, m):
        others = [p for p in cfg.preds(trace[k]) if p != trace[k - 1]]
        if others:
            first = k
            break
    if first is None:
        return cfg, 0
    taken = set(cfg.names)
    copy = {trace[k]: _fresh(f"{trace[k]}_t", taken) for k in range(first, m)}

    def into_copy(src: str, dst: str) -> str:
        """Where an edge src -> dst goes after duplication."""
        if dst not in copy:
            return dst
        k = trace.index(dst)
        if src == trace[k - 1] and src not in copy.values():
            return dst  # the on-trace edge
        return copy[dst]

    def moved(b: Block, name: str, src_for_edges: str) -> Block:
        branch = b.branch
        if branch is not None:
            branch = retarget(branch, into_copy(src_for_edges, branch.target))
        fall = into_copy(src_for_edges, b.fall) if b.fall is not None else None
        return Block(name, list(b.body), branch, fall)

    blocks: list[Block] = []
    copies: list[Block] = []
    duplicated = 0
    for b in cfg.blocks:
        if b.name in copy:
            blocks.append(moved(b, b.name, b.name))
            c = moved(b, copy[b.name], copy[b.name])
            # inside the copy, the on-trace successor is the next copy
            k = trace.index(b.name)
            if k + 1 < m:
                nxt = trace[k + 1]
                if c.fall == nxt or c.fall == copy.get(nxt):
                    c.fall = copy[nxt]
                if c.branch is not None and c.branch.target in (nxt, copy.get(nxt)):
                    c.branch = retarget(c.branch, copy[nxt])
            copies.append(c)
            duplicated += len(b.instructions)
        else:
            blocks.append(moved(b, b.name, b.name))
    # the copies go after the block that enters the tail first in the layout
    enter = next(b.name for b in blocks if copy[trace[first]] in b.successors)
    at = next(i for i, b in enumerate(blocks) if b.name == enter) + 1
    out = CFG(blocks[:at] + copies + blocks[at:], cfg.live_at_exit)
    return out, duplicated


def superblock(
    cfg: CFG,
    trace: list[str],
    machine=None,
    *,
    priority: str = "height",
    speculative_loads: bool = False,
) -> GlobalSchedule:
    """Tail-duplicate ``trace`` into a superblock and schedule it (module docstring)."""
    size_before = cfg.size()
    dup, copied = tail_duplicate(cfg, trace)
    result = schedule_trace(
        dup,
        trace,
        machine,
        priority=priority,
        speculative_loads=speculative_loads,
        kind="superblock",
    )
    result.duplicated = copied
    result.size_before = size_before
    return result


__all__ = [
    "GlobalSchedule",
    "back_edges",
    "schedule_trace",
    "select_trace",
    "superblock",
    "tail_duplicate",
]
