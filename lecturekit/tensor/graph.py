"""A small graph IR for tensor programs: named nodes, each one operation on earlier nodes.

This is the *computational graph* of the AI-systems notes (计算图: tensors and operators) and
what graph capture produces (:mod:`lecturekit.tensor.capture`). A :class:`TensorGraph` is a list
of :class:`Node` in topological order (every input of a node is defined before it), the names
of its inputs (``placeholder`` nodes) and of its outputs. :meth:`TensorGraph.run` evaluates it
with numpy; :meth:`TensorGraph.text` prints it one node a line, as ``torch.fx`` prints a graph.

The operations (:data:`OPS`) are the few a lecture needs: element-wise arithmetic with numpy's
broadcasting, ``exp log tanh relu sin cos``, ``matmul``, ``transpose``, ``sum`` (of every
element), comparisons that give a 0/1 mask, ``where`` (select), constants, and the two helpers
the backward pass needs (``sum_to``: sum a broadcast gradient back to a shape; ``broadcast_to``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..errors import LectureKitError
from ..language import _


class GraphError(LectureKitError):
    """A graph that is malformed (unknown operation, a name used before it is defined, ...) or
    inputs that do not fit it."""


def _sum_to(x, ref):
    """``x`` summed over the axes numpy's broadcasting added or stretched to reach ``ref``'s
    shape (the gradient of a broadcast)."""
    shape = np.shape(ref)
    x = np.asarray(x, dtype=float)
    while x.ndim > len(shape):
        x = x.sum(axis=0)
    for axis, size in enumerate(shape):
        if size == 1 and x.shape[axis] != 1:
            x = x.sum(axis=axis, keepdims=True)
    return x


@dataclass(frozen=True)
class OpSpec:
    """An operation: how many inputs, what it computes, and how it prints."""

    arity: int
    compute: object
    symbol: str = ""  #: infix symbol for text (``+``); empty: printed as a call


#: the operations a graph may use: name -> OpSpec
OPS: dict[str, OpSpec] = {
    "add": OpSpec(2, np.add, "+"),
    "sub": OpSpec(2, np.subtract, "-"),
    "mul": OpSpec(2, np.multiply, "*"),
    "div": OpSpec(2, np.divide, "/"),
    "neg": OpSpec(1, np.negative),
    "exp": OpSpec(1, np.exp),
    "log": OpSpec(1, np.log),
    "tanh": OpSpec(1, np.tanh),
    "sin": OpSpec(1, np.sin),
    "cos": OpSpec(1, np.cos),
    "relu": OpSpec(1, lambda a: np.maximum(a, 0.0)),
    "step": OpSpec(1, lambda a: (np.asarray(a) > 0).astype(float)),  # relu's derivative
    "gt": OpSpec(2, lambda a, b: (np.asarray(a) > np.asarray(b)).astype(float), ">"),
    "where": OpSpec(3, lambda c, a, b: np.where(np.asarray(c) != 0, a, b)),
    "matmul": OpSpec(2, np.matmul, "@"),
    "transpose": OpSpec(1, lambda a: np.swapaxes(a, -1, -2) if np.ndim(a) >= 2 else a),
    "sum": OpSpec(1, lambda a: np.sum(a)),
    "sum_to": OpSpec(2, _sum_to),
    "broadcast_to": OpSpec(2, lambda g, ref: np.broadcast_to(g, np.shape(ref)).astype(float)),
    "pow": OpSpec(1, None),  # x ** p for a constant p (attrs["p"])
    "const": OpSpec(0, None),  # attrs["value"]
    "placeholder": OpSpec(0, None),  # an input of the graph
}


@dataclass(frozen=True)
class Node:
    """``name = op(*inputs)``; ``attrs`` holds a constant's ``value`` or a power's ``p``;
    ``line`` is the source line it came from, when known."""

    name: str
    op: str
    inputs: tuple[str, ...] = ()
    attrs: Mapping = field(default_factory=dict, compare=False, hash=False)
    line: int | None = field(default=None, compare=False)

    def expression(self) -> str:
        """The right-hand side as text: ``x * y``, ``relu(z)``, ``2.0``."""
        spec = OPS[self.op]
        args = [f"%{a}" for a in self.inputs]
        if self.op == "const":
            return repr(_plain(self.attrs["value"]))
        if self.op == "placeholder":
            return "placeholder"
        if self.op == "pow":
            return f"{args[0]} ** {_plain(self.attrs['p'])!r}"
        if spec.symbol and len(args) == 2:
            return f"{args[0]} {spec.symbol} {args[1]}"
        return f"{self.op}({', '.join(args)})"


def _plain(value):
    """A constant as a plain Python number (or list) for printing."""
    arr = np.asarray(value)
    return arr.item() if arr.ndim == 0 else arr.tolist()


@dataclass
class TensorGraph:
    """Nodes in topological order, and the names of the outputs."""

    nodes: list[Node]
    outputs: list[str]
    name: str = "graph"

    def __post_init__(self) -> None:
        seen: set[str] = set()
        for k, node in enumerate(self.nodes):
            if node.op not in OPS:
                raise GraphError(
                    _(
                        "{name}: node {name2!r} (position {k}) uses unknown operation {op!r}; "
                        "known: {join}"
                    ).format(
                        name=self.name,
                        name2=node.name,
                        k=k,
                        op=node.op,
                        join=", ".join(sorted(OPS)),
                    )
                )
            if node.name in seen:
                raise GraphError(
                    _("{name}: the name {name2!r} is defined twice").format(
                        name=self.name, name2=node.name
                    )
                )
            if len(node.inputs) != OPS[node.op].arity:
                raise GraphError(
                    _("{name}: {name2} = {op}(...) takes {arity} input(s), got {n_inputs}").format(
                        name=self.name,
                        name2=node.name,
                        op=node.op,
                        arity=OPS[node.op].arity,
                        n_inputs=len(node.inputs),
                    )
                )
            for a in node.inputs:
                if a not in seen:
                    raise GraphError(
                        _("{name}: node {name2!r} reads {a!r} before it is defined").format(
                            name=self.name, name2=node.name, a=a
                        )
                    )
            if node.op == "const" and "value" not in node.attrs:
                raise GraphError(
                    _("{name}: constant {name2!r} has no value").format(
                        name=self.name, name2=node.name
                    )
                )
            if node.op == "pow" and "p" not in node.attrs:
                raise GraphError(
                    _("{name}: power {name2!r} has no exponent p").format(
                        name=self.name, name2=node.name
                    )
                )
            seen.add(node.name)
        for out in self.outputs:
            if out not in seen:
                raise GraphError(
                    _("{name}: output {out!r} is not a node of the graph").format(
                        name=self.name, out=out
                    )
                )

    # -- reading -----------------------------------------------------------------------------
    @property
    def inputs(self) -> list[str]:
        return [n.name for n in self.nodes if n.op == "placeholder"]

    def node(self, name: str) -> Node:
        for n in self.nodes:
            if n.name == name:
                return n
        raise GraphError(_("{name}: no node named {name2!r}").format(name=self.name, name2=name))

    def users(self) -> dict[str, list[str]]:
        """name -> the nodes that read it, in order."""
        users: dict[str, list[str]] = {n.name: [] for n in self.nodes}
        for n in self.nodes:
            for a in n.inputs:
                users[a].append(n.name)
        return users

    def compute_nodes(self) -> list[Node]:
        """The nodes that compute something (not inputs, not constants)."""
        return [n for n in self.nodes if n.op not in ("placeholder", "const")]

    def text(self) -> str:
        """One line per node, ``torch.fx`` style; the last line returns the outputs."""
        lines = [f"graph {self.name}({', '.join('%' + i for i in self.inputs)}):"]
        for n in self.nodes:
            if n.op != "placeholder":
                lines.append(f"    %{n.name} = {n.expression()}")
        lines.append(f"    return {', '.join('%' + o for o in self.outputs)}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text()

    # -- running -----------------------------------------------------------------------------
    def evaluate(self, inputs: Mapping[str, object] | None = None, **kw) -> dict[str, np.ndarray]:
        """The value of every node, given the inputs by name (as float arrays)."""
        given = dict(inputs or {}, **kw)
        missing = [i for i in self.inputs if i not in given]
        extra = [k for k in given if k not in self.inputs]
        if missing or extra:
            raise GraphError(
                (
                    _("{name}: inputs are {inputs}").format(
                        name=self.name, inputs=", ".join(self.inputs)
                    )
                    if self.inputs
                    else _("{name}: it has no inputs").format(name=self.name)
                )
                + (_("; missing {names}").format(names=", ".join(missing)) if missing else "")
                + (_("; unknown {names}").format(names=", ".join(extra)) if extra else "")
            )
        env: dict[str, np.ndarray] = {}
        for n in self.nodes:
            if n.op == "placeholder":
                env[n.name] = _as_array(
                    given[n.name], _("{name}: input {input}").format(name=self.name, input=n.name)
                )
            elif n.op == "const":
                env[n.name] = np.asarray(n.attrs["value"], dtype=float)
            elif n.op == "pow":
                env[n.name] = np.power(env[n.inputs[0]], float(n.attrs["p"]))
            else:
                args = [env[a] for a in n.inputs]
                try:
                    with np.errstate(all="ignore"):
                        env[n.name] = np.asarray(OPS[n.op].compute(*args), dtype=float)
                except ValueError as exc:  # shapes that do not broadcast or multiply
                    shapes = ", ".join(str(np.shape(a)) for a in args)
                    raise GraphError(
                        _("{name}: {name2} = {expression} on shapes {shapes}: {exc}").format(
                            name=self.name,
                            name2=n.name,
                            expression=n.expression(),
                            shapes=shapes,
                            exc=exc,
                        )
                    ) from None
        return env

    def run(self, inputs: Mapping[str, object] | None = None, **kw):
        """The outputs' values: one array, or a tuple of them when there are several."""
        env = self.evaluate(inputs, **kw)
        values = tuple(env[o] for o in self.outputs)
        return values[0] if len(values) == 1 else values

    def to_core(self):
        """The graph as a :class:`lecturekit.core.Graph` (one operation per computing node,
        an edge per tensor read) for drawing with the dependence-graph layout."""
        from ..core import Edge, Graph, Operation

        shown = [n for n in self.nodes if n.op not in ("const",)]
        index = {n.name: k for k, n in enumerate(shown)}
        ops = [
            Operation(n.name, n.name if n.op == "placeholder" else f"{n.name} = {_short(n)}")
            for n in shown
        ]
        edges = [
            Edge(index[a], index[n.name], 1, kind="data", on=a)
            for n in shown
            for a in n.inputs
            if a in index
        ]
        return Graph(ops, edges, name=self.name)


def _short(n: Node) -> str:
    return n.expression().replace("%", "")


def _as_array(value, what: str) -> np.ndarray:
    if isinstance(value, bool) or value is None or isinstance(value, (str, bytes)):
        raise GraphError(
            _("{what}: expected a number or an array of numbers, got {value!r}").format(
                what=what, value=value
            )
        )
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise GraphError(
            _("{what}: expected numbers, got {name}").format(what=what, name=type(value).__name__)
        ) from None
    return arr


class Builder:
    """Appends nodes to a graph under fresh names (``mul``, ``mul_1``, ...), as tracing does."""

    def __init__(self, name: str = "graph"):
        self.name = name
        self.nodes: list[Node] = []
        self._used: dict[str, int] = {}

    def fresh(self, base: str) -> str:
        base = base.replace(".", "_")
        k = self._used.get(base, 0)
        self._used[base] = k + 1
        name = base if k == 0 else f"{base}_{k}"
        while name in self._used and name != base:  # a user's name like mul_1 taken before
            k += 1
            self._used[base] = k + 1
            name = f"{base}_{k}"
        self._used.setdefault(name, 1)
        return name

    def add(self, op: str, inputs: Sequence[str] = (), name: str | None = None, line=None, **attrs):
        node = Node(self.fresh(name or op), op, tuple(inputs), attrs, line)
        self.nodes.append(node)
        return node.name

    def graph(self, outputs: Sequence[str]) -> TensorGraph:
        return TensorGraph(list(self.nodes), list(outputs), self.name)
