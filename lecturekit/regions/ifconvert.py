"""If-conversion: a branch and its two arms become one block of straight-line code.

A short ``if`` inside a loop body splits the body into blocks, and a loop body that is not one
block is out of reach of chapter 06's unrolling and chapter 07's software pipelining. If-conversion
(Allen, Kennedy, Porterfield and Warren, *Conversion of control dependence to data dependence*,
POPL 1983) removes the branch: both arms run, each writing its own fresh registers, and a
**select** at the join keeps, for every register live there, the value of the arm the branch
would have taken. The control dependence has become a data dependence on the condition.

Hardware helps with a one-instruction select (a conditional move: MIPS ``movn``/``movz``, x86
``cmov``, Arm ``csel``, RISC-V's Zicond ``czero``) or with predicated instructions (every
instruction guarded by a predicate register: IA-64, Arm's old conditional execution). The
lecture's notation has neither, so a select is written with the ALU (three instructions, no
branch): with ``mask = 0 - cond`` (all ones when the condition holds, else zero),
``r = r_else ^ ((r_then ^ r_else) & mask)``. The condition itself comes from ``slt`` (and
``xori``/``or`` for ``>=``, ``<=``, ``==``, ``!=``). So if-conversion here costs a few more
instructions than on a machine with ``cmov``; the chapter measures it as it is.

Both arms run whatever the condition, so they must be safe to run when not wanted: no store,
no divide (it could trap), no load unless ``speculative_loads`` (it could fault), and each arm a
single block ending at the join. Shapes taken: a *diamond* (``if ... else ...``) and a
*triangle* (``if ...`` without ``else``: one arm empty).

:func:`merge_chains` then joins a block with its only successor when that successor has no
other predecessor: a loop whose body held one ``if`` becomes a loop with a one-block body.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..asm import Instruction, parse
from ..asm.formatting import format_instruction
from ..language import _
from .cfg import CFG, Block, RegionError


def _fresh_names(taken: set[str], prefix: str):
    k = 0
    while True:
        k += 1
        name = f"{prefix}{k}"
        if name not in taken:
            taken.add(name)
            yield name


def _ins(text: str) -> Instruction:
    return parse(text).instructions[0]


def _rename(ins: Instruction, reads: dict[str, str], writes: dict[str, str]) -> Instruction:
    srcs = tuple(reads.get(r, r) for r in ins.srcs)
    dests = tuple(writes.get(r, r) for r in ins.dests)
    mem = ins.mem
    if mem is not None:
        mem = replace(mem, base=reads.get(mem.base, mem.base))
    new = replace(ins, srcs=srcs, dests=dests, mem=mem, text="", labels=(), line=0)
    return replace(new, text=format_instruction(new))


def condition(branch: Instruction, c: str, extra: str) -> list[Instruction]:
    """Instructions setting ``$c`` to 1 when ``branch`` would be taken, else 0 (``extra``: a
    scratch register for ``beq``/``bne``)."""
    op = branch.opcode
    if op in ("beqz", "bnez"):
        a, b = branch.srcs[0], "zero"
        op = "beq" if op == "beqz" else "bne"
    elif op in ("beq", "bne", "blt", "bge", "ble", "bgt"):
        a, b = branch.srcs
    else:
        raise RegionError(_("cannot if-convert a {op} (only conditional branches)").format(op=op))
    if op == "blt":
        return [_ins(f"slt ${c}, ${a}, ${b}")]
    if op == "bgt":
        return [_ins(f"slt ${c}, ${b}, ${a}")]
    if op == "bge":
        return [_ins(f"slt ${c}, ${a}, ${b}"), _ins(f"xori ${c}, ${c}, 1")]
    if op == "ble":
        return [_ins(f"slt ${c}, ${b}, ${a}"), _ins(f"xori ${c}, ${c}, 1")]
    ne = [
        _ins(f"slt ${c}, ${a}, ${b}"),
        _ins(f"slt ${extra}, ${b}, ${a}"),
        _ins(f"or ${c}, ${c}, ${extra}"),
    ]
    return ne if op == "bne" else [*ne, _ins(f"xori ${c}, ${c}, 1")]


@dataclass
class IfConversion:
    """The result: the new ``cfg``, the block that absorbed the region (``head``), the
    ``join``, the instructions added for the condition and the selects, and the branch that
    went away (its text)."""

    cfg: CFG
    head: str
    join: str
    shape: str
    added: int
    selects: list[str]
    removed_branch: str


def _arm(cfg: CFG, name: str, head: str, join: str | None) -> bool:
    """Whether ``name`` is an arm of ``head``: only ``head`` enters it and it goes only to
    ``join`` (with no branch but a ``j`` there)."""
    b = cfg[name]
    if cfg.preds(name) != [head] or name == head:
        return False
    if b.branch is not None and b.branch.opcode != "j":
        return False
    return join is None or b.successors == [join]


def if_convert(cfg: CFG, head: str, *, speculative_loads: bool = False) -> IfConversion:
    """If-convert the branch that ends block ``head`` (module docstring)."""
    h = cfg[head]
    br = h.branch
    if br is None or br.opcode == "j":
        raise RegionError(
            _("block {head} does not end with a conditional branch").format(head=head)
        )
    taken, fall = br.target, h.fall
    if fall is None or taken == fall:
        raise RegionError(
            _("block {head}'s branch has no two different successors").format(head=head)
        )
    shape = None
    if _arm(cfg, taken, head, None) and _arm(cfg, fall, head, None):
        t_succ, f_succ = cfg[taken].successors, cfg[fall].successors
        if len(t_succ) == 1 and t_succ == f_succ:
            shape, join, arms = "diamond", t_succ[0], {"then": taken, "else": fall}
    if shape is None and _arm(cfg, fall, head, taken):
        shape, join, arms = "triangle", taken, {"then": None, "else": fall}
    if shape is None and _arm(cfg, taken, head, fall):
        shape, join, arms = "triangle", fall, {"then": taken, "else": None}
    if shape is None:
        raise RegionError(
            _(
                "the branch ending {head} does not open a diamond or a triangle (each "
                "arm one block, entered only from it, going only to the same join)"
            ).format(head=head)
        )
    if join == head:
        raise RegionError(
            _("the arms of {head} go back to {head}: not an if inside one pass").format(head=head)
        )
    live = cfg.live_in()[join]
    taken_regs = cfg.registers() | {"zero"}
    fresh = _fresh_names(taken_regs, "p")
    body = list(h.body)
    c, scratch, mask = next(fresh), next(fresh), next(fresh)
    cond = condition(br, c, scratch)
    body.extend(cond)
    added = len(cond)
    final: dict[str, dict[str, str]] = {}
    for side, name in arms.items():
        current: dict[str, str] = {}
        if name is not None:
            for ins in cfg[name].body:
                if ins.is_store or ins.op_class == "div" or (ins.is_load and not speculative_loads):
                    raise RegionError(
                        _(
                            "{block}: {instruction} would run whatever the condition (a store, "
                            "a divide or a load): cannot if-convert"
                        ).format(block=name, instruction=ins.text or ins)
                    )
                writes = {r: next(fresh) for r in ins.writes()}
                body.append(_rename(ins, current, writes))
                current.update(writes)
        final[side] = current
    written = sorted((set(final["then"]) | set(final["else"])) & live)
    selects = []
    if written:
        body.append(_ins(f"sub ${mask}, $zero, ${c}"))  # i18n: as is (code)
        added += 1
    for r in written:
        t, e = final["then"].get(r, r), final["else"].get(r, r)
        d = next(fresh)
        body.extend(
            [
                _ins(f"xor ${d}, ${t}, ${e}"),
                _ins(f"and ${d}, ${d}, ${mask}"),
                _ins(f"xor ${r}, ${e}, ${d}"),
            ]
        )
        added += 3
        selects.append(r)
    gone = {n for n in arms.values() if n is not None}
    blocks = []
    for b in cfg.blocks:
        if b.name == head:
            blocks.append(Block(head, body, None, join))
        elif b.name not in gone:
            blocks.append(b)
    return IfConversion(
        CFG(blocks, cfg.live_at_exit), head, join, shape, added, selects, br.text or str(br)
    )


def merge_chains(cfg: CFG) -> CFG:
    """Join every block whose only successor (by fall-through) has no other predecessor with
    that successor, repeatedly."""
    blocks = [Block(b.name, list(b.body), b.branch, b.fall) for b in cfg.blocks]
    changed = True
    while changed:
        changed = False
        current = CFG(blocks, cfg.live_at_exit)
        for b in blocks:
            if b.branch is not None or b.fall is None or b.fall == b.name:
                continue
            nxt = current[b.fall]
            if current.preds(nxt.name) != [b.name] or nxt.name == current.entry:
                continue
            b.body.extend(nxt.body)
            b.branch, b.fall = nxt.branch, nxt.fall
            blocks = [x for x in blocks if x.name != nxt.name]
            changed = True
            break
    return CFG(blocks, cfg.live_at_exit)


__all__ = ["IfConversion", "condition", "if_convert", "merge_chains"]
