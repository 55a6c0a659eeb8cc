"""Problem sets with otter-grader: make the student notebooks, and grade a folder of submissions.

The instructor edits only ``solutions/NN_topic.ipynb`` (otter-grader's master-notebook format:
questions, solutions and public and hidden tests in one notebook). Then

* ``lecturekit assign`` runs ``otter assign`` on every solution notebook and copies the student
  version into ``exercises/`` (the autograder material goes to the ignored ``build/otter/``);
* ``lecturekit grade CHAPTER SUBMISSIONS...`` grades every submitted notebook against the public
  *and hidden* tests and writes one CSV row per student, one column per question.

Grading needs no server, database or Docker. Each submission runs in its own process, in its own
temporary directory holding only a copy of the notebook: a cell that raises is recorded and the
run goes on; a cell or a question that runs too long is interrupted (it scores 0, the others
still count); a kernel that dies or hangs for good is stopped, and what was already graded is
kept. A submission that writes or deletes files only touches its own temporary copy; the
autograder's tests are copied in afresh before each question, so deleting them breaks only the
question being checked. (This is isolation by process and directory, not a security sandbox:
grade untrusted code on a machine or account you can afford to lose.)
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
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


# -- grading one submission (runs in a child process) ----------------------------------------
def _check_code(autograder: str, name: str) -> str:
    return (
        "import json as _lk_json, otter as _lk_otter\n"
        f"_lk_result = _lk_otter.Notebook(nb_path={autograder!r}).check({name!r})\n"
        f"print({RESULT_MARK!r} + _lk_json.dumps("
        "{'score': float(_lk_result.score), 'possible': float(_lk_result.possible)}))"
    )


def run_one(
    submission: Path,
    autograder: Path,
    out: Path,
    cell_timeout: float,
    question_timeout: float,
) -> None:
    """Execute ``submission`` and check every autograded question; write JSON to ``out``.

    Results are written after each question, so a parent that has to kill this process still
    finds what was graded.
    """
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

    workdir = Path(tempfile.mkdtemp(prefix="lk-grade-")) / "work"
    workdir.mkdir()
    scratch_tests = workdir.parent / "tests"
    scratch_tests.mkdir()
    result: dict = {"scores": {}, "notes": [], "errors": 0}

    def save() -> None:
        out.write_text(json.dumps(result))

    try:
        nb = nbformat.read(str(submission), as_version=4)
    except Exception as exc:  # an unreadable submission scores 0 everywhere
        result["notes"].append(f"unreadable notebook: {exc}")
        save()
        return
    # the student's own name, and the assignment's name that its `otter.Notebook(...)` cell opens
    for name in {submission.name, autograder.name}:
        shutil.copyfile(submission, workdir / name)
    nb.cells = [c for c in nb.cells if c.cell_type == "code" or c.cell_type == "markdown"]
    client = NotebookClient(
        nb,
        timeout=cell_timeout,
        allow_errors=True,
        interrupt_on_timeout=True,
        kernel_name="python3",
        resources={"metadata": {"path": str(workdir)}},
    )
    save()
    with client.setup_kernel(cwd=str(workdir), env=_child_env(workdir)):
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            try:
                client.execute_cell(cell, index)
            except CellTimeoutError:
                result["notes"].append(f"cell {index + 1} timed out after {cell_timeout:g}s")
            except DeadKernelError:
                result["notes"].append(f"the kernel died in cell {index + 1}")
                save()
                return
            except CellExecutionError:
                pass
            errors = [o for o in cell.get("outputs", []) if o.get("output_type") == "error"]
            if any(o.get("ename") == "KeyboardInterrupt" for o in errors):
                result["notes"].append(f"cell {index + 1} timed out after {cell_timeout:g}s")
            result["errors"] += bool(errors)
        graded = json.loads(json.dumps(_tests_of(autograder)))
        for name in graded:
            scratch_tests.mkdir(parents=True, exist_ok=True)  # a submission may have deleted it
            fresh = scratch_tests / autograder.name
            shutil.copyfile(autograder, fresh)
            check = nbformat.v4.new_code_cell(_check_code(str(fresh), name))
            nb.cells.append(check)
            client.timeout = question_timeout
            began = time.monotonic()
            try:
                client.execute_cell(check, len(nb.cells) - 1)
            except CellTimeoutError:
                result["notes"].append(f"{name} timed out after {question_timeout:g}s")
            except DeadKernelError:
                result["notes"].append(f"the kernel died while checking {name}")
                save()
                return
            except CellExecutionError:
                pass
            interrupted = any(
                o.get("ename") == "KeyboardInterrupt" for o in check.get("outputs", [])
            )
            if interrupted or time.monotonic() - began >= question_timeout:
                result["notes"].append(f"{name} timed out after {question_timeout:g}s")
            result["scores"][name] = _score_from(check)
            save()
    shutil.rmtree(workdir.parent, ignore_errors=True)


def _tests_of(autograder: Path) -> dict:
    import nbformat

    nb = nbformat.read(str(autograder), as_version=4)
    return nb.metadata.get("otter", {}).get("tests", {})


def _score_from(cell) -> float:
    for output in cell.get("outputs", []):
        text = output.get("text", "")
        for line in text.splitlines():
            if line.startswith(RESULT_MARK):
                return json.loads(line[len(RESULT_MARK) :])["score"]
    return 0.0


def _child_env(workdir: Path) -> dict:
    env = dict(os.environ)
    home = workdir.parent / "home"
    home.mkdir(exist_ok=True)
    env.update({"HOME": str(home), "MPLBACKEND": "Agg", "PYTHONDONTWRITEBYTECODE": "1"})
    return env


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
) -> Grade:
    """Grade one notebook in a child process; never raises for anything the submission does."""
    tests = _tests_of(autograder)
    limit = submission_timeout or (cell_timeout * 40 + question_timeout * (len(tests) + 2) + 60)
    with tempfile.TemporaryDirectory(prefix="lk-result-") as tmp:
        out = Path(tmp) / "result.json"
        cmd = [
            sys.executable,
            "-m",
            "lecturekit.grading",
            "_run-one",
            str(submission.resolve()),
            str(autograder.resolve()),
            str(out),
            str(cell_timeout),
            str(question_timeout),
        ]
        notes = []
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=limit, cwd=tmp)
            if proc.returncode != 0:
                notes.append(f"grader process failed: {proc.stderr.strip().splitlines()[-1:]}")
        except subprocess.TimeoutExpired:
            notes.append(f"stopped after {limit:g}s")
        data = json.loads(out.read_text()) if out.exists() else {"scores": {}, "notes": []}
    grade = Grade(
        submission.name, notes=data.get("notes", []) + notes, errors=data.get("errors", 0)
    )
    for name in tests:
        grade.scores[name] = float(data["scores"].get(name, 0.0))
    return grade


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
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        grades = list(
            pool.map(
                lambda f: grade_submission(f, autograder, cell_timeout, question_timeout), files
            )
        )
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
    if argv and argv[0] == "_run-one":
        _, sub, auto, out, cell_t, q_t = argv
        run_one(Path(sub), Path(auto), Path(out), float(cell_t), float(q_t))
        return 0
    parser = argparse.ArgumentParser(prog="python -m lecturekit.grading")
    parser.parse_args(argv)
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
