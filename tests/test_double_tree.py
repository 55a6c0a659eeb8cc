"""NCCL's pipelined double binary tree: tree shapes, the trace, and its α–β time."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lecturekit.errors import ConfigError
from lecturekit.llm import collectives as C
from lecturekit.llm import comm
from lecturekit.llm import double_tree as D

LINK = comm.Link.from_bandwidth(alpha=10e-6, bandwidth_bytes_per_s=25e9)


@pytest.mark.parametrize("p", range(1, 70))
def test_trees_span_every_rank_and_agree_with_themselves(p):
    for tree in D.double_binary_tree(p):
        assert tree.parent.count(-1) == 1
        for r in range(p):
            for c in tree.children[r]:
                assert tree.parent[c] == r
            if tree.parent[r] >= 0:
                assert r in tree.children[tree.parent[r]]
            assert len(tree.children[r]) <= 2
        # every rank reaches the root: depths are finite and consistent
        depth = tree.depth()
        assert sorted(depth)[0] == 0 and all(
            depth[r] == depth[tree.parent[r]] + 1 for r in range(p) if tree.parent[r] >= 0
        )
        assert tree.height()[tree.root] <= (math.ceil(math.log2(p)) if p > 1 else 0)


def test_ncclgetbtree_shape():
    # NCCL's illustration for 14 ranks: 0 - 8; 8: 4, 12; 4: 2, 6; 12: 10, 13; 2: 1, 3; ...
    tree = D.binary_tree(14)
    assert tree.children[0] == (8,)
    assert tree.children[8] == (4, 12)
    assert tree.children[4] == (2, 6)
    assert tree.children[12] == (10, 13)
    assert tree.children[10] == (9, 11)
    assert all(tree.children[r] == () for r in range(1, 14, 2))


@pytest.mark.parametrize("p", range(2, 40))
def test_inner_nodes_of_the_two_trees_are_disjoint(p):
    first, second = D.double_binary_tree(p)
    both = first.inner() & second.inner()
    # even p: mirror image, a rank forwards in one tree only; odd p: shift, rank 0 in both
    assert both == (frozenset() if p % 2 == 0 else frozenset({0}))


@given(st.integers(1, 17), st.integers(1, 5), st.integers(0, 10_000))
@settings(max_examples=80, deadline=None)
def test_trace_all_reduces_and_costs_what_the_formula_says(p, k, seed):
    rng = np.random.default_rng(seed)
    n = 2 * k * 3
    buffers = [rng.integers(-50, 50, size=n).astype(np.float64) for _ in range(p)]
    trace = C.double_tree_all_reduce_trace(buffers, k)
    total = sum(buffers)
    assert all(np.array_equal(b, total) for b in trace.result)
    assert all(len(c) == p for row in trace.contributors_at(len(trace.steps)) for c in row), (
        "every rank's every chunk has every rank's contribution at the end"
    )
    m = n * 8
    assert math.isclose(
        comm.trace_time(trace, LINK),
        comm.collective_time("all-reduce", m, p, LINK, "double-tree", chunks=k),
    )
    if p > 1:
        assert len(trace.steps) == k - 1 + 2 * D.double_tree_height(p)
    # a rank sends each half up once and down to at most two children: at most 2m
    assert max(trace.bytes_sent()) <= 2 * m


@pytest.mark.parametrize("p", [4, 8, 16, 64])
def test_every_inner_rank_of_even_p_sends_two_m(p):
    k = 4
    n = 2 * k
    trace = C.double_tree_all_reduce_trace([np.ones(n) for _ in range(p)], k)
    m = n * 8
    sent = trace.bytes_sent()
    assert max(sent) == 2 * m  # NCCL's tuning: tree algorithm bandwidth = bus bandwidth / 2
    assert sum(sent) == sum(trace.bytes_received())


@pytest.mark.parametrize("p", [2, 3, 5, 8, 13, 64])
@pytest.mark.parametrize("k", [1, 2, 7, 100])
def test_step_load_matches_the_listed_schedule(p, k):
    schedule = D.double_tree_schedule(p, k)
    per_step = []
    for messages in schedule:
        sent = [0] * p
        for src, *_ in messages:
            sent[src] += 1
        per_step.append(max(sent))
    runs = [load for n, load in D.double_tree_step_load(p, k) for _ in range(n)]
    assert runs == per_step


def test_pipelined_tree_has_near_ring_bandwidth_and_tree_latency():
    p = 64
    big = 349_202_178_048  # GPT-3's fp16 gradients
    ring = comm.collective_time("all-reduce", big, p, LINK, "ring")
    binomial = comm.collective_time("all-reduce", big, p, LINK, "tree")
    double = comm.collective_time("all-reduce", big, p, LINK, "double-tree")
    assert binomial / ring > 6
    # 2m beta against the ring's 2(p-1)/p m beta, plus the pipeline's fill
    assert ring < double < ring * p / (p - 1) * 1.01
    small = 1_000
    times = {
        a: comm.collective_time("all-reduce", small, p, LINK, a) for a in ("ring", "double-tree")
    }
    assert times["double-tree"] < times["ring"] / 5  # ~2 log2 p latencies, not 2(p - 1)


def test_best_chunks_is_a_minimum():
    m, p = 1e9, 32
    k = comm.double_tree_chunks(m, p, LINK)
    best = comm.double_tree_time(m, p, LINK, k)
    for other in (max(1, k // 3), k // 2 or 1, 2 * k, 3 * k):
        assert best <= comm.double_tree_time(m, p, LINK, other) * (1 + 1e-12)
    assert comm.double_tree_chunks(0, p, LINK) == 1
    assert comm.double_tree_chunks(m, 1, LINK) == 1


def test_bad_input():
    with pytest.raises(ConfigError, match="chunks"):
        C.double_tree_all_reduce_trace([np.ones(4)] * 2, 0)
    with pytest.raises(ConfigError, match="chunks"):
        comm.collective_time("all-reduce", 10, 4, LINK, "ring", chunks=3)
    with pytest.raises(ConfigError, match="chunks"):
        comm.collective_time("all-reduce", 10, 4, LINK, "double-tree", chunks=1.5)
    with pytest.raises(ConfigError, match="p"):
        D.double_binary_tree(0)
    with pytest.raises(ConfigError, match="p"):
        D.double_binary_tree(True)
