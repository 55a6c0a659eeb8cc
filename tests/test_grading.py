"""The problem sets: every solution scores 100%, every untouched exercise runs to the end and
scores 0, planted submissions score exactly what they should, and exercises/ is exactly what
``lecturekit assign`` makes from solutions/ today (cell ids included: assign is deterministic, so
a second run leaves git clean). (Submissions that raise, loop forever, delete files or attack the
grader are graded in tests/test_grading_security.py.)

Grading is slow (a kernel per submission), so each problem set is graded ONCE per session: its
solution, its untouched exercise (under another file name, as a student's copy would be) and the
planted submissions of that chapter go through one ``grade_folder`` call with ``jobs=2``, and the
tests below assert on that one run. ``otter assign`` also runs once per set: the student notebook
it makes is compared with exercises/, and the autograder notebook it leaves in the build folder
is the one the grading run uses. A set is graded only when a selected test asks for it, so
``-k 04_list_scheduling`` grades only chapter 04.

The same run grades a hostile submission (issues 14 and 25): for every code question, a function
that answers with the library (lecturekit imported in the notebook, networkx beside it); a
code question's function runs with the standard library only, so it scores 0 on each one and
the CSV says why.
"""

import csv
import json
import shutil
import sys
from pathlib import Path

import nbformat
import pytest
from course_files import numbered
from grading_support import exercise_with, library_wrapper
from system_tools import require

from lecturekit import i18n
from lecturekit.grading import assign_one, autograder_notebook, grade_folder, noeffort, questions
from lecturekit.grading.run import make_plan
from lecturekit.i18n import problems_name

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import problem_set_table  # noqa: E402  (tools/problem_set_table.py)

SOLUTIONS = sorted((ROOT / "solutions").glob("*.ipynb"))
PLANTED = ROOT / "tests" / "data" / "submissions"


@pytest.fixture(scope="session")
def build(tmp_path_factory):
    return tmp_path_factory.mktemp("otter-build")


@pytest.fixture(scope="session")
def assigned(build):
    """``assigned(master)``: the student notebook ``otter assign`` (via assign_one) makes from
    ``master`` in this session, made once; its autograder notebook is left fresh in ``build``."""
    made: dict[Path, Path] = {}

    def get(master: Path) -> Path:
        if master not in made:
            made[master] = assign_one(master, build / "exercises", build)
        return made[master]

    return get


def planted_for(master):
    """The planted submissions of ``master``'s chapter, with what each must score."""
    found = {}
    for path in sorted(PLANTED.glob("*.ipynb")):
        expected = nbformat.read(str(path), as_version=4).metadata["lecturekit_expected"]
        if master.stem.startswith(expected["chapter"]):
            found[path.name] = expected
    return found


def code_questions(master: Path, build: Path) -> list[dict]:
    """The questions of ``master`` answered by a function the student writes (from the grading
    plan), each with the site-packages it may import (``packages``)."""
    plan = make_plan(master, autograder_notebook(str(master), ROOT / "solutions", build))
    return [q for q in plan["questions"] if q["functions"]]


@pytest.fixture(scope="session")
def graded(build, assigned, tmp_path_factory):
    """``graded(master)``: one grading run of the set (solution, untouched exercise, planted
    submissions), made once: {"grades": {file name: Grade}, "rows": {file name: CSV row}}."""
    require("bwrap")  # every submission runs in a bubblewrap sandbox
    runs: dict[Path, dict] = {}

    def get(master: Path) -> dict:
        if master not in runs:
            assigned(master)  # otter assign once; grade_folder reuses the fresh autograder
            folder = tmp_path_factory.mktemp(f"graded-{master.stem}")
            submissions = folder / "submissions"
            submissions.mkdir()
            shutil.copy(master, submissions / "solution.ipynb")
            exercise = ROOT / "exercises" / problems_name(master.stem)
            if exercise.exists():  # submitted under the name JupyterLab gives a copy
                shutil.copy(exercise, submissions / f"{exercise.stem}-Copy1.ipynb")
            for name in planted_for(master):
                shutil.copy(PLANTED / name, submissions / f"planted-{name}")
            if exercise.exists():
                autograder = autograder_notebook(str(master), ROOT / "solutions", build)
                for k, nb in enumerate(noeffort.submissions(master, autograder, exercise)):
                    nbformat.write(nb, str(submissions / f"no-effort-{k}.ipynb"))
            code = code_questions(master, build)
            if code and exercise.exists():
                answers = {q["functions"][0]: library_wrapper(q["functions"][0]) for q in code}
                nbformat.write(
                    exercise_with(master, answers, []), str(submissions / "wrapper.ipynb")
                )
            out = folder / "grades.csv"
            grades = grade_folder(
                str(master), [submissions], out, solutions=ROOT / "solutions", build=build, jobs=2
            )
            with out.open(encoding="utf-8-sig") as fh:  # written with a BOM, for Excel
                rows = {Path(r["submission"]).name: r for r in csv.DictReader(fh)}
            runs[master] = {
                "grades": {g.submission: g for g in grades},
                "rows": rows,
                "rubrics": (folder / "grades-rubrics.md"),
            }
        return runs[master]

    return get


def auto_points(master):
    return {q.name: q.points for q in questions(master) if not q.manual}


@pytest.mark.parametrize("master", SOLUTIONS, ids=lambda p: p.stem)
def test_solution_scores_full_marks(master, graded):
    run = graded(master)
    g = run["grades"]["solution.ipynb"]
    points = auto_points(master)
    assert g.scores == pytest.approx(points), g.notes
    assert float(run["rows"]["solution.ipynb"]["total"]) == pytest.approx(sum(points.values()))
    assert g.errors == 0


@pytest.mark.parametrize("master", SOLUTIONS, ids=lambda p: p.stem)
def test_untouched_exercise_runs_and_scores_zero(master, graded):
    exercise = ROOT / "exercises" / problems_name(master.stem)
    assert exercise.exists(), f"run `lecturekit assign` to make {exercise}"
    g = graded(master)["grades"][f"{exercise.stem}-Copy1.ipynb"]
    assert g.errors == 0, f"the untouched exercise raised in {g.errors} cell(s): {g.notes}"
    assert all(score == 0 for score in g.scores.values()), g.scores
    assert set(g.scores) == set(auto_points(master))
    assert 4 <= len(questions(master)) <= 8


def as_json(path):
    return json.loads(Path(path).read_text(encoding="utf-8"))


@pytest.mark.parametrize("master", SOLUTIONS, ids=lambda p: p.stem)
def test_exercises_are_what_otter_assign_makes_today(master, assigned):
    """Everything, cell ids and metadata included: a stale exercise or a random id fails."""
    made = assigned(master)
    committed = ROOT / "exercises" / problems_name(master.stem)
    assert made.name == committed.name
    assert committed.exists(), f"run `lecturekit assign` to make {committed}"
    assert as_json(made) == as_json(committed), (
        f"exercises/{committed.name} is not what `lecturekit assign` makes today: run it"
    )
    for marker in ("BEGIN SOLUTION", "END SOLUTION", "BEGIN TESTS", "# HIDDEN"):
        assert marker not in committed.read_text()
    first = nbformat.read(str(committed), as_version=4).cells[0].source
    assert "Grader(" in first and "otter.Notebook(" not in first


@pytest.mark.parametrize("master", SOLUTIONS, ids=lambda p: p.stem)
def test_wrapping_the_library_scores_zero_on_every_code_question(master, build, graded):
    code = code_questions(master, build)
    if not code:
        pytest.skip("no code questions")
    # (that every solution still scores 100% on the standard library is
    # test_solution_scores_full_marks)
    wrapped = graded(master)["grades"]["wrapper.ipynb"]
    for q in code:
        name = q["functions"][0]
        assert wrapped.scores[q["name"]] == 0, (q["name"], wrapped.notes)
        said = f"{q['name']}: {name} uses lecturekit, which graded functions cannot import"
        assert any(n.startswith(said) for n in wrapped.notes), (q["name"], wrapped.notes)


def test_no_master_keeps_a_forbidden_list():
    """The ban lists of issue 14 are gone: a question names only the packages it allows."""
    for master in SOLUTIONS:
        for cell in nbformat.read(str(master), as_version=4).cells:
            if cell.cell_type == "raw" and cell.source.startswith("# BEGIN QUESTION"):
                assert "forbidden" not in cell.source, master.name
                assert "packages" not in cell.source or "numpy" in cell.source, master.name


def test_no_exercise_without_its_solution():
    stray = {p.name for p in numbered(ROOT / "exercises")} - {
        problems_name(p.stem) for p in SOLUTIONS
    }
    assert not stray


@pytest.mark.parametrize("planted", sorted(PLANTED.glob("*.ipynb")), ids=lambda p: p.stem)
def test_planted_submission_scores_exactly_as_expected(planted, graded):
    """A planted submission's ``metadata.lecturekit_expected`` gives its chapter and scores."""
    expected = nbformat.read(str(planted), as_version=4).metadata["lecturekit_expected"]
    master = next(p for p in SOLUTIONS if p.stem.startswith(expected["chapter"]))
    g = graded(master)["grades"][f"planted-{planted.name}"]
    assert g.scores == pytest.approx(expected["scores"]), g.notes
    for note in expected.get("notes", []):
        assert any(note in n for n in g.notes), g.notes


@pytest.mark.parametrize("master", SOLUTIONS, ids=lambda p: p.stem)
def test_no_effort_submissions_score_zero(master, graded):
    """Issue 26, item 3: submissions built from the exercise with no effort (constants of each
    answer's type and shape, the public tests' values, functions returning the model's result on
    the public example or a table of the public examples: :mod:`lecturekit.grading.noeffort`)
    score 0 on every question. They are graded in the set's one run."""
    run = graded(master)
    made = {n: g for n, g in run["grades"].items() if n.startswith("no-effort-")}
    assert len(made) == noeffort.COUNT, sorted(run["grades"])
    earned = {n: {q: s for q, s in g.scores.items() if s} for n, g in sorted(made.items())}
    assert not any(earned.values()), f"points for no effort: {earned}"


@pytest.mark.parametrize("master", SOLUTIONS, ids=lambda p: p.stem)
def test_the_table_of_problem_sets_shows_the_measured_no_effort_score(master, graded):
    """CONTRIBUTING's table (tools/problem_set_table.py) says what this run measures."""
    run = graded(master)
    best = max(g.total for n, g in run["grades"].items() if n.startswith("no-effort-"))
    possible = sum(auto_points(master).values())
    shown = problem_set_table.no_effort_scores(problem_set_table.FILE.read_text("utf-8"))
    assert shown.get(master.stem[:2]) == problem_set_table.score_text(best, possible), (
        f"run `python tools/problem_set_table.py --measure {master.stem[:2]}`"
    )


@pytest.mark.parametrize("master", SOLUTIONS, ids=lambda p: p.stem)
def test_manual_questions_have_a_rubric_the_instructor_sees_and_the_student_does_not(
    master, graded
):
    """Issue 26, item 5: each manual question's ``rubric:`` is in the grading output (the
    rubric sheet beside the CSV) and in neither edition of the exercise."""
    manual = [q for q in questions(master) if q.manual]
    if not manual:
        pytest.skip("no manual questions")
    missing = [q.name for q in manual if not q.rubric]
    assert not missing, f"manual questions without `rubric:` in their config: {missing}"
    sheet = graded(master)["rubrics"].read_text(encoding="utf-8-sig")
    exercise = ROOT / "exercises" / problems_name(master.stem)
    exercises = [exercise, i18n.edition_path(ROOT, exercise)]
    student = "\n".join(p.read_text(encoding="utf-8") for p in exercises if p.exists())
    for q in manual:
        assert f"## {q.name} ({q.points:g} points)" in sheet
        for c in q.rubric:
            assert c.criterion.replace("|", "\\|") in sheet
            assert c.criterion not in student and json.dumps(c.criterion)[1:-1] not in student
