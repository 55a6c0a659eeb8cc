"""List scheduling: the lecture's block step by step, every priority, the reasons a trace gives,
multi-issue with units, and the cross-check with in-order hardware on random blocks."""

import pytest
from conftest import SIX_BLOCK
from hypothesis import given, settings
from hypothesis import strategies as st

from lecturekit.core import Edge, Graph, Operation, Reservation, evaluate, verify
from lecturekit.core.bounds import lower_bound
from lecturekit.core.list_sched import (
    PRIORITIES,
    compare_priorities,
    list_schedule,
    list_schedule_trace,
    resolve_priority,
)
from lecturekit.core.optimal import optimal_schedule
from lecturekit.deps import analyze
from lecturekit.errors import ScheduleError
from lecturekit.pipeline import simulate
from lecturekit.randomblocks import random_block


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
    mixed = analyze("mul $t0, $t1, $t2\nadd $t3, $t4, $t5", "lecture").graph
    assert resolve_priority(mixed, "noninterfering")[1] == [-3, -1]  # the multiply holds the ALU


def test_noninterfering_runs_the_short_operation_first():
    g = analyze("mul $t0, $t1, $t2\nadd $t3, $t4, $t5", "lecture").graph
    assert list_schedule(g, "noninterfering").order == [1, 0]
    assert list_schedule(g, "original").order == [0, 1]


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
