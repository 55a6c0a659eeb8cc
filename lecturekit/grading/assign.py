"""Making the student notebooks: ``otter assign`` on each master in ``solutions/``, then
lecturekit's finishing touches (the first cell opens :class:`lecturekit.grading.check.Grader`,
stable cell ids, each answer's expected type in the metadata); and finding the course folder.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from ..errors import LectureKitError
from ..i18n import problems_name
from ..language import _

# -- reading master notebooks ---------------------------------------------------------------
#: what a question asks for: a function (``code``), a value worked out by hand and checked
#: (``value``), or prose an instructor reads (``manual``)
KINDS = ("code", "value", "manual")


@dataclass(frozen=True)
class Criterion:
    """One line of a manual question's rubric: what earns ``points``."""

    points: float
    criterion: str


@dataclass(frozen=True)
class Question:
    """A question of a master notebook. ``kind`` is its config's ``kind:``, else derived:
    ``manual`` for a manual question, ``code`` when its solution defines a function, else
    ``value``. ``rubric`` (manual questions) comes from its config's ``rubric:``; ``prompt``
    and ``answer`` are the prompt's and the model answer's text (for the instructor's rubric
    sheet)."""

    name: str
    points: float
    manual: bool
    kind: str = "value"
    rubric: tuple[Criterion, ...] = ()
    prompt: str = ""
    answer: str = ""


def question_config(master, text: str) -> dict:
    """The YAML config of a ``# BEGIN QUESTION`` cell, checked: a name; ``kind:`` one of
    :data:`KINDS` and ``manual`` exactly when ``kind: manual``; ``rubric:`` (manual questions
    only) a list of ``{points, criterion}`` whose points add up to the question's."""
    import yaml

    try:
        config = yaml.safe_load(text.split("\n", 1)[1] if "\n" in text else "") or {}
    except yaml.YAMLError as exc:
        raise LectureKitError(
            _("{master}: a question's config is not YAML ({exc}): {text!r}").format(
                master=master, exc=exc, text=text
            )
        ) from None
    if not isinstance(config, dict) or "name" not in config:
        raise LectureKitError(
            _("{master}: a question has no name: {text!r}").format(master=master, text=text)
        )
    name = config["name"]
    kind = config.get("kind")
    if kind is not None and kind not in KINDS:
        raise LectureKitError(
            _("{master}: question {name}: `kind: {kind}`: give one of {kinds}").format(
                master=master, name=name, kind=kind, kinds=", ".join(KINDS)
            )
        )
    if kind is not None and (kind == "manual") != bool(config.get("manual")):
        raise LectureKitError(
            _(
                "{master}: question {name}: `kind: manual` goes with `manual: true`, "
                "and only with it"
            ).format(master=master, name=name)
        )
    rubric = config.get("rubric")
    if rubric is not None:
        if not config.get("manual"):
            raise LectureKitError(
                _(
                    "{master}: question {name}: a `rubric:` is for a manual question (its "
                    "tests are the rubric of an autograded one)"
                ).format(master=master, name=name)
            )
        ok = (
            isinstance(rubric, list)
            and rubric
            and all(
                isinstance(item, dict)
                and set(item) == {"points", "criterion"}
                and isinstance(item["points"], int | float)
                and not isinstance(item["points"], bool)
                and item["points"] > 0
                and isinstance(item["criterion"], str)
                and item["criterion"].strip()
                for item in rubric
            )
        )
        if not ok:
            raise LectureKitError(
                _(
                    "{master}: question {name}: `rubric:` must be a list of {{points: N, "
                    "criterion: text}} items, each worth more than 0 points"
                ).format(master=master, name=name)
            )
        total = sum(item["points"] for item in rubric)
        if abs(total - float(config.get("points", 1))) > 1e-9:
            raise LectureKitError(
                _(
                    "{master}: question {name}: its rubric's points add up to {total:g}, "
                    "the question is worth {points:g}"
                ).format(
                    master=master, name=name, total=total, points=float(config.get("points", 1))
                )
            )
    return config


def questions(master: str | Path) -> list[Question]:
    """The questions of a master notebook, in order, with their points, kind and rubric."""
    import nbformat

    nb = nbformat.read(str(master), as_version=4)
    functions = {q for q, names in answer_types(nb).items() if "function" in names.values()}
    found: list[Question] = []
    config: dict | None = None
    prompt: list[str] = []
    answer: list[str] = []
    where = None
    for cell in nb.cells:
        text = cell.source.strip()
        if cell.cell_type == "raw" and text.startswith("# BEGIN QUESTION"):
            config, prompt, answer, where = question_config(master, text), [], [], "prompt"
            continue
        if config is None:
            continue
        if cell.cell_type == "raw" and text.startswith("# BEGIN SOLUTION"):
            where = "answer"
        elif cell.cell_type == "raw" and text.startswith(("# END SOLUTION", "# BEGIN TESTS")):
            where = None
        elif cell.cell_type == "raw" and text.startswith("# END QUESTION"):
            name = str(config["name"])
            manual = bool(config.get("manual"))
            kind = config.get("kind") or (
                "manual" if manual else "code" if name in functions else "value"
            )
            rubric = tuple(
                Criterion(float(item["points"]), str(item["criterion"]).strip())
                for item in config.get("rubric") or ()
            )
            found.append(
                Question(
                    name,
                    float(config.get("points", 1)),
                    manual,
                    kind,
                    rubric,
                    "\n\n".join(prompt),
                    "\n\n".join(answer),
                )
            )
            config = None
        elif where == "prompt" and cell.cell_type == "markdown":
            prompt.append(text)
        elif where == "answer" and cell.cell_type in ("markdown", "code"):
            answer.append(text)
    return found


# -- assign ----------------------------------------------------------------------------------
INIT_CELL = (  # i18n: as is (the same code in both editions)
    "# Initialize Otter: lecturekit finds this problem set's tests under any file name\n"
    "from lecturekit.grading.check import Grader\n"
    "\n"
    "grader = Grader({name})"
)


def assign_one(master: Path, exercises: Path, build: Path) -> Path:
    """``otter assign`` one master notebook; write the student notebook to ``exercises``, named
    apart from the chapter so that their tabs differ (``solutions/04_list_scheduling.ipynb`` ->
    ``exercises/04_list_scheduling_problems.ipynb``: :func:`lecturekit.i18n.problems_name`).

    otter's student notebook is then made to work anywhere and to come out the same every time:
    its first cell opens the tests with :class:`lecturekit.grading.check.Grader` (found under any
    file name, from any working directory) instead of ``otter.Notebook("NN_topic.ipynb")``; the
    cells otter adds get ids derived from the master's (otter draws them at random); and the
    metadata records each question's answer names and types for the feedback of ``grader.check``.
    """
    import json

    import nbformat

    out = build / master.stem
    if out.exists():
        shutil.rmtree(out)
    _otter_assign(master, out)
    student = nbformat.read(str(out / "student" / master.name), as_version=4)
    source = nbformat.read(str(master), as_version=4)
    assignment = student.metadata.get("otter", {}).get("assignment_name") or master.stem
    for cell in student.cells:
        if cell.cell_type == "code" and cell.source.startswith("# Initialize Otter"):
            cell.source = INIT_CELL.format(name=json.dumps(assignment))
            break
    else:
        raise LectureKitError(
            _("{master}: otter assign made no init cell (set init_cell: true)").format(
                master=master
            )
        )
    stable_cell_ids(student, [c.get("id") for c in source.cells])
    student.metadata["lecturekit"] = {
        "answers": answer_types(source),
        "questions": question_summary(master, out / "autograder" / master.name),
    }
    packages = allowed_packages(source)
    if packages:
        student.metadata["lecturekit"]["packages"] = packages
    exercises.mkdir(parents=True, exist_ok=True)
    target = exercises / problems_name(master.stem)
    nbformat.write(student, str(target))
    return target


def question_summary(master: Path, autograder: Path) -> dict[str, dict]:
    """Per question, what ``grader.check`` needs to say true things about the tests it cannot
    see: its ``kind`` (code, value, manual) and how many ``hidden`` test cases grade it."""
    import nbformat

    tests = nbformat.read(str(autograder), as_version=4).metadata.get("otter", {}).get("tests", {})
    summary = {}
    for q in questions(master):
        cases = tests.get(q.name, {}).get("suites", [{}])[0].get("cases", [])
        summary[q.name] = {"kind": q.kind, "hidden": sum(bool(c.get("hidden")) for c in cases)}
    return summary


def _otter_assign(master: Path, out: Path) -> None:
    """``otter assign master out``, in this process: importing otter costs seconds (nbformat's
    schema checks), assigning a notebook a fraction of one, and ``lecturekit assign`` or a
    grading run assigns many. Its output is kept for the error message only."""
    import contextlib
    import io
    import os

    try:
        from otter.assign import main as assign
    except ImportError:
        raise LectureKitError(
            _(
                "making the student notebooks needs otter-grader, the instructor's tooling: "
                "pip install 'lecturekit[instructor]' (or pip install otter-grader)"
            )
        ) from None

    said = io.StringIO()
    here = os.getcwd()
    try:
        with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
            assign(str(master), str(out))
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - otter raises many kinds
        raise LectureKitError(
            _("otter assign failed on {master}:\n{output}{name}: {exc}").format(
                master=master, output=said.getvalue(), name=type(exc).__name__, exc=exc
            )
        ) from exc
    finally:
        os.chdir(here)


def stable_cell_ids(nb, master_ids: list[str | None]) -> None:
    """Give every cell otter added an id made from the master cell before it and its source."""
    import hashlib

    known = {i for i in master_ids if i}
    taken = {c.get("id") for c in nb.cells if c.get("id") in known}
    anchor = "start"
    for cell in nb.cells:
        if cell.get("id") in known:
            anchor = cell["id"]
            continue
        n = 0
        while True:
            text = f"{anchor}\n{cell.cell_type}\n{cell.source}\n{n}"
            new = hashlib.sha1(text.encode("utf-8")).hexdigest()[:8]
            if new not in taken and new not in known:
                break
            n += 1
        cell["id"] = new
        taken.add(new)


def _static_value(node):
    """The value of a constant expression (numbers, strings, +-*/ ** //, containers), else raise."""
    import ast

    allowed = (
        ast.Expression, ast.Constant, ast.BinOp, ast.UnaryOp, ast.Tuple, ast.List, ast.Set,
        ast.Dict, ast.operator, ast.unaryop, ast.Load,
    )  # fmt: skip
    for sub in ast.walk(node):
        if not isinstance(sub, allowed):
            raise ValueError("not a constant expression")  # i18n: not shown (caught)
    return eval(compile(ast.Expression(node), "<answer>", "eval"), {"__builtins__": {}})


def answer_types(master_nb) -> dict[str, dict[str, str | None]]:
    """Per autograded question, the names its solution defines and their types (None: unknown).

    Read from the solution cells without running them: ``name = <constant>  # SOLUTION`` gives
    the constant's type, ``def name`` a function; a computed answer's type stays unknown.
    """
    import ast

    import yaml

    found: dict[str, dict[str, str | None]] = {}
    question, in_solution = None, False
    for cell in master_nb.cells:
        text = cell.source.strip()
        if cell.cell_type == "raw":
            if text.startswith("# BEGIN QUESTION"):
                config = yaml.safe_load(text.split("\n", 1)[1] if "\n" in text else "") or {}
                question = None if config.get("manual") else str(config.get("name"))
            elif text.startswith("# BEGIN SOLUTION"):
                in_solution = True
            elif text.startswith("# END SOLUTION"):
                in_solution = False
            elif text.startswith("# END QUESTION"):
                question = None
            continue
        if not (question and in_solution and cell.cell_type == "code"):
            continue
        try:
            tree = ast.parse(cell.source)
        except SyntaxError:
            continue
        lines = cell.source.splitlines()
        names = found.setdefault(question, {})
        for stmt in tree.body:
            span = "\n".join(lines[stmt.lineno - 1 : stmt.end_lineno])
            if "SOLUTION" not in span:
                continue
            if isinstance(stmt, ast.FunctionDef):
                names[stmt.name] = "function"
            elif isinstance(stmt, ast.Assign | ast.AnnAssign) and stmt.value is not None:
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                try:
                    kind = type(_static_value(stmt.value)).__name__
                except Exception:
                    kind = None
                for target in targets:
                    if isinstance(target, ast.Name):
                        names[target.id] = kind
    return {q: names for q, names in found.items() if names}


def allowed_packages(master_nb) -> dict[str, list[str]]:
    """Per code question that allows some, the site-packages its functions may import
    (``packages:`` in the ``# BEGIN QUESTION`` config), for ``grader.check``."""
    import yaml

    found = {}
    for cell in master_nb.cells:
        text = cell.source.strip()
        if cell.cell_type == "raw" and text.startswith("# BEGIN QUESTION"):
            config = yaml.safe_load(text.split("\n", 1)[1] if "\n" in text else "") or {}
            if config.get("packages"):
                found[str(config.get("name"))] = [str(p) for p in config["packages"]]
    return found


def assign_all(solutions: Path, exercises: Path, build: Path) -> list[Path]:
    masters = sorted(solutions.glob("*.ipynb"))
    if not masters:
        raise LectureKitError(
            _("no master notebooks (*.ipynb) in {folder}").format(folder=solutions.resolve())
        )
    return [assign_one(m, exercises, build) for m in masters]


COURSE_MARKERS = ("pyproject.toml", "exercises", "notebooks")


def find_course(start: Path | None = None) -> Path:
    """The course folder holding ``start`` (default: the working directory).

    The nearest folder, ``start`` itself or above it, with a ``solutions/`` folder beside a
    ``pyproject.toml``, ``exercises/`` or ``notebooks/``.
    """
    here = Path(start or Path.cwd()).resolve()
    looked = []
    for folder in (here, *here.parents):
        looked.append(folder)
        if (folder / "solutions").is_dir() and any((folder / m).exists() for m in COURSE_MARKERS):
            return folder
    raise LectureKitError(
        _(
            "no course found: looked for a folder holding solutions/ (beside "
            "pyproject.toml, exercises/ or notebooks/) in {folders}; run inside the "
            "course or give --course PATH"
        ).format(folders=", ".join(map(str, looked)))
    )


def check_course(course: Path) -> Path:
    """An explicit ``--course`` folder, checked: it must hold ``solutions/``."""
    if not (course / "solutions").is_dir():
        raise LectureKitError(
            _("--course {course}: no solutions/ folder in {folder}").format(
                course=course, folder=course.resolve()
            )
        )
    return course.resolve()
