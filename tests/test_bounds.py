"""Lower bounds: the lecture's numbers, hand-made cases, and every bound below the brute-force
optimum on random small blocks."""

import random

import pytest
from conftest import SIX_BLOCK

from lecturekit.core import Edge, Graph, Operation, Reservation
from lecturekit.core.bounds import (
    alap,
    asap,
    bounds,
    critical_path_bound,
    heights,
    issue_width_bound,
    jackson_bound,
    lower_bound,
    relaxed_bounds,
    unit_bounds,
)
from lecturekit.core.search_space import brute_force_optimal
from lecturekit.deps import analyze
from lecturekit.randomblocks import random_block


def test_six_block_critical_path_is_ten():
    dg = analyze(SIX_BLOCK, "lecture")
    assert critical_path_bound(dg) == 10 == dg.critical_path()[1]
    assert lower_bound(dg.graph) == 10
    b = bounds(dg.graph)
    assert b["critical_path"] == 10
    assert b["issue_width"] == 9  # 6 issues from cycle 2: last issue 7, + tail 2
    assert b["unit:alu"] == 9
    assert b["relaxed:issue"] == 10


def test_the_slides_node_numbers():
    g = analyze(SIX_BLOCK, "lecture").graph
    # the slide writes earliest starts (0, 3, 6 along t0 -> t1 -> t0; 3 on t5), counted from 0
    assert [a - g.earliest for a in asap(g)] == [0, 3, 0, 6, 3, 0]
    # heights along the "+3" edges, without and with the 2-cycle tail of an add
    assert heights(g, tails=False) == [6, 3, 3, 0, 0, 0]
    assert heights(g) == [8, 5, 5, 2, 2, 2]
    assert alap(g) == [10 - h for h in heights(g)]
    assert alap(g, 12) == [12 - h for h in heights(g)]


def test_jackson_rule_by_hand():
    # one slot per cycle: the tail-5 job first (0+5), then the others at 1 and 2 (2+1)
    assert jackson_bound([(0, 1), (0, 5), (0, 1)], 1) == 5
    assert jackson_bound([(0, 3), (0, 3), (0, 3)], 1) == 5
    assert jackson_bound([(0, 3), (0, 3), (0, 3)], 3) == 3
    assert jackson_bound([(0, 3), (0, 3)], 1, busy={0: 1}) == 5  # cycle 0 already taken
    assert jackson_bound([(4, 1)], 1) == 5  # waits for its release
    assert jackson_bound([], 1) is None


def fan_out():
    """R feeds P and Q (latency 1); P and Q have long tails; one issue per cycle."""
    ops = [
        Operation("R", reservations=(Reservation("u", 0, 1),), tail=1),
        Operation("P", reservations=(Reservation("u", 0, 1),), tail=4),
        Operation("Q", reservations=(Reservation("u", 0, 1),), tail=4),
    ]
    return Graph(ops, [Edge(0, 1, 1), Edge(0, 2, 1)], units={"u": 1}, issue_width=1)


def test_relaxed_bound_beats_the_simple_ones():
    g = fan_out()
    b = bounds(g)
    assert b["critical_path"] == 6  # R at 1, P at 2, finishes 6
    assert b["issue_width"] == 4
    assert b["relaxed:issue"] == 7  # P and Q cannot both issue in cycle 2
    assert lower_bound(g) == 7


def test_unlimited_width_and_empty_graph():
    g = Graph([Operation("a", tail=2), Operation("b", tail=1)], [Edge(0, 1, 3)])
    assert issue_width_bound(g) is None
    assert bounds(g) == {"critical_path": 5}
    assert relaxed_bounds(g) == {}
    assert unit_bounds(g) == {}
    assert lower_bound(Graph([])) == 0


def test_unit_bound_counts_non_pipelined_cycles():
    # three multiplies on the lecture machine hold the single ALU 3 cycles each
    g = analyze("mul $t0, $t1, $t2\nmul $t3, $t4, $t5\nmul $t6, $t7, $t8", "lecture").graph
    b = bounds(g)
    # ALU first used in cycle 3, busy 9 cycles (3..11), then the RW stage: cycle 12
    assert b["unit:alu"] == 12
    assert lower_bound(g) == 12


CASES = [(seed, m) for seed in range(40) for m in ("lecture", "classic5", "dual")]


@pytest.mark.parametrize("seed, machine", CASES)
def test_every_bound_is_below_the_optimum(seed, machine):
    rng = random.Random(seed)
    prog = random_block(rng, size=rng.randint(2, 6), opcodes=["add", "mul", "lw", "sw", "div"])
    g = analyze(prog, machine).graph
    _order, best = brute_force_optimal(g)
    b = bounds(g)
    assert all(v <= best for v in b.values()), (b, best)
    for name, value in b.items():  # the relaxed bounds dominate the counting ones
        if name == "issue_width":
            assert b["relaxed:issue"] >= value
        if name.startswith("unit:"):
            assert b["relaxed:" + name[5:]] >= value
