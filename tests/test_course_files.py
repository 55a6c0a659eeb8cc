"""Which notebooks are the course's own (tools/course_files.py): a student's copies saved beside
them (as the README invites) are never on the course home page, never validated as chapters,
never paired with a solution; with git, "own" means tracked, without git, named NN_topic.ipynb."""

import shutil
import subprocess
import sys
from pathlib import Path

import course_files
import course_home
import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
COPIES = [
    "04_list_scheduling-Copy1.ipynb",  # JupyterLab's "Duplicate"
    "04_list_scheduling (1).ipynb",  # a browser download
    "04_list_scheduling_problems-Copy1.ipynb",
    "04_列表调度_习题-Copy1.ipynb",
    "04_列表调度_习题 (1).ipynb",
    "Untitled.ipynb",
    "Untitled1.ipynb",
]
#: the course's own notebooks of chapter 04, by folder (lecturekit.i18n names them)
OWN = {
    "notebooks": "04_list_scheduling.ipynb",
    "exercises": "04_list_scheduling_problems.ipynb",
    "notebooks/zh": "04_列表调度.ipynb",
    "exercises/zh": "04_列表调度_习题.ipynb",
}


def notebook(path: Path, heading: str = "# 04 · List scheduling — 列表调度") -> Path:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell(heading), nbformat.v4.new_code_cell("1 + 1")]
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, str(path))
    return path


def git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


@pytest.fixture
def course(tmp_path):
    """A small course in a git work tree: chapter 04 and its problem set in both editions,
    committed; beside them, untracked, the copies a student makes, a notebook of their own
    that happens to follow the course's naming, and a problem set saved under its old name."""
    root = tmp_path / "course"
    for folder, name in OWN.items():
        notebook(root / folder / name)
    git(root, "init", "-q")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "course")
    for folder in ("notebooks", "exercises", "exercises/zh"):
        for name in [*COPIES, "04_my_notes.ipynb"]:
            notebook(root / folder / name)
    notebook(root / "exercises" / "04_list_scheduling.ipynb")  # the problem set's old name
    course_files.tracked.cache_clear()
    yield root
    course_files.tracked.cache_clear()


def test_in_a_git_work_tree_the_course_is_what_git_tracks(course):
    for folder in ("notebooks", "exercises", "exercises/zh"):
        assert course_files.numbered(course / folder, course) == [course / folder / OWN[folder]]
        assert not course_files.is_course_file(course / folder / "04_my_notes.ipynb", course)
    git(course, "add", "notebooks/04_my_notes.ipynb")  # an instructor's new notebook, added
    course_files.tracked.cache_clear()
    assert course / "notebooks" / "04_my_notes.ipynb" in course_files.numbered(
        course / "notebooks", course
    )


def test_without_git_the_course_is_what_follows_its_naming(course):
    shutil.rmtree(course / ".git")
    course_files.tracked.cache_clear()
    assert course_files.tracked(course) is None
    assert [p.name for p in course_files.numbered(course / "exercises", course)] == [
        "04_list_scheduling.ipynb",  # named like a chapter: without git these two cannot be
        "04_list_scheduling_problems.ipynb",
        "04_my_notes.ipynb",  # told apart from the course's own
    ]
    assert [p.name for p in course_files.numbered(course / "exercises" / "zh", course)] == [
        "04_my_notes.ipynb",
        OWN["exercises/zh"],
    ]
    # the home page still links the problem set by its name, not the old-named copy
    table = course_home.home(course).cells[1].source
    assert "[problem set 04](exercises/04_list_scheduling_problems.ipynb)" in table
    assert "(exercises/04_list_scheduling.ipynb)" not in table
    for name in COPIES:
        assert not course_files.COURSE_NAME.match(name), name


def test_the_course_home_lists_only_the_course_and_names_what_it_left_out(course):
    table = course_home.home(course).cells[1].source
    assert "Copy1" not in table and "my_notes" not in table and "(1)" not in table
    assert "[problem set 04](exercises/04_list_scheduling_problems.ipynb)" in table
    assert "[习题 04](exercises/zh/04_列表调度_习题.ipynb)" in table
    assert "(notebooks/zh/04_列表调度.ipynb)" in table
    left = {p.relative_to(course).as_posix() for p in course_home.left_out(course)}
    assert "exercises/zh/04_列表调度_习题-Copy1.ipynb" in left
    assert "notebooks/04_my_notes.ipynb" in left
    assert "exercises/04_list_scheduling.ipynb" in left  # a student's copy under the old name
    assert not left & {f"{folder}/{name}" for folder, name in OWN.items()}


def test_nbval_validates_only_the_course_notebooks(course):
    """The README's test command (``python -m pytest``: tests/ and notebooks/) in a course
    holding a student's copies: the copies are deselected (they would be run and compared with
    outputs the student changed); a copy named on the command line is still collected."""
    for name in ("pyproject.toml", "tests/conftest.py", "tests/system_tools.py"):
        (course / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, course / name)
    shutil.copytree(ROOT / "tools", course / "tools", ignore=shutil.ignore_patterns("__py*"))
    shutil.copy(ROOT / "tests" / "nbval_sanitize.cfg", course / "tests" / "nbval_sanitize.cfg")
    named = "notebooks/04_list_scheduling-Copy1.ipynb"
    cmd = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-n", "0"]
    run = subprocess.run(
        [*cmd, "tests", "notebooks", named], cwd=course, capture_output=True, text=True
    )
    assert run.returncode == 0, run.stdout + run.stderr
    files = {line.split("::")[0] for line in run.stdout.splitlines() if "::" in line}
    assert files == {
        "notebooks/04_list_scheduling.ipynb",
        "notebooks/zh/04_列表调度.ipynb",
        named,
    }, run.stdout


def test_in_this_course_every_tracked_chapter_and_problem_set_counts():
    for folder in ("notebooks", "exercises", "notebooks/zh", "exercises/zh"):
        listed = course_files.numbered(ROOT / folder)
        assert len(listed) >= 12, folder
        tracked = course_files.tracked(ROOT)
        assert tracked is not None
        assert {p.relative_to(ROOT).as_posix() for p in listed} == {
            f
            for f in tracked
            if f.startswith(folder + "/")
            and f.count("/") == folder.count("/") + 1
            and course_files.COURSE_NAME.match(f.rsplit("/", 1)[1])
        }
