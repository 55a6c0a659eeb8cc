"""The out-of-order core (lecturekit.target.ooo) and the instruction window it is made of
(lecturekit.core.window): one scheduling loop for the compiler and the hardware.

Checked here: a window that issues in order is exactly evaluate(order) on every machine, and
with one entry the cycle-by-cycle in-order simulator; the out-of-order core is never slower than
the in-order one on fully pipelined units (window at least the issue width, no reorder-buffer
limit) — and can be, with a non-pipelined unit (a block where it is); every schedule passes the
one verifier and the window's own rules; the state the stepper shows; bad input."""

import random

import pytest
from conftest import FOUR_ADDS, SIX_BLOCK
from hypothesis import given, settings
from hypothesis import strategies as st

from lecturekit.asm.random_blocks import random_block
from lecturekit.core import evaluate, verify
from lecturekit.core.list_sched import list_schedule
from lecturekit.core.window import Window, window_violations
from lecturekit.errors import ScheduleError
from lecturekit.target.deps import analyze
from lecturekit.target.ooo import compare_windows, renamed_graph, simulate_ooo, trace_of
from lecturekit.target.pipeline import simulate

OPS = ["add", "sub", "mul", "addi", "lw", "sw", "div"]
PIPELINED_OPS = ["add", "sub", "mul", "addi", "lw", "sw"]  # on dual every unit is pipelined


def block(seed, size=None, opcodes=OPS):
    rng = random.Random(seed)
    return random_block(
        rng, size=size or rng.randrange(1, 13), registers=rng.randrange(2, 8), opcodes=opcodes
    )


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["lecture", "classic5", "dual", "hp-fp"]))
def test_an_in_order_window_is_evaluate_of_the_order(seed, machine):
    g = analyze(block(seed), machine).graph
    n = len(g.ops)
    order = list(range(n))
    s = list_schedule(g, "original", window=Window(order, in_order=True))
    assert s.start == evaluate(g, order).start
    verify(g, s)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["lecture", "classic5", "hp-fp"]))
def test_window_one_width_one_is_the_in_order_pipeline(seed, machine):
    """On a single-issue machine, an out-of-order core with one reservation station, no
    renaming and no branch prediction is the in-order pipeline, cycle for cycle."""
    p = block(seed)
    sim = simulate(p, machine)
    r = simulate_ooo(p, machine, window=1, rename=False, predict=False, memory_order=True)
    assert r.issue == [sim.issue[k] for k in range(len(p))]
    assert r.cycles == sim.cycles
    assert r.write == [
        sim.issue[k] + r.machine.write_offset(r.machine.timing_key(ins)) for k, ins in enumerate(p)
    ]


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 10**6),
    st.sampled_from(["dual", "classic5", "lecture"]),
    st.sampled_from([None, 2, 3, 8]),
)
def test_never_slower_than_in_order_on_pipelined_units(seed, machine, window):
    """With a window at least the issue width, no reorder-buffer limit and units that hold an
    instruction for one cycle, the oldest-first core starts every instruction no later than
    the in-order pipeline: by induction over the program order (the in-order pipeline's
    choice is one the window could make, and older instructions never come later)."""
    ops = PIPELINED_OPS if machine == "dual" else ["add", "sub", "addi", "lw", "sw"]
    p = block(seed, opcodes=ops)
    sim = simulate(p, machine)
    r = simulate_ooo(p, machine, window=window)
    assert all(r.issue[k] <= sim.issue[k] for k in range(len(p)))
    assert r.cycles <= sim.cycles


def test_slower_than_in_order_with_a_non_pipelined_unit():
    """The claim above needs pipelined units: here a younger divide takes dual's
    non-pipelined divider early and an older one waits behind it."""
    p = (
        "div $t2, $t0, $t1\nsub $t2, $t1, $t2\nmul $t0, $t2, $t1\nmul $t0, $t2, $t1\n"
        "div $t3, $t1, $t1\nmul $t3, $t1, $t0\nsub $t0, $t2, $t0\nsw $t0, 0($s0)\n"
    )
    assert simulate(p, "dual").cycles == 26
    assert simulate_ooo(p, "dual", window=4).cycles == 27


@settings(max_examples=50, deadline=None)
@given(
    st.integers(0, 10**6),
    st.sampled_from(["lecture", "dual", "hp-tomasulo"]),
    st.sampled_from([1, 2, 4, None]),
    st.sampled_from([2, 5, None]),
    st.booleans(),
)
def test_every_run_keeps_the_verifier_and_the_window(seed, machine, window, rob, rename):
    p = block(seed)
    r = simulate_ooo(p, machine, window=window, rob=rob, rename=rename)
    verify(r.graph, r.schedule)
    w = Window(r.order, size=window, width=r.width, rob=rob, retire_width=r.width)
    w.dispatch = dict(enumerate(r.dispatch))
    w.retire = dict(enumerate(r.commit))
    assert window_violations(w, r.issue, r.schedule.finish) == []
    n = len(p)
    for c in range(1, r.retired + 1):
        state = r.state(c)
        if window is not None:
            assert len(state["stations"]) <= window
        if rob is not None:
            assert len(state["rob"]) <= rob
        assert [k for k, _ in state["rob"]] == sorted(k for k, _ in state["rob"])
    assert all(r.commit[k] > r.write[k] for k in range(n))
    assert r.commit == sorted(r.commit)


def test_renaming_removes_exactly_the_register_war_and_waw():
    dg = analyze(SIX_BLOCK, "lecture")
    g = renamed_graph(dg)
    removed = [e for e in dg.edges if e not in g.edges]
    assert {e.kind for e in removed} == {"WAR", "WAW"}
    assert all(not e.on.startswith("mem") for e in removed)
    assert {e.kind for e in g.edges} == {"RAW"}


def test_the_lecture_blocks_on_a_growing_window():
    """The six-instruction block on the lecture's machine. In order: program order 12, the
    compiler's schedule 10 (the optimum), the slide's topological order 15. Out of order, any
    window of two or more: program order 11, the slide's order 12 — not 10: the core fetches one
    instruction a cycle, so the last one (t6, independent) enters the window too late, and it
    picks the oldest ready instruction, not the one on the longest path. Fetching two a cycle,
    program order reaches 10, but the slide's order still takes 11 (oldest first)."""
    orders = {
        "program": list(range(6)),
        "scheduled": [0, 2, 5, 1, 4, 3],
        "slide": [2, 4, 0, 1, 3, 5],
    }
    table = compare_windows(SIX_BLOCK, "lecture", windows=(1, 2, 4, None), orders=orders)
    assert {name: row["in-order"] for name, row in table.items()} == {
        "program": 12,
        "scheduled": 10,
        "slide": 15,
    }
    assert table["program"][1] == 12  # one station: in order
    assert table["program"][2] == table["program"][None] == 11
    assert table["slide"][2] == table["slide"][None] == 12
    assert all(table["scheduled"][w] == 10 for w in (1, 2, 4, None))
    wide = compare_windows(SIX_BLOCK, "lecture", windows=(None,), orders=orders, width=2)
    assert (wide["program"][None], wide["slide"][None], wide["scheduled"][None]) == (10, 11, 10)
    # the slides' four adds: 11 in order, 8 reordered by the compiler, 9 by the hardware (the
    # fourth add enters the window in cycle 4, one cycle after the compiler would issue it)
    assert simulate(FOUR_ADDS, "lecture").cycles == 11
    assert simulate_ooo(FOUR_ADDS, "lecture", window=4).cycles == 9


def test_renaming_lets_the_core_overlap_loop_iterations():
    """The running sum: five passes of its body as the core sees them. Renaming overlaps the
    loads of later passes; the recurrence through $s4 stays (one add after the other)."""
    body = "loop: lw $t0, 0($s1)\nadd $s4, $s4, $t0\naddi $s1, $s1, 4\nbne $s1, $s3, loop\n"
    stream = trace_of(body, 5)
    assert len(stream) == 20 and not stream.labels
    renamed = simulate_ooo(stream, "dual", window=16).cycles
    in_order = simulate(stream, "dual").cycles
    assert renamed < in_order
    adds = [k for k, ins in enumerate(stream) if ins.opcode == "add"]
    r = simulate_ooo(stream, "dual", window=16)
    gaps = [r.issue[b] - r.issue[a] for a, b in zip(adds, adds[1:], strict=False)]
    assert min(gaps) >= 1  # the recurrence: never two adds of s4 at once


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"window": 0}, "window"),
        ({"rob": -1}, "rob"),
        ({"width": True}, "width"),
        ({"order": [1, 0, 2, 3, 4, 5]}, "depends on it"),
        ({"order": [0, 1]}, "each instruction index"),
        ({"select": "random"}, "select"),
        ({"memory_order": "maybe"}, "memory_order"),
    ],
)
def test_bad_input_is_a_clear_error(kwargs, words):
    with pytest.raises(ScheduleError, match=words):
        simulate_ooo(SIX_BLOCK, "lecture", **kwargs)


def test_window_options_are_checked():
    with pytest.raises(ScheduleError, match="window size"):
        Window([0], size=0)
    with pytest.raises(ScheduleError, match="lookahead"):
        list_schedule(analyze(SIX_BLOCK).graph, "original", lookahead=2, window=Window([0]))
    with pytest.raises(ScheduleError, match="each operation"):
        list_schedule(analyze(SIX_BLOCK).graph, "original", window=Window([0, 1]))
