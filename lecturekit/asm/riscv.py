"""RISC-V assembly as ``clang -S`` and ``llvm-mc`` print it (RV64 I, M, F and D).

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
  ``offset(base)`` operand (the offset may be ``%lo(sym)``); the access width is kept, so
  ``sd a0, 0(a1)`` and ``lw a2, 4(a1)`` overlap and depend on each other;
* integer ``add addi sub addw addiw slli srli srai sll srl sra slt sltu and or xor ...``, ``lui
  auipc``, the M extension (``mul mulw mulh div divu rem remw ...``), the F/D arithmetic
  (``fadd.d fsub.d fmul.d fdiv.d fsqrt.d fmadd.d fmsub.d fnmadd.d fmin.d fcvt.* fmv.* feq.d``, the
  ``.s`` forms too), branches ``beq bne blt bge bltu bgeu`` and the pseudo-branches ``beqz bnez
  blez bgez bltz bgtz bgt ble bgtu bleu``, ``j jr ret call tail jal jalr``;
* the pseudo-instructions clang prints: ``li mv not neg negw sext.w seqz snez sltz sgtz la lla
  nop fmv.d fneg.d fabs.d``;
* virtual registers ``%v1`` (or ``$v1``): the loop tools (``lecturekit unroll``/``modulo``)
  write renamed copies with them, and the lecture's ``subi muli divi move`` in the code they
  generate, so compiled loops go through every tool and the result parses back;
* labels (``.LBB0_2:``, ``saxpy:``), ``#`` comments; directives (``.text``, ``.p2align 2``, ...)
  are skipped and listed in the program's ``notes``. A branch to a label outside the text (the
  exit of a loop that was cut out of a function) is allowed in RISC-V and noted.

Operation classes (which decide the unit and latency on a machine): ``alu``, ``mul``, ``div``,
``load``, ``store``, ``branch``, ``nop``, and for floating point ``fadd`` (add, subtract, compare,
convert, move), ``fmul`` (multiply and fused multiply-add) and ``fdiv`` (divide, square root).

Errors are :class:`~lecturekit.errors.ParseError` with the line and column, as for MIPS.
"""

from __future__ import annotations

import re

from ..errors import ParseError
from .cursor import LineCursor, split_lines
from .formatting import format_riscv
from .instruction import Instruction, MemRef, Program
from .opcodes import FP_REGISTERS, OPCODES, REGISTERS, RISCV_OPCODES, WIDTH

_ROUNDING = frozenset({"rne", "rtz", "rdn", "rup", "rmm", "dyn"})


_MIPS_OPCODES = frozenset(OPCODES)


def _strip(line: str) -> str:
    i = line.find("#")
    return line if i < 0 else line[:i]


_LABEL = re.compile(r"\s*([A-Za-z_.$][A-Za-z0-9_.$]*)\s*:")
_FIRST = re.compile(r"\s*(\S+)")
_RV_ONLY_REG = re.compile(r"(?<![A-Za-z0-9_$.])(?:x[0-9]{1,2}|f[0-9]{1,2}|f[tsa][0-9]{1,2})\b")


def looks_like_riscv(source: str) -> bool:
    """Whether text is RISC-V rather than the lecture's MIPS/three-address notation.

    RISC-V when nothing is three-address (no ``=``, ``if``, ``goto``) and something is RISC-V
    only: a directive (``.text``), an opcode MIPS does not have (``ld``, ``addiw``, ``fadd.d``,
    ``mv``, ``ret``, ...), a register ``x5``/``f3``/``fa0`` or a ``%`` operand (a virtual
    register ``%v``, as generated code renames registers, or ``%hi``/``%lo``). (``$t0`` alone
    is MIPS; in RISC-V text ``$v``/``%v`` is a virtual register.)
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
        if word.startswith("."):
            evidence = True
        elif word in RISCV_OPCODES and word not in mips:
            evidence = True
        elif _RV_ONLY_REG.search(body[m.end() :]) or "%" in body[m.end() :]:
            evidence = True  # (a %-register or %hi/%lo: RISC-V only)
    return evidence


def parse_riscv(source: str):
    """Parse RISC-V assembly into a :class:`~lecturekit.asm.instruction.Program` (instructions carry
    ``notation="riscv"``). Directives and branches leaving the text are listed in
    ``program.notes``."""
    if not isinstance(source, str):
        raise ParseError(f"expected program text (a string), got {type(source).__name__}", 1, 1)
    instructions = []
    labels: dict[str, int] = {}
    pending: list[str] = []
    notes: list[str] = []
    directives: dict[str, list[int]] = {}
    for number, full in enumerate(split_lines(source), start=1):
        body = _strip(full)
        cur = LineCursor(body, number, full)
        while m := _LABEL.match(body, cur.pos):
            name = m.group(1)
            if name in labels or name in pending:
                raise cur.error(f"label {name!r} is defined twice", m.start(1))
            pending.append(name)
            cur.pos = m.end()
        if cur.at_end():
            continue
        if body[cur.pos] == ".":
            word = _FIRST.match(body, cur.pos).group(1)
            directives.setdefault(word, []).append(number)
            continue
        ins = _parse_one(cur)
        ins = Instruction(
            **{**ins.__dict__, "labels": tuple(pending), "line": number, "notation": "riscv"}
        )
        for name in pending:
            labels[name] = len(instructions)
        pending = []
        instructions.append(ins)
    for name in pending:
        labels[name] = len(instructions)
    for word, lines in directives.items():
        where = ", ".join(map(str, lines[:5])) + (", ..." if len(lines) > 5 else "")
        notes.append(f"directive {word} ignored (line {where})")
    for ins in instructions:
        if ins.target is not None and ins.target not in labels:
            notes.append(
                f"line {ins.line}: {ins.opcode} leaves the block (label {ins.target} is not in it)"
            )
    program = Program(instructions, labels, source)
    program.notes = notes
    return program


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
        kind = {True: " (like fa0 or f10)", False: " (like a0, t1 or x5)", None: ""}[fp]
        raise cur.error(f"expected a register for {role}{kind}, found {cur._found()}")
    abi = REGISTERS[name]
    if fp is not None and (abi in FP_REGISTERS) != fp:
        cur.pos = start
        want = "a floating-point" if fp else "an integer"
        raise cur.error(f"{role} must be {want} register, found {tok[0]!r}")
    return abi


_SYMBOLIC = r"%[a-z_]+\([^)]*\)|[A-Za-z_.$][A-Za-z0-9_.$]*"
_NUMBER = r"[+-]?(?:0[xX][0-9a-fA-F]+|[0-9]+)(?![A-Za-z0-9_])"


def _imm(cur, role: str, symbols: bool = True) -> int | None:
    """An integer, or (when allowed) a relocation like %hi(sym) / a symbol: returns None."""
    cur.skip_ws()
    at = cur.pos
    tok = cur.token(_NUMBER)
    if tok is not None:
        digits = tok[0].lstrip("+-")
        if len(digits) > 20:
            raise cur.error(f"{role} {tok[0]!r} is too long (at most 20 digits)", at)
        if digits[:2].lower() == "0x":
            return int(tok[0], 16)
        return int(tok[0], 10)  # clang prints decimal; a leading zero is still decimal
    if symbols:
        tok = cur.token(_SYMBOLIC)
        if tok is not None:
            return None
    raise cur.error(f"expected an integer for {role}, found {cur._found()}")


def _parse_one(cur):
    cur.skip_ws()
    start = cur.pos
    tok = cur.token(r"[A-Za-z][A-Za-z0-9.]*")
    if tok is None:
        raise cur.error(f"expected an opcode (like addi, ld, fmadd.d), found {cur._found()}")
    opcode = tok[0].lower()
    if opcode not in RISCV_OPCODES:
        raise cur.error(
            f"unknown RISC-V opcode {tok[0]!r} (RV64 I, M, F, D and the pseudo-instructions "
            "clang prints are known)",
            tok[1],
        )
    fmt, cls = RISCV_OPCODES[opcode]
    fp = cls in ("fadd", "fmul", "fdiv")

    def comma():
        cur.expect(",", "','")

    # which operands are floating-point registers
    def dest_fp() -> bool:
        if not fp:
            return opcode in ("fld", "flw")
        if opcode.startswith(("feq", "flt", "fle", "fclass", "fmv.x", "fcvt.w", "fcvt.l")):
            return False
        return True

    def src_fp() -> bool:
        if not fp:
            return False
        if opcode.startswith(("fmv.d.x", "fmv.w.x", "fcvt.s.w", "fcvt.s.l", "fcvt.d.w")):
            return False
        if opcode.startswith("fcvt.d.l"):
            return False
        return True

    if fmt == "rrr":
        d = _reg(cur, "the destination", dest_fp())
        comma()
        a = _reg(cur, "the first source", src_fp())
        comma()
        cur.skip_ws()
        if not fp and re.match(_NUMBER, cur.text[cur.pos :]):
            at = cur.pos
            raise cur.error(f"{opcode} takes a register as its second source (use {opcode}i)", at)
        b = _reg(cur, "the second source", src_fp())
        ins = Instruction(opcode, (d,), (a, b))
    elif fmt == "rrrr":
        d = _reg(cur, "the destination", True)
        srcs = []
        for role in ("the first source", "the second source", "the addend"):
            comma()
            srcs.append(_reg(cur, role, True))
        ins = Instruction(opcode, (d,), tuple(srcs))
    elif fmt == "rri":
        d = _reg(cur, "the destination", False)
        comma()
        a = _reg(cur, "the source", False)
        comma()
        ins = Instruction(opcode, (d,), (a,), imm=_imm(cur, "the immediate"))
    elif fmt == "ri":
        d = _reg(cur, "the destination", False)
        comma()
        imm = _imm(cur, "the immediate", symbols=opcode != "li")
        ins = Instruction(opcode, (d,), (), imm=imm)
    elif fmt == "rr":
        d = _reg(cur, "the destination", dest_fp())
        comma()
        a = _reg(cur, "the source", src_fp())
        if opcode.startswith("fcvt") and cur.peek(","):
            comma()
            cur.skip_ws()
            at = cur.pos
            rm = cur.token(r"[a-z]+")
            if rm is None or rm[0] not in _ROUNDING:
                cur.pos = at
                modes = ", ".join(sorted(_ROUNDING))
                raise cur.error(f"expected a rounding mode ({modes}), found {cur._found()}")
        ins = Instruction(opcode, (d,), (a,))
    elif fmt in ("load", "store"):
        is_fp = opcode.startswith("f")
        r = _reg(cur, "the loaded register" if fmt == "load" else "the stored register", is_fp)
        comma()
        cur.skip_ws()
        offset = 0
        if not cur.peek("("):
            offset = _imm(cur, "the offset of offset(base)") or 0
        cur.expect("(", "'(' of offset(base)")
        base = _reg(cur, "the base of offset(base)", False)
        cur.expect(")", "')' closing offset(base)")
        mem = MemRef(base, offset, WIDTH[opcode])
        if fmt == "load":
            ins = Instruction(opcode, (r,), (base,), mem=mem)
        else:
            ins = Instruction(opcode, (), (r, base), mem=mem)
    elif fmt == "rrl":
        a = _reg(cur, "the first compared register", False)
        comma()
        b = _reg(cur, "the second compared register", False)
        comma()
        ins = Instruction(opcode, (), (a, b), target=_label(cur))
    elif fmt == "rl":
        a = _reg(cur, "the tested register", False)
        comma()
        ins = Instruction(opcode, (), (a,), target=_label(cur))
    elif fmt == "l":
        ins = Instruction(opcode, target=_label(cur))
    elif fmt == "r":
        ins = Instruction(opcode, (), (_reg(cur, "the jump register", False),))
    elif fmt == "ret":
        ins = Instruction(opcode, (), ("ra",))
    elif fmt == "call":
        cur.skip_ws()
        tok = cur.token(r"[A-Za-z_.$][A-Za-z0-9_.$@]*")
        if tok is None:
            raise cur.error(f"expected a function name, found {cur._found()}")
        ins = Instruction(opcode, ("ra",) if opcode == "call" else (), ())
    else:
        ins = Instruction(opcode)
    cur.end()
    text = " ".join(cur.text[start:].split())
    return Instruction(**{**ins.__dict__, "text": text})


def _label(cur) -> str:
    cur.skip_ws()
    tok = cur.token(r"[A-Za-z_.$][A-Za-z0-9_.$]*")
    if tok is None:
        raise cur.error(f"expected a label name, found {cur._found()}")
    return tok[0]


__all__ = [
    "FP_REGISTERS",
    "RISCV_OPCODES",
    "REGISTERS",
    "WIDTH",
    "format_riscv",
    "looks_like_riscv",
    "parse_riscv",
]
