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
import subprocess
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
def assign_one(master: Path, exercises: Path, build: Path) -> Path:
    """``otter assign`` one master notebook; copy the student notebook to ``exercises``."""
    out = build / master.stem
    if out.exists():
        shutil.rmtree(out)
    result = subprocess.run(
        [sys.executable, "-m", "otter", "assign", str(master), str(out)],
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        raise LectureKitError(f"otter assign failed on {master}:\n{result.stdout}{result.stderr}")
    student = out / "student" / master.name
    exercises.mkdir(parents=True, exist_ok=True)
    target = exercises / master.name
    shutil.copyfile(student, target)
    return target


def assign_all(solutions: Path, exercises: Path, build: Path) -> list[Path]:
    masters = sorted(solutions.glob("*.ipynb"))
    if not masters:
        raise LectureKitError(f"no master notebooks in {solutions}")
    return [assign_one(m, exercises, build) for m in masters]


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
            f"chapter {chapter!r} matches {len(matches)} problem sets in {solutions}; "
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
