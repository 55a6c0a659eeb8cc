"""The parser: both notations, labels and branches, and errors that name line and column."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lecturekit.asm import MemRef, format_instruction, parse, parse_instruction
from lecturekit.asm.random_blocks import random_block
from lecturekit.errors import ParseError


def test_mips_forms():
    p = parse(
        """
        loop:  lw   $t0, 8($s1)      # load
               add  $t2, $t0, $t1
               addi $s1, $s1, -4
               sub  $t3, $t2, $t0
               mul  $t4, $t3, $t3
               div  $t5, $t4, $t1
               sw   $t2, 0($s2)
               nop
               bne  $s1, $s3, loop
        """
    )
    assert [i.opcode for i in p] == ["lw", "add", "addi", "sub", "mul", "div", "sw", "nop", "bne"]
    assert p.labels == {"loop": 0}
    lw, add, addi, *_rest, sw, nop, bne = p
    assert lw.dests == ("t0",) and lw.srcs == ("s1",) and lw.mem == MemRef("s1", 8)
    assert add.dests == ("t2",) and add.srcs == ("t0", "t1")
    assert addi.imm == -4
    assert sw.dests == () and set(sw.srcs) == {"t2", "s2"} and sw.is_store
    assert nop.reads() == () and nop.writes() == ()
    assert bne.target == "loop" and bne.is_branch
    assert lw.line == 2 and lw.text == "lw   $t0, 8($s1)"


def test_three_address_forms():
    p = parse(
        "t0 = t1 + t2\nt3 = t1 * t2\nt4 = t1 + 4\nt5 = t1\nt6 = 7\n"
        "t7 = mem[t1 + 8]\nmem[t2 - 4] = t7\nt8 = mem[t3]\nL: if t1 != t3 goto L\ngoto L\n"
    )
    ops = [i.opcode for i in p]
    assert ops == ["add", "mul", "addi", "move", "li", "lw", "sw", "lw", "bne", "j"]
    assert p[2].imm == 4 and p[2].srcs == ("t1",)
    assert p[5].mem == MemRef("t1", 8) and p[6].mem == MemRef("t2", -4) and p[7].mem.offset == 0
    assert all(i.notation == "tac" for i in p)


def test_dollar_is_optional_and_zero_register_is_ignored():
    a = parse_instruction("add $t2, $t0, $t1")
    b = parse_instruction("t2 = t0 + t1")
    assert (a.dests, a.srcs) == (b.dests, b.srcs)
    z = parse_instruction("add $t0, $zero, $t1")
    assert z.reads() == ("t1",)


@pytest.mark.parametrize(
    "text, line, column, words",
    [
        ("add $t2, $t0", 1, 13, "expected ','"),
        ("nop\nfoo $t1", 2, 1, "unknown opcode 'foo'"),
        ("t0 = t1 +", 1, 10, "expected a register"),
        ("lw $t0, 8($s1", 1, 14, "')'"),
        ("beq $t0, $t1, nowhere", 1, 15, "undefined label 'nowhere'"),
        ("add $t2, $t0, $t1 extra", 1, 19, "end of instruction"),
        ("and $t0, $t1, 4", 1, 15, "takes a register"),
        ("x: nop\nx: nop", 2, 1, "defined twice"),
        ("t0 = 4 - t1", 1, 8, "at least one operand must be a register"),
    ],
)
def test_errors_name_line_column_and_expectation(text, line, column, words):
    with pytest.raises(ParseError) as info:
        parse(text)
    err = info.value
    assert (err.line, err.column) == (line, column)
    assert words in str(err)
    assert f"line {line}, column {column}" in str(err)


@pytest.mark.parametrize(
    "text, column, typed, meant",
    [
        ("add $t2，$t0, $t1", 8, "，", ","),  # a Chinese input method's comma
        ("add $t2, $t0，$t1", 13, "，", ","),
        ("t2 = t0 ＋ t1", 9, "＋", "+"),
        ("add\u3000$t2, $t0, $t1", 4, "\u3000", " "),  # the ideographic space
        ("lw $t0, 8（$s1）", 10, "（", "("),
        ("ａｄｄ $t2, $t0, $t1", 1, "ａ", "a"),
        ("addi a0, a1，4", 12, "，", ","),  # RISC-V, as clang prints it
    ],
)
def test_a_full_width_character_is_pointed_at(text, column, typed, meant):
    """Typed with a Chinese input method left in full-width mode: the error's column is the
    full-width character, and the message names it and what to type instead."""
    with pytest.raises(ParseError) as info:
        parse(text)
    err = info.value
    assert (err.line, err.column) == (1, column)
    assert f"{typed!r} here is full-width" in err.message
    assert f"type {meant!r} instead" in err.message


def test_full_width_text_is_not_blamed_for_an_earlier_error():
    with pytest.raises(ParseError) as info:
        parse("adx $t2，$t0, $t1")
    assert info.value.column == 1 and "unknown opcode 'adx'" in info.value.message
    assert "full-width" not in info.value.message


def test_non_string_input_is_a_parse_error():
    with pytest.raises(ParseError):
        parse(None)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=80))
def test_arbitrary_text_raises_only_parse_error(text):
    try:
        parse(text)
    except ParseError:
        pass


TOKENS = "add $t0 t1 , ( ) = + mem[ ] 8 - lw sw goto if != L: L # beq".split() + [" ", "\n"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=20))
def test_token_soup_raises_only_parse_error(tokens):
    try:
        parse(" ".join(tokens))
    except ParseError:
        pass


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("notation", ["mips", "tac"])
def test_format_round_trips(seed, notation):
    p = random_block(seed, size=10, notation=notation)
    for ins in p:
        for target in ("mips", "tac"):
            again = parse_instruction(format_instruction(ins, target))
            assert (again.opcode, again.dests, again.srcs, again.imm, again.mem) == (
                ins.opcode,
                ins.dests,
                ins.srcs,
                ins.imm,
                ins.mem,
            )


def test_hp_opcodes_render_and_read_back():
    from lecturekit.asm import SAME_AS, format_instruction

    src = (
        "l.d $f0, 8($s1)\nadd.d $f4, $f0, $f2\nsub.d $f6, $f4, $f2\nmul.d $f8, $f6, $f4\n"
        "div.d $f10, $f8, $f6\ns.d $f10, 16($s1)\naddu $t0, $t1, $t2\ndaddu $t3, $t0, $t0\n"
        "addiu $t4, $t3, 4\ndaddui $s1, $s1, -8\n"
    )
    prog = parse(src)
    for ins in prog:
        back = parse(format_instruction(ins, "mips"))[0]
        assert (back.opcode, back.dests, back.srcs, back.imm, back.mem) == (
            ins.opcode,
            ins.dests,
            ins.srcs,
            ins.imm,
            ins.mem,
        )
        tac = parse(format_instruction(ins, "tac"))[0]
        # FP stays in MIPS notation (in three-address form it would read back as add or lw);
        # the unsigned/doubleword integer forms read back as the lecture opcode they equal
        assert tac.op_class == ins.op_class
        assert tac.opcode == SAME_AS.get(ins.opcode, ins.opcode)
        assert (tac.dests, tac.srcs, tac.imm, tac.mem) == (ins.dests, ins.srcs, ins.imm, ins.mem)
