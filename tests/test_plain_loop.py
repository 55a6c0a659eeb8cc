"""plain_loop and loop_text (lecturekit.grading.plain): a loop as the plain data a graded
function receives, and back to text that parses into the same instructions (problem set 06
relies on both)."""

from lecturekit.grading.plain import loop_text, plain_loop
from lecturekit.loops import analyze_loop
from lecturekit.loops.examples import example
from lecturekit.loops.randloop import random_loop


def fields(loop):
    return [(i.opcode, i.dests, i.srcs, i.imm, i.mem, i.target) for i in loop.body]


def test_saxpy_as_plain_data():
    plain = plain_loop(analyze_loop(example("saxpy_loop")))
    assert plain["label"] == "loop"
    assert plain["inductions"] == {"s1": 4, "s2": 4}
    assert plain["body"][0] == {
        "op": "lw", "dst": ["t0"], "src": [], "mem": ["s1", 0], "imm": None, "target": None
    }  # fmt: skip
    assert plain["body"][4] == {
        "op": "sw", "dst": [], "src": ["t2"], "mem": ["s2", 0], "imm": None, "target": None
    }  # fmt: skip
    assert plain["body"][-1]["target"] == "loop" and plain["body"][-1]["src"] == ["s1", "s3"]


def test_text_round_trip_on_random_loops():
    for seed in range(150):
        loop = analyze_loop(random_loop(seed, size=4 + seed % 9).source)
        again = analyze_loop(loop_text(plain_loop(loop)))
        assert fields(again) == fields(loop), seed
        assert again.inductions == loop.inductions, seed


def test_zero_register_and_renamed_registers():
    source = "loop: lw $t0_1_3, 0($s1)\nsw $zero, 4($s1)\naddi $s1, $s1, -4\nbnez $s1, loop\n"
    plain = plain_loop(analyze_loop(source))
    assert plain["body"][1]["src"] == ["zero"] and plain["body"][0]["dst"] == ["t0_1_3"]
    assert loop_text(plain) == (
        "loop: lw $t0_1_3, 0($s1)\nsw $zero, 4($s1)\naddi $s1, $s1, -4\nbnez $s1, loop\n"
    )
