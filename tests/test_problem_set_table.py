"""The problem sets' shape (issue 26), read from the masters without grading anything: the table
in CONTRIBUTING.md is what tools/problem_set_table.py makes today, each set keeps the mix rule
(at least 70% of its auto-graded points in code questions, at most 20% in value questions),
every public test says in words what failed, every code question has a public test of
correctness on the prompt's example and hidden tests that call the function; and the question
config (``kind:``, ``rubric:``) is checked. (That no-effort submissions score 0, and that the
table's no-effort column is measured, is tests/test_grading.py: it needs the grading run.)"""

import ast
import re
import sys
from fractions import Fraction
from pathlib import Path

import nbformat
import pytest
import yaml

from lecturekit.errors import LectureKitError
from lecturekit.grading import noeffort, questions
from lecturekit.grading.assign import question_config

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import problem_set_table  # noqa: E402  (tools/problem_set_table.py)

SOLUTIONS = sorted((ROOT / "solutions").glob("[0-9][0-9]_*.ipynb"))


def test_the_table_is_what_the_script_makes_today():
    text = problem_set_table.FILE.read_text(encoding="utf-8")
    assert problem_set_table.table_in(text) == problem_set_table.make(text, {}), (
        "run `python tools/problem_set_table.py`"
    )


@pytest.mark.parametrize("master", SOLUTIONS, ids=lambda p: p.stem)
def test_the_mix_of_points(master):
    """Issue 26, item 2: >= 70% of the auto-graded points in code questions, <= 20% in value
    questions (by hand, then check); 4-8 questions."""
    p = problem_set_table.points_by_kind(master)
    auto = p["code"] + p["value"]
    assert 4 <= p["questions"] <= 8
    assert p["code"] >= problem_set_table.MIN_CODE * auto, p
    assert p["value"] <= problem_set_table.MAX_VALUE * auto, p


def master_test_cells(master: Path) -> dict[str, list[dict]]:
    """Per question, its test cells in the master: source, hidden, points (None: a share)."""
    nb = nbformat.read(str(master), as_version=4)
    found: dict[str, list[dict]] = {}
    question, in_tests = None, False
    for cell in nb.cells:
        text = cell.source.strip()
        if cell.cell_type == "raw":
            if text.startswith("# BEGIN QUESTION"):
                question = str(question_config(master, text)["name"])
                found[question] = []
            in_tests = text.startswith("# BEGIN TESTS") or (in_tests and "END TESTS" not in text)
            continue
        if not (in_tests and cell.cell_type == "code"):
            continue
        lines = cell.source.splitlines()
        config, body = {}, lines
        if lines and "BEGIN TEST CONFIG" in lines[0]:
            end = next(i for i, line in enumerate(lines) if "END TEST CONFIG" in line)
            config, body = yaml.safe_load("\n".join(lines[1:end])) or {}, lines[end + 1 :]
        hidden = bool(config.get("hidden", lines[0].lstrip().upper().startswith("# HIDDEN")))
        found[question].append(
            {"source": "\n".join(body), "hidden": hidden, "points": config.get("points")}
        )
    return found


@pytest.mark.parametrize("master", SOLUTIONS, ids=lambda p: p.stem)
def test_every_public_test_says_what_failed_in_words(master):
    """Issue 27: a failing public test shows its assertion message (translated in the Chinese
    edition), never a line of English code."""
    bare = []
    for q, cells in master_test_cells(master).items():
        for cell in cells:
            if cell["hidden"]:
                continue
            for node in ast.walk(ast.parse(cell["source"])):
                if isinstance(node, ast.Assert) and node.msg is None:
                    bare.append(f"{q}: {ast.unparse(node)[:80]}")
    assert not bare, bare


@pytest.mark.parametrize("master", SOLUTIONS, ids=lambda p: p.stem)
def test_public_tests_are_worth_nothing(master):
    """Issue 26, items 3 and 4: a public test is feedback (``points: 0`` in its config), so a
    submission that copies the public examples' values earns nothing; the hidden tests score."""
    paid = [
        f"{q}: {c['source'].splitlines()[0][:70]}"
        for q, cells in master_test_cells(master).items()
        for c in cells
        if not c["hidden"] and c["points"] != 0
    ]
    assert not paid, f"public tests that carry points: {paid}"


def _checks_an_example(source: str, answers: list[str], called: bool) -> bool:
    """A comparison (``==``, ``in`` ...) in a case that uses one of ``answers``: calls it (a
    function), or names it (``called=False``: a program text the case runs)."""
    tree = ast.parse(source)
    if called:
        uses = any(
            isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in answers
            for n in ast.walk(tree)
        )
    else:
        uses = any(isinstance(n, ast.Name) and n.id in answers for n in ast.walk(tree))
    compares = any(
        isinstance(n, ast.Compare) and any(isinstance(op, ast.Eq | ast.In | ast.Is) for op in n.ops)
        for n in ast.walk(tree)
    )
    return uses and compares


def code_question_problems(master: Path) -> list[str]:
    """What keeps ``master``'s code questions from earning the feedback "hidden tests on other
    inputs": a public test of the prompt's example (a comparison in a case that calls the
    function, or, for a program text, names it), and hidden tests that use the answer."""
    cells = master_test_cells(master)
    problems = []
    for q in questions(master):
        if q.kind != "code":
            continue
        answers = _functions(master, q.name)
        called = bool(answers)
        if not called:  # `kind: code` on a value: a program text the tests run
            answers = _answer_names(master, q.name)
        public = [c for c in cells[q.name] if not c["hidden"]]
        hidden = [c for c in cells[q.name] if c["hidden"]]
        if not any(_checks_an_example(c["source"], answers, called) for c in public):
            problems.append(f"{q.name}: no public test of the prompt's example")
        if not hidden:
            problems.append(f"{q.name}: no hidden tests")
        for c in hidden:
            names = {n.id for n in ast.walk(ast.parse(c["source"])) if isinstance(n, ast.Name)}
            if not names & set(answers):
                problems.append(f"{q.name}: a hidden test that never uses {answers}")
    return problems


@pytest.mark.parametrize("master", SOLUTIONS, ids=lambda p: p.stem)
def test_code_questions_check_the_example_and_hide_other_inputs(master):
    """A code question's public tests check the function (or the program text) on the prompt's
    example (so that "all public tests pass" means right on it), and its hidden tests use it
    (on the other inputs the feedback promises)."""
    problems = code_question_problems(master)
    assert not problems, problems


def _answer_types(master: Path, question: str) -> dict[str, str]:
    from lecturekit.grading import answer_types

    nb = nbformat.read(str(master), as_version=4)
    return answer_types(nb).get(question, {})


def _functions(master: Path, question: str) -> list[str]:
    return [n for n, t in _answer_types(master, question).items() if t == "function"]


def _answer_names(master: Path, question: str) -> list[str]:
    return list(_answer_types(master, question))


@pytest.mark.parametrize(
    "config, said",
    [
        ("points: 2", "has no name"),
        ("name: q1\nkind: essay", "give one of code, value, manual"),
        ("name: q1\nkind: manual", "goes with `manual: true`"),
        ("name: q1\nmanual: true\nkind: code", "goes with `manual: true`"),
        ("name: q1\npoints: 2\nrubric:\n- {points: 2, criterion: x}", "is for a manual"),
        ("name: q1\nmanual: true\npoints: 2\nrubric: [x]", "list of {points: N"),
        ("name: q1\nmanual: true\npoints: 2\nrubric:\n- {points: 0, criterion: x}", "more than 0"),
        ("name: q1\nmanual: true\npoints: 2\nrubric:\n- {points: 1, criterion: x}", "add up to 1"),
        ("name: q1\nmanual: true\npoints: 2\nrubric:\n- {points: 2, text: x}", "list of {points"),
        ("name: q1\nmanual: true\npoints: 2\nrubric:\n- {points: 2, criterion: ' '}", "list of"),
        ("name: [q1", "not YAML"),
    ],
)
def test_a_bad_question_config_is_named(config, said):
    with pytest.raises(LectureKitError, match=r"master\.ipynb: .*" + _escape(said)):
        question_config("master.ipynb", "# BEGIN QUESTION\n" + config)


def _escape(text: str) -> str:
    return re.escape(text)


def test_a_good_question_config_reads_kind_and_rubric(tmp_path):
    """A manual question's rubric, an explicit kind, and the derived kinds of the others."""
    master = tmp_path / "99_demo.ipynb"
    cells = [
        ("raw", "# ASSIGNMENT CONFIG\nname: 99_demo"),
        ("raw", "# BEGIN QUESTION\nname: q1\npoints: 3"),
        ("markdown", "**Q1.** Write `f`."),
        ("raw", "# BEGIN SOLUTION"),
        ("code", "def f(x):\n    return x  # SOLUTION"),
        ("raw", "# END SOLUTION"),
        ("raw", "# END QUESTION"),
        ("raw", "# BEGIN QUESTION\nname: q2\npoints: 1"),
        ("raw", "# BEGIN SOLUTION"),
        ("code", "q2 = 4  # SOLUTION"),
        ("raw", "# END SOLUTION"),
        ("raw", "# END QUESTION"),
        ("raw", "# BEGIN QUESTION\nname: q3\npoints: 1\nkind: code"),
        ("raw", "# BEGIN SOLUTION"),
        ("code", "q3 = 'add $t0, $t1, $t2'  # SOLUTION"),
        ("raw", "# END SOLUTION"),
        ("raw", "# END QUESTION"),
        (
            "raw",
            "# BEGIN QUESTION\nname: q4\nmanual: true\npoints: 3\nrubric:\n"
            "- {points: 2, criterion: 'names the resource bound'}\n"
            "- {points: 1, criterion: 'says the scheduler never idles on purpose'}",
        ),
        ("markdown", "**Q4.** Why?"),
        ("raw", "# BEGIN SOLUTION"),
        ("markdown", "_Because._"),
        ("raw", "# END SOLUTION"),
        ("raw", "# END QUESTION"),
    ]
    nb = nbformat.v4.new_notebook()
    make = {
        "raw": nbformat.v4.new_raw_cell,
        "markdown": nbformat.v4.new_markdown_cell,
        "code": nbformat.v4.new_code_cell,
    }
    nb.cells = [make[kind](source) for kind, source in cells]
    nbformat.write(nb, str(master))
    qs = {q.name: q for q in questions(master)}
    assert [q.kind for q in qs.values()] == ["code", "value", "code", "manual"]
    assert [(c.points, c.criterion) for c in qs["q4"].rubric] == [
        (2.0, "names the resource bound"),
        (1.0, "says the scheduler never idles on purpose"),
    ]
    assert qs["q4"].prompt == "**Q4.** Why?" and qs["q4"].answer == "_Because._"
    assert qs["q1"].rubric == () and qs["q1"].prompt == "**Q1.** Write `f`."


@pytest.mark.parametrize(
    "model",
    [
        "fld ft0, -8(a1)\nfmadd.d ft0, fa0, ft0, ft1\n",  # a program text (PS12 Q4's kind)
        ["WAR", "WAW", "1"],
        {"unit": "mul", "cycles": 3},
        ("1", "2"),
        "",
        noeffort.NONSENSE,
    ],
)
def test_no_effort_strings_are_never_the_models_own(model):
    """A string answer becomes '', 'x', '1', '2', ... or the public tests' own constants, never
    the model's string: counting up once left strings as they were, so a no-effort submission
    held the model's program text (PS12 Q4 scored 2 of 2 until its test also checked a count)."""

    def strings(value):
        if isinstance(value, str):
            return [value]
        if isinstance(value, dict):
            value = list(value.values())
        return [s for v in value for s in strings(v)] if isinstance(value, list | tuple) else []

    made = noeffort.value_candidates(model, [])
    assert len(made) >= 3
    for candidate in made:
        assert candidate != model
        assert all(a != b for a, b in zip(strings(candidate), strings(model), strict=True))
    # the public tests' constants stay candidates (a public test comparing with the model's
    # string gives the answer away: the set's mistake, which the grading run then reports)
    assert "WAR" in noeffort.value_candidates("add", ["WAR", 3])
    assert 3 not in noeffort.value_candidates("add", ["WAR", 3])
    # a function returning strings: zeros, ones, the public example's own result, counting
    calls = [((1,), {}, model)]
    sources = noeffort.function_candidates("f", calls)
    returned = []
    for source in sources:
        space = {"Fraction": Fraction}
        exec(noeffort.KEY_SOURCE + "\n" + source, space)  # noqa: S102 - our own sources
        returned.append(space["f"](2))
    assert returned.count(model) == 2  # the public example's result, as itself and by table


def _master(path: Path, cells: list[tuple[str, str]]) -> Path:
    nb = nbformat.v4.new_notebook()
    make = {
        "raw": nbformat.v4.new_raw_cell,
        "markdown": nbformat.v4.new_markdown_cell,
        "code": nbformat.v4.new_code_cell,
    }
    nb.cells = [make[kind](source) for kind, source in cells]
    nbformat.write(nb, str(path))
    return path


FREE = '""" # BEGIN TEST CONFIG\npoints: 0\n""" # END TEST CONFIG\n'


def test_a_program_text_can_be_a_code_question(tmp_path):
    """CONTRIBUTING: an answer that is a program text the tests run (in a language lecturekit
    interprets: assembly, a schedule) is ``kind: code`` when its public test runs it on the
    prompt's example and its hidden tests on other inputs; the check asks that of the text as it
    asks a function to be called. A text with only a form check and no hidden tests fails it."""
    run_text = "assert run(q1_program, {'t1': 1, 't2': 2})['t0'] == 3, 'on the example: t0 = 3'"
    hidden = (
        "# HIDDEN\nimport random\nrng = random.Random(1)\nfor _ in range(20):\n"
        "    regs = {'t1': rng.randint(-9, 9), 't2': rng.randint(-9, 9)}\n"
        "    assert run(q1_program, regs)['t0'] == regs['t1'] + regs['t2']"
    )
    cells = [
        ("raw", "# ASSIGNMENT CONFIG\nname: 98_text"),
        ("raw", "# BEGIN QUESTION\nname: q1\npoints: 2\nkind: code"),
        ("markdown", "**Q1.** Write a block that leaves t1 + t2 in t0."),
        ("raw", "# BEGIN SOLUTION"),
        ("code", "q1_program = 'add $t0, $t1, $t2'  # SOLUTION"),
        ("raw", "# END SOLUTION"),
        ("raw", "# BEGIN TESTS"),
        ("code", FREE + "assert isinstance(q1_program, str), 'a string of assembly'"),
        ("code", FREE + run_text),
        ("code", hidden),
        ("raw", "# END TESTS"),
        ("raw", "# END QUESTION"),
    ]
    good = _master(tmp_path / "98_text.ipynb", cells)
    assert [q.kind for q in questions(good)] == ["code"]
    assert code_question_problems(good) == []
    form_only = [c for c in cells if c[1] not in (FREE + run_text, hidden)]
    bad = _master(tmp_path / "97_text.ipynb", form_only)
    assert code_question_problems(bad) == [
        "q1: no public test of the prompt's example",
        "q1: no hidden tests",
    ]
    # a function must be called, not merely named, by the public check of its example
    function = "def f(x):\n    return x  # SOLUTION"
    named = [
        (kind, source.replace("\nkind: code", "").replace("run(q1_program,", "run(f,"))
        for kind, source in cells
    ]
    named[4] = ("code", function)
    assert code_question_problems(_master(tmp_path / "96_text.ipynb", named))[0] == (
        "q1: no public test of the prompt's example"
    )


def test_running_a_master_leaves_no_backend_in_the_environment(monkeypatch):
    """The master runs headless, but MPLBACKEND is not left behind: every kernel started later
    from this process (nbval's, in this very suite) inherited ``Agg`` and showed no figure."""
    monkeypatch.delenv("MPLBACKEND", raising=False)
    ns = noeffort.master_namespace(ROOT / "solutions" / "04_list_scheduling.ipynb")
    assert "q1_heights" in ns
    import os

    assert "MPLBACKEND" not in os.environ
