"""Register allocation of a block with spill code, and the three ways to order it with
scheduling: prepass, postpass, and a scheduler that watches the register budget.

A block written with as many names as it likes (the lecture's ``t0 .. t7``, or one fresh name per
value after renaming) must run on a machine with ``K`` registers. :func:`allocate` walks the
block in its order and gives every value a register (``$r1 .. $rK``). When all ``K`` hold
values still needed, one must go to memory: the value whose next use is furthest away
(Belady's rule) is **spilled** — stored to its own slot (``sw $rX, off($sp)``) if it is not there
yet — and loaded back (``lw``) before its next use. Those are real instructions: the dependence
analysis sees them, the pipeline runs them, the interpreter executes them. Exactly when the
block's MaxLive (:func:`lecturekit.core.pressure.max_live` of its order) exceeds ``K`` is there
any spill code (the tests check it).

Where the block starts and ends: live-in values (read before the block writes them) arrive in
registers ``$r1, $r2, ...`` in order of first use (those that do not fit arrive in their spill
slots); the values the block leaves (by default the last value of every register it writes)
stay where the allocation left them, and :attr:`Allocation.exit` says where. The spill area is
addressed from ``$sp``, which is not one of the ``K`` registers. (lecturekit's dependence
analysis assumes two different base registers may alias, so spill code stays in order with the
block's own loads and stores; a compiler knows its spill slots are private.)

:func:`rename` gives every value its own name (as a compiler's virtual registers do before
allocation), removing the WAR and WAW dependences of reused names. Then:

* **prepass** (:func:`prepass`): rename, list-schedule, allocate in the scheduled order. The
  schedule is as good as the dependences allow, but it may keep more values alive than there
  are registers: spill code, and a longer block;
* **postpass** (:func:`postpass`): allocate in program order (the original order keeps few
  values alive), then list-schedule the allocated code. No spill where program order needs
  none, but reused registers add WAR and WAW dependences that pin the order;
* **integrated** (:func:`integrated`): rename, list-schedule with a register budget of ``K``
  (:class:`lecturekit.core.pressure.RegisterBudget`), allocate in that order.

:func:`check_allocation` runs the original block and the allocated one on the interpreter
(:mod:`lecturekit.loops` is above this module, so the check takes the interpreter's ``run`` as an
argument: ``check_allocation(block, allocation, regs, run=lecturekit.loops.interp.run)``).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..asm import Instruction, MemRef, Program, parse
from ..asm.formatting import format_instruction
from ..core.list_sched import list_schedule
from ..core.pressure import RegisterBudget, Value, live_intervals, max_live
from ..errors import LectureKitError
from ..language import _
from .deps import analyze
from .machine import Machine, get_machine
from .pipeline import simulate

#: the base register of the spill area (not one of the allocated registers)
SPILL_BASE = "sp"
#: bytes between two spill slots (one word each)
SLOT = 4
#: the longest block :func:`allocate` takes (it looks ahead for each value's next use)
MAX_INSTRUCTIONS = 5000


class AllocationError(LectureKitError):
    """A block the allocator does not take (branches, RISC-V code, too few registers)."""


def _check_block(program: Program) -> None:
    for k, ins in enumerate(program):
        if ins.notation == "riscv":
            raise AllocationError(_("the allocator takes the lecture's notation, not RISC-V"))
        if ins.is_branch:
            raise AllocationError(
                _(
                    "line {line}: the allocator takes a straight-line block; {instruction} is a "
                    "branch"
                ).format(line=ins.line or k + 1, instruction=ins.text or ins)
            )
        if SPILL_BASE in ins.reads() or SPILL_BASE in ins.writes():
            raise AllocationError(
                _(
                    "line {line}: ${spill_base} is the spill area's base and may not be "
                    "used by the block"
                ).format(line=ins.line or k + 1, spill_base=SPILL_BASE)
            )


def values_of(program: Program | str, live_out: set[str] | None = None) -> list[Value]:
    """One :class:`~lecturekit.core.pressure.Value` per register write of the block, named
    ``reg@I<k>``, with the instructions that read it; one per live-in register (read before the
    block writes it), named ``reg``. ``live_out``: registers whose last value leaves the block
    (default: every register the block writes)."""
    if isinstance(program, str):
        program = parse(program)
    current: dict[str, int] = {}  # register -> index of its value
    defs: list[tuple[str, int | None]] = []
    uses: list[list[int]] = []
    for k, ins in enumerate(program):
        for reg in dict.fromkeys(ins.reads()):
            if reg not in current:
                current[reg] = len(defs)
                defs.append((reg, None))
                uses.append([])
            uses[current[reg]].append(k)
        for reg in dict.fromkeys(ins.writes()):
            current[reg] = len(defs)
            defs.append((reg, k))
            uses.append([])
    written = {reg for reg, d in defs if d is not None}
    out_regs = written if live_out is None else set(live_out)
    last = {reg: current[reg] for reg in current}
    values = []
    for v, ((reg, d), us) in enumerate(zip(defs, uses, strict=True)):
        name = reg if d is None else f"{reg}@I{d + 1}"
        values.append(Value(name, d, tuple(us), live_out=reg in out_regs and last[reg] == v))
    return values


def block_max_live(program: Program | str, order: list[int] | None = None, live_out=None) -> int:
    """MaxLive of the block emitted in ``order`` (default: as written)."""
    if isinstance(program, str):
        program = parse(program)
    n = len(program)
    order = list(range(n)) if order is None else list(order)
    position = [0] * n
    for p, k in enumerate(order):
        position[k] = p
    return max_live(live_intervals(values_of(program, live_out), position, end=n))


def rename(program: Program | str, prefix: str = "v") -> tuple[Program, dict[str, str]]:
    """The block with every register write given a fresh name (``v1, v2, ...``; live-ins keep
    theirs), and ``{register: name of its last value}`` for every register the block writes."""
    if isinstance(program, str):
        program = parse(program)
    taken = {r for ins in program for r in (*ins.reads(), *ins.writes())}
    current: dict[str, str] = {}
    counter = 0
    out = []
    for ins in program:
        srcs = tuple(current.get(r, r) for r in ins.srcs)
        dests = []
        for r in ins.dests:
            counter += 1
            while f"{prefix}{counter}" in taken:
                counter += 1
            current[r] = f"{prefix}{counter}"
            dests.append(current[r])
        out.append(_rewrite(ins, dict(zip(ins.srcs, srcs, strict=True)), tuple(dests)))
    return Program(out, {}, ""), dict(current)


def _rewrite(ins: Instruction, src_map: dict[str, str], dests: tuple[str, ...]) -> Instruction:
    srcs = tuple(src_map.get(r, r) for r in ins.srcs)
    mem = ins.mem
    if mem is not None:
        mem = MemRef(src_map.get(mem.base, mem.base), mem.offset, mem.size)
    new = replace(ins, dests=dests, srcs=srcs, mem=mem, text="", labels=(), line=0)
    return replace(new, text=format_instruction(new))


@dataclass
class Allocation:
    """An allocated block: ``program`` (registers ``$r1 .. $rK`` and spill code in the spill
    area at ``$sp``), ``entry``: where each live-in register arrives (``("reg", "r2")`` or
    ``("mem", offset)`` from ``$sp``), ``exit``: where each live-out register's value is at the
    end, ``stores`` and ``loads``: the spill instructions added, ``max_live``: of the block in
    the order allocated, ``registers``: the names allocated."""

    program: Program
    registers: list[str]
    entry: dict[str, tuple[str, object]]
    exit: dict[str, tuple[str, object]]
    stores: int = 0
    loads: int = 0
    max_live: int = 0
    order: list[int] = field(default_factory=list)

    @property
    def spill_instructions(self) -> int:
        return self.stores + self.loads

    @property
    def text(self) -> str:
        return "\n".join(ins.text for ins in self.program)


def allocate(
    program: Program | str,
    registers: int | list[str],
    *,
    order: list[int] | None = None,
    live_out: set[str] | None = None,
) -> Allocation:
    """Allocate ``registers`` (a number ``K``: ``$r1 .. $rK``; or names) to the block emitted
    in ``order`` (default: as written), with spill code where needed (module docstring)."""
    if isinstance(program, str):
        program = parse(program)
    _check_block(program)
    names = (
        [f"r{i}" for i in range(1, registers + 1)]
        if isinstance(registers, int) and not isinstance(registers, bool)
        else list(registers)
    )
    if len(names) < 2 or len(set(names)) != len(names):
        raise AllocationError(
            _(
                "the allocator needs at least 2 distinct registers (an instruction "
                "reads two), got {registers!r}"
            ).format(registers=registers)
        )
    if SPILL_BASE in names:
        raise AllocationError(
            _("${spill_base} is the spill area's base, not a register to allocate").format(
                spill_base=SPILL_BASE
            )
        )
    n = len(program)
    if n > MAX_INSTRUCTIONS:
        raise AllocationError(
            _(
                "the allocator takes blocks of at most {max_instructions:,} "
                "instructions; this one has {n:,}"
            ).format(max_instructions=MAX_INSTRUCTIONS, n=n)
        )
    order = list(range(n)) if order is None else list(order)
    if sorted(order) != list(range(n)):
        raise AllocationError(
            _("order must list each instruction index 0..{last} once").format(last=n - 1)
        )
    emitted = [program[k] for k in order]
    block = Program(emitted, {}, "")
    values = values_of(block, live_out)
    position = list(range(n))
    peak = max_live(live_intervals(values, position, end=n))

    # the value each instruction reads per register, and what it defines
    reads: list[dict[str, int]] = [{} for _k in range(n)]
    writes: list[int | None] = [None] * n
    current: dict[str, int] = {}
    for v, val in enumerate(values):
        if val.definition is None:
            current[val.name] = v
    defined_by = {val.definition: v for v, val in enumerate(values) if val.definition is not None}
    for k, ins in enumerate(block):
        for reg in ins.reads():
            reads[k][reg] = current[reg]
        if k in defined_by:
            writes[k] = defined_by[k]
            for reg in ins.writes():
                current[reg] = defined_by[k]
    uses = [sorted(set(val.uses)) for val in values]

    def next_use(v: int, pos: int) -> float:
        later = [u for u in uses[v] if u >= pos]
        if later:
            return later[0]
        return float("inf") if values[v].live_out else -1

    in_reg: dict[int, str] = {}
    holds: dict[str, int] = {}
    slot: dict[int, int] = {}
    saved: set[int] = set()
    out: list[Instruction] = []
    stores = loads = 0
    template_sw = parse(f"sw $r, 0(${SPILL_BASE})").instructions[0]
    template_lw = parse(f"lw $r, 0(${SPILL_BASE})").instructions[0]

    def slot_of(v: int) -> int:
        if v not in slot:
            slot[v] = SLOT * len(slot)
        return slot[v]

    def spill_ins(template: Instruction, reg: str, v: int) -> Instruction:
        mem = MemRef(SPILL_BASE, slot_of(v))
        if template is template_sw:
            new = replace(template, srcs=(reg, SPILL_BASE), mem=mem, text="", line=0)
        else:
            new = replace(template, dests=(reg,), srcs=(SPILL_BASE,), mem=mem, text="", line=0)
        return replace(new, text=format_instruction(new))

    def free_register(pos: int, keep: set[int]) -> str:
        nonlocal stores
        for r in names:
            if r not in holds:
                return r
        victims = [v for v in holds.values() if v not in keep]
        if not victims:
            raise AllocationError(  # K >= 2: never
                _("no register left at instruction {k}").format(k=pos + 1)
            )
        victim = max(victims, key=lambda v: (next_use(v, pos), v))
        reg = in_reg.pop(victim)
        del holds[reg]
        if victim not in saved and next_use(victim, pos) != -1:
            out.append(spill_ins(template_sw, reg, victim))
            saved.add(victim)
            stores += 1
        return reg

    entry: dict[str, tuple[str, object]] = {}
    live_ins = [v for v, val in enumerate(values) if val.definition is None]
    live_ins.sort(key=lambda v: uses[v][0] if uses[v] else n)
    for v in live_ins:
        if len(holds) < len(names):
            r = names[len(holds)]
            in_reg[v], holds[r] = r, v
            entry[values[v].name] = ("reg", r)
        else:
            saved.add(v)
            entry[values[v].name] = ("mem", slot_of(v))

    for k, ins in enumerate(block):
        sources = set(reads[k].values())
        for v in sorted(sources, key=lambda v: next_use(v, k)):
            if v not in in_reg:
                r = free_register(k, sources)
                out.append(spill_ins(template_lw, r, v))
                loads += 1
                in_reg[v], holds[r] = r, v
        src_map = {reg: in_reg[v] for reg, v in reads[k].items()}
        for v in sources:  # values read here for the last time free their register
            if next_use(v, k + 1) == -1:
                del holds[in_reg.pop(v)]
        dests: tuple[str, ...] = ()
        d = writes[k]
        if d is not None:
            living = {v for v in sources if v in in_reg}
            r = next((x for x in names if x not in holds), None)
            if r is None:
                others = [v for v in holds.values() if v not in living]
                if others:
                    r = free_register(k, living)
                else:  # only this instruction's live sources: save one, take its register
                    victim = max(living, key=lambda v: (next_use(v, k + 1), v))
                    r = in_reg.pop(victim)
                    del holds[r]
                    if victim not in saved:
                        out.append(spill_ins(template_sw, r, victim))
                        saved.add(victim)
                        stores += 1
            dests = tuple(r for _written in ins.writes())
            if ins.writes():
                in_reg[d], holds[r] = r, d
        out.append(_rewrite(ins, src_map, dests if ins.writes() else ins.dests))
        if d is not None and next_use(d, k + 1) == -1 and d in in_reg:
            del holds[in_reg.pop(d)]  # a value nobody reads

    exit_: dict[str, tuple[str, object]] = {}
    for v, val in enumerate(values):
        if val.live_out:
            reg = val.name.split("@")[0]
            exit_[reg] = ("reg", in_reg[v]) if v in in_reg else ("mem", slot[v])
    return Allocation(Program(out, {}, ""), names, entry, exit_, stores, loads, peak, order)


def check_allocation(
    program: Program | str,
    allocation: Allocation,
    regs: dict[str, int],
    mem: dict[int, int] | None = None,
    *,
    run,
    spill_at: int = 0x8000,
) -> list[str]:
    """Differences between running ``program`` and its ``allocation`` from the same registers
    (``regs``: the original names) and memory, with ``run`` the interpreter
    (:func:`lecturekit.loops.interp.run`): every live-out register's value, read where the
    allocation left it, and every memory cell outside the spill area. Empty when they agree."""
    if isinstance(program, str):
        program = parse(program)
    mem = dict(mem or {})
    a = run(program, regs, mem, strict=True)
    start_regs = {SPILL_BASE: spill_at}
    start_mem = dict(mem)
    for name, (kind, where) in allocation.entry.items():
        if name not in regs:
            raise AllocationError(
                _("no initial value given for live-in register ${name}").format(name=name)
            )
        if kind == "reg":
            start_regs[where] = regs[name]
        else:
            start_mem[spill_at + where] = regs[name]
    b = run(allocation.program, start_regs, start_mem, strict=True)
    problems = []
    for reg, (kind, where) in allocation.exit.items():
        got = b.regs.get(where) if kind == "reg" else b.mem.get(spill_at + where)
        if a.regs.get(reg) != got:
            problems.append(
                _("${reg}: {before} vs {after} (at {kind} {where})").format(
                    reg=reg, before=a.regs.get(reg), after=got, kind=kind, where=where
                )
            )
    spill_area = range(spill_at, spill_at + SLOT * (allocation.stores + len(allocation.entry) + 1))
    for addr in sorted(set(a.mem) | set(b.mem)):
        if addr in spill_area and addr not in a.mem:
            continue
        if a.mem.get(addr) != b.mem.get(addr):
            problems.append(
                _("memory[{addr}]: {before} vs {after}").format(
                    addr=addr, before=a.mem.get(addr), after=b.mem.get(addr)
                )
            )
    return problems


@dataclass
class Strategy:
    """One way to order scheduling and allocation: its name, the allocated code, the cycles it
    takes on the machine (in-order pipeline, the final code as emitted), its spill code and
    the MaxLive of the order that was allocated."""

    name: str
    allocation: Allocation
    cycles: int
    max_live: int

    @property
    def spills(self) -> int:
        return self.allocation.spill_instructions


def _final(name, allocation: Allocation, machine: Machine, reschedule: bool) -> Strategy:
    code = allocation.program
    if reschedule and len(code):
        s = list_schedule(analyze(code, machine), "height")
        code = Program([code[k] for k in s.order], {}, "")
        allocation = replace(allocation, program=code)
    cycles = simulate(code, machine).cycles if len(code) else 0
    return Strategy(name, allocation, cycles, allocation.max_live)


def prepass(
    program: Program | str, registers: int, machine=None, *, priority="height", live_out=None
) -> Strategy:
    """Rename, list-schedule, allocate in the scheduled order (module docstring); the cycles of
    the allocated code, list-scheduled again after allocation (a postpass over the spill
    code)."""
    if isinstance(program, str):
        program = parse(program)
    m = get_machine(machine)
    renamed, last = rename(program)
    out = _renamed_live_out(program, renamed, last, live_out)
    order = list_schedule(analyze(renamed, m), priority).order
    alloc = allocate(renamed, registers, order=order, live_out=out)
    return _relabel(_final("prepass", alloc, m, True), last)


def postpass(program: Program | str, registers: int, machine=None, *, live_out=None) -> Strategy:
    """Allocate in program order, then list-schedule the allocated code."""
    if isinstance(program, str):
        program = parse(program)
    m = get_machine(machine)
    alloc = allocate(program, registers, live_out=live_out)
    return _final("postpass", alloc, m, True)


def integrated(
    program: Program | str, registers: int, machine=None, *, priority="height", live_out=None
) -> Strategy:
    """Rename, list-schedule with a register budget of ``registers``, allocate in that order,
    list-schedule the allocated code again."""
    if isinstance(program, str):
        program = parse(program)
    m = get_machine(machine)
    renamed, last = rename(program)
    out = _renamed_live_out(program, renamed, last, live_out)
    budget = RegisterBudget(values_of(renamed, out), registers)
    order = list_schedule(analyze(renamed, m), priority, registers=budget).order
    alloc = allocate(renamed, registers, order=order, live_out=out)
    return _relabel(_final("integrated", alloc, m, True), last)


def _renamed_live_out(program, renamed, last, live_out) -> set[str]:
    written = {r for ins in program for r in ins.writes()}
    regs = written if live_out is None else set(live_out) & written
    return {last[r] for r in regs}


def _relabel(strategy: Strategy, last: dict[str, str]) -> Strategy:
    """Name the exits by the original registers again (``t0``, not ``v5``)."""
    back = {v: r for r, v in last.items()}
    a = strategy.allocation
    a.exit = {back.get(k, k): where for k, where in a.exit.items()}
    return strategy


def compare_strategies(
    program: Program | str, registers: int, machine=None, *, live_out=None
) -> list[Strategy]:
    """Prepass, postpass and integrated on the same block and register count."""
    return [
        prepass(program, registers, machine, live_out=live_out),
        postpass(program, registers, machine, live_out=live_out),
        integrated(program, registers, machine, live_out=live_out),
    ]


__all__ = [
    "MAX_INSTRUCTIONS",
    "SLOT",
    "SPILL_BASE",
    "Allocation",
    "AllocationError",
    "Strategy",
    "allocate",
    "block_max_live",
    "check_allocation",
    "compare_strategies",
    "integrated",
    "postpass",
    "prepass",
    "rename",
    "values_of",
]
