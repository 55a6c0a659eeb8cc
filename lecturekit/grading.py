"""Problem sets with otter-grader: make the student notebooks, and grade a folder of submissions.

The instructor edits only ``solutions/NN_topic.ipynb`` (otter-grader's master-notebook format:
questions, solutions and public and hidden tests in one notebook). Then

* ``lecturekit assign`` runs ``otter assign`` on every solution notebook and copies the student
  version into ``exercises/`` (the autograder material goes to the ignored ``build/otter/``);
* ``lecturekit grade CHAPTER SUBMISSIONS...`` grades every submitted notebook against the public
  *and hidden* tests and writes one CSV row per student, one column per question.

Grading needs no server, database or Docker, and a score can be trusted: each submission runs
in a bubblewrap sandbox that sees no solutions, autograder or other submission, and its score is
computed by a trusted process from plain data the sandbox hands back, capped at each question's
points (see :mod:`lecturekit.grading_run` for the design and :mod:`lecturekit.sandbox`). A cell
that raises is recorded and the run goes on; a cell or a question that runs too long is stopped
(it scores 0, the answers given before it still count).
"""

from __future__ import annotations

import argparse
import csv
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

from .errors import LectureKitError

RESULT_MARK = "__LECTUREKIT_GRADE__"


# -- reading master notebooks ---------------------------------------------------------------
@dataclass(frozen=True)
class Question:
    name: str
    points: float
    manual: bool


def questions(master: str | Path) -> list[Question]:
    """The questions of a master notebook, in order, with their points and manual flag."""
    import nbformat
    import yaml

    nb = nbformat.read(str(master), as_version=4)
    found = []
    for cell in nb.cells:
        text = cell.source.strip()
        if cell.cell_type == "raw" and text.startswith("# BEGIN QUESTION"):
            config = yaml.safe_load(text.split("\n", 1)[1] if "\n" in text else "") or {}
            if "name" not in config:
                raise LectureKitError(f"{master}: a question has no name: {text!r}")
            found.append(
                Question(
                    str(config["name"]), float(config.get("points", 1)), bool(config.get("manual"))
                )
            )
    return found


# -- assign ----------------------------------------------------------------------------------
INIT_CELL = (
    "# Initialize Otter: lecturekit finds this problem set's tests under any file name\n"
    "from lecturekit.check import Grader\n"
    "\n"
    "grader = Grader({name})"
)


def assign_one(master: Path, exercises: Path, build: Path) -> Path:
    """``otter assign`` one master notebook; write the student notebook to ``exercises``.

    otter's student notebook is then made to work anywhere and to come out the same every time:
    its first cell opens the tests with :class:`lecturekit.check.Grader` (found under any file
    name, from any working directory) instead of ``otter.Notebook("NN_topic.ipynb")``; the cells
    otter adds get ids derived from the master's (otter draws them at random); and the metadata
    records each question's answer names and types for the feedback of ``grader.check``.
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
        raise LectureKitError(f"{master}: otter assign made no init cell (set init_cell: true)")
    stable_cell_ids(student, [c.get("id") for c in source.cells])
    student.metadata["lecturekit"] = {"answers": answer_types(source)}
    exercises.mkdir(parents=True, exist_ok=True)
    target = exercises / master.name
    nbformat.write(student, str(target))
    return target


def _otter_assign(master: Path, out: Path) -> None:
    """``otter assign master out``, in this process: importing otter costs seconds (nbformat's
    schema checks), assigning a notebook a fraction of one, and ``lecturekit assign`` or a
    grading run assigns many. Its output is kept for the error message only."""
    import contextlib
    import io
    import os

    from otter.assign import main as assign

    said = io.StringIO()
    here = os.getcwd()
    try:
        with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
            assign(str(master), str(out))
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - otter raises many kinds
        raise LectureKitError(
            f"otter assign failed on {master}:\n{said.getvalue()}{type(exc).__name__}: {exc}"
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
            raise ValueError("not a constant expression")
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


def assign_all(solutions: Path, exercises: Path, build: Path) -> list[Path]:
    masters = sorted(solutions.glob("*.ipynb"))
    if not masters:
        raise LectureKitError(f"no master notebooks (*.ipynb) in {solutions.resolve()}")
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
        "no course found: looked for a folder holding solutions/ (beside pyproject.toml, "
        f"exercises/ or notebooks/) in {', '.join(map(str, looked))}; run inside the course "
        "or give --course PATH"
    )


def check_course(course: Path) -> Path:
    """An explicit ``--course`` folder, checked: it must hold ``solutions/``."""
    if not (course / "solutions").is_dir():
        raise LectureKitError(f"--course {course}: no solutions/ folder in {course.resolve()}")
    return course.resolve()


def autograder_notebook(chapter: str, solutions: Path, build: Path) -> Path:
    """The autograder copy (with hidden tests) of a chapter, made by ``otter assign`` if needed.

    ``chapter`` is a notebook name (``04_list_scheduling``), its number (``04``) or a path.
    """
    master = find_master(chapter, solutions)
    graded = build / master.stem / "autograder" / master.name
    if not graded.exists() or graded.stat().st_mtime < master.stat().st_mtime:
        assign_one(master, build / "_exercises_scratch", build)
    return graded


def find_master(chapter: str, solutions: Path) -> Path:
    path = Path(chapter)
    if path.suffix == ".ipynb" and path.exists():
        return path
    matches = sorted(solutions.glob(f"{chapter}*.ipynb"))
    if len(matches) != 1:
        names = ", ".join(p.stem for p in sorted(solutions.glob("*.ipynb"))) or "none"
        raise LectureKitError(
            f"chapter {chapter!r} matches {len(matches)} problem sets in {solutions.resolve()}; "
            f"problem sets: {names}"
        )
    return matches[0]


# -- grading one submission: see lecturekit.grading_run (sandbox + trusted test run) --------
def _tests_of(autograder: Path) -> dict:
    import nbformat

    nb = nbformat.read(str(autograder), as_version=4)
    return nb.metadata.get("otter", {}).get("tests", {})


# -- grading a folder ------------------------------------------------------------------------
@dataclass
class Grade:
    submission: str
    scores: dict[str, float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    errors: int = 0

    @property
    def total(self) -> float:
        return sum(self.scores.values())


def grade_submission(
    submission: Path,
    autograder: Path,
    cell_timeout: float = 30,
    question_timeout: float = 30,
    submission_timeout: float | None = None,
    *,
    master: Path | None = None,
    grader=None,
) -> Grade:
    """Grade one notebook in a sandbox; never raises for anything the submission does.

    ``grader`` is a prepared :class:`lecturekit.grading_run.Grader` (``grade_folder`` makes one
    for all submissions); without it one is made from ``master``.
    """
    from .grading_run import Grader

    if grader is None:
        if master is None:
            raise LectureKitError("grade_submission needs the master notebook (master=...)")
        with Grader(master, autograder, cell_timeout, question_timeout, submission_timeout) as g:
            return grade_submission(submission, autograder, grader=g)
    data = grader.grade(submission)
    return Grade(submission.name, scores=data["scores"], notes=data["notes"], errors=data["errors"])


def grade_folder(
    chapter: str,
    submissions: list[Path],
    output: Path,
    solutions: Path = Path("solutions"),
    build: Path = Path("build/otter"),
    cell_timeout: float = 30,
    question_timeout: float = 30,
    jobs: int = 1,
) -> list[Grade]:
    """Grade every ``*.ipynb`` in ``submissions`` (files or folders) into the CSV ``output``."""
    from concurrent.futures import ThreadPoolExecutor

    master = find_master(chapter, solutions)
    autograder = autograder_notebook(str(master), solutions, build)
    files: list[Path] = []
    for item in submissions:
        if item.is_dir():
            files.extend(
                sorted(p for p in item.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
            )
        elif item.suffix == ".ipynb":
            files.append(item)
        else:
            raise LectureKitError(f"{item}: not a notebook or a folder of notebooks")
    if not files:
        raise LectureKitError(
            "no submissions (*.ipynb) found in " + ", ".join(map(str, submissions))
        )
    from .grading_run import Grader

    with (
        Grader(master, autograder, cell_timeout, question_timeout) as grader,
        ThreadPoolExecutor(max_workers=max(1, jobs)) as pool,
    ):
        grades = list(pool.map(lambda f: grade_submission(f, autograder, grader=grader), files))
    qs = questions(master)
    auto = [q for q in qs if not q.manual]
    manual = [q for q in qs if q.manual]
    possible = sum(q.points for q in auto)
    output.parent.mkdir(parents=True, exist_ok=True)
    with output.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(
            [
                "submission",
                *[q.name for q in auto],
                "total",
                "possible",
                "manual",
                "errors",
                "notes",
            ]
        )
        for g, f in zip(grades, files, strict=True):
            writer.writerow(
                [
                    str(f),
                    *[f"{g.scores.get(q.name, 0.0):g}" for q in auto],
                    f"{g.total:g}",
                    f"{possible:g}",
                    " ".join(f"{q.name}({q.points:g})" for q in manual),
                    g.errors,
                    "; ".join(g.notes),
                ]
            )
    return grades


def _main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m lecturekit.grading")
    parser.parse_args(argv)
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
