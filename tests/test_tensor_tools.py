"""TVM, Halide and PyTorch beside lecturekit's tensor compiler.

The saved outputs (lecturekit/data/tensor/chapter14.json, what chapter 14 shows) are checked
against lecturekit's own loop nests everywhere; with a tool installed, its live output is checked
against the saved one and its compiled code against numpy. Without a tool its tests skip with the
command that installs it (``pip install apache-tvm``, ``pip install halide``,
``pip install torch``; ``.ci/run`` installs torch, so under CI the PyTorch tests run).
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lecturekit.tensor import examples, loopnest, tools
from lecturekit.tensor.capture import graph_breaks

POS, ONES = np.array([1.0, 2.0, 3.0]), np.ones(3)


def needs(module: str):
    return pytest.mark.skipif(
        not tools.have(module),
        reason=f"{module} is not installed: {tools.INSTALL.get(module) or tools.PROGRAMS[module]}",
    )


def ours(kind, shape, schedule):
    comp = getattr(loopnest, kind)(*shape)
    return comp, [[lp.name, lp.extent, lp.kind] for lp in loopnest.apply(comp, schedule).loops]


@pytest.mark.parametrize("kind, shape, schedule", tools.COMPARED)
def test_saved_tvm_and_halide_loops_are_lecturekits(kind, shape, schedule):
    _, mine = ours(kind, shape, schedule)
    tvm = tools.saved(tools.compared_key("tvm", kind, shape, schedule))
    halide = tools.saved(tools.compared_key("halide", kind, shape, schedule))
    assert [[tools.normalize_tvm_name(n), e, k] for n, e, k in tvm["loops"]] == mine
    assert halide["loops"] == mine
    assert tvm["equal_to_numpy"] and halide["equal_to_numpy"]


def test_saved_outputs_say_what_the_chapter_says():
    torch_ = tools.saved("torch capture branchy")
    assert "control flow" in torch_["fx"]["error"]
    assert torch_["jit"]["traced_on_other"] != torch_["jit"]["eager_on_other"]
    assert torch_["dynamo"]["graph_count"] == 2 and torch_["dynamo"]["graph_break_count"] == 1
    inductor = tools.saved("torch inductor chain")
    assert inductor["kernels"] == ["cpp_fused_add_mul_relu_sum_0"] and inductor["equal_to_eager"]
    assert "nvptx64" in tools.saved("llvm targets")["targets"]
    gcc = tools.saved("gcc dumps")
    assert "= a * x;" in gcc["gimple"] and gcc["rtl_insns"] > 0


def test_our_graph_breaks_cut_where_dynamo_cuts():
    dynamo = tools.saved("torch capture branchy")["dynamo"]
    d = graph_breaks(examples.branchy)
    d(POS, ONES)
    graphs = d.graphs()
    assert len(graphs) == dynamo["graph_count"]
    assert "return (gt, z)" in dynamo["graphs"][0]
    assert set(graphs[0].outputs) == {"gt", "mul"}  # the condition and z (named after its op)


def test_a_missing_tool_says_what_to_install(monkeypatch):
    monkeypatch.setattr(tools, "have", lambda module: False)
    with pytest.raises(tools.ToolMissingError, match="pip install apache-tvm"):
        tools.tvm_loops(loopnest.matmul(4, 4, 4), "")
    with pytest.raises(tools.ToolMissingError, match="pip install halide"):
        tools.halide_run(loopnest.matmul(4, 4, 4), "", {})
    assert tools.saved_or_live("llvm targets", lambda: 1 / 0, "llc")["targets"]
    with pytest.raises(tools.ToolMissingError, match="apt-get install gcc"):
        tools.saved_or_live("no such key", lambda: 1 / 0, "gcc")


# -- live ---------------------------------------------------------------------------------------


@needs("tvm")
@pytest.mark.parametrize("kind, shape, schedule", tools.COMPARED)
def test_tvm_live(kind, shape, schedule):
    comp, _ = ours(kind, shape, schedule)
    live = tools.compare_schedule("tvm", comp, schedule)
    saved = tools.saved(tools.compared_key("tvm", kind, shape, schedule))
    assert live["loops"] == saved["loops"] and live["equal_to_numpy"]


@needs("halide")
@pytest.mark.parametrize("kind, shape, schedule", tools.COMPARED)
def test_halide_live(kind, shape, schedule):
    comp, _ = ours(kind, shape, schedule)
    live = tools.compare_schedule("halide", comp, schedule)
    saved = tools.saved(tools.compared_key("halide", kind, shape, schedule))
    assert live["loops"] == saved["loops"] and live["equal_to_numpy"]


@st.composite
def matmul_schedule(draw):
    m, n, k = (draw(st.sampled_from([4, 8, 16])) for _ in range(3))
    comp = loopnest.matmul(m, n, k)
    fi, fj, fk = (draw(st.sampled_from(loopnest.divisors(e))) for e in (m, n, k))
    order = draw(st.permutations(["i_o", "j_o", "k_o", "i_i", "k_i"]))
    steps = [f"split i {fi}", f"split j {fj}", f"split k {fk}", f"reorder {' '.join(order)} j_i"]
    if fj > 1 and draw(st.booleans()):
        steps.append("vectorize j_i")
    if order[0] in ("i_o", "j_o") and draw(st.booleans()):
        steps.append(f"parallel {order[0]}")
    return comp, "\n".join(steps)


@needs("halide")
@given(matmul_schedule())
@settings(max_examples=12, deadline=None)
def test_halide_agrees_on_random_schedules(case):
    comp, schedule = case
    loops = loopnest.apply(comp, schedule).loops
    # Halide leaves loops of one iteration out of its loop nest (TVM keeps them)
    mine = [[lp.name, lp.extent, lp.kind] for lp in loops if lp.extent > 1]
    assert tools.halide_loops(comp, schedule)["loops"] == mine
    inputs = comp.random_inputs(2)
    assert np.array_equal(tools.halide_run(comp, schedule, inputs), inputs["A"] @ inputs["B"])


@needs("tvm")
@given(matmul_schedule())
@settings(max_examples=6, deadline=None)
def test_tvm_agrees_on_random_schedules(case):
    comp, schedule = case
    mine = [[lp.name, lp.extent, lp.kind] for lp in loopnest.apply(comp, schedule).loops]
    loops = tools.tvm_loops(comp, schedule)["loops"]
    assert [[tools.normalize_tvm_name(n), e, k] for n, e, k in loops] == mine
    inputs = comp.random_inputs(3)
    assert np.array_equal(tools.tvm_run(comp, schedule, inputs), inputs["A"] @ inputs["B"])


@needs("tvm")
def test_tvm_also_refuses_to_vectorize_a_reduction():
    import tvm  # noqa: F401

    with pytest.raises(Exception, match="vectorize"):
        tools.tvm_loops(loopnest.matmul(8, 8, 8), [loopnest.Vectorize("k")])


@needs("torch")
def test_torch_live_capture_equals_saved():
    live = tools.torch_capture(
        examples.branchy, [POS, ONES], [-POS, ONES]
    )  # the chapter's inputs (tools/save_chapter14.py)
    saved = tools.saved("torch capture branchy")
    for part in ("fx", "jit", "dynamo"):
        assert live[part] == saved[part], part


@needs("torch")
@pytest.mark.skipif(
    not os.environ.get("LECTUREKIT_TORCH_COMPILE"),
    reason="torch.compile takes about a minute on two cores: set LECTUREKIT_TORCH_COMPILE=1",
)
def test_inductor_live_equals_saved():
    live = tools.torch_inductor_chain()
    saved = tools.saved("torch inductor chain")
    assert live["kernels"] == saved["kernels"] and live["equal_to_eager"]


@needs("gcc")
def test_gcc_has_intermediate_representations():
    live = tools.gcc_dumps()
    assert "_1 = a * x;" in live["gimple"] and live["rtl_insns"] > 0


@needs("llc")
def test_llvm_has_a_ptx_backend():
    assert {"nvptx", "nvptx64"} <= set(tools.llvm_targets()["targets"])
