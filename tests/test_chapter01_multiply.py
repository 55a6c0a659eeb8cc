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
