"""The lecture's blocks as AArch64 code, to hold the out-of-order simulation against llvm-mca.

LLVM 14 has no out-of-order RISC-V model, but it has out-of-order Arm cores, and AArch64 is a
three-address ISA: ``add $t0, $t1, $t2`` (``t0 = t1 + t2``) is ``add w0, w1, w2``, one
instruction for one. :func:`to_aarch64` writes a block of the lecture's integer instructions
that way (``$tN`` -> ``wN``, ``$sN`` -> ``w19+N`` as a value and ``x19+N`` as an address, other
names from ``w9 .. w18``), so that llvm-mca can time the same dependences on the Cortex-A57
model (``-mtriple=aarch64 -mcpu=cortex-a57``) that :mod:`lecturekit.target.ooo` runs on the
``cortex-a57`` preset (LLVM's latencies and units for these opcodes).
:func:`compare_with_mca` puts the two timelines side by side, in lecturekit's cycles
(llvm-mca's cycle 0 is cycle 1).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..asm import Program, parse
from ..errors import LectureKitError
from ..language import _
from .ooo import OooResult, simulate_ooo

_OPS = {
    "add": "add",
    "sub": "sub",
    "and": "and",
    "or": "orr",
    "xor": "eor",
    "mul": "mul",
    "div": "sdiv",
}
_IMM = {"addi": "add", "subi": "sub"}
#: the A57 settings of llvm-mca 14: dispatch width 3, a 128-entry reorder buffer, retirement not
#: limited per cycle, no scheduler buffer limits, loads assumed not to alias stores (stores stay
#: in order), and llvm-mca's choice among ready instructions
A57 = {
    "width": 3,
    "rob": 128,
    "window": None,
    "retire_width": None,
    "memory_order": "llvm-mca",
    "select": "llvm-mca",
}


def _register_numbers(program: Program) -> dict[str, int]:
    numbers: dict[str, int] = {}
    spare = iter(range(9, 19))
    for ins in program:
        for r in (*ins.srcs, *ins.dests):
            if r in numbers or r in ("zero", "0"):
                continue
            if r[:1] == "t" and r[1:].isdigit() and int(r[1:]) <= 8:
                numbers[r] = int(r[1:])
            elif r[:1] == "s" and r[1:].isdigit() and int(r[1:]) <= 8:
                numbers[r] = 19 + int(r[1:])
            else:
                try:
                    numbers[r] = next(spare)
                except StopIteration:
                    raise LectureKitError(
                        _("the block uses more registers than the translation maps")
                    ) from None
    return numbers


def to_aarch64(program: Program | str) -> str:
    """``program`` (the lecture's integer instructions: add sub and or xor mul div addi subi li
    move lw sw) as AArch64 assembly, one instruction per instruction."""
    if isinstance(program, str):
        program = parse(program)
    num = _register_numbers(program)

    def w(r: str) -> str:
        return "wzr" if r in ("zero", "0") else f"w{num[r]}"

    def x(r: str) -> str:
        return "xzr" if r in ("zero", "0") else f"x{num[r]}"

    lines = []
    for ins in program:
        op = ins.opcode
        if op in _OPS:
            lines.append(f"{_OPS[op]} {w(ins.dests[0])}, {w(ins.srcs[0])}, {w(ins.srcs[1])}")
        elif op in _IMM and 0 <= ins.imm < 4096:
            lines.append(f"{_IMM[op]} {w(ins.dests[0])}, {w(ins.srcs[0])}, {ins.imm}")
        elif op == "li":
            lines.append(f"mov {w(ins.dests[0])}, {ins.imm}")
        elif op == "move":
            lines.append(f"mov {w(ins.dests[0])}, {w(ins.srcs[0])}")
        elif op == "lw":
            lines.append(f"ldr {w(ins.dests[0])}, [{x(ins.mem.base)}, {ins.mem.offset}]")
        elif op == "sw":
            lines.append(f"str {w(ins.srcs[0])}, [{x(ins.mem.base)}, {ins.mem.offset}]")
        else:
            raise LectureKitError(
                _(
                    "{instruction}: no one-instruction AArch64 form here (the translation "
                    "takes add sub and or xor mul div addi subi li move lw sw)"
                ).format(instruction=ins.text or ins)
            )
    return "\n".join(lines) + "\n"


@dataclass
class McaComparison:
    """Both timelines of one block: ``ours`` (lecturekit's out-of-order simulation) and
    ``mca`` (llvm-mca's, as a :class:`~lecturekit.target.real.McaResult` dict), per instruction
    ``dispatch``, ``issue``, ``ready`` (result available) and ``retire`` in lecturekit's cycles."""

    program: Program
    aarch64: str
    ours: dict[str, list[int]]
    mca: dict[str, list[int]]
    cycles: tuple[int, int]

    @property
    def same(self) -> bool:
        return self.ours == self.mca and self.cycles[0] == self.cycles[1]

    def differences(self) -> list[int]:
        """Instructions whose cycles differ in any column."""
        n = len(self.program)
        return [k for k in range(n) if any(self.ours[c][k] != self.mca[c][k] for c in self.ours)]


def ours_on_a57(program: Program | str) -> OooResult:
    """The block on the ``cortex-a57`` preset with llvm-mca's settings (:data:`A57`)."""
    return simulate_ooo(program, "cortex-a57", **A57)


def mca_timeline(code: str) -> dict:
    """llvm-mca's timeline of AArch64 ``code`` on the Cortex-A57 (a
    :meth:`~lecturekit.target.real.McaResult.to_dict`): run live when llvm-mca is installed,
    else read from ``lecturekit/data/real/chapter13.json`` (saved with ``LECTUREKIT_SAVE_REAL=1``),
    keyed by the code itself."""
    from .real import run_mca, saved_or_live

    return saved_or_live(
        "a57:" + code,
        lambda: run_mca(code, cpu="cortex-a57", triple="aarch64").to_dict(),
        tools=("llvm-mca",),
        store="chapter13",
    )


def compare_with_mca(program: Program | str, mca: dict | None = None) -> McaComparison:
    """lecturekit's out-of-order timeline of ``program`` on ``cortex-a57`` beside llvm-mca's of
    its AArch64 form (``mca``: llvm-mca's result as a dict; default :func:`mca_timeline`)."""
    if isinstance(program, str):
        program = parse(program)
    code = to_aarch64(program)
    if mca is None:
        mca = mca_timeline(code)
    r = ours_on_a57(program)
    ours = {"dispatch": r.dispatch, "issue": r.issue, "ready": r.write, "retire": r.commit}
    theirs = {
        "dispatch": [c + 1 for c in mca["dispatch"]],
        "issue": [c + 1 for c in mca["issue"]],
        "ready": [c + 1 for c in mca["executed"]],
        "retire": [c + 1 for c in mca["retired"]],
    }
    return McaComparison(program, code, ours, theirs, (r.retired, mca["cycles"]))


__all__ = [
    "A57",
    "McaComparison",
    "compare_with_mca",
    "mca_timeline",
    "ours_on_a57",
    "to_aarch64",
]
