"""Instructions and a parser for the two notations the lecture uses.

MIPS style (one instruction per line, ``#`` starts a comment)::

    loop:  lw   $t0, 8($s1)      # load word at $s1 + 8
           add  $t2, $t0, $t1
           addi $s1, $s1, 4
           sw   $t2, 0($s2)
           bne  $s1, $s3, loop

Three-address style, as on the slides that analyse dependences::

    t0 = t1 + t2          # add   (also - * / & | ^ <)
    t4 = t1 + 4           # addi  (an integer operand makes the immediate form)
    t5 = t1               # move;  t5 = 7 is li
    t6 = mem[t1 + 8]      # load   (mem[t1] and mem[t1 - 8] too)
    mem[t2 + 4] = t6      # store
    if t1 != t3 goto loop # beq/bne/blt/bge/ble/bgt from == != < >= <= >
    goto done             # j

Registers may be written with or without ``$``; ``$t0`` and ``t0`` are the same register.
``$zero`` (also ``$0``) always reads as zero and never carries a dependence.

Every problem raises :class:`~lecturekit.errors.ParseError` with the line, the column and what
was expected; nothing else escapes :func:`parse`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .errors import ParseError

#: opcode -> (operand format, operation class). The class decides the functional unit and the
#: execute latency on a machine (see :mod:`lecturekit.machine`).
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

_IDENT = r"[A-Za-z_][A-Za-z0-9_.]*"
_REGISTER_RE = re.compile(r"\$?(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+)\Z")
_INT_RE = re.compile(r"[+-]?(?:0[xX][0-9a-fA-F]+|[0-9]+)\Z")
_LABEL_RE = re.compile(rf"\s*({_IDENT})\s*:(?!=)")
_LINE_BREAK_RE = re.compile(r"\r\n|\r|\n")

#: the largest immediate magnitude (a 64-bit word); longer literals are refused before int()
MAX_IMMEDIATE = 2**64 - 1
#: the longest block :func:`parse` reads (instructions); longer blocks are refused up front
MAX_INSTRUCTIONS = 200_000


def split_lines(source: str) -> list[str]:
    """Lines split on ``\\n``, ``\\r\\n`` and ``\\r`` only (not on U+2028, form feed, ... as
    :meth:`str.splitlines` does), so line numbers match an editor's."""
    lines = _LINE_BREAK_RE.split(source)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


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
    removed), ``line`` its 1-based line number.
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

    @property
    def op_class(self) -> str:
        """The operation class (alu, mul, div, load, store, branch, nop; fadd, fmul, fdiv)."""
        if self.notation == "riscv":
            from .riscv import RISCV_OPCODES

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


def format_instruction(ins: Instruction, notation: str | None = None) -> str:
    """Render ``ins`` in MIPS or three-address notation (default: the one it was written in)."""
    notation = notation or ins.notation
    if ins.notation == "riscv":  # RISC-V stays RISC-V (see lecturekit.riscv)
        from .riscv import format_riscv

        return format_riscv(ins)
    fmt = OPCODES[ins.opcode][0]
    d = ins.dests
    s = ins.srcs
    if notation == "tac" and ins.opcode in FP_OPCODES:
        notation = "mips"  # '=' and mem[] would read back as integer add and lw
    if notation == "tac":
        opcode = SAME_AS.get(ins.opcode, ins.opcode)
        ins = Instruction(**{**ins.__dict__, "opcode": opcode})
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
            return f"if {s[0]} {BRANCH_SYMBOL[ins.opcode]} {s[1]} goto {ins.target}"
        if fmt == "rl":
            return f"if {s[0]} {'==' if ins.opcode == 'beqz' else '!='} 0 goto {ins.target}"
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


class _Line:
    """Cursor over one source line, producing ParseErrors that point at a column."""

    def __init__(self, text: str, number: int, full: str):
        self.text = text
        self.pos = 0
        self.number = number
        self.full = full

    def error(self, message: str, pos: int | None = None) -> ParseError:
        col = (self.pos if pos is None else pos) + 1
        return ParseError(message, self.number, col, self.full.rstrip())

    def skip_ws(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in " \t":
            self.pos += 1

    def at_end(self) -> bool:
        self.skip_ws()
        return self.pos >= len(self.text)

    def peek(self, s: str) -> bool:
        self.skip_ws()
        return self.text.startswith(s, self.pos)

    def expect(self, s: str, what: str | None = None) -> None:
        self.skip_ws()
        if not self.text.startswith(s, self.pos):
            raise self.error(f"expected {what or repr(s)}, found {self._found()}")
        self.pos += len(s)

    def _found(self) -> str:
        if self.pos >= len(self.text):
            return "end of line"
        m = re.match(r"\S+", self.text[self.pos :])
        return repr(m.group(0)) if m else repr(self.text[self.pos])

    def token(self, pattern: str) -> tuple[str, int] | None:
        self.skip_ws()
        m = re.compile(pattern).match(self.text, self.pos)
        if not m or not m.group(0):
            return None
        start = self.pos
        self.pos = m.end()
        return m.group(0), start

    def word(self) -> tuple[str, int] | None:
        """A register, integer or name up to the next delimiter."""
        return self.token(r"[^\s,()\[\]=+\-*/&|^<>!#]+|[+-]?[0-9]+")

    def register(self, role: str) -> str:
        self.skip_ws()
        start = self.pos
        tok = self.word()
        if tok is None or not _REGISTER_RE.match(tok[0]) or _INT_RE.match(tok[0]):
            if tok is not None and tok[0].startswith("$") and _INT_RE.match(tok[0][1:]):
                return tok[0][1:]
            self.pos = start
            raise self.error(
                f"expected a register for {role} (like $t0 or t0), found {self._found()}"
            )
        return tok[0].lstrip("$")

    def integer(self, role: str) -> int:
        self.skip_ws()
        start = self.pos
        tok = self.token(r"[+-]?(?:0[xX][0-9a-fA-F]+|[0-9]+)(?![A-Za-z0-9_])")
        if tok is None:
            self.pos = start
            raise self.error(f"expected an integer for {role}, found {self._found()}")
        digits = tok[0].lstrip("+-")
        if len(digits) > 22:  # more than any 64-bit value needs: refuse before converting
            raise self.error(
                f"integer for {role} is too long ({len(digits)} digits); "
                f"immediates are at most {MAX_IMMEDIATE:,}",
                tok[1],
            )
        if len(digits) > 1 and digits[0] == "0" and digits[1] not in "xX":
            raise self.error(
                f"integer {tok[0]!r} for {role} has a leading zero; write it without "
                f"(e.g. {int(digits, 10)}), or use 0x for hexadecimal",
                tok[1],
            )
        value = int(tok[0], 0)
        if abs(value) > MAX_IMMEDIATE:
            raise self.error(
                f"integer for {role} is out of range (at most {MAX_IMMEDIATE:,} in magnitude)",
                tok[1],
            )
        return value

    def label(self) -> str:
        tok = self.token(_IDENT)
        if tok is None:
            raise self.error(f"expected a label name, found {self._found()}")
        return tok[0]

    def operand(self, role: str) -> tuple[str, object]:
        """A register or an integer: returns ('reg', name) or ('imm', value)."""
        self.skip_ws()
        if re.match(r"[+-]?(?:0[xX][0-9a-fA-F]+|[0-9]+)(?![A-Za-z0-9_])", self.text[self.pos :]):
            return "imm", self.integer(role)
        return "reg", self.register(role)

    def end(self) -> None:
        if not self.at_end():
            raise self.error(f"expected end of instruction, found {self._found()}")


def _strip_comment(line: str, number: int = 1) -> str:
    for marker in ("#", "//", ";"):
        i = line.find(marker)
        if i >= 0:
            if marker == "//" and "=" in line[:i]:
                raise ParseError(
                    "'//' is not an operator: for division write '/' "
                    "(after three-address code, comments start with '#' or ';')",
                    number,
                    i + 1,
                    line.rstrip(),
                )
            line = line[:i]
    return line


def parse(source: str, notation: str | None = None) -> Program:
    """Parse a block of code in either notation (mixed line by line is allowed).

    RISC-V assembly as clang prints it is read by :mod:`lecturekit.riscv`, when
    ``notation="riscv"`` or when the text is recognisably RISC-V (see ``looks_like_riscv``).
    Raises :class:`ParseError` naming the line, the column and what was expected.
    """
    if not isinstance(source, str):
        raise ParseError(f"expected program text (a string), got {type(source).__name__}", 1, 1)
    lines = split_lines(source)
    from .riscv import looks_like_riscv, parse_riscv

    if notation == "riscv" or (notation is None and looks_like_riscv(source)):
        return parse_riscv(source)
    instructions: list[Instruction] = []
    labels: dict[str, int] = {}
    pending: list[str] = []
    label_pos: dict[str, tuple[int, int]] = {}
    for number, full in enumerate(lines, start=1):
        body = _strip_comment(full, number)
        cur = _Line(body, number, full)
        while True:
            m = _LABEL_RE.match(body, cur.pos)
            if not m:
                break
            name = m.group(1)
            if name in labels or name in pending:
                raise cur.error(f"label {name!r} is defined twice", m.start(1))
            pending.append(name)
            label_pos[name] = (number, m.start(1) + 1)
            cur.pos = m.end()
        if cur.at_end():
            continue
        ins = _parse_instruction(cur)
        ins = Instruction(**{**ins.__dict__, "labels": tuple(pending), "line": number})
        for name in pending:
            labels[name] = len(instructions)
        pending = []
        instructions.append(ins)
        if len(instructions) > MAX_INSTRUCTIONS:
            raise ParseError(
                f"block too long: more than {MAX_INSTRUCTIONS:,} instructions", number, 1
            )
    for name in pending:  # labels at the very end point past the last instruction
        labels[name] = len(instructions)
    for ins in instructions:
        if ins.target is not None and ins.target not in labels:
            text = lines[ins.line - 1]
            col = text.find(ins.target) + 1 or 1
            raise ParseError(f"branch to undefined label {ins.target!r}", ins.line, col, text)
    return Program(instructions, labels, source)


def parse_instruction(text: str) -> Instruction:
    """Parse exactly one instruction (no label); convenient in notebooks and tests."""
    prog = parse(text)
    if len(prog) != 1:
        raise ParseError(f"expected exactly one instruction, found {len(prog)}", 1, 1, text)
    return prog[0]


def _parse_instruction(cur: _Line) -> Instruction:
    rest = cur.text[cur.pos :]
    text = rest.strip()
    if re.search(r"(?<![=!<>])=(?!=)", rest) or re.match(r"\s*(if|goto)\b", rest):
        ins = _parse_tac(cur)
    else:
        ins = _parse_mips(cur)
    cur.end()
    return Instruction(**{**ins.__dict__, "text": text})


def _parse_mips(cur: _Line) -> Instruction:
    tok = cur.token(r"[A-Za-z][A-Za-z0-9.]*")
    if tok is None:
        raise cur.error(f"expected an opcode (like add, lw, beq), found {cur._found()}")
    opcode, at = tok[0].lower(), tok[1]
    if opcode not in OPCODES:
        known = ", ".join(sorted(OPCODES))
        raise cur.error(f"unknown opcode {tok[0]!r}; known opcodes: {known}", at)
    fmt = OPCODES[opcode][0]

    def comma():
        cur.expect(",", "','")

    if fmt == "rrr":
        d = cur.register("the destination")
        comma()
        a = cur.register("the first source")
        comma()
        cur.skip_ws()
        at_b = cur.pos
        kind, b = cur.operand("the second source")
        if kind == "imm":
            imm_op = {"add": "addi", "sub": "subi", "mul": "muli", "div": "divi"}.get(opcode)
            if imm_op is None:
                raise cur.error(f"{opcode} takes a register as its second source, not {b}", at_b)
            return Instruction(imm_op, (d,), (a,), imm=b)
        return Instruction(opcode, (d,), (a, b))
    if fmt == "rri":
        d = cur.register("the destination")
        comma()
        a = cur.register("the source")
        comma()
        imm = cur.integer("the immediate")
        return Instruction(opcode, (d,), (a,), imm=imm)
    if fmt == "ri":
        d = cur.register("the destination")
        comma()
        return Instruction(opcode, (d,), (), imm=cur.integer("the immediate"))
    if fmt == "rr":
        d = cur.register("the destination")
        comma()
        return Instruction(opcode, (d,), (cur.register("the source"),))
    if fmt in ("load", "store"):
        r = cur.register("the loaded register" if fmt == "load" else "the stored register")
        comma()
        cur.skip_ws()
        offset = 0
        if not cur.peek("("):
            offset = cur.integer("the offset of offset($base)")
        cur.expect("(", "'(' of offset($base)")
        base = cur.register("the base of offset($base)")
        cur.expect(")", "')' closing offset($base)")
        mem = MemRef(base, offset)
        if fmt == "load":
            return Instruction(opcode, (r,), (base,), mem=mem)
        return Instruction(opcode, (), (r, base), mem=mem)
    if fmt == "rrl":
        a = cur.register("the first compared register")
        comma()
        b = cur.register("the second compared register")
        comma()
        return Instruction(opcode, (), (a, b), target=cur.label())
    if fmt == "rl":
        a = cur.register("the tested register")
        comma()
        return Instruction(opcode, (), (a,), target=cur.label())
    if fmt == "l":
        return Instruction(opcode, target=cur.label())
    return Instruction(opcode)


def _parse_address(cur: _Line) -> MemRef:
    cur.expect("mem[", "'mem['")
    base = cur.register("the base address register")
    offset = 0
    if cur.peek("+") or cur.peek("-"):
        sign = -1 if cur.peek("-") else 1
        cur.pos += 1
        offset = sign * cur.integer("the address offset")
    cur.expect("]", "']' closing the address")
    return MemRef(base, offset)


def _parse_tac(cur: _Line) -> Instruction:
    cur.skip_ws()
    if cur.peek("goto"):
        cur.pos += 4
        return Instruction("j", target=cur.label(), notation="tac")
    if re.match(r"if\b", cur.text[cur.pos :]):
        cur.pos += 2
        a = cur.register("the first compared register")
        cur.skip_ws()
        op = cur.token(r"==|!=|<=|>=|<|>")
        if op is None:
            raise cur.error(f"expected a comparison (== != < >= <= >), found {cur._found()}")
        kind, b = cur.operand("the second compared operand")
        cur.skip_ws()
        if not re.match(r"goto\b", cur.text[cur.pos :]):
            raise cur.error(f"expected 'goto', found {cur._found()}")
        cur.pos += 4
        target = cur.label()
        if kind == "imm":
            if b != 0 or op[0] not in ("==", "!="):
                raise cur.error("a branch compares two registers (or a register with 0)", op[1])
            return Instruction(
                "beqz" if op[0] == "==" else "bnez", (), (a,), target=target, notation="tac"
            )
        return Instruction(TAC_BRANCHES[op[0]], (), (a, b), target=target, notation="tac")
    if cur.peek("mem["):
        mem = _parse_address(cur)
        cur.expect("=", "'='")
        value = cur.register("the stored register")
        return Instruction("sw", (), (value, mem.base), mem=mem, notation="tac")
    dest = cur.register("the destination")
    cur.expect("=", "'=' after the destination")
    if cur.peek("mem["):
        mem = _parse_address(cur)
        return Instruction("lw", (dest,), (mem.base,), mem=mem, notation="tac")
    kind1, a = cur.operand("the first operand")
    if cur.at_end():
        if kind1 == "imm":
            return Instruction("li", (dest,), (), imm=a, notation="tac")
        return Instruction("move", (dest,), (a,), notation="tac")
    cur.skip_ws()
    op = cur.token(r"[-+*/&|^<]")
    if op is None:
        raise cur.error(
            f"expected an operator (+ - * / & | ^ <) or end of line, found {cur._found()}"
        )
    kind2, b = cur.operand("the second operand")
    reg_op, imm_op = TAC_OPERATORS[op[0]]
    if kind1 == "reg" and kind2 == "reg":
        return Instruction(reg_op, (dest,), (a, b), notation="tac")
    if kind1 == "reg" and kind2 == "imm":
        return Instruction(imm_op, (dest,), (a,), imm=b, notation="tac")
    if kind1 == "imm" and kind2 == "reg" and op[0] in "+*&|^":
        return Instruction(imm_op, (dest,), (b,), imm=a, notation="tac")
    raise cur.error(
        "at least one operand must be a register (and a constant may only be "
        "the second operand of - / <)",
        op[1],
    )
