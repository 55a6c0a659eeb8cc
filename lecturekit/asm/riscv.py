"""RISC-V assembly as ``clang -S``, ``gcc -S`` and ``llvm-mc`` print it (RV64 I, M, A, F, D).

::

    .LBB0_2:                        # the loop body clang emits for C[j] += A * B[j]
            fld     ft0, 0(a1)
            fld     ft1, 0(a0)
            fmadd.d ft0, fa0, ft0, ft1
            fsd     ft0, 0(a0)
            addi    a2, a2, -1
            addi    a1, a1, 8
            addi    a0, a0, 8
            bnez    a2, .LBB0_2

What is read:

* registers by ABI name (``zero ra sp gp tp t0-t6 s0-s11 a0-a7``, ``fp`` = ``s0``; ``ft0-ft11
  fs0-fs11 fa0-fa7``) or by number (``x0-x31``, ``f0-f31``); numbers are turned into ABI names,
  so ``x10`` and ``a0`` are the same register and ``x0`` is ``zero``, which never carries a
  dependence;
* loads and stores ``lb lh lw ld lbu lhu lwu flw fld`` / ``sb sh sw sd fsw fsd`` with an
  ``offset(base)`` operand (the offset may be ``%lo(sym)`` or ``%pcrel_lo(label)``); the access
  width is kept, so ``sd a0, 0(a1)`` and ``lw a2, 4(a1)`` overlap and depend on each other;
* integer ``add addi sub addw addiw slli srli srai sll srl sra slt sltu and or xor ...``, ``lui
  auipc``, the M extension (``mul mulw mulh div divu rem remw ...``), the A extension (``lr.w
  sc.d amoadd.w amoswap.d ...`` with ``.aq``/``.rl``/``.aqrl``), the F/D arithmetic
  (``fadd.d fsub.d fmul.d fdiv.d fsqrt.d fmadd.d fmsub.d fnmadd.d fmin.d fcvt.* fmv.* feq.d``, the
  ``.s`` forms too), branches ``beq bne blt bge bltu bgeu`` and the pseudo-branches ``beqz bnez
  blez bgez bltz bgtz bgt ble bgtu bleu``, ``j jr ret call tail jal jalr``, ``fence``, the CSR
  instructions (``csrr csrw ... frflags fsflags frrm fsrm rdcycle``);
* the pseudo-instructions compilers print: ``li mv not neg negw sext.w zext.b seqz snez sltz sgtz
  sgt sgtu la lla nop fmv.d fneg.d fabs.d``;
* operands that name a symbol: ``%hi(sym)``, ``%lo(sym)``, ``%pcrel_hi(sym)``, ``sym+8``,
  ``call sqrt@plt``, and GCC's loads and stores from a symbol (``ld a2, .LC1``,
  ``fld fa4, .LC0, a5``, ``sd a0, sym, t0``);
* several statements on one line separated by ``;`` and numeric local labels (``1:`` with
  ``1f``/``1b``), as GCC prints its atomic sequences;
* virtual registers ``%v1`` (or ``$v1``): the loop tools (``lecturekit unroll``/``modulo``)
  write renamed copies with them, and the lecture's ``subi muli divi move`` in the code they
  generate, so compiled loops go through every tool and the result parses back;
* labels (``.LBB0_2:``, ``saxpy:``), ``#`` comments; directives (``.text``, ``.p2align 2``, ...)
  are skipped and listed in the program's ``notes``. A branch to a label outside the text (the
  exit of a loop that was cut out of a function) is allowed in RISC-V and noted.

**Pseudo-instructions the assembler expands** become the instructions it emits, as the hardware
(and llvm-mca) sees them, each noted in ``program.notes``: ``li`` with a constant that does not
fit in 12 bits becomes ``lui``/``addiw``/``slli``/``addi``/``srli`` (LLVM 14's sequence,
:func:`materialize`); ``la``/``lla`` become ``auipc`` + ``addi``; a load or store from a symbol
becomes ``auipc`` + the access. ``call`` and ``tail`` stay one instruction (llvm-mca does not
time them).

Operation classes (which decide the unit and latency on a machine without a per-opcode table):
``alu``, ``mul``, ``div``, ``load``, ``store`` (``sc`` and the AMOs too), ``branch`` (and the
barriers ``fence``, ``ecall``, ``ebreak``, which keep their place as a branch does), ``nop``, and
for floating point ``fadd`` (add, subtract, compare, convert, move), ``fmul`` (multiply and fused
multiply-add) and ``fdiv`` (divide, square root).

Errors are :class:`~lecturekit.errors.ParseError` with the line and column, as for MIPS.
"""

from __future__ import annotations

import re

from ..errors import ParseError
from ..language import N_, _
from .cursor import LineCursor, split_lines
from .formatting import format_riscv
from .instruction import Instruction, MemRef, Program
from .opcodes import CSR_NUMBERS, FP_REGISTERS, OPCODES, REGISTERS, RISCV_OPCODES, WIDTH

_ROUNDING = frozenset({"rne", "rtz", "rdn", "rup", "rmm", "dyn"})
#: the longest block :func:`parse_riscv` reads (instructions, after expansion)
MAX_INSTRUCTIONS = 200_000

_MIPS_OPCODES = frozenset(OPCODES)
#: ABI register names RISC-V has and MIPS does not (MIPS has a0-a3, s0-s8, t0-t9, no tp)
_RV_ONLY_NAMES = frozenset("a4 a5 a6 a7 s9 s10 s11 tp".split())


def _strip(line: str) -> str:
    i = line.find("#")
    return line if i < 0 else line[:i]


def _statements(body: str) -> list[tuple[int, int]]:
    """(start, end) of each ``;``-separated statement of a line (GNU as for RISC-V)."""
    out, start = [], 0
    for k, c in enumerate(body):
        if c == ";":
            out.append((start, k))
            start = k + 1
    out.append((start, len(body)))
    return out


_LABEL = re.compile(r"\s*([A-Za-z_.$][A-Za-z0-9_.$]*|[0-9]+)\s*:")
_FIRST = re.compile(r"\s*(\S+)")
_RV_ONLY_REG = re.compile(r"(?<![A-Za-z0-9_$.])(?:x[0-9]{1,2}|f[0-9]{1,2}|f[tsa][0-9]{1,2})\b")
_WORDS = re.compile(r"(?<![A-Za-z0-9_$.%])([A-Za-z][A-Za-z0-9]*)(?![A-Za-z0-9_.(])")


def looks_like_riscv(source: str) -> bool:
    """Whether text is RISC-V rather than the lecture's MIPS/three-address notation.

    RISC-V when nothing is three-address (no ``=``, ``if``, ``goto``) and something is RISC-V
    only: a directive (``.text``), an opcode MIPS does not have (``ld``, ``addiw``, ``fadd.d``,
    ``mv``, ``sgt``, ``ret``, ...), a register MIPS does not have (``x5``, ``f3``, ``fa0``,
    ``a4``-``a7``, ``s9``-``s11``, ``tp``) or a ``%`` operand (a virtual register ``%v``, as
    generated code renames registers, or ``%hi``/``%lo``). (``$t0`` alone is MIPS; in RISC-V
    text ``$v``/``%v`` is a virtual register.)
    """
    mips = _MIPS_OPCODES
    evidence = False
    for raw in split_lines(source):
        body = _strip(raw)
        if "=" in body or "mem[" in body:
            return False
        pos = 0
        while m := _LABEL.match(body, pos):
            pos = m.end()
        m = _FIRST.match(body, pos)
        if not m:
            continue
        word = m.group(1).lower()
        if word in ("if", "goto"):
            return False
        rest = body[m.end() :]
        if word.startswith("."):
            evidence = True
        elif word in RISCV_OPCODES and word not in mips:
            evidence = True
        elif _RV_ONLY_REG.search(rest) or "%" in rest:
            evidence = True  # (a %-register or %hi/%lo: RISC-V only)
        elif "$" not in rest and any(w in _RV_ONLY_NAMES for w in _WORDS.findall(rest)):
            evidence = True
    return evidence


def parse_riscv(source: str):
    """Parse RISC-V assembly into a :class:`~lecturekit.asm.instruction.Program` (instructions carry
    ``notation="riscv"``). Directives, pseudo-instructions the assembler expands and branches
    leaving the text are listed in ``program.notes``."""
    if not isinstance(source, str):
        raise ParseError(
            _("expected program text (a string), got {name}").format(name=type(source).__name__),
            1,
            1,
        )
    lines = split_lines(source)
    numeric = _numeric_labels(lines)
    instructions: list[Instruction] = []
    labels: dict[str, int] = {}
    pending: list[str] = []
    notes: list[str] = []
    directives: dict[str, list[int]] = {}
    expanded: list[str] = []
    seen_numeric = 0  # numeric label definitions passed so far (see _numeric_labels)
    for number, full in enumerate(lines, start=1):
        body = _strip(full)
        for start, end in _statements(body):
            cur = LineCursor(" " * start + body[start:end], number, full)
            cur.pos = start
            while m := _LABEL.match(cur.text, cur.pos):
                name = m.group(1)
                if name.isdigit():
                    name = _numeric_name(name, seen_numeric)
                    seen_numeric += 1
                elif name in labels or name in pending:
                    raise cur.error(
                        _("label {name!r} is defined twice").format(name=name), m.start(1)
                    )
                pending.append(name)
                cur.pos = m.end()
            if cur.at_end():
                continue
            if cur.text[cur.pos] == ".":
                word = _FIRST.match(cur.text, cur.pos).group(1)
                directives.setdefault(word, []).append(number)
                continue
            group = _parse_one(cur, numeric, seen_numeric)
            if len(group) > 1:
                expanded.append(
                    _(
                        "line {number}: {written} is {n} instructions as the assembler "
                        "expands it ({expansion})"
                    ).format(
                        number=number,
                        written=" ".join(cur.text[start:].split()),
                        n=len(group),
                        expansion="; ".join(ins.text for ins in group),
                    )
                )
            for k, ins in enumerate(group):
                ins = Instruction(
                    **{
                        **ins.__dict__,
                        "labels": tuple(pending) if k == 0 else (),
                        "line": number,
                        "notation": "riscv",
                    }
                )
                for name in pending if k == 0 else ():
                    labels[name] = len(instructions)
                instructions.append(ins)
            pending = []
            if len(instructions) > MAX_INSTRUCTIONS:
                raise ParseError(
                    _("block too long: more than {max_instructions:,} instructions").format(
                        max_instructions=MAX_INSTRUCTIONS
                    ),
                    number,
                    1,
                )
    for name in pending:
        labels[name] = len(instructions)
    for word, where in directives.items():
        shown = ", ".join(map(str, where[:5])) + (", ..." if len(where) > 5 else "")
        notes.append(_("directive {word} ignored (line {shown})").format(word=word, shown=shown))
    notes.extend(expanded)
    for ins in instructions:
        if ins.target is not None and ins.target not in labels:
            notes.append(
                _("line {line}: {opcode} leaves the block (label {target} is not in it)").format(
                    line=ins.line, opcode=ins.opcode, target=ins.target
                )
            )
    program = Program(instructions, labels, source)
    program.notes = notes
    return program


def _numeric_name(digits: str, k: int) -> str:
    """The name the k-th numeric label definition (``1:``) gets: a numeric label may be defined
    many times, and ``1f``/``1b`` name the next/previous definition."""
    return f".Lnum{int(digits)}_{k}"


def _numeric_labels(lines: list[str]) -> list[str]:
    """The digits of every numeric label definition, in order (for resolving ``1f``)."""
    out = []
    for full in lines:
        body = _strip(full)
        for start, end in _statements(body):
            pos, text = start, body[:end]
            while m := _LABEL.match(text, pos):
                if m.group(1).isdigit():
                    out.append(m.group(1))
                pos = m.end()
    return out


def materialize(value: int) -> list[tuple[str, int]]:
    """The instructions ``li rd, value`` becomes on RV64GC, as LLVM 14 emits them
    (RISCVMatInt::generateInstSeq without the Zba/Zbb/Zbs extensions): ``[(opcode, immediate),
    ...]``, the first one writing the register from scratch (``lui``, or ``addi`` from ``zero``)
    and each later one updating it (``addiw``, ``slli``, ``addi``, ``srli``)."""
    value = _signed64(value)
    seq = _matint(value)
    if value > 0 and len(seq) > 2:  # a shifted constant and a final srli may be shorter
        zeros = 64 - value.bit_length()
        shifted = ((value << zeros) & _MASK64) | ((1 << zeros) - 1)
        for candidate in (shifted, shifted & ~((1 << zeros) - 1) & _MASK64):
            tmp = _matint(_signed64(candidate)) + [("srli", zeros)]
            if len(tmp) < len(seq):
                seq = tmp
                if len(seq) <= 2:
                    break
    return seq


_MASK64 = (1 << 64) - 1


def _signed64(v: int) -> int:
    v &= _MASK64
    return v - (1 << 64) if v >> 63 else v


def _sext(v: int, bits: int) -> int:
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def _matint(val: int) -> list[tuple[str, int]]:
    if -(2**31) <= val < 2**31:
        hi20 = ((val + 0x800) >> 12) & 0xFFFFF
        lo12 = _sext(val, 12)
        out = [("lui", hi20)] if hi20 else []
        if lo12 or hi20 == 0:
            out.append(("addiw" if hi20 else "addi", lo12))
        return out
    lo12 = _sext(val, 12)
    hi52 = ((val + 0x800) & _MASK64) >> 12
    shift = 12 + ((hi52 & -hi52).bit_length() - 1)
    hi52 = _sext(hi52 >> (shift - 12), 64 - shift)
    if shift > 12 and not -2048 <= hi52 < 2048:  # shift less, so that LUI can take the rest
        wide = _signed64(hi52 << 12)
        if -(2**31) <= wide < 2**31:
            shift -= 12
            hi52 = wide
    return _matint(hi52) + [("slli", shift)] + ([("addi", lo12)] if lo12 else [])


def _reg(cur, role: str, fp: bool | None = None) -> str:
    cur.skip_ws()
    start = cur.pos
    virtual = cur.token(r"[%$][A-Za-z_][A-Za-z0-9_]*")
    if virtual is not None:  # %v1 (or $v1): a virtual register, as lecturekit's loop tools
        name = virtual[0][1:]  # write renamed copies; a real register name stays itself
        if name.lower() in REGISTERS:
            return REGISTERS[name.lower()]
        return name
    tok = cur.token(r"[A-Za-z][A-Za-z0-9]*")
    name = tok[0].lower() if tok else None
    if name not in REGISTERS:
        cur.pos = start
        if fp is None:
            text = _("expected a register for {role}, found {found}")
        elif fp:
            text = _("expected a register for {role} (like fa0 or f10), found {found}")
        else:
            text = _("expected a register for {role} (like a0, t1 or x5), found {found}")
        raise cur.error(text.format(role=_(role), found=cur._found()))
    abi = REGISTERS[name]
    if fp is not None and (abi in FP_REGISTERS) != fp:
        cur.pos = start
        if fp:
            text = _("{role} must be a floating-point register, found {tok!r}")
        else:
            text = _("{role} must be an integer register, found {tok!r}")
        raise cur.error(text.format(role=_(role), tok=tok[0]))
    return abi


_NUMBER = r"[+-]?(?:0[xX][0-9a-fA-F]+|[0-9]+)(?![A-Za-z0-9_])"
#: a symbol with an optional @plt and +/- constant: sym, .LC0, C+80, memcpy@plt
_SYMBOL = (
    r"[A-Za-z_.$][A-Za-z0-9_.$]*(?:@[A-Za-z]+)?"
    r"(?:\s*[+-]\s*(?:0[xX][0-9a-fA-F]+|[0-9]+|[A-Za-z_.$][A-Za-z0-9_.$]*))*"
)
_SYMBOLIC = r"%[a-z_]+\([^)]*\)|" + _SYMBOL


def _imm(cur, role: str, symbols: bool = True) -> int | None:
    """An integer, or (when allowed) a relocation like %hi(sym) / a symbol: returns None and
    leaves its text in ``cur.symbol``."""
    cur.symbol = None
    cur.skip_ws()
    at = cur.pos
    tok = cur.token(_NUMBER)
    if tok is not None:
        digits = tok[0].lstrip("+-")
        if len(digits) > 20:
            raise cur.error(
                _("{role} {tok!r} is too long (at most 20 digits)").format(
                    role=_(role), tok=tok[0]
                ),
                at,
            )
        if digits[:2].lower() == "0x":
            return int(tok[0], 16)
        return int(tok[0], 10)  # clang prints decimal; a leading zero is still decimal
    if symbols:
        tok = cur.token(_SYMBOLIC)
        if tok is not None:
            cur.symbol = tok[0]
            return None
    raise cur.error(
        _("expected an integer for {role}, found {found}").format(role=_(role), found=cur._found())
    )


def _symbol_next(cur) -> bool:
    """Whether the next operand is a symbol (not a number, ``(`` or ``%lo(...)(``)."""
    cur.skip_ws()
    rest = cur.text[cur.pos :]
    return bool(re.match(_SYMBOL + r"\s*(?:,|$)", rest)) and not re.match(_NUMBER, rest)


def _fp_operands(opcode: str, cls: str) -> tuple[bool, bool]:
    """(destination is FP, sources are FP) for an instruction of the given opcode and class."""
    if cls not in ("fadd", "fmul", "fdiv"):
        return opcode in ("fld", "flw"), False
    dest = not opcode.startswith(("feq", "flt", "fle", "fclass", "fmv.x", "fcvt.w", "fcvt.l"))
    src = not opcode.startswith(
        ("fmv.d.x", "fmv.w.x", "fmv.s.x", "fcvt.s.w", "fcvt.s.l", "fcvt.d.w", "fcvt.d.l")
    )
    return dest, src


def _parse_one(cur, numeric: list[str], seen: int) -> list[Instruction]:
    """One statement: usually one instruction, several where the assembler expands it."""
    cur.skip_ws()
    start = cur.pos
    tok = cur.token(r"[A-Za-z][A-Za-z0-9.]*")
    if tok is None:
        raise cur.error(
            _("expected an opcode (like addi, ld, fmadd.d), found {found}").format(
                found=cur._found()
            )
        )
    opcode = tok[0].lower()
    if opcode not in RISCV_OPCODES:
        raise cur.error(
            _(
                "unknown RISC-V opcode {tok!r} (RV64 I, M, A, F, D, the CSR "
                "instructions and the pseudo-instructions compilers print are known)"
            ).format(tok=tok[0]),
            tok[1],
        )
    fmt, cls = RISCV_OPCODES[opcode]
    dest_fp, src_fp = _fp_operands(opcode, cls)
    group: list[Instruction] | None = None

    def comma():
        cur.expect(",", "','")

    def label() -> str:
        return _label(cur, numeric, seen)

    if fmt == "rrr":
        d = _reg(cur, N_("the destination"), dest_fp)
        comma()
        a = _reg(cur, N_("the first source"), src_fp)
        comma()
        cur.skip_ws()
        if cls not in ("fadd", "fmul", "fdiv") and re.match(_NUMBER, cur.text[cur.pos :]):
            at = cur.pos
            raise cur.error(
                _("{opcode} takes a register as its second source (use {opcode}i)").format(
                    opcode=opcode
                ),
                at,
            )
        b = _reg(cur, N_("the second source"), src_fp)
        ins = Instruction(opcode, (d,), (a, b))
        if cls in ("fadd", "fmul", "fdiv"):
            _rounding(cur, comma)
    elif fmt == "rrrr":
        d = _reg(cur, N_("the destination"), True)
        srcs = []
        for role in (N_("the first source"), N_("the second source"), N_("the addend")):
            comma()
            srcs.append(_reg(cur, role, True))
        ins = Instruction(opcode, (d,), tuple(srcs))
        _rounding(cur, comma)
    elif fmt == "rri":
        d = _reg(cur, N_("the destination"), False)
        comma()
        a = _reg(cur, N_("the source"), False)
        comma()
        ins = Instruction(opcode, (d,), (a,), imm=_imm(cur, N_("the immediate")), symbol=cur.symbol)
    elif fmt == "ri":
        d = _reg(cur, N_("the destination"), False)
        comma()
        if opcode == "li":
            at = cur.pos
            value = _imm(cur, N_("the immediate"), symbols=False)
            if not -(2**63) <= value < 2**64:
                raise cur.error(_("li: {value} does not fit in 64 bits").format(value=value), at)
            ins = Instruction(opcode, (d,), (), imm=value)
            group = _expand_li(d, value, cur.text[start:])
        elif opcode in ("la", "lla"):
            cur.skip_ws()
            sym = cur.token(_SYMBOL)
            if sym is None:
                raise cur.error(
                    _("expected a symbol for {opcode}, found {found}").format(
                        opcode=opcode, found=cur._found()
                    )
                )
            ins = Instruction(opcode, (d,), ())
            hi, lo = f"%pcrel_hi({sym[0]})", f"%pcrel_lo({sym[0]})"
            group = [
                _ins("auipc", (d,), (), f"auipc {d}, {hi}", symbol=hi),
                _ins("addi", (d,), (d,), f"addi {d}, {d}, {lo}", symbol=lo),
            ]
        else:
            imm = _imm(cur, N_("the immediate"))
            ins = Instruction(opcode, (d,), (), imm=imm, symbol=cur.symbol)
    elif fmt == "rr":
        d = _reg(cur, N_("the destination"), dest_fp)
        comma()
        a = _reg(cur, N_("the source"), src_fp)
        if opcode.startswith(("fcvt", "fsqrt")):
            _rounding(cur, comma)
        ins = Instruction(opcode, (d,), (a,))
    elif fmt in ("load", "store"):
        is_fp = opcode.startswith("f")
        r = _reg(
            cur, N_("the loaded register") if fmt == "load" else N_("the stored register"), is_fp
        )
        comma()
        if _symbol_next(cur):  # GCC's `ld a2, .LC1`, `fld fa4, .LC0, a5`, `sd a0, sym, t0`
            sym = cur.token(_SYMBOL)[0]
            temp = r if fmt == "load" and not is_fp else None
            if cur.peek(","):
                comma()
                temp = _reg(cur, N_("the address register"), False)
            if temp is None:
                raise cur.error(
                    _(
                        "{opcode} from a symbol needs an address register: {opcode} {r}, {sym}, t0"
                    ).format(opcode=opcode, r=r, sym=sym)
                )
            mem = MemRef(temp, 0, WIDTH[opcode])
            hi, lo = f"%pcrel_hi({sym})", f"%pcrel_lo({sym})"
            access = f"{opcode} {r}, {lo}({temp})"
            if fmt == "load":
                ins = Instruction(opcode, (r,), (temp,), mem=mem)
                second = _ins(opcode, (r,), (temp,), access, mem=mem, symbol=lo)
            else:
                ins = Instruction(opcode, (), (r, temp), mem=mem)
                second = _ins(opcode, (), (r, temp), access, mem=mem, symbol=lo)
            group = [_ins("auipc", (temp,), (), f"auipc {temp}, {hi}", symbol=hi), second]
        else:
            offset, base = _address(cur)
            symbol = cur.symbol
            mem = MemRef(base, offset, WIDTH[opcode])
            if fmt == "load":
                ins = Instruction(opcode, (r,), (base,), mem=mem, symbol=symbol)
            else:
                ins = Instruction(opcode, (), (r, base), mem=mem, symbol=symbol)
    elif fmt == "lr":
        d = _reg(cur, N_("the destination"), False)
        comma()
        offset, base = _address(cur, zero_only=True)
        ins = Instruction(opcode, (d,), (base,), mem=MemRef(base, 0, WIDTH[opcode]))
    elif fmt == "amo":
        d = _reg(cur, N_("the destination"), False)
        comma()
        v = _reg(cur, N_("the source"), False)
        comma()
        offset, base = _address(cur, zero_only=True)
        ins = Instruction(opcode, (d,), (v, base), mem=MemRef(base, 0, WIDTH[opcode]))
    elif fmt == "rrl":
        a = _reg(cur, N_("the first compared register"), False)
        comma()
        b = _reg(cur, N_("the second compared register"), False)
        comma()
        ins = Instruction(opcode, (), (a, b), target=label())
    elif fmt == "rl":
        a = _reg(cur, N_("the tested register"), False)
        comma()
        ins = Instruction(opcode, (), (a,), target=label())
    elif fmt == "l":
        ins = Instruction(opcode, target=label())
    elif fmt == "jal":  # jal label | jal rd, label
        d = "ra"
        if re.match(r"\s*[A-Za-z0-9]+\s*,", cur.text[cur.pos :]):
            d = _reg(cur, N_("the link register"), False)
            comma()
        ins = Instruction(opcode, (d,), (), target=label())
    elif fmt == "jalr":  # jalr rs | jalr rd, rs[, imm] | jalr [rd,] imm(rs)
        first_is_reg = re.match(r"\s*[%$]?[A-Za-z][A-Za-z0-9_]*\s*(?:,|$)", cur.text[cur.pos :])
        d = "ra"
        if first_is_reg:
            r = _reg(cur, N_("the jump register"), False)
            if not cur.peek(","):
                ins = Instruction(opcode, (d,), (r,))
            else:
                d = r
                comma()
                if re.match(r"\s*[%$]?[A-Za-z][A-Za-z0-9_]*\s*(?:,|$)", cur.text[cur.pos :]):
                    r = _reg(cur, N_("the jump register"), False)
                    imm = 0
                    if cur.peek(","):
                        comma()
                        imm = _imm(cur, N_("the offset"))
                    ins = Instruction(opcode, (d,), (r,), imm=imm)
                else:
                    imm, r = _address(cur)
                    ins = Instruction(opcode, (d,), (r,), imm=imm)
        else:
            imm, r = _address(cur)
            ins = Instruction(opcode, (d,), (r,), imm=imm)
    elif fmt == "r":
        ins = Instruction(opcode, (), (_reg(cur, N_("the jump register"), False),))
    elif fmt == "ret":
        ins = Instruction(opcode, (), ("ra",))
    elif fmt == "call":
        cur.skip_ws()
        tok = cur.token(_SYMBOL)
        if tok is None:
            raise cur.error(_("expected a function name, found {found}").format(found=cur._found()))
        ins = Instruction(opcode, ("ra",) if opcode == "call" else (), (), symbol=tok[0])
    elif fmt == "fence":  # fence [pred, succ]
        if not cur.at_end():
            for k in range(2):
                if k:
                    comma()
                cur.skip_ws()
                if cur.token(r"[iorw]+") is None:
                    raise cur.error(
                        _("expected fence bits (like rw or iorw), found {found}").format(
                            found=cur._found()
                        )
                    )
        ins = Instruction(opcode)
    elif fmt == "rd":  # frflags rd, rdcycle rd
        ins = Instruction(opcode, (_reg(cur, N_("the destination"), False),), ())
    elif fmt in ("csrset", "csrseti"):  # fsflags [rd,] rs   fsrmi [rd,] imm
        if fmt == "csrset":
            a = _reg(cur, N_("the source"), False)
            if cur.peek(","):
                comma()
                ins = Instruction(opcode, (a,), (_reg(cur, N_("the source"), False),))
            else:
                ins = Instruction(opcode, (), (a,))
        else:
            if re.match(r"\s*[A-Za-z]", cur.text[cur.pos :]):
                d = _reg(cur, N_("the destination"), False)
                comma()
                ins = Instruction(opcode, (d,), (), imm=_imm(cur, N_("the immediate"), False))
            else:
                ins = Instruction(opcode, (), (), imm=_imm(cur, N_("the immediate"), False))
    elif fmt == "csrr":
        d = _reg(cur, N_("the destination"), False)
        comma()
        ins = Instruction(opcode, (d,), (), imm=_csr(cur))
    elif fmt == "csrw":
        csr = _csr(cur)
        comma()
        ins = Instruction(opcode, (), (_reg(cur, N_("the source"), False),), imm=csr)
    elif fmt == "csrwi":
        _csr(cur)
        comma()
        ins = Instruction(opcode, (), (), imm=_imm(cur, N_("the immediate"), False))
    elif fmt == "csrrw":
        d = _reg(cur, N_("the destination"), False)
        comma()
        csr = _csr(cur)
        comma()
        ins = Instruction(opcode, (d,), (_reg(cur, N_("the source"), False),), imm=csr)
    elif fmt == "csrrwi":
        d = _reg(cur, N_("the destination"), False)
        comma()
        csr = _csr(cur)
        comma()
        _imm(cur, N_("the immediate"), False)
        ins = Instruction(opcode, (d,), (), imm=csr)
    else:
        ins = Instruction(opcode)
    cur.end()
    text = " ".join(cur.text[start:].split())
    if group is not None and len(group) > 1:
        return group
    if group is not None:  # one instruction after all (li small, lui for li)
        return [group[0]]
    return [Instruction(**{**ins.__dict__, "text": text})]


def _ins(opcode, dests, srcs, text, imm=None, mem=None, symbol=None) -> Instruction:
    return Instruction(
        opcode, tuple(dests), tuple(srcs), imm=imm, mem=mem, text=text, symbol=symbol
    )


def _expand_li(d: str, value: int, source: str) -> list[Instruction]:
    seq = materialize(value)
    if len(seq) == 1 and seq[0][0] == "addi":  # li stays li (an addi from zero)
        return [_ins("li", (d,), (), " ".join(source.split()), imm=seq[0][1])]
    out = []
    for k, (op, imm) in enumerate(seq):
        if k == 0:
            if op == "lui":
                out.append(_ins("lui", (d,), (), f"lui {d}, {imm}", imm=imm))
            else:
                out.append(_ins("li", (d,), (), f"li {d}, {imm}", imm=imm))
        else:
            out.append(_ins(op, (d,), (d,), f"{op} {d}, {d}, {imm}", imm=imm))
    return out


def _address(cur, zero_only: bool = False) -> tuple[int, str]:
    """``offset(base)`` (offset optional, maybe symbolic): (offset, base). ``zero_only``: the
    A extension's ``(base)`` or ``0(base)``."""
    cur.skip_ws()
    offset = 0
    cur.symbol = None
    if not cur.peek("("):
        at = cur.pos
        offset = _imm(cur, N_("the offset of offset(base)"), symbols=not zero_only) or 0
        if zero_only and offset != 0:
            raise cur.error(_("the A extension takes (base) or 0(base), no other offset"), at)
    cur.expect("(", N_("'(' of offset(base)"))
    base = _reg(cur, N_("the base of offset(base)"), False)
    cur.expect(")", N_("')' closing offset(base)"))
    return offset, base


def _rounding(cur, comma) -> None:
    if cur.peek(","):
        comma()
        cur.skip_ws()
        at = cur.pos
        rm = cur.token(r"[a-z]+")
        if rm is None or rm[0] not in _ROUNDING:
            cur.pos = at
            modes = ", ".join(sorted(_ROUNDING))
            raise cur.error(
                _("expected a rounding mode ({modes}), found {found}").format(
                    modes=modes, found=cur._found()
                )
            )


def _csr(cur) -> int | None:
    """A CSR operand: a name (fflags, cycle, ...) or a number; its number when known."""
    cur.skip_ws()
    tok = cur.token(r"[A-Za-z][A-Za-z0-9_.]*")
    if tok is not None:
        return CSR_NUMBERS.get(tok[0].lower())
    return _imm(cur, N_("the CSR"), symbols=False)


def _label(cur, numeric: list[str] | None = None, seen: int = 0) -> str:
    cur.skip_ws()
    tok = cur.token(r"[0-9]+[fb](?![A-Za-z0-9_.$])|[A-Za-z_.$][A-Za-z0-9_.$]*")
    if tok is None:
        raise cur.error(_("expected a label name, found {found}").format(found=cur._found()))
    name = tok[0]
    if name[0].isdigit():  # 1f: the next definition of 1; 1b: the latest one
        digits, way = name[:-1], name[-1]
        numeric = numeric or []
        if way == "f":
            k = next((k for k in range(seen, len(numeric)) if numeric[k] == digits), None)
        else:
            k = next((k for k in range(seen - 1, -1, -1) if numeric[k] == digits), None)
        if k is None:
            if way == "f":
                text = _("no numeric label {digits}: after this line for {name}")
            else:
                text = _("no numeric label {digits}: before this line for {name}")
            raise cur.error(text.format(digits=digits, name=name), tok[1])
        return _numeric_name(digits, k)
    return name


__all__ = [
    "FP_REGISTERS",
    "MAX_INSTRUCTIONS",
    "RISCV_OPCODES",
    "REGISTERS",
    "WIDTH",
    "format_riscv",
    "looks_like_riscv",
    "materialize",
    "parse_riscv",
]
