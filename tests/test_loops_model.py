"""The loop model: induction variables, trip counts, dependences with iteration distances."""

import pytest

from lecturekit.errors import LectureKitError, ParseError
from lecturekit.loops.interp import run
from lecturekit.loops.model import (
    LOOP_SHAPE,
    Address,
    TripCount,
    analyze_loop,
    dependence_table,
    expand,
    siv_distance,
)

SAXPY = """loop: lw $t0, 0($s1)
mul $t1, $t0, $s0
lw $t2, 0($s2)
add $t2, $t2, $t1
sw $t2, 0($s2)
addi $s1, $s1, 4
addi $s2, $s2, 4
bne $s1, $s3, loop
"""


def edges(loop, renamed=False):
    return {
        (e.src + 1, e.dst + 1, e.kind, e.on, e.latency, e.distance)
        for e in loop.graph(renamed=renamed).edges
    }


def test_lecture_loop_inductions_trip_and_addresses():
    loop = analyze_loop(SAXPY, "lecture")
    assert {r: (i.step, i.position) for r, i in loop.inductions.items()} == {
        "s1": (4, 5),
        "s2": (4, 6),
    }
    assert loop.trip == TripCount("s1", 4, "s3", "ne")
    assert loop.trip.count(0x1000, 0x1000 + 4 * 17) == 17
    assert loop.addresses[0] == Address("induction", "s1", 4, 0)
    assert loop.addresses[4] == Address("induction", "s2", 4, 0)
    assert loop.invariants() == ["s0", "s3"]
    assert len(loop) == 8 and loop.branch == 7 and loop.pre == [] and loop.post == []


def test_lecture_loop_carried_register_dependences():
    e = edges(analyze_loop(SAXPY, "lecture"))
    # a use before the def in the body reads the previous iteration's value
    assert (6, 1, "RAW", "s1", 3, 1) in e
    assert (7, 3, "RAW", "s2", 3, 1) in e and (7, 5, "RAW", "s2", 3, 1) in e
    assert (6, 6, "RAW", "s1", 3, 1) in e  # the pointer's own recurrence
    assert (8, 6, "WAR", "s1", 0, 1) in e  # the branch reads s1 before the next addi
    assert (4, 3, "WAW", "t2", 1, 1) in e and (5, 3, "WAR", "t2", 0, 1) in e
    # within the iteration, as for a basic block
    assert (1, 2, "RAW", "t0", 3, 0) in e and (2, 4, "RAW", "t1", 5, 0) in e
    assert (3, 5, "WAR", "mem 0($s2)", 0, 0) in e
    # the branch stays last; nothing leaves it towards the next iteration
    assert all(e.src != 7 or e.dst == 5 for e in analyze_loop(SAXPY).edges)


def test_renamed_graph_keeps_true_and_memory_dependences_only():
    loop = analyze_loop(SAXPY, "lecture")
    kinds = {(e.kind, e.on.startswith("mem")) for e in loop.graph(renamed=True).edges}
    assert ("WAR", False) not in kinds and ("WAW", False) not in kinds
    assert ("WAR", True) in kinds and ("RAW", False) in kinds
    assert len(loop.graph(renamed=False).edges) == len(loop.edges)
    kept = {(e.src + 1, e.dst + 1, e.kind, e.distance) for e in loop.graph(keep_war=True).edges}
    assert (1, 6, "WAR", 0) in kept and (8, 6, "WAR", 1) not in kept
    assert not any(e.kind == "WAW" and not e.on.startswith("mem")
                   for e in loop.graph(keep_war=True).edges)  # fmt: skip


def test_restrict_off_makes_different_arrays_depend():
    strict = edges(analyze_loop(SAXPY, restrict=True))
    loose = edges(analyze_loop(SAXPY, restrict=False))
    assert not any(x[3] == "mem 0($s1)~0($s2)" for x in strict)
    assert (1, 5, "WAR", "mem 0($s1)~0($s2)", 0, 0) in loose
    assert (5, 1, "RAW", "mem 0($s2)~0($s1)", 1, 1) in loose  # next iteration's load


def mem_edges(src, **kw):
    return {
        (e.src + 1, e.dst + 1, e.kind, e.distance)
        for e in analyze_loop(src, **kw).edges
        if e.on.startswith("mem")
    }


def test_siv_recurrence_through_memory():
    # a[i] = a[i-1] * x: the store of one iteration is loaded by the next
    src = (
        "loop: lw $t0, -4($s1)\n"
        "mul $t1, $t0, $s0\n"
        "sw $t1, 0($s1)\n"
        "addi $s1, $s1, 4\n"
        "bne $s1, $s3, loop"
    )
    assert mem_edges(src) == {(3, 1, "RAW", 1)}


def test_siv_direction_and_distance():
    # load a[i+2] then store a[i]: the store two iterations later overwrites what was loaded
    src = "loop: lw $t0, 8($s1)\nsw $t0, 0($s1)\naddi $s1, $s1, 4\nbne $s1, $s3, loop"
    assert mem_edges(src) == {(1, 2, "WAR", 2)}
    # with a negative stride the direction flips
    src = "loop: lw $t0, 8($s1)\nsw $t0, 0($s1)\naddi $s1, $s1, -4\nbne $s1, $s3, loop"
    assert mem_edges(src) == {(2, 1, "RAW", 2)}
    # stride 8 and offsets 4 apart: never the same word
    src = "loop: lw $t0, 4($s1)\nsw $t0, 0($s1)\naddi $s1, $s1, 8\nbne $s1, $s3, loop"
    assert mem_edges(src) == set()
    assert siv_distance(Address("induction", "s1", 4, 0), Address("induction", "s1", 4, -8)) == 2


def test_access_after_the_pointer_update_is_offset_by_the_step():
    # sw -4($s1) after addi $s1 is the word lw 0($s1) read in the same iteration
    src = "loop: lw $t0, 0($s1)\naddi $s1, $s1, 4\nsw $t0, -4($s1)\nbne $s1, $s3, loop"
    loop = analyze_loop(src)
    assert loop.addresses[2] == Address("induction", "s1", 4, 0)
    assert mem_edges(src) == {(1, 3, "WAR", 0)}


def test_invariant_and_unknown_addresses_are_conservative():
    src = (
        "loop: lw $t0, 0($s5)\n"
        "addi $t0, $t0, 1\n"
        "sw $t0, 0($s5)\n"
        "addi $s1, $s1, 4\n"
        "bne $s1, $s3, loop"
    )
    assert mem_edges(src) == {(1, 3, "WAR", 0), (3, 1, "RAW", 1), (3, 3, "WAW", 1)}
    src = (
        "loop: lw $t1, 0($s1)\nlw $t2, 0($t1)\nsw $t2, 4($s1)\naddi $s1, $s1, 4\nbne $s1, $s3, loop"
    )
    loop = analyze_loop(src)
    assert loop.addresses[1].kind == "unknown"
    assert {(2, 3, "WAR", 0), (3, 2, "RAW", 1)} <= mem_edges(src)
    assert loop.notes and "computed in the loop" in loop.notes[0]


def test_register_recurrence_running_sum():
    src = "loop: lw $t0, 0($s1)\nadd $s4, $s4, $t0\naddi $s1, $s1, 4\nbne $s1, $s3, loop"
    e = edges(analyze_loop(src, "lecture"))
    assert (2, 2, "RAW", "s4", 3, 1) in e
    assert "s4" not in analyze_loop(src).inductions  # updated by add, not addi of a constant


@pytest.mark.parametrize(
    "branch, test, step",
    [
        ("bne $s1, $s3, loop", "ne", 4),
        ("bne $s3, $s1, loop", "ne", 4),
        ("blt $s1, $s3, loop", "lt", 4),
        ("bgt $s3, $s1, loop", "lt", 4),
        ("ble $s1, $s3, loop", "le", 4),
    ],
)
def test_exit_tests(branch, test, step):
    loop = analyze_loop(f"loop: lw $t0, 0($s1)\naddi $s1, $s1, {step}\n{branch}")
    assert loop.trip.test == test and loop.trip.induction == "s1" and loop.trip.bound == "s3"


def test_count_down_exit_test():
    loop = analyze_loop("loop: lw $t0, 0($s1)\naddi $s1, $s1, 4\naddi $t9, $t9, -1\nbnez $t9, loop")
    assert loop.trip == TripCount("t9", -1, "zero", "ne")
    assert loop.trip.count(5, 0) == 5


def test_trip_count_formulas_match_simulation():
    for test in ("ne", "lt", "le", "gt", "ge"):
        for step in (1, 2, 3, 4, -1, -2, -4):
            if (test in ("lt", "le") and step < 0) or (test in ("gt", "ge") and step > 0):
                continue
            trip = TripCount("i", step, "b", test)
            code = "\n".join(trip.code("n", "t", "ok"))
            for start in range(-6, 7):
                for bound in range(-6, 7):
                    i, n = start, 0
                    while n <= 100:
                        i, n = i + step, n + 1
                        if not {"ne": i != bound, "lt": i < bound, "le": i <= bound,
                                "gt": i > bound, "ge": i >= bound}[test]:  # fmt: skip
                            break
                    truth = n if n <= 100 else None
                    assert trip.count(start, bound) == truth, (test, step, start, bound)
                    if truth is not None:
                        assert run(code, {"i": start, "b": bound}).regs["n"] == truth


def test_uncountable_loops_are_modelled_but_say_why():
    loop = analyze_loop("loop: lw $t0, 0($s1)\naddi $s1, $s1, 4\nbne $t0, $zero, loop")
    assert loop.trip is None and "induction variable" in loop.trip_problem
    loop = analyze_loop("loop: lw $t0, 0($s1)\naddi $s1, $s1, -4\nblt $s1, $s3, loop")
    assert loop.trip is None and "never ends" in loop.trip_problem
    loop = analyze_loop("loop: lw $t0, 0($s1)\naddi $s1, $s1, 4\nbeq $s1, $s3, loop")
    assert loop.trip is None and "beq" in loop.trip_problem


@pytest.mark.parametrize(
    "src, where, message",
    [
        ("add $t0, $t1, $t2\nsub $t3, $t0, $t1", 2, LOOP_SHAPE),
        ("", 1, LOOP_SHAPE),
        ("loop: add $t0, $t1, $t2\nbeq $t0, $t1, out\nbne $t0, $t3, loop\nout: nop", 2,
         "one basic block"),
        ("a: add $t0, $t1, $t2\nbne $t0, $t3, a\nb: nop\nbne $t0, $t3, b", 4, "only one loop"),
        ("loop: add $t0, $t1, $t2\nj loop", 2, "must be conditional"),
        ("beq $t0, $t1, mid\nloop: nop\nmid: add $t0, $t1, $t2\nbne $t0, $t3, loop", 1,
         "middle of the loop"),
    ],
)  # fmt: skip
def test_not_a_loop_is_a_parse_error_with_a_line(src, where, message):
    with pytest.raises(ParseError) as info:
        analyze_loop(src)
    assert info.value.line == where and message in str(info.value)


def test_code_before_and_after_the_loop():
    src = (
        "li $s4, 0\n"
        "loop: lw $t0, 0($s1)\n"
        "add $s4, $s4, $t0\n"
        "addi $s1, $s1, 4\n"
        "bne $s1, $s3, loop\n"
        "sw $s4, 0($s5)"
    )
    loop = analyze_loop(src)
    assert [i.opcode for i in loop.pre] == ["li"] and [i.opcode for i in loop.post] == ["sw"]
    assert [i.opcode for i in loop.body] == ["lw", "add", "addi", "bne"]


def test_bad_input_types():
    with pytest.raises(LectureKitError):
        analyze_loop(42)
    with pytest.raises(LectureKitError, match="unknown machine"):
        analyze_loop(SAXPY, "nonesuch")


def test_expand_unrolls_the_graph_in_time():
    loop = analyze_loop(SAXPY, "lecture")
    g = expand(loop, 3)
    assert len(g.ops) == 24 and g.ops[9].name == "I2@2"
    assert all(e.distance == 0 for e in g.edges)
    pairs = {(e.src, e.dst) for e in g.edges}
    assert (5, 8) in pairs  # I6 of iteration 1 -> I1 of iteration 2 (RAW on s1)
    assert (7, 8) in pairs  # the branch precedes the next iteration
    g.check_acyclic()


def test_dependence_table_rows():
    rows = dependence_table(analyze_loop(SAXPY), renamed=True)
    assert {
        "from": "I6",
        "to": "I1",
        "kind": "RAW",
        "on": "s1",
        "latency": 3,
        "distance": 1,
    } in rows
