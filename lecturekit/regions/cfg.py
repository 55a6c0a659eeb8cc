"""A control-flow graph of the lecture's assembly: basic blocks and the edges between them.

A block starts at the first instruction, at every labelled instruction and after every branch;
it ends with at most one branch (``beq``, ``blt``, ..., or ``j``). Its successors are the
branch's target and, unless the branch is ``j``, the block laid out after it (the
*fall-through*). A block whose fall-through runs off the end of the program leaves it (the
program's exit). Blocks are named by their first label, or ``B1, B2, ...``.

:meth:`CFG.to_program` lays the graph out as code again, in its block order, adding a ``j``
wherever a block's fall-through successor is not the next block; so a transformation may reorder
blocks, retarget branches and add blocks freely, and the result is always a program the
interpreter, the dependence analysis and the pipeline run.

:meth:`CFG.live_in` is liveness (the registers a block may read before writing them, on some path
to the exit): the classic backward data-flow problem, iterated to its fixed point. The registers
live at the exit are ``live_at_exit`` (default: every register, the cautious choice).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..asm import Instruction, Program, parse
from ..asm.formatting import format_instruction
from ..errors import LectureKitError
from ..language import _

#: the label laid out after the last block when a block must jump to the program's exit
EXIT = "exit"
#: the most blocks a CFG may have (the region tools are for small, readable graphs)
MAX_BLOCKS = 200

INVERSE = {
    "beq": "bne",
    "bne": "beq",
    "blt": "bge",
    "bge": "blt",
    "bgt": "ble",
    "ble": "bgt",
    "beqz": "bnez",
    "bnez": "beqz",
}


class RegionError(LectureKitError):
    """A program or region the global-scheduling tools cannot take (the message says why)."""


def retarget(ins: Instruction, target: str, *, invert: bool = False) -> Instruction:
    """A branch with another target (and, with ``invert``, the opposite condition)."""
    opcode = INVERSE[ins.opcode] if invert else ins.opcode
    new = replace(ins, opcode=opcode, target=target, text="", labels=(), line=0)
    return replace(new, text=format_instruction(new))


def text_of(ins: Instruction) -> str:
    return ins.text or format_instruction(ins)


@dataclass
class Block:
    """A basic block: ``body`` (no branch), then ``branch`` (a conditional branch, ``j`` or
    ``None``); ``fall`` is the successor when there is no branch or it is not taken (``None``:
    the branch is ``j``, or the program ends here)."""

    name: str
    body: list[Instruction] = field(default_factory=list)
    branch: Instruction | None = None
    fall: str | None = None

    @property
    def target(self) -> str | None:
        return self.branch.target if self.branch is not None else None

    @property
    def successors(self) -> list[str]:
        return [s for s in (self.target, self.fall) if s is not None]

    @property
    def instructions(self) -> list[Instruction]:
        return self.body + ([self.branch] if self.branch is not None else [])

    @property
    def exits_program(self) -> bool:
        """Whether control may leave the program from here (a fall-through off the end)."""
        return self.fall is None and (self.branch is None or self.branch.opcode != "j")


@dataclass
class CFG:
    """Blocks in layout order (the first is the entry) and the registers live at the exit."""

    blocks: list[Block]
    live_at_exit: frozenset[str] | None = None

    def __post_init__(self) -> None:
        names = [b.name for b in self.blocks]
        if not names:
            raise RegionError(_("a control-flow graph needs at least one block"))
        if len(set(names)) != len(names):
            raise RegionError(_("two blocks have the same name: {names}").format(names=names))
        if len(names) > MAX_BLOCKS:
            raise RegionError(
                _("at most {max_blocks} blocks, got {n}").format(
                    max_blocks=MAX_BLOCKS, n=len(names)
                )
            )
        known = set(names)
        for b in self.blocks:
            for s in b.successors:
                if s not in known:
                    raise RegionError(
                        _("block {name} goes to {target!r}, which is not a block").format(
                            name=b.name, target=s
                        )
                    )

    @property
    def entry(self) -> str:
        return self.blocks[0].name

    def __getitem__(self, name: str) -> Block:
        for b in self.blocks:
            if b.name == name:
                return b
        raise RegionError(
            _("no block named {name!r}; blocks: {blocks}").format(
                name=name, blocks=", ".join(self.names)
            )
        )

    @property
    def names(self) -> list[str]:
        return [b.name for b in self.blocks]

    def preds(self, name: str) -> list[str]:
        """The blocks with an edge to ``name`` (each once, in layout order)."""
        return [b.name for b in self.blocks if name in b.successors]

    def size(self) -> int:
        """Static instructions when laid out (the ``j`` the layout adds included)."""
        return len(self.to_program())

    # -- liveness ----------------------------------------------------------------------------
    def registers(self) -> set[str]:
        return {
            r for b in self.blocks for ins in b.instructions for r in (*ins.reads(), *ins.writes())
        }

    def live_in(self) -> dict[str, frozenset[str]]:
        """The registers live on entry to every block (iterated to the fixed point)."""
        at_exit = self.registers() if self.live_at_exit is None else set(self.live_at_exit)
        use: dict[str, set[str]] = {}
        kill: dict[str, set[str]] = {}
        for b in self.blocks:
            u: set[str] = set()
            d: set[str] = set()
            for ins in b.instructions:
                u |= {r for r in ins.reads() if r not in d}
                d |= set(ins.writes())
            use[b.name], kill[b.name] = u, d
        live = {b.name: set() for b in self.blocks}
        changed = True
        while changed:
            changed = False
            for b in reversed(self.blocks):
                out = set().union(*(live[s] for s in b.successors)) if b.successors else set()
                if b.exits_program:
                    out |= at_exit
                new = use[b.name] | (out - kill[b.name])
                if new != live[b.name]:
                    live[b.name] = new
                    changed = True
        return {k: frozenset(v) for k, v in live.items()}

    # -- back to code ------------------------------------------------------------------------
    def to_lines(self) -> list[str]:
        """The graph laid out as assembly lines (labels on their own lines)."""
        lines: list[str] = []
        need_exit = False
        exit_label = EXIT
        while exit_label in self.names:
            exit_label += "_"
        for k, b in enumerate(self.blocks):
            nxt = self.blocks[k + 1].name if k + 1 < len(self.blocks) else None
            lines.append(f"{b.name}:")
            lines.extend(f"    {text_of(ins)}" for ins in b.instructions)
            if b.fall is not None and b.fall != nxt:
                lines.append(f"    j {b.fall}")
            elif b.exits_program and nxt is not None:
                lines.append(f"    j {exit_label}")
                need_exit = True
        if need_exit:
            lines.append(f"{exit_label}:")
        return lines

    def to_program(self) -> Program:
        return parse("\n".join(self.to_lines()))

    def text(self) -> str:
        return "\n".join(self.to_lines())


def _name_blocks(program: Program, leaders: list[int]) -> dict[int, str]:
    taken = set(program.labels)
    at: dict[int, str] = {}
    for name, pos in sorted(program.labels.items(), key=lambda kv: kv[1]):
        at.setdefault(pos, name)
    names: dict[int, str] = {}
    counter = 0
    for pos in leaders:
        if pos in at:
            names[pos] = at[pos]
        else:
            counter += 1
            while f"B{counter}" in taken:
                counter += 1
            names[pos] = f"B{counter}"
            taken.add(names[pos])
    return names


def cfg_of(program: Program | str, live_at_exit=None) -> CFG:
    """The control-flow graph of a program in the lecture's notation (module docstring).
    ``live_at_exit``: the registers the program's results are in (default: all)."""
    if isinstance(program, str):
        program = parse(program)
    if any(ins.notation == "riscv" for ins in program):
        raise RegionError(_("the region tools take the lecture's notation, not RISC-V"))
    n = len(program)
    if n == 0:
        raise RegionError(_("the program has no instructions"))
    leaders = {0} | {p for p in program.labels.values() if p <= n}
    leaders |= {k + 1 for k, ins in enumerate(program) if ins.is_branch and k + 1 <= n}
    leaders_sorted = sorted(p for p in leaders if p < n)
    end_labels = [name for name, p in program.labels.items() if p == n]
    names = _name_blocks(program, leaders_sorted)
    label_block = {name: names[p] for name, p in program.labels.items() if p < n}
    final = end_labels[0] if end_labels else None
    for name in end_labels:
        label_block[name] = final
    blocks = []
    for i, start in enumerate(leaders_sorted):
        stop = leaders_sorted[i + 1] if i + 1 < len(leaders_sorted) else n
        ins_list = list(program.instructions[start:stop])
        branch = ins_list.pop() if ins_list and ins_list[-1].is_branch else None
        if branch is not None:
            branch = retarget(branch, label_block[branch.target])
        body = [replace(x, labels=()) for x in ins_list]
        if branch is not None and branch.opcode == "j":
            fall = None
        else:
            fall = names[stop] if stop < n else final
        blocks.append(Block(names[start], body, branch, fall))
    if final is not None:
        blocks.append(Block(final))
    return CFG(blocks, None if live_at_exit is None else frozenset(live_at_exit))


__all__ = ["CFG", "EXIT", "INVERSE", "Block", "RegionError", "cfg_of", "retarget", "text_of"]
