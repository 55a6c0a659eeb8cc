"""What a parsed instruction is: :class:`Instruction` (its registers, memory operand, branch
target and where it was written), :class:`MemRef` and :class:`Program` (a block in program
order with its labels). Both notations parse into these; :mod:`lecturekit.asm.formatting` writes
them back as text."""

from __future__ import annotations

from dataclasses import dataclass, field

from .formatting import format_instruction
from .opcodes import OPCODES, RISCV_OPCODES, ZERO_REGISTERS


@dataclass(frozen=True)
class MemRef:
    """A memory operand ``offset(base)``: the address is register ``base`` plus ``offset``."""

    base: str
    offset: int
    size: int | None = None  #: bytes accessed (RISC-V lb..ld); None: one word at ``offset``

    def __str__(self) -> str:
        if self.size is not None:  # RISC-V writes registers without '$'
            return f"{self.offset}({self.base})"
        return f"{self.offset}(${self.base})"


@dataclass(frozen=True)
class Instruction:
    """One parsed instruction.

    ``dests`` and ``srcs`` are register names without ``$``; ``mem`` is the memory operand of a
    load or store; ``target`` is a branch's label. ``text`` is the source as written (comment
    removed), ``line`` its 1-based line number. ``symbol``: in RISC-V, an immediate or offset
    that names a symbol (``%lo(C)``, ``%pcrel_hi(.LC0)``), kept so that a rewritten copy of the
    instruction prints it again (``imm`` is then ``None``, the offset 0).
    """

    opcode: str
    dests: tuple[str, ...] = ()
    srcs: tuple[str, ...] = ()
    imm: int | None = None
    mem: MemRef | None = None
    target: str | None = None
    labels: tuple[str, ...] = ()
    text: str = ""
    line: int = 0
    notation: str = "mips"
    symbol: str | None = None

    @property
    def op_class(self) -> str:
        """The operation class (alu, mul, div, load, store, branch, nop; fadd, fmul, fdiv)."""
        if self.notation == "riscv":
            return RISCV_OPCODES[self.opcode][1]
        return OPCODES[self.opcode][1]

    @property
    def is_load(self) -> bool:
        return self.op_class == "load"

    @property
    def is_store(self) -> bool:
        return self.op_class == "store"

    @property
    def is_branch(self) -> bool:
        return self.op_class == "branch"

    def reads(self) -> tuple[str, ...]:
        """Registers read, without the always-zero register."""
        return tuple(r for r in self.srcs if r not in ZERO_REGISTERS)

    def writes(self) -> tuple[str, ...]:
        """Registers written, without the always-zero register."""
        return tuple(r for r in self.dests if r not in ZERO_REGISTERS)

    def __str__(self) -> str:
        return self.text or format_instruction(self)


@dataclass
class Program:
    """A parsed block: instructions in program order, plus the labels and where they point."""

    instructions: list[Instruction]
    labels: dict[str, int] = field(default_factory=dict)
    source: str = ""

    def __len__(self) -> int:
        return len(self.instructions)

    def __iter__(self):
        return iter(self.instructions)

    def __getitem__(self, i):
        return self.instructions[i]
