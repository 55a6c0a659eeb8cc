"""One computation, many loop nests: Halide's and TVM's separation of computation and schedule.

A :class:`Computation` says *what* is computed, one statement over named axes, e.g. the matmul
``C[i, j] += A[i, k] * B[k, j]`` or the convolution ``O[y, x] += I[y + r, x + s] * W[r, s]``:
the output's axes are the spatial ones, every other axis is summed over (a reduction). A
*schedule* says *how*: a list of steps, plain data, applied in order to the loops:

==============================  =============================================================
``Split(loop, factor)``         ``loop`` becomes ``loop_o`` (outer) and ``loop_i`` (``factor``)
``Tile(outer, inner, f1, f2)``  split two nested loops and reorder: ``o_o, i_o, o_i, i_i``
``Reorder(*loops)``             a new order of all the current loops, outermost first
``Fuse(outer, inner)``          two nested loops become one, ``outer_inner``
``Vectorize(loop)``             the innermost loop runs as one vector instruction per lanes
``Unroll(loop)``                the loop's body is copied ``extent`` times
``Parallel(loop)``              the outermost loop's iterations run on different cores
==============================  =============================================================

:func:`apply` checks every step (a loop that does not exist, a factor that does not divide its
extent, a reorder that is not a permutation, a vectorized reduction, ...) and raises
:class:`ScheduleError` naming the step; it returns the :class:`LoopNest`. The nest prints as
pseudo-code (:meth:`LoopNest.text`), becomes real Python (:meth:`LoopNest.python`), and runs
(:meth:`LoopNest.run`): every iteration point in the schedule's order, the update done with
``numpy.add.at`` (unbuffered, so in exactly that order). Every schedule computes the same
result as :meth:`Computation.reference`; with integer-valued inputs exactly, with floats up to
the rounding of a different summation order.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..errors import ParseError, ScheduleError
from ..language import _

#: the most iteration points :meth:`LoopNest.run` and :meth:`Computation.reference` execute
MAX_POINTS = 1 << 24
#: iteration points per chunk when running a nest
CHUNK = 1 << 18


# -- the computation ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Axis:
    name: str
    extent: int
    reduce: bool = False


#: one dimension of an index: ((axis, coefficient), ...) and a constant
Term = tuple[tuple[tuple[str, int], ...], int]


@dataclass(frozen=True)
class Access:
    """``tensor[index]``: one affine expression of the axes per dimension."""

    tensor: str
    index: tuple[Term, ...]

    def axes(self) -> set[str]:
        return {a for terms, _ in self.index for a, _ in terms}

    def text(self) -> str:
        return f"{self.tensor}[{', '.join(_term_text(t) for t in self.index)}]"


def _term_text(term: Term) -> str:
    terms, const = term
    parts = [a if c == 1 else f"{c}*{a}" for a, c in terms]
    if const or not parts:
        parts.append(str(const))
    return " + ".join(parts)


@dataclass(frozen=True)
class Computation:
    """``output[...] += input_1[...] * input_2[...] * ...`` over ``axes``."""

    name: str
    axes: tuple[Axis, ...]
    output: Access
    inputs: tuple[Access, ...]
    element_bytes: int = 4

    @property
    def extents(self) -> dict[str, int]:
        return {a.name: a.extent for a in self.axes}

    @property
    def points(self) -> int:
        return math.prod(a.extent for a in self.axes)

    @property
    def flops(self) -> int:
        """Per iteration point one multiply per extra factor and one add."""
        return self.points * len(self.inputs)

    @property
    def shapes(self) -> dict[str, tuple[int, ...]]:
        """Each tensor's shape: per dimension the largest index value + 1."""
        ext = self.extents
        shapes: dict[str, tuple[int, ...]] = {}
        for acc in (self.output, *self.inputs):
            dims = tuple(
                sum(c * (ext[a] - 1) for a, c in terms) + const + 1 for terms, const in acc.index
            )
            old = shapes.get(acc.tensor)
            if old is not None and len(old) != len(dims):
                raise ScheduleError(
                    _("{name}: {tensor} is used with different ranks").format(
                        name=self.name, tensor=acc.tensor
                    )
                )
            shapes[acc.tensor] = dims if old is None else tuple(map(max, old, dims))
        return shapes

    def text(self) -> str:
        rhs = " * ".join(a.text() for a in self.inputs)
        return f"{self.output.text()} += {rhs}"

    def random_inputs(self, seed: int = 0, integers: bool = True) -> dict[str, np.ndarray]:
        """Inputs for every input tensor; small integers (so every summation order gives the
        same float result exactly) unless ``integers`` is False."""
        rng = np.random.default_rng(seed)
        shapes = self.shapes
        out = {}
        for name in dict.fromkeys(a.tensor for a in self.inputs):
            if integers:
                out[name] = rng.integers(-4, 5, size=shapes[name]).astype(float)
            else:
                out[name] = rng.standard_normal(shapes[name])
        return out

    def check_inputs(self, inputs: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        shapes = self.shapes
        arrays = {}
        for name in dict.fromkeys(a.tensor for a in self.inputs):
            if name not in inputs:
                raise ScheduleError(
                    _("{name}: input {input} is missing").format(name=self.name, input=name)
                )
            arr = np.asarray(inputs[name], dtype=float)
            if arr.shape != shapes[name]:
                raise ScheduleError(
                    _("{name}: input {input} has shape {shape}, expected {expected}").format(
                        name=self.name, input=name, shape=arr.shape, expected=shapes[name]
                    )
                )
            arrays[name] = arr
        return arrays

    def reference(self, inputs: Mapping[str, np.ndarray]) -> np.ndarray:
        """The result computed without any schedule: numpy over the whole iteration domain
        (matmul-like computations go through ``numpy.einsum``)."""
        arrays = self.check_inputs(inputs)
        plain = all(
            len(terms) == 1 and terms[0][1] == 1 and const == 0
            for acc in (self.output, *self.inputs)
            for terms, const in acc.index
        )
        if plain and len(self.axes) <= 26:
            letters = {a.name: chr(97 + k) for k, a in enumerate(self.axes)}

            def sub(acc):
                return "".join(letters[terms[0][0]] for terms, _ in acc.index)

            spec = ",".join(sub(a) for a in self.inputs) + "->" + sub(self.output)
            return np.einsum(spec, *(arrays[a.tensor] for a in self.inputs))
        if self.points > MAX_POINTS:
            raise ScheduleError(
                _("{name}: {points:,} points is too many to evaluate").format(
                    name=self.name, points=self.points
                )
            )
        grids = np.indices([a.extent for a in self.axes]).reshape(len(self.axes), -1)
        values = {a.name: grids[k] for k, a in enumerate(self.axes)}
        shapes = self.shapes
        prod = np.ones(grids.shape[1])
        for acc in self.inputs:
            prod = prod * arrays[acc.tensor].ravel()[_flat(acc, values, shapes[acc.tensor])]
        out = np.zeros(shapes[self.output.tensor])
        np.add.at(out.ravel(), _flat(self.output, values, out.shape), prod)
        return out


def _flat(acc: Access, values: Mapping[str, np.ndarray], shape) -> np.ndarray:
    """Row-major element numbers of ``acc`` at the points whose axis values are ``values``."""
    flat = 0
    for (terms, const), size in zip(acc.index, shape, strict=True):
        idx = const + sum(c * values[a] for a, c in terms)
        flat = flat * size + idx
    return np.asarray(flat, dtype=np.int64)


def computation(statement: str, name: str | None = None, element_bytes: int = 4, **extents):
    """Parse ``"C[i, j] += A[i, k] * B[k, j]"`` with the axes' extents (``i=64, j=64, k=64``).

    Index expressions are sums of ``axis``, ``constant * axis`` and constants. The output's
    indices are plain axes (one per spatial axis); every other axis is a reduction."""
    try:
        tree = ast.parse(statement.strip(), mode="exec")
    except SyntaxError as exc:
        raise ParseError(
            _("not a Python statement: {msg}").format(msg=exc.msg), 1, exc.offset or 1, statement
        ) from None
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.AugAssign):
        raise ParseError(_("expected one statement OUT[...] += IN[...] * ..."), 1, 1, statement)
    stmt = tree.body[0]
    if not isinstance(stmt.op, ast.Add):
        raise ParseError(_("the update must be +="), 1, stmt.col_offset + 1, statement)

    def error(node, message):
        return ParseError(message, 1, getattr(node, "col_offset", 0) + 1, statement)

    def term(e) -> tuple[dict, int]:
        if isinstance(e, ast.Name):
            return {e.id: 1}, 0
        if (
            isinstance(e, ast.Constant)
            and isinstance(e.value, int)
            and not isinstance(e.value, bool)
        ):
            if e.value < 0:
                raise error(e, _("negative constants in an index are not supported"))
            return {}, e.value
        if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Add):
            (a, ca), (b, cb) = term(e.left), term(e.right)
            merged = dict(a)
            for k, v in b.items():
                merged[k] = merged.get(k, 0) + v
            return merged, ca + cb
        if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Mult):
            left, right = e.left, e.right
            if isinstance(left, ast.Name):
                left, right = right, left
            if isinstance(left, ast.Constant) and isinstance(left.value, int) and left.value > 0:
                inner, c = term(right)
                return {k: v * left.value for k, v in inner.items()}, c * left.value
        raise error(
            e,
            _("index {index!r}: use sums of axis, constant*axis, constant").format(
                index=ast.unparse(e)
            ),
        )

    def access(e) -> Access:
        if not (isinstance(e, ast.Subscript) and isinstance(e.value, ast.Name)):
            raise error(
                e, _("expected TENSOR[index, ...], got {found!r}").format(found=ast.unparse(e))
            )
        dims = e.slice.elts if isinstance(e.slice, ast.Tuple) else [e.slice]
        index = []
        for d in dims:
            coefs, const = term(d)
            index.append((tuple(sorted((a, c) for a, c in coefs.items() if c)), const))
        return Access(e.value.id, tuple(index))

    def factors(e) -> list[Access]:
        if isinstance(e, ast.BinOp) and isinstance(e.op, ast.Mult):
            return factors(e.left) + factors(e.right)
        return [access(e)]

    out = access(stmt.target)
    ins = factors(stmt.value)
    for terms, const in out.index:
        if len(terms) != 1 or terms[0][1] != 1 or const:
            raise error(stmt.target, _("the output's indices must be plain axis names"))
    spatial = [terms[0][0] for terms, _unused in out.index]
    if len(set(spatial)) != len(spatial):
        raise error(stmt.target, _("an axis appears twice in the output's index"))
    if out.tensor in {a.tensor for a in ins}:
        raise error(
            stmt.target, _("{tensor} is both the output and an input").format(tensor=out.tensor)
        )
    used = list(dict.fromkeys(spatial + [a for acc in ins for a in sorted(acc.axes())]))
    missing = [a for a in used if a not in extents]
    if missing:
        raise ScheduleError(
            _("no extent given for axis {axes} (e.g. {first}=8)").format(
                axes=", ".join(missing), first=missing[0]
            )
        )
    unused = [a for a in extents if a not in used]
    if unused:
        raise ScheduleError(
            _("extent given for {join}, which the statement never uses").format(
                join=", ".join(unused)
            )
        )
    for a in used:
        v = extents[a]
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise ScheduleError(
                _("axis {a}: the extent must be a whole number >= 1, got {v!r}").format(a=a, v=v)
            )
    axes = tuple(Axis(a, extents[a], a not in spatial) for a in used)
    if isinstance(element_bytes, bool) or not isinstance(element_bytes, int) or element_bytes < 1:
        raise ScheduleError(
            _("element_bytes must be a whole number >= 1, got {element_bytes!r}").format(
                element_bytes=element_bytes
            )
        )
    comp = Computation(name or out.tensor, axes, out, tuple(ins), element_bytes)
    comp.shapes  # noqa: B018 - checks the ranks agree
    return comp


def matmul(m: int, n: int, k: int, element_bytes: int = 4) -> Computation:
    """``C[i, j] += A[i, k] * B[k, j]`` with ``A`` m×k and ``B`` k×n (row-major)."""
    return computation("C[i, j] += A[i, k] * B[k, j]", "matmul", element_bytes, i=m, j=n, k=k)


def conv2d(h: int, w: int, r: int, s: int, element_bytes: int = 4) -> Computation:
    """A 2-D convolution (as deep learning computes it, a correlation) of an image with an
    ``r×s`` kernel, output ``h×w``: ``O[y, x] += I[y + r, x + s] * W[r, s]``."""
    return computation(
        "O[y, x] += I[y + r, x + s] * W[r, s]", "conv2d", element_bytes, y=h, x=w, r=r, s=s
    )


# -- schedules as data --------------------------------------------------------------------------


@dataclass(frozen=True)
class Split:
    loop: str
    factor: int

    def text(self) -> str:
        return f"split {self.loop} {self.factor}"


@dataclass(frozen=True)
class Tile:
    outer: str
    inner: str
    outer_factor: int
    inner_factor: int

    def text(self) -> str:
        return f"tile {self.outer} {self.inner} {self.outer_factor} {self.inner_factor}"


@dataclass(frozen=True)
class Reorder:
    order: tuple[str, ...]

    def __init__(self, *order):
        if len(order) == 1 and isinstance(order[0], (list, tuple)):
            order = tuple(order[0])
        object.__setattr__(self, "order", tuple(order))

    def text(self) -> str:
        return "reorder " + " ".join(self.order)


@dataclass(frozen=True)
class Fuse:
    outer: str
    inner: str

    def text(self) -> str:
        return f"fuse {self.outer} {self.inner}"


@dataclass(frozen=True)
class Vectorize:
    loop: str

    def text(self) -> str:
        return f"vectorize {self.loop}"


@dataclass(frozen=True)
class Unroll:
    loop: str

    def text(self) -> str:
        return f"unroll {self.loop}"


@dataclass(frozen=True)
class Parallel:
    loop: str

    def text(self) -> str:
        return f"parallel {self.loop}"


STEP_TYPES = {
    "split": (Split, "LOOP FACTOR"),
    "tile": (Tile, "OUTER INNER OUTER_FACTOR INNER_FACTOR"),
    "reorder": (Reorder, "LOOP LOOP ..."),
    "fuse": (Fuse, "OUTER INNER"),
    "vectorize": (Vectorize, "LOOP"),
    "unroll": (Unroll, "LOOP"),
    "parallel": (Parallel, "LOOP"),
}

#: the longest unrolled loop accepted (the code is copied this many times)
MAX_UNROLL = 64
#: the longest vector accepted (lanes of one instruction)
MAX_VECTOR = 64


def parse_schedule(text: str) -> list:
    """One step per line, ``split i 8``, ``reorder i_o j_o k i_i j_i``, ``vectorize j_i``;
    ``#`` starts a comment, ``;`` also separates steps. A bad line is a ParseError with its
    line and column."""
    if not isinstance(text, str):
        raise ScheduleError(
            _("a schedule is text or a list of steps, got {name}").format(name=type(text).__name__)
        )
    steps = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0]
        offset = 0
        for piece in line.split(";"):
            words = piece.split()
            col = offset + (len(piece) - len(piece.lstrip())) + 1
            offset += len(piece) + 1
            if not words:
                continue
            kind = words[0].lower()
            if kind not in STEP_TYPES:
                raise ParseError(
                    _("unknown step {word!r}; steps: {join}").format(
                        word=words[0], join=", ".join(STEP_TYPES)
                    ),
                    lineno,
                    col,
                    raw,
                )
            cls, usage = STEP_TYPES[kind]
            args: list = words[1:]
            if kind in ("split", "tile"):
                n_names = 1 if kind == "split" else 2
                want = n_names + (1 if kind == "split" else 2)
                if len(args) != want:
                    raise ParseError(
                        _("usage: {kind} {usage}").format(kind=kind, usage=usage), lineno, col, raw
                    )
                for k in range(n_names, want):
                    if not args[k].isdigit() or len(args[k]) > 9:
                        raise ParseError(
                            _("{kind}: the factor must be a whole number, got {arg!r}").format(
                                kind=kind, arg=args[k]
                            ),
                            lineno,
                            col,
                            raw,
                        )
                    args[k] = int(args[k])
            elif kind == "fuse" and len(args) != 2:
                raise ParseError(_("usage: fuse {usage}").format(usage=usage), lineno, col, raw)
            elif kind in ("vectorize", "unroll", "parallel") and len(args) != 1:
                raise ParseError(
                    _("usage: {kind} {usage}").format(kind=kind, usage=usage), lineno, col, raw
                )
            elif kind == "reorder" and not args:
                raise ParseError(_("usage: reorder {usage}").format(usage=usage), lineno, col, raw)
            steps.append(cls(*args))
    return steps


def schedule_text(steps: Sequence) -> str:
    return "\n".join(s.text() for s in steps)


# -- index expressions of loop variables --------------------------------------------------------
# ("v", name) | ("c", value) | ("+", a, b) | ("*", a, k) | ("//", a, k) | ("%", a, k)


def _subst(expr, var: str, by):
    tag = expr[0]
    if tag == "v":
        return by if expr[1] == var else expr
    if tag == "c":
        return expr
    if tag == "+":
        return ("+", _subst(expr[1], var, by), _subst(expr[2], var, by))
    return (tag, _subst(expr[1], var, by), expr[2])


def _vars(expr) -> set[str]:
    tag = expr[0]
    if tag == "v":
        return {expr[1]}
    if tag == "c":
        return set()
    if tag == "+":
        return _vars(expr[1]) | _vars(expr[2])
    return _vars(expr[1])


def _eval(expr, env):
    tag = expr[0]
    if tag == "v":
        return env[expr[1]]
    if tag == "c":
        return expr[1]
    if tag == "+":
        return _eval(expr[1], env) + _eval(expr[2], env)
    if tag == "*":
        return _eval(expr[1], env) * expr[2]
    if tag == "//":
        return _eval(expr[1], env) // expr[2]
    return _eval(expr[1], env) % expr[2]


def expr_text(expr, top: bool = True) -> str:
    tag = expr[0]
    if tag == "v":
        return expr[1]
    if tag == "c":
        return str(expr[1])
    if tag == "+":
        text = f"{expr_text(expr[1], False)} + {expr_text(expr[2], False)}"
        return text if top else f"({text})"
    sym = {"*": "*", "//": "//", "%": "%"}[tag]
    return f"{expr_text(expr[1], False)} {sym} {expr[2]}"


# -- the loop nest ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Loop:
    name: str
    extent: int
    reduce: bool = False  #: iterates over (part of) a reduction axis
    kind: str = "serial"  #: serial, vectorized, unrolled or parallel


@dataclass(frozen=True)
class LoopNest:
    """A computation's loops after a schedule, outermost first, and each axis as an expression
    of the loop variables."""

    computation: Computation
    loops: tuple[Loop, ...]
    bindings: tuple[tuple[str, tuple], ...]
    schedule: tuple = ()

    @property
    def binding(self) -> dict[str, tuple]:
        return dict(self.bindings)

    def loop(self, name: str) -> Loop:
        for lp in self.loops:
            if lp.name == name:
                return lp
        raise ScheduleError(
            _("no loop named {name!r}; loops: {join}").format(name=name, join=", ".join(self.names))
        )

    @property
    def names(self) -> list[str]:
        return [lp.name for lp in self.loops]

    def loops_of(self, acc: Access) -> set[str]:
        """The loops whose variable the access's index depends on."""
        found: set[str] = set()
        b = self.binding
        for axis in acc.axes():
            found |= _vars(b[axis])
        return found

    def text(self) -> str:
        """The nest as pseudo-code, one loop a line (TVM's and Halide's printouts look alike)."""
        comp = self.computation
        lines = [f"{comp.output.tensor} = 0"]
        depth = 0
        for lp in self.loops:
            notes = ([lp.kind] if lp.kind != "serial" else []) + (
                ["reduction"] if lp.reduce else []
            )
            note = f"  # {', '.join(notes)}" if notes else ""
            line = f"for {lp.name} in range({lp.extent}):{note}"  # i18n: as is
            lines.append("    " * depth + line)
            depth += 1
        pad = "    " * depth
        for axis in comp.axes:
            e = self.binding[axis.name]
            if e != ("v", axis.name):
                lines.append(f"{pad}{axis.name} = {expr_text(e)}")
        lines.append(pad + comp.text())
        return "\n".join(lines)

    def python(self) -> str:
        """A Python function ``kernel(out, *inputs)`` with the nest's loops (any annotation is
        a comment): the nest as code one can read, run and compare."""
        comp = self.computation
        names = list(dict.fromkeys(a.tensor for a in comp.inputs))
        lines = [f"def kernel({comp.output.tensor}, {', '.join(names)}):"]  # i18n: as is
        depth = 1
        for lp in self.loops:
            note = "" if lp.kind == "serial" else f"  # {lp.kind}"
            line = f"for {_ident(lp.name)} in range({lp.extent}):{note}"  # i18n: as is
            lines.append("    " * depth + line)
            depth += 1
        pad = "    " * depth
        for axis in comp.axes:
            lines.append(f"{pad}{axis.name} = {_ident_expr(self.binding[axis.name])}")

        def acc_text(a: Access) -> str:
            return f"{a.tensor}[{', '.join(_term_text(t) for t in a.index)}]"

        rhs = " * ".join(acc_text(a) for a in comp.inputs)
        lines.append(f"{pad}{acc_text(comp.output)} += {rhs}")
        return "\n".join(lines) + "\n"

    # -- running --------------------------------------------------------------------------------
    def chunks(self, size: int = CHUNK) -> Iterator[dict[str, np.ndarray]]:
        """The iteration points in execution order, in chunks: axis -> values."""
        extents = [lp.extent for lp in self.loops]
        total = math.prod(extents)
        b = self.binding
        for start in range(0, total, size):
            flat = np.arange(start, min(total, start + size), dtype=np.int64)
            idx = np.unravel_index(flat, extents) if extents else ()
            env = {lp.name: idx[k] for k, lp in enumerate(self.loops)}
            yield {a.name: np.asarray(_eval(b[a.name], env)) for a in self.computation.axes}

    def run(self, inputs: Mapping[str, np.ndarray]) -> np.ndarray:
        """Execute the nest: every point in order, ``out[...] += product`` (numpy.add.at)."""
        comp = self.computation
        if comp.points > MAX_POINTS:
            raise ScheduleError(
                _(
                    "{name}: {points:,} iteration points; the interpreter runs at most "
                    "{max_points:,}"
                ).format(name=comp.name, points=comp.points, max_points=MAX_POINTS)
            )
        arrays = comp.check_inputs(inputs)
        shapes = comp.shapes
        out = np.zeros(shapes[comp.output.tensor])
        flat_out = out.reshape(-1)
        for values in self.chunks():
            prod = np.ones(len(next(iter(values.values()))) if values else 1)
            for acc in comp.inputs:
                prod = prod * arrays[acc.tensor].reshape(-1)[_flat(acc, values, shapes[acc.tensor])]
            np.add.at(flat_out, _flat(comp.output, values, out.shape), prod)
        return out

    def run_python(self, inputs: Mapping[str, np.ndarray]) -> np.ndarray:
        """Execute :meth:`python`'s code (plain Python loops: slow, for small sizes)."""
        comp = self.computation
        arrays = comp.check_inputs(inputs)
        out = np.zeros(comp.shapes[comp.output.tensor])
        space: dict = {}
        exec(compile(self.python(), f"<{comp.name} loop nest>", "exec"), space)  # noqa: S102
        names = list(dict.fromkeys(a.tensor for a in comp.inputs))
        space["kernel"](out, *(arrays[n] for n in names))
        return out


def _ident(name: str) -> str:
    return name.replace(".", "_")


def _ident_expr(expr) -> str:
    return _ident(expr_text(expr))


def _loop_index(loops: list[Loop], name: str, step: str) -> int:
    for k, lp in enumerate(loops):
        if lp.name == name:
            return k
    raise ScheduleError(
        _("{step}: there is no loop {name!r}; loops now: {names}").format(
            step=step, name=name, names=_names(loops)
        )
    )


def _names(loops) -> str:
    return ", ".join(f"{lp.name}({lp.extent})" for lp in loops)


def _factor(value, step: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ScheduleError(
            _("{step}: the factor must be a whole number >= 1, got {value!r}").format(
                step=step, value=value
            )
        )
    return value


def _fresh(loops: list[Loop], name: str, step: str) -> str:
    if any(lp.name == name for lp in loops):
        raise ScheduleError(
            _("{step}: the new loop name {name!r} is already taken").format(step=step, name=name)
        )
    return name


def apply(comp: Computation, steps: Sequence | str = ()) -> LoopNest:
    """Apply the schedule ``steps`` (a list of steps or their text) to ``comp``'s loops, which
    start as its axes in order (spatial then reduction, as written)."""
    if isinstance(steps, str):
        steps = parse_schedule(steps)
    steps = list(steps)
    loops = [Loop(a.name, a.extent, a.reduce) for a in comp.axes]
    binding = {a.name: ("v", a.name) for a in comp.axes}
    for number, step in enumerate(steps, 1):
        if not hasattr(step, "text") or type(step) not in {t for t, _unused in STEP_TYPES.values()}:
            raise ScheduleError(
                _("step {number}: {step!r} is not a schedule step").format(number=number, step=step)
            )
        label = _("step {number} ({text})").format(number=number, text=step.text())
        loops, binding = _apply_step(step, loops, binding, label)
    return LoopNest(comp, tuple(loops), tuple(binding.items()), tuple(steps))


def _apply_step(step, loops: list[Loop], binding: dict, label: str):
    loops = list(loops)
    if isinstance(step, Split):
        k = _loop_index(loops, step.loop, label)
        lp = loops[k]
        f = _factor(step.factor, label)
        if lp.kind != "serial":
            raise ScheduleError(
                _("{label}: {name} is already {kind}; split it before that").format(
                    label=label, name=lp.name, kind=lp.kind
                )
            )
        if lp.extent % f:
            raise ScheduleError(
                _(
                    "{label}: {name} has extent {extent} and {f} does not divide it "
                    "(divisors: {join})"
                ).format(
                    label=label,
                    name=lp.name,
                    extent=lp.extent,
                    f=f,
                    join=", ".join(str(d) for d in divisors(lp.extent)),
                )
            )
        outer = _fresh(loops, f"{lp.name}_o", label)
        inner = _fresh(loops, f"{lp.name}_i", label)
        loops[k : k + 1] = [
            Loop(outer, lp.extent // f, lp.reduce),
            Loop(inner, f, lp.reduce),
        ]
        by = ("+", ("*", ("v", outer), f), ("v", inner))
        binding = {a: _subst(e, lp.name, by) for a, e in binding.items()}
        return loops, binding
    if isinstance(step, Tile):
        a = _loop_index(loops, step.outer, label)
        b = _loop_index(loops, step.inner, label)
        if b != a + 1:
            raise ScheduleError(
                _("{label}: tile needs {outer} directly around {inner}; loops now: {names}").format(
                    label=label, outer=step.outer, inner=step.inner, names=_names(loops)
                )
            )
        loops, binding = _apply_step(Split(step.outer, step.outer_factor), loops, binding, label)
        loops, binding = _apply_step(Split(step.inner, step.inner_factor), loops, binding, label)
        names = [lp.name for lp in loops]
        k = names.index(f"{step.outer}_o")
        order = names[:k] + [names[k], names[k + 2], names[k + 1], names[k + 3]] + names[k + 4 :]
        return _apply_step(Reorder(*order), loops, binding, label)
    if isinstance(step, Reorder):
        names = [lp.name for lp in loops]
        order = list(step.order)
        if sorted(order) != sorted(names):
            unknown = [n for n in order if n not in names]
            missing = [n for n in names if n not in order]
            twice = sorted({n for n in order if order.count(n) > 1})
            why = "; ".join(
                x
                for x in (
                    _("unknown {names}").format(names=", ".join(unknown)) if unknown else "",
                    _("missing {names}").format(names=", ".join(missing)) if missing else "",
                    _("twice {names}").format(names=", ".join(twice)) if twice else "",
                )
                if x
            )
            raise ScheduleError(
                _(
                    "{label}: a reorder lists every loop exactly once (a permutation): "
                    "{why}; loops now: {names}"
                ).format(label=label, why=why, names=_names(loops))
            )
        by_name = {lp.name: lp for lp in loops}
        new = [by_name[n] for n in order]
        for k, lp in enumerate(new):
            if lp.kind == "vectorized" and k != len(new) - 1:
                raise ScheduleError(
                    _("{label}: the vectorized loop {name} must stay innermost").format(
                        label=label, name=lp.name
                    )
                )
            if lp.kind == "parallel" and k != 0:
                raise ScheduleError(
                    _("{label}: the parallel loop {name} must stay outermost").format(
                        label=label, name=lp.name
                    )
                )
        return new, binding
    if isinstance(step, Fuse):
        a = _loop_index(loops, step.outer, label)
        b = _loop_index(loops, step.inner, label)
        if b != a + 1:
            raise ScheduleError(
                _("{label}: fuse needs {outer} directly around {inner}; loops now: {names}").format(
                    label=label, outer=step.outer, inner=step.inner, names=_names(loops)
                )
            )
        outer, inner = loops[a], loops[b]
        if outer.kind != "serial" or inner.kind != "serial":
            raise ScheduleError(
                _("{label}: fuse loops before vectorizing, unrolling or parallelizing").format(
                    label=label
                )
            )
        name = _fresh(loops, f"{outer.name}_{inner.name}", label)
        loops[a : b + 1] = [Loop(name, outer.extent * inner.extent, outer.reduce or inner.reduce)]
        binding = {
            x: _subst(
                _subst(e, outer.name, ("//", ("v", name), inner.extent)),
                inner.name,
                ("%", ("v", name), inner.extent),
            )
            for x, e in binding.items()
        }
        return loops, binding
    if isinstance(step, (Vectorize, Unroll, Parallel)):
        kind = {Vectorize: "vectorized", Unroll: "unrolled", Parallel: "parallel"}[type(step)]
        k = _loop_index(loops, step.loop, label)
        lp = loops[k]
        if lp.kind != "serial":
            raise ScheduleError(
                _("{label}: {name} is already {kind}").format(
                    label=label, name=lp.name, kind=lp.kind
                )
            )
        if kind == "vectorized":
            if k != len(loops) - 1:
                raise ScheduleError(
                    _("{label}: only the innermost loop ({name}) can be vectorized").format(
                        label=label, name=loops[-1].name
                    )
                )
            if lp.reduce:
                raise ScheduleError(
                    _(
                        "{label}: {name} is a reduction (its lanes would add into the same "
                        "element); vectorize a spatial loop"
                    ).format(label=label, name=lp.name)
                )
            if lp.extent > MAX_VECTOR:
                raise ScheduleError(
                    _(
                        "{label}: {extent} lanes is too wide (at most {max_vector}); split first"
                    ).format(label=label, extent=lp.extent, max_vector=MAX_VECTOR)
                )
        if kind == "unrolled" and lp.extent > MAX_UNROLL:
            raise ScheduleError(
                _(
                    "{label}: unrolling {extent} copies is refused (at most {max_unroll}); "
                    "split first"
                ).format(label=label, extent=lp.extent, max_unroll=MAX_UNROLL)
            )
        if kind == "parallel":
            if k != 0:
                raise ScheduleError(
                    _("{label}: only the outermost loop ({name}) can be parallel here").format(
                        label=label, name=loops[0].name
                    )
                )
            if lp.reduce:
                raise ScheduleError(
                    _(
                        "{label}: {name} is a reduction: cores would add into the same "
                        "elements at once (a race); parallelize a spatial loop"
                    ).format(label=label, name=lp.name)
                )
        loops[k] = Loop(lp.name, lp.extent, lp.reduce, kind)
        return loops, binding
    raise ScheduleError(_("{label}: unknown step").format(label=label))


def divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


@dataclass(frozen=True)
class StepView:
    """The nest after the first ``k`` steps of a schedule (for a stepper)."""

    k: int
    step: object | None
    nest: LoopNest
    changed: tuple[str, ...] = field(default=())


def steps_of(comp: Computation, steps: Sequence | str) -> list[StepView]:
    """The nest before any step and after each step, in order."""
    if isinstance(steps, str):
        steps = parse_schedule(steps)
    views = [StepView(0, None, apply(comp, []))]
    for k in range(1, len(steps) + 1):
        nest = apply(comp, steps[:k])
        before = set(views[-1].nest.loops)
        changed = tuple(lp.name for lp in nest.loops if lp not in before)
        views.append(StepView(k, steps[k - 1], nest, changed))
    return views


def primitive_steps(comp: Computation, steps: Sequence | str) -> list:
    """The schedule with each ``Tile`` written as the two splits and the reorder it stands
    for (what TVM's and Halide's ``split`` / ``reorder`` take)."""
    if isinstance(steps, str):
        steps = parse_schedule(steps)
    out: list = []
    for step in steps:
        if isinstance(step, Tile):
            after = apply(comp, [*out, step])
            out += [
                Split(step.outer, step.outer_factor),
                Split(step.inner, step.inner_factor),
                Reorder(*after.names),
            ]
        else:
            out.append(step)
    apply(comp, out)  # the same checks, the same nest
    return out
