"""The interpreter that proves transformed loops right."""

import pytest

from lecturekit.errors import LectureKitError
from lecturekit.loops.interp import ExecutionError, run, same_effect, wrap32


def test_arithmetic_and_immediates():
    r = run(
        "li $t0, 7\nli $t1, -3\nadd $t2, $t0, $t1\nsub $t3, $t0, $t1\nmul $t4, $t0, $t1\n"
        "div $t5, $t0, $t1\ndivi $t6, $t1, 2\nslt $t7, $t1, $t0\nandi $t8, $t0, 3\n"
        "ori $t9, $t0, 8\nxor $s0, $t0, $t0\nmove $s1, $t4\nsubi $s2, $t0, 10\n"
        "t3 = t0 * 2\n"
    )
    assert r.regs == {
        "t0": 7, "t1": -3, "t2": 4, "t3": 14, "t4": -21, "t5": -2, "t6": -1, "t7": 1,
        "t8": 3, "t9": 15, "s0": 0, "s1": -21, "s2": -3,
    }  # fmt: skip


def test_wraps_to_32_bits_and_zero_register():
    r = run("mul $t1, $t0, $t0\naddi $zero, $t0, 5\nadd $t2, $zero, $zero", {"t0": 2**20})
    assert r.regs["t1"] == wrap32(2**40) == 0
    assert "zero" not in r.regs and r.regs["t2"] == 0
    assert wrap32(2**31) == -(2**31)


def test_memory_and_loops():
    src = """li $t0, 0
loop: lw $t1, 0($s1)
      add $t0, $t0, $t1
      sw $t0, 100($s1)
      addi $s1, $s1, 4
      bne $s1, $s3, loop
"""
    mem = {0: 1, 4: 2, 8: 3}
    r = run(src, {"s1": 0, "s3": 12}, mem)
    assert r.regs["t0"] == 6 and r.mem[100] == 1 and r.mem[104] == 3 and r.mem[108] == 6
    assert mem == {0: 1, 4: 2, 8: 3}  # the input is not modified
    assert r.counts[1] == 3 and r.steps == 1 + 3 * 5


def test_branch_forms():
    src = """li $t0, 0
li $t1, 5
a: addi $t0, $t0, 1
blt $t0, $t1, a
bge $t0, $t1, b
li $t9, 99
b: beqz $zero, c
li $t9, 98
c: j d
li $t9, 97
d: if t0 == t1 goto e
li $t9, 96
e: nop
"""
    r = run(src)
    assert r.regs["t0"] == 5 and "t9" not in r.regs


def test_step_limit_raises_instead_of_hanging():
    with pytest.raises(ExecutionError, match="did not finish") as info:
        run("loop: addi $t0, $t0, 1\nbne $t0, $t1, loop", {"t1": -1}, max_steps=1000)
    assert "line 2" in str(info.value) or "line 1" in str(info.value)
    assert isinstance(info.value, LectureKitError)


def test_strict_mode_catches_uninitialised_reads():
    with pytest.raises(ExecutionError, match=r"register \$t5 is read but was never given"):
        run("add $t0, $t5, $t1", {"t1": 1}, strict=True)
    with pytest.raises(ExecutionError, match="loads address 8"):
        run("lw $t0, 8($s1)", {"s1": 0}, {0: 1}, strict=True)
    assert run("add $t0, $t5, $t1", {"t1": 1}).regs["t0"] == 1  # lenient: reads 0


def test_errors_name_the_line():
    with pytest.raises(ExecutionError, match="line 2.*division by zero"):
        run("li $t0, 1\ndiv $t1, $t0, $zero")
    with pytest.raises(ExecutionError, match="max_steps"):
        run("nop", max_steps=0)
    with pytest.raises(ExecutionError, match="integer"):
        run("nop", {"t0": 1.5})


def test_same_effect_compares_memory_and_the_originals_registers():
    a = run("li $t0, 1\nsw $t0, 0($zero)")
    b = run("li $t0, 1\nli $t7, 3\nsw $t0, 0($zero)")
    assert same_effect(a, b) == []  # $t7 is extra in b
    c = run("li $t0, 2\nsw $t0, 0($zero)")
    assert same_effect(a, c) == ["memory[0]: 1 vs 2", "$t0: 1 vs 2"]
