"""The student's side of a problem set: the first cell works under any file name and from any
working directory, and ``grader.check`` says in one or two lines what is right and what to fix
(the test's own message, a 0-point feedback case's too; "not answered yet"; the type expected),
never doctest or traceback frames, and only true things about the hidden tests. It runs the
public tests itself, without importing otter. A code question's public tests call the student's
function as grading does: re-created in a ``python -I -S`` process with the standard library
only, so a function that leans on lecturekit or networkx is told so here.

The demo problem set (tests/data/problem_set/99_demo.ipynb, assigned here) is what is checked,
so that these tests do not change when a course problem set is rewritten."""

import functools
import os
import shutil
import signal
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import nbformat
import pytest
from grading_support import demo_course

from lecturekit.core.bounds import lower_bound
from lecturekit.core.list_sched import list_schedule
from lecturekit.grading import answer_types, inputs_after_call, plain_graph
from lecturekit.grading.check import (
    Grader,
    ProblemSetNotFound,
    feedback,
    find_notebook,
    fits,
    is_unanswered,
    wrong_types,
)
from lecturekit.grading.local_callee import PORTABLE_ENV
from lecturekit.grading.noeffort import master_namespace
from lecturekit.grading.oktests import CaseResult
from lecturekit.i18n import problems_name
from lecturekit.target.deps import analyze

ROOT = Path(__file__).resolve().parents[1]
NAME = "99_demo"
SIX = "t0 = t1 + t2\nt1 = t0 + t1\nt3 = t2 + t4\nt0 = t1 + t2\nt5 = t3 + t4\nt6 = t2 + t7"
P = "t1 = t2 * t0\nt0 = t3 + t3\nt2 = t3 + t4\nt1 = t2 + t2\nt4 = t3 + t3"
FRAMES = ("Traceback", "doctest", 'File "', "Failed example", "Expecting", "Trying:")


def short(text):
    assert 1 <= len(text.splitlines()) <= 2, text
    assert not any(f in text for f in FRAMES), text
    return text


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    return demo_course(tmp_path_factory.mktemp("demo-course"))


@pytest.fixture
def copy_elsewhere(demo, tmp_path, monkeypatch):
    """The demo exercise saved by JupyterLab as a copy, in a folder outside the course."""
    folder = tmp_path / "student"
    folder.mkdir()
    copy = folder / f"{NAME}-Copy1.ipynb"
    shutil.copy(demo["exercise"], copy)
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    monkeypatch.chdir(folder)
    return copy


@pytest.fixture
def grader(copy_elsewhere, check_calls):
    """The demo set's grader; its code questions' calls both ways (POSIX's and Windows')."""
    return Grader(NAME)


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


HEIGHT = (
    "def height(graph, i):\n"
    "    best = graph['tail'][i]\n"
    "    for _, d, lat, _ in graph['succs'][i]:\n"
    "        best = max(best, lat + height(graph, d))\n"
    "    return best\n"
)


def test_a_renamed_copy_is_found(copy_elsewhere, grader):
    assert grader.path == copy_elsewhere


def test_a_session_path_from_the_servers_root_is_found_in_the_working_directory(
    demo, tmp_path, monkeypatch
):
    """Without the kernel's folder, JPY_SESSION_NAME is the path from the server's root (with
    ``/``, on Windows too); the kernel runs in the notebook's folder: that copy is the one, not
    a newer copy beside it."""
    folder = tmp_path / "exercises"
    folder.mkdir()
    mine, other = folder / "mine.ipynb", folder / "newer.ipynb"
    shutil.copy(demo["exercise"], mine)
    shutil.copy(demo["exercise"], other)
    monkeypatch.chdir(folder)
    monkeypatch.setenv("JPY_SESSION_NAME", "exercises/mine.ipynb")
    assert find_notebook(NAME) == folder / "mine.ipynb"


def test_the_kernels_own_notebook_is_found_from_another_directory(demo, tmp_path, monkeypatch):
    """JupyterLab tells the kernel its notebook (JPY_SESSION_NAME); the working directory may be
    anywhere, even a folder with a ``tests/`` folder of its own (otter's default test folder)."""
    copy = tmp_path / "a" / "my answers.ipynb"
    copy.parent.mkdir()
    shutil.copy(demo["exercise"], copy)
    elsewhere = tmp_path / "b"
    (elsewhere / "tests").mkdir(parents=True)
    monkeypatch.chdir(elsewhere)
    monkeypatch.setenv("JPY_SESSION_NAME", str(copy))
    g = Grader(NAME)
    assert g.path == copy
    result = g.check("q1", {"q1_heights": [8, 5, 5, 2, 2, 2]})
    assert result.passed and result.status == "form", result.text


def test_inside_the_course_the_exercises_folder_is_found(monkeypatch):
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    monkeypatch.chdir(ROOT / "notebooks")
    problems = ROOT / "exercises" / "04_list_scheduling_problems.ipynb"
    assert find_notebook("04_list_scheduling") == problems


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


def test_a_failing_feedback_case_shows_its_message(grader, env):
    """A 0-point case (a form check) that fails is told like any test; it earns nothing."""
    env["q1_heights"] = [1, 2, 3, 4, 5, 6]
    result = grader.check("q1", env)
    assert not result.passed and result.status == "fail"
    assert result.score == result.possible == 0  # feedback: 0 points either way
    text = short(result.text)
    assert "1 of 2 public tests pass" in text
    assert "every height is at least the tail (2 cycles on this machine)" in text


def test_a_wrong_type_says_which_type_is_expected(grader, env):
    env["q1_heights"] = 14
    text = short(grader.check("q1", env).text)
    assert "a list of six whole numbers" in text  # the test's message
    assert "q1_heights should be a list, not an int (a whole number)" in text
    env["q4_length"] = "10 cycles"
    assert "q4_length should be an int (a whole number), not a str" in short(
        grader.check("q4", env).text
    )


def test_an_answer_of_unrecorded_type_is_never_called_the_wrong_type(grader, env):
    """Issue 27: a correct Fraction (its type not recorded: the solution computes it) was
    reported as 'should be a None, not a Fraction' when another part failed."""
    assert grader.expected["q6"] == {"q6_saved": "int", "q6_speedup": None}
    env.update(q6_speedup=Fraction(6, 5), q6_saved="two")
    text = short(grader.check("q6", env).text)
    assert "q6_saved should be an int (a whole number), not a str" in text
    assert "q6_speedup" not in text and "None" not in text


def test_an_error_in_the_answer_is_one_line_without_frames(grader, env):
    exec("def descendants(graph, i):\n    return graph.no_such_attribute", env)
    text = short(grader.check("q5", env).text)
    assert "AttributeError" in text and "no_such_attribute" in text


def test_a_right_function_passes_and_says_what_the_hidden_tests_do(grader, env):
    """Helpers, imports of the standard library, a cache and a global constant of the notebook
    all come along into the ``-I -S`` process; passing means right on the prompt's example,
    and a code question's hidden tests use other inputs."""
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
    assert result.passed and result.status == "pass", result.text
    assert result.score == result.possible == 0  # public tests are feedback: hidden ones score
    text = short(result.text)
    assert "all 3 public tests pass, so it is right on the prompt's example" in text
    assert "Hidden tests on other inputs decide its points" in text


SPIN = "def spin():\n    while True:\n        pass\n"
NEVER_RETURNS = {
    "loops": "def height(graph, i):\n    while True:\n        i = i + 1\n",
    # catches the interrupt that ends the call: the process running it is killed
    "catches-the-interrupt": SPIN + "def height(graph, i):\n"
    "    while True:\n"
    "        try:\n"
    "            spin()\n"
    "        except BaseException:\n"
    "            pass\n",
}


@pytest.mark.parametrize("kind", NEVER_RETURNS)
def test_a_function_that_never_returns_is_stopped_and_told_in_one_line(
    grader, env, kind, monkeypatch, check_calls
):
    """The question's time (1 s here) holds both ways: a loop is interrupted in the callee
    (SIGALRM, or the watchdog thread on Windows' way); one that catches the interrupt is killed
    with its process. Either way one line says so, no process is left, and the next check works
    in a fresh one."""
    from lecturekit.grading import calls, check, local_callee

    monkeypatch.setattr(check, "CHECK_SECONDS", 1)
    monkeypatch.setattr(calls, "GRACE", 0.5)
    started = []

    def start(*args):
        started.append(local_callee_start(*args))
        return started[-1]

    local_callee_start = local_callee.start
    monkeypatch.setattr(local_callee, "start", start)
    exec(NEVER_RETURNS[kind], env)
    result = grader.check("q2", env)
    assert result.status == "fail"
    text = short(result.text)
    assert len(text.splitlines()) == 1
    assert "q2 ran out of its 1 seconds" in text, text
    assert len(started) == 1 and started[0].poll() is not None
    if check_calls == "portable" and os.name == "posix":
        # the watchdog's interrupt ended the loop, the callee ended with its input; the one
        # that caught the interrupt was killed
        killed = kind == "catches-the-interrupt"
        assert started[0].returncode == (-signal.SIGKILL if killed else 0)
    exec(HEIGHT, env)
    assert grader.check("q2", env).status == "pass"
    assert len(started) == 2 and started[1].poll() is not None


def test_a_function_that_raises_is_told_its_error_in_one_line(grader, env):
    exec("def height(graph, i):\n    raise ValueError(f'no height for {i}')\n", env)
    result = grader.check("q2", env)
    assert result.status == "fail"
    assert short(result.text).endswith("Not yet: height raised ValueError: no height for 0")


def test_a_function_that_prints_a_lot_is_checked_as_usual(grader, env):
    """What the function prints (megabytes here) goes nowhere, on any system: it does not fill
    the pipe its answer comes back through."""
    exec(HEIGHT, env)
    exec(
        "def height(graph, i, _height=height):\n"
        "    print('x' * 10**6, *range(10**5))\n"
        "    return _height(graph, i)\n",
        env,
    )
    result = grader.check("q2", env)
    assert result.status == "pass", result.text


def test_numpy_only_where_the_question_allows_it(grader, env):
    """Neither way brings site-packages into the callee: numpy is imported only for a question
    that allows it (problem set 10's q2: by name, from its folder, no links on disk)."""
    exec("def height(graph, i):\n    import numpy\n    return graph['tail'][i]\n", env)
    assert "No module named 'numpy'" in short(grader.check("q2", env).text)
    master = ROOT / "solutions" / "10_parallelism_and_collectives.ipynb"
    ps10 = Grader(master.stem, ROOT / "exercises" / problems_name(master.stem))
    assert ps10.packages == {"q2": ["numpy"]}
    assert ps10.check("q2", model_namespace(master)).status == "pass"


def test_the_call_is_timed_by_sigalrm_or_by_the_watchdog(check_calls):
    """What the student's function finds in its process: on POSIX's way the callee's SIGALRM
    handler; on the portable way no SIGALRM handler (Windows has none), a SIGINT handler for
    the watchdog's interrupt (a function of its own: neither Python's default nor the SIG_IGN a
    shell's background job inherits), and the interpreter the kernel runs (a virtual environment's,
    started with ``-I -S``: still no site-packages)."""
    from lecturekit.grading.check import restricted

    ns = {"__name__": "__main__"}
    exec(
        "import signal, sys\n"
        "def probe():\n"
        "    alarm = signal.getsignal(signal.SIGALRM) if hasattr(signal, 'SIGALRM') else None\n"
        "    interrupt = signal.getsignal(signal.SIGINT)\n"
        "    watchdog = callable(interrupt) and interrupt is not signal.default_int_handler\n"
        "    return [callable(alarm), watchdog,\n"
        "            sys.flags.isolated, sys.flags.no_site, sys.executable]\n",
        ns,
    )
    with restricted(ns, ["probe"], [], "q") as env:
        alarm, watchdog, isolated, no_site, python = env["probe"]()
    assert (isolated, no_site) == (1, 1)
    if check_calls == "posix":
        assert (alarm, watchdog) == (True, False)
    else:
        assert (alarm, watchdog) == (False, True)
        assert python == sys.executable


def test_a_value_that_passes_its_form_checks_is_not_called_right(grader, env):
    """A value question's public tests check the form only (0 points); the feedback says the
    value is checked when graded, and claims no other inputs."""
    env["q3_start"] = [2, 5, 6, 9, 7]
    result = grader.check("q3", env)
    assert result.passed and result.status == "form"
    text = short(result.text)
    assert "form of your answer is right" in text and "only when your work is graded" in text
    assert "pass" not in text and "other inputs" not in text
    env["q3_start"] = [1, 1, 1, 1, 1]  # wrong, of the right form: told the same
    assert grader.check("q3", env).status == "form"


def test_right_on_the_example_but_a_feedback_case_fails(grader, env):
    """A function right on the example that empties its input: the 0-point mutation check fails
    and is reported; the status is not 'pass'."""
    exec(
        "def descendants(graph, i):\n"
        "    seen, todo = set(), [i]\n"
        "    while todo:\n"
        "        for _, d, _, _ in graph['succs'][todo.pop()]:\n"
        "            if d not in seen:\n"
        "                seen.add(d)\n"
        "                todo.append(d)\n"
        "    graph['succs'].clear()\n"
        "    return len(seen)\n",
        env,
    )
    result = grader.check("q5", env)
    assert result.status == "fail"
    text = short(result.text)
    assert "1 of 2 public tests pass" in text
    assert "descendants must leave the graph it is given as it was" in text


def test_a_question_without_tests_gets_one_line(grader, env):
    manual = grader.check("q7", env)
    assert manual.status == "manual"
    assert short(manual.text) == (
        "q7 is graded by hand: there are no tests to run; your instructor reads your answer."
    )
    typo = grader.check("q9", env)
    assert typo.status == "unknown" and "q1, q2, q3, q4, q5, q6" in short(typo.text)


def test_check_all_is_one_line_per_question(grader, env):
    exec(HEIGHT, env)
    env["q1_heights"] = 3
    summary = grader.check_all(env)
    lines = summary.text.splitlines()
    assert lines[:3] == [
        "q1: 0 of 2 public tests pass",
        "q2: its public tests pass",
        "q3: not answered yet",
    ]
    assert "q7: graded by hand" in lines and len(lines) == 8
    assert not any(f in summary.text for f in FRAMES)


def test_the_hidden_tests_are_described_as_they_are():
    """No hidden tests: 'these are all of its tests'; a value question's: no 'other inputs',
    and no claim that the value is right."""
    right = [CaseResult(0, False, 2.0, True, code=">>> assert f(1) == 2, 'f(1) is 2'\n")]
    none = feedback("q1", right, {}, {}, {"kind": "code", "hidden": 0}).text
    assert none.endswith("These are all of its tests.")
    value = feedback("q1", right, {}, {}, {"kind": "value", "hidden": 1}).text
    assert "only when your work is graded" in value and "other inputs" not in value
    assert "right on" not in value
    code = feedback("q1", right, {}, {}, {"kind": "code", "hidden": 2}).text
    assert "other inputs" in code


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


def test_checking_imports_no_otter(demo):
    """Issue 28: a student's check runs the public tests itself (otter's import takes seconds:
    the first cell of a set was 4-5 s with it)."""
    code = (
        "import sys\n"
        "from lecturekit.grading.check import Grader\n"
        f"g = Grader({NAME!r}, {str(demo['exercise'])!r})\n"
        "print(g.check('q4', {'q4_length': 10}).status, g.check_all({}).text.count('\\n'))\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('otter', 'nbformat', 'jsonschema', 'networkx', 'matplotlib')))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["form 7", "[]"]


def test_checking_needs_nothing_windows_lacks(demo):
    """A kernel without ``resource``, ``SIGALRM``, ``setitimer`` and ``killpg``, where
    ``select`` refuses pipes (Windows' ``WinError 10038``), as on Windows: the portable way is
    taken by itself, the sandbox module is never imported, a right function passes and one that
    never returns is stopped in its time."""
    code = (
        "import os, select, signal, sys\n"
        "sys.modules['resource'] = None\n"
        "for name in ('SIGALRM', 'setitimer', 'ITIMER_REAL'):\n"
        "    delattr(signal, name)\n"
        "del os.killpg\n"
        "def not_a_socket(*args):\n"
        "    raise OSError(10038, 'An operation was attempted on something that is not a socket')\n"
        "select.select = not_a_socket\n"
        "from lecturekit.core.list_sched import list_schedule\n"
        "from lecturekit.grading import calls, check, local_callee, plain_graph\n"
        "from lecturekit.target.deps import analyze\n"
        "check.CHECK_SECONDS, calls.GRACE = 1, 0.5\n"
        f"g = check.Grader({NAME!r}, {str(demo['exercise'])!r})\n"
        f"env = {{'g': analyze({SIX!r}, 'lecture').graph, 'plain_graph': plain_graph,\n"
        "       'list_schedule': list_schedule}\n"
        f"exec({HEIGHT!r}, env)\n"
        "print(local_callee.portable(), g.check('q2', env).status)\n"
        "exec('def height(graph, i):\\n    while True:\\n        i = i + 1\\n', env)\n"
        "print(g.check('q2', env).text)\n"
        "posix_only = ('lecturekit.grading.sandbox', 'resource')\n"
        "print([m for m in posix_only if sys.modules.get(m) is not None])\n"
    )
    env = {k: v for k, v in os.environ.items() if k != PORTABLE_ENV}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env
    )
    assert done.returncode == 0, done.stderr
    said = done.stdout.splitlines()
    assert said[0] == "True pass"
    assert "q2 ran out of its 1 seconds" in short(said[1])
    assert said[2] == "[]"


SOLUTIONS = sorted((ROOT / "solutions").glob("[0-9][0-9]_*.ipynb"))


@functools.cache
def model_namespace(master: Path) -> dict:
    """The model solution's namespace (its cells run once here; checks copy it)."""
    return master_namespace(master)


@pytest.mark.parametrize("master", SOLUTIONS, ids=lambda p: p.stem)
def test_every_answer_of_every_set_fits_its_recorded_type(master):
    """Issue 27's wrong-type bug, over every answer of every set: the model solution's values
    (its cells run here) are never called the wrong type, recorded or not."""
    ns = model_namespace(master)
    recorded = answer_types(nbformat.read(str(master), as_version=4))
    for question, names in recorded.items():
        present = {n: ns[n] for n in names if n in ns}
        assert set(present) == set(names), (question, set(names) - set(present))
        for name, kind in names.items():
            assert fits(ns[name], kind), (question, name, kind, type(ns[name]))
        assert wrong_types(names, present) == [], question


@pytest.mark.parametrize("master", SOLUTIONS, ids=lambda p: p.stem)
def test_every_model_function_passes_its_public_tests_both_ways(master, check_calls):
    """Every code question of every set, checked with the model solution in the student's
    notebook, on POSIX's way and Windows': callbacks (problem set 05's ``evaluate``), numpy
    where allowed (10), helpers and caches all come along."""
    ns = model_namespace(master)
    grader = Grader(master.stem, ROOT / "exercises" / problems_name(master.stem))
    code = [q for q, names in grader.expected.items() if "function" in names.values()]
    assert code, master.stem
    for question in code:
        result = grader.check(question, ns)
        assert result.status == "pass", (question, result.text)


@pytest.mark.parametrize("way", ["posix", "portable"])
def test_in_a_kernel_a_copy_runs_and_checks_in_two_lines(demo, tmp_path, way):
    """The whole path in a real kernel: a renamed copy, started from a working directory that is
    not the notebook's; first cell, an unanswered check, a wrong answer, a right one; its calls
    on POSIX's way and on the portable way Windows takes."""
    from nbclient import NotebookClient

    nb = nbformat.read(str(demo["exercise"]), as_version=4)
    copy = tmp_path / "copies" / f"{NAME}-Copy1.ipynb"
    copy.parent.mkdir()
    nbformat.write(nb, str(copy))
    q2 = next(i for i, c in enumerate(nb.cells) if c.source.startswith("def height"))
    check = nb.cells[q2 + 1]
    assert check.source.strip() == 'grader.check("q2")'
    runs = [
        nbformat.v4.new_code_cell(check.source),
        nbformat.v4.new_code_cell("def height(graph, i):\n    return 0\n" + check.source),
        nbformat.v4.new_code_cell(HEIGHT + check.source),
    ]
    which = nbformat.v4.new_code_cell(
        "from lecturekit.grading import local_callee\nlocal_callee.portable()"
    )
    nb.cells = nb.cells[: q2 + 1] + runs + [which]
    cwd = tmp_path / "elsewhere"
    cwd.mkdir()
    env = dict(
        os.environ, JPY_SESSION_NAME=str(copy), **{PORTABLE_ENV: "1" if way == "portable" else "0"}
    )
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
    assert texts[0].startswith("q2 is not answered yet")
    assert "2 of 3 public tests pass" in texts[1]
    assert "its height is its own tail" in texts[1]
    assert "all 3 public tests pass" in texts[2]
    (out,) = which.outputs
    assert out["data"]["text/plain"] == str(way == "portable")
