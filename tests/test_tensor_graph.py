"""Graph capture (tracing, symbolic tracing, the AST, graph breaks) and autodiff on the graph."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lecturekit.errors import LectureKitError
from lecturekit.tensor import examples
from lecturekit.tensor import ops as T
from lecturekit.tensor.autodiff import (
    AutodiffError,
    backward,
    dag_size,
    finite_difference,
    gradients,
    jvp,
    tree_size,
)
from lecturekit.tensor.capture import (
    CaptureError,
    from_ast,
    graph_breaks,
    symbolic_trace,
    trace,
)
from lecturekit.tensor.graph import GraphError, Node, TensorGraph

POS = np.array([1.0, 2.0, 3.0])
ONES = np.ones(3)


# -- capture ------------------------------------------------------------------------------------


def test_tracing_keeps_one_arm_and_says_so():
    t = trace(examples.branchy, POS, ONES)
    ops = [n.op for n in t.graph.compute_nodes()]
    assert "add" in ops and "sub" not in ops  # only the arm the example took
    assert len(t.assumptions) == 1 and t.assumptions[0].value is True
    assert "true branch" in t.warnings[0]
    # right on inputs that take the same arm, wrong on the others
    assert np.array_equal(t.graph.run(x=2 * POS, y=ONES), examples.branchy(2 * POS, ONES))
    other = t.graph.run(x=-POS, y=ONES)
    assert not np.array_equal(other, examples.branchy(-POS, ONES))
    assert np.array_equal(other, -POS * ONES + -POS)  # it computed z + x


def test_symbolic_tracing_refuses_a_data_dependent_branch():
    with pytest.raises(CaptureError, match="control flow"):
        symbolic_trace(examples.branchy)
    g = symbolic_trace(examples.mlp_loss)  # no branch: fine
    assert [n.op for n in g.compute_nodes()] == ["matmul", "tanh", "matmul", "mul", "sum"]


def test_ast_conversion_keeps_both_arms():
    g = from_ast(examples.branchy)
    assert "where" in [n.op for n in g.nodes]
    for x in (POS, -POS, np.array([3.0, -1.0, -1.5])):
        assert np.array_equal(g.run(x=x, y=ONES), examples.branchy(x, ONES))


@given(
    st.lists(st.floats(-5, 5), min_size=1, max_size=6),
    st.lists(st.floats(-5, 5), min_size=1, max_size=6),
)
@settings(max_examples=60, deadline=None)
def test_ast_graph_equals_eager_on_random_inputs(xs, ys):
    n = min(len(xs), len(ys))
    x, y = np.array(xs[:n]), np.array(ys[:n])
    g = from_ast(examples.branchy)
    assert np.allclose(g.run(x=x, y=y), examples.branchy(x, y))
    d = graph_breaks(examples.branchy)
    assert np.allclose(d(x, y), examples.branchy(x, y))


def test_ast_conversion_refuses_what_static_analysis_cannot_know():
    with pytest.raises(CaptureError, match=r"range\(n\): the bound is a run-time value") as e:
        from_ast(examples.repeat)
    assert "line 3" in str(e.value) and "column" in str(e.value)
    with pytest.raises(CaptureError, match="scale.factor: not a known tensor operation"):
        from_ast(examples.helper_call)
    # the same functions trace fine: tracing runs the Python
    traced = trace(examples.repeat, POS, 3).graph
    assert traced.inputs == ["x"] and np.array_equal(traced.run(x=POS), 8 * POS)


def test_ast_unrolls_a_constant_loop():
    g = from_ast(examples.logistic4)
    x = np.linspace(0.05, 0.95, 7)
    assert np.allclose(g.run(x=x), examples.logistic4(x))
    assert sum(n.op == "mul" for n in g.nodes) == 8  # two multiplies per step, four steps


def test_graph_breaks_like_dynamo():
    d = graph_breaks(examples.branchy)
    assert np.array_equal(d(POS, ONES), examples.branchy(POS, ONES))
    assert d.stats == {"captures": 1, "cached calls": 0, "graph breaks": 1, "guard misses": 0}
    graphs = d.graphs()
    assert len(graphs) == 2  # before the branch, and the arm taken
    first = graphs[0]
    assert set(first.outputs) == {"mul", "gt"}  # the condition and what the arm needs
    assert np.array_equal(d(2 * POS, ONES), examples.branchy(2 * POS, ONES))
    assert d.stats["cached calls"] == 1 and d.stats["captures"] == 1
    assert np.array_equal(d(-POS, ONES), examples.branchy(-POS, ONES))  # the other arm
    assert d.stats["captures"] == 2 and len(d.graphs()) == 3
    assert np.array_equal(d(-2 * POS, ONES), examples.branchy(-2 * POS, ONES))
    assert d.stats["cached calls"] == 2
    d(np.ones(5), np.ones(5))  # a new shape fails the guard
    assert d.stats["guard misses"] == 1 and d.stats["captures"] == 3


def test_python_numbers_are_guarded_by_value():
    d = graph_breaks(examples.repeat)
    assert np.array_equal(d(POS, 2), 4 * POS)
    assert np.array_equal(d(POS, 3), 8 * POS)  # n = 3 is another guard: captured again
    assert d.stats["captures"] == 2 and d.stats["guard misses"] == 1


def test_graph_rejects_malformed_input():
    with pytest.raises(GraphError, match="unknown operation 'conv'"):
        TensorGraph([Node("x", "placeholder"), Node("y", "conv", ("x",))], ["y"])
    with pytest.raises(GraphError, match="reads 'z' before it is defined"):
        TensorGraph([Node("x", "placeholder"), Node("y", "exp", ("z",))], ["y"])
    with pytest.raises(GraphError, match="takes 2 input"):
        TensorGraph([Node("x", "placeholder"), Node("y", "add", ("x",))], ["y"])
    g = from_ast(examples.baydin)
    with pytest.raises(GraphError, match="missing x2"):
        g.run(x1=1.0)
    with pytest.raises(GraphError, match="expected a number"):
        g.run(x1="a", x2=1.0)
    with pytest.raises(GraphError, match="shapes"):
        from_ast(examples.mlp_loss).run(x=np.ones((2, 3)), w1=np.ones((4, 5)), w2=np.ones((5, 1)))


def test_errors_are_lecturekit_errors():
    assert issubclass(CaptureError, LectureKitError)
    assert issubclass(GraphError, LectureKitError)
    assert issubclass(AutodiffError, LectureKitError)


# -- autodiff -----------------------------------------------------------------------------------


def test_baydin_by_hand():
    """f = ln x1 + x1 x2 - sin x2: ∂f/∂x1 = 1/x1 + x2, ∂f/∂x2 = x1 - cos x2 (Baydin et al.
    2018, Table 2: at (2, 5) f = 11.652, ∂f/∂x1 = 5.5)."""
    g = from_ast(examples.baydin)
    b = backward(g, example={"x1": 2.0, "x2": 5.0})
    grads = b.run(x1=2.0, x2=5.0)
    assert float(g.run(x1=2.0, x2=5.0)) == pytest.approx(math.log(2) + 10 - math.sin(5))
    assert float(g.run(x1=2.0, x2=5.0)) == pytest.approx(11.652, abs=5e-4)
    assert float(grads["x1"]) == pytest.approx(1 / 2 + 5)
    assert float(grads["x2"]) == pytest.approx(2 - math.cos(5))
    assert b.saved == []  # the backward pass reads only the inputs here
    assert [s.node for s in b.steps] == ["sub", "sin", "add", "mul", "log"]


def _mlp_inputs(seed, n=3, d=4, h=5, o=2):
    rng = np.random.default_rng(seed)
    return {
        "x": rng.normal(size=(n, d)),
        "w1": rng.normal(size=(d, h)) / 2,
        "w2": rng.normal(size=(h, o)) / 2,
    }


@given(st.integers(0, 10_000))
@settings(max_examples=15, deadline=None)
def test_reverse_mode_equals_finite_differences_and_forward_mode(seed):
    g = from_ast(examples.mlp_loss)
    inp = _mlp_inputs(seed)
    b = backward(g, example=inp)
    grads = b.run(inp)
    for k in inp:
        fd = finite_difference(g, inp, k)
        assert np.allclose(grads[k], fd, rtol=1e-5, atol=1e-6), k
    rng = np.random.default_rng(seed + 1)
    direction = {k: rng.normal(size=v.shape) for k, v in inp.items()}
    _, dd = jvp(g, inp, direction)
    assert float(dd) == pytest.approx(sum(float((grads[k] * direction[k]).sum()) for k in inp))


def test_backward_with_broadcasting_and_every_rule():
    def f(x, b, w):
        h = T.relu(x @ w + b)
        u = T.exp(h / 3.0) - T.cos(h) * T.sin(b) + T.tanh(h) ** 2
        return (T.where(h > 0.5, u, -u) * x.T.sum()).sum()

    import inspect
    import textwrap

    src = textwrap.dedent(inspect.getsource(f))
    ns: dict = {"T": T}
    exec(compile(src, __file__, "exec"), ns)  # noqa: S102 - a function with its source
    rng = np.random.default_rng(3)
    inp = {"x": rng.normal(size=(3, 4)), "b": rng.normal(size=(5,)), "w": rng.normal(size=(4, 5))}
    g = from_ast(f)
    grads = backward(g, example=inp).run(inp)
    for k in inp:
        assert np.allclose(grads[k], finite_difference(g, inp, k), rtol=1e-4, atol=1e-5), k
    assert grads["b"].shape == (5,)  # summed back over the broadcast rows


def test_saved_activations_of_the_mlp():
    g = from_ast(examples.mlp_loss)
    b = backward(g, example=_mlp_inputs(0))
    # h = tanh(x @ w1) (for tanh' and for w2's gradient) and y = h @ w2 (for y * y)
    assert set(b.saved) == {"tanh", "matmul_1"}
    assert gradients(g, _mlp_inputs(0), wrt=["w2"]).keys() == {"w2"}


def test_expression_swell():
    """Baydin et al. (2018), Table 1: the logistic map's derivative as one formula grows
    exponentially with the steps; as a graph it grows linearly."""
    sizes = []
    for steps in range(1, 6):
        ns: dict = {}
        src = (
            f"def f(x):\n    for _ in range({steps}):\n        x = 4 * x * (1 - x)\n    return x\n"
        )
        import linecache

        name = f"<logistic {steps}>"
        linecache.cache[name] = (len(src), None, src.splitlines(True), name)
        exec(compile(src, name, "exec"), ns)  # noqa: S102
        b = backward(from_ast(ns["f"]), example={"x": 0.3})
        grad = b.gradients["x"]
        sizes.append((tree_size(b.graph, grad), dag_size(b.graph, grad)))
    trees = [t for t, _ in sizes]
    dags = [d for _, d in sizes]
    assert all(b > 2 * a for a, b in zip(trees, trees[1:], strict=False))  # more than doubles
    assert all(b - a == dags[1] - dags[0] for a, b in zip(dags, dags[1:], strict=False))  # linear


def test_autodiff_bad_input():
    g = from_ast(examples.one_feeds_two)
    with pytest.raises(AutodiffError, match="2 outputs"):
        backward(g)
    with pytest.raises(AutodiffError, match="not an input"):
        backward(from_ast(examples.baydin), wrt=["x3"])
    with pytest.raises(AutodiffError, match="not an input"):
        finite_difference(from_ast(examples.baydin), {"x1": 1.0, "x2": 1.0}, "q")
    # an input the output does not depend on gets a zero gradient
    b = backward(g, output="mul", wrt=["x"])
    assert np.allclose(b.run(x=np.zeros(2))["x"], 2.0)


def _scaled(x):
    return x * float(x.sum())


def test_float_of_a_traced_value_is_a_constant_or_refused():
    t = trace(_scaled, POS)
    assert "converted to the number 6.0" in t.warnings[0]
    assert np.array_equal(t.graph.run(x=2 * POS), 2 * POS * 6.0)  # the constant stays 6
    with pytest.raises(CaptureError, match="float"):
        graph_breaks(_scaled)(POS)
    d = graph_breaks(examples.branchy)
    d(2.0, 1.0)
    d(3.0, 1.0)  # a float is data: same guard, no new capture
    assert d.stats["captures"] == 1 and d.stats["cached calls"] == 1
