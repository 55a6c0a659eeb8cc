"""Assembly code: instructions, and a parser for each notation the course reads.

* :mod:`~lecturekit.asm.instruction` -- :class:`Instruction`, :class:`MemRef`, :class:`Program`.
* :mod:`~lecturekit.asm.opcodes` -- each notation's opcodes: operand format, operation class.
* :mod:`~lecturekit.asm.lecture` -- the lecture's notation (MIPS style, three-address code).
* :mod:`~lecturekit.asm.riscv` -- RISC-V as clang and GCC print it.
* :mod:`~lecturekit.asm.notation` -- :func:`parse`: either notation, recognised from the text.
* :mod:`~lecturekit.asm.formatting` -- an instruction written back as text.
* :mod:`~lecturekit.asm.cursor` -- source lines and the cursor both parsers read with.
* :mod:`~lecturekit.asm.random_blocks` -- random blocks for tests, benchmarks and notebooks.

This folder knows nothing of machines or schedules: it imports only :mod:`lecturekit.errors`.
"""

from .cursor import MAX_IMMEDIATE, split_lines
from .formatting import format_instruction
from .instruction import Instruction, MemRef, Program
from .lecture import MAX_INSTRUCTIONS
from .notation import parse, parse_instruction
from .opcodes import (
    BRANCH_SYMBOL,
    FP_OPCODES,
    OPCODES,
    SAME_AS,
    TAC_BRANCHES,
    TAC_OPERATORS,
    TAC_SYMBOL,
    ZERO_REGISTERS,
)

__all__ = [
    "BRANCH_SYMBOL",
    "FP_OPCODES",
    "Instruction",
    "MAX_IMMEDIATE",
    "MAX_INSTRUCTIONS",
    "MemRef",
    "OPCODES",
    "Program",
    "SAME_AS",
    "TAC_BRANCHES",
    "TAC_OPERATORS",
    "TAC_SYMBOL",
    "ZERO_REGISTERS",
    "format_instruction",
    "parse",
    "parse_instruction",
    "split_lines",
]
