"""The Chinese problem set's ``grader.check``: every line it prints is Chinese (its own phrases
and the type names through the message catalog, the test's assertion message through the
edition's ``messages``, what the graded function's interpreter says through
``lecturekit.grading.messages``), and a Chinese problem set is found under any name from
``exercises/zh/`` — never its English original. ``lecturekit assign`` rebuilds the Chinese
edition, and ``translate status`` reports one whose English changed.

The zh exercise here is the demo problem set's (tests/data/problem_set/99_demo.ipynb), built by
``i18n.build_one`` from a small translation written below, so these tests depend neither on the
translators' files nor on a course problem set others rewrite."""

import json
import os
import re
import shutil
from fractions import Fraction
from pathlib import Path

import nbformat
import pytest
from course_files import numbered
from grading_support import demo_course

from lecturekit import i18n
from lecturekit.core.bounds import lower_bound
from lecturekit.core.list_sched import list_schedule
from lecturekit.grading import inputs_after_call, plain_graph
from lecturekit.grading.check import Grader, find_notebook
from lecturekit.grading.messages import shown
from lecturekit.language import using
from lecturekit.target.deps import analyze

ROOT = Path(__file__).resolve().parents[1]
NAME = "99_demo"
SIX = "t0 = t1 + t2\nt1 = t0 + t1\nt3 = t2 + t4\nt0 = t1 + t2\nt5 = t3 + t4\nt6 = t2 + t7"
P = "t1 = t2 * t0\nt0 = t3 + t3\nt2 = t3 + t4\nt1 = t2 + t2\nt4 = t3 + t3"
FRAMES = ("Traceback", "doctest", 'File "', "Failed example", "Expecting", "Trying:")
#: English phrases of the grader; none may appear in the Chinese edition's feedback
ENGLISH = (
    "not answered",
    "public test",
    "Hidden tests",
    "should be",
    "Not yet",
    "this check",
    "graded by hand",
    "form of your",
    "uses",
    "graded function",
)
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
    """Every line of ``text`` is Chinese, and none of the grader's English phrases is left."""
    short(text)
    assert all(HAN.search(line) for line in text.splitlines()), text
    assert not any(p in text for p in ENGLISH), text
    return text


def translate(course: Path, exercise: Path) -> Path:
    """A translation of the exercise (every prompt marked as Chinese), its message table."""
    translation = i18n.translation_path(course, exercise)
    assert translation == course / "translations" / "zh" / "exercises" / f"{NAME}.yaml"
    i18n.sync(exercise, translation, f"exercises/{exercise.name}")
    entries = i18n.load(translation)
    for e in entries:
        e["zh"] = "（中文）" + e["en"]
    messages = i18n.load_messages(translation)
    for m in messages:
        m["zh"] = MESSAGES.get(m["en"], "（中文）" + m["en"])
    i18n.save(translation, f"exercises/{exercise.name}", entries, messages)
    return translation


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """A course folder: the demo set's exercise (English) and exercises/zh built from a
    translation."""
    root = tmp_path_factory.mktemp("course")
    demo = demo_course(root)
    (root / "notebooks" / "zh").mkdir(parents=True)
    translation = translate(root, demo["exercise"])
    i18n.build_one(demo["exercise"], translation, i18n.edition_path(root, demo["exercise"]))
    return root


@pytest.fixture
def zh_exercise(course):
    # a chapter i18n.TITLES does not know keeps its English name, with the problem sets' 习题
    return course / "exercises" / "zh" / f"{NAME}_习题.ipynb"


@pytest.fixture
def env():
    return {
        "g": analyze(SIX, "lecture").graph,
        "gp": analyze(P, "lecture").graph,
        "list_schedule": list_schedule,
        "lower_bound": lower_bound,
        "plain_graph": plain_graph,
        "inputs_after_call": inputs_after_call,
        "Fraction": Fraction,
    }


@pytest.fixture
def grader(zh_exercise, monkeypatch, check_calls):
    """The Chinese demo set's grader; its code questions' calls both ways (POSIX's, Windows')."""
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
    assert find_notebook(NAME) == zh_exercise.parents[1] / f"{NAME}_problems.ipynb"


def test_a_problem_set_saved_under_its_old_name_is_still_found(zh_exercise, tmp_path, monkeypatch):
    """Before the problem sets were named apart from the chapters, exercises/NN_topic.ipynb was
    the problem set: a student's copy under that name still finds its tests, and beside the
    course's own one it does not take its place."""
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    course = tmp_path / "course"
    shutil.copytree(zh_exercise.parents[2], course)
    english = course / "exercises" / f"{NAME}_problems.ipynb"
    old = course / "exercises" / f"{NAME}.ipynb"
    shutil.copy(english, old)
    monkeypatch.chdir(course / "notebooks")
    assert find_notebook(NAME) == english
    english.unlink()
    assert find_notebook(NAME) == old
    monkeypatch.chdir(course / "exercises")
    assert Grader(NAME).path == old


def test_a_renamed_chinese_copy_keeps_its_edition(zh_exercise, tmp_path, monkeypatch):
    folder = tmp_path / "zh-copy"
    folder.mkdir()
    copy = folder / f"{NAME}-Copy1.ipynb"
    shutil.copy(zh_exercise, copy)
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    monkeypatch.chdir(folder)
    g = Grader(NAME)
    meta = nbformat.read(str(copy), as_version=4).metadata["lecturekit"]
    assert g.path == copy and g.edition == "zh" and g.messages == dict(meta["messages"])


def test_the_english_edition_stays_english(course, monkeypatch):
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    monkeypatch.chdir(course / "exercises")
    g = Grader(NAME)
    assert g.edition == "en" and not g.messages
    with using("zh"):  # a Chinese desktop: the English notebook still speaks English
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
    text = chinese(grader.check("q1", env).text)
    assert "2 个公开测试中通过 1 个" in text
    assert MESSAGES["every height is at least the tail (2 cycles on this machine)"] in text
    assert "every height" not in text


def test_a_wrong_type_is_named_in_chinese(grader, env):
    env["q1_heights"] = 14
    text = chinese(grader.check("q1", env).text)
    assert MESSAGES["a list of six whole numbers"] in text
    assert "q1_heights 应为列表（list），而不是整数（int）" in text
    env.update(q6_speedup=Fraction(6, 5), q6_saved=2.5)
    assert "q6_saved 应为整数（int），而不是浮点数（float）" in chinese(
        grader.check("q6", env).text
    )


def test_right_answers_in_chinese(grader, env):
    env["q3_start"] = [2, 5, 6, 9, 7]
    result = grader.check("q3", env)
    assert result.status == "form"
    assert "形式正确" in chinese(result.text) and "评分时" in result.text
    exec(
        "def height(graph, i):\n"
        "    return max([graph['tail'][i]] + [l + height(graph, d) for _, d, l, _ in "
        "graph['succs'][i]])",
        env,
    )
    result = grader.check("q2", env)
    assert result.status == "pass"
    assert "3 个公开测试全部通过" in chinese(result.text) and "其他输入的隐藏测试" in result.text


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


def test_what_the_graded_functions_interpreter_says_is_chinese(grader, env):
    exec("def height(graph, i):\n    return g.ops[i].tail + 0 * len(graph)", env)
    text = chinese(grader.check("q2", env).text)
    assert "height 用到了 g（笔记本中的 lecturekit.core.graph.Graph 对象）" in text
    exec("def height(graph, i):\n    import networkx\n    return 0", env)
    assert "No module named 'networkx'" in short(grader.check("q2", env).text)


def test_a_function_that_never_returns_is_told_in_chinese(grader, env, monkeypatch):
    """The time limit holds both ways, and its one line is Chinese."""
    from lecturekit.grading import calls, check

    monkeypatch.setattr(check, "CHECK_SECONDS", 1)
    monkeypatch.setattr(calls, "GRACE", 0.5)
    exec("def height(graph, i):\n    while True:\n        i = i + 1\n", env)
    text = chinese(grader.check("q2", env).text)
    assert len(text.splitlines()) == 1 and "q2 用完了它的 1 秒" in text, text


def test_questions_without_tests_and_check_all_in_chinese(grader, env):
    assert chinese(grader.check("q7", env).text).startswith("q7 由人工评分")
    assert "q1, q2" in chinese(grader.check("q9", env).text)
    summary = grader.check_all(env).text
    assert all(HAN.search(line) for line in summary.splitlines()), summary
    assert "q7：人工评分" in summary and "q1：尚未作答" in summary


def test_the_callees_messages_are_translated_by_their_templates():
    said = (
        "height uses g (a lecturekit.core.graph.Graph from the notebook): a graded function "
        "must be your own, working on the plain data it is given with the standard library"
    )
    with using("zh"):
        assert shown(said) == (
            "height 用到了 g（笔记本中的 lecturekit.core.graph.Graph 对象）：被评分的函数必须"
            "是你自己写的，只用标准库处理它收到的普通数据"
        )
        assert shown("ValueError: my own message") == "ValueError: my own message"
    assert shown(said) == said


def test_assign_rebuilds_the_chinese_edition_and_status_reports_a_stale_one(tmp_path):
    """``lecturekit assign`` writes exercises/zh from the translation; an edition whose
    English (its code, or what assign records in its metadata) changed is reported stale."""
    from lecturekit.cli.assign import build_edition

    demo = demo_course(tmp_path)
    translation = translate(tmp_path, demo["exercise"])
    target = tmp_path / "exercises" / "zh" / f"{NAME}_习题.ipynb"
    assert "exercises/zh" in build_edition(tmp_path, demo["exercise"])
    assert nbformat.read(str(target), as_version=4).metadata["lecturekit"]["edition"] == "zh"
    assert i18n.edition_problems(demo["exercise"], translation, target) == []
    english = json.loads(demo["exercise"].read_text(encoding="utf-8"))
    english["metadata"]["lecturekit"]["answers"]["q4"]["q4_length"] = "float"
    demo["exercise"].write_text(json.dumps(english), encoding="utf-8")
    stale = i18n.edition_problems(demo["exercise"], translation, target)
    assert [p.cell for p in stale] == ["metadata"], stale
    assert "exercises/zh" in build_edition(tmp_path, demo["exercise"])  # rebuilt: current
    assert i18n.edition_problems(demo["exercise"], translation, target) == []


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
    assert "形式正确" in chinese(texts[2])
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
    english = nbformat.read(str(i18n.english_source(ROOT, exercise)), as_version=4)
    assert set(g.messages) == set(i18n.public_messages(english))
    first = next(iter(g.expected))
    assert chinese(g.check(first, {}).text).startswith(f"{first} 尚未作答")
