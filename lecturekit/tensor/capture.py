"""Graph capture: turning a Python function into a :class:`~lecturekit.tensor.graph.TensorGraph`.

The heterogeneous-platform talk names the two routes from an eager (dynamic-graph) program to a
static graph, and the compromise PyTorch 2 took:

- **tracing** (路线二): run the function on values that record every operation. Runs any Python,
  but a branch on a tensor's value is decided once, by the example input, and the graph keeps
  only that arm ("if节点结果就只保留加法的一枝"): :func:`trace` records each such decision as an
  :class:`Assumption` (``torch.jit.trace`` warns the same way). :func:`symbolic_trace` traces
  with no values at all and refuses such a branch, as ``torch.fx.symbolic_trace`` does.
- **conversion from the AST** (路线一): read the function's source and translate each statement;
  an ``if`` on a tensor becomes a ``where`` of both arms (TensorFlow's AutoGraph makes a ``cond``),
  so every input is handled, but only the Python the converter understands: ``range(n)`` with a
  run-time ``n``, a call to an unknown function, an attribute of an object of unknown type are
  refused with the line and column (:func:`from_ast`).
- **graph breaks with guards** (TorchDynamo, 部分捕获): trace, and where a branch needs a
  tensor's value, end the graph there, let Python decide, and go on in a new graph. The graphs
  are cached per input shape (a *guard*) and per path of decisions; a new shape or a new path
  captures again (:class:`GraphBreakFunction`).
"""

from __future__ import annotations

import ast
import inspect
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import LectureKitError
from ..language import N_, _
from .graph import OPS, Builder, GraphError, TensorGraph
from .ops import FUNCTIONS

#: the modules whose frames are the tracer's own, not the traced program's
_TRACER_FILES = {
    str(Path(__file__).resolve().parent / f) for f in ("capture.py", "ops.py", "graph.py")
}


class CaptureError(LectureKitError):
    """A function that a capture method cannot turn into a graph, with where and why."""


def _user_frame():
    """The first frame outside the tracer: where the traced program did it."""
    frame = sys._getframe(1)
    while frame is not None and str(Path(frame.f_code.co_filename).resolve()) in _TRACER_FILES:
        frame = frame.f_back
    return frame


def _user_line() -> int | None:
    frame = _user_frame()
    return frame.f_lineno if frame is not None else None


def _user_function() -> str:
    frame = _user_frame()
    return frame.f_code.co_name if frame is not None else ""


@dataclass(frozen=True)
class Assumption:
    """A branch decided during tracing: ``value`` is what the condition was on the example."""

    line: int | None
    condition: str  #: the node whose truth (or number, for float()) was asked
    value: bool | float
    function: str = ""  #: the function the branch is in

    def warning(self) -> str:
        if not self.line:
            where = ""
        elif self.function:
            where = _("{function}, line {line}: ").format(function=self.function, line=self.line)
        else:
            where = _("line {line}: ").format(line=self.line)
        if not isinstance(self.value, bool):
            return _(
                "{where}a tensor ({condition}) was converted to the number {value!r}; "
                "the graph uses that constant for every input"
            ).format(where=where, condition=self.condition, value=self.value)
        return (
            _(
                "{where}a tensor ({condition}) was used as a Python bool; tracing took "
                "the true branch and the graph assumes it for every input"
            )
            if self.value
            else _(
                "{where}a tensor ({condition}) was used as a Python bool; tracing took "
                "the false branch and the graph assumes it for every input"
            )
        ).format(where=where, condition=self.condition)


class Traced:
    """A value inside a trace: the node that computes it and, unless symbolic, its value."""

    __array_priority__ = 1000  # numpy array (op) Traced -> Traced.__rop__

    def __init__(self, tracer: _Tracer, name: str, value):
        self.tracer = tracer
        self.name = name
        self.value = value

    def __repr__(self) -> str:
        return f"Traced({self.name})"

    # arithmetic records an operation
    def __add__(self, o):
        return self.tracer.record("add", (self, o))

    def __radd__(self, o):
        return self.tracer.record("add", (o, self))

    def __sub__(self, o):
        return self.tracer.record("sub", (self, o))

    def __rsub__(self, o):
        return self.tracer.record("sub", (o, self))

    def __mul__(self, o):
        return self.tracer.record("mul", (self, o))

    def __rmul__(self, o):
        return self.tracer.record("mul", (o, self))

    def __truediv__(self, o):
        return self.tracer.record("div", (self, o))

    def __rtruediv__(self, o):
        return self.tracer.record("div", (o, self))

    def __matmul__(self, o):
        return self.tracer.record("matmul", (self, o))

    def __rmatmul__(self, o):
        return self.tracer.record("matmul", (o, self))

    def __neg__(self):
        return self.tracer.record("neg", (self,))

    def __pow__(self, p):
        if isinstance(p, bool) or not isinstance(p, (int, float)):
            raise CaptureError(
                _("x ** p needs a constant number p, got {name}").format(name=type(p).__name__)
            )
        return self.tracer.record("pow", (self,), p=float(p))

    def __gt__(self, o):
        return self.tracer.record("gt", (self, o))

    def __lt__(self, o):
        return self.tracer.record("gt", (o, self))

    def sum(self):
        return self.tracer.record("sum", (self,))

    @property
    def T(self):  # noqa: N802 - numpy's and torch's name
        return self.tracer.record("transpose", (self,))

    @property
    def shape(self):
        if self.value is None:
            raise CaptureError(
                _("symbolic tracing: the shape of {name} is not known without a value").format(
                    name=self.name
                )
            )
        return np.shape(self.value)

    def __bool__(self) -> bool:
        return self.tracer.branch(self)

    def __float__(self) -> float:
        return self.tracer.scalar(self)

    def __iter__(self):
        raise CaptureError(
            _(
                "iterating over the traced tensor {name} would unroll it into Python "
                "values; use tensor operations instead"
            ).format(name=self.name)
        )


@dataclass(frozen=True)
class Break:
    """A graph break: after the operations recorded so far, Python asked for ``condition``'s
    truth (on ``line``) and it was ``value``."""

    at: int  #: number of nodes recorded before the break
    condition: str
    value: bool
    line: int | None


class _Tracer:
    """Records operations while a function runs on :class:`Traced` values."""

    def __init__(self, mode: str, name: str):
        self.mode = mode  # "concrete", "symbolic" or "segments"
        self.builder = Builder(name)
        self.assumptions: list[Assumption] = []
        self.breaks: list[Break] = []

    def placeholder(self, name: str, value) -> Traced:
        node = self.builder.add("placeholder", name=name)
        return Traced(self, node, None if value is None else np.asarray(value, dtype=float))

    def lift(self, x) -> Traced:
        """A Python number or numpy array becomes a constant node."""
        if isinstance(x, Traced):
            if x.tracer is not self:
                raise CaptureError(_("a traced value from another trace was used in this one"))
            return x
        if isinstance(x, bool) or not isinstance(x, (int, float, np.ndarray, np.number, list)):
            raise CaptureError(
                _("line {user_line}: cannot use a {name} in a tensor operation").format(
                    user_line=_user_line(), name=type(x).__name__
                )
            )
        value = np.asarray(x, dtype=float)
        return Traced(self, self.builder.add("const", name="const", value=value), value)

    def record(self, op: str, args, **attrs) -> Traced:
        line = _user_line()
        traced = [self.lift(a) for a in args]
        value = None
        if self.mode != "symbolic":
            values = [t.value for t in traced]
            try:
                with np.errstate(all="ignore"):
                    if op == "pow":
                        value = np.power(values[0], attrs["p"])
                    else:
                        value = np.asarray(OPS[op].compute(*values), dtype=float)
            except ValueError as exc:
                shapes = ", ".join(str(np.shape(v)) for v in values)
                raise CaptureError(
                    _("line {line}: {op} on shapes {shapes}: {exc}").format(
                        line=line, op=op, shapes=shapes, exc=exc
                    )
                ) from None
        name = self.builder.add(op, [t.name for t in traced], line=line, **attrs)
        return Traced(self, name, value)

    def branch_value(self, t: Traced):
        if self.mode == "symbolic":
            raise CaptureError(
                _(
                    "{user_function}, line {user_line}: symbolically traced values cannot "
                    "be used as inputs to control flow ({name} has no value while "
                    "tracing); the branch depends on the data"
                ).format(user_function=_user_function(), user_line=_user_line(), name=t.name)
            )
        if np.size(t.value) != 1:
            raise CaptureError(
                _(
                    "line {user_line}: the truth of a tensor of shape {shape} is "
                    "ambiguous; reduce it to one number first (e.g. x.sum() > 0)"
                ).format(user_line=_user_line(), shape=np.shape(t.value))
            )
        return np.asarray(t.value).item()

    def scalar(self, t: Traced) -> float:
        """``float(t)``: the value leaves the graph and becomes a Python number."""
        value = float(self.branch_value(t))
        if self.mode == "segments":
            raise CaptureError(
                _(
                    "{user_function}, line {user_line}: float() of the traced value "
                    "{name}: graph_breaks caches graphs by the truth of branches, not by "
                    "numbers; compute with the tensor instead"
                ).format(user_function=_user_function(), user_line=_user_line(), name=t.name)
            )
        self.assumptions.append(Assumption(_user_line(), t.name, value, _user_function()))
        return value

    def branch(self, t: Traced) -> bool:
        value = bool(self.branch_value(t))
        line = _user_line()
        if self.mode == "segments":
            self.breaks.append(Break(len(self.builder.nodes), t.name, value, line))
        else:
            self.assumptions.append(Assumption(line, t.name, value, _user_function()))
        return value


def _params(fn: Callable) -> list[str]:
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        raise CaptureError(_("cannot read the parameters of {fn!r}").format(fn=fn)) from None
    names = []
    for p in sig.parameters.values():
        if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            raise CaptureError(
                _(
                    "{name}: parameter {name2} is *args, **kwargs or keyword-only; capture "
                    "takes plain positional parameters"
                ).format(name=fn.__name__, name2=p.name)
            )
        names.append(p.name)
    return names


def _outputs(tracer: _Tracer, result) -> list[str]:
    items = result if isinstance(result, tuple) else (result,)
    return [tracer.lift(r).name for r in items]


@dataclass
class Trace:
    """What :func:`trace` returns: the graph and the branch decisions it baked in."""

    graph: TensorGraph
    assumptions: list[Assumption] = field(default_factory=list)

    @property
    def warnings(self) -> list[str]:
        return [a.warning() for a in self.assumptions]


def _static(value) -> bool:
    """A Python int (a count, a size) stays a Python value while tracing: the graph is made
    for that value (TorchDynamo specializes on it and guards on it)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _call(fn, tracer, args, names):
    traced_args = [
        a if _static(a) else tracer.placeholder(n, a) for n, a in zip(names, args, strict=True)
    ]
    try:
        return fn(*traced_args)
    except LectureKitError:
        raise
    except TypeError as exc:
        raise CaptureError(f"{fn.__name__}: {exc}") from None


def trace(fn: Callable, *example_inputs, name: str | None = None) -> Trace:
    """Run ``fn`` on the examples, recording every tensor operation (``torch.jit.trace``).

    Returns the graph and the :class:`Assumption` s: each branch that asked a tensor's truth
    was decided by the examples and only the arm taken is in the graph. A Python ``int``
    argument is not an input of the graph: the graph is made for its value."""
    names = _params(fn)
    if len(example_inputs) != len(names):
        raise CaptureError(
            _("{name} takes {n_names} input(s) ({join}), got {n_example_inputs} example(s)").format(
                name=fn.__name__,
                n_names=len(names),
                join=", ".join(names),
                n_example_inputs=len(example_inputs),
            )
        )
    tracer = _Tracer("concrete", name or fn.__name__)
    result = _call(fn, tracer, example_inputs, names)
    return Trace(tracer.builder.graph(_outputs(tracer, result)), tracer.assumptions)


def symbolic_trace(fn: Callable, name: str | None = None) -> TensorGraph:
    """Trace ``fn`` with placeholders that carry no value (``torch.fx.symbolic_trace``): a
    branch on a tensor raises :class:`CaptureError`, since nothing can decide it."""
    names = _params(fn)
    tracer = _Tracer("symbolic", name or fn.__name__)
    result = _call(fn, tracer, [None] * len(names), names)
    return tracer.builder.graph(_outputs(tracer, result))


# -- graph breaks and guards (TorchDynamo's way) ---------------------------------------------


@dataclass
class Segment:
    """One captured graph. After it runs, Python tests ``condition`` (one of its outputs) and
    goes on with ``children[truth]``; ``condition`` None means this graph ends the function."""

    graph: TensorGraph
    condition: str | None = None
    line: int | None = None
    children: dict = field(default_factory=dict)


def _split(tracer: _Tracer, outputs: list[str]) -> list[Segment]:
    """The trace cut at its breaks into graphs, each passing on what later ones read."""
    nodes = tracer.builder.nodes
    cuts = [0] + [b.at for b in tracer.breaks] + [len(nodes)]
    where = {}
    for k in range(len(cuts) - 1):
        for n in nodes[cuts[k] : cuts[k + 1]]:
            where[n.name] = -1 if n.op == "placeholder" else k  # the caller's inputs
    by_name = {n.name: n for n in nodes}
    segments = []
    for k in range(len(cuts) - 1):
        own = [n for n in nodes[cuts[k] : cuts[k + 1]] if n.op != "placeholder"]
        builder = Builder(f"{tracer.builder.name}_{k}")
        needed = []
        for n in own:
            for a in n.inputs:
                if where[a] != k and a not in needed:
                    needed.append(a)
        for a in needed:  # values from the caller or an earlier graph (constants are copied)
            src = by_name[a]
            if src.op == "const":
                builder.nodes.append(src)
            else:
                builder.nodes.append(type(src)(a, "placeholder"))
        builder.nodes.extend(own)
        later = set(outputs) if k == len(cuts) - 2 else set()
        for n in nodes[cuts[k + 1] :]:
            later.update(a for a in n.inputs if where.get(a) == k)
        if k < len(cuts) - 2:
            later.update(o for o in outputs if where.get(o) == k)
        cond = tracer.breaks[k].condition if k < len(tracer.breaks) else None
        outs = [n.name for n in builder.nodes if n.name in later or n.name == cond]
        if k == len(cuts) - 2:  # the last graph returns the function's outputs, in order
            outs = [o for o in outputs if o in {n.name for n in builder.nodes}] + [
                o for o in outs if o not in outputs
            ]
        segments.append(
            Segment(
                builder.graph(outs),
                cond,
                tracer.breaks[k].line if k < len(tracer.breaks) else None,
            )
        )
    return segments


def _guard(args) -> tuple:
    """What the cache keys on: each array's (and float's) shape, each Python int's value."""
    key = []
    for a in args:
        if _static(a):
            key.append(("value", a))
        else:
            key.append(("shape", np.shape(a)))
    return tuple(key)


class GraphBreakFunction:
    """``fn`` captured TorchDynamo's way: graphs between the branches Python must decide,
    cached per guard (input shapes) and per path of decisions.

    Call it like ``fn``. ``stats`` counts captures (each a run of ``fn`` under the tracer),
    calls answered from the cache, and graph breaks; :meth:`graphs` lists the cached graphs."""

    def __init__(self, fn: Callable):
        self.fn = fn
        self.names = _params(fn)
        self.cache: dict[tuple, Segment] = {}
        self.outputs: dict[tuple, list[str]] = {}
        # the keys are shown as they are (a chapter translates them with _(key))
        self.stats = {
            N_("captures"): 0,
            N_("cached calls"): 0,
            N_("graph breaks"): 0,
            N_("guard misses"): 0,
        }
        self.log: list[str] = []

    def _capture(self, args, key):
        tracer = _Tracer("segments", self.fn.__name__)
        result = _call(self.fn, tracer, args, self.names)
        outputs = _outputs(tracer, result)
        path = _split(tracer, outputs)
        self.stats["captures"] += 1
        self.stats["graph breaks"] += len(tracer.breaks)
        decisions = [b.value for b in tracer.breaks]
        if key not in self.cache:
            self.cache[key] = path[0]
            self.outputs[key] = outputs
            self.log.append(
                _("capture for {key}: {n_path} graph(s)").format(key=key, n_path=len(path))
            )
        else:
            self.log.append(
                _("capture of a new path {decisions} for {key}").format(
                    decisions=decisions, key=key
                )
            )
        node = self.cache[key]
        for seg, value in zip(path[1:], decisions, strict=True):
            node = node.children.setdefault(value, seg)
        values = tuple(np.asarray(r.value) if isinstance(r, Traced) else r for r in _tuple(result))
        return values[0] if len(values) == 1 else values

    def __call__(self, *args):
        if len(args) != len(self.names):
            raise CaptureError(
                _("{name} takes {n_names} input(s), got {n_args}").format(
                    name=self.fn.__name__, n_names=len(self.names), n_args=len(args)
                )
            )
        key = _guard(args)
        if key not in self.cache:
            if self.cache:
                self.stats["guard misses"] += 1
            return self._capture(args, key)
        env = {
            n: np.asarray(a, dtype=float)
            for n, a in zip(self.names, args, strict=True)
            if not _static(a)
        }
        node = self.cache[key]
        while True:
            values = node.graph.evaluate({i: env[i] for i in node.graph.inputs})
            env.update({o: values[o] for o in node.graph.outputs})
            if node.condition is None:
                break
            truth = bool(np.asarray(env[node.condition]).item())
            if truth not in node.children:
                return self._capture(args, key)
            node = node.children[truth]
        self.stats["cached calls"] += 1
        outs = [env[o] for o in node.graph.outputs[: len(self.outputs[key])]]
        return outs[0] if len(outs) == 1 else tuple(outs)

    def graphs(self) -> list[TensorGraph]:
        """Every cached graph, root first, depth first (true arm before false)."""
        found = []

        def visit(seg: Segment):
            found.append(seg.graph)
            for truth in (True, False):
                if truth in seg.children:
                    visit(seg.children[truth])

        for root in self.cache.values():
            visit(root)
        return found


def _tuple(x):
    return x if isinstance(x, tuple) else (x,)


def graph_breaks(fn: Callable) -> GraphBreakFunction:
    """``fn`` wrapped for capture with graph breaks and guards (see :class:`GraphBreakFunction`)."""
    return GraphBreakFunction(fn)


# -- conversion from the AST -------------------------------------------------------------------


class _Static:
    """A Python value known while converting (a loop index, a literal)."""

    def __init__(self, value):
        self.value = value


_UNDEFINED = object()
_BINOPS = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div", ast.MatMult: "matmul"}


class _Converter:
    def __init__(self, fn: Callable):
        self.fn = fn
        try:
            source = textwrap.dedent(inspect.getsource(fn))
        except (OSError, TypeError):
            raise CaptureError(
                _(
                    "{getattr!r}: its source is not available, so it cannot be converted "
                    "from the AST (a lambda in a string, a built-in)"
                ).format(getattr=getattr(fn, "__name__", fn))
            ) from None
        self.lines = source.splitlines()
        tree = ast.parse(source)
        defs = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
        if not defs:
            raise CaptureError(
                _("{name}: no def statement in its source (a lambda?)").format(name=fn.__name__)
            )
        self.fdef = defs[0]
        self.builder = Builder(fn.__name__)
        self.globals = getattr(fn, "__globals__", {})

    def error(self, node: ast.AST, message: str) -> CaptureError:
        line = getattr(node, "lineno", 0)
        col = getattr(node, "col_offset", 0) + 1
        text = self.lines[line - 1].strip() if 0 < line <= len(self.lines) else ""
        return CaptureError(
            _("{name}, line {line}, column {col}: {message}").format(
                name=self.fn.__name__, line=line, col=col, message=message
            )
            + (f"\n    {text}" if text else "")
        )

    def convert(self) -> TensorGraph:
        env = {}
        for a in self.fdef.args.args:
            env[a.arg] = self.builder.add("placeholder", name=a.arg)
        if self.fdef.args.vararg or self.fdef.args.kwarg or self.fdef.args.kwonlyargs:
            raise self.error(
                self.fdef, _("*args, **kwargs and keyword-only parameters are refused")
            )
        _unused, result = self.block(self.fdef.body, env)
        if result is None:
            raise self.error(self.fdef, _("the function never returns a value"))
        outs = result if isinstance(result, list) else [result]
        return self.builder.graph([self.node(o, self.fdef) for o in outs])

    # values: a node name (str) or _Static
    def node(self, value, where) -> str:
        if isinstance(value, _Static):
            if isinstance(value.value, bool) or not isinstance(value.value, (int, float)):
                raise self.error(where, _("{value!r} is not a number").format(value=value.value))
            return self.builder.add("const", name="const", value=float(value.value))
        if value is _UNDEFINED:
            raise self.error(where, _("a name defined in only one arm of an if is used after it"))
        return value

    def block(self, stmts, env):
        for stmt in stmts:
            if isinstance(stmt, ast.Assign):
                if len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name):
                    raise self.error(stmt, _("only assignments to one plain name are converted"))
                env[stmt.targets[0].id] = self.expr(stmt.value, env)
            elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
                op = _BINOPS.get(type(stmt.op))
                if op is None or stmt.target.id not in env:
                    raise self.error(stmt, _("this augmented assignment is not converted"))
                old = self.node(env[stmt.target.id], stmt)
                env[stmt.target.id] = self.builder.add(
                    op, [old, self.node(self.expr(stmt.value, env), stmt)], line=stmt.lineno
                )
            elif isinstance(stmt, ast.Return):
                if stmt.value is None:
                    raise self.error(stmt, _("return without a value"))
                if isinstance(stmt.value, ast.Tuple):
                    return env, [self.expr(e, env) for e in stmt.value.elts]
                return env, self.expr(stmt.value, env)
            elif isinstance(stmt, ast.If):
                result = self.if_(stmt, env)
                if result is not None:
                    return env, result
            elif isinstance(stmt, ast.For):
                self.for_(stmt, env)
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                continue  # a docstring
            elif isinstance(stmt, ast.Pass):
                continue
            else:
                raise self.error(
                    stmt,
                    _(
                        "a {name} statement: static conversion handles assignments, if, for "
                        "over range(constant) and return"
                    ).format(name=type(stmt).__name__),
                )
        return env, None

    def if_(self, stmt: ast.If, env):
        cond = self.expr(stmt.test, env)
        if isinstance(cond, _Static):  # decided while converting
            _unused, result = self.block(stmt.body if cond.value else stmt.orelse, env)
            return result
        env_t, env_f = dict(env), dict(env)
        _unused, ret_t = self.block(stmt.body, env_t)
        _unused, ret_f = self.block(stmt.orelse, env_f)
        if (ret_t is None) != (ret_f is None):
            raise self.error(
                stmt, _("return in only one arm of an if on a tensor: write both arms to return")
            )
        if ret_t is not None:
            if isinstance(ret_t, list) or isinstance(ret_f, list):
                raise self.error(
                    stmt, _("returning tuples from the arms of an if is not converted")
                )
            return self.select(cond, ret_t, ret_f, stmt)
        for name in list(dict.fromkeys([*env_t, *env_f])):
            a, b = env_t.get(name, _UNDEFINED), env_f.get(name, _UNDEFINED)
            if a is b:
                env[name] = a
            elif a is _UNDEFINED or b is _UNDEFINED:
                env[name] = _UNDEFINED
            else:
                env[name] = self.select(cond, a, b, stmt)
        return None

    def select(self, cond, a, b, stmt) -> str:
        return self.builder.add(
            "where",
            [self.node(cond, stmt), self.node(a, stmt), self.node(b, stmt)],
            line=stmt.lineno,
        )

    def for_(self, stmt: ast.For, env):
        it = stmt.iter
        if not (
            isinstance(stmt.target, ast.Name)
            and isinstance(it, ast.Call)
            and isinstance(it.func, ast.Name)
            and it.func.id == "range"
            and len(it.args) == 1
            and not stmt.orelse
        ):
            raise self.error(stmt, _("only `for name in range(n):` loops are converted"))
        bound = self.expr(it.args[0], env)
        if not isinstance(bound, _Static) or not isinstance(bound.value, int):
            what = ast.unparse(it.args[0])
            raise self.error(
                it,
                _(
                    "range({what}): the bound is a run-time value, so static analysis "
                    "cannot know how many times the loop runs"
                ).format(what=what),
            )
        if bound.value > 1000:
            raise self.error(
                it,
                _("range({value}): unrolling more than 1000 times refused").format(
                    value=bound.value
                ),
            )
        for i in range(bound.value):
            env[stmt.target.id] = _Static(i)
            _unused, result = self.block(stmt.body, env)
            if result is not None:
                raise self.error(stmt, _("return inside a for loop is not converted"))

    def expr(self, e: ast.AST, env):
        if isinstance(e, ast.Constant):
            if isinstance(e.value, bool) or not isinstance(e.value, (int, float)):
                raise self.error(
                    e, _("the constant {value!r} is not a number").format(value=e.value)
                )
            return _Static(e.value)
        if isinstance(e, ast.Name):
            if e.id in env:
                return env[e.id]
            value = self.globals.get(e.id, _UNDEFINED)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return _Static(value)
            raise self.error(
                e,
                _(
                    "{id} is not a parameter or a local name, and not a number known "
                    "before the call (its type is only known at run time)"
                ).format(id=e.id),
            )
        if isinstance(e, ast.BinOp):
            left, right = self.expr(e.left, env), self.expr(e.right, env)
            if isinstance(e.op, ast.Pow):
                if not isinstance(right, _Static):
                    raise self.error(e, _("x ** p needs a constant p"))
                if isinstance(left, _Static):
                    return _Static(left.value**right.value)
                return self.builder.add(
                    "pow", [self.node(left, e)], line=e.lineno, p=float(right.value)
                )
            op = _BINOPS.get(type(e.op))
            if op is None:
                raise self.error(
                    e, _("the operator {name} is not converted").format(name=type(e.op).__name__)
                )
            if isinstance(left, _Static) and isinstance(right, _Static) and op != "matmul":
                return _Static(_fold(op, left.value, right.value))
            return self.builder.add(op, [self.node(left, e), self.node(right, e)], line=e.lineno)
        if isinstance(e, ast.UnaryOp) and isinstance(e.op, ast.USub):
            v = self.expr(e.operand, env)
            if isinstance(v, _Static):
                return _Static(-v.value)
            return self.builder.add("neg", [self.node(v, e)], line=e.lineno)
        if isinstance(e, ast.Compare) and len(e.ops) == 1 and len(e.comparators) == 1:
            a, b = self.expr(e.left, env), self.expr(e.comparators[0], env)
            if isinstance(e.ops[0], ast.Lt):
                a, b = b, a
            elif not isinstance(e.ops[0], ast.Gt):
                raise self.error(e, _("only the comparisons > and < are converted"))
            if isinstance(a, _Static) and isinstance(b, _Static):
                return _Static(a.value > b.value)
            return self.builder.add("gt", [self.node(a, e), self.node(b, e)], line=e.lineno)
        if isinstance(e, ast.Attribute) and e.attr == "T":
            return self.builder.add(
                "transpose", [self.node(self.expr(e.value, env), e)], line=e.lineno
            )
        if isinstance(e, ast.Call):
            return self.call(e, env)
        raise self.error(e, _("a {name} expression is not converted").format(name=type(e).__name__))

    def call(self, e: ast.Call, env):
        f = e.func
        if e.keywords:
            raise self.error(e, _("keyword arguments are not converted"))
        if isinstance(f, ast.Attribute) and f.attr == "sum" and not e.args:
            if isinstance(f.value, ast.Name) and f.value.id not in env:
                pass  # T.sum(...) is handled below
            else:
                return self.builder.add(
                    "sum", [self.node(self.expr(f.value, env), e)], line=e.lineno
                )
        name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)
        if name not in FUNCTIONS:
            shown = ast.unparse(f)
            raise self.error(
                e,
                _(
                    "a call to {shown}: not a known tensor operation ({join}); static "
                    "analysis cannot tell what it is or what it returns"
                ).format(shown=shown, join=", ".join(FUNCTIONS)),
            )
        args = [self.node(self.expr(a, env), e) for a in e.args]
        if len(args) != OPS[name].arity:
            raise self.error(
                e,
                _("{name} takes {arity} argument(s), got {n_args}").format(
                    name=name, arity=OPS[name].arity, n_args=len(args)
                ),
            )
        return self.builder.add(name, args, line=e.lineno)


def _fold(op: str, a, b):
    if op == "add":
        return a + b
    if op == "sub":
        return a - b
    if op == "mul":
        return a * b
    if b == 0:
        raise CaptureError(_("division by zero in a constant expression"))
    return a / b


def from_ast(fn: Callable) -> TensorGraph:
    """Convert ``fn``'s source into a graph without running it (the talk's 路线一).

    Converted: assignments, ``+ - * / @ **`` with a constant exponent, ``> <``, the functions of
    :mod:`lecturekit.tensor.ops` and ``.sum()`` / ``.T``, ``if``/``else`` on a tensor (both arms,
    then ``where``), ``for i in range(n)`` with ``n`` known before the call (unrolled), return.
    Anything else raises :class:`CaptureError` with the line and column."""
    try:
        return _Converter(fn).convert()
    except GraphError as exc:
        raise CaptureError(str(exc)) from None


__all__ = [
    "Assumption",
    "Break",
    "Trace",
    "CaptureError",
    "GraphBreakFunction",
    "Segment",
    "Traced",
    "from_ast",
    "graph_breaks",
    "symbolic_trace",
    "trace",
]
