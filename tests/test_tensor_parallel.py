"""Megatron tensor parallelism on simulated ranks equals the unsplit computation."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lecturekit.errors import ConfigError
from lecturekit.llm import comm
from lecturekit.llm import tensor_parallel as tp
from lecturekit.llm.collectives import all_gather, all_reduce


@st.composite
def linear_case(draw):
    t = draw(st.integers(1, 6))
    rows = draw(st.integers(1, 5))
    k = draw(st.integers(t, 12))  # row-parallel needs at least t rows of A
    n = draw(st.integers(t, 12))  # column-parallel needs at least t columns
    rng = np.random.default_rng(draw(st.integers(0, 2**31)))
    return t, rng.normal(size=(rows, k)), rng.normal(size=(k, n))


@given(linear_case())
@settings(max_examples=60, deadline=None)
def test_column_and_row_parallel_linear(case):
    t, x, a = case
    cols = tp.column_parallel_linear(x, a, t)
    assert len(cols) == t
    np.testing.assert_allclose(all_gather(cols, axis=1)[t - 1], x @ a, atol=1e-10)
    rows = tp.row_parallel_linear(x, a, t)
    for y in all_reduce(rows):
        np.testing.assert_allclose(y, x @ a, atol=1e-10)
    np.testing.assert_allclose(tp.linear_column_then_gather(x, a, t), x @ a, atol=1e-10)
    np.testing.assert_allclose(tp.linear_row_then_reduce(x, a, t), x @ a, atol=1e-10)


@st.composite
def mlp_case(draw):
    t = draw(st.integers(1, 4))
    h = draw(st.integers(1, 6))
    ffn = draw(st.integers(t, 4 * h + t))  # the 4h dimension (need not divide by t)
    tokens = draw(st.integers(1, 5))
    rng = np.random.default_rng(draw(st.integers(0, 2**31)))
    return (
        t,
        rng.normal(size=(tokens, h)),
        rng.normal(size=(h, ffn)) / np.sqrt(h),
        rng.normal(size=(ffn, h)) / np.sqrt(ffn),
        rng.normal(size=(tokens, h)),
    )


@given(mlp_case())
@settings(max_examples=50, deadline=None)
def test_tp_mlp_forward_and_backward_equal_unsplit(case):
    t, x, a, b, dz = case
    log = []
    z = tp.tp_mlp_forward(x, a, b, t, log)
    assert len(z) == t
    for zi in z:
        np.testing.assert_allclose(zi, tp.mlp_forward(x, a, b), atol=1e-10)
    got = tp.tp_mlp_backward(x, a, b, dz, t, log)
    want = tp.mlp_backward(x, a, b, dz)
    np.testing.assert_allclose(got.dx, want.dx, atol=1e-10)
    np.testing.assert_allclose(got.da, want.da, atol=1e-10)
    np.testing.assert_allclose(got.db, want.db, atol=1e-10)
    # one all-reduce of tokens x h forward (g), one backward (f); none on a single rank
    want_log = [("all-reduce", "forward", x.size), ("all-reduce", "backward", x.size)]
    assert log == (want_log if t > 1 else [])


def test_hand_backward_matches_finite_differences():
    rng = np.random.default_rng(0)
    x, a, b = rng.normal(size=(3, 4)), rng.normal(size=(4, 8)), rng.normal(size=(8, 4))
    dz = rng.normal(size=(3, 4))
    grads = tp.mlp_backward(x, a, b, dz)

    def loss(x, a, b):
        return float(np.sum(tp.mlp_forward(x, a, b) * dz))

    eps = 1e-6
    params = {"x": x, "a": a, "b": b}
    for name, g in (("x", grads.dx), ("a", grads.da), ("b", grads.db)):
        num = np.zeros_like(params[name])
        for idx in np.ndindex(num.shape):
            up, down = dict(params), dict(params)
            up[name] = params[name].copy()
            up[name][idx] += eps
            down[name] = params[name].copy()
            down[name][idx] -= eps
            num[idx] = (loss(**up) - loss(**down)) / (2 * eps)
        np.testing.assert_allclose(g, num, rtol=1e-5, atol=1e-6)
    # GeLU derivative against a central difference too
    u = np.linspace(-4, 4, 41)
    np.testing.assert_allclose(
        tp.gelu_grad(u), (tp.gelu(u + 1e-6) - tp.gelu(u - 1e-6)) / 2e-6, atol=1e-7
    )


def test_f_and_g_operators():
    x = np.arange(6.0).reshape(2, 3)
    assert all(np.array_equal(xi, x) for xi in tp.f_forward(x, 3))
    assert all(np.array_equal(gi, x) for gi in tp.g_backward(x, 3))
    parts = [x, 2 * x, 3 * x]
    log = []
    assert all(np.array_equal(y, 6 * x) for y in tp.g_forward(parts, log))
    assert all(np.array_equal(y, 6 * x) for y in tp.f_backward(parts, log))
    assert log == [("all-reduce", "forward", 6), ("all-reduce", "backward", 6)]


@given(
    st.sampled_from([(1, 1), (2, 1), (2, 2), (4, 2), (4, 4), (6, 3), (6, 2)]),
    st.integers(1, 3),
    st.integers(1, 6),
    st.booleans(),
    st.integers(0, 2**31),
)
@settings(max_examples=40, deadline=None)
def test_tp_attention_equals_unsplit(a_t, d, s, causal, seed):
    a, t = a_t
    h = a * d
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(s, h))
    w = [rng.normal(size=(h, h)) / np.sqrt(h) for _ in range(4)]
    log = []
    want = tp.attention_forward(x, *w, a=a, causal=causal)
    got = tp.tp_attention_forward(x, *w, a=a, t=t, causal=causal, log=log)
    for y in got:
        np.testing.assert_allclose(y, want, atol=1e-10)
    assert log == ([("all-reduce", "forward", s * h)] if t > 1 else [])


def test_layer_communication_agrees_with_comm_module():
    """Attention + MLP: 2 all-reduces of b·s·h forward and 2 backward, as comm.py says."""
    rng = np.random.default_rng(1)
    s, h, a, t = 5, 8, 4, 2
    x = rng.normal(size=(s, h))
    w = [rng.normal(size=(h, h)) for _ in range(4)]
    a1, b1 = rng.normal(size=(h, 4 * h)), rng.normal(size=(4 * h, h))
    log = []
    tp.tp_attention_forward(x, *w, a=a, t=t, log=log)
    tp.tp_mlp_forward(x, a1, b1, t, log)
    tp.tp_mlp_backward(x, a1, b1, np.ones((s, h)), t, log)
    plan = comm.tensor_parallel_comm(1, s, h)
    forward = [e for c, ph, e in log if ph == "forward"]
    assert len(forward) == plan.count("all-reduce", "forward") == 2
    assert all(e == 1 * s * h for e in forward)
    assert [op.elements for op in plan.ops] == [s * h] * 4
    # backward: the MLP's f all-reduce is one of the two the layer needs (attention's f the other)
    assert (
        sum(1 for _, ph, _ in log if ph == "backward") == plan.count("all-reduce", "backward") - 1
    )


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: tp.split_columns(np.ones((2, 3)), 4), "cannot split the columns"),
        (lambda: tp.split_rows(np.ones((2, 3)), 0), "t (tensor-parallel size)"),
        (lambda: tp.column_parallel_linear(np.ones((2, 3)), np.ones((4, 2)), 1), "3 columns"),
        (lambda: tp.row_parallel_linear(np.ones(3), np.ones((3, 2)), 1), "2-D matrix"),
        (lambda: tp.mlp_forward(np.ones((1, 2)), np.ones((2, 4)), np.ones((5, 2))), "B has 5"),
        (
            lambda: tp.tp_mlp_forward(np.ones((1, 2)), np.ones((2, 3)), np.ones((3, 2)), 4),
            "hidden (4h)",
        ),
        (
            lambda: tp.tp_attention_forward(np.ones((2, 6)), *[np.eye(6)] * 4, a=3, t=2),
            "a=3 heads cannot be split evenly across t=2",
        ),
        (lambda: tp.attention_forward(np.ones((2, 6)), *[np.eye(6)] * 4, a=4), "dividing h=6"),
        (
            lambda: tp.attention_forward(np.ones((2, 6)), *[np.eye(6)] * 3, np.eye(5), a=2),
            "Wo must be 6×6",
        ),
    ],
)
def test_bad_input(call, words):
    with pytest.raises(ConfigError) as info:
        call()
    assert words in str(info.value)


def test_one_rank_sends_nothing_and_logs_nothing():
    rng = np.random.default_rng(3)
    x, a, b = rng.normal(size=(4, 8)), rng.normal(size=(8, 32)), rng.normal(size=(32, 8))
    log = []
    tp.tp_mlp_forward(x, a, b, 1, log)
    tp.tp_mlp_backward(x, a, b, rng.normal(size=(4, 8)), 1, log)
    assert log == []
    tp.tp_mlp_forward(x, a, b, 2, log)
    assert log == [("all-reduce", "forward", x.size)]
