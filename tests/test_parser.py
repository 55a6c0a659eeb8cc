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


# -- RISC-V as clang and GCC print it (the corpus test reads whole compiler outputs) -----------

from lecturekit.asm.riscv import looks_like_riscv, materialize  # noqa: E402


def test_gcc_forms_parse_with_their_expansions():
    """GCC loads constants from a symbol and compares with sgt; the assembler expands a symbol
    load into auipc + the load, as llvm-mca sees it."""
    p = parse(
        "sgt a4,a5,a7\nfld fa4,.LC0,a5\nld a2,.LC1\nsd a0,sym,t0\nlla a3,.L16\n"
        "frflags a2\nflt.d a4,fa5,fa4\nfsflags a2\n"
    )
    assert all(i.notation == "riscv" for i in p)
    assert [i.opcode for i in p] == [
        "sgt", "auipc", "fld", "auipc", "ld", "auipc", "sd", "auipc", "addi",
        "frflags", "flt.d", "fsflags",
    ]  # fmt: skip
    sgt, auipc, fld = p[0], p[1], p[2]
    assert sgt.dests == ("a4",) and set(sgt.srcs) == {"a5", "a7"}
    assert auipc.dests == ("a5",) and fld.dests == ("fa4",) and fld.mem.base == "a5"
    assert p[4].dests == ("a2",) and p[4].srcs == ("a2",)  # ld a2, .LC1 uses a2 for the address
    assert p[6].srcs == ("a0", "t0") and p[6].mem.size == 8
    assert p[8].srcs == ("a3",) and p[1].line == p[2].line == 2
    assert any("fld fa4,.LC0,a5 is 2 instructions" in note for note in p.notes)
    assert p[9].dests == ("a2",) and p[11].srcs == ("a2",)


@pytest.mark.parametrize(
    "value, expected",
    [
        (5, [("li", 5)]),
        (-2128831035, [("lui", 528842), ("addiw", -571)]),  # FNV's basis as a signed int
        (0x811C9DC5, [("lui", 264421), ("slli", 1), ("addi", -571)]),  # ... as an unsigned
        (16777216, [("lui", 4096)]),
        (16777619, [("lui", 4096), ("addiw", 403)]),
        # llvm-mca 14 prints these sequences for `li a0, VALUE` (see the live test below)
        (0x9E3779B97F4A7C15, [("lui", 1048380), ("addiw", 1775), ("slli", 12), ("addi", 883),
                              ("slli", 16), ("addi", -363), ("slli", 15), ("addi", -1003)]),
        (0xFFFFFFFF, [("li", -1), ("srli", 32)]),
    ],
)  # fmt: skip
def test_li_expands_as_llvm_14(value, expected):
    seq = materialize(value)
    assert [(("li" if k == 0 and op == "addi" else op), imm) for k, (op, imm) in
            enumerate(seq)] == expected  # fmt: skip
    prog = parse(f"li a5, {value}\n", notation="riscv")
    assert len(prog) == len(expected)
    assert prog[0].dests == ("a5",) and all(i.srcs == ("a5",) for i in prog[1:])


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=-(2**63), max_value=2**64 - 1))
def test_li_sequence_computes_the_value(value):
    """Running the expansion gives the constant back (the interpreter's RV64 arithmetic)."""
    from lecturekit.loops.interp import run, wrap64

    prog = parse(f"li a5, {value}\n", notation="riscv")
    assert run(prog).regs["a5"] == wrap64(value)
    assert 1 <= len(prog) <= 8


def test_li_matches_llvm_mca_live():
    """The expansion is LLVM 14's (RISCVMatInt): llvm-mca prints the same instructions."""
    import json
    import random
    import subprocess

    from lecturekit.target import real

    if not real.have("llvm-mca"):
        pytest.skip("llvm-mca not installed")
    rng = random.Random(7)
    values = [rng.getrandbits(64) for _ in range(150)]
    values += [rng.getrandbits(rng.randint(1, 63)) for _ in range(150)]
    values += [(1 << k) - 1 for k in range(1, 64)] + [-(1 << k) for k in range(1, 63)]
    body = "".join(f"li a0, {v}\n" for v in values)
    cmd = [real.find_tool("llvm-mca"), "-mtriple=riscv64", "-mcpu=rocket-rv64", "--json", "-"]
    out = subprocess.run(cmd, input=body, capture_output=True, text=True, check=True).stdout
    theirs = [" ".join(s.split()) for s in json.loads(out)["CodeRegions"][0]["Instructions"]]
    ours = [" ".join(i.text.replace(",", ", ").split()) for i in parse(body, notation="riscv")]
    assert ours == [t.replace(" ,", ",") for t in theirs]


def test_statements_separated_by_semicolons_and_numeric_labels():
    """GCC prints an atomic compare-and-swap as one line of statements with local labels."""
    src = (
        ".L10:\n\tble a1,a0,.L9\n"
        "\tfence iorw,ow;  1: lr.w.aq a4,0(a5); bne a4,a0,1f; sc.w.aq a3,a1,0(a5); "
        "bnez a3,1b; 1:\n\tsubw a3,a4,a0\n.L9:\n\tret\n"
    )
    p = parse(src)
    ops = [i.opcode for i in p]
    assert ops == ["ble", "fence", "lr.w.aq", "bne", "sc.w.aq", "bnez", "subw", "ret"]
    lr, bne, bnez = p[2], p[3], p[5]
    assert p.labels[bnez.target] == 2  # 1b: the lr.w.aq
    assert p.labels[bne.target] == 6  # 1f: the label after the sequence (subw)
    assert lr.is_load and lr.mem.size == 4 and p[4].is_store and p[4].dests == ("a3",)
    assert all(i.line == 3 for i in p[1:6])
    with pytest.raises(ParseError, match="numeric label 2"):
        parse("bnez a3, 2f\n", notation="riscv")


@pytest.mark.parametrize(
    "text",
    [
        "sgt a4,a5,a7\n",  # an opcode MIPS does not have
        "slt a4,a5,a7\nslt a6,a5,a3\n",  # MIPS has slt, but not a4..a7
        "amoadd.w a0, a1, (a2)\n",
        "csrr a0, cycle\n",
        "beq t0, t1, .Lexit\n",  # MIPS refuses a branch to a missing label: RISC-V reads it
    ],
)
def test_unmistakable_riscv_is_never_mips(text):
    p = parse(text)
    assert all(i.notation == "riscv" for i in p)


def test_ambiguous_blocks_stay_mips_and_errors_come_from_the_right_reader():
    assert not looks_like_riscv("add t0, t1, t2\nlw t3, 0(t0)\n")
    assert parse("slt t0, t1, t2\n")[0].notation == "mips"
    with pytest.raises(ParseError) as exc:  # RISC-V with a typo: RISC-V's message
        parse("sgt a4,a5,a7\nfrob a1, a2\n")
    assert "unknown RISC-V opcode 'frob'" in str(exc.value) and exc.value.line == 2
    with pytest.raises(ParseError) as exc:  # MIPS with a typo: the lecture parser's message
        parse("add $t0, $t1, $t2\nfrob $t1\n")
    assert "RISC-V" not in str(exc.value) and exc.value.line == 2
