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


# -- the real-core presets: per-opcode timings, unit groups, and llvm-mca's issue rules --------


@settings(max_examples=120, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    core=st.sampled_from(["rocket-rv64", "sifive-7-rv64"]),
    rules=st.sampled_from(["lecture", "llvm-mca"]),
    reorder=st.booleans(),
)
def test_real_cores_simulation_equals_order_evaluation(seed, core, rules, reorder):
    """On the per-opcode presets, under either rule set, the simulator and the scheduling core
    (the dependence graph plus the edges llvm-mca's rules add for the order, and llvm-mca's
    choice of pipe) give the same cycle for every instruction, in program order or another."""
    from lecturekit.target import real
    from lecturekit.target.pipeline import evaluate_order

    rng = random.Random(seed)
    m = preset(core).with_options(issue_rules=rules)
    program = parse(real.random_block(seed, rng.randint(1, 30), fp=True), notation="riscv")
    order = None
    if reorder:
        order = random_topological_order(analyze(program, m).to_networkx(), rng)
    ev = evaluate_order(program, m, order)
    verify(ev.graph, ev)
    sim = simulate(program, m, order)
    assert [sim.issue[k] for k in range(len(program))] == ev.start
    assert sim.cycles == ev.length
    sched = sim.to_schedule()
    verify(sched.graph, sched)


def test_write_back_in_issue_order_is_llvm_mcas_rule():
    """mul (4 cycles) then an independent add on Rocket: the lecture's pipeline issues the add
    at once; under llvm-mca's rules it waits until its result is not ready before the mul's."""
    block = parse("mul a0, a1, a2\nadd a3, a4, a5\nadd a6, a3, a3\n", notation="riscv")
    m = preset("rocket-rv64")
    lecture = simulate(block, m)
    llvm = simulate(block, m.with_options(issue_rules="llvm-mca"))
    assert [lecture.issue[k] for k in range(3)] == [1, 2, 3]
    assert [llvm.issue[k] for k in range(3)] == [1, 4, 5]
    assert {s.cause for s in llvm.stalls} == {"write-back"}
    assert all(s.waits_for == 0 for s in llvm.stalls)
    edges = [e for e in llvm.to_schedule().graph.edges if e.kind == "WB"]
    assert [(e.src, e.dst, e.latency) for e in edges] == [(0, 1, 3)]


def test_llvm_rules_let_two_writes_land_together_and_order_no_memory():
    m = preset("rocket-rv64")
    llvm = m.with_options(issue_rules="llvm-mca")
    waw = parse("mul a0, a1, a2\naddi a0, a3, 1\n", notation="riscv")
    assert simulate(waw, m).issue[1] == 5  # lecture: the add's write lands after the mul's
    assert simulate(waw, llvm).issue[1] == 4  # llvm-mca: in the same cycle
    # lbu spends 3 cycles in EX: the lecture's store may not write before the load's last
    # cycle (memory order); llvm-mca orders no memory, but the store may not finish first
    mem = parse("lbu a0, 0(a1)\nsb a2, 0(a1)\nsb a3, 8(a4)\n", notation="riscv")
    assert [(s.cycle, s.cause) for s in simulate(mem, m).stalls] == [(2, "memory")]
    assert [(s.cycle, s.cause) for s in simulate(mem, llvm).stalls] == [(2, "write-back")]
    assert simulate(mem, m).issue == simulate(mem, llvm).issue == {0: 1, 1: 3, 2: 4}


def test_u74_pipe_choice_under_llvm_rules():
    """An ALU op takes pipe B when both are free (llvm-mca's choice), so a multiply right
    after it waits a cycle; the lecture's rules count pipes and pair them."""
    m = preset("sifive-7-rv64")
    llvm = m.with_options(issue_rules="llvm-mca")
    for text, lecture_issue, llvm_issue in [
        ("add a0, a1, a2\nmul a3, a4, a5\n", [1, 1], [1, 2]),
        ("add a0, a1, a2\nld a3, 0(a4)\n", [1, 1], [1, 1]),
        ("mul a3, a4, a5\nadd a0, a1, a2\n", [1, 1], [1, 1]),
        ("ld a3, 0(a4)\nadd a0, a1, a2\nadd a6, a1, a2\nmul a7, a4, a5\n", [1, 1, 2, 2],
         [1, 1, 2, 3]),
        ("fdiv.d fa0, fa1, fa2\nadd a0, a1, a2\nfadd.d fa3, fa4, fa5\n", [1, 1, 57], [1, 54, 57]),
    ]:  # fmt: skip
        block = parse(text, notation="riscv")
        assert [simulate(block, m).issue[k] for k in range(len(block))] == lecture_issue, text
        assert [simulate(block, llvm).issue[k] for k in range(len(block))] == llvm_issue, text
