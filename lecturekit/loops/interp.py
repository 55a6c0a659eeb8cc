"""A small interpreter for the lecture's MIPS-style code: the proof that transformed loops still
compute what the original computed.

It runs a parsed :class:`~lecturekit.asm.Program` (either notation) on concrete registers and a
concrete memory, one instruction at a time, in program order, with no notion of time: timing is
what the schedulers and :mod:`lecturekit.target.pipeline` are about; *meaning* is what this module
is about. Unrolled code and software-pipelined code are correct exactly when, started from the same
registers and memory, they leave the same memory and the same registers as the original loop
(:func:`same_effect`).

Semantics
---------
* Registers hold 32-bit two's-complement integers (results wrap around like the hardware's).
  ``$zero`` always reads 0 and ignores writes.
* Memory is a dictionary ``address -> value``: ``lw $t0, 8($s1)`` reads the cell at address
  ``$s1 + 8`` (byte addresses; with 4-byte words, consecutive array elements are 4 apart). Each
  address is one cell, so two accesses touch the same word exactly when their addresses are
  equal, which is also what the dependence analysis of :mod:`lecturekit.loops.model` assumes.
* ``div``/``divi`` truncate toward zero (as C and MIPS do); dividing by zero is an error.
  ``slt``/``slti`` give 1 or 0.
* Branches ``beq bne blt bge ble bgt beqz bnez`` compare signed values and jump to their label;
  ``j`` always jumps. The program ends when execution falls off its end.
* ``strict=True`` turns reading a register or a memory cell that was never given a value into an
  error (instead of reading 0): the tests run transformed code this way, so that a renamed register
  that is read before it is written, or a load beyond the arrays, cannot go unnoticed.
* ``max_steps`` bounds the number of instructions executed: a loop that never ends raises
  :class:`ExecutionError` instead of hanging.

RISC-V code (as clang and GCC print it, and as the loop tools rewrite it) runs too, as RV64:
integer registers hold 64-bit two's-complement values (``addw`` and the other ``w`` forms
compute on 32 bits and sign-extend), floating-point registers hold numbers (``.s`` results are
rounded to single precision), and memory is again one cell per address, holding whatever was
stored there (an integer or a number). Memory ordering, the FP flags and rounding modes, CSRs,
atomics and calls are not executed: such an instruction is an :class:`ExecutionError`.
"""

from __future__ import annotations

import math
import struct
from collections import Counter
from dataclasses import dataclass

from ..asm import OPCODES, Instruction, Program, parse
from ..asm.riscv import RISCV_OPCODES
from ..errors import LectureKitError

#: default limit on executed instructions
MAX_STEPS = 1_000_000


class ExecutionError(LectureKitError):
    """Running code failed: an instruction limit was hit, a division by zero, or (strict mode)
    a read of a register or memory cell that holds no value. The message names the line."""


def wrap32(value: int) -> int:
    """``value`` as a signed 32-bit integer (two's complement wrap-around)."""
    return ((int(value) + 2**31) % 2**32) - 2**31


def wrap64(value: int) -> int:
    """``value`` as a signed 64-bit integer (two's complement wrap-around)."""
    return ((int(value) + 2**63) % 2**64) - 2**63


def _single(x: float) -> float:
    """``x`` rounded to single precision."""
    try:
        return struct.unpack("f", struct.pack("f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def _div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


_ALU = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": _div,
    "and": lambda a, b: a & b,
    "or": lambda a, b: a | b,
    "xor": lambda a, b: a ^ b,
    "slt": lambda a, b: int(a < b),
}
_IMMEDIATE = {
    "addi": "add",
    "subi": "sub",
    "muli": "mul",
    "divi": "div",
    "andi": "and",
    "ori": "or",
    "xori": "xor",
    "slti": "slt",
}
_TESTS = {
    "beq": lambda a, b: a == b,
    "bne": lambda a, b: a != b,
    "blt": lambda a, b: a < b,
    "bge": lambda a, b: a >= b,
    "ble": lambda a, b: a <= b,
    "bgt": lambda a, b: a > b,
}


@dataclass
class RunResult:
    """Registers and memory after a run, how many instructions executed, and how often each
    line of the program ran (``counts[k]`` for instruction index ``k``); with ``record=True``,
    ``executed`` lists the instruction indices in the order they ran and ``addresses`` the
    address each of them accessed (``None`` for one that is not a load or store)."""

    regs: dict[str, int]
    mem: dict[int, int]
    steps: int
    counts: Counter
    executed: list[int] | None = None
    addresses: list[int | None] | None = None


def _where(ins: Instruction, k: int) -> str:
    return f"line {ins.line} ({ins.text or k})" if ins.line else f"instruction {k} ({ins})"


def run(
    program: Program | str,
    regs: dict[str, int] | None = None,
    mem: dict[int, int] | None = None,
    *,
    max_steps: int = MAX_STEPS,
    strict: bool = False,
    record: bool = False,
) -> RunResult:
    """Execute ``program`` from its first instruction until it falls off the end.

    ``regs`` (names with or without ``$``) and ``mem`` (address -> value) are the initial state;
    neither is modified. Raises :class:`ExecutionError` (with the line) when the program runs
    more than ``max_steps`` instructions, divides by zero, or, with ``strict``, reads something
    that was never given a value.
    """
    if isinstance(program, str):
        program = parse(program)
    if not isinstance(program, Program):
        raise ExecutionError(f"expected a program (text or parsed), got {type(program).__name__}")
    if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
        raise ExecutionError(f"max_steps must be a positive integer, got {max_steps!r}")
    riscv = any(ins.notation == "riscv" for ins in program)
    wrap = wrap64 if riscv else wrap32
    numbers = (int, float) if riscv else (int,)
    kind = "an integer or a number" if riscv else "an integer"

    def value_of(v):
        return wrap(v) if isinstance(v, int) else float(v)

    r: dict[str, int] = {}
    for name, value in (regs or {}).items():
        if isinstance(value, bool) or not isinstance(value, numbers):
            raise ExecutionError(
                f"register ${str(name).lstrip('$')} must hold {kind}, got {value!r}"
            )
        r[str(name).lstrip("$")] = value_of(value)
    m: dict[int, int] = {}
    for addr, value in (mem or {}).items():
        if isinstance(value, bool) or not isinstance(value, numbers) or not isinstance(addr, int):
            raise ExecutionError(
                f"memory must map integer addresses to {'values' if riscv else 'integers'}, "
                f"got {addr!r}: {value!r}"
            )
        m[addr] = value_of(value)
    code = program.instructions
    labels = program.labels
    counts: Counter = Counter()
    executed: list[int] | None = [] if record else None
    addresses: list[int | None] | None = [] if record else None
    pc = 0
    steps = 0

    def read(reg: str, ins: Instruction, k: int) -> int:
        if reg in ("zero", "0"):
            return 0
        if reg in r:
            return r[reg]
        if strict:
            raise ExecutionError(
                f"{_where(ins, k)}: register ${reg} is read but was never given a value"
            )
        return 0

    def write(reg: str, value: int) -> None:
        if reg not in ("zero", "0"):
            r[reg] = wrap(value) if isinstance(value, int) else value

    while 0 <= pc < len(code):
        ins = code[pc]
        k = pc
        steps += 1
        if steps > max_steps:
            raise ExecutionError(
                f"stopped after {max_steps} instructions at {_where(ins, k)}: the program did "
                "not finish (a loop that never exits? check the loop's bound and step)"
            )
        counts[k] += 1
        if executed is not None:
            executed.append(k)
            base = ins.mem.base if ins.mem is not None else None
            addresses.append(
                None
                if base is None
                else int(0 if base in ("zero", "0") else r.get(base, 0)) + ins.mem.offset
            )
        op = ins.opcode
        pc += 1
        if op == "nop":
            continue
        if ins.notation == "riscv":
            target = _riscv_step(ins, k, read, write, m, strict)
            if target is not None:
                pc = labels.get(target, len(code)) if target != _EXIT else len(code)
            continue
        fmt = OPCODES[op][0]
        if fmt == "rrr":
            a, b = (read(s, ins, k) for s in ins.srcs)
            if op == "div" and b == 0:
                raise ExecutionError(f"{_where(ins, k)}: division by zero")
            write(ins.dests[0], _ALU[op](a, b))
        elif fmt == "rri":
            a = read(ins.srcs[0], ins, k)
            if op == "divi" and ins.imm == 0:
                raise ExecutionError(f"{_where(ins, k)}: division by zero")
            write(ins.dests[0], _ALU[_IMMEDIATE[op]](a, ins.imm))
        elif fmt == "ri":
            write(ins.dests[0], ins.imm)
        elif fmt == "rr":
            write(ins.dests[0], read(ins.srcs[0], ins, k))
        elif fmt == "load":
            addr = read(ins.mem.base, ins, k) + ins.mem.offset
            if addr not in m and strict:
                raise ExecutionError(
                    f"{_where(ins, k)}: loads address {addr}, which was never given a value"
                )
            write(ins.dests[0], m.get(addr, 0))
        elif fmt == "store":
            addr = read(ins.mem.base, ins, k) + ins.mem.offset
            m[addr] = read(ins.srcs[0], ins, k)
        elif fmt in ("rrl", "rl", "l"):
            if fmt == "rrl":
                a, b = (read(s, ins, k) for s in ins.srcs)
                taken = _TESTS[op](a, b)
            elif fmt == "rl":
                a = read(ins.srcs[0], ins, k)
                taken = (a == 0) if op == "beqz" else (a != 0)
            else:
                taken = True
            if taken:
                pc = labels[ins.target]
        else:  # pragma: no cover - every opcode has a format above
            raise ExecutionError(f"{_where(ins, k)}: cannot execute opcode {op!r}")
    return RunResult(r, m, steps, counts, executed, addresses)


_EXIT = "\0exit"  # a jump out of the program (ret, jr): execution ends
_MASK32 = 2**32 - 1
_MASK64 = 2**64 - 1


def _u(x: int) -> int:
    return x & _MASK64


def _s32(x: int) -> int:
    return wrap32(x)


def _rdiv(a: int, b: int, signed: bool = True) -> int:
    if b == 0:
        return -1
    if not signed:
        return a // b
    return _div(a, b)


def _rrem(a: int, b: int, signed: bool = True) -> int:
    if b == 0:
        return a
    return a - b * _rdiv(a, b, signed)


_RV_ALU = {  # opcode -> f(a, b), on 64-bit values (w forms on their low 32 bits)
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "and": lambda a, b: a & b,
    "or": lambda a, b: a | b,
    "xor": lambda a, b: a ^ b,
    "sll": lambda a, b: a << (b & 63),
    "srl": lambda a, b: _u(a) >> (b & 63),
    "sra": lambda a, b: a >> (b & 63),
    "slt": lambda a, b: int(a < b),
    "sltu": lambda a, b: int(_u(a) < _u(b)),
    "sgt": lambda a, b: int(a > b),
    "sgtu": lambda a, b: int(_u(a) > _u(b)),
    "mul": lambda a, b: a * b,
    "mulh": lambda a, b: (a * b) >> 64,
    "mulhu": lambda a, b: (_u(a) * _u(b)) >> 64,
    "mulhsu": lambda a, b: (a * _u(b)) >> 64,
    "div": lambda a, b: _rdiv(a, b),
    "divu": lambda a, b: _rdiv(_u(a), _u(b), False),
    "rem": lambda a, b: _rrem(a, b),
    "remu": lambda a, b: _rrem(_u(a), _u(b), False),
    "addw": lambda a, b: _s32(a + b),
    "subw": lambda a, b: _s32(a - b),
    "mulw": lambda a, b: _s32(a * b),
    "sllw": lambda a, b: _s32(a << (b & 31)),
    "srlw": lambda a, b: _s32((a & _MASK32) >> (b & 31)),
    "sraw": lambda a, b: _s32(_s32(a) >> (b & 31)),
    "divw": lambda a, b: _s32(_rdiv(_s32(a), _s32(b))),
    "divuw": lambda a, b: _s32(_rdiv(a & _MASK32, b & _MASK32, False)),
    "remw": lambda a, b: _s32(_rrem(_s32(a), _s32(b))),
    "remuw": lambda a, b: _s32(_rrem(a & _MASK32, b & _MASK32, False)),
}
_RV_IMM = {
    "addi": "add", "andi": "and", "ori": "or", "xori": "xor", "slli": "sll", "srli": "srl",
    "srai": "sra", "slti": "slt", "sltiu": "sltu", "addiw": "addw", "slliw": "sllw",
    "srliw": "srlw", "sraiw": "sraw", "subi": "sub", "muli": "mul", "divi": "div",
}  # fmt: skip
_RV_UNARY = {
    "mv": lambda a: a, "move": lambda a: a, "not": lambda a: ~a, "neg": lambda a: -a,
    "negw": lambda a: _s32(-a), "sext.w": _s32, "zext.b": lambda a: a & 255,
    "seqz": lambda a: int(a == 0), "snez": lambda a: int(a != 0),
    "sltz": lambda a: int(a < 0), "sgtz": lambda a: int(a > 0),
}  # fmt: skip
_RV_BRANCH = {
    "beq": lambda a, b: a == b, "bne": lambda a, b: a != b, "blt": lambda a, b: a < b,
    "bge": lambda a, b: a >= b, "ble": lambda a, b: a <= b, "bgt": lambda a, b: a > b,
    "bltu": lambda a, b: _u(a) < _u(b), "bgeu": lambda a, b: _u(a) >= _u(b),
    "bleu": lambda a, b: _u(a) <= _u(b), "bgtu": lambda a, b: _u(a) > _u(b),
}  # fmt: skip
_RV_ZERO_BRANCH = {
    "beqz": lambda a: a == 0, "bnez": lambda a: a != 0, "blez": lambda a: a <= 0,
    "bgez": lambda a: a >= 0, "bltz": lambda a: a < 0, "bgtz": lambda a: a > 0,
}  # fmt: skip
_FP2 = {
    "fadd": lambda a, b: a + b, "fsub": lambda a, b: a - b, "fmul": lambda a, b: a * b,
    "fdiv": lambda a, b: a / b if b else math.copysign(math.inf, a) * math.copysign(1, b),
    "fmin": min, "fmax": max, "fsgnj": math.copysign,
    "fsgnjn": lambda a, b: math.copysign(a, -b),
    "fsgnjx": lambda a, b: abs(a) * (-1 if (math.copysign(1, a) * math.copysign(1, b)) < 0 else 1),
    "feq": lambda a, b: a == b, "flt": lambda a, b: a < b, "fle": lambda a, b: a <= b,
}  # fmt: skip
_FP_UNARY = {"fmv": lambda a: a, "fneg": lambda a: -a, "fabs": abs, "fsqrt": math.sqrt}
_FP3 = {
    "fmadd": lambda a, b, c: a * b + c, "fmsub": lambda a, b, c: a * b - c,
    "fnmadd": lambda a, b, c: -(a * b) - c, "fnmsub": lambda a, b, c: -(a * b) + c,
}  # fmt: skip


def _riscv_step(ins: Instruction, k: int, read, write, m: dict, strict: bool) -> str | None:
    """Execute one RISC-V instruction; returns the label jumped to (``_EXIT`` to leave the
    program), or None to go on."""
    op = ins.opcode
    fmt = RISCV_OPCODES[op][0]
    base, _, prec = op.partition(".")
    if op in _RV_ALU:
        a, b = (read(x, ins, k) for x in ins.srcs)
        if op in ("div", "divu", "rem", "remu", "divw", "divuw", "remw", "remuw") and not b:
            raise ExecutionError(f"{_where(ins, k)}: division by zero")
        write(ins.dests[0], _RV_ALU[op](int(a), int(b)))
    elif op in _RV_IMM and ins.imm is not None:
        a = int(read(ins.srcs[0], ins, k))
        if op == "divi" and ins.imm == 0:
            raise ExecutionError(f"{_where(ins, k)}: division by zero")
        write(ins.dests[0], _RV_ALU[_RV_IMM[op]](a, ins.imm))
    elif op in ("li", "lui") and ins.imm is not None:
        write(ins.dests[0], wrap32(ins.imm << 12) if op == "lui" else ins.imm)
    elif op in _RV_UNARY:
        write(ins.dests[0], _RV_UNARY[op](read(ins.srcs[0], ins, k)))
    elif fmt == "load":
        addr = int(read(ins.mem.base, ins, k)) + ins.mem.offset
        if addr not in m and strict:
            raise ExecutionError(
                f"{_where(ins, k)}: loads address {addr}, which was never given a value"
            )
        value = m.get(addr, 0)
        if op in ("fld", "flw"):
            value = float(value) if op == "fld" else _single(float(value))
        write(ins.dests[0], value)
    elif fmt == "store":
        addr = int(read(ins.mem.base, ins, k)) + ins.mem.offset
        value = read(ins.srcs[0], ins, k)
        m[addr] = _single(value) if op == "fsw" else value
    elif op in _RV_BRANCH:
        a, b = (read(x, ins, k) for x in ins.srcs)
        return ins.target if _RV_BRANCH[op](a, b) else None
    elif op in _RV_ZERO_BRANCH:
        return ins.target if _RV_ZERO_BRANCH[op](read(ins.srcs[0], ins, k)) else None
    elif op == "j":
        return ins.target
    elif op in ("ret", "jr"):
        return _EXIT
    elif prec in ("s", "d") and (base in _FP2 or base in _FP3 or base in _FP_UNARY):
        rnd = _single if prec == "s" else float
        args = [read(x, ins, k) for x in ins.srcs]
        try:
            if base in _FP3:
                result = _FP3[base](*args)
            elif base in _FP2:
                result = _FP2[base](*args)
            else:
                result = _FP_UNARY[base](args[0])
        except (OverflowError, ValueError) as exc:
            raise ExecutionError(f"{_where(ins, k)}: {exc}") from None
        if base in ("feq", "flt", "fle"):
            write(ins.dests[0], int(result))
        else:
            write(ins.dests[0], rnd(result))
    elif op.startswith("fcvt."):
        to, frm = op.split(".")[1:3]
        x = read(ins.srcs[0], ins, k)
        if to in ("s", "d"):
            write(ins.dests[0], _single(float(x)) if to == "s" else float(x))
        else:
            write(ins.dests[0], int(x))  # toward zero, as C casts
    elif op in ("fmv.d.x", "fmv.w.x", "fmv.s.x"):
        x = int(read(ins.srcs[0], ins, k))
        if op == "fmv.d.x":
            write(ins.dests[0], struct.unpack("<d", struct.pack("<Q", _u(x)))[0])
        else:
            write(ins.dests[0], struct.unpack("<f", struct.pack("<I", x & _MASK32))[0])
    elif op in ("fmv.x.d", "fmv.x.w", "fmv.x.s"):
        x = float(read(ins.srcs[0], ins, k))
        if op == "fmv.x.d":
            write(ins.dests[0], struct.unpack("<q", struct.pack("<d", x))[0])
        else:
            write(ins.dests[0], _s32(struct.unpack("<I", struct.pack("<f", x))[0]))
    else:
        raise ExecutionError(
            f"{_where(ins, k)}: the interpreter does not run {op!r} (CSRs, atomics, calls and "
            "fences are outside what it executes)"
        )
    return None


def same_effect(a: RunResult, b: RunResult, registers: list[str] | None = None) -> list[str]:
    """Differences between two runs, as sentences (empty when they agree).

    Memory is compared in full. Registers: those in ``registers`` if given, else every register
    the first run (the original program) holds, so that extra registers the transformed code
    introduced (renamed copies, counters) are ignored.
    """
    problems = []
    for addr in sorted(set(a.mem) | set(b.mem)):
        if a.mem.get(addr) != b.mem.get(addr):
            problems.append(f"memory[{addr}]: {a.mem.get(addr)} vs {b.mem.get(addr)}")
    names = registers if registers is not None else sorted(a.regs)
    for reg in names:
        reg = reg.lstrip("$")
        if a.regs.get(reg) != b.regs.get(reg):
            problems.append(f"${reg}: {a.regs.get(reg)} vs {b.regs.get(reg)}")
    return problems


def compare(
    original, transformed, regs=None, mem=None, *, strict: bool = True, max_steps: int = MAX_STEPS
) -> list[str]:
    """Run ``original`` and ``transformed`` from the same registers and memory; the differences
    (:func:`same_effect`), empty when the transformed code computes the same thing."""
    a = run(original, regs, mem, strict=strict, max_steps=max_steps)
    b = run(transformed, regs, mem, strict=strict, max_steps=max_steps)
    return same_effect(a, b)


__all__ = [
    "MAX_STEPS",
    "ExecutionError",
    "RunResult",
    "compare",
    "run",
    "same_effect",
    "wrap32",
    "wrap64",
]
