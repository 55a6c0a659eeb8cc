"""The student's side of a problem set: the first cell works under any file name and from any
working directory, and ``grader.check`` says in one or two lines what is right and what to fix
(the test's own message; "not answered yet"; the type expected), never doctest or traceback
frames. Checked through otter's Notebook API and in a real kernel. A code question's public tests
call the student's function as grading does: re-created in a ``python -I -S`` process with the
standard library only, so a function that leans on lecturekit or networkx is told so here."""

import shutil
from pathlib import Path

import nbformat
import pytest

from lecturekit.core.bounds import lower_bound
from lecturekit.core.list_sched import list_schedule
from lecturekit.grading import plain_graph
from lecturekit.grading.check import Grader, ProblemSetNotFound, find_notebook, is_unanswered
from lecturekit.target.deps import analyze

ROOT = Path(__file__).resolve().parents[1]
EXERCISE = ROOT / "exercises" / "04_list_scheduling.ipynb"
SIX = "t0 = t1 + t2\nt1 = t0 + t1\nt3 = t2 + t4\nt0 = t1 + t2\nt5 = t3 + t4\nt6 = t2 + t7"
P = "t1 = t2 * t0\nt0 = t3 + t3\nt2 = t3 + t4\nt1 = t2 + t2\nt4 = t3 + t3"
FRAMES = ("Traceback", "doctest", 'File "', "Failed example", "Expecting", "Trying:")


def short(text):
    assert 1 <= len(text.splitlines()) <= 2, text
    assert not any(f in text for f in FRAMES), text
    return text


@pytest.fixture
def copy_elsewhere(tmp_path, monkeypatch):
    """The 04 exercise saved by JupyterLab as a copy, in a folder outside the course."""
    folder = tmp_path / "student"
    folder.mkdir()
    copy = folder / "04_list_scheduling-Copy1.ipynb"
    shutil.copy(EXERCISE, copy)
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    monkeypatch.chdir(folder)
    return copy


@pytest.fixture
def grader(copy_elsewhere):
    return Grader("04_list_scheduling")


@pytest.fixture
def env():
    return {
        "g": analyze(SIX, "lecture").graph,
        "gp": analyze(P, "lecture").graph,
        "list_schedule": list_schedule,
        "lower_bound": lower_bound,
        "plain_graph": plain_graph,
    }


def test_a_renamed_copy_is_found(copy_elsewhere, grader):
    assert grader.path == copy_elsewhere


def test_the_kernels_own_notebook_is_found_from_another_directory(tmp_path, monkeypatch):
    """JupyterLab tells the kernel its notebook (JPY_SESSION_NAME); the working directory may be
    anywhere, even a folder with a ``tests/`` folder of its own (otter's default test folder)."""
    copy = tmp_path / "a" / "my answers.ipynb"
    copy.parent.mkdir()
    shutil.copy(EXERCISE, copy)
    elsewhere = tmp_path / "b"
    (elsewhere / "tests").mkdir(parents=True)
    monkeypatch.chdir(elsewhere)
    monkeypatch.setenv("JPY_SESSION_NAME", str(copy))
    g = Grader("04_list_scheduling")
    assert g.path == copy
    result = g.check("q1", {"q1_heights": [8, 5, 5, 2, 2, 2]})
    assert result.passed and "all 2 public" in short(result.text)


def test_inside_the_course_the_exercises_folder_is_found(tmp_path, monkeypatch):
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    monkeypatch.chdir(ROOT / "notebooks")
    assert find_notebook("04_list_scheduling") == EXERCISE


def test_nothing_found_says_where_it_looked(tmp_path, monkeypatch):
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ProblemSetNotFound, match=str(tmp_path).replace("\\", "\\\\")):
        find_notebook("04_list_scheduling")


def test_unanswered_value_and_function_say_not_answered(grader, env):
    env["q1_heights"] = ...
    assert short(grader.check("q1", env).text).startswith("q1 is not answered yet")

    def height(graph, i): ...

    env["height"] = height
    text = short(grader.check("q2", env).text)
    assert text.startswith("q2 is not answered yet") and "height()" in text


def test_a_failing_check_shows_the_tests_own_message(grader, env):
    env["q1_heights"] = [1, 2, 3, 4, 5, 6]
    result = grader.check("q1", env)
    assert not result.passed and result.score == 1  # of 2: one of its two tests passes
    text = short(result.text)
    assert "1 of 2 public tests pass" in text
    assert "every height is at least the tail (2 cycles on this machine)" in text


def test_a_wrong_type_says_which_type_is_expected(grader, env):
    env["q1_heights"] = 14
    text = short(grader.check("q1", env).text)
    assert "a list of six whole numbers" in text  # the test's message
    assert "q1_heights should be a list, not an int" in text  # from the solution's type
    env["q4_length"] = "10 cycles"
    assert "q4_length should be an int" in short(grader.check("q4", env).text)


def test_an_error_in_the_answer_is_one_line_without_frames(grader, env):
    exec("def descendants(graph, i):\n    return graph.no_such_attribute", env)
    text = short(grader.check("q5", env).text)
    assert "AttributeError" in text and "no_such_attribute" in text


def test_a_function_of_ones_own_passes_in_the_restricted_process(grader, env):
    """Helpers, imports of the standard library, a cache and a global constant of the notebook
    all come along into the ``-I -S`` process."""
    exec(
        "import functools, math\n"
        "base = 0\n"
        "def longest(graph, i, memo):\n"
        "    if i not in memo:\n"
        "        succ = [lat + longest(graph, d, memo) for _, d, lat, _ in graph['succs'][i]]\n"
        "        memo[i] = max([graph['tail'][i]] + succ)\n"
        "    return memo[i]\n"
        "@functools.cache\n"
        "def zero():\n"
        "    return math.floor(0.5) + base\n"
        "def height(graph, i):\n"
        "    return longest(graph, i, {}) + zero()\n",
        env,
    )
    result = grader.check("q2", env)
    assert result.passed, result.text
    assert "all 2 public" in short(result.text)


@pytest.mark.parametrize(
    "source, said",
    [
        (
            "from lecturekit.core.bounds import heights\n"
            "def height(graph, i):\n    return heights(g)[i]",
            "height uses lecturekit",
        ),
        (
            "def height(graph, i):\n    import networkx\n    return graph['tail'][i]",
            "No module named 'networkx'",
        ),
        (
            "def height(graph, i):\n    return g.ops[i].tail + 0 * len(graph)",
            "height uses g (a lecturekit.core.graph.Graph from the notebook)",
        ),
        (
            "import lecturekit.core.bounds as B\ndef height(graph, i):\n    return B.heights(g)[i]",
            "height uses lecturekit",
        ),
        (
            "from lecturekit.core.bounds import _longest_paths\n"
            "def height(graph, i, _h=_longest_paths):\n    return _h",
            "height uses lecturekit",
        ),
        ("from lecturekit.core.bounds import heights as height", "height uses lecturekit"),
    ],
    ids=[
        "imported-function",
        "import-inside",
        "notebook-graph",
        "module-alias",
        "library-default",
        "library-itself",
    ],
)
def test_a_function_that_leans_on_the_library_is_told_at_check_time(grader, env, source, said):
    exec(source, env)
    result = grader.check("q2", env)
    assert not result.passed
    assert said in short(result.text), result.text


def test_a_right_answer_passes_and_mentions_hidden_tests(grader, env):
    env["q3_start"] = [2, 5, 6, 9, 7]
    result = grader.check("q3", env)
    assert result.passed and result.score == result.possible == 3
    assert "hidden tests" in short(result.text).lower()


def test_is_unanswered_only_for_empty_bodies():
    def empty(a): ...

    def docstring_only(a):
        """Return something."""

    def answered(a):
        return a

    def answered_pass(a):
        a = a + 1

    assert is_unanswered(...) and is_unanswered(empty) and is_unanswered(docstring_only)
    assert not any(is_unanswered(v) for v in (answered, answered_pass, None, 0, [], print))


def test_in_a_kernel_a_copy_runs_and_checks_in_two_lines(tmp_path):
    """The whole path in a real kernel: a renamed copy, started from a working directory that is
    not the notebook's; first cell, an unanswered check, a wrong answer, a right one."""
    from nbclient import NotebookClient

    nb = nbformat.read(str(EXERCISE), as_version=4)
    copy = tmp_path / "copies" / "04_list_scheduling-Copy1.ipynb"
    copy.parent.mkdir()
    nbformat.write(nb, str(copy))
    q1 = next(i for i, c in enumerate(nb.cells) if c.source.startswith("q1_heights"))
    check = nb.cells[q1 + 1]
    assert check.source.strip() == 'grader.check("q1")'
    runs = [
        nbformat.v4.new_code_cell(check.source),
        nbformat.v4.new_code_cell("q1_heights = 3\n" + check.source),
        nbformat.v4.new_code_cell("q1_heights = [8, 5, 5, 2, 2, 2]\n" + check.source),
    ]
    nb.cells = nb.cells[: q1 + 1] + runs
    cwd = tmp_path / "elsewhere"
    cwd.mkdir()
    import os

    env = dict(os.environ, JPY_SESSION_NAME=str(copy))
    client = NotebookClient(nb, timeout=120, kernel_name="python3")
    with client.setup_kernel(cwd=str(cwd), env=env):
        for index, cell in enumerate(nb.cells):
            if cell.cell_type == "code":
                client.execute_cell(cell, index)
    texts = []
    for cell in runs:
        (out,) = [o for o in cell.outputs if o.output_type == "execute_result"]
        texts.append(short(out["data"]["text/plain"]))
        assert "text/html" in out["data"]
    assert texts[0].startswith("q1 is not answered yet")
    assert "a list of six whole numbers" in texts[1] and "should be a list" in texts[1]
    assert "all 2 public test(s) pass" in texts[2]
