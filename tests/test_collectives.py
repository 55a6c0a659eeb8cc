"""Collectives on simulated ranks: results against numpy, the all-reduce traces, bad input."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lecturekit.errors import ConfigError
from lecturekit.llm import collectives as C

# -- random inputs: p ranks holding integer arrays of one shape (integers: sums are exact) -----


@st.composite
def rank_buffers(draw, min_p=1, max_p=7, dtype=np.int64):
    p = draw(st.integers(min_p, max_p))
    ndim = draw(st.integers(1, 3))
    shape = tuple(
        draw(st.lists(st.integers(0 if ndim > 1 else 1, 6), min_size=ndim, max_size=ndim))
    )
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    return [rng.integers(-50, 50, size=shape).astype(dtype) for _ in range(p)]


def assert_all_equal(got, want):
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        if w is None:
            assert g is None
        else:
            assert g.shape == w.shape
            np.testing.assert_array_equal(g, w)


@given(rank_buffers(), st.data())
@settings(max_examples=60, deadline=None)
def test_collectives_match_numpy(buffers, data):
    p = len(buffers)
    root = data.draw(st.integers(0, p - 1))
    total = np.sum(np.stack(buffers), axis=0)
    whole = np.concatenate(buffers, axis=0)
    root_only = [buffers[root] if r == root else None for r in range(p)]

    assert_all_equal(C.broadcast(root_only, root), [buffers[root]] * p)
    assert_all_equal(C.scatter(root_only, root), np.array_split(buffers[root], p, axis=0))
    assert_all_equal(C.gather(buffers, root), [whole if r == root else None for r in range(p)])
    assert_all_equal(C.reduce(buffers, root), [total if r == root else None for r in range(p)])
    assert_all_equal(C.all_gather(buffers), [whole] * p)
    assert_all_equal(C.reduce_scatter(buffers), np.array_split(total, p, axis=0))
    assert_all_equal(C.all_reduce(buffers), [total] * p)
    pieces = [np.array_split(b, p, axis=0) for b in buffers]
    want = [np.concatenate([pieces[i][j] for i in range(p)], axis=0) for j in range(p)]
    assert_all_equal(C.all_to_all(buffers), want)


@given(rank_buffers(min_p=2))
@settings(max_examples=30, deadline=None)
def test_all_reduce_is_reduce_scatter_then_all_gather(buffers):
    assert_all_equal(C.all_gather(C.reduce_scatter(buffers)), C.all_reduce(buffers))
    # all-to-all twice is the identity when every rank's buffer splits the same way
    assert_all_equal(C.all_to_all(C.all_to_all(buffers)), buffers)


def test_other_reductions_and_axis():
    rng = np.random.default_rng(3)
    b = [rng.normal(size=(3, 4)) for _ in range(3)]
    for op, fn in [("max", np.max), ("min", np.min), ("prod", np.prod), ("sum", np.sum)]:
        np.testing.assert_allclose(C.all_reduce(b, op=op)[1], fn(np.stack(b), axis=0))
    got = C.all_gather(b, axis=1)[2]
    np.testing.assert_array_equal(got, np.concatenate(b, axis=1))
    parts = C.reduce_scatter(b, axis=-1)
    np.testing.assert_allclose(np.concatenate(parts, axis=1), sum(b))


def test_inputs_are_not_modified():
    b = [np.arange(4), np.arange(4) * 10]
    keep = [x.copy() for x in b]
    C.all_reduce(b)
    C.ring_all_reduce(b)
    out = C.broadcast(b)
    out[1][0] = 99
    assert_all_equal(b, keep)


# -- the all-reduce algorithms -----------------------------------------------------------------

TRACES = [C.ring_all_reduce_trace, C.tree_all_reduce_trace]


@given(rank_buffers(), st.sampled_from(TRACES))
@settings(max_examples=60, deadline=None)
def test_all_reduce_algorithms_give_the_sum_on_every_rank(buffers, algorithm):
    trace = algorithm(buffers)
    total = np.sum(np.stack(buffers), axis=0)
    assert_all_equal(trace.result, [total] * len(buffers))
    final = trace.contributors_at(len(trace.steps))
    everyone = frozenset(range(trace.p))
    assert all(cell == everyone for row in final for cell in row)


@given(st.integers(0, 3), st.integers(1, 6), st.integers(0, 2**31))
@settings(max_examples=30, deadline=None)
def test_halving_doubling_gives_the_sum(log_p, n, seed):
    p = 2**log_p
    rng = np.random.default_rng(seed)
    buffers = [rng.integers(-9, 9, size=n) for _ in range(p)]
    trace = C.halving_doubling_all_reduce_trace(buffers)
    assert len(trace.steps) == 2 * log_p
    assert_all_equal(trace.result, [sum(buffers)] * p)


def test_float_ring_all_reduce_close_to_sum():
    rng = np.random.default_rng(0)
    b = [rng.normal(size=(5, 3)).astype(np.float32) for _ in range(5)]
    for r in C.ring_all_reduce(b):
        np.testing.assert_allclose(r, np.sum(np.stack(b), axis=0), rtol=1e-5, atol=1e-5)
        assert r.dtype == np.float32


@given(st.integers(1, 9), st.integers(1, 5), st.sampled_from([np.int8, np.float32, np.float64]))
@settings(max_examples=60, deadline=None)
def test_ring_traffic_is_exactly_2_p_minus_1_over_p_m(p, per_chunk, dtype):
    """The lecture: 每个节点的传输开销 m/p·2(p−1), counted from the trace's messages."""
    n = p * per_chunk
    buffers = [np.ones(n, dtype=dtype) for _ in range(p)]
    trace = C.ring_all_reduce_trace(buffers)
    m = n * np.dtype(dtype).itemsize
    assert trace.message_bytes == m
    assert len(trace.steps) == 2 * (p - 1)
    for sent in trace.bytes_sent():
        assert sent * p == 2 * (p - 1) * m
    assert trace.bytes_sent() == trace.bytes_received()
    # each phase is half of it: reduce-scatter (p-1)/p m, all-gather (p-1)/p m
    for phase in ("reduce-scatter", "all-gather"):
        assert all(s * p == (p - 1) * m for s in trace.bytes_sent(phase))


@given(st.integers(1, 8), st.integers(0, 30))
@settings(max_examples=60, deadline=None)
def test_ring_uneven_chunks_total_traffic(p, n):
    """A length not divisible by p is handled: every chunk still crosses p-1 links per phase."""
    buffers = [np.arange(n, dtype=np.int32) for _ in range(p)]
    trace = C.ring_all_reduce_trace(buffers)
    assert sum(trace.bytes_sent()) == 2 * (p - 1) * trace.message_bytes
    biggest = -(-n // p) * 4
    assert max(trace.bytes_sent()) <= 2 * (p - 1) * biggest
    assert_all_equal(trace.result, [np.arange(n, dtype=np.int32) * p] * p)


def test_ring_step_structure_on_the_slides_example():
    """Three nodes, chunks a, b, c: each step every rank sends one chunk to its right neighbour."""
    b = [np.array([1, 10, 100]) * (r + 1) for r in range(3)]
    trace = C.ring_all_reduce_trace(b)
    assert [s.phase for s in trace.steps] == ["reduce-scatter"] * 2 + ["all-gather"] * 2
    for step in trace.steps:
        assert sorted((t.src, t.dst) for t in step.transfers) == [(0, 1), (1, 2), (2, 0)]
        assert all(len(t.chunks) == 1 for t in step.transfers)
    # after the reduce-scatter phase rank r holds the full sum of chunk r
    after_rs = trace.contributors_at(2)
    for r in range(3):
        assert after_rs[r][r] == frozenset({0, 1, 2})
        assert trace.buffers_at(2)[r][r] == [6, 60, 600][r]
    labels = [
        [C.cell_label(c, trace.contributors_at(1)[r][c], 3) for c in range(3)] for r in range(3)
    ]
    assert labels == [["a0", "b0+b2", "c0"], ["a1", "b1", "c0+c1"], ["a1+a2", "b2", "c2"]]


def test_tree_traffic_and_steps():
    p, n = 5, 10
    trace = C.tree_all_reduce_trace([np.ones(n) for _ in range(p)])
    assert len(trace.steps) == 2 * 3  # ceil(log2 5) = 3 up and 3 down
    for step in trace.steps:
        assert all(t.nbytes == trace.message_bytes for t in step.transfers)
    # every non-root rank sends its buffer once up the tree; every rank receives it once down
    assert trace.bytes_sent("reduce") == [0] + [trace.message_bytes] * (p - 1)
    assert trace.bytes_received("broadcast") == [0] + [trace.message_bytes] * (p - 1)


def test_halving_doubling_traffic_equals_ring():
    p, n = 8, 64
    b = [np.ones(n, dtype=np.float32) for _ in range(p)]
    hd = C.halving_doubling_all_reduce_trace(b)
    ring = C.ring_all_reduce_trace(b)
    assert hd.bytes_sent() == ring.bytes_sent() == [2 * (p - 1) * n * 4 // p] * p


def test_single_rank_is_a_no_op():
    for algorithm in C.ALL_REDUCE_ALGORITHMS:
        trace = C.all_reduce_trace([np.arange(3)], algorithm)
        assert trace.steps == ()
        assert_all_equal(trace.result, [np.arange(3)])
        assert trace.bytes_sent() == [0]


def test_chunk_bounds_like_array_split():
    for n in range(12):
        for p in range(1, 6):
            bounds = C.chunk_bounds(n, p)
            sizes = [len(x) for x in np.array_split(np.arange(n), p)]
            assert [hi - lo for lo, hi in bounds] == sizes
            assert bounds[0][0] == 0 and bounds[-1][1] == n


def test_cell_labels():
    assert C.cell_label(0, frozenset({1}), 3) == "a1"
    assert C.cell_label(2, frozenset({0, 2}), 3) == "c0+c2"
    assert C.cell_label(1, frozenset({0, 1, 2}), 3) == "Σb"
    assert C.chunk_name(30) == "#30"


# -- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: C.all_reduce([]), "at least one rank"),
        (lambda: C.ring_all_reduce_trace([]), "p >= 1"),
        (lambda: C.all_reduce(np.ones((2, 3))), "one array per rank"),
        (lambda: C.all_reduce([np.ones(3), np.ones(4)]), "rank 1 holds shape (4,)"),
        (lambda: C.ring_all_reduce_trace([np.ones(3), np.ones((3, 1))]), "rank 1 holds shape"),
        (lambda: C.reduce_scatter([np.ones(2), np.ones(3)]), "same shape"),
        (lambda: C.tree_all_reduce_trace([np.ones(2), None]), "rank 1 holds nothing"),
        (lambda: C.broadcast([np.ones(2)] * 3, root=3), "root=3 is not a rank"),
        (lambda: C.gather([np.ones(2)] * 3, root=-1), "root=-1"),
        (lambda: C.broadcast([None, np.ones(2)], root=0), "root (rank 0) holds nothing"),
        (lambda: C.all_reduce([np.ones(2)] * 2, op="mean"), "unknown op 'mean'"),
        (lambda: C.scatter([np.float64(3.0)]), "scalar"),
        (lambda: C.all_gather([np.ones((2, 3)), np.ones((2, 4))]), "cannot be joined"),
        (lambda: C.all_gather([np.ones(3)] * 2, axis=2), "axis=2"),
        (lambda: C.all_reduce([np.array(["a"]), np.array(["b"])]), "expected numbers"),
        (lambda: C.halving_doubling_all_reduce_trace([np.ones(3)] * 3), "not a power of two"),
        (lambda: C.all_reduce_trace([np.ones(3)] * 2, "butterfly"), "unknown algorithm"),
        (lambda: C.chunk_bounds(5, 0), "p must be an integer >= 1"),
        (lambda: C.ring_all_reduce_trace([np.ones(2)] * 2).buffers_at(9), "step 9"),
    ],
)
def test_bad_input_names_what(call, words):
    with pytest.raises(ConfigError) as info:
        call()
    assert words in str(info.value)
