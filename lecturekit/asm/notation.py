"""Reading a block in any notation: the lecture's (MIPS style, three-address code) or RISC-V.

:func:`parse` is what the rest of lecturekit calls: it hands the text to
:func:`~lecturekit.asm.riscv.parse_riscv` when asked for RISC-V or when the text is recognisably
RISC-V (:func:`~lecturekit.asm.riscv.looks_like_riscv`), and to
:func:`~lecturekit.asm.lecture.parse_lecture` otherwise.
"""

from __future__ import annotations

from ..errors import ParseError
from ..language import _
from .instruction import Instruction, Program
from .lecture import parse_lecture
from .riscv import looks_like_riscv, parse_riscv


def parse(source: str, notation: str | None = None) -> Program:
    """Parse a block of code in either notation (mixed line by line is allowed).

    RISC-V assembly as clang and GCC print it is read by :mod:`lecturekit.asm.riscv`, when
    ``notation="riscv"`` or when the text is recognisably RISC-V (see ``looks_like_riscv``).
    Text that could be either (``slt a4, a5, a3`` is also MIPS-style) is read in the lecture's
    notation first; if that fails and the text is valid RISC-V, it is RISC-V. When neither reads
    it, the error is the one from the reading that got further (so a RISC-V block with a typo
    is not reported with MIPS's list of opcodes). Text with ``$`` registers is the lecture's
    (in RISC-V, ``$v`` only appears in code the loop tools generate). Raises
    :class:`ParseError` naming the line, the column and what was expected.
    """
    if not isinstance(source, str):
        raise ParseError(
            _("expected program text (a string), got {name}").format(name=type(source).__name__),
            1,
            1,
        )
    if notation == "riscv" or (notation is None and looks_like_riscv(source)):
        return parse_riscv(source)
    if notation is not None or "$" in source:
        return parse_lecture(source)
    try:
        return parse_lecture(source)
    except ParseError as lecture_error:
        try:
            return parse_riscv(source)
        except ParseError as riscv_error:
            further = (riscv_error.line, riscv_error.column) > (
                lecture_error.line,
                lecture_error.column,
            )
            raise (riscv_error if further else lecture_error) from None


def parse_instruction(text: str) -> Instruction:
    """Parse exactly one instruction (no label); convenient in notebooks and tests."""
    prog = parse(text)
    if len(prog) != 1:
        raise ParseError(
            _("expected exactly one instruction, found {n_prog}").format(n_prog=len(prog)),
            1,
            1,
            text,
        )
    return prog[0]
