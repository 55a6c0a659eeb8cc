"""The cycle-by-cycle simulator: every figure of DESIGN.md's table, stall causes, and exact
agreement with order evaluation in the scheduling core on random blocks and orders."""

import random

import pytest
from conftest import FOUR_ADDS, SIX_BLOCK, THREE_ADDS
from hypothesis import given, settings
from hypothesis import strategies as st

from lecturekit.asm import parse
from lecturekit.asm.random_blocks import random_block, random_topological_order
from lecturekit.core import evaluate, verify
from lecturekit.errors import ScheduleError
from lecturekit.target.deps import analyze
from lecturekit.target.machine import preset
from lecturekit.target.pipeline import simulate

DESIGN_FIGURES = [
    ("three independent adds", THREE_ADDS, None, 6),
    ("four adds, program order", FOUR_ADDS, None, 11),
    ("four adds reordered t2,t7,t4,t0", FOUR_ADDS, [0, 2, 1, 3], 8),
    ("six-instruction block, program order", SIX_BLOCK, None, 12),
    ("the slide's topological order t3,t5,t0,t1,t0,t6", SIX_BLOCK, [2, 4, 0, 1, 3, 5], 15),
    ("the scheduled order t0,t3,t6,t1,t5,t0", SIX_BLOCK, [0, 2, 5, 1, 4, 3], 10),
]


@pytest.mark.parametrize("name, block, order, cycles", DESIGN_FIGURES)
def test_design_figures_by_simulation_and_by_evaluation(name, block, order, cycles):
    sim = simulate(block, "lecture", order)
    dg = analyze(block, "lecture")
    ev = evaluate(dg.graph, order or list(range(len(dg.program))))
    verify(dg.graph, ev)
    assert sim.cycles == cycles, name
    assert ev.length == cycles, name
    assert [sim.issue[k] for k in range(len(dg.program))] == ev.start


def test_the_slides_eleven_cycle_table():
    sim = simulate(FOUR_ADDS, "lecture")
    id_column = [row["ID"] for row in sim.stage_table()]
    # as on the slide: I2 sits in ID for cycles 2-4, I4 for cycles 6-8
    assert id_column == [[0], [1], [1], [1], [2], [3], [3], [3], [], [], []]
    assert [row["RW"] for row in sim.stage_table()][-1] == [3]
    assert [(s.cycle, s.index, s.cause, s.on, s.waits_for) for s in sim.stalls] == [
        (3, 1, "RAW", "t2", 0),
        (4, 1, "RAW", "t2", 0),
        (7, 3, "RAW", "t7", 2),
        (8, 3, "RAW", "t7", 2),
    ]


def test_instruction_view_matches_stage_view():
    sim = simulate(SIX_BLOCK, "lecture")
    table = sim.instruction_table()
    for row_index, k in enumerate(sim.order):
        for c, stage in enumerate(table[row_index], start=1):
            if stage:
                assert k in sim.stage_table()[c - 1][stage]


def test_forwarding_on_and_off():
    off = simulate(FOUR_ADDS, "lecture")
    on = simulate(FOUR_ADDS, preset("lecture").with_options(forwarding=True))
    assert off.cycles == 11 and on.cycles == 7 and on.stalls == []


def test_classic5_load_use_stall():
    use = simulate("lw $t0, 0($s1)\nadd $t1, $t0, $t2\nadd $t3, $t4, $t5", "classic5")
    assert [(s.cause, s.on) for s in use.stalls] == [("RAW", "t0")]
    moved = simulate("lw $t0, 0($s1)\nadd $t1, $t0, $t2\nadd $t3, $t4, $t5", "classic5", [0, 2, 1])
    assert moved.stalls == [] and moved.cycles == use.cycles - 1


def test_structural_stall_behind_a_slow_multiply():
    sim = simulate("mul $t0, $t1, $t2\nadd $t3, $t4, $t5", "lecture")
    assert {s.cause for s in sim.stalls} == {"structural"}
    assert sim.issue[1] - sim.issue[0] == 3  # the ALU is busy for the multiply's 3 cycles


def test_dual_issue_pairs_independent_units():
    sim = simulate("lw $t0, 0($s1)\nadd $t1, $t2, $t3\nmul $t4, $t5, $t6", "dual")
    assert sim.issue[0] == sim.issue[1] == 2 and sim.issue[2] == 3


def test_order_that_breaks_a_dependence_is_refused():
    with pytest.raises(ScheduleError, match="puts I2 before I1"):
        simulate(FOUR_ADDS, "lecture", [1, 0, 2, 3])
    with pytest.raises(ScheduleError, match="each instruction"):
        simulate(FOUR_ADDS, "lecture", [0, 1])


def test_json_schedule_contract():
    d = simulate(FOUR_ADDS, "lecture").to_dict()
    assert d["algorithm"] == "program-order" and d["cycles"] == 11
    assert d["issue"] == [2, 5, 6, 9] and d["finish"] == [4, 7, 8, 11]
    assert set(d["stalls"][0]) == {"cycle", "index", "cause", "on", "waits_for"}


def check_agreement(program, machine, order):
    dg = analyze(program, machine)
    ev = evaluate(dg.graph, order)
    verify(dg.graph, ev)
    sim = simulate(program, machine, order)
    assert [sim.issue[k] for k in range(len(program))] == ev.start
    assert sim.cycles == ev.length
    assert len(sim.stalls) == ev.info["stalls"]
    finish = ev.finish
    assert [sim.finish[k] for k in range(len(program))] == finish


@settings(max_examples=250, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    size=st.integers(1, 14),
    machine=st.sampled_from(["lecture", "classic5", "dual", "example"]),
    forwarding=st.sampled_from([None, True, False]),
)
def test_simulation_equals_order_evaluation(seed, size, machine, forwarding):
    rng = random.Random(seed)
    m = preset(machine) if machine != "example" else None
    if m is None:
        from lecturekit.target.machine import load_machine

        m = load_machine("lecturekit/data/machines/example.toml")
    if forwarding is not None:
        m = m.with_options(forwarding=forwarding)
    program = random_block(rng, size, opcodes=["add", "sub", "mul", "addi", "lw", "sw", "div"])
    if rng.random() < 0.3:  # a branch somewhere in the block
        lines = program.source.splitlines()
        lines.insert(rng.randrange(len(lines) + 1), "bne $t0, $t1, out")
        program = parse("\n".join(lines) + "\nout: nop")
    order = random_topological_order(analyze(program, m).to_networkx(), rng)
    check_agreement(program, m, order)


def test_branch_followed_by_instructions_on_dual():
    src = "add $t0, $t1, $t2\nbne $t3, $t4, out\nlw $t5, 0($s1)\nout: add $t6, $t7, $t8\n"
    check_agreement(parse(src), preset("dual"), [0, 1, 2, 3])
