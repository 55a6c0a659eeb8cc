"""The opcodes of both notations: each opcode's operand format and operation class.

The operation class (alu, mul, div, load, store, branch, nop; fadd, fmul, fdiv for floating
point) decides the functional unit and the execute latency on a machine (see
:mod:`lecturekit.target.machine`). The lecture's notation (MIPS style and three-address code,
:mod:`lecturekit.asm.lecture`) and RISC-V (:mod:`lecturekit.asm.riscv`) each have a table here,
so that an :class:`~lecturekit.asm.instruction.Instruction` knows its class whichever parser made
it, and neither parser needs the other.
"""

from __future__ import annotations

# -- the lecture's notation (MIPS style, three-address code, and H&P's MIPS64 forms) ----------

#: opcode -> (operand format, operation class). The class decides the functional unit and the
#: execute latency on a machine (see :mod:`lecturekit.target.machine`).
OPCODES: dict[str, tuple[str, str]] = {
    "add": ("rrr", "alu"),
    "sub": ("rrr", "alu"),
    "and": ("rrr", "alu"),
    "or": ("rrr", "alu"),
    "xor": ("rrr", "alu"),
    "slt": ("rrr", "alu"),
    "mul": ("rrr", "mul"),
    "div": ("rrr", "div"),
    "addi": ("rri", "alu"),
    "subi": ("rri", "alu"),
    "andi": ("rri", "alu"),
    "ori": ("rri", "alu"),
    "xori": ("rri", "alu"),
    "slti": ("rri", "alu"),
    "muli": ("rri", "mul"),
    "divi": ("rri", "div"),
    "li": ("ri", "alu"),
    "move": ("rr", "alu"),
    "lw": ("load", "load"),
    "sw": ("store", "store"),
    "beq": ("rrl", "branch"),
    "bne": ("rrl", "branch"),
    "blt": ("rrl", "branch"),
    "bge": ("rrl", "branch"),
    "ble": ("rrl", "branch"),
    "bgt": ("rrl", "branch"),
    "beqz": ("rl", "branch"),
    "bnez": ("rl", "branch"),
    "j": ("l", "branch"),
    "nop": ("", "nop"),
    # MIPS64 as Hennessy & Patterson write it: unsigned/doubleword integer forms (no overflow
    # trap, so the same timing as add/addi) and double-precision floating point on $f0..$f31
    "addu": ("rrr", "alu"),
    "daddu": ("rrr", "alu"),
    "addiu": ("rri", "alu"),
    "daddui": ("rri", "alu"),
    "l.d": ("load", "load"),
    "s.d": ("store", "store"),
    "add.d": ("rrr", "fadd"),
    "sub.d": ("rrr", "fadd"),
    "mul.d": ("rrr", "fmul"),
    "div.d": ("rrr", "fdiv"),
}

#: the H&P integer forms that compute what a lecture opcode computes (the same class and timing);
#: tools that look for an induction-variable update or interpret a block can use this map
SAME_AS: dict[str, str] = {"addu": "add", "daddu": "add", "addiu": "addi", "daddui": "addi"}
#: opcodes with no three-address form (floating point): rendered in MIPS notation
FP_OPCODES = frozenset({"l.d", "s.d", "add.d", "sub.d", "mul.d", "div.d"})

#: three-address operator -> (register form, immediate form)
TAC_OPERATORS: dict[str, tuple[str, str]] = {
    "+": ("add", "addi"),
    "-": ("sub", "subi"),
    "*": ("mul", "muli"),
    "/": ("div", "divi"),
    "&": ("and", "andi"),
    "|": ("or", "ori"),
    "^": ("xor", "xori"),
    "<": ("slt", "slti"),
}
TAC_SYMBOL = {reg: sym for sym, (reg, _imm) in TAC_OPERATORS.items()} | {
    imm: sym for sym, (_reg, imm) in TAC_OPERATORS.items()
}
TAC_BRANCHES = {"==": "beq", "!=": "bne", "<": "blt", ">=": "bge", "<=": "ble", ">": "bgt"}
BRANCH_SYMBOL = {op: sym for sym, op in TAC_BRANCHES.items()}

ZERO_REGISTERS = frozenset({"zero", "0"})

# -- RISC-V (RV64 I, M, F, D and the pseudo-instructions clang prints) -------------------------

_INT_ABI = (
    "zero ra sp gp tp t0 t1 t2 s0 s1 a0 a1 a2 a3 a4 a5 a6 a7 "
    "s2 s3 s4 s5 s6 s7 s8 s9 s10 s11 t3 t4 t5 t6"
).split()
_FP_ABI = (
    "ft0 ft1 ft2 ft3 ft4 ft5 ft6 ft7 fs0 fs1 fa0 fa1 fa2 fa3 fa4 fa5 fa6 fa7 "
    "fs2 fs3 fs4 fs5 fs6 fs7 fs8 fs9 fs10 fs11 ft8 ft9 ft10 ft11"
).split()
#: every accepted register spelling -> its ABI name
REGISTERS: dict[str, str] = (
    {name: name for name in _INT_ABI + _FP_ABI}
    | {f"x{i}": name for i, name in enumerate(_INT_ABI)}
    | {f"f{i}": name for i, name in enumerate(_FP_ABI)}
    | {"fp": "s0"}
)
FP_REGISTERS = frozenset(_FP_ABI)

#: access width in bytes of each load/store
WIDTH = {
    "lb": 1, "lbu": 1, "sb": 1, "lh": 2, "lhu": 2, "sh": 2,
    "lw": 4, "lwu": 4, "sw": 4, "flw": 4, "fsw": 4,
    "ld": 8, "sd": 8, "fld": 8, "fsd": 8,
}  # fmt: skip
for _suffix in ("", ".aq", ".rl", ".aqrl"):
    for _w, _n in (("w", 4), ("d", 8)):
        WIDTH[f"lr.{_w}{_suffix}"] = WIDTH[f"sc.{_w}{_suffix}"] = _n
        for _op in ("swap", "add", "and", "or", "xor", "max", "maxu", "min", "minu"):
            WIDTH[f"amo{_op}.{_w}{_suffix}"] = _n

#: control and status registers by name (the ones compiled code and the FP pseudo-instructions
#: use); any other name is accepted too, without a number
CSR_NUMBERS = {
    "fflags": 0x001, "frm": 0x002, "fcsr": 0x003,
    "cycle": 0xC00, "time": 0xC01, "instret": 0xC02,
    "cycleh": 0xC80, "timeh": 0xC81, "instreth": 0xC82,
    "mstatus": 0x300, "mepc": 0x341, "mcause": 0x342, "mtvec": 0x305,
    "sstatus": 0x100, "sepc": 0x141, "scause": 0x142, "stvec": 0x105, "satp": 0x180,
}  # fmt: skip
CSR_NAMES = {number: name for name, number in CSR_NUMBERS.items()}


def _table() -> dict[str, tuple[str, str]]:  # i18n: not shown (opcode names)
    t: dict[str, tuple[str, str]] = {}

    def add(names: str, fmt: str, cls: str) -> None:
        for name in names.split():
            t[name] = (fmt, cls)

    add("add sub and or xor sll srl sra slt sltu addw subw sllw srlw sraw", "rrr", "alu")
    add("addi andi ori xori slli srli srai slti sltiu addiw slliw srliw sraiw", "rri", "alu")
    add("mul mulh mulhu mulhsu mulw", "rrr", "mul")
    add("div divu rem remu divw divuw remw remuw", "rrr", "div")
    add("li lui auipc la lla", "ri", "alu")
    add("sgt sgtu", "rrr", "alu")  # pseudo: slt/sltu with the sources swapped
    add("mv not neg negw sext.w seqz snez sltz sgtz zext.b", "rr", "alu")
    add("lb lh lw ld lbu lhu lwu flw fld", "load", "load")
    add("sb sh sw sd fsw fsd", "store", "store")
    add("beq bne blt bge bltu bgeu bgt ble bgtu bleu", "rrl", "branch")
    add("beqz bnez blez bgez bltz bgtz", "rl", "branch")
    add("j", "l", "branch")
    add("jal", "jal", "branch")
    add("jr", "r", "branch")
    add("jalr", "jalr", "branch")
    add("ret", "ret", "branch")
    add("call tail", "call", "branch")
    add("nop", "", "nop")
    # barriers keep their place in the block, as a branch does
    add("fence", "fence", "branch")
    add("fence.i fence.tso ecall ebreak unimp", "", "branch")
    # control and status registers (the FP flags and rounding mode, counters)
    add("csrr", "csrr", "alu")
    add("csrw csrs csrc", "csrw", "alu")
    add("csrwi csrsi csrci", "csrwi", "alu")
    add("csrrw csrrs csrrc", "csrrw", "alu")
    add("csrrwi csrrsi csrrci", "csrrwi", "alu")
    add("frflags frrm frcsr rdcycle rdtime rdinstret", "rd", "alu")
    add("fsflags fsrm fscsr", "csrset", "alu")
    add("fsflagsi fsrmi", "csrseti", "alu")
    # the A extension: lr is a load, sc and the AMOs write memory (and a register)
    for suffix in ("", ".aq", ".rl", ".aqrl"):
        for w in ("w", "d"):
            add(f"lr.{w}{suffix}", "lr", "load")
            add(f"sc.{w}{suffix}", "amo", "store")
            for op in ("swap", "add", "and", "or", "xor", "max", "maxu", "min", "minu"):
                add(f"amo{op}.{w}{suffix}", "amo", "store")
    # the lecture's pseudo-instructions, which lecturekit's loop tools emit in the code they
    # generate around a loop (trip counts): not RISC-V, but read so that code parses back
    add("subi", "rri", "alu")
    add("muli", "rri", "mul")
    add("divi", "rri", "div")
    add("move", "rr", "alu")
    for s in ("s", "d"):
        add(f"fadd.{s} fsub.{s} fmin.{s} fmax.{s} fsgnj.{s} fsgnjn.{s} fsgnjx.{s}", "rrr", "fadd")
        add(f"feq.{s} flt.{s} fle.{s}", "rrr", "fadd")
        add(f"fmul.{s}", "rrr", "fmul")
        add(f"fmadd.{s} fmsub.{s} fnmadd.{s} fnmsub.{s}", "rrrr", "fmul")
        add(f"fdiv.{s}", "rrr", "fdiv")
        add(f"fsqrt.{s}", "rr", "fdiv")
        add(f"fmv.{s} fneg.{s} fabs.{s} fclass.{s}", "rr", "fadd")
    add("fmv.x.d fmv.d.x fmv.x.w fmv.w.x fmv.x.s fmv.s.x fcvt.s.d fcvt.d.s", "rr", "fadd")
    for a in ("w", "wu", "l", "lu"):
        for b in ("s", "d"):
            add(f"fcvt.{a}.{b} fcvt.{b}.{a}", "rr", "fadd")
    return t


#: opcode -> (operand format, operation class)
RISCV_OPCODES: dict[str, tuple[str, str]] = _table()
