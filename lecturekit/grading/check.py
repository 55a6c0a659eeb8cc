"""The student's ``grader``: a problem set's public tests, found under any name, told in a line.

Every problem set's first cell is ``grader = lecturekit.grading.check.Grader("NN_topic")`` (written
by ``lecturekit assign``). ``Grader`` finds the notebook holding the set's public tests wherever
JupyterLab runs the kernel and whatever the student named their copy, and runs them itself
(:mod:`.oktests`: otter-grader's test format and points, without importing otter, which takes
seconds). ``grader.check("q1")`` says in one or two lines, in the notebook's language:

* all public tests pass, and what is true of the hidden ones (``lecturekit assign`` records each
  question's kind and number of hidden test cases): "hidden tests on other inputs" for a code
  question, "the value itself is checked when your work is graded" for a value question whose
  public tests check only the form (0-point feedback cases), "these are all of its tests" where
  there are none;
* an answer still ``...`` (or a function whose body is only ``...``): "not answered yet";
* a failing test: its own assertion message (a 0-point feedback case's too), or for an error in
  the student's code the error and the test's statement; the type an answer should have where
  the problem set records it (from the solution);
* a question with no tests (a manual one, or a typo): one line.

``grader.check_all()`` gives one line per question.

A code question's public tests run as grading runs them: each of the question's functions is
re-created from its recipe (:mod:`.portable`) in a ``python -I -S`` process beside the kernel,
with the standard library only (and the packages the question allows, such as numpy), and the
tests call it there on fresh plain-data copies (:mod:`.calls`). A function that needs lecturekit,
networkx or a notebook object fails its check here, with the one-line reason, not later in the
grade. (This process is not a sandbox: it teaches the restriction grading enforces.) It works alike
on Linux, macOS and Windows (:mod:`.local_callee`: without ``select``, ``SIGALRM`` and process
groups where they are missing), and a function that never returns is stopped in the question's
time (:data:`CHECK_SECONDS`).

In the Chinese edition (a notebook whose ``metadata.lecturekit.edition`` is ``"zh"``, written by
``lecturekit translate build``) every line is Chinese: these phrases through the message catalog
(:mod:`lecturekit.language`), the test's own assertion message through the edition's
``messages`` table (:func:`lecturekit.i18n.translate_message`; a message with no translation
stays English), and what the graded function's interpreter says through :mod:`.messages`.
"""

from __future__ import annotations

import ast
import contextlib
import dis
import doctest
import json
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import LectureKitError
from ..language import N_, _, ngettext, pgettext, using
from .messages import shown
from .oktests import CaseResult, run_question

#: where ``lecturekit assign`` records each question's answer names and the types they should have
METADATA_KEY = "lecturekit"


class ProblemSetNotFound(LectureKitError):
    """No notebook holding the problem set's tests was found where a student's kernel can look."""


# -- finding the notebook with the tests ------------------------------------------------------
def _assignment_of(path: Path) -> str | None:
    try:
        with path.open(encoding="utf-8") as fh:
            meta = json.load(fh).get("metadata", {})
    except (OSError, ValueError, AttributeError):
        return None
    otter = meta.get("otter") if isinstance(meta, dict) else None
    if isinstance(otter, dict) and isinstance(otter.get("tests"), dict):
        return str(otter.get("assignment_name", ""))
    return None


#: folders of the course's editions other than English (``exercises/zh``, ``notebooks/zh``)
EDITIONS = ("zh",)


def _course_exercises(start: Path) -> list[tuple[Path, str]]:
    """``exercises/`` of the course holding ``start`` (or under it: the course root itself), with
    its language; from inside an edition's folder (``notebooks/zh``), that edition's
    ``exercises/zh`` first."""
    found = []
    for folder in (start, *start.parents):
        if (folder / "exercises").is_dir() and folder.name != "exercises":
            below = start.relative_to(folder).parts  # the folders inside the course only
            edition = next((part for part in below if part in EDITIONS), None)
            if edition and (folder / "exercises" / edition).is_dir():
                found.append((folder / "exercises" / edition, edition))
            found.append((folder / "exercises", "en"))
            break
    return found


def _file_names(assignment: str, lang: str) -> list[str]:
    """The file names a problem set has in ``lang`` (:func:`lecturekit.i18n.problems_name`),
    then the one it had before the problem sets were named apart from the chapters (a student's
    old copy: ``04_list_scheduling.ipynb``, also the master's name, under which
    ``lecturekit grade`` shows a submission to its sandbox)."""
    from ..i18n import PROBLEMS, problems_name

    names = [problems_name(assignment, lang)] if lang in PROBLEMS else []
    return [*names, f"{assignment}.ipynb"]


def find_notebook(assignment: str, cwd: str | Path | None = None) -> Path:
    """The notebook with the public tests of ``assignment``, looked for in this order.

    1. the notebook this kernel was started for (JupyterLab's ``JPY_SESSION_NAME``: a full path,
       or a path from the server's root, looked for in the working directory too);
    2. the problem set by its name in the working directory (``04_list_scheduling_problems.ipynb``,
       in ``exercises/zh/`` ``04_列表调度_习题.ipynb``, or the old ``04_list_scheduling.ipynb``);
    3. any notebook in the working directory made from the same problem set (a renamed copy such
       as ``04_list_scheduling_problems-Copy1.ipynb``), the most recently saved first;
    4. the problem set in ``exercises/`` of the course holding the working directory (from a
       folder of the Chinese edition, such as ``notebooks/zh``, ``exercises/zh/`` first).

    Both editions share the assignment name and the tests; the notebook says which edition it is.
    """
    here = Path(cwd or os.getcwd())
    candidates: list[Path] = []
    session = os.environ.get("JPY_SESSION_NAME", "")
    if session.endswith(".ipynb"):
        # a full path (on Windows ``C:\\...``), or a path from the server's root
        path = Path(session)
        candidates += [path, here / path, here / path.name]
    lang = here.name if here.name in EDITIONS else "en"
    candidates.extend(here / name for name in _file_names(assignment, lang))
    try:
        others = sorted(here.glob("*.ipynb"), key=lambda p: -p.stat().st_mtime)
    except OSError:
        others = []
    candidates.extend(others)
    candidates.extend(
        folder / name
        for folder, lang in _course_exercises(here)
        for name in _file_names(assignment, lang)
    )
    looked = []
    for path in candidates:
        if path in looked:
            continue
        looked.append(path)
        if path.is_file() and _assignment_of(path) == assignment:
            return path
    raise ProblemSetNotFound(
        _(
            "cannot find the tests of problem set {name}: looked for a notebook made from it in "
            "{folder} and in the course's exercises/ folder. Open the problem set from the course "
            "(exercises/ in the lecturekit repository) and run this cell again."
        ).format(name=repr(assignment), folder=here)
    )


# -- reading a question's tests ----------------------------------------------------------------
def _sources(test_code: str) -> list[str]:
    """The Python statements of one doctest-formatted test case."""
    return [ex.source for ex in doctest.DocTestParser().get_examples(test_code)]


def _names(sources: list[str]) -> list[str]:
    names: list[str] = []
    for source in sources:
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Name) and node.id not in names:
                names.append(node.id)
    return names


def is_unanswered(value: Any) -> bool:
    """``...`` itself, or a function whose body does nothing (``...``, ``pass``, a docstring)."""
    if value is Ellipsis:
        return True
    code = getattr(value, "__code__", None)
    if code is None or not callable(value):
        return False
    ops = [
        (i.opname, i.argval)
        for i in dis.get_instructions(code)
        if i.opname not in ("RESUME", "NOP", "CACHE")
    ]
    return ops in ([("LOAD_CONST", None), ("RETURN_VALUE", None)], [("RETURN_CONST", None)])


def _type_name(value: Any) -> str:
    if callable(value) and hasattr(value, "__code__"):
        return "function"
    return type(value).__name__


def fits(value: Any, expected: str | None) -> bool:
    """Whether ``value`` has the type the problem set records for an answer; an answer whose
    type is not recorded (``None``: the solution computes it) fits whatever it is."""
    if expected is None:
        return True
    got = _type_name(value)
    if got == expected:
        return True
    if expected == "float" and got == "int":  # a whole number is a fine float answer
        return True
    return expected == "function" and callable(value)


#: what ``grader.check`` says (templates of the message catalog, filled by name)
PHRASES = {
    "unanswered": N_(
        "{q} is not answered yet: replace the ... in {names} with your answer and run that "
        "cell, then this one."
    ),
    "form": N_("{q}: the form of your answer is right."),
    "form_value": N_(
        "{q}: the form of your answer is right. Whether its value is right is checked only "
        "when your work is graded."
    ),
    "all_tests": N_("These are all of its tests."),
    "hidden_code": N_("Hidden tests on other inputs decide its points when your work is graded."),
    "no_public": N_("{q} has no public tests: it is checked only when your work is graded."),
    "name_error": N_("{error} (run the cells above this one first)"),
    "check_fails": N_("this check fails: {statement}"),
    "error_in": N_("{error} in: {statement}"),
    "wrong_type": N_("{name} should be {expected}, not {got}"),
    "manual": N_(
        "{q} is graded by hand: there are no tests to run; your instructor reads your answer."
    ),
    "unknown": N_(
        "{q}: this problem set has no question of that name with tests (those with tests: {names})."
    ),
}

#: how a type is named in "q1 should be a list, not an int"
TYPE_NAMES = {
    "int": N_("an int (a whole number)"),
    "float": N_("a float (a number)"),
    "str": N_("a str (text)"),
    "list": N_("a list"),
    "tuple": N_("a tuple"),
    "dict": N_("a dict"),
    "set": N_("a set"),
    "bool": N_("a bool (True or False)"),
    "Fraction": N_("a Fraction"),
    "function": N_("a function"),
    "NoneType": N_("None"),
    "ellipsis": N_("... (not answered)"),
}


def describe_type(name: str) -> str:
    """A type's name as a student reads it, in the language spoken."""
    if name in TYPE_NAMES:
        return _(TYPE_NAMES[name])
    return _("a {type}").format(type=name)


def wrong_types(expected: dict[str, str | None], env: dict) -> list[str]:
    """ "``name`` should be ..., not ..." for each answer in ``env`` of another type than the
    one recorded (answers of unknown type are never called wrong)."""
    return [
        _(PHRASES["wrong_type"]).format(
            name=n, expected=describe_type(t), got=describe_type(_type_name(env[n]))
        )
        for n, t in expected.items()
        if t is not None and n in env and not fits(env[n], t)
    ]


def _name_error(text: str) -> str:
    """NameError's own text (``name 'x' is not defined``) in the language spoken."""
    m = re.fullmatch(r"name '(\w+)' is not defined(?:\. Did you mean: '(\w+)'\?)?", text.strip())
    if m and m.group(2):
        return _("name {name} is not defined (did you mean {hint}?)").format(
            name=m.group(1), hint=m.group(2)
        )
    if m:
        return _("name {name} is not defined").format(name=m.group(1))
    return text


# -- the feedback a student sees ---------------------------------------------------------------
@dataclass
class Feedback:
    """What ``grader.check("qN")`` shows: ``text`` (one or two lines), the public test cases'
    ``results``, and ``status``: ``"pass"`` (every public test passes), ``"form"`` (they do,
    and check only the form: the value is graded by hidden tests), ``"fail"``,
    ``"unanswered"``, ``"manual"`` (graded by hand) or ``"unknown"`` (no such question)."""

    question: str
    text: str
    results: list[CaseResult] = field(default_factory=list)
    status: str = "fail"

    @property
    def passed(self) -> bool:
        return self.status in ("pass", "form")

    @property
    def score(self) -> float:
        """Points of the public tests passed (0-point feedback cases count nothing)."""
        return float(sum(r.points for r in self.results if r.passed))

    @property
    def possible(self) -> float:
        return float(sum(r.points for r in self.results))

    def __repr__(self) -> str:
        return self.text

    def _repr_html_(self) -> str:
        import html

        colour = "#1a7f37" if self.passed else "#b35900"
        rows = "<br>".join(html.escape(line) for line in self.text.splitlines())
        return f"<p style='color: {colour}; font-family: monospace;'>{rows}</p>"


def _all_pass(question: str, results: list[CaseResult], info: dict) -> tuple[str, str]:
    """(text, status) when every public test passes, saying what they showed and what is true
    of the hidden tests, from the question's ``kind`` and number of ``hidden`` cases (recorded
    by ``lecturekit assign``). A code question's public tests check the prompt's own example
    (``tests/test_problem_set_table.py`` sees to it), a value question's only the form: its
    value would be given away. Points come from the hidden tests (public ones are worth 0)."""
    n = len(results)
    hidden = int(info.get("hidden", 1))
    kind = info.get("kind") or ("code" if any(r.points > 0 for r in results) else "value")
    if kind != "code" and (hidden or not any(r.points > 0 for r in results)):
        key = "form_value" if hidden else "form"
        return _(PHRASES[key]).format(q=question), "form"
    head = ngettext(
        "{q}: its public test passes, so it is right on the prompt's example.",
        "{q}: all {n} public tests pass, so it is right on the prompt's example.",
        n,
    ).format(q=question, n=n)
    tail = _(PHRASES["hidden_code" if hidden else "all_tests"])
    return f"{head} {tail}", "pass"


def _said(first: CaseResult, messages: dict[str, str] | None) -> str:
    """What the first failing public test says: its message, or the error and statement."""
    from .calls import FunctionFailed

    problem, statement = first.error.strip(), first.statement.strip()
    exc = first.exception
    if isinstance(exc, FunctionFailed) and exc.error.startswith("NameError: "):
        # the student's function, called as graded, met a name its cells never defined
        error = _name_error(exc.error[len("NameError: ") :])
        return _(PHRASES["name_error"]).format(error=error)
    if isinstance(exc, AssertionError) and exc.args:
        said = str(exc.args[0]).strip()
        if messages:
            from ..i18n import translate_message

            said = translate_message(said, messages)
        return shown(said)
    if isinstance(exc, NameError) or problem.startswith("NameError: "):
        error = _name_error(problem[len("NameError: ") :])
        return _(PHRASES["name_error"]).format(error=error)
    if problem.startswith("AssertionError") or not problem:
        return _(PHRASES["check_fails"]).format(statement=statement)
    lines = statement.splitlines()
    return _(PHRASES["error_in"]).format(
        error=problem.splitlines()[-1], statement=lines[0] if lines else ""
    )


def feedback(
    question: str,
    results: list[CaseResult],
    global_env: dict,
    expected: dict | None = None,
    info: dict | None = None,
    messages: dict[str, str] | None = None,
) -> Feedback:
    """What to tell the student about ``results`` (the question's public test cases, run).

    ``expected``: the answer names and their recorded types; ``info``: the question's ``kind``
    and number of ``hidden`` test cases; ``messages``: the edition's translations of the public
    tests' assertion messages (English template -> translated template)."""
    expected = expected or {}
    info = info or {}
    sources = [s for r in results for s in _sources(r.code)]
    answers = list(expected) or _names(sources)
    missing = [n for n in answers if n in global_env and is_unanswered(global_env[n])]
    missing += [n for n in expected if n not in global_env]
    if missing:
        names = ", ".join(
            f"{n}()" if _type_name(global_env.get(n)) == "function" else n for n in missing
        )
        text = _(PHRASES["unanswered"]).format(q=question, names=names)
        return Feedback(question, text, results, "unanswered")
    if not results:
        text = _(PHRASES["no_public"]).format(q=question)
        return Feedback(question, text, results, "form")
    failed = [r for r in results if not r.passed]
    if not failed:
        text, status = _all_pass(question, results, info)
        return Feedback(question, text, results, status)
    passed = len(results) - len(failed)
    lines = [
        ngettext(
            "{q}: {passed} of {n} public test passes. Not yet: {said}",
            "{q}: {passed} of {n} public tests pass. Not yet: {said}",
            len(results),
        ).format(q=question, passed=passed, n=len(results), said=_said(failed[0], messages))
    ]
    wrong = wrong_types(expected, global_env)
    if wrong:
        lines.append(
            pgettext("between the items of a list", "; ").join(wrong)
            + pgettext("the end of a sentence", ".")
        )
    text = "\n".join(line if len(line) <= 400 else line[:397] + "..." for line in lines)
    return Feedback(question, text, results, "fail")


#: seconds a question's public tests may spend in the student's functions
CHECK_SECONDS = 60


@contextlib.contextmanager
def restricted(global_env: dict, functions: list[str], packages: list[str], question: str = ""):
    """``global_env`` with each of ``functions`` replaced by a stand-in that calls it in a
    ``python -I -S`` process (standard library and ``packages`` only), as grading does; the
    same on Linux, macOS and Windows (:mod:`.local_callee`)."""
    import tempfile

    from . import local_callee
    from .calls import Functions, Remote
    from .portable import recipe

    command = local_callee.command(packages)
    # the callee's working directory; on Windows one a process still runs in cannot be removed
    with tempfile.TemporaryDirectory(prefix="lk-check-", ignore_cleanup_errors=True) as folder:
        calls = Functions(
            lambda: local_callee.start(command, folder),
            {n: recipe(global_env, n) for n in functions},
            CHECK_SECONDS,
            portable=local_callee.portable(),
        )
        calls.start_question(question)
        env = dict(global_env)
        env.update({n: Remote(calls, n) for n in functions})
        try:
            yield env
        finally:
            calls.drop()


@dataclass
class Summary:
    """What ``grader.check_all()`` shows: one line per question (``text``), each question's
    :class:`Feedback` in ``checks``."""

    text: str
    checks: dict[str, Feedback]

    def __repr__(self) -> str:
        return self.text

    def _repr_html_(self) -> str:
        import html

        rows = "<br>".join(html.escape(line) for line in self.text.splitlines())
        return f"<p style='font-family: monospace;'>{rows}</p>"


#: the line ``check_all`` shows for a question, by its status
STATUS_LINES = {
    "pass": N_("{q}: its public tests pass"),
    "form": N_("{q}: the form is right (the rest is checked when your work is graded)"),
    "fail": N_("{q}: {passed} of {n} public tests pass"),
    "unanswered": N_("{q}: not answered yet"),
    "manual": N_("{q}: graded by hand"),
}


class Grader:
    """A problem set's public tests, found under any name; checks say a line or two."""

    def __init__(self, assignment: str, notebook: str | Path | None = None):
        self.assignment = assignment
        self.path = Path(notebook) if notebook else find_notebook(assignment)
        with self.path.open(encoding="utf-8") as fh:
            meta = json.load(fh).get("metadata", {})
        #: per question with tests, its public tests (otter's format, from the notebook)
        self.tests: dict[str, dict] = dict(meta.get("otter", {}).get("tests") or {})
        ours = meta.get(METADATA_KEY, {})
        self.expected: dict[str, dict[str, str | None]] = ours.get("answers", {})
        #: per question (manual ones too), its kind and number of hidden test cases
        self.questions: dict[str, dict] = dict(ours.get("questions") or {})
        #: the notebook's edition ("en", or "zh" for a Chinese problem set) and its translations
        #: of the public tests' assertion messages (English template -> translated template)
        self.edition: str = str(ours.get("edition") or "en")
        self.messages: dict[str, str] = dict(ours.get("messages") or {})
        #: per code question, the site-packages its functions may import (numpy)
        self.packages: dict[str, list[str]] = dict(ours.get("packages") or {})

    def names(self) -> list[str]:
        """The set's questions in order (those with tests, and the manual ones)."""
        return list(self.questions) or list(self.tests)

    def check(self, question: str, global_env: dict | None = None) -> Feedback:
        """Run ``question``'s public tests on the notebook's answers (the caller's globals)."""
        if global_env is None:
            global_env = sys._getframe(1).f_globals
        with using(self.edition):
            return self._check(str(question), global_env)

    def _check(self, question: str, global_env: dict) -> Feedback:
        spec = self.tests.get(question)
        if spec is None:
            if self.questions.get(question, {}).get("kind") == "manual":
                text = _(PHRASES["manual"]).format(q=question)
                return Feedback(question, text, [], "manual")
            known = [q for q in self.names() if q in self.tests]
            text = _(PHRASES["unknown"]).format(q=question, names=", ".join(known))
            return Feedback(question, text, [], "unknown")
        public = dict(spec, suites=[dict(spec["suites"][0], cases=_public(spec))])
        functions = [n for n, t in self.expected.get(question, {}).items() if t == "function"]
        ready = [n for n in functions if n in global_env and not is_unanswered(global_env[n])]
        if functions and len(ready) == len(functions):
            allowed = self.packages.get(question, [])
            with restricted(global_env, functions, allowed, question) as env:
                results = run_question(public, env)
        else:
            results = run_question(public, dict(global_env))
        return feedback(
            question,
            results,
            global_env,
            self.expected.get(question),
            self.questions.get(question),
            self.messages,
        )

    def check_all(self, global_env: dict | None = None) -> Summary:
        """Every question's check, one line each."""
        if global_env is None:
            global_env = sys._getframe(1).f_globals
        with using(self.edition):
            checks = {q: self._check(q, global_env) for q in self.names()}
            lines = []
            for q, fb in checks.items():
                if fb.status == "unknown":
                    continue
                passed = sum(r.passed for r in fb.results)
                line = _(STATUS_LINES[fb.status]).format(q=q, passed=passed, n=len(fb.results))
                lines.append(line)
            lines.append(_('For what to fix, run grader.check("qN") for that question.'))
        return Summary("\n".join(lines), checks)


def _public(spec: dict) -> list[dict]:
    return [c for c in spec["suites"][0]["cases"] if not c.get("hidden", True)]
