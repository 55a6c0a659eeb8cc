"""Automatic differentiation on the graph: reverse mode as a graph, forward mode to check it.

The AI-systems notes list three ways to get derivatives (符号微分, 数值微分, 自动微分) and say of
reverse mode that the backward pass "产生新的节点，方向还会用到正向的这些节点的变量，
所以需要把中间变量都存起来".
This module computes each:

- :func:`backward` builds the **backward graph**: the forward graph plus, for every node on a
  path from the inputs to the output, in reverse order, the vector-Jacobian product of its
  operation (:data:`RULES`), adjoints of a value read twice added up. The derivative is itself a
  graph (TensorFlow's way in the notes); :attr:`Backward.steps` records each step for a stepper,
  and :attr:`Backward.saved` lists the forward values the backward nodes read: the activations
  a framework keeps in memory until the backward pass (chapter 08).
- :func:`jvp` is forward mode: every value carries its tangent (the notes'
  "把v和dv一起给计算机求解").
  Its directional derivative must equal the gradient's dot product with the direction.
- :func:`finite_difference` is numerical differentiation (central differences), the third
  check, exact only up to its step's truncation and rounding.
- :func:`tree_size` counts the nodes of a value written as one formula, sharing nothing: what
  symbolic differentiation produces, and the "表达式膨胀" (expression swell) the notes mention.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..errors import LectureKitError
from ..language import N_, _
from .graph import Builder, Node, TensorGraph


class AutodiffError(LectureKitError):
    """A derivative that cannot be taken: an unknown output or input, a non-scalar output."""


#: how each operation passes its output's adjoint ``g`` back to its inputs, as text
RULES = {
    "add": "ā += sum_to(g, a);  b̄ += sum_to(g, b)",  # i18n: as is
    "sub": "ā += sum_to(g, a);  b̄ += sum_to(-g, b)",  # i18n: as is
    "mul": "ā += sum_to(g·b, a);  b̄ += sum_to(g·a, b)",  # i18n: as is
    "div": "ā += sum_to(g / b, a);  b̄ += sum_to(-(g·out) / b, b)",  # i18n: as is
    "neg": "ā += -g",
    "exp": "ā += g·out",
    "log": "ā += g / a",
    "tanh": "ā += g·(1 - out²)",
    "sin": "ā += g·cos(a)",
    "cos": "ā += -(g·sin(a))",
    "relu": "ā += g·step(a)",
    "pow": "ā += g·p·a^(p-1)",
    "matmul": "ā += g @ bᵀ;  b̄ += aᵀ @ g",
    "transpose": "ā += gᵀ",
    "sum": "ā += broadcast_to(g, a)",
    "where": "ā += sum_to(where(c, g, 0), a);  b̄ += sum_to(where(c, 0, g), b)",  # i18n: as is
    "gt": N_("no gradient (a comparison)"),
    "step": N_("no gradient (relu's derivative is 0 almost everywhere)"),
}


@dataclass(frozen=True)
class Step:
    """One step of the backward pass: the adjoint of ``node`` is passed to its inputs."""

    node: str  #: the forward node whose adjoint is propagated
    expression: str  #: the forward node, as text
    rule: str  #: the rule used (from :data:`RULES`)
    added: tuple[str, ...]  #: the backward nodes this step created


@dataclass
class Backward:
    """The backward graph and how it was built."""

    graph: TensorGraph  #: forward nodes, then backward nodes; outputs: the loss, then gradients
    output: str
    wrt: list[str]
    gradients: dict[str, str]  #: input -> the node holding its gradient
    steps: list[Step] = field(default_factory=list)
    forward_names: list[str] = field(default_factory=list)

    @property
    def backward_nodes(self) -> list[Node]:
        fwd = set(self.forward_names)
        return [n for n in self.graph.nodes if n.name not in fwd]

    @property
    def saved(self) -> list[str]:
        """Forward values (not inputs or constants) that backward nodes read: kept in memory from
        the forward pass until the backward pass uses them."""
        fwd = {n.name: n for n in self.graph.nodes if n.name in set(self.forward_names)}
        read = []
        for n in self.backward_nodes:
            # sum_to and broadcast_to read only the shape of their second input
            values = n.inputs[:1] if n.op in ("sum_to", "broadcast_to") else n.inputs
            for a in values:
                if a in fwd and fwd[a].op not in ("placeholder", "const") and a not in read:
                    read.append(a)
        return read

    def run(self, inputs: Mapping[str, object] | None = None, **kw) -> dict[str, np.ndarray]:
        """The gradient of the output with respect to each input in ``wrt``."""
        env = self.graph.evaluate(inputs, **kw)
        return {x: env[g] for x, g in self.gradients.items()}


def _needed(graph: TensorGraph, output: str, wrt: Sequence[str]) -> set[str]:
    """Nodes on some path from an input in ``wrt`` to ``output``."""
    users = graph.users()
    forward = set(wrt)
    for n in graph.nodes:
        if any(a in forward for a in n.inputs):
            forward.add(n.name)
    backward = {output}
    for n in reversed(graph.nodes):
        if n.name in backward:
            backward.update(n.inputs)
    del users
    return forward & backward


def backward(
    graph: TensorGraph,
    output: str | None = None,
    wrt: Sequence[str] | None = None,
    example: Mapping[str, object] | None = None,
) -> Backward:
    """Reverse-mode differentiation of ``output`` (default: the graph's only output, which must
    be a scalar when run) with respect to ``wrt`` (default: every input).

    Where broadcasting may have stretched a value, its adjoint is summed back to its shape
    (``sum_to``). With ``example`` inputs the shapes are known and every ``sum_to`` that changes
    nothing is left out, so the graph reads as one would write it by hand."""
    output = output or (graph.outputs[0] if len(graph.outputs) == 1 else None)
    if output is None:
        raise AutodiffError(
            _("{name} has {n_outputs} outputs; name the one to differentiate").format(
                name=graph.name, n_outputs=len(graph.outputs)
            )
        )
    names = [n.name for n in graph.nodes]
    if output not in names:
        raise AutodiffError(
            _("{name}: no node named {output!r} to differentiate").format(
                name=graph.name, output=output
            )
        )
    wrt = list(graph.inputs if wrt is None else wrt)
    for x in wrt:
        if x not in graph.inputs:
            raise AutodiffError(
                _("{name}: {x!r} is not an input; inputs are {join}").format(
                    name=graph.name, x=x, join=", ".join(graph.inputs)
                )
            )
    b = Builder(f"{graph.name}_backward")
    b.nodes = list(graph.nodes)
    for n in graph.nodes:
        b._used[n.name] = 1
    needed = _needed(graph, output, wrt)
    nodes = {n.name: n for n in graph.nodes}
    adjoint: dict[str, str] = {}
    one = b.add("const", name="one", value=1.0)
    adjoint[output] = b.add("broadcast_to", [one, output], name=f"grad_{output}")
    steps: list[Step] = []

    def accumulate(target: str, contribution: str, added: list[str]) -> None:
        if target not in needed:
            return
        if target in adjoint:
            adjoint[target] = b.add("add", [adjoint[target], contribution], name=f"grad_{target}")
            added.append(adjoint[target])
        else:
            adjoint[target] = contribution

    for n in reversed(graph.nodes):
        if n.name not in adjoint or n.op in ("placeholder", "const"):
            continue
        g = adjoint[n.name]
        start = len(b.nodes)
        added: list[str] = []
        _vjp(b, n, g, nodes, accumulate, added)
        created = tuple(x.name for x in b.nodes[start:])
        steps.append(Step(n.name, n.expression().replace("%", ""), _(RULES[n.op]), created))
    gradients = {}
    for x in wrt:
        if x in adjoint:
            gradients[x] = adjoint[x]
        else:  # the output does not depend on x: its gradient is zero
            zero = b.add("const", name="zero", value=0.0)
            gradients[x] = b.add("broadcast_to", [zero, x], name=f"grad_{x}")
    g = TensorGraph(b.nodes, [output, *gradients.values()], b.name)
    result = Backward(g, output, wrt, gradients, steps, [n.name for n in graph.nodes])
    return _without_needless_sums(result, example) if example is not None else result


def _without_needless_sums(result: Backward, example: Mapping[str, object]) -> Backward:
    """``result`` with each ``sum_to(v, ref)`` whose ``v`` already has ``ref``'s shape replaced
    by ``v`` itself (shapes from running the graph on ``example``)."""
    env = result.graph.evaluate(example)
    alias: dict[str, str] = {}
    kept: list[Node] = []
    for n in result.graph.nodes:
        inputs = tuple(alias.get(a, a) for a in n.inputs)
        if n.op == "sum_to" and np.shape(env[n.inputs[0]]) == np.shape(env[n.inputs[1]]):
            alias[n.name] = inputs[0]
            continue
        kept.append(Node(n.name, n.op, inputs, n.attrs, n.line) if inputs != n.inputs else n)
    outputs = [alias.get(o, o) for o in result.graph.outputs]
    graph = TensorGraph(kept, outputs, result.graph.name)
    gradients = {x: alias.get(g, g) for x, g in result.gradients.items()}
    steps = [
        Step(s.node, s.expression, s.rule, tuple(a for a in s.added if a not in alias))
        for s in result.steps
    ]
    return Backward(graph, result.output, result.wrt, gradients, steps, result.forward_names)


def _vjp(b: Builder, n: Node, g: str, nodes, accumulate, added) -> None:
    """Add the backward nodes of ``n`` (adjoint ``g``) and pass them to ``accumulate``."""
    op, ins = n.op, n.inputs

    def new(o, args, **attrs):
        name = b.add(o, args, **attrs)
        added.append(name)
        return name

    def give(target, value, *, reduce=True):
        accumulate(target, new("sum_to", [value, target]) if reduce else value, added)

    if op == "add":
        give(ins[0], g)
        give(ins[1], g)
    elif op == "sub":
        give(ins[0], g)
        give(ins[1], new("neg", [g]))
    elif op == "mul":
        give(ins[0], new("mul", [g, ins[1]]))
        give(ins[1], new("mul", [g, ins[0]]))
    elif op == "div":
        give(ins[0], new("div", [g, ins[1]]))
        give(ins[1], new("neg", [new("div", [new("mul", [g, n.name]), ins[1]])]))
    elif op == "neg":
        give(ins[0], new("neg", [g]), reduce=False)
    elif op == "exp":
        give(ins[0], new("mul", [g, n.name]), reduce=False)
    elif op == "log":
        give(ins[0], new("div", [g, ins[0]]), reduce=False)
    elif op == "tanh":
        one = new("const", [], value=1.0)
        give(ins[0], new("mul", [g, new("sub", [one, new("mul", [n.name, n.name])])]))
    elif op == "sin":
        give(ins[0], new("mul", [g, new("cos", [ins[0]])]), reduce=False)
    elif op == "cos":
        give(ins[0], new("neg", [new("mul", [g, new("sin", [ins[0]])])]), reduce=False)
    elif op == "relu":
        give(ins[0], new("mul", [g, new("step", [ins[0]])]), reduce=False)
    elif op == "pow":
        p = float(n.attrs["p"])
        scale = new("const", [], value=p)
        base = ins[0] if p - 1 == 1 else new("pow", [ins[0]], p=p - 1)
        give(ins[0], new("mul", [g, new("mul", [scale, base])]), reduce=False)
    elif op == "matmul":
        give(ins[0], new("matmul", [g, new("transpose", [ins[1]])]))
        give(ins[1], new("matmul", [new("transpose", [ins[0]]), g]))
    elif op == "transpose":
        give(ins[0], new("transpose", [g]), reduce=False)
    elif op == "sum":
        give(ins[0], new("broadcast_to", [g, ins[0]]), reduce=False)
    elif op == "where":
        zero = new("const", [], value=0.0)
        give(ins[1], new("where", [ins[0], g, zero]))
        give(ins[2], new("where", [ins[0], zero, g]))
    elif op in ("gt", "step"):
        pass  # piecewise constant: no gradient flows
    else:  # sum_to and broadcast_to only appear in backward graphs
        raise AutodiffError(
            _("no derivative rule for {op} (node {name})").format(op=op, name=n.name)
        )


def gradients(graph: TensorGraph, inputs: Mapping[str, object], wrt=None, output=None) -> dict:
    """The gradient of ``output`` with respect to each of ``wrt`` at ``inputs``."""
    return backward(graph, output, wrt).run(inputs)


# -- forward mode -------------------------------------------------------------------------------


def jvp(
    graph: TensorGraph,
    inputs: Mapping[str, object],
    tangents: Mapping[str, object],
    output: str | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Forward mode: (value, directional derivative) of ``output`` at ``inputs`` along
    ``tangents`` (input -> direction; inputs not named have direction 0)."""
    output = output or graph.outputs[0]
    env = graph.evaluate(inputs)
    for k in tangents:
        if k not in graph.inputs:
            raise AutodiffError(
                _("{name}: tangent for {k!r}, which is not an input").format(name=graph.name, k=k)
            )
    dot: dict[str, np.ndarray] = {}
    for n in graph.nodes:
        v = env[n.name]
        if n.op == "placeholder":
            t = np.asarray(tangents.get(n.name, np.zeros_like(v)), dtype=float)
            if t.shape != v.shape:
                raise AutodiffError(
                    _("tangent of {name} has shape {shape}, not {shape2}").format(
                        name=n.name, shape=t.shape, shape2=v.shape
                    )
                )
            dot[n.name] = t
            continue
        a = [env[x] for x in n.inputs]
        da = [dot[x] for x in n.inputs]
        dot[n.name] = _jvp_rule(n, v, a, da)
    return env[output], dot[output]


def _jvp_rule(n: Node, out, a, da):
    op = n.op
    with np.errstate(all="ignore"):
        if op == "const":
            return np.zeros_like(out)
        if op == "add":
            return da[0] + da[1]
        if op == "sub":
            return da[0] - da[1]
        if op == "mul":
            return da[0] * a[1] + a[0] * da[1]
        if op == "div":
            return (da[0] - out * da[1]) / a[1]
        if op == "neg":
            return -da[0]
        if op == "exp":
            return out * da[0]
        if op == "log":
            return da[0] / a[0]
        if op == "tanh":
            return (1 - out * out) * da[0]
        if op == "sin":
            return np.cos(a[0]) * da[0]
        if op == "cos":
            return -np.sin(a[0]) * da[0]
        if op == "relu":
            return (a[0] > 0) * da[0]
        if op == "pow":
            p = float(n.attrs["p"])
            return p * np.power(a[0], p - 1) * da[0]
        if op == "matmul":
            return da[0] @ a[1] + a[0] @ da[1]
        if op == "transpose":
            return np.swapaxes(da[0], -1, -2) if np.ndim(da[0]) >= 2 else da[0]
        if op == "sum":
            return np.sum(da[0])
        if op == "where":
            return np.where(a[0] != 0, da[1], da[2])
        if op in ("gt", "step"):
            return np.zeros_like(out)
        if op == "sum_to":
            from .graph import _sum_to

            return _sum_to(da[0], a[1])
        if op == "broadcast_to":
            return np.broadcast_to(da[0], np.shape(a[1])).astype(float)
    raise AutodiffError(_("no forward-mode rule for {op} (node {name})").format(op=op, name=n.name))


# -- numerical differentiation and expression swell ---------------------------------------------


def finite_difference(
    graph: TensorGraph,
    inputs: Mapping[str, object],
    wrt: str,
    output: str | None = None,
    eps: float = 1e-6,
) -> np.ndarray:
    """Central differences ``(f(x + εe) - f(x - εe)) / 2ε`` for every element of input ``wrt``
    (the output must be a scalar)."""
    output = output or graph.outputs[0]
    if wrt not in graph.inputs:
        raise AutodiffError(_("{name}: {wrt!r} is not an input").format(name=graph.name, wrt=wrt))
    base = {k: np.array(v, dtype=float) for k, v in inputs.items()}
    x = base[wrt]
    grad = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        hi, lo = x.copy(), x.copy()
        hi[idx] += eps
        lo[idx] -= eps
        f_hi = graph.evaluate({**base, wrt: hi})[output]
        f_lo = graph.evaluate({**base, wrt: lo})[output]
        if np.size(f_hi) != 1:
            raise AutodiffError(
                _("{output} is not a scalar; differences need a scalar output").format(
                    output=output
                )
            )
        grad[idx] = (float(f_hi) - float(f_lo)) / (2 * eps)
    return grad


def tree_size(graph: TensorGraph, name: str) -> int:
    """Nodes of ``name`` written out as one formula (a tree): every shared value is copied
    into each place that uses it. The graph's own size is the number of distinct nodes."""
    nodes = {n.name: n for n in graph.nodes}
    if name not in nodes:
        raise AutodiffError(
            _("{name}: no node named {name2!r}").format(name=graph.name, name2=name)
        )
    size: dict[str, int] = {}
    for n in graph.nodes:  # topological order: inputs first
        size[n.name] = 1 + sum(size[a] for a in n.inputs)
    return size[name]


def dag_size(graph: TensorGraph, name: str) -> int:
    """Distinct nodes ``name`` depends on (itself included): the same value as a graph."""
    nodes = {n.name: n for n in graph.nodes}
    if name not in nodes:
        raise AutodiffError(
            _("{name}: no node named {name2!r}").format(name=graph.name, name2=name)
        )
    seen, todo = set(), [name]
    while todo:
        x = todo.pop()
        if x not in seen:
            seen.add(x)
            todo.extend(nodes[x].inputs)
    return len(seen)
