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
from pathlib import Path

import nbformat
import pytest
import yaml

from lecturekit.errors import LectureKitError
from lecturekit.grading import questions
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


def _checks_an_example(source: str, functions: list[str]) -> bool:
    """A comparison (``==``, ``in`` ...) in a case that calls one of ``functions``."""
    tree = ast.parse(source)
    calls = any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in functions
        for n in ast.walk(tree)
    )
    compares = any(
        isinstance(n, ast.Compare) and any(isinstance(op, ast.Eq | ast.In | ast.Is) for op in n.ops)
        for n in ast.walk(tree)
    )
    return calls and compares


@pytest.mark.parametrize("master", SOLUTIONS, ids=lambda p: p.stem)
def test_code_questions_check_the_example_and_hide_other_inputs(master):
    """A code question's public tests check the function on the prompt's example (so that
    "all public tests pass" means right on it), and its hidden tests call the student's function
    (on the other inputs the feedback promises)."""
    cells = master_test_cells(master)
    problems = []
    for q in questions(master):
        if q.kind != "code":
            continue
        functions = _functions(master, q.name)
        public = [c for c in cells[q.name] if not c["hidden"]]
        hidden = [c for c in cells[q.name] if c["hidden"]]
        if not any(_checks_an_example(c["source"], functions) for c in public):
            problems.append(f"{q.name}: no public test of the prompt's example")
        if not hidden:
            problems.append(f"{q.name}: no hidden tests")
        for c in hidden:
            called = {
                n.func.id
                for n in ast.walk(ast.parse(c["source"]))
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
            }
            names = {n.id for n in ast.walk(ast.parse(c["source"])) if isinstance(n, ast.Name)}
            if not (called | names) & set(functions):
                problems.append(f"{q.name}: a hidden test that never uses {functions}")
    assert not problems, problems


def _functions(master: Path, question: str) -> list[str]:
    from lecturekit.grading import answer_types

    nb = nbformat.read(str(master), as_version=4)
    return [n for n, t in answer_types(nb).get(question, {}).items() if t == "function"]


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
