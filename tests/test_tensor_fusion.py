"""Operator fusion on the graph: groups, memory traffic (chapter 11's fuse), kernels on a device
placed by the scheduling core."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lecturekit.core import verify
from lecturekit.errors import ConfigError
from lecturekit.llm import roofline as R
from lecturekit.tensor import examples
from lecturekit.tensor.capture import from_ast
from lecturekit.tensor.fusion import fusion_groups, graph_ops, kernel_schedule, kernels, unfused

N = 1 << 20
MIB = 2**20
A100 = R.Roof.from_gpu("A100-80GB")


def test_the_notes_second_pattern_by_hand():
    """a = exp(x) feeds b = 2a and c = a + 1, on 2^20 floats (4 MiB per tensor)."""
    g = from_ast(examples.one_feeds_two)
    ex = {"x": np.ones(N)}
    plans = {
        "unfused": unfused(g),  # x→a, a→b, a→c: 6 transfers
        "ab, ac (a recomputed)": [["exp", "mul"], ["exp", "add"]],  # x twice, b, c: 4
        "a, then bc": [["exp"], ["mul", "add"]],  # x, a, a, b, c: 5
        "abc": [["exp", "mul", "add"]],  # x, b, c: 3
    }
    want = {"unfused": 6, "ab, ac (a recomputed)": 4, "a, then bc": 5, "abc": 3}
    for name, groups in plans.items():
        total = sum(k.bytes_moved for k in kernels(g, groups, ex, 4))
        assert total == want[name] * 4 * MIB, name
    assert fusion_groups(g) == [["exp", "mul", "add"]]


def test_epilogue_fusion_of_a_gemm():
    g = from_ast(examples.layer)
    ex = {"x": np.ones((64, 32)), "w": np.ones((32, 16)), "b": np.ones(16)}
    assert fusion_groups(g) == [["matmul", "add", "relu", "mul"]]
    (fused,) = kernels(g, fusion_groups(g), ex, 2)
    separate = kernels(g, unfused(g), ex, 2)
    # fused: read x, w, b, write the output
    assert fused.bytes_moved == 2 * (64 * 32 + 32 * 16 + 16 + 64 * 16)
    assert fused.flops == sum(k.flops for k in separate) == 2 * 64 * 32 * 16 + 3 * 64 * 16
    assert sum(k.bytes_moved for k in separate) > fused.bytes_moved


def test_the_rule_never_fuses_two_matmuls_or_past_a_reduction():
    def two(x, w, v):
        h = (x @ w).sum()
        return (x @ v) * h

    import inspect
    import linecache
    import textwrap

    src = textwrap.dedent(inspect.getsource(two))
    linecache.cache["<two>"] = (len(src), None, src.splitlines(True), "<two>")
    ns: dict = {}
    exec(compile(src, "<two>", "exec"), ns)  # noqa: S102
    g = from_ast(ns["two"])
    groups = fusion_groups(g)
    for grp in groups:
        assert sum(x.startswith("matmul") for x in grp) <= 1
    assert ["matmul", "sum"] not in groups  # a matmul's epilogue stays element-wise


@given(st.integers(1, 64), st.floats(0, 20e-6))
@settings(max_examples=30, deadline=None)
def test_kernels_on_a_device(rows, launch):
    g = from_ast(examples.layer)
    ex = {"x": np.ones((rows * 16, 256)), "w": np.ones((256, 512)), "b": np.ones(512)}
    for groups in (unfused(g), fusion_groups(g)):
        ks = kernels(g, groups, ex, 2)
        run = kernel_schedule(ks, A100, launch)
        verify(run.graph, run.schedule)
        # never faster than the GPU's work, never slower than the talk's sum (up to rounding)
        busy = sum(run.times)
        assert busy - 1e-12 <= run.seconds <= run.serial_seconds + 2 * len(ks) * run.tick
        assert run.seconds >= launch  # the first launch is always exposed
        if all(t >= launch for t in run.times):  # long kernels hide every later launch
            assert run.seconds == pytest.approx(launch + busy, abs=2 * len(ks) * run.tick)


def test_fusion_bad_input():
    g = from_ast(examples.layer)
    ex = {"x": np.ones((4, 4)), "w": np.ones((4, 4)), "b": np.ones(4)}
    with pytest.raises(ConfigError, match="leave out relu"):
        kernels(g, [["matmul", "add"], ["mul"]], ex)
    with pytest.raises(ConfigError, match="not operations of the graph"):
        kernels(g, [["matmul", "add", "relu", "mul", "conv"]], ex)
    with pytest.raises(ConfigError, match="no kernels"):
        kernel_schedule([], A100)
    with pytest.raises(ConfigError, match="launch"):
        kernel_schedule(kernels(g, unfused(g), ex), A100, launch=-1)
    with pytest.raises(ConfigError, match="element_bytes"):
        graph_ops(g, ex, 0)
