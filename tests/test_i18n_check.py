"""The Chinese problem set's ``grader.check``: every line it prints is Chinese (its own phrases,
the type names, the test's assertion message through the edition's ``messages``), and a Chinese
problem set is found under any name from ``exercises/zh/`` — never its English original.

The zh exercise here is built by ``i18n.build_one`` from a small translation written below, so
these tests do not depend on the translators' files."""

import os
import re
import shutil
from pathlib import Path

import nbformat
import pytest
from course_files import numbered

from lecturekit import i18n
from lecturekit.core.bounds import lower_bound
from lecturekit.core.list_sched import list_schedule
from lecturekit.grading import plain_graph
from lecturekit.grading.check import Grader, feedback, find_notebook
from lecturekit.target.deps import analyze

ROOT = Path(__file__).resolve().parents[1]
NAME = "04_list_scheduling"
EXERCISE = ROOT / "exercises" / f"{NAME}.ipynb"
SIX = "t0 = t1 + t2\nt1 = t0 + t1\nt3 = t2 + t4\nt0 = t1 + t2\nt5 = t3 + t4\nt6 = t2 + t7"
P = "t1 = t2 * t0\nt0 = t3 + t3\nt2 = t3 + t4\nt1 = t2 + t2\nt4 = t3 + t3"
FRAMES = ("Traceback", "doctest", 'File "', "Failed example", "Expecting", "Trying:")
#: the English phrases of check.py; none may appear in the Chinese edition's feedback
ENGLISH = ("not answered", "public test", "Hidden tests", "should be", "Not yet", "this check")
MESSAGES = {
    "a list of six whole numbers": "应为由六个整数组成的列表",
    "every height is at least the tail (2 cycles on this machine)": (
        "每个高度都至少等于 tail（本机为 2 个周期）"
    ),
}
HAN = re.compile(r"[\u4e00-\u9fff]")


def short(text):
    assert 1 <= len(text.splitlines()) <= 2, text
    assert not any(f in text for f in FRAMES), text
    return text


def chinese(text):
    """Every line of ``text`` is Chinese, and none of check.py's English phrases is left."""
    short(text)
    assert all(HAN.search(line) for line in text.splitlines()), text
    assert not any(p in text for p in ENGLISH), text
    return text


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """A course folder: exercises/04 (English) and exercises/zh/04 built from a translation."""
    root = tmp_path_factory.mktemp("course")
    (root / "exercises" / "zh").mkdir(parents=True)
    shutil.copy(EXERCISE, root / "exercises" / EXERCISE.name)
    (root / "notebooks" / "zh").mkdir(parents=True)
    translation = root / "translations" / "zh" / "exercises" / f"{NAME}.yaml"
    i18n.sync(EXERCISE, translation, f"exercises/{NAME}.ipynb")
    entries = i18n.load(translation)
    for e in entries:
        e["zh"] = "（中文）" + e["en"]
    messages = i18n.load_messages(translation)
    for m in messages:
        m["zh"] = MESSAGES.get(m["en"], "（中文）" + m["en"])
    i18n.save(translation, f"exercises/{NAME}.ipynb", entries, messages)
    target = root / "exercises" / "zh" / EXERCISE.name
    i18n.build_one(EXERCISE, translation, target)
    return root


@pytest.fixture
def zh_exercise(course):
    return course / "exercises" / "zh" / EXERCISE.name


@pytest.fixture
def env():
    return {
        "g": analyze(SIX, "lecture").graph,
        "gp": analyze(P, "lecture").graph,
        "list_schedule": list_schedule,
        "lower_bound": lower_bound,
        "plain_graph": plain_graph,
    }


@pytest.fixture
def grader(zh_exercise, monkeypatch):
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    monkeypatch.chdir(zh_exercise.parent)
    g = Grader(NAME)
    assert g.path == zh_exercise and g.edition == "zh"
    return g


def test_in_exercises_zh_the_chinese_edition_is_found_not_the_english(zh_exercise, monkeypatch):
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    monkeypatch.chdir(zh_exercise.parent)
    assert find_notebook(NAME) == zh_exercise
    # from a Chinese chapter's folder the course's exercises/zh comes before exercises/
    monkeypatch.chdir(zh_exercise.parents[2] / "notebooks" / "zh")
    assert find_notebook(NAME) == zh_exercise
    monkeypatch.chdir(zh_exercise.parents[2] / "notebooks")
    assert find_notebook(NAME) == zh_exercise.parents[1] / EXERCISE.name


def test_a_renamed_chinese_copy_keeps_its_edition(zh_exercise, tmp_path, monkeypatch):
    folder = tmp_path / "zh-copy"
    folder.mkdir()
    copy = folder / f"{NAME}-Copy1.ipynb"
    shutil.copy(zh_exercise, copy)
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    monkeypatch.chdir(folder)
    g = Grader(NAME)
    assert g.path == copy and g.edition == "zh" and g.messages == json_messages(copy)


def json_messages(path):
    return dict(nbformat.read(str(path), as_version=4).metadata["lecturekit"]["messages"])


def test_the_english_edition_stays_english(course, monkeypatch):
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    monkeypatch.chdir(course / "exercises")
    g = Grader(NAME)
    assert g.edition == "en" and not g.messages
    text = short(g.check("q1", {"q1_heights": ...}).text)
    assert text.startswith("q1 is not answered yet")


def test_unanswered_says_so_in_chinese(grader, env):
    env["q1_heights"] = ...
    text = chinese(grader.check("q1", env).text)
    assert text.startswith("q1 尚未作答") and "q1_heights" in text

    def height(graph, i): ...

    env["height"] = height
    assert "height()" in chinese(grader.check("q2", env).text)


def test_a_failing_check_shows_the_translated_message(grader, env):
    env["q1_heights"] = [1, 2, 3, 4, 5, 6]
    result = grader.check("q1", env)
    assert not result.passed and result.score == 1
    text = chinese(result.text)
    assert "2 个公开测试中通过 1 个" in text
    assert MESSAGES["every height is at least the tail (2 cycles on this machine)"] in text
    assert "every height" not in text


def test_a_wrong_type_is_named_in_chinese(grader, env):
    env["q1_heights"] = 14
    text = chinese(grader.check("q1", env).text)
    assert MESSAGES["a list of six whole numbers"] in text
    assert "q1_heights 应为列表（list），而不是整数（int）" in text


def test_a_right_answer_passes_in_chinese(grader, env):
    env["q3_start"] = [2, 5, 6, 9, 7]
    result = grader.check("q3", env)
    assert result.passed and result.score == result.possible == 3
    assert "2 个公开测试全部通过" in chinese(result.text) and "隐藏测试" in result.text


def test_a_name_error_and_an_untranslated_message(grader, env):
    """A message the table lacks stays English (the rest is Chinese); NameError is Chinese."""
    grader.messages = {}
    env["q1_heights"] = [1, 2, 3, 4, 5, 6]
    text = short(grader.check("q1", env).text)
    assert "every height is at least the tail" in text and "尚未通过" in text

    # defined in the notebook's namespace, as a student's cell defines it
    exec("def descendants(graph, i):\n    return helper_defined_in_another_cell(graph, i)", env)
    text = chinese(grader.check("q5", env).text)
    assert "名称 helper_defined_in_another_cell 尚未定义" in text and "请先运行" in text


def test_feedback_defaults_to_english_for_an_unknown_edition(grader, env):
    env["q1_heights"] = ...
    result = grader.otter.check("q1", global_env=env)
    assert feedback("q1", result, env, lang="fr").startswith("q1 is not answered yet")


def test_in_a_kernel_a_chinese_copy_prints_chinese(zh_exercise):
    """The whole path in a real kernel: a renamed copy in exercises/zh/ (JupyterLab's
    ``-Copy1``), the kernel started there without JPY_SESSION_NAME; first cell, an unanswered
    check, a wrong answer, a right one — all Chinese."""
    from nbclient import NotebookClient

    nb = nbformat.read(str(zh_exercise), as_version=4)
    copy = zh_exercise.parent / f"{NAME}-Copy1.ipynb"
    q1 = next(i for i, c in enumerate(nb.cells) if c.source.startswith("q1_heights"))
    check = nb.cells[q1 + 1]
    assert check.source.strip() == 'grader.check("q1")'
    runs = [
        nbformat.v4.new_code_cell(check.source),
        nbformat.v4.new_code_cell("q1_heights = 3\n" + check.source),
        nbformat.v4.new_code_cell("q1_heights = [8, 5, 5, 2, 2, 2]\n" + check.source),
        nbformat.v4.new_code_cell("grader.path.name, grader.edition"),
    ]
    nb.cells = nb.cells[: q1 + 1] + runs
    nbformat.write(nb, str(copy))
    env = {k: v for k, v in os.environ.items() if k != "JPY_SESSION_NAME"}
    client = NotebookClient(nb, timeout=120, kernel_name="python3")
    try:
        with client.setup_kernel(cwd=str(copy.parent), env=env):
            for index, cell in enumerate(nb.cells):
                if cell.cell_type == "code":
                    client.execute_cell(cell, index)
    finally:
        copy.unlink()
    texts = []
    for cell in runs:
        (out,) = [o for o in cell.outputs if o.output_type == "execute_result"]
        texts.append(out["data"]["text/plain"])
    assert chinese(texts[0]).startswith("q1 尚未作答")
    assert MESSAGES["a list of six whole numbers"] in chinese(texts[1])
    assert "应为列表（list）" in texts[1]
    assert "2 个公开测试全部通过" in chinese(texts[2])
    assert "'zh'" in texts[3]


@pytest.mark.parametrize(
    "exercise",
    numbered(ROOT / "exercises" / "zh"),
    ids=lambda p: p.stem,
)
def test_every_committed_chinese_problem_set_checks_in_chinese(exercise):
    """Each exercises/zh/NN notebook is the zh edition with a message table covering its public
    tests, and a first check before any answer is Chinese."""
    g = Grader(exercise.stem, notebook=exercise)
    assert g.edition == "zh"
    english = nbformat.read(str(ROOT / "exercises" / exercise.name), as_version=4)
    assert set(g.messages) == set(i18n.public_messages(english))
    first = next(iter(g.expected))
    assert chinese(g.check(first, {}).text).startswith(f"{first} 尚未作答")
