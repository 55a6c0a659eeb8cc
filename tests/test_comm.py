"""α–β costs of collectives (checked against the traces) and per-step communication volumes."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lecturekit.errors import ConfigError
from lecturekit.llm import collectives as C
from lecturekit.llm import comm

LINK = comm.Link.from_bandwidth(alpha=5e-6, bandwidth_bytes_per_s=100e9)


@given(
    st.integers(1, 9),
    st.integers(1, 6),
    st.floats(0, 1e-3),
    st.floats(1e6, 1e12),
)
@settings(max_examples=60, deadline=None)
def test_ring_and_tree_formulas_equal_the_traces(p, per_chunk, alpha, bandwidth):
    link = comm.Link.from_bandwidth(alpha, bandwidth)
    n = p * per_chunk
    buffers = [np.ones(n, dtype=np.float32) for _ in range(p)]
    m = n * 4
    ring = C.ring_all_reduce_trace(buffers)
    tree = C.tree_all_reduce_trace(buffers)
    assert math.isclose(
        comm.trace_time(ring, link), comm.collective_time("all-reduce", m, p, link, "ring")
    )
    assert math.isclose(
        comm.trace_time(tree, link), comm.collective_time("all-reduce", m, p, link, "tree")
    )
    for phase, name in (("reduce-scatter", "reduce-scatter"), ("all-gather", "all-gather")):
        assert math.isclose(
            comm.trace_time(ring, link, phase), comm.collective_time(name, m, p, link, "ring")
        )
    # the per-rank traffic behind the formula
    assert max(ring.bytes_sent()) == comm.ring_all_reduce_bytes_per_rank(m, p)


@pytest.mark.parametrize("p", [1, 2, 4, 8, 16])
def test_halving_doubling_formula_equals_trace(p):
    n = 4 * p
    trace = C.halving_doubling_all_reduce_trace([np.ones(n) for _ in range(p)])
    m = n * 8
    want = comm.collective_time("all-reduce", m, p, LINK, "halving-doubling")
    assert math.isclose(comm.trace_time(trace, LINK), want)
    for phase in ("reduce-scatter", "all-gather"):
        got = comm.trace_time(trace, LINK, phase)
        assert math.isclose(got, comm.collective_time(phase, m, p, LINK, "halving-doubling"))


def test_ring_beats_tree_for_big_messages_and_loses_for_small():
    p = 16
    small, big = 1_000, 1_000_000_000
    t = {a: comm.collective_time("all-reduce", small, p, LINK, a) for a in ("ring", "tree")}
    assert t["tree"] < t["ring"]
    t = {a: comm.collective_time("all-reduce", big, p, LINK, a) for a in ("ring", "tree")}
    assert t["ring"] < t["tree"]


def test_hand_values():
    link = comm.Link(alpha=1.0, beta=0.5)
    # ring all-reduce, p=4, m=8: 2*3*1 + 2*(3/4)*8*0.5 = 6 + 6
    assert comm.collective_time("all-reduce", 8, 4, link) == 12
    assert comm.collective_time("all-reduce", 8, 4, link, "tree") == 2 * 2 * (1 + 4)
    assert comm.collective_time("broadcast", 8, 5, link) == 3 * (1 + 4)
    assert comm.collective_time("all-to-all", 8, 4, link) == 3 * (1 + 1)
    assert comm.collective_time("scatter", 8, 4, link) == 2 + 3
    assert comm.collective_time("all-reduce", 8, 1, link) == 0
    assert comm.ring_all_reduce_bytes_per_rank(300, 3) == 400
    assert link.message_time(4) == 3
    assert comm.Link(0, 0).bandwidth == math.inf


def test_data_parallel_volumes_match_the_zero_paper():
    psi = 7_500_000_000  # the paper's 7.5B example
    got = {s: comm.data_parallel_comm(psi, s) for s in comm.DP_STRATEGIES}
    assert got["ddp"].elements_per_rank() == 2 * psi
    assert got["zero1"].elements_per_rank() == 2 * psi
    assert got["zero2"].elements_per_rank() == 2 * psi
    assert got["zero3"].elements_per_rank() == 3 * psi
    assert got["ddp"].bytes_per_rank() == 2 * psi * 2  # fp16
    assert comm.data_parallel_comm(psi, "zero3", dtype="fp32").bytes_per_rank() == 3 * psi * 4
    assert comm.data_parallel_comm(100, "ddp", dtype=1).bytes_per_rank() == 200
    # exact ring volume with N_d ranks: (N_d - 1)/N_d of the large-N figure
    assert got["ddp"].elements_per_rank(64) == 2 * psi * 63 / 64
    assert got["zero3"].count("all-gather") == 2 and got["zero3"].count("reduce-scatter") == 1


def test_ddp_volume_equals_ring_trace_traffic():
    p, psi = 4, 12
    plan = comm.data_parallel_comm(psi, "ddp", dtype="fp32")
    trace = C.ring_all_reduce_trace([np.ones(psi, dtype=np.float32)] * p)
    assert plan.bytes_per_rank(p) == trace.bytes_sent()[0]
    assert math.isclose(plan.time(p, LINK), comm.trace_time(trace, LINK))


def test_tensor_parallel_layer_volume():
    b, s, h, t = 8, 2048, 12288, 8
    plain = comm.tensor_parallel_comm(b, s, h)
    sp = comm.tensor_parallel_comm(b, s, h, sequence_parallel=True)
    assert plain.count("all-reduce", "forward") == 2
    assert plain.count("all-reduce", "backward") == 2
    assert all(op.elements == b * s * h for op in plain.ops)
    assert plain.elements_per_rank(t) == 4 * 2 * (t - 1) / t * b * s * h
    assert sp.count("all-reduce") == 0
    assert sp.count("all-gather") == 4 and sp.count("reduce-scatter") == 4
    assert sp.bytes_per_rank(t) == plain.bytes_per_rank(t)
    assert math.isclose(sp.time(t, comm.Link(0, 1e-9)), plain.time(t, comm.Link(0, 1e-9)))


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: comm.collective_time("allreduce", 1, 2, LINK), "unknown collective"),
        (lambda: comm.collective_time("broadcast", 1, 2, LINK, "ring"), "no algorithm 'ring'"),
        (lambda: comm.collective_time("all-reduce", 1, 0, LINK), "p (number of ranks)"),
        (lambda: comm.collective_time("all-reduce", -1, 2, LINK), "m_bytes must be"),
        (lambda: comm.collective_time("all-reduce", 1, 6, LINK, "halving-doubling"), "power"),
        (lambda: comm.collective_time("all-reduce", 1, 2, (1, 2)), "link must be a Link"),
        (lambda: comm.Link(-1, 0), "alpha must be"),
        (lambda: comm.Link.from_bandwidth(0, 0), "bandwidth must be > 0"),
        (lambda: comm.data_parallel_comm(10, "zero4"), "unknown strategy"),
        (lambda: comm.data_parallel_comm(0), "num_params"),
        (lambda: comm.data_parallel_comm(10, dtype="fp12"), "unknown format"),
        (lambda: comm.tensor_parallel_comm(1, 0, 4), "s must be"),
    ],
)
def test_bad_input(call, words):
    with pytest.raises(ConfigError) as info:
        call()
    assert words in str(info.value)
