"""Swing modulo scheduling (issue 17): the lecture's loops, the swing order, verification on
random loops, the shared trace, limits and bad input."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lecturekit.core import verify
from lecturekit.errors import ScheduleError
from lecturekit.loops.examples import example
from lecturekit.loops.model import analyze_loop
from lecturekit.loops.modulo import iterative_modulo_schedule, rec_mii, res_mii
from lecturekit.loops.randloop import random_loop
from lecturekit.loops.swing import _circuits, _window, swing_modulo_schedule, swing_order


def graph_of(source, machine):
    return analyze_loop(source, machine).graph(renamed=True)


@pytest.mark.parametrize(
    "name, machine, ii",
    [
        ("saxpy_loop", "lecture", 10),  # MII: the lecture's 10 cycles
        ("prefix_product", "lecture", 9),  # RecMII 9 binds
        ("prefix_product", "dual", 6),
        ("running_sum", "lecture", 5),  # one above MII 4: no eviction to repair the order
        ("running_sum", "dual", 3),
        ("saxpy_loop", "dual", 5),  # one above MII 4 (IMS evicts and reaches 4)
    ],
)
def test_the_lectures_loops(name, machine, ii):
    g = graph_of(example(name), machine)
    s, steps = swing_modulo_schedule(g)
    verify(g, s, ii=s.ii)
    assert s.ii == ii and s.algorithm == "swing modulo"
    assert s.info["mii"] == max(res_mii(g), rec_mii(g))
    assert steps[0].kind == "ii" and steps[-1].kind == "done"
    assert not any(st.evicted for st in steps)  # SMS never backtracks
    ims, _ = iterative_modulo_schedule(g)
    assert ims.ii <= s.ii


def test_swing_order_puts_critical_recurrences_first_and_the_branch_last():
    # a[i] = a[i-1] * x: the circuit lw -> mul -> sw -> (next iteration) lw has RecMII 9 = II
    g = graph_of(example("prefix_product"), "lecture")
    labels = [g.label(k) for k in swing_order(g, 9)]
    assert set(labels[:3]) == {"I1", "I2", "I3"} and labels[-1] == "I5"
    # the swing starts at the recurrence's largest ASAP (the store) and goes up its path
    assert labels[:3] == ["I3", "I2", "I1"]
    # the pointer updates of saxpy are self-loops with RecMII 1 against II 10: slack, not first
    g = graph_of(example("saxpy_loop"), "lecture")
    order = swing_order(g, 10)
    labels = [g.label(k) for k in order]
    assert sorted(order) == list(range(len(g.ops)))
    assert labels[-1] == "I8"  # the branch
    assert labels[0] not in ("I6", "I7")
    # each node is ordered next to a neighbour (within an iteration) ordered before it
    placed = {order[0]}
    for k in order[1:-1]:
        near = {e.src for e in g.edges if e.dst == k and not e.distance}
        near |= {e.dst for e in g.edges if e.src == k and not e.distance}
        near.discard(order[-1])  # the branch, ordered last
        assert near & placed or not near
        placed.add(k)


def test_circuits_are_the_elementary_cycles():
    # 0 -> 1 -> 2 -> 0 and 1 -> 0: two circuits, both found once, each from its smallest node
    assert sorted(_circuits(3, [[1], [2, 0], [0]])) == [[0, 1], [0, 1, 2]]
    assert _circuits(3, [[1], [2], []]) == []  # acyclic
    assert len(_circuits(6, [[j for j in range(6) if j != i] for i in range(6)], limit=7)) == 7


def test_a_loose_loop_carried_bound_does_not_anchor_the_scan():
    # successors in the same iteration placed at 20, a predecessor 4 iterations back: the scan
    # starts at the successors' side (19), not 4 x II below
    from lecturekit.core.graph import Edge

    mem = [Edge(0, 2, 1, "RAW", "mem 0($s1)~-16($s1)", 4)]
    preds = mem
    succs = [Edge(2, 1, 1, "RAW", "t1", 0)]
    slots, how = _window(2, 10, {0: 3, 1: 20}, preds, succs, asap=0)
    assert list(slots)[0] == 19 and min(slots) >= 3 + 1 - 40 and len(slots) == 10
    assert "down from the successors in its iteration" in how
    # the published rule when every placed neighbour is in the same iteration
    preds = [Edge(0, 2, 1, "RAW", "t0", 0)]
    slots, how = _window(2, 10, {0: 3, 1: 20}, preds, succs, asap=0)
    assert list(slots) == list(range(4, 14))
    # alone, a register value from the previous iteration anchors (its lifetime stays short);
    # a memory dependence from 4 iterations back does not: from ASAP, within its bound
    reg = [Edge(0, 2, 1, "RAW", "s1", 1)]
    assert list(_window(2, 10, {0: 3}, reg, [], asap=5)[0]) == list(range(-6, 4))
    assert list(_window(2, 10, {0: 3}, mem, [], asap=5)[0]) == list(range(5, 15))


def test_placement_messages_say_which_side_set_the_window():
    g = graph_of(example("saxpy_loop"), "lecture")
    _s, steps = swing_modulo_schedule(g)
    text = "\n".join(st.message for st in steps)
    assert "as early as its predecessors allow" in text
    assert "no placed neighbour: from ASAP" in text


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    size=st.integers(1, 20),
    machine=st.sampled_from(["lecture", "dual", "classic5"]),
    recurrence=st.booleans(),
)
def test_random_loops_are_always_legal(seed, size, machine, recurrence):
    g = graph_of(random_loop(seed, size=size, recurrence=recurrence).source, machine)
    s, steps = swing_modulo_schedule(g)
    verify(g, s, ii=s.ii)
    assert s.ii >= max(res_mii(g), rec_mii(g))
    assert min(s.start) == 0
    assert steps[-1].placed == dict(enumerate(s.start))


def test_time_limit_falls_back_to_a_legal_schedule():
    g = graph_of(random_loop(7, size=30, recurrence=True).source, "dual")
    s, _steps = swing_modulo_schedule(g, time_limit=0)
    verify(g, s, ii=s.ii)
    assert s.info["timed_out"]


def test_bad_input():
    g = graph_of(example("saxpy_loop"), "lecture")
    with pytest.raises(ScheduleError, match="initiation interval"):
        swing_modulo_schedule(g, ii=0)
    with pytest.raises(ScheduleError, match="time_limit"):
        swing_modulo_schedule(g, time_limit=-1)
    # an II above MII is honoured as the first one tried
    assert swing_modulo_schedule(g, ii=12)[0].ii == 12
