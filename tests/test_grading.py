"""The problem sets: every solution scores 100%, every untouched exercise runs to the end and
scores 0, planted submissions score exactly what they should, misbehaving submissions break only
themselves, and exercises/ is exactly what ``otter assign`` makes from solutions/ today."""

import csv
import json
import shutil
from pathlib import Path

import nbformat
import pytest

from lecturekit.grading import assign_one, autograder_notebook, grade_folder, questions

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS = sorted((ROOT / "solutions").glob("*.ipynb"))
PLANTED = ROOT / "tests" / "data" / "submissions"


@pytest.fixture(scope="session")
def build(tmp_path_factory):
    return tmp_path_factory.mktemp("otter-build")


def auto_points(master):
    return {q.name: q.points for q in questions(master) if not q.manual}


def grade(master, paths, build, tmp_path, **kw):
    out = tmp_path / "grades.csv"
    grades = grade_folder(str(master), paths, out, solutions=ROOT / "solutions", build=build, **kw)
    return grades, list(csv.DictReader(out.open()))


@pytest.mark.parametrize("master", SOLUTIONS, ids=lambda p: p.stem)
def test_solution_scores_full_marks(master, build, tmp_path):
    (g,), rows = grade(master, [master], build, tmp_path)
    points = auto_points(master)
    assert g.scores == pytest.approx(points), g.notes
    assert float(rows[0]["total"]) == pytest.approx(sum(points.values()))
    assert g.errors == 0


@pytest.mark.parametrize("master", SOLUTIONS, ids=lambda p: p.stem)
def test_untouched_exercise_runs_and_scores_zero(master, build, tmp_path):
    exercise = ROOT / "exercises" / master.name
    assert exercise.exists(), f"run `lecturekit assign` to make {exercise}"
    (g,), _ = grade(master, [exercise], build, tmp_path)
    assert g.errors == 0, f"the untouched exercise raised in {g.errors} cell(s): {g.notes}"
    assert all(score == 0 for score in g.scores.values()), g.scores
    assert 4 <= len(questions(master)) <= 8


def normalised(path):
    nb = nbformat.read(str(path), as_version=4)
    return json.dumps(
        {
            "cells": [(c.cell_type, c.source) for c in nb.cells],
            "otter": nb.metadata.get("otter"),
        },
        sort_keys=True,
    )


@pytest.mark.parametrize("master", SOLUTIONS, ids=lambda p: p.stem)
def test_exercises_are_what_otter_assign_makes_today(master, tmp_path):
    made = assign_one(master, tmp_path / "exercises", tmp_path / "build")
    committed = ROOT / "exercises" / master.name
    assert normalised(made) == normalised(committed), (
        f"exercises/{master.name} is stale: run `lecturekit assign`"
    )
    for marker in ("BEGIN SOLUTION", "END SOLUTION", "BEGIN TESTS", "# HIDDEN"):
        assert marker not in committed.read_text()


def test_no_exercise_without_its_solution():
    stray = {p.name for p in (ROOT / "exercises").glob("*.ipynb")} - {p.name for p in SOLUTIONS}
    assert not stray


@pytest.mark.parametrize("planted", sorted(PLANTED.glob("*.ipynb")), ids=lambda p: p.stem)
def test_planted_submission_scores_exactly_as_expected(planted, build, tmp_path):
    """A planted submission's ``metadata.lecturekit_expected`` gives its chapter and scores."""
    expected = nbformat.read(str(planted), as_version=4).metadata["lecturekit_expected"]
    master = next(p for p in SOLUTIONS if p.stem.startswith(expected["chapter"]))
    (g,), _ = grade(master, [planted], build, tmp_path, cell_timeout=10, question_timeout=10)
    assert g.scores == pytest.approx(expected["scores"]), g.notes
    for note in expected.get("notes", []):
        assert any(note in n for n in g.notes), g.notes


def test_misbehaving_submissions_break_only_themselves(build, tmp_path):
    """A submission that raises, one that loops forever and one that deletes every file it can
    reach from its directory are graded in one run with a good one; the good one keeps full
    marks, the instructor's folder is untouched."""
    if not SOLUTIONS:
        pytest.skip("no problem sets yet")
    master = SOLUTIONS[0]
    exercise = ROOT / "exercises" / master.name
    folder = tmp_path / "submissions"
    folder.mkdir()
    shutil.copy(master, folder / "a_good.ipynb")
    bad_code = {
        "b_raises.ipynb": "raise RuntimeError('boom')",
        "c_loops.ipynb": "while True:\n    pass",
        "d_deletes.ipynb": (
            "import os, shutil\n"
            "for name in os.listdir('..'):\n"
            "    shutil.rmtree(os.path.join('..', name), ignore_errors=True)\n"
            "for name in os.listdir('.'):\n"
            "    os.remove(name)"
        ),
    }
    for name, code in bad_code.items():
        nb = nbformat.read(str(exercise), as_version=4)
        nb.cells.insert(1, nbformat.v4.new_code_cell(code))
        nbformat.write(nb, str(folder / name))
    keep = tmp_path / "instructor_file.txt"
    keep.write_text("do not delete")
    grades, rows = grade(master, [folder], build, tmp_path, cell_timeout=5, question_timeout=10)
    by_name = {g.submission: g for g in grades}
    assert by_name["a_good.ipynb"].scores == pytest.approx(auto_points(master))
    assert by_name["c_loops.ipynb"].notes and "timed out" in by_name["c_loops.ipynb"].notes[0]
    for name in bad_code:
        assert by_name[name].total == 0 or by_name[name].total <= by_name["a_good.ipynb"].total
    assert keep.read_text() == "do not delete" and len(rows) == 4
    assert autograder_notebook(str(master), ROOT / "solutions", build).exists()
