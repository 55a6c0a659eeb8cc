"""The parser of the two notations the lecture uses.

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
was expected; nothing else escapes :func:`parse_lecture`. :func:`lecturekit.asm.parse` reads
either notation, and RISC-V (:mod:`lecturekit.asm.riscv`).
"""

from __future__ import annotations

import re

from ..errors import ParseError
from ..language import N_, _
from .cursor import IDENT, LineCursor, split_lines
from .instruction import Instruction, MemRef, Program
from .opcodes import OPCODES, TAC_BRANCHES, TAC_OPERATORS

_LABEL_RE = re.compile(rf"\s*({IDENT})\s*:(?!=)")
#: the longest block :func:`parse_lecture` reads (instructions); longer blocks are refused up front
MAX_INSTRUCTIONS = 200_000


def _strip_comment(line: str, number: int = 1) -> str:
    for marker in ("#", "//", ";"):
        i = line.find(marker)
        if i >= 0:
            if marker == "//" and "=" in line[:i]:
                raise ParseError(
                    _(
                        "'//' is not an operator: for division write '/' "
                        "(after three-address code, comments start with '#' or ';')"
                    ),
                    number,
                    i + 1,
                    line.rstrip(),
                )
            line = line[:i]
    return line


def parse_lecture(source: str) -> Program:
    """Parse a block in the lecture's notation, MIPS style or three-address code (mixed line
    by line is allowed). Raises :class:`ParseError` naming the line, the column and what was
    expected."""
    lines = split_lines(source)
    instructions: list[Instruction] = []
    labels: dict[str, int] = {}
    pending: list[str] = []
    label_pos: dict[str, tuple[int, int]] = {}
    for number, full in enumerate(lines, start=1):
        body = _strip_comment(full, number)
        cur = LineCursor(body, number, full)
        while True:
            m = _LABEL_RE.match(body, cur.pos)
            if not m:
                break
            name = m.group(1)
            if name in labels or name in pending:
                raise cur.error(_("label {name!r} is defined twice").format(name=name), m.start(1))
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
                _("block too long: more than {max_instructions:,} instructions").format(
                    max_instructions=MAX_INSTRUCTIONS
                ),
                number,
                1,
            )
    for name in pending:  # labels at the very end point past the last instruction
        labels[name] = len(instructions)
    for ins in instructions:
        if ins.target is not None and ins.target not in labels:
            text = lines[ins.line - 1]
            col = text.find(ins.target) + 1 or 1
            raise ParseError(
                _("branch to undefined label {target!r}").format(target=ins.target),
                ins.line,
                col,
                text,
            )
    return Program(instructions, labels, source)


def _parse_instruction(cur: LineCursor) -> Instruction:
    rest = cur.text[cur.pos :]
    text = rest.strip()
    if re.search(r"(?<![=!<>])=(?!=)", rest) or re.match(r"\s*(if|goto)\b", rest):
        ins = _parse_tac(cur)
    else:
        ins = _parse_mips(cur)
    cur.end()
    return Instruction(**{**ins.__dict__, "text": text})


def _parse_mips(cur: LineCursor) -> Instruction:
    tok = cur.token(r"[A-Za-z][A-Za-z0-9.]*")
    if tok is None:
        raise cur.error(
            _("expected an opcode (like add, lw, beq), found {found}").format(found=cur._found())
        )
    opcode, at = tok[0].lower(), tok[1]
    if opcode not in OPCODES:
        known = ", ".join(sorted(OPCODES))
        raise cur.error(
            _("unknown opcode {tok!r}; known opcodes: {known}").format(tok=tok[0], known=known), at
        )
    fmt = OPCODES[opcode][0]

    def comma():
        cur.expect(",", "','")

    if fmt == "rrr":
        d = cur.register(N_("the destination"))
        comma()
        a = cur.register(N_("the first source"))
        comma()
        cur.skip_ws()
        at_b = cur.pos
        kind, b = cur.operand(N_("the second source"))
        if kind == "imm":
            imm_op = {"add": "addi", "sub": "subi", "mul": "muli", "div": "divi"}.get(opcode)
            if imm_op is None:
                raise cur.error(
                    _("{opcode} takes a register as its second source, not {b}").format(
                        opcode=opcode, b=b
                    ),
                    at_b,
                )
            return Instruction(imm_op, (d,), (a,), imm=b)
        return Instruction(opcode, (d,), (a, b))
    if fmt == "rri":
        d = cur.register(N_("the destination"))
        comma()
        a = cur.register(N_("the source"))
        comma()
        imm = cur.integer(N_("the immediate"))
        return Instruction(opcode, (d,), (a,), imm=imm)
    if fmt == "ri":
        d = cur.register(N_("the destination"))
        comma()
        return Instruction(opcode, (d,), (), imm=cur.integer(N_("the immediate")))
    if fmt == "rr":
        d = cur.register(N_("the destination"))
        comma()
        return Instruction(opcode, (d,), (cur.register(N_("the source")),))
    if fmt in ("load", "store"):
        r = cur.register(N_("the loaded register") if fmt == "load" else N_("the stored register"))
        comma()
        cur.skip_ws()
        offset = 0
        if not cur.peek("("):
            offset = cur.integer(N_("the offset of offset($base)"))
        cur.expect("(", N_("'(' of offset($base)"))
        base = cur.register(N_("the base of offset($base)"))
        cur.expect(")", N_("')' closing offset($base)"))
        mem = MemRef(base, offset)
        if fmt == "load":
            return Instruction(opcode, (r,), (base,), mem=mem)
        return Instruction(opcode, (), (r, base), mem=mem)
    if fmt == "rrl":
        a = cur.register(N_("the first compared register"))
        comma()
        b = cur.register(N_("the second compared register"))
        comma()
        return Instruction(opcode, (), (a, b), target=cur.label())
    if fmt == "rl":
        a = cur.register(N_("the tested register"))
        comma()
        return Instruction(opcode, (), (a,), target=cur.label())
    if fmt == "l":
        return Instruction(opcode, target=cur.label())
    return Instruction(opcode)


def _parse_address(cur: LineCursor) -> MemRef:
    cur.expect("mem[", "'mem['")
    base = cur.register(N_("the base address register"))
    offset = 0
    if cur.peek("+") or cur.peek("-"):
        sign = -1 if cur.peek("-") else 1
        cur.pos += 1
        offset = sign * cur.integer(N_("the address offset"))
    cur.expect("]", N_("']' closing the address"))
    return MemRef(base, offset)


def _parse_tac(cur: LineCursor) -> Instruction:
    cur.skip_ws()
    if cur.peek("goto"):
        cur.pos += 4
        return Instruction("j", target=cur.label(), notation="tac")
    if re.match(r"if\b", cur.text[cur.pos :]):
        cur.pos += 2
        a = cur.register(N_("the first compared register"))
        cur.skip_ws()
        op = cur.token(r"==|!=|<=|>=|<|>")
        if op is None:
            raise cur.error(
                _("expected a comparison (== != < >= <= >), found {found}").format(
                    found=cur._found()
                )
            )
        kind, b = cur.operand(N_("the second compared operand"))
        cur.skip_ws()
        if not re.match(r"goto\b", cur.text[cur.pos :]):
            raise cur.error(_("expected 'goto', found {found}").format(found=cur._found()))
        cur.pos += 4
        target = cur.label()
        if kind == "imm":
            if b != 0 or op[0] not in ("==", "!="):
                raise cur.error(_("a branch compares two registers (or a register with 0)"), op[1])
            return Instruction(
                "beqz" if op[0] == "==" else "bnez", (), (a,), target=target, notation="tac"
            )
        return Instruction(TAC_BRANCHES[op[0]], (), (a, b), target=target, notation="tac")
    if cur.peek("mem["):
        mem = _parse_address(cur)
        cur.expect("=", "'='")
        value = cur.register(N_("the stored register"))
        return Instruction("sw", (), (value, mem.base), mem=mem, notation="tac")
    dest = cur.register(N_("the destination"))
    cur.expect("=", N_("'=' after the destination"))
    if cur.peek("mem["):
        mem = _parse_address(cur)
        return Instruction("lw", (dest,), (mem.base,), mem=mem, notation="tac")
    kind1, a = cur.operand(N_("the first operand"))
    if cur.at_end():
        if kind1 == "imm":
            return Instruction("li", (dest,), (), imm=a, notation="tac")
        return Instruction("move", (dest,), (a,), notation="tac")
    cur.skip_ws()
    op = cur.token(r"[-+*/&|^<]")
    if op is None:
        raise cur.error(
            _("expected an operator (+ - * / & | ^ <) or end of line, found {found}").format(
                found=cur._found()
            )
        )
    kind2, b = cur.operand(N_("the second operand"))
    reg_op, imm_op = TAC_OPERATORS[op[0]]
    if kind1 == "reg" and kind2 == "reg":
        return Instruction(reg_op, (dest,), (a, b), notation="tac")
    if kind1 == "reg" and kind2 == "imm":
        return Instruction(imm_op, (dest,), (a,), imm=b, notation="tac")
    if kind1 == "imm" and kind2 == "reg" and op[0] in "+*&|^":
        return Instruction(imm_op, (dest,), (b,), imm=a, notation="tac")
    raise cur.error(
        _(
            "at least one operand must be a register (and a constant may only be "
            "the second operand of - / <)"
        ),
        op[1],
    )
