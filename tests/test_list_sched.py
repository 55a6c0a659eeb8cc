"""List scheduling: the lecture's block step by step, every priority, the reasons a trace gives,
multi-issue with units, and the cross-check with in-order hardware on random blocks."""

import pytest
from conftest import SIX_BLOCK
from hypothesis import example, given, settings
from hypothesis import strategies as st

from lecturekit.asm.random_blocks import random_block
from lecturekit.core import Edge, Graph, Operation, Reservation, evaluate, verify
from lecturekit.core.bounds import lower_bound
from lecturekit.core.list_sched import (
    MORE_PRIORITIES,
    PRIORITIES,
    compare_priorities,
    improved_schedule,
    list_schedule,
    list_schedule_trace,
    ready_frames,
    resolve_priority,
    resource_heights,
    right_justify,
)
from lecturekit.core.optimal import optimal_schedule
from lecturekit.errors import ScheduleError
from lecturekit.language import using
from lecturekit.target.deps import analyze
from lecturekit.target.pipeline import simulate


@pytest.fixture
def six():
    return analyze(SIX_BLOCK, "lecture")


def test_height_priority_reaches_the_lectures_ten_cycles(six):
    s, steps = list_schedule(six, "height", trace=True)
    verify(six.graph, s)
    assert s.length == 10 and s.algorithm == "list:height"
    assert s.order == [0, 2, 5, 1, 4, 3]  # t0, t3, t6, t1, t5, t0 as on the slide
    assert s.start == [2, 5, 3, 8, 6, 4]
    assert s.info["lower_bound"] == 10 and s.info["proven_optimal"]
    assert [st.cycle for st in steps] == list(range(2, 9))
    assert steps[0].ready == [(0, 8), (2, 5), (5, 2)]
    assert steps[0].chosen == [0] and steps[0].reasons[0] == "highest height 8"
    assert (
        "nothing ready: stall" in steps[5].message and "I4 waits until cycle 8" in steps[5].message
    )
    assert s.reasons[3] == "cycle 8: the only ready operation"
    # the same order, issued by in-order hardware
    assert simulate(SIX_BLOCK, "lecture", s.order).cycles == 10


def test_every_named_priority_is_verified(six):
    lengths = compare_priorities(six)
    assert set(lengths) == set(PRIORITIES)
    assert all(v == 10 for v in lengths.values())  # a small block: every heuristic finds it
    for name in PRIORITIES:
        s = list_schedule(six.graph, name)
        verify(six.graph, s)
        assert s.algorithm == f"list:{name}"


def test_priority_values(six):
    g = six.graph
    assert resolve_priority(g, "successors")[1] == [2, 1, 1, 0, 0, 0]
    assert resolve_priority(g, "descendants")[1] == [2, 1, 1, 0, 0, 0]
    assert resolve_priority(g, "original")[1] == [0, -1, -2, -3, -4, -5]
    # heuristic 1: the longest latency to a successor (RAW 3 on the lecture machine; none for t6)
    assert resolve_priority(g, "noninterfering")[1] == [3, 3, 3, 0, 0, 0]
    mixed = analyze("mul $t0, $t1, $t2\nadd $t3, $t0, $t5\nadd $t6, $t4, $t5", "lecture").graph
    assert resolve_priority(mixed, "noninterfering")[1] == [5, 0, 0]  # a multiply's result: 5


NONINTERFERING_BLOCK = """
add $t5, $t6, $t7
mul $t0, $t1, $t2
add $t3, $t0, $t4
"""


def test_noninterfering_issues_the_long_latency_producer_first():
    """Gibbons & Muchnick's reading of heuristic 1: never issue what would interlock now (the
    ready list), and among the ready ones the instruction whose successor would otherwise
    interlock (the multiply, latency 5) goes before one nobody waits for."""
    d = analyze(NONINTERFERING_BLOCK, "lecture")
    s, steps = list_schedule_trace(d, "noninterfering")
    assert s.order == [1, 0, 2]
    assert "longest latency to a successor (5)" in steps[0].reasons[1]
    program = list_schedule(d, "original")
    assert program.order == [0, 1, 2]
    # the independent add hides one cycle of the multiply's latency
    assert s.length == program.length - 1
    assert simulate(d.program, "lecture", s.order).cycles == s.length
    # it never issues an instruction that would interlock: every issue is at its ready cycle
    for st_ in steps:
        for j in st_.chosen:
            assert st_.ready_at[j] <= st_.cycle


def test_ready_frames_reproduce_the_slides_animation(six):
    """升级版的指令调度 (2023 deck): the numbers on the nodes are the forward list scheduler's
    ready cycles, counted from 0, updated after each placement: t1 becomes 3 after t0 is placed,
    t5 4 after t3, the last t0 6 after t1."""
    s, steps = list_schedule_trace(six, "height")
    frames = ready_frames(six, steps)
    labels = ["t0", "t1", "t3", "t0'", "t5", "t6"]  # I1..I6; t0' is the last t0
    seen = [
        ([labels[j] for j in f.placed], f.cycle, {labels[j]: v for j, v in f.numbers.items()})
        for f in frames
    ]
    assert seen[0] == ([], None, dict.fromkeys(labels, 0))
    assert [(p, c) for p, c, _ in seen[1:]] == [
        (["t0"], 0),
        (["t3"], 1),
        (["t6"], 2),
        (["t1"], 3),
        (["t5"], 4),
        (["t0'"], 6),
    ]
    assert seen[1][2]["t1"] == 3  # the slide: t1 = t0 + t1 | 3
    # the slide also writes 3 on the last t0 here, because it draws "+3" on the t0 -> t0 edge;
    # on our machine that edge is a WAW of latency 1
    assert seen[1][2]["t0'"] == 1
    assert seen[2][2]["t5"] == 4  # the slide: 4 | t5 = t3 + t4
    assert seen[4][2]["t0'"] == 6  # after t1 in cycle 3: 3 + 3
    # the slide's last frame: 0 | t3, 4 | t5, 0 | t6, t0 | 0, t1 | 3, 6 | t0
    assert seen[-1][2] == {"t0": 0, "t1": 3, "t3": 0, "t0'": 6, "t5": 4, "t6": 0}
    assert [f.changed for f in frames[1:]] == [(1, 3), (4,), (), (3,), (), ()]


def test_ready_frames_with_the_slides_weight_on_the_waw_edge(six):
    """Weighting the t0 -> t0 edge with 3, as the slide draws it, gives the slide's 3."""
    g = six.graph
    edges = [
        Edge(e.src, e.dst, 3, e.kind, e.on) if (e.src, e.dst, e.kind) == (0, 3, "WAW") else e
        for e in g.edges
    ]
    g3 = Graph(g.ops, edges, g.units, g.issue_width, g.earliest)
    s, steps = list_schedule_trace(g3, "height")
    frames = ready_frames(g3, steps)
    assert frames[1].numbers[3] == 3 and frames[4].numbers[3] == 6
    assert s.length == 10


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["lecture", "dual"]))
def test_ready_at_is_the_operand_arrival_once_predecessors_are_placed(seed, machine):
    d = analyze(random_block(seed, size=8), machine)
    g = d.graph
    s, steps = list_schedule_trace(d, "height")
    delays = g.delays()
    for st_ in steps:
        for j, at in st_.ready_at.items():
            placed = [(a, lat) for (a, b), lat in delays.items() if b == j and a in st_.start]
            assert at == max([g.earliest] + [st_.start[a] + lat for a, lat in placed])
        for j in st_.chosen:  # nothing is issued before its operands arrive
            assert st_.ready_at[j] <= st_.cycle == s.start[j]


def test_custom_priority_function(six):
    def reverse(graph, i):
        return i  # the last instruction first

    s = list_schedule(six, reverse)
    verify(six.graph, s)
    assert s.algorithm == "list:reverse" and s.order[0] == 5
    lam = list_schedule(six, lambda g, i: 0.5)
    assert lam.algorithm == "list:custom"


def test_bad_priorities(six):
    with pytest.raises(ScheduleError, match="unknown priority 'fastest'.*height"):
        list_schedule(six, "fastest")
    with pytest.raises(ScheduleError, match="must return a number"):
        list_schedule(six, lambda g, i: "high")
    with pytest.raises(ScheduleError, match="NaN"):
        list_schedule(six, lambda g, i: float("nan"))
    with pytest.raises(ScheduleError, match="is a name"):
        list_schedule(six, 42)


def ops(units):
    return [
        Operation(f"o{k}", reservations=(Reservation(u, 0, 1),), tail=1)
        for k, u in enumerate(units)
    ]


def test_tie_broken_by_original_order():
    g = Graph(ops(["u", "u"]), [], units={"u": 2}, issue_width=1)
    _s, steps = list_schedule_trace(g, "height")
    assert steps[0].reasons[0] == "height 1, tie with o1 broken by original order"
    assert steps[0].reasons[1] == "issue width 1 used up"


def test_multi_issue_fills_the_width_and_respects_units():
    g = Graph(ops(["mul", "mul", "alu"]), [], units={"mul": 1, "alu": 1}, issue_width=2)
    s, steps = list_schedule_trace(g, "original")
    verify(g, s)
    assert s.start == [1, 2, 1]
    assert steps[0].chosen == [0, 2]
    assert steps[0].reasons[1] == "unit mul busy"
    assert steps[0].reasons[2] == "the only ready operation that fits (program order)"


def test_zero_latency_successor_issues_in_the_same_cycle():
    g = Graph(ops(["u", "u"]), [Edge(0, 1, 0, "WAR", "t0")], units={"u": 2}, issue_width=2)
    s = list_schedule(g)
    assert s.start == [1, 1]
    assert evaluate(g, s.order).start == [1, 1]


def test_blocked_ready_operations_make_a_stall_with_a_reason():
    g = analyze("mul $t0, $t1, $t2\nmul $t3, $t4, $t5", "lecture").graph
    _s, steps = list_schedule_trace(g)
    assert "ready but blocked" in steps[1].message and "unit alu busy" in steps[1].message


def test_states_for_drawing(six):
    _s, steps = list_schedule(six, trace=True)
    assert steps[0].states(6) == {
        0: "scheduled",
        1: "waiting",
        2: "ready",
        3: "waiting",
        4: "waiting",
        5: "ready",
    }
    assert steps[0].states(6, after=False)[0] == "ready"


def test_empty_and_cyclic_graphs():
    assert list_schedule(Graph([])).length == 0
    g = Graph(ops(["u", "u"]), [Edge(0, 1, 1), Edge(1, 0, 1)], units={"u": 1})
    with pytest.raises(ScheduleError, match="cycle"):
        list_schedule(g)


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    size=st.integers(1, 14),
    machine=st.sampled_from(["lecture", "classic5", "dual"]),
    priority=st.sampled_from(list(PRIORITIES)),
)
def test_in_order_hardware_runs_the_list_order_no_slower(seed, size, machine, priority):
    prog = random_block(seed, size=size, opcodes=["add", "sub", "mul", "div", "lw", "sw", "addi"])
    dg = analyze(prog, machine)
    s = list_schedule(dg, priority)
    verify(dg.graph, s)
    assert s.length >= lower_bound(dg.graph)
    placed = evaluate(dg.graph, s.order)
    assert placed.length <= s.length
    assert all(a <= b for a, b in zip(placed.start, s.start, strict=True))
    assert simulate(prog, machine, s.order).cycles == placed.length


def test_loop_carried_edges_are_ignored_for_one_iteration():
    g = Graph(ops(["u", "u"]), [Edge(0, 1, 2), Edge(1, 0, 3, distance=1)], units={"u": 1})
    s = list_schedule(g)
    assert s.start == [1, 3]
    assert optimal_schedule(g).length == s.length


# --- Beyond the lecture (issue 17): tie-breaking, bottleneck, lookahead, improved heuristic ---

#: issue 17's minimal witnesses: the classic height is one cycle over the optimum on each
WITNESSES = [
    (
        "add $t5,$t3,$t3\nadd $t6,$t6,$t4\nsub $t7,$t3,$t6\nmul $t4,$t1,$t9\nsub $t3,$t5,$t7",
        "lecture",
    ),
    (
        "add $t0,$t1,$t5\nmul $t7,$t1,$t9\nsub $t7,$t7,$t7\nmul $t0,$t7,$t4\nmul $t8,$t1,$t4",
        "lecture",
    ),
    ("add $t1,$t2,$t5\nsub $t4,$t5,$t9\nmul $t2,$t4,$t3\nmul $t9,$t4,$t1", "dual"),
]


def test_the_classic_priorities_stay_as_taught():
    assert list(PRIORITIES) == ["height", "successors", "descendants", "noninterfering", "original"]
    assert set(MORE_PRIORITIES) == {"height_descendants", "bottleneck"}
    assert not set(PRIORITIES) & set(MORE_PRIORITIES)


@pytest.mark.parametrize(("text", "machine"), WITNESSES)
def test_improved_heuristic_schedules_the_witnesses_optimally(text, machine):
    dg = analyze(text, machine)
    best = optimal_schedule(dg)
    assert best.info["proven_optimal"]
    assert list_schedule(dg, "height").length == best.length + 1  # the issue's finding
    s, steps = improved_schedule(dg, trace=True)
    verify(dg.graph, s)
    assert s.length == best.length and s.algorithm == "list:improved"
    assert min(s.info["candidates"].values()) == s.length
    assert steps[-1].start == dict(enumerate(s.start))  # the winner's own trace
    assert evaluate(dg.graph, s.order).length <= s.length


def test_lookahead_holds_the_multiply_back_for_the_more_urgent_instruction():
    """Witness 1: in cycle 4 only the non-pipelined mul I4 is ready; the classic scheduler
    issues it, and its three ALU cycles block I3 (height 5, operands in cycle 5) until cycle 7.
    With lookahead, cycle 4 is left idle ("held back: would block I3"), I3 goes in cycle 5 and
    the block ends a cycle sooner (11 instead of 12, the optimum)."""
    dg = analyze(WITNESSES[0][0], "lecture")
    plain = list_schedule(dg, "height")
    s, steps = list_schedule(dg, "height", lookahead=2, trace=True)
    verify(dg.graph, s)
    assert (plain.length, s.length) == (12, 11)
    assert s.algorithm == "list:height+lookahead2" and s.info["lookahead"] == 2
    held = [(st.cycle, j, st.held[j], st.reasons[j]) for st in steps for j in st.held]
    assert held, "the trace says the mul was held back"
    assert held[0] == (4, 3, (2, 5), "held back: would block I3 (height 5), ready in cycle 5")
    # the record says it as the words do, in every language: no other step holds anything back
    assert all(not st.held for st in steps if st.cycle != 4)
    with using("zh"):
        _s, zh = list_schedule(dg, "height", lookahead=2, trace=True)
    assert [(st.cycle, st.held) for st in zh] == [(st.cycle, st.held) for st in steps]
    assert zh[held[0][0] - steps[0].cycle].reasons[3] != held[0][3]  # said in Chinese
    assert s.start[2] == 5 and plain.start[2] == 7
    # holding back never makes a schedule illegal, and hardware runs its order no slower
    assert evaluate(dg.graph, s.order).length <= s.length


def test_lookahead_zero_is_the_classic_scheduler(six):
    assert list_schedule(six, "height", lookahead=0).start == list_schedule(six, "height").start
    with pytest.raises(ScheduleError, match="lookahead"):
        list_schedule(six, "height", lookahead=-1)
    with pytest.raises(ScheduleError, match="lookahead"):
        list_schedule(six, "height", lookahead=1.5)


def test_height_descendants_breaks_height_ties_by_descendants():
    # o0 and o1 have height 2; o1 has two descendants, o0 none below it but its own tail
    g = Graph(
        ops(["u", "u", "u", "u"]),
        [Edge(1, 2, 1), Edge(1, 3, 1)],
        units={"u": 1},
        issue_width=1,
    )
    g.ops[0] = Operation("o0", reservations=(Reservation("u", 0, 1),), tail=2)
    values = resolve_priority(g, "height_descendants")[1]
    assert values[0][0] == values[1][0] == 2 and values[1][1] == 2 and values[0][1] == 0
    s, steps = list_schedule_trace(g, "height_descendants")
    verify(g, s)
    assert steps[0].chosen == [1]
    assert steps[0].reasons[1] == "highest height 2, 2 descendant(s)"
    assert list_schedule(g, "height").order[0] == 0  # the classic one takes program order


def test_bottleneck_priority_knows_the_busy_unit():
    dg = analyze(WITNESSES[2][0], "dual")
    assert list_schedule(dg, "height").length == 10
    s = list_schedule(dg, "bottleneck")
    verify(dg.graph, s)
    assert s.length == optimal_schedule(dg).length == 9


def test_resource_height_exceeds_height_when_a_unit_is_the_bottleneck():
    # one load feeding four loads on dual's single memory port: the port, not latency, binds
    text = "lw $t0, 0($s0)\n" + "".join(f"lw $t{k}, {4 * k}($t0)\n" for k in range(1, 5))
    g = analyze(text, "dual").graph
    from lecturekit.core.bounds import heights

    assert resource_heights(g)[0] > heights(g)[0]


def test_right_justify_keeps_the_length_and_is_legal(six):
    s = list_schedule(six, "original")
    late = right_justify(six.graph, s)
    verify(six.graph, late)
    assert max(late[i] + six.graph.ops[i].tail for i in range(6)) <= s.length
    assert all(a >= b for a, b in zip(late, s.start, strict=True))


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    size=st.integers(1, 12),
    machine=st.sampled_from(["lecture", "classic5", "dual"]),
    priority=st.sampled_from(["height_descendants", "bottleneck", "height"]),
    lookahead=st.integers(0, 3),
)
# found by hypothesis: program order (31 cycles) beat every candidate of the improved heuristic
# (32) until "original" was one of them
@example(seed=144, size=12, machine="dual", priority="height_descendants", lookahead=0)
def test_new_heuristics_are_legal_and_never_beat_the_optimum(
    seed, size, machine, priority, lookahead
):
    prog = random_block(seed, size=size, opcodes=["add", "sub", "mul", "div", "lw", "sw", "addi"])
    g = analyze(prog, machine).graph
    s = list_schedule(g, priority, lookahead=lookahead)
    verify(g, s)
    placed = evaluate(g, s.order)
    assert all(a <= b for a, b in zip(placed.start, s.start, strict=True))
    best = optimal_schedule(g)
    assert s.length >= best.length
    imp = improved_schedule(g)
    verify(g, imp)
    assert best.length <= imp.length <= min(list_schedule(g, p).length for p in PRIORITIES)
    # a resource height is a lower bound on what is left after an operation starts
    rh = resource_heights(g)
    assert all(best.start[i] + rh[i] <= best.length for i in range(len(g.ops)))
    late = right_justify(g, imp)
    verify(g, late)


CH04_B = """
t0 = t3 - t4
t0 = t4 - t6
t3 = t5 + t2
t1 = t1 - t5
t2 = t7 + t1
t2 = t0 + t2
t6 = t7 + t6
"""
CH04_M = """
t0 = t1 * t3
t4 = t2 * t4
t5 = t4 - t1
t3 = t1 + t3
t6 = t1 - t1
t6 = t6 + t7
t2 = t6 * t3
"""


def test_chapter_04_heuristic_table():
    """Chapter 04's table: on B the height and heuristic 1 reach the optimum (11), the
    "more dependents" priorities and program order 13; on M no priority reaches the optimum 16
    (the ALU bound): height and heuristic 1 take 17, because both start the multiply whose
    long-latency result only a leaf waits for."""
    b = compare_priorities(analyze(CH04_B, "lecture"))
    assert b == {
        "height": 11,
        "successors": 13,
        "descendants": 13,
        "noninterfering": 11,
        "original": 13,
    }
    dm = analyze(CH04_M, "lecture")
    m = compare_priorities(dm)
    assert m == {
        "height": 17,
        "successors": 19,
        "descendants": 18,
        "noninterfering": 17,
        "original": 19,
    }
    best = optimal_schedule(dm)
    assert best.length == lower_bound(dm.graph) == 16
    assert list_schedule(dm, "noninterfering").order[0] == 1  # t4 = t2 * t4, latency 5 to t5


# Branch delay slots (issue 17): the list scheduler fills the slot "from before" (H&P App. C)


def _delay_slot_machine():
    from dataclasses import replace

    from lecturekit.target.machine import preset

    return replace(preset("classic5"), delay_slot=True, name="classic5-slot")


def test_delay_slot_filled_from_before_on_a_hand_checked_block():
    from lecturekit.target.deps import fill_delay_slot

    m = _delay_slot_machine()
    src = "top: lw $t0, 0($s1)\nadd $t1, $t2, $t3\naddi $s1, $s1, 4\nbne $t0, $zero, top\n"
    # by hand: the branch reads $t0 (the load) and $zero; add and addi feed nothing after them
    # (lw reads $s1 before addi writes it: a WAR *into* addi), so either may go to the slot.
    # Slot filled: lw 2, add 3, bne 4 (the load's result reaches the branch 2 cycles later),
    # addi 5 in the slot. Left empty, the slot costs a nop: lw 2, add 3, addi 4, bne 5, nop 6.
    s, steps = list_schedule(analyze(src, m), trace=True)
    g = s.graph
    texts = [" ".join(op.text.split()) for op in g.ops]
    assert texts == ["lw $t0, 0($s1)", "add $t1, $t2, $t3", "bne $t0, $zero, top",
                     "addi $s1, $s1, 4"]  # fmt: skip
    assert s.start == [2, 3, 4, 5]
    verify(g, s)
    assert "filled from before with addi $s1, $s1, 4" in s.info["delay_slot"]
    assert steps[0].message.startswith("delay slot of bne")
    nop = analyze(src + "nop\n", m)  # the slot written as a nop: one cycle longer
    assert list_schedule(nop).length == s.length + 1
    fill = fill_delay_slot(analyze(src, m))
    assert fill.moved == 2 and fill.branch == 3
    # no delay slot on the machine, or the slot already written: nothing to fill
    assert fill_delay_slot(analyze(src, "classic5")) is None
    assert "delay_slot" not in list_schedule(analyze(src, "classic5")).info
    assert fill_delay_slot(nop) is None


def test_delay_slot_gets_a_nop_when_everything_feeds_the_branch():
    m = _delay_slot_machine()
    # lw -> bne (RAW $t0), addi -> bne (RAW $s1), lw -> addi (WAR $s1): nothing can move
    s = list_schedule(analyze("top: lw $t0, 0($s1)\naddi $s1, $s1, 4\nbne $t0, $s1, top\n", m))
    assert [op.text.split()[0] for op in s.graph.ops] == ["lw", "addi", "bne", "nop"]
    assert "a nop fills it" in s.info["delay_slot"]
    assert s.start[3] > s.start[2]
    verify(s.graph, s)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), size=st.integers(2, 12))
def test_delay_slot_fill_is_legal_and_moves_only_independent_instructions(seed, size):
    from lecturekit.target.deps import fill_delay_slot

    m = _delay_slot_machine()
    body = "\n".join(ins.text for ins in random_block(seed, size))
    src = f"top: {body}\nbne $t0, $t1, top\n"
    dg = analyze(src, m)
    fill = fill_delay_slot(dg)
    s = list_schedule(dg)
    assert len(s.graph.ops) == len(dg.program) + (fill.moved is None)  # a nop only when needed
    verify(s.graph, s)
    n = len(fill.block.program)
    slot, branch = n - 1, n - 2
    assert fill.block.program[branch].is_branch and s.start[slot] > s.start[branch]
    if fill.moved is not None:  # nothing in the original block depended on it
        assert all(e.kind == "CTRL" for e in dg.edges if e.src == fill.moved)
        assert fill.block.program[slot] is dg.program[fill.moved]
    else:
        assert fill.block.program[slot].opcode == "nop"


def test_cli_schedule_prints_the_filled_block(tmp_path, capsys):
    import json

    from lecturekit.cli import main

    machine = tmp_path / "slot.toml"
    machine.write_text('base = "classic5"\nname = "classic5-slot"\ndelay_slot = true\n')
    block = tmp_path / "b.s"
    block.write_text(
        "top: lw $t0, 0($s1)\nadd $t1, $t2, $t3\naddi $s1, $s1, 4\nbne $t0, $zero, top\n"
    )
    assert main(["schedule", str(block), "-M", str(machine)]) == 0
    out = capsys.readouterr().out
    assert "filled from before with addi $s1, $s1, 4" in out
    rows = [line.split() for line in out.splitlines() if line.startswith("I")]
    assert [(r[0], r[1], r[-2]) for r in rows] == [
        ("I1", "lw", "2"), ("I2", "add", "3"), ("I3", "bne", "4"), ("I4", "addi", "5")
    ]  # fmt: skip
    assert main(["schedule", str(block), "-M", str(machine), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["schedule"]["issue"] == [2, 3, 4, 5] and "delay_slot" in data["schedule"]


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    size=st.integers(1, 25),
    machine=st.sampled_from(["lecture", "dual", "classic5"]),
    priority=st.sampled_from(["height", "descendants", "bottleneck", "height_descendants"]),
    lookahead=st.sampled_from([0, 2]),
)
def test_a_schedule_without_its_trace_is_the_traced_schedule(
    seed, size, machine, priority, lookahead
):
    """list_schedule (no trace asked for) skips the steps, nothing else: the same starts, issue
    order, reasons and info as the traced run."""
    from lecturekit.core.list_sched import list_schedule, list_schedule_trace

    d = analyze(random_block(seed, size=size, registers=6), machine)
    plain = list_schedule(d, priority, lookahead=lookahead)
    traced, steps = list_schedule_trace(d, priority, lookahead=lookahead)
    assert steps and list_schedule_trace(d, priority, record=False, lookahead=lookahead)[1] == []
    assert (plain.start, plain.order, plain.reasons) == (traced.start, traced.order, traced.reasons)
    assert plain.info == traced.info


def test_a_step_says_what_happened_without_its_cycle_in_every_language():
    """Chapter 04's tables show ``happened`` beside a cycle column (they cut "cycle N: " off the
    message before, which no Chinese message has)."""
    dg = analyze(WITNESSES[0][0], "lecture")
    _s, steps = list_schedule(dg, "height", lookahead=2, trace=True)
    for step in steps:
        assert step.message == f"cycle {step.cycle}: {step.happened}"
    with using("zh"):
        _s, zh = list_schedule(dg, "height", lookahead=2, trace=True)
    for step in zh:
        assert step.message == f"周期 {step.cycle}：{step.happened}"
    assert zh[0].happened.startswith("发射 ") or zh[0].happened.startswith("没有就绪的操作")
