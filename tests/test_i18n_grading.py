"""The Chinese problem set is graded by the same autograder and the same tests as the English one:
a zh submission whose answers are the solution's scores full marks, and the untouched zh
exercise (under a student's copy name) runs to the end and scores 0. One ``grade_folder`` run,
told the problem set by the Chinese file name the students submitted.

The zh exercise is exercises/zh/04_列表调度_习题.ipynb when it is committed; otherwise one is
built here by ``i18n.build_one`` from a fixture translation (every prompt marked as Chinese)."""

import csv
import re
from pathlib import Path

import nbformat
import pytest
from course_files import numbered
from system_tools import require

from lecturekit import i18n
from lecturekit.grading import grade_folder, questions

ROOT = Path(__file__).resolve().parents[1]
NAME = "04_list_scheduling"
MASTER = ROOT / "solutions" / f"{NAME}.ipynb"
EXERCISE = ROOT / "exercises" / i18n.problems_name(NAME)
#: a submission as a learning platform renames it (the student's name appended)
ANSWERED = "04_列表调度_习题_张三.ipynb"


def zh_exercise(tmp: Path) -> Path:
    committed = i18n.edition_path(ROOT, EXERCISE)
    if committed.exists():
        return committed
    translation = tmp / "translation.yaml"
    i18n.sync(EXERCISE, translation, f"exercises/{NAME}.ipynb")
    entries = i18n.load(translation)
    for e in entries:
        e["zh"] = "（中文）" + e["en"]
    messages = i18n.load_messages(translation)
    for m in messages:
        m["zh"] = "（中文）" + m["en"]
    i18n.save(translation, f"exercises/{NAME}.ipynb", entries, messages)
    return i18n.build_one(EXERCISE, translation, tmp / "zh" / i18n.problems_name(NAME, "zh"))


def answered_from_solution(exercise: Path) -> nbformat.NotebookNode:
    """``exercise`` with every answer cell (a code cell holding ``...``) replaced by the
    solution's cell of the same id, its solution markers dropped; the prose stays Chinese."""
    nb = nbformat.read(str(exercise), as_version=4)
    solution = {c.id: c for c in nbformat.read(str(MASTER), as_version=4).cells}
    replaced = 0
    for cell in nb.cells:
        if cell.cell_type == "code" and re.search(r"^\s*[\w(),\s=]*\.\.\.\s*$", cell.source, re.M):
            source = solution[cell.id].source
            source = re.sub(r"^\s*# (BEGIN|END) SOLUTION\s*\n", "", source, flags=re.M)
            cell.source = re.sub(r"\s*# SOLUTION\s*$", "", source, flags=re.M)
            replaced += 1
    assert replaced >= 3, "the answer cells were not found"
    return nb


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    require("bwrap")  # every submission runs in a bubblewrap sandbox
    tmp = tmp_path_factory.mktemp("zh-grading")
    exercise = zh_exercise(tmp)
    meta = nbformat.read(str(exercise), as_version=4).metadata["lecturekit"]
    assert meta["edition"] == "zh"
    submissions = tmp / "submissions"
    submissions.mkdir()
    assert exercise.name == i18n.problems_name(NAME, "zh") == "04_列表调度_习题.ipynb"
    nbformat.write(answered_from_solution(exercise), str(submissions / ANSWERED))
    (submissions / f"{exercise.stem}-Copy1.ipynb").write_bytes(exercise.read_bytes())
    out = tmp / "grades.csv"
    grades = grade_folder(
        exercise.stem, [submissions], out, solutions=ROOT / "solutions", build=tmp / "build", jobs=2
    )
    raw = out.read_bytes()
    rows = {Path(r["submission"]).name: r for r in csv.DictReader(out.open(encoding="utf-8-sig"))}
    return {g.submission: g for g in grades}, rows, raw


def auto_points():
    return {q.name: q.points for q in questions(MASTER) if not q.manual}


def test_a_chinese_submission_with_the_solutions_answers_scores_full_marks(graded):
    grades, rows, _ = graded
    g = grades[ANSWERED]
    assert g.scores == pytest.approx(auto_points()), g.notes
    assert g.errors == 0, g.notes
    assert float(rows[ANSWERED]["total"]) == pytest.approx(sum(auto_points().values()))


def test_the_csv_opens_in_excel_on_a_chinese_windows(graded):
    """UTF-8 with a byte-order mark (Excel reads a CSV without one in the ANSI code page, GBK
    there): a Chinese file name comes back whole when read as utf-8-sig."""
    _, rows, raw = graded
    assert raw.startswith(b"\xef\xbb\xbf") and not raw[3:].startswith(b"\xef\xbb\xbf")
    assert ANSWERED in rows
    assert raw[3:].decode("utf-8").splitlines()[0].startswith("submission,")


def test_the_untouched_chinese_exercise_scores_zero_without_errors(graded):
    grades, _, _ = graded
    g = grades["04_列表调度_习题-Copy1.ipynb"]
    assert g.errors == 0, g.notes
    assert set(g.scores) == set(auto_points())
    assert all(score == 0 for score in g.scores.values()), g.scores


def test_both_editions_have_the_same_code_cells():
    """What makes one autograder grade both: same code, same cell ids, same tests."""
    zh_dir = ROOT / "exercises" / "zh"
    for zh in numbered(zh_dir):
        english = i18n.english_source(ROOT, zh)
        assert english is not None, f"{zh.name}: no English problem set has this edition"
        en = nbformat.read(str(english), as_version=4)
        ours = nbformat.read(str(zh), as_version=4)
        assert [c.id for c in ours.cells] == [c.id for c in en.cells], zh.name
        code = [(c.id, c.source) for c in ours.cells if c.cell_type == "code"]
        assert code == [(c.id, c.source) for c in en.cells if c.cell_type == "code"], zh.name
        assert ours.metadata["otter"] == en.metadata["otter"], zh.name
