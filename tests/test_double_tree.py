"""NCCL's pipelined double binary tree: tree shapes, the trace, and its α–β time."""

import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lecturekit.core import Edge, Graph, Operation, Reservation, evaluate, verify
from lecturekit.errors import ConfigError
from lecturekit.llm import collectives as C
from lecturekit.llm import comm, nccl
from lecturekit.llm import double_tree as D
from lecturekit.llm.fabric import Fabric

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
        sent, received = [0] * p, [0] * p
        for src, dst, *_ in messages:
            sent[src] += 1
            received[dst] += 1
        per_step.append(max(max(sent), max(received)))
    runs = [load for n, load in D.double_tree_step_load(p, k) for _ in range(n)]
    assert runs == per_step


def _slots(messages: list[tuple[int, int]], slots: int) -> list[int]:
    """A slot for each message ``(src, dst)`` so that no rank sends two or receives two in one
    slot, using ``slots`` slots, the busiest port's load (König: the edges of a bipartite
    multigraph take as many colours as its largest degree). Each message takes a slot free at
    both ends; where the sender's free slot ``a`` is taken at the receiver, the path of slots
    ``a``, ``b``, ``a``, ... from the receiver swaps them first (it never reaches the sender)."""
    at: dict[tuple[str, int], dict[int, int]] = {}
    slot = [-1] * len(messages)

    def ends(i):
        src, dst = messages[i]
        return ("out", src), ("in", dst)

    for i in range(len(messages)):
        u, v = ends(i)
        free_u = next(c for c in range(slots) if c not in at.setdefault(u, {}))
        free_v = next(c for c in range(slots) if c not in at.setdefault(v, {}))
        if free_u in at[v]:
            path, x, c = [], v, free_u
            while c in at.get(x, {}):
                e = at[x][c]
                path.append(e)
                a, b = ends(e)
                x = b if x == a else a
                c = free_v if c == free_u else free_u
            for e in path:
                for end in ends(e):
                    del at[end][slot[e]]
            for e in path:
                slot[e] = free_v if slot[e] == free_u else free_u
                for end in ends(e):
                    assert slot[e] not in at[end]
                    at[end][slot[e]] = e
        slot[i] = free_u
        for end in (u, v):
            at[end][free_u] = i
    return slot


@given(st.integers(1, 33), st.integers(1, 6), st.integers(0, 3), st.integers(1, 4))
@settings(max_examples=40, deadline=None)
def test_formula_is_the_cores_placement_of_the_steps_on_send_and_receive_ports(p, k, a, c):
    """The trace's steps one after another on the scheduling core, each rank a send port and a
    receive port (units of capacity 1), a chunk ``c`` cycles on both, ``α`` = ``a`` cycles: the
    evaluator places every step in exactly its busiest port's load (no placement can do less),
    and the whole run takes what the α–β formula says."""
    ops, edges, before = [Operation("start")], [], [0]
    order = [0]
    for step in D.double_tree_schedule(p, k):
        pairs = [(src, dst) for src, dst, *_ in step]
        load = max(
            max(Counter(s for s, _ in pairs).values()), max(Counter(d for _, d in pairs).values())
        )
        slot = _slots(pairs, load)
        first = len(ops)
        for src, dst in pairs:
            ops.append(
                Operation(
                    f"{src}>{dst}",
                    reservations=(Reservation(f"out{src}", 0, c), Reservation(f"in{dst}", 0, c)),
                    tail=c - 1,
                )
            )
        edges += [
            Edge(b, first + i, 0 if b == 0 else c + a) for b in before for i in range(len(pairs))
        ]
        mine = sorted(range(len(pairs)), key=lambda i: slot[i])
        order += [first + i for i in mine]
        before = list(range(first, len(ops)))
    ops.append(Operation("end"))
    edges += [Edge(b, len(ops) - 1, 0 if b == 0 else c + a) for b in before]
    order.append(len(ops) - 1)
    units = {r.unit: 1 for op in ops for r in op.reservations}
    graph = Graph(ops, edges, units=units, issue_width=None, earliest=0)
    schedule = evaluate(graph, order)
    verify(graph, schedule)  # no port ever carries two chunks at once
    link = comm.Link(alpha=a, beta=c * 2 * k / 1000)  # a chunk of m/2k bytes takes c
    want = comm.collective_time("all-reduce", 1000, p, link, "double-tree", chunks=k)
    assert schedule.start[-1] == pytest.approx(want)


def test_a_parent_receives_two_children_at_once():
    """8 ranks, one chunk per tree: counting senders only gives 8 chunk-times; the receivers'
    ports make it 10, the same as the scheduling core's placement of these messages on a fabric
    (chapter 15: each node's NIC a link in and a link out)."""
    p, m = 8, 16e6
    steps = D.double_tree_schedule(p, 1)
    senders = sum(max(Counter(src for src, *_ in step).values()) for step in steps)
    link = comm.Link(alpha=0, beta=1 / 25e9)
    chunk_time = m / 2 * link.beta
    assert senders == 8
    assert comm.double_tree_time(m, p, link, 1) == pytest.approx(10 * chunk_time)
    on_fabric = nccl.tree_all_reduce(Fabric.build(p, 1, radix=16), m, chunks=1, alpha_net=0)
    assert on_fabric.seconds == pytest.approx(10 * chunk_time)


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


@pytest.mark.parametrize("p", [2, 3, 5, 8, 33, 64, 100])
def test_the_step_loads_grow_on_a_line_from_k0(p):
    k0, per_chunk, extra = D.double_tree_load_line(p)
    for k in range(k0, k0 + 40):
        assert sum(n * load for n, load in D.double_tree_step_load(p, k)) == per_chunk * k + extra
    assert per_chunk == (2 if p == 2 else 3 if p == 3 else 4)  # up and down at once: 4 a step


@pytest.mark.parametrize("p", [2, 3, 5, 8, 16, 33, 64, 100])
@pytest.mark.parametrize("m", [1e3, 1e5, 1e7, 1e9, 349_202_178_048])
def test_best_chunks_is_a_minimum(p, m):
    k = comm.double_tree_chunks(m, p, LINK)
    best = comm.double_tree_time(m, p, LINK, k)
    others = set(range(1, 300)) | {max(1, round(k * f)) for f in (0.5, 0.9, 0.99, 1.01, 1.1, 2)}
    assert all(best <= comm.double_tree_time(m, p, LINK, x) * (1 + 1e-12) for x in others)


def test_best_chunks_at_the_edges():
    assert comm.double_tree_chunks(0, 32, LINK) == 1
    assert comm.double_tree_chunks(1e9, 1, LINK) == 1
    assert comm.double_tree_chunks(1e9, 32, comm.Link(0, 1e-9)) == D.MAX_CHUNKS


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
