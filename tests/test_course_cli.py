"""``lecturekit assign`` and ``grade`` find the course from any folder inside it (or take
``--course``), say where they looked when they find nothing, and every option states its default."""

from pathlib import Path

import pytest

from lecturekit.cli import build_parser, main
from lecturekit.errors import LectureKitError
from lecturekit.grading import find_course, find_master

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("sub", [".", "notebooks", "exercises", "lecturekit/cli"])
def test_the_course_is_found_from_inside(sub):
    assert find_course(ROOT / sub) == ROOT


def test_outside_a_course_the_message_says_where_it_looked(tmp_path, monkeypatch, capsys):
    inner = tmp_path / "a" / "b"
    inner.mkdir(parents=True)
    with pytest.raises(LectureKitError) as err:
        find_course(inner)
    for folder in (inner, tmp_path / "a", tmp_path):
        assert str(folder) in str(err.value)
    monkeypatch.chdir(inner)
    assert main(["grade", "04", "x.ipynb"]) == 2
    assert "--course" in capsys.readouterr().err
    assert main(["assign", "--course", str(tmp_path), "04"]) == 2
    assert "no solutions/ folder" in capsys.readouterr().err


@pytest.mark.parametrize(
    "name",
    [
        "04",
        "04_list_scheduling",
        "04_list_scheduling_problems",  # what a student of the English set submits
        "04_列表调度_习题",  # of the Chinese one
        "04_列表调度_习题_张三.ipynb",  # renamed by a learning platform
        "exercises/04_list_scheduling_problems.ipynb",
        "exercises/zh/04_列表调度_习题.ipynb",
        "notebooks/zh/04_列表调度.ipynb",
        "solutions/04_list_scheduling.ipynb",
    ],
)
def test_grade_finds_the_master_by_any_name_of_the_problem_set(name, monkeypatch):
    """``lecturekit grade CHAPTER``: the master of chapter 04 whichever of its notebooks'
    names the instructor gives, a problem set or an edition never taken for the master."""
    monkeypatch.chdir(ROOT)
    assert find_master(name, ROOT / "solutions").resolve() == (
        ROOT / "solutions" / "04_list_scheduling.ipynb"
    )


def test_grade_with_an_unknown_chapter_names_the_folder(monkeypatch, capsys):
    monkeypatch.chdir(ROOT / "notebooks")
    assert main(["grade", "99", "x.ipynb"]) == 2
    err = capsys.readouterr().err
    assert str(ROOT / "solutions") in err and "04_list_scheduling" in err


def test_a_one_digit_chapter_means_the_two_digit_one():
    """``lecturekit grade 4`` grades problem set 04 (the files are named ``04_...``)."""
    parser = build_parser()
    assert parser.parse_args(["grade", "4", "x.ipynb"]).chapter == "04"
    assert parser.parse_args(["assign", "4", "12", "04_list_scheduling"]).only == [
        "04",
        "12",
        "04_list_scheduling",
    ]


@pytest.mark.parametrize("command", ["assign", "grade"])
def test_every_option_says_its_default(command):
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command").choices[command]
    for action in sub._actions:
        if action.dest == "help" or (action.required and action.option_strings == []):
            continue
        assert action.help and "default" in action.help, f"{command} {action.dest}: {action.help}"


def test_assign_without_otter_says_what_to_install(monkeypatch, tmp_path):
    """A student's install has no otter-grader (grader.check needs none): assign and grade
    say which extra brings it, without a traceback."""
    import builtins

    from lecturekit.grading import assign as assign_module

    real = builtins.__import__

    def no_otter(name, *args, **kwargs):
        if name == "otter" or name.startswith("otter."):
            raise ModuleNotFoundError(f"No module named {name!r}")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_otter)
    with pytest.raises(LectureKitError, match=r"lecturekit\[instructor\]"):
        assign_module._otter_assign(tmp_path / "master.ipynb", tmp_path / "out")
