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
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..asm import OPCODES, Instruction, Program, parse
from ..errors import LectureKitError

#: default limit on executed instructions
MAX_STEPS = 1_000_000


class ExecutionError(LectureKitError):
    """Running code failed: an instruction limit was hit, a division by zero, or (strict mode)
    a read of a register or memory cell that holds no value. The message names the line."""


def wrap32(value: int) -> int:
    """``value`` as a signed 32-bit integer (two's complement wrap-around)."""
    return ((int(value) + 2**31) % 2**32) - 2**31


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
    ``executed`` lists the instruction indices in the order they ran."""

    regs: dict[str, int]
    mem: dict[int, int]
    steps: int
    counts: Counter
    executed: list[int] | None = None


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
    r: dict[str, int] = {}
    for name, value in (regs or {}).items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise ExecutionError(
                f"register ${str(name).lstrip('$')} must hold an integer, got {value!r}"
            )
        r[str(name).lstrip("$")] = wrap32(value)
    m: dict[int, int] = {}
    for addr, value in (mem or {}).items():
        if isinstance(value, bool) or not isinstance(value, int) or not isinstance(addr, int):
            raise ExecutionError(
                f"memory must map integer addresses to integers, got {addr!r}: {value!r}"
            )
        m[addr] = wrap32(value)
    code = program.instructions
    labels = program.labels
    counts: Counter = Counter()
    executed: list[int] | None = [] if record else None
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
            r[reg] = wrap32(value)

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
        op = ins.opcode
        fmt = OPCODES[op][0]
        pc += 1
        if op == "nop":
            continue
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
    return RunResult(r, m, steps, counts, executed)


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


__all__ = ["MAX_STEPS", "ExecutionError", "RunResult", "compare", "run", "same_effect", "wrap32"]
