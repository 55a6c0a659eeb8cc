"""Making the student notebooks: ``otter assign`` on each master in ``solutions/``, then
lecturekit's finishing touches (the first cell opens :class:`lecturekit.grading.check.Grader`,
stable cell ids, each answer's expected type in the metadata); and finding the course folder.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from ..errors import LectureKitError


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
    "from lecturekit.grading.check import Grader\n"
    "\n"
    "grader = Grader({name})"
)


def assign_one(master: Path, exercises: Path, build: Path) -> Path:
    """``otter assign`` one master notebook; write the student notebook to ``exercises``.

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
        raise LectureKitError(f"{master}: otter assign made no init cell (set init_cell: true)")
    stable_cell_ids(student, [c.get("id") for c in source.cells])
    student.metadata["lecturekit"] = {"answers": answer_types(source)}
    packages = allowed_packages(source)
    if packages:
        student.metadata["lecturekit"]["packages"] = packages
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
