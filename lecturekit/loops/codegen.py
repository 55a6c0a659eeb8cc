"""From a modulo schedule to code that runs: prologue, kernel, epilogue, modulo variable expansion.

With initiation interval II and ``S`` stages, iteration ``i`` runs its stage ``s`` in *block*
``i + s`` (a block is II cycles). Block ``b`` therefore holds stage ``s`` of iteration ``b - s``:

* the **prologue** is blocks ``0 .. S-2``: the pipeline fills (iteration 0 runs stage 0; then
  iteration 0 stage 1 with iteration 1 stage 0; ...);
* the **kernel** is one block with every stage, run ``N - (S-1)`` times: the steady state, one
  iteration finishes and one starts every II cycles;
* the **epilogue** is blocks ``N .. N+S-2``: the pipeline drains.

Registers: renaming and modulo variable expansion
-------------------------------------------------
The scheduler ignored register WAR and WAW dependences (only true dependences and memory order
constrain it), so the code gives every value its own register. A register the body writes twice
gets one name per write (``$t2`` written by ``lw`` and by ``add`` becomes ``$t2a`` and ``$t2``).
A value is *live* from the cycle its instruction issues to the cycle its last reader issues
(a reader in the next iteration counts ``II`` later). If that **lifetime** is longer than II, the
next iteration writes the value again before the last reader of the previous one has read it:
one register is not enough. **Modulo variable expansion** (Lam 1988) gives such a value
``q = ceil(lifetime / II)`` registers used in turn (``$t1``, ``$t1_1``, ...) and unrolls the kernel
``u = max q`` times so that each copy of the kernel names its registers statically. (A value with
``q`` registers uses the smallest divisor of ``u`` that is at least ``q``, so the rotation lines up
with the unrolled kernel.)

Trip counts
-----------
The number of iterations ``N`` is computed before the loop from the exit test
(:class:`~lecturekit.loops.model.TripCount`). The pipelined code needs ``N >= S - 1 + u`` (the
prologue, the epilogue and at least one pass through the unrolled kernel), and the kernel must run
a multiple of ``u`` times: so

* if ``N < S - 1 + u`` the **original loop** runs instead (for ``u = 1``: ``N < S``);
* otherwise ``(N - (S-1)) mod u`` iterations first run through the original body (a remainder
  loop), then the pipelined code runs the rest: the kernel ``K = N' - (S-1)`` times, a multiple of
  ``u``.

The kernel's branch compares the induction variable with its value after ``K`` passes, computed
before the prologue. Before the prologue, values the first iteration reads from "the previous
iteration" are copied into the register it expects (``move``); after the epilogue, the last value
of every register the loop writes is copied back to its own name, so the code leaves exactly the
registers and memory the original loop leaves (:func:`lecturekit.loops.interp.same_effect`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from ..asm import ZERO_REGISTERS, Instruction, format_instruction, parse
from .model import Loop


@dataclass
class Lifetime:
    """One value: written by instruction ``op`` (body index) into register ``register``,
    renamed ``value``; live from cycle ``start`` to ``end`` (iteration 0); ``copies`` =
    ``ceil((end - start) / II)`` registers needed; ``names``: the registers it rotates through."""

    register: str
    value: str
    op: int
    start: int
    end: int
    copies: int
    names: list[str] = field(default_factory=list)

    @property
    def length(self) -> int:
        return self.end - self.start


class Names:
    """Fresh register and label names that do not clash with anything already used."""

    def __init__(self, taken):
        self.taken = set(taken)

    def fresh(self, want: str) -> str:
        name, k = want, 1
        while name in self.taken:
            k += 1
            name = f"{want}{k}"
        self.taken.add(name)
        return name


def program_registers(program) -> set[str]:
    return {r for ins in program for r in (*ins.srcs, *ins.dests)}


def render(ins: Instruction, dests, srcs, base, target=None) -> str:
    """``ins`` with registers replaced, in the notation it was written in."""
    mem = replace(ins.mem, base=base) if ins.mem is not None else None
    new = replace(
        ins,
        dests=tuple(dests),
        srcs=tuple(srcs),
        mem=mem,
        target=target if target is not None else ins.target,
        text="",
        labels=(),
    )
    text = format_instruction(new)
    if new.notation == "mips" and " " in text:  # align operands as the examples do
        opcode, rest = text.split(" ", 1)
        text = f"{opcode:<5} {rest}"
    return text


_DOLLAR = re.compile(r"\$([A-Za-z_][A-Za-z0-9_]*)")


def isa_lines(lines: list[str], loop: Loop) -> list[str]:
    """Generated lines in the loop's own register naming: the trip-count code, merged updates
    and copies are written with MIPS ``$`` names; in a RISC-V loop a RISC-V register is written
    bare (``a0``) and any other name (a fresh one: ``trip``, ``t0_1``) as a virtual register
    (``%trip``), as :func:`lecturekit.asm.riscv.format_riscv` writes renamed registers."""
    if not any(ins.notation == "riscv" for ins in loop.program):
        return list(lines)
    from ..asm.riscv import REGISTERS

    def name(m: re.Match) -> str:
        return m[1] if m[1] in REGISTERS else f"%{m[1]}"

    return [_DOLLAR.sub(name, line) for line in lines]


def source_lines(instructions) -> list[str]:
    """Instructions as written, with their labels."""
    lines = []
    for ins in instructions:
        lines.extend(f"{name}:" for name in ins.labels)
        lines.append(f"    {ins.text or ins}")
    return lines


def move_opcode(writer: Instruction, register: str) -> str:
    """The instruction that copies ``register``, a value ``writer`` computes: ``move`` for an
    integer register (the lecture's; in RISC-V it reads as ``mv``), and in RISC-V ``fmv.d`` or
    ``fmv.s`` for a floating-point one (single precision when the writer produces a ``.s``
    value: ``flw``, ``fadd.s``, ``fcvt.s.w``, ``fmv.w.x``, ...)."""
    from ..asm.riscv import FP_REGISTERS

    if writer.notation != "riscv":
        return "move"
    op = writer.opcode
    fp_value = (
        register in FP_REGISTERS
        or op in ("fld", "flw")
        or (
            op.startswith("f")
            and writer.op_class in ("fadd", "fmul", "fdiv")
            and not op.startswith(("feq", "flt", "fle", "fclass", "fmv.x", "fcvt.w", "fcvt.l"))
        )
    )
    if not fp_value:
        return "move"
    single = op == "flw" or op.endswith(".s") or op.startswith(("fcvt.s.", "fmv.w.x", "fmv.s.x"))
    return "fmv.s" if single else "fmv.d"


def _comment(text: str, note: str) -> str:
    return f"    {text:<28} # {note}"


def lifetimes(
    loop: Loop,
    start: list[int],
    ii: int,
    names: Names | None = None,
    reaching=None,
    emitted=None,
) -> list[Lifetime]:
    """The lifetime of every value the body writes (see the module docstring). ``reaching``
    (default ``loop.reaching``) says which value each read reads: ``(j, reg) -> (def,
    distance)``. ``emitted(k)``: the sort key of instruction ``k`` in the kernel's code; a value
    whose last reader runs a whole number of IIs after it, in the same kernel row, and comes
    after its writer in that row, is overwritten in the code before it is read (the next
    iteration's write comes first): it needs one register more."""
    names = names or Names(program_registers(loop.program))
    reaching = loop.reaching if reaching is None else reaching
    uses: dict[tuple[int, str], list[tuple[int, int]]] = {}
    for (j, reg), (d, dist) in reaching.items():
        uses.setdefault((d, reg), []).append((j, dist))
    out = []
    for reg in loop.written():
        defs = loop.defs(reg)
        for n, d in enumerate(defs):
            if d == defs[-1]:
                value = reg
            else:
                value = names.fresh(f"{reg}{chr(ord('a') + n) if n < 26 else n}")
            reads = [(start[j] + dist * ii, j) for j, dist in uses.get((d, reg), ())]
            end = max((t for t, _j in reads), default=start[d])
            copies = max(1, -(-(end - start[d]) // ii))
            if emitted is not None and end > start[d] and (end - start[d]) % ii == 0:
                if any(t == end and emitted(j) > emitted(d) for t, j in reads):
                    copies += 1
            out.append(Lifetime(reg, value, d, start[d], end, copies))
    return out


def _expand(lives: list[Lifetime], names: Names) -> int:
    """Choose each value's registers; returns the kernel unroll factor u."""
    u = max((lt.copies for lt in lives), default=1)
    for lt in lives:
        r = next(r for r in range(lt.copies, u + 1) if u % r == 0)
        lt.names = [lt.value] + [names.fresh(f"{lt.value}_{c}") for c in range(1, r)]
    return u


def _move_induction(loop: Loop, start: list[int], ii: int, reaching) -> dict:
    """Induction-variable motion in the kernel: a load or store that uses an induction
    variable ``r`` only as its base reads the value of the *newest* update of ``r`` that has
    issued (its latency included) when the access issues, instead of the value its own
    iteration would see, and its offset is rewritten by ``-step`` per update it reads beyond
    it. The pointer then lives about one II, so it needs no modulo variable expansion.
    Returns ``access -> (register, step, distance read)`` for the accesses that change."""
    out = {}
    for reg, iv in loop.inductions.items():
        a = iv.position
        for k, ins in enumerate(loop.body):
            if k == a or ins.mem is None or ins.mem.base != reg or reg in ins.dests:
                continue
            if list(ins.srcs).count(reg) != 1 or reaching.get((k, reg), (None,))[0] != a:
                continue  # r is also a value operand (or not this update's value)
            was = reaching[(k, reg)][1]
            lat = max(
                (e.latency for e in loop.edges
                 if (e.src, e.dst, e.kind) == (a, k, "RAW") and e.on in (reg, f"${reg}")),
                default=1,
            )  # fmt: skip
            dist = -((start[k] - start[a] - lat) // ii)
            if dist < was:
                out[k] = (reg, iv.step, dist)
    return out


def pipeline_code(result) -> None:
    """Fill ``result`` (a :class:`~lecturekit.loops.modulo.ModuloResult`) with lifetimes, the
    kernel unroll factor, prologue / kernel / epilogue lines and the whole program."""
    loop: Loop = result.loop
    body = loop.body
    n = len(body)
    br = n - 1
    ii, S = result.ii, result.stage_count
    stages, rows = result.stages, result.rows
    regs = Names(program_registers(loop.program) | {"zero"})
    labels = Names(loop.program.labels)
    trip = loop.trip
    start = result.schedule.start
    reaching = dict(loop.reaching)
    ahead = 0
    if trip is not None:
        # The kernel's one branch tests the induction variable of the newest iteration whose
        # update is ready by then (``ahead`` iterations after the branch's own), so that its
        # value need not be kept alive for the oldest iteration in flight.
        a = loop.inductions[trip.induction].position
        lat = max(
            (e.latency for e in loop.edges
             if (e.src, e.dst, e.kind, e.distance) == (a, br, "RAW", 0)),
            default=1,
        )  # fmt: skip
        ahead = max(0, (start[br] - start[a] - lat) // ii)
        reaching[(br, trip.induction)] = (a, -ahead)
    shift: dict[int, tuple[str, int, int]] = {}  # access -> (register, step, distance read)
    if getattr(result, "move_induction", False):
        shift = _move_induction(loop, start, ii, reaching)
        for k, (reg, _step, dist) in shift.items():
            reaching[(k, reg)] = (loop.inductions[reg].position, dist)
    lives = lifetimes(
        loop, start, ii, regs, reaching, emitted=lambda k: (k == br, rows[k], -stages[k], k)
    )
    u = _expand(lives, regs)
    value_of = {(lt.op, lt.register): lt for lt in lives}

    def name(d: int, reg: str, i: int) -> str:
        lt = value_of[(d, reg)]
        return lt.names[i % len(lt.names)]

    def src(k: int, reg: str, i: int) -> str:
        if reg in ZERO_REGISTERS or (k, reg) not in reaching:
            return reg
        d, dist = reaching[(k, reg)]
        return name(d, reg, i - dist)

    def op_text(k: int, i: int, last: int | None = None) -> str:
        """Instruction ``k`` of iteration ``i`` (``last``: the last iteration's index, in the
        epilogue, where no later iteration's induction update runs)."""
        ins = body[k]
        dests = [r if r in ZERO_REGISTERS else name(k, r, i) for r in ins.dests]
        srcs = [src(k, r, i) for r in ins.srcs]
        base = src(k, ins.mem.base, i) if ins.mem is not None else None
        if k in shift:  # induction-variable motion: read a newer pointer, offset rewritten
            reg, step, dist = shift[k]
            a, was = loop.reaching[(k, reg)]
            if last is not None and i - dist > last:
                dist = i - last  # that iteration's update does not exist: the last one's
            base = name(a, reg, i - dist)
            ins = replace(ins, mem=replace(ins.mem, offset=ins.mem.offset - (was - dist) * step))
        return render(ins, dests, srcs, base)

    order = sorted(range(n), key=lambda k: (k == br, rows[k], -stages[k], k))
    kernel_label = labels.fresh(f"{loop.label}_kernel")

    prologue = []
    for b in range(S - 1):
        for k in order:
            if k != br and stages[k] <= b:
                i = b - stages[k]
                prologue.append(_comment(op_text(k, i), f"I{k + 1} iter {i} stage {stages[k]}"))
    kernel = [f"{kernel_label}:"]
    bound_reg = regs.fresh("kbound") if trip is not None else None
    for j in range(u):
        for k in order:
            i = S - 1 + j - stages[k]
            if k == br:
                if j != u - 1:
                    continue
                if trip is not None:
                    iv = src(k, trip.induction, i)
                    text = f"bne   ${iv}, ${bound_reg}, {kernel_label}"
                else:
                    text = render(
                        body[k], [], [src(k, r, i) for r in body[k].srcs], None, kernel_label
                    )
                kernel.append(_comment(text, f"I{k + 1} stage {stages[k]}: next kernel pass"))
            else:
                note = f"I{k + 1} stage {stages[k]}" + (f" (copy {j})" if u > 1 else "")
                kernel.append(_comment(op_text(k, i), note))
    epilogue = []
    for e in range(S - 1):
        for k in order:
            if k != br and stages[k] >= e + 1:
                i = S - 1 + e - stages[k]
                note = f"I{k + 1} iter N-{stages[k] - e} stage {stages[k]}"
                epilogue.append(_comment(op_text(k, i, S - 2), note))
    if shift:
        moved = [
            f"{body[k].text or body[k]} reads ${reg} {loop.reaching[(k, reg)][1] - dist} "
            f"update(s) later, offset {-(loop.reaching[(k, reg)][1] - dist) * step:+d}"
            for k, (reg, step, dist) in sorted(shift.items())
        ]
        result.notes.append("induction-variable motion: " + "; ".join(moved))
        result.motion = [
            {
                "index": k,
                "register": reg,
                "updates_later": loop.reaching[(k, reg)][1] - dist,
                "offset_change": -(loop.reaching[(k, reg)][1] - dist) * step,
            }
            for k, (reg, step, dist) in sorted(shift.items())
        ]
    result.lifetimes = lives
    result.unroll = u
    result.prologue = isa_lines(prologue, loop)
    result.kernel = isa_lines(kernel, loop)
    result.epilogue = isa_lines(epilogue, loop)
    kernel_prog = parse("\n".join(kernel))
    result.registers = len({r for ins in kernel_prog for r in (*ins.reads(), *ins.writes())})
    if trip is None:
        result.code = None
        result.notes.append(f"no runnable code: {loop.trip_problem}")
        return

    trip_reg, cond, rest, kiters = (regs.fresh(x) for x in ("trip", "cond", "rest", "kiters"))
    l_orig = labels.fresh(f"{loop.label}_orig")
    l_exit = labels.fresh(f"{loop.label}_exit")
    l_pipe = labels.fresh(f"{loop.label}_pipe")
    l_rest = labels.fresh(f"{loop.label}_rest")
    l_clamp = labels.fresh(f"{loop.label}_count")
    plain_body = source_lines([replace(ins, labels=()) for ins in body[:-1]])
    entry = body[0].labels
    code = source_lines(loop.pre)
    code += [f"{name}:" for name in entry]
    code.append(f"    # software-pipelined: II = {ii}, {S} stage(s), kernel unrolled {u}x")
    code += [f"    {x}" if not x.endswith(":") else x for x in trip.code(trip_reg, cond, l_clamp)]
    code.append(f"    # N = ${trip_reg} iterations")
    need = S - 1 + u
    if need > 1:
        code += [
            f"    slti  ${cond}, ${trip_reg}, {need}",
            f"    bnez  ${cond}, {l_orig}       # N < {need}: run the original loop",
        ]
    code.append(f"    addi  ${kiters}, ${trip_reg}, {-(S - 1)}")
    if u > 1:
        code += [
            f"    divi  ${rest}, ${kiters}, {u}",
            f"    muli  ${rest}, ${rest}, {u}",
            f"    sub   ${rest}, ${kiters}, ${rest}   # (N - {S - 1}) mod {u} iterations first",
            f"    sub   ${kiters}, ${kiters}, ${rest}  # kernel passes: a multiple of {u}",
            f"    beqz  ${rest}, {l_pipe}",
            f"{l_rest}:",
            *plain_body,
            f"    addi  ${rest}, ${rest}, -1",
            f"    bnez  ${rest}, {l_rest}",
            f"{l_pipe}:",
        ]
    code += [
        f"    muli  ${bound_reg}, ${kiters}, {trip.step}",
        f"    add   ${bound_reg}, ${trip.induction}, ${bound_reg}",
    ]
    if ahead:
        code.append(f"    addi  ${bound_reg}, ${bound_reg}, {ahead * trip.step}")
    code[-1] += f"   # ${trip.induction} the last kernel pass tests"
    for lt in lives:
        first_read = any(
            dist > 0 and d == lt.op and reg == lt.register
            for (_j, reg), (d, dist) in reaching.items()
        )
        prev = lt.names[-1]
        if first_read and prev != lt.register:
            move = move_opcode(body[lt.op], lt.register)
            code.append(
                f"    {move:<5} ${prev}, ${lt.register}        # value from before the loop"
            )
    code.append("    # prologue")
    code += prologue
    code.append("    # kernel")
    code += kernel
    code.append("    # epilogue")
    code += epilogue
    for lt in lives:
        if lt.op != loop.defs(lt.register)[-1]:
            continue
        last = lt.names[(S - 2) % len(lt.names)]
        if last != lt.register:
            move = move_opcode(body[lt.op], lt.register)
            code.append(f"    {move:<5} ${lt.register}, ${last}        # last value")
    code += [f"    j     {l_exit}", f"{l_orig}:"]
    code += plain_body
    code.append(f"    {render(body[-1], body[-1].dests, body[-1].srcs, None, l_orig)}")
    code.append(f"{l_exit}:")
    code += source_lines(loop.post)
    code = isa_lines(code, loop)
    text = "\n".join(code) + "\n"
    program = parse(text)  # generated code must always parse
    result.code = text
    result.code_size = len(program) - len(loop.pre) - len(loop.post)


__all__ = [
    "Lifetime",
    "Names",
    "isa_lines",
    "lifetimes",
    "move_opcode",
    "pipeline_code",
    "render",
    "source_lines",
]
