"""Grading a folder of submissions: each one in its own sandboxed run (:mod:`.run`), one CSV row
per student, one column per question; manual questions are listed for the instructor."""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import LectureKitError
from .assign import assign_one, questions


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


# -- grading one submission: see lecturekit.grading.run (sandbox + trusted test run) --------
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

    ``grader`` is a prepared :class:`lecturekit.grading.run.Grader` (``grade_folder`` makes one
    for all submissions); without it one is made from ``master``.
    """
    from .run import Grader

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
    from .run import Grader

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
