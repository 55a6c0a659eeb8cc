"""Reading a block in any notation: the lecture's (MIPS style, three-address code) or RISC-V.

:func:`parse` is what the rest of lecturekit calls: it hands the text to
:func:`~lecturekit.asm.riscv.parse_riscv` when asked for RISC-V or when the text is recognisably
RISC-V (:func:`~lecturekit.asm.riscv.looks_like_riscv`), and to
:func:`~lecturekit.asm.lecture.parse_lecture` otherwise.
"""

from __future__ import annotations

from ..errors import ParseError
from .instruction import Instruction, Program
from .lecture import parse_lecture
from .riscv import looks_like_riscv, parse_riscv


def parse(source: str, notation: str | None = None) -> Program:
    """Parse a block of code in either notation (mixed line by line is allowed).

    RISC-V assembly as clang prints it is read by :mod:`lecturekit.asm.riscv`, when
    ``notation="riscv"`` or when the text is recognisably RISC-V (see ``looks_like_riscv``).
    Raises :class:`ParseError` naming the line, the column and what was expected.
    """
    if not isinstance(source, str):
        raise ParseError(f"expected program text (a string), got {type(source).__name__}", 1, 1)
    if notation == "riscv" or (notation is None and looks_like_riscv(source)):
        return parse_riscv(source)
    return parse_lecture(source)


def parse_instruction(text: str) -> Instruction:
    """Parse exactly one instruction (no label); convenient in notebooks and tests."""
    prog = parse(text)
    if len(prog) != 1:
        raise ParseError(f"expected exactly one instruction, found {len(prog)}", 1, 1, text)
    return prog[0]
