"""otter-grader's OK-format tests, run without otter: the same points, case by case.

A question's tests (``metadata.otter.tests`` of a notebook that ``otter assign`` made: the student
notebook holds the public cases, the autograder notebook every case) are a dict::

    {"name": "q1", "points": 4, "suites": [{"cases": [{"code": ">>> assert ...",
     "hidden": False, "points": 0}, ...]}]}

Each case is a doctest. Its points are resolved as otter-grader resolves them
(``TestFile.resolve_test_file_points``): a case's own ``points`` (from the
``# BEGIN TEST CONFIG`` block at the top of its cell in the master), the rest of the question's
points split evenly over the cases without one. A case worth 0 points is *feedback* (a shape or
type check that tells a student what to fix); points come only from the other cases.

Both the trusted grading driver (:mod:`.run`) and the student's ``grader.check``
(:mod:`.check`) run tests with this module, so a student's check needs no otter (importing it
takes seconds) and the two agree on what passes.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import traceback
from dataclasses import dataclass, field
from textwrap import dedent

from ..language import _


@dataclass
class CaseResult:
    """One test case run: ``statement`` and ``error`` describe the first failing example
    (``"AssertionError: the message"``, ``"NameError: name 'x' is not defined"``, or for an
    output mismatch ``expected ..., got ...``); both empty when it passed."""

    index: int
    hidden: bool
    points: float
    passed: bool
    statement: str = ""
    error: str = ""
    #: the exception the failing example raised (None: it passed, or printed the wrong thing)
    exception: BaseException | None = field(default=None, repr=False, compare=False)
    #: the case's doctest
    code: str = field(default="", repr=False, compare=False)

    @property
    def feedback(self) -> bool:
        """A case worth 0 points: it tells, it does not score."""
        return self.points == 0


def cases(spec: dict) -> list[dict]:
    return list(spec["suites"][0]["cases"])


def case_points(spec: dict) -> list[float]:
    """Each test case's points, resolved as otter-grader does (``resolve_test_file_points``)."""
    given = [c.get("points") for c in cases(spec)]
    total = spec.get("points")
    if isinstance(total, list):
        given, total = list(total), None
    fixed = sum(p for p in given if p is not None)
    free = sum(p is None for p in given)
    if total is not None:
        each = (total - fixed) / free if free else 0.0
    elif fixed == 0:
        each = 1 / free if free else 0.0
    else:
        each = 0.0
    return [float(p) if p is not None else each for p in given]


class _FirstFailure(doctest.DocTestRunner):
    """A doctest runner that keeps the first failing example as data (no report to parse)."""

    def __init__(self) -> None:
        super().__init__(verbose=False)
        self.first: tuple[str, str, BaseException | None] | None = None

    def report_failure(self, out, test, example, got):
        if self.first is None:
            said = _("expected {want}, got {got}").format(
                want=repr(example.want.strip()), got=repr(got.strip())
            )
            self.first = (example.source, said, None)

    def report_unexpected_exception(self, out, test, example, exc_info):
        if self.first is None:
            lines = traceback.format_exception_only(exc_info[0], exc_info[1])
            self.first = (example.source, (lines[-1] if lines else "").strip(), exc_info[1])


def run_case(code: str, env: dict, name: str = "test") -> tuple[bool, str, str, object]:
    """``(passed, statement, error, exception)`` for one doctest-formatted case run in ``env``
    (which it may change, as a notebook's test cell would); what the case prints is
    swallowed."""
    body = dedent(code)
    examples = doctest.DocTestParser().parse(body, name)
    test = doctest.DocTest(
        [e for e in examples if isinstance(e, doctest.Example)], env, name, None, None, body
    )
    runner = _FirstFailure()
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        result = runner.run(test, clear_globs=False)
    if result.failed == 0:
        return True, "", "", None
    statement, error, exception = runner.first or ("", "", None)
    return False, statement.strip(), error, exception


def run_question(spec: dict, env: dict) -> list[CaseResult]:
    """Every case of one question, in order, in the one namespace ``env`` (a case may use what
    an earlier one defined, as in otter). A case without ``hidden`` is hidden, as in otter."""
    points = case_points(spec)
    results = []
    for i, case in enumerate(cases(spec)):
        passed, statement, error, exc = run_case(case["code"], env, f"{spec['name']} {i}")
        hidden = bool(case.get("hidden", True))
        results.append(
            CaseResult(i, hidden, points[i], passed, statement, error, exc, case["code"])
        )
    return results


def score(spec: dict, results: list[CaseResult]) -> float:
    """Points earned, as ``otter.test_files.OKTestFile`` computes them (``all_or_nothing``
    included)."""
    if spec.get("all_or_nothing"):
        return sum(r.points for r in results) if all(r.passed for r in results) else 0.0
    return sum(r.points for r in results if r.passed)
