"""Counting and enumerating legal orders: the six-instruction block's 60 orders and their
lengths, the DP count against networkx, chains and independent blocks."""

import math
import random

import networkx as nx
import pytest
from conftest import SIX_BLOCK
from hypothesis import given, settings
from hypothesis import strategies as st

from lecturekit.asm.random_blocks import random_block
from lecturekit.core.search_space import (
    all_orders,
    brute_force_optimal,
    count_topological_orders,
    enumerate_orders,
    length_histogram,
)
from lecturekit.errors import ScheduleError
from lecturekit.target.deps import analyze


def test_six_block_orders_and_lengths():
    g = analyze(SIX_BLOCK, "lecture").graph
    assert count_topological_orders(g) == 60
    hist = length_histogram(g)
    assert hist == {10: 4, 11: 12, 12: 20, 13: 12, 14: 6, 15: 6}
    assert sum(hist.values()) == 60
    lengths = dict((tuple(o), n) for o, n in enumerate_orders(g))
    assert lengths[(0, 1, 2, 3, 4, 5)] == 12  # program order
    assert lengths[(2, 4, 0, 1, 3, 5)] == 15  # the slide's topological order
    assert lengths[(0, 2, 5, 1, 4, 3)] == 10  # the scheduled order
    order, best = brute_force_optimal(g)
    assert best == 10 and lengths[tuple(order)] == 10


def test_program_order_is_listed_first():
    g = analyze(SIX_BLOCK, "lecture").graph
    assert next(all_orders(g)) == [0, 1, 2, 3, 4, 5]


def test_chain_and_independent():
    chain = nx.DiGraph([(k, k + 1) for k in range(11)])
    assert count_topological_orders(chain) == 1
    free = nx.DiGraph()
    free.add_nodes_from(range(12))
    assert count_topological_orders(free) == math.factorial(12)
    three = analyze("add $t2, $t0, $t1\nadd $t5, $t3, $t4\nadd $t8, $t6, $t7", "lecture")
    assert count_topological_orders(three) == 6


def test_components_combine_by_multinomial():
    g = nx.DiGraph([(0, 1), (2, 3)])  # two chains of two: C(4, 2) interleavings
    assert count_topological_orders(g) == 6 == len(list(nx.all_topological_sorts(g)))


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 8), p=st.floats(0, 1), seed=st.integers(0, 10**6))
def test_count_matches_networkx_on_random_dags(n, p, seed):
    rng = random.Random(seed)
    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    g.add_edges_from((i, j) for i in range(n) for j in range(i + 1, n) if rng.random() < p)
    assert count_topological_orders(g) == len(list(nx.all_topological_sorts(g)))


@pytest.mark.parametrize("seed", range(20))
def test_count_matches_networkx_on_random_blocks(seed):
    g = analyze(random_block(seed, size=8, registers=10), "dual").graph
    expected = len(list(nx.all_topological_sorts(g.to_networkx())))
    assert count_topological_orders(g) == expected == len(list(all_orders(g)))


def test_larger_blocks_are_counted_without_listing():
    g = analyze(random_block(3, size=25, registers=12), "lecture").graph
    assert count_topological_orders(g) > 10**6


def test_limits_and_bad_input():
    free = analyze("\n".join(f"add $t{k}, $s0, $s1" for k in range(9)), "lecture")
    with pytest.raises(ScheduleError, match="362880 legal orders"):
        enumerate_orders(free, limit=1000)
    with pytest.raises(ScheduleError, match="cycle"):
        count_topological_orders(nx.DiGraph([(0, 1), (1, 0)]))
    with pytest.raises(ScheduleError, match="too many"):
        count_topological_orders(nx.DiGraph([(0, k) for k in range(1, 20)]), max_states=1000)
    with pytest.raises(ScheduleError, match="expected a dependence graph"):
        count_topological_orders("not a graph")
