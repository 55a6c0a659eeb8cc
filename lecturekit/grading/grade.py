"""Grading a folder of submissions: each one in its own sandboxed run (:mod:`.run`), one CSV row
per student, one column per question; manual questions are listed for the instructor.

Everything from a submission that reaches the CSV or a terminal (its file name, the notes: an
exception's message, a value's description) goes through :func:`printable` first: control
characters (C0, C1, DEL: ANSI/OSC escapes that erase lines, fake output or write the clipboard)
become ``\\xNN`` escapes, and the length is capped."""

from __future__ import annotations

import csv
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import LectureKitError
from ..i18n import topic_of
from ..language import _
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
    """The master notebook in ``solutions`` of ``chapter``: a master's path, a name or number
    its file name starts with, or the name of its chapter, its problem set or an edition of
    either (``04_list_scheduling_problems``, ``exercises/zh/04_列表调度_习题.ipynb``: the
    master of the problem set a student submitted)."""
    path = Path(chapter)
    topic = topic_of(path.name)
    if path.suffix == ".ipynb" and path.exists() and path.stem == (topic or path.stem):
        return path
    if topic is not None:
        chapter = topic
    matches = sorted(solutions.glob(f"{chapter}*.ipynb"))
    if len(matches) != 1:
        names = ", ".join(p.stem for p in sorted(solutions.glob("*.ipynb"))) or "none"
        raise LectureKitError(
            _(
                "chapter {chapter!r} matches {n_matches} problem sets in {folder}; "
                "problem sets: {names}"
            ).format(
                chapter=chapter, n_matches=len(matches), folder=solutions.resolve(), names=names
            )
        )
    return matches[0]


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]")
NOTE_CHARACTERS = 300


def printable(text: object, limit: int = NOTE_CHARACTERS) -> str:
    """``text`` safe for a terminal or a CSV cell: control characters (C0, C1, DEL, and the
    Unicode line separators and direction overrides) as ``\\xNN``/``\\uNNNN`` escapes, and at
    most ``limit`` characters (then ``...``)."""
    text = str(text)
    if len(text) > 4 * limit:
        text = text[: 4 * limit]
    escaped = _CONTROL.sub(
        lambda m: (
            f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}"
        ),
        text,
    )
    return escaped if len(escaped) <= limit else escaped[: limit - 3] + "..."


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
            raise LectureKitError(_("grade_submission needs the master notebook (master=...)"))
        with Grader(master, autograder, cell_timeout, question_timeout, submission_timeout) as g:
            return grade_submission(submission, autograder, grader=g)
    data = grader.grade(submission)
    return Grade(
        printable(submission.name),
        scores=data["scores"],
        notes=[printable(n) for n in data["notes"]],
        errors=data["errors"],
    )


def grade_folder(
    chapter: str,
    submissions: list[Path],
    output: Path,
    solutions: Path = Path("solutions"),
    build: Path = Path("build/otter"),
    cell_timeout: float = 30,
    question_timeout: float = 30,
    jobs: int = 1,
    *,
    unsafe: bool = False,
    grader=None,
) -> list[Grade]:
    """Grade every ``*.ipynb`` in ``submissions`` (files or folders) into the CSV ``output``.

    Folders are walked without following symbolic links; every entry named ``*.ipynb`` gets a
    row, and one that is not a regular file (a symlink, a FIFO, a device) a row with a note (see
    :func:`lecturekit.grading.run.read_submission`). ``unsafe``: grade even where a limit cannot
    be enforced (:class:`lecturekit.grading.run.Grader`); ``grader``: a prepared one to reuse.
    """
    from concurrent.futures import ThreadPoolExecutor

    master = find_master(chapter, solutions)
    autograder = autograder_notebook(str(master), solutions, build)
    files = submission_files(submissions)
    if not files:
        raise LectureKitError(
            _("no submissions (*.ipynb) found in {folders}").format(
                folders=", ".join(map(str, submissions))
            )
        )
    from contextlib import nullcontext

    from .run import Grader

    made = (
        nullcontext(grader)
        if grader is not None
        else Grader(master, autograder, cell_timeout, question_timeout, unsafe=unsafe)
    )
    with made as g, ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        grades = list(pool.map(lambda f: grade_submission(f, autograder, grader=g), files))
    qs = questions(master)
    auto = [q for q in qs if not q.manual]
    manual = [q for q in qs if q.manual]
    possible = sum(q.points for q in auto)
    output.parent.mkdir(parents=True, exist_ok=True)
    # UTF-8 with a byte-order mark: Excel on a Chinese Windows reads a CSV without one as GBK
    with output.open("w", newline="", encoding="utf-8-sig") as fh:
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
                    printable(f, 1000),
                    *[f"{g.scores.get(q.name, 0.0):g}" for q in auto],
                    f"{g.total:g}",
                    f"{possible:g}",
                    " ".join(f"{q.name}({q.points:g})" for q in manual),
                    g.errors,
                    printable("; ".join(g.notes), 2000),
                ]
            )
    if manual:
        write_rubrics(rubrics_path(output), master, manual)
    return grades


def rubrics_path(output: Path) -> Path:
    """Where the rubric sheet of the manual questions goes: beside the CSV, named after it
    (``grades.csv`` -> ``grades-rubrics.md``)."""
    return output.with_name(f"{output.stem}-rubrics.md")


def _cell(text: str) -> str:
    """``text`` as one cell of a Markdown table."""
    return " ".join(text.split()).replace("|", "\\|")


def write_rubrics(path: Path, master: Path, manual: list) -> Path:
    """The instructor's sheet for the questions graded by hand: per question its points, the
    prompt, the rubric from the master (``rubric:`` in the question's config; the student's
    notebook never holds it) and the model answer. Markdown, UTF-8 with a byte-order mark."""
    lines = ["# " + _("{set}: questions graded by hand").format(set=master.stem), ""]
    for q in manual:
        heading = _("{q} ({points} points)").format(q=q.name, points=f"{q.points:g}")
        lines += [f"## {heading}", "", q.prompt, ""]
        if q.rubric:
            points, criterion = _("points"), _("criterion")
            lines += [f"| {points} | {criterion} |", "| --- | --- |"]
            lines += [f"| {c.points:g} | {_cell(c.criterion)} |" for c in q.rubric]
        else:
            missing = _("No rubric in the master: add `rubric:` to this question's config.")
            lines += [f"_{missing}_"]
        if q.answer:
            lines += ["", _("Model answer:"), "", q.answer]
        lines.append("")
    path.write_text("\n".join(lines), encoding="utf-8-sig")
    return path


def submission_files(submissions: list[Path]) -> list[Path]:
    """The ``*.ipynb`` entries of ``submissions`` (files, or folders walked without following
    symbolic links, ``.ipynb_checkpoints`` left out), of any file type: grading says which ones
    are not regular files."""
    files: list[Path] = []
    for item in submissions:
        if item.is_dir() and not item.is_symlink():
            found = []
            for root, dirs, names in os.walk(item, followlinks=False):
                dirs[:] = sorted(d for d in dirs if d != ".ipynb_checkpoints")
                entries = names + [d for d in dirs if d.endswith(".ipynb")]
                found.extend(Path(root) / n for n in entries if n.endswith(".ipynb"))
                dirs[:] = [d for d in dirs if not d.endswith(".ipynb")]
            files.extend(sorted(found))
        elif item.suffix == ".ipynb":
            files.append(item)
        else:
            raise LectureKitError(
                _("{path}: not a notebook or a folder of notebooks").format(path=printable(item))
            )
    return files
