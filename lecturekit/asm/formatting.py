"""Writing an instruction back as text: in MIPS style or three-address code (the lecture's
notations) or in RISC-V syntax. An instruction with no source text (made by a loop tool, say)
prints through :func:`format_instruction`."""

from __future__ import annotations

from dataclasses import replace

from .opcodes import (
    BRANCH_SYMBOL,
    CSR_NAMES,
    FP_OPCODES,
    OPCODES,
    REGISTERS,
    RISCV_OPCODES,
    SAME_AS,
    TAC_SYMBOL,
)


def format_instruction(ins, notation: str | None = None) -> str:
    """Render ``ins`` in MIPS or three-address notation (default: the one it was written in)."""
    notation = notation or ins.notation
    if ins.notation == "riscv":  # RISC-V stays RISC-V (see lecturekit.asm.riscv)
        return format_riscv(ins)
    fmt = OPCODES[ins.opcode][0]
    d = ins.dests
    s = ins.srcs
    if notation == "tac" and ins.opcode in FP_OPCODES:
        notation = "mips"  # '=' and mem[] would read back as integer add and lw
    if notation == "tac":
        opcode = SAME_AS.get(ins.opcode, ins.opcode)
        ins = replace(ins, opcode=opcode)
        if ins.opcode == "nop":
            return "nop"
        if fmt == "rrr":
            return f"{d[0]} = {s[0]} {TAC_SYMBOL[ins.opcode]} {s[1]}"
        if fmt == "rri":
            return f"{d[0]} = {s[0]} {TAC_SYMBOL[ins.opcode]} {ins.imm}"
        if fmt == "ri":
            return f"{d[0]} = {ins.imm}"
        if fmt == "rr":
            return f"{d[0]} = {s[0]}"
        if fmt in ("load", "store"):
            m = ins.mem
            addr = m.base if m.offset == 0 else f"{m.base} {'+' if m.offset > 0 else '-'} "
            addr = addr if m.offset == 0 else addr + str(abs(m.offset))
            if fmt == "load":
                return f"{d[0]} = mem[{addr}]"
            return f"mem[{addr}] = {s[0]}"
        if fmt == "rrl":
            return f"if {s[0]} {BRANCH_SYMBOL[ins.opcode]} {s[1]} goto {ins.target}"  # i18n: as is
        if fmt == "rl":
            op = "==" if ins.opcode == "beqz" else "!="
            return f"if {s[0]} {op} 0 goto {ins.target}"  # i18n: as is
        if fmt == "l":
            return f"goto {ins.target}"
    if fmt == "rrr":
        return f"{ins.opcode} ${d[0]}, ${s[0]}, ${s[1]}"
    if fmt == "rri":
        return f"{ins.opcode} ${d[0]}, ${s[0]}, {ins.imm}"
    if fmt == "ri":
        return f"{ins.opcode} ${d[0]}, {ins.imm}"
    if fmt == "rr":
        return f"{ins.opcode} ${d[0]}, ${s[0]}"
    if fmt == "load":
        return f"{ins.opcode} ${d[0]}, {ins.mem}"
    if fmt == "store":
        return f"{ins.opcode} ${s[0]}, {ins.mem}"
    if fmt == "rrl":
        return f"{ins.opcode} ${s[0]}, ${s[1]}, {ins.target}"
    if fmt == "rl":
        return f"{ins.opcode} ${s[0]}, {ins.target}"
    if fmt == "l":
        return f"{ins.opcode} {ins.target}"
    return ins.opcode


def _name(reg: str) -> str:
    """A register as RISC-V text: a name that is no RISC-V register is virtual (``%v``)."""
    return reg if reg in REGISTERS else f"%{reg}"


def format_riscv(ins) -> str:
    """The instruction in RISC-V syntax (its source text when it has one)."""
    if ins.text:
        return ins.text
    fmt = RISCV_OPCODES.get(ins.opcode, ("",))[0]
    if fmt == "call" and getattr(ins, "symbol", None):
        return f"{ins.opcode} {ins.symbol}"
    if fmt in ("ret", "call", "fence"):
        return ins.opcode
    if fmt in ("csrr", "csrw", "csrrw"):  # the CSR stands where the assembler expects it
        csr = CSR_NAMES.get(ins.imm, ins.imm)
        regs = [_name(r) for r in (*ins.dests, *ins.srcs)]
        if fmt == "csrw":
            return f"{ins.opcode} {csr}, {regs[0]}"
        return f"{ins.opcode} {', '.join([regs[0], str(csr), *regs[1:]])}"
    parts = list(ins.dests) + list(ins.srcs if ins.mem is None else ins.srcs[:-1])
    ops = ", ".join(_name(r) for r in parts)
    symbol = getattr(ins, "symbol", None)  # %lo(sym) and the like, where the number was
    if ins.mem is not None:
        offset = symbol if symbol and not ins.mem.offset else ins.mem.offset
        ops = (ops + ", " if ops else "") + f"{offset}({_name(ins.mem.base)})"
    elif ins.imm is not None or symbol:
        ops = (ops + ", " if ops else "") + str(ins.imm if ins.imm is not None else symbol)
    if ins.target:
        ops = (ops + ", " if ops else "") + ins.target
    return f"{ins.opcode} {ops}".strip()
