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
from lecturekit.loops.swing import swing_modulo_schedule, swing_order


def graph_of(source, machine):
    return analyze_loop(source, machine).graph(renamed=True)


@pytest.mark.parametrize(
    "name, machine, ii",
    [
        ("saxpy_loop", "lecture", 10),  # MII: the lecture's 10 cycles
        ("prefix_product", "lecture", 9),  # RecMII 9 binds
        ("prefix_product", "dual", 6),
        ("running_sum", "lecture", 5),  # one above MII 4: no eviction to repair the order
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


def test_swing_order_puts_recurrences_first_and_the_branch_last():
    g = graph_of(example("saxpy_loop"), "lecture")
    order = swing_order(g, 10)
    labels = [g.label(k) for k in order]
    assert sorted(order) == list(range(len(g.ops)))
    assert labels[:2] == ["I6", "I7"]  # the pointer updates: recurrences (self-loops)
    assert labels[-1] == "I8"  # the branch
    # after the recurrences, each node is ordered next to a neighbour ordered before it
    placed = set(order[:2])
    for k in order[2:-1]:
        near = {e.src for e in g.edges if e.dst == k} | {e.dst for e in g.edges if e.src == k}
        assert near & placed or k == order[2]
        placed.add(k)


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
