"""The student's ``grader``: otter-grader's checks, found under any name, told in a line or two.

Every problem set's first cell is ``grader = lecturekit.grading.check.Grader("NN_topic")`` (written
by ``lecturekit assign``). ``Grader`` finds the notebook holding the set's public tests wherever
JupyterLab runs the kernel and whatever the student named their copy, then hands every check to
``otter.Notebook`` unchanged; only what is shown is shaped:

* all public tests pass: one line, and a reminder that hidden tests count too;
* an answer still ``...`` (or a function whose body is only ``...``): "not answered yet";
* a failing test: the test's own assertion message (no doctest or traceback frames), or, for a
  test that fails without a message, the failing line; an answer of the wrong type says which type
  the problem set expects (recorded from the solution by ``lecturekit assign``).

A code question's public tests run as grading runs them: each of the question's functions is
re-created from its recipe (:mod:`.portable`) in a ``python -I -S`` process beside the kernel,
with the standard library only (and the packages the question allows, such as numpy), and the
tests call it there on fresh plain-data copies (:mod:`.calls`). A function that needs lecturekit,
networkx or a notebook object fails its check here, with the one-line reason, not later in the
grade. (This process is not a sandbox: it teaches the restriction grading enforces.)

In the Chinese edition (a notebook whose ``metadata.lecturekit.edition`` is ``"zh"``, written by
``lecturekit translate build``) every line is Chinese: these phrases, the type names, and the
test's own assertion message through the edition's ``messages`` table
(:func:`lecturekit.i18n.translate_message`; a message with no translation stays English).
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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import LectureKitError

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


def _course_exercises(start: Path) -> list[Path]:
    """``exercises/`` of the course holding ``start`` (or under it: the course root itself);
    from inside an edition's folder (``notebooks/zh``), that edition's ``exercises/zh`` first."""
    found = []
    for folder in (start, *start.parents):
        if (folder / "exercises").is_dir() and folder.name != "exercises":
            below = start.relative_to(folder).parts  # the folders inside the course only
            edition = next((part for part in below if part in EDITIONS), None)
            if edition and (folder / "exercises" / edition).is_dir():
                found.append(folder / "exercises" / edition)
            found.append(folder / "exercises")
            break
    return found


def find_notebook(assignment: str, cwd: str | Path | None = None) -> Path:
    """The notebook with the public tests of ``assignment``, looked for in this order.

    1. the notebook this kernel was started for (JupyterLab's ``JPY_SESSION_NAME``);
    2. ``<assignment>.ipynb`` in the working directory;
    3. any notebook in the working directory made from the same problem set (a renamed copy such
       as ``04_list_scheduling-Copy1.ipynb``), the most recently saved first;
    4. ``exercises/<assignment>.ipynb`` of the course holding the working directory (from a
       folder of the Chinese edition, such as ``notebooks/zh``, ``exercises/zh/`` first).

    In ``exercises/zh/`` step 2 finds the Chinese problem set, never the English one: both
    editions share the assignment name and the tests, the notebook says which edition it is.
    """
    here = Path(cwd or os.getcwd())
    candidates: list[Path] = []
    session = os.environ.get("JPY_SESSION_NAME", "")
    if session.endswith(".ipynb"):
        candidates.append(Path(session))
    candidates.append(here / f"{assignment}.ipynb")
    try:
        others = sorted(here.glob("*.ipynb"), key=lambda p: -p.stat().st_mtime)
    except OSError:
        others = []
    candidates.extend(others)
    candidates.extend(ex / f"{assignment}.ipynb" for ex in _course_exercises(here))
    looked = []
    for path in candidates:
        if path in looked:
            continue
        looked.append(path)
        if path.is_file() and _assignment_of(path) == assignment:
            return path
    raise ProblemSetNotFound(
        f"cannot find the tests of problem set {assignment!r}: looked for a notebook made from it "
        f"in {here} and in the course's exercises/ folder. Open the problem set from the course "
        "(exercises/ in the lecturekit repository) and run this cell again."
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


def _failure(report: str) -> tuple[str, str]:
    """(failing statement, exception or mismatch text) of the first failed example in ``report``."""
    lines = report.splitlines()
    for k, line in enumerate(lines):
        if line.strip() != "Failed example:":
            continue
        block: list[str] = []
        for rest in lines[k + 1 :]:
            if rest.startswith("*****") or rest.startswith("Trying:"):
                break
            block.append(rest)
        statement: list[str] = []
        j = 0
        while j < len(block) and block[j].startswith("    "):
            statement.append(block[j][4:])
            j += 1
        tail = block[j:]
        if tail and tail[0].startswith("Exception raised:"):
            body = [t[4:] if t.startswith("    ") else t for t in tail[1:]]
            start = max((i for i, t in enumerate(body) if t.startswith("Traceback")), default=-1)
            exc = [t for t in body[start + 1 :] if not t.startswith(" ")] if start >= 0 else body
            return "\n".join(statement), "\n".join(exc).strip()
        return "\n".join(statement), " ".join(t.strip() for t in tail if t.strip())
    return "", ""


def _type_name(value: Any) -> str:
    if callable(value) and hasattr(value, "__code__"):
        return "function"
    return type(value).__name__


def _fits(value: Any, expected: str) -> bool:
    got = _type_name(value)
    if got == expected:
        return True
    if expected == "float" and got == "int":  # a whole number is a fine float answer
        return True
    return expected == "function" and callable(value)


_ARTICLE = {"int": "an int (a whole number)", "float": "a float (a number)", "str": "a str"}
_ZH_TYPE = {
    "int": "整数（int）",
    "float": "数（float）",
    "str": "字符串（str）",
    "list": "列表（list）",
    "tuple": "元组（tuple）",
    "dict": "字典（dict）",
    "set": "集合（set）",
    "bool": "布尔值（bool）",
    "function": "函数",
    "NoneType": "None",
    "ellipsis": "...",
}


def describe_type(name: str, lang: str = "en") -> str:
    if lang == "zh":
        return _ZH_TYPE.get(name, name)
    return _ARTICLE.get(name, f"a {name}")


#: what ``feedback`` says, per edition (``{}`` fields are filled in by name)
PHRASES: dict[str, dict[str, str]] = {
    "en": {
        "all_pass": (
            "{q}: all {n} public test(s) pass. "
            "Hidden tests on other inputs also count when your work is graded."
        ),
        "unanswered": (
            "{q} is not answered yet: replace the ... in {names} with your answer "
            "and run that cell, then this one."
        ),
        "cannot_run": "{q}: the tests could not run.",
        "name_error": "{error} (run the cells above this one first)",
        "check_fails": "this check fails: {statement}",
        "error_in": "{error} in: {statement}",
        "some_pass": "{q}: {passed} of {n} public tests pass. Not yet: {said}",
        "wrong_type": "{name} should be {expected}, not {got}",
        "sep": "; ",
        "end": ".",
    },
    "zh": {
        "all_pass": "{q}：{n} 个公开测试全部通过。评分时还有针对其他输入的隐藏测试，同样计分。",
        "unanswered": (
            "{q} 尚未作答：请把 {names} 中的 ... 换成你的答案，先运行那个单元格，再运行本单元格。"
        ),
        "cannot_run": "{q}：测试无法运行。",
        "name_error": "{error}（请先运行本单元格上方的各个单元格）",
        "check_fails": "这项检查未通过：{statement}",
        "error_in": "{error}，出错的语句：{statement}",
        "some_pass": "{q}：{n} 个公开测试中通过 {passed} 个。尚未通过：{said}",
        "wrong_type": "{name} 应为{expected}，而不是{got}",
        "sep": "；",
        "end": "。",
    },
}


def _name_error(text: str, lang: str) -> str:
    """NameError's own text, in Chinese for the zh edition (``name 'x' is not defined``)."""
    if lang == "zh":
        m = re.fullmatch(r"name '(\w+)' is not defined(?:\. Did you mean: '(\w+)'\?)?", text)
        if m:
            hint = f"（是否想用 {m.group(2)}？）" if m.group(2) else ""
            return f"名称 {m.group(1)} 尚未定义{hint}"
    return text


# -- the feedback a student sees ---------------------------------------------------------------
@dataclass
class Feedback:
    """What ``grader.check("qN")`` shows: ``text`` (one or two lines) and otter's own result."""

    question: str
    text: str
    result: Any  # otter's TestFile, with every test case's full report

    @property
    def passed(self) -> bool:
        return bool(self.result.passed_all)

    @property
    def score(self) -> float:
        return float(self.result.score)

    @property
    def possible(self) -> float:
        return float(self.result.possible)

    def __repr__(self) -> str:
        return self.text

    def _repr_html_(self) -> str:
        import html

        colour = "#1a7f37" if self.passed else "#b35900"
        rows = "<br>".join(html.escape(line) for line in self.text.splitlines())
        return f"<p style='color: {colour}; font-family: monospace;'>{rows}</p>"


def feedback(
    question: str,
    result: Any,
    global_env: dict,
    expected: dict | None = None,
    lang: str = "en",
    messages: dict[str, str] | None = None,
) -> str:
    """The one- or two-line text for otter's ``result`` of checking ``question``.

    ``lang`` is the notebook's edition (``"en"`` or ``"zh"``); ``messages`` maps the public
    tests' English assertion messages (templates) to that edition's (see :mod:`lecturekit.i18n`).
    """
    expected = expected or {}
    say = PHRASES.get(lang, PHRASES["en"])
    cases = list(result.test_case_results)
    public = [r for r in cases if not r.test_case.hidden]
    passed = sum(r.passed for r in public)
    if public and passed == len(public):
        return say["all_pass"].format(q=question, n=len(public))
    sources = [s for r in cases for s in _sources(r.test_case.body)]
    referenced = _names(sources)
    answers = list(expected) or referenced
    missing = [n for n in answers if n in global_env and is_unanswered(global_env[n])]
    missing += [n for n in expected if n not in global_env]
    if missing:
        shown = ", ".join(
            f"{n}()" if _type_name(global_env.get(n)) == "function" else n for n in missing
        )
        return say["unanswered"].format(q=question, names=shown)
    first = next(r for r in public if not r.passed) if public else None
    if first is None:
        return say["cannot_run"].format(q=question)
    statement, problem = _failure(first.message or "")
    wrong_type = [
        say["wrong_type"].format(
            name=n,
            expected=describe_type(t, lang),
            got=describe_type(_type_name(global_env[n]), lang),
        )
        for n, t in expected.items()
        if n in global_env and not _fits(global_env[n], t)
    ]
    raised = re.fullmatch(r"AssertionError: \w+ raised NameError: (.+)", problem.strip())
    if raised:  # the student's function, called as graded, met a name its cells never defined
        said = say["name_error"].format(error=_name_error(raised.group(1), lang))
    elif problem.startswith("AssertionError: "):
        said = problem[len("AssertionError: ") :].strip()
        if messages:
            from ..i18n import translate_message

            said = translate_message(said, messages)
    elif problem.startswith("NameError: "):
        said = say["name_error"].format(error=_name_error(problem[len("NameError: ") :], lang))
    elif problem == "AssertionError" or not problem:
        said = say["check_fails"].format(statement=statement.strip())
    else:
        said = say["error_in"].format(
            error=problem.splitlines()[-1], statement=statement.strip().splitlines()[0]
        )
    lines = [say["some_pass"].format(q=question, passed=passed, n=len(public), said=said)]
    if wrong_type:
        lines.append(say["sep"].join(wrong_type) + say["end"])
    return "\n".join(line if len(line) <= 400 else line[:397] + "..." for line in lines)


#: seconds a question's public tests may spend in the student's functions
CHECK_SECONDS = 60


@contextlib.contextmanager
def restricted(global_env: dict, functions: list[str], packages: list[str]):
    """``global_env`` with each of ``functions`` replaced by a stand-in that calls it in a
    ``python -I -S`` process (standard library and ``packages`` only), as grading does."""
    import subprocess
    import tempfile

    from .calls import Functions, Remote
    from .portable import recipe
    from .sandbox import local_call_command

    with tempfile.TemporaryDirectory(prefix="lk-check-") as folder:
        command = local_call_command(packages, Path(folder))

        def start():
            return subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                cwd=folder,
                start_new_session=True,
            )

        calls = Functions(start, {n: recipe(global_env, n) for n in functions}, CHECK_SECONDS)
        calls.start_question("check")
        env = dict(global_env)
        env.update({n: Remote(calls, n) for n in functions})
        try:
            yield env
        finally:
            calls.drop()


class Grader:
    """``otter.Notebook`` for a problem set, found under any name; checks say a line or two."""

    def __init__(self, assignment: str, notebook: str | Path | None = None):
        import otter

        self.assignment = assignment
        self.path = Path(notebook) if notebook else find_notebook(assignment)
        # tests_dir=None: the tests are in the notebook, never in a ./tests folder of the cwd
        self.otter = otter.Notebook(nb_path=str(self.path), tests_dir=None)
        with self.path.open(encoding="utf-8") as fh:
            meta = json.load(fh).get("metadata", {})
        ours = meta.get(METADATA_KEY, {})
        self.expected: dict[str, dict[str, str]] = ours.get("answers", {})
        #: the notebook's edition ("en", or "zh" for a Chinese problem set) and its translations
        #: of the public tests' assertion messages (English template -> translated template)
        self.edition: str = str(ours.get("edition") or "en")
        self.messages: dict[str, str] = dict(ours.get("messages") or {})
        #: per code question, the site-packages its functions may import (numpy)
        self.packages: dict[str, list[str]] = dict(ours.get("packages") or {})

    def check(self, question: str, global_env: dict | None = None) -> Feedback:
        if global_env is None:
            global_env = sys._getframe(1).f_globals
        functions = [n for n, t in self.expected.get(question, {}).items() if t == "function"]
        ready = [n for n in functions if n in global_env and not is_unanswered(global_env[n])]
        if functions and len(ready) == len(functions):
            with restricted(global_env, functions, self.packages.get(question, [])) as env:
                result = self.otter.check(question, global_env=env)
        else:
            result = self.otter.check(question, global_env=global_env)
        text = feedback(
            question,
            result,
            global_env,
            self.expected.get(question),
            self.edition,
            self.messages,
        )
        return Feedback(question, text, result)

    def __getattr__(self, name: str) -> Any:  # everything else is otter's (check_all, export...)
        return getattr(self.otter, name)
