"""Submissions made with no effort, built from a problem set: each must score 0.

Points pay for the student's thinking (issue 26), so a problem set is checked against answers
that take none: for every answer of every question,

* a value becomes a constant of its type and shape: zeros (``0``, ``''``, a list of zeros of the
  right length), ones, counting up (``[1, 2, 3, ...]``: program order, a schedule issuing one
  instruction a cycle), and each constant the question's public tests compare with; a string
  never becomes the model's own (zeros make it ``''``, ones ``'x'``, counting ``'1'``, ``'2'``,
  ...; where that is the model's string, :data:`NONSENSE`): a string answer (a program text, a
  name) is no constant a student would type without thinking;
* a function returns such a constant: made from what the model solution returns on the public
  tests' own calls (zeros, ones, counting up), or that very value (the public example's
  expected value, for any input), or a table that returns the public example's answer for the
  public example's arguments and the first one otherwise (it passes every public test of
  correctness: hidden tests on other inputs must catch it).

:func:`submissions` builds them from the master (run here, in this process: it is trusted) and
the committed exercise; ``tests/test_grading.py`` grades them in each set's one grading run and
fails unless each scores 0 on every question; ``tools/problem_set_table.py --measure`` records
the best score they reach in the table of problem sets.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import io
import math
from fractions import Fraction
from pathlib import Path
from typing import Any

from .oktests import cases, run_case

#: how many no-effort submissions a problem set is graded on (answer k of each takes its
#: (k mod n)-th candidate)
COUNT = 4

#: a string no answer is: what a string answer becomes where zeros, ones or counting would give
#: the model's own string
NONSENSE = "no effort"  # i18n: not shown (an answer of a test's submission)

#: the key a lookup-table function files an argument list under; the same code runs here (when
#: the table is made) and in the graded function's interpreter (when it is looked up)
KEY_SOURCE = (  # i18n: not shown (code)
    """\
def _key(args, kwargs):
    def canon(v):
        if isinstance(v, (set, frozenset)):
            return ("set", sorted((canon(x) for x in v), key=repr))
        if isinstance(v, dict):
            return ("dict", [(canon(k), canon(x)) for k, x in v.items()])
        if isinstance(v, list):
            return [canon(x) for x in v]
        if isinstance(v, tuple):
            return tuple(canon(x) for x in v)
        if hasattr(v, "tolist") and hasattr(v, "dtype"):
            return ("array", v.tolist())
        if callable(v):
            return "<callable>"
        return v
    return repr((canon(list(args)), sorted((k, canon(x)) for k, x in kwargs.items())))
"""
)
_key_namespace: dict = {}
exec(KEY_SOURCE, _key_namespace)  # noqa: S102 - our own code, above
key = _key_namespace["_key"]


# -- running the master ---------------------------------------------------------------------
def _marker(cell) -> str:
    return cell.source.strip().split("\n", 1)[0].strip().upper() if cell.cell_type == "raw" else ""


def master_namespace(master: Path) -> dict:
    """The namespace after the master's setup and solution cells ran (tests left out), as the
    model solution leaves it; what they print is swallowed."""
    import os

    import nbformat

    nb = nbformat.read(str(master), as_version=4)
    ns: dict = {"__name__": "__main__"}
    sink = io.StringIO()
    # Headless drawing while the master runs, without leaving MPLBACKEND in this process's
    # environment: every kernel started later (nbval's, a Jupyter server's) would inherit it
    # and show no figure.
    set_here = "MPLBACKEND" not in os.environ
    if set_here:
        os.environ["MPLBACKEND"] = "Agg"
    try:
        _run_master_cells(master, nb, ns, sink)
    finally:
        if set_here:
            os.environ.pop("MPLBACKEND", None)
    return ns


def _run_master_cells(master: Path, nb, ns: dict, sink: io.StringIO) -> None:
    from .run import _python_only

    in_tests = False
    for cell in nb.cells:
        marker = _marker(cell)
        if marker.startswith("# BEGIN TESTS"):
            in_tests = True
        elif marker.startswith("# END TESTS"):
            in_tests = False
        if cell.cell_type != "code" or in_tests:
            continue
        with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
            exec(compile(_python_only(cell.source), str(master), "exec"), ns)  # noqa: S102


class _Recorder:
    """Stands in for a solution's function in the public tests: calls it, and keeps each call's
    arguments (copied before the call) and result."""

    def __init__(self, fn, calls: list):
        self.fn, self.calls = fn, calls
        self.__name__ = getattr(fn, "__name__", "f")

    def __call__(self, *args, **kwargs):
        before = (copy.deepcopy(args), copy.deepcopy(kwargs))
        result = self.fn(*args, **kwargs)
        self.calls.append((before[0], before[1], copy.deepcopy(result)))
        return result


def public_calls(ns: dict, tests: dict, functions: list[str]) -> dict[str, list[tuple]]:
    """Per function, ``(args, kwargs, result)`` of each call the question's public tests make,
    with the model solution answering."""
    calls: dict[str, list] = {name: [] for name in functions}
    env = dict(ns)
    env.update({name: _Recorder(ns[name], calls[name]) for name in functions if name in ns})
    for i, case in enumerate(cases(tests)):
        if not case.get("hidden", True):
            run_case(case["code"], env, f"{tests.get('name')} {i}")
    return calls


def public_constants(tests: dict) -> list:
    """The literal values the public tests compare with (``x == 10``, ``f(g) == [2, 5]``,
    ``x in ('ID', 'RR')``'s members), in order, without repeats."""
    found: list = []

    def add(value) -> None:
        if not any(type(value) is type(v) and value == v for v in found):
            found.append(value)

    for case in cases(tests):
        if case.get("hidden", True):
            continue
        lines = []
        for line in case["code"].splitlines():
            stripped = line.lstrip()
            if stripped.startswith((">>> ", "... ")):
                lines.append(stripped[4:])
            elif stripped in (">>>", "..."):
                lines.append("")
        try:
            tree = ast.parse("\n".join(lines))
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Compare):
                continue
            for side, op in zip(node.comparators, node.ops, strict=True):
                for operand in (node.left, side):
                    try:
                        value = ast.literal_eval(operand)
                    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
                        continue
                    if isinstance(op, ast.In | ast.NotIn) and operand is side:
                        for member in value if isinstance(value, tuple | list | set) else ():
                            add(member)
                    else:
                        add(value)
    return found


# -- shapes of garbage ------------------------------------------------------------------------
def _numpy(value) -> bool:
    return hasattr(value, "dtype") and hasattr(value, "tolist") and hasattr(value, "shape")


def like(value, leaf) -> Any:
    """``value``'s shape (containers, lengths, dict keys, tuple arity) with every number and
    string replaced by ``leaf(old)``; numpy arrays keep shape and dtype. A string is never
    replaced by itself (:data:`NONSENSE` where ``leaf`` would)."""
    if _numpy(value):
        import numpy as np

        flat = [like(x, leaf) for x in value.ravel().tolist()]
        try:
            return np.array(flat, dtype=value.dtype).reshape(value.shape)
        except (ValueError, TypeError, OverflowError):
            return np.zeros_like(value)
    if isinstance(value, bool):
        return value  # a bool is no garbage: a question answered by one can be guessed
    if isinstance(value, str):
        made = leaf(value)
        return made if made != value else NONSENSE if value != NONSENSE else NONSENSE + "?"
    if isinstance(value, int | float | Fraction):
        return leaf(value)
    if isinstance(value, list):
        return [like(x, leaf) for x in value]
    if isinstance(value, tuple):
        return tuple(like(x, leaf) for x in value)
    if isinstance(value, set | frozenset):
        return type(value)(like(x, leaf) for x in value)
    if isinstance(value, dict):
        return {k: like(v, leaf) for k, v in value.items()}
    return value


def zeros(value):
    return like(value, lambda x: type(x)(0) if not isinstance(x, str) else "")


def ones(value):
    return like(value, lambda x: type(x)(1) if not isinstance(x, str) else "x")


def counting(value, start: int = 1):
    """Numbers counting up from ``start`` in the order the value holds them (a string leaf
    counts too, as text: ``'1'``, ``'2'``, ...)."""
    n = [start - 1]

    def leaf(x):
        n[0] += 1
        return str(n[0]) if isinstance(x, str) else type(x)(n[0])

    return like(value, leaf)


def value_candidates(value, constants: list) -> list:
    """No-effort stand-ins for a value answer: zeros, ones, counting up, the public tests'
    constants of the same type."""
    found: list = []

    def add(v) -> None:
        if not any(type(v) is type(w) and _same(v, w) for w in found):
            found.append(v)

    for made in (zeros(value), ones(value), counting(value, 1), counting(value, 2)):
        add(made)
    for c in constants:
        if type(c) is type(value) or (isinstance(value, float) and type(c) is int):
            add(c)
    return found


def _same(a, b) -> bool:
    try:
        if _numpy(a) or _numpy(b):
            return bool((a == b).all()) if getattr(a, "shape", None) == b.shape else False
        return bool(a == b)
    except Exception:  # noqa: BLE001 - values that do not compare are different
        return False


# -- Python source for a value ----------------------------------------------------------------
def literal(value) -> str:
    """Python source that makes ``value`` (plain data, Fractions, numpy arrays)."""
    if _numpy(value):
        return f"np.array({literal(value.tolist())}, dtype={str(value.dtype)!r})"  # i18n: not shown
    if isinstance(value, float) and not math.isfinite(value):
        return f"float({repr(value)!r})"
    if isinstance(value, Fraction):
        return f"Fraction({value.numerator}, {value.denominator})"
    if isinstance(value, list):
        return "[" + ", ".join(literal(x) for x in value) + "]"
    if isinstance(value, tuple):
        inner = ", ".join(literal(x) for x in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, set | frozenset):
        inner = ", ".join(literal(x) for x in value)
        made = "{" + inner + "}" if value else "set()"
        return made if isinstance(value, set) else f"frozenset({made})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{literal(k)}: {literal(v)}" for k, v in value.items()) + "}"
    if value is None or isinstance(value, bool | int | float | str | bytes | complex):
        return repr(value)
    raise TypeError(f"no literal for {type(value).__name__}")  # i18n: not shown (a test's)


# -- the submissions --------------------------------------------------------------------------
def function_candidates(name: str, calls: list[tuple]) -> list[str]:
    """Sources defining ``name`` with no effort, from the public tests' calls: constants shaped
    like the model's result (zeros, ones, counting up), the public example's result itself, and
    a table of the public examples' results."""
    if not calls:
        return [
            f"def {name}(*args, **kwargs):\n    return None",  # i18n: not shown
            f"def {name}(*args, **kwargs):\n    return 0",  # i18n: not shown
            f"def {name}(*args, **kwargs):\n    return []",  # i18n: not shown
        ]
    first = calls[0][2]
    made: list[str] = []
    shapes: list = []
    for value in (zeros(first), ones(first), first, counting(first)):
        if not any(type(value) is type(v) and _same(value, v) for v in shapes):
            shapes.append(value)
    for k, value in enumerate(shapes):
        source = (
            f"_{name}_{k} = {literal(value)}\ndef {name}(*args, **kwargs):\n"  # i18n: not shown
        )
        made.append(source + f"    return _{name}_{k}")  # i18n: not shown
    table = {key(a, kw): r for a, kw, r in calls}
    made.insert(  # i18n: not shown (code)
        2,
        f"_{name}_table = {literal(table)}\n"
        f"_{name}_first = {literal(first)}\n"
        f"def {name}(*args, **kwargs):\n"
        f"    return _{name}_table.get(_key(args, kwargs), _{name}_first)",
    )
    return made


def answer_sources(master: Path, autograder: Path) -> list[dict[str, str]]:
    """Per answer name, its no-effort candidates as Python source (``name = ...`` or a
    ``def``), for every autograded question of the set."""
    import nbformat

    from .assign import answer_types
    from .run import make_plan

    plan = make_plan(master, autograder)
    ns = master_namespace(master)
    recorded = answer_types(nbformat.read(str(master), as_version=4))
    out: list[dict[str, str]] = []
    for q in plan["questions"]:
        constants = public_constants(q["tests"])
        calls = public_calls(ns, q["tests"], q["functions"])
        answers: dict[str, list[str]] = {}
        for name in q["values"]:
            if name in ns:
                value = ns[name]
            else:  # not computed by the solution's cells: a constant of the recorded type
                value = {"int": 0, "float": 0.0, "str": "", "list": [], "dict": {}}.get(
                    str(recorded.get(q["name"], {}).get(name)), 0
                )
            answers[name] = [f"{name} = {literal(v)}" for v in value_candidates(value, constants)]
        for name in q["functions"]:
            answers[name] = function_candidates(name, calls.get(name, []))
        out.append(answers)
    return out


def submissions(master: Path, autograder: Path, exercise: Path, count: int = COUNT) -> list:
    """``count`` no-effort submissions: the untouched ``exercise`` with one last cell that
    answers every question with no effort (the k-th submission takes each answer's k-th
    candidate, round the list)."""
    import nbformat

    per_question = answer_sources(master, autograder)
    made = []
    for k in range(count):
        imports = "from fractions import Fraction\nimport numpy as np"  # i18n: not shown
        parts = [imports, KEY_SOURCE]
        for answers in per_question:
            for options in answers.values():
                parts.append(options[k % len(options)])
        nb = nbformat.read(str(exercise), as_version=4)
        nb.cells.append(nbformat.v4.new_code_cell("\n".join(parts)))
        made.append(nb)
    return made
