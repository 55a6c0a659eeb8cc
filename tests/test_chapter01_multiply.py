"""Chapter 01: the slide's "4-cycle 乘法 与 1-cycle 移位运算" is an example of a cheaper operation;
the lecture preset keeps a 3-cycle multiply, and the point holds with either."""

from dataclasses import replace

from lecturekit.target.machine import preset
from lecturekit.target.pipeline import simulate

TIMES_TWO = "muli $t1, $t0, 2\nadd  $t2, $t1, $t3"
DOUBLED = "add  $t1, $t0, $t0\nadd  $t2, $t1, $t3"


def test_strength_reduction_pays_with_a_3_or_4_cycle_multiply():
    lecture = preset("lecture")
    assert lecture.timing("mul").execute_cycles == 3
    mul4 = replace(
        lecture, ops={**lecture.ops, "mul": replace(lecture.ops["mul"], execute_cycles=4)}
    )
    assert (simulate(TIMES_TWO, lecture).cycles, simulate(DOUBLED, lecture).cycles) == (9, 7)
    assert (simulate(TIMES_TWO, mul4).cycles, simulate(DOUBLED, mul4).cycles) == (10, 7)


def test_the_lecture_loop_moves_one_cycle_per_iteration_with_a_4_cycle_multiply():
    """Chapter 01 says where the 3-cycle multiply shows: the software-pipelining slide's loop
    C[j] += A * B[j] multiplies, so chapter 07's ResMII/II and chapter 06's unrolling figures
    each grow by one cycle per iteration with the slide's 4-cycle multiply."""
    from lecturekit.loops import modulo_schedule, unroll
    from lecturekit.loops.examples import example

    lecture = preset("lecture")
    mul4 = replace(
        lecture, ops={**lecture.ops, "mul": replace(lecture.ops["mul"], execute_cycles=4)}
    )
    saxpy = example("saxpy_loop")
    three, four = modulo_schedule(saxpy, lecture), modulo_schedule(saxpy, mul4)
    assert (three.res_mii, three.ii) == (10, 10)
    assert (four.res_mii, four.ii) == (11, 11)
    for k in (1, 2, 4, 8):
        a = unroll(saxpy, k, lecture).cycles_per_iteration
        b = unroll(saxpy, k, mul4).cycles_per_iteration
        assert b == a + 1, (k, a, b)
