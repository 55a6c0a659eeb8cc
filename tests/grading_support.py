"""Submissions built from a committed exercise, shared by the grading tests
(tests/test_grading.py grades them in each set's one run; tests/test_grading_security.py grades
the attacks), and the demo problem set (tests/data/problem_set/99_demo.ipynb) that the tests of
the grading machinery use, so that they do not change when a course problem set is rewritten."""

from __future__ import annotations

from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
#: the demo problem set's master: values (one of a type its solution does not record), functions
#: on plain data, 0-point feedback cases (a type check, a mutation check), a manual question with
#: a rubric
DEMO = ROOT / "tests" / "data" / "problem_set" / "99_demo.ipynb"


def demo_course(folder: Path) -> dict[str, Path]:
    """A course folder holding the demo set: ``solutions/`` (its master), ``exercises/`` (its
    student notebook, made by ``lecturekit assign``'s code) and ``build/`` (its autograder)."""
    import shutil

    from lecturekit.grading import assign_one

    (folder / "solutions").mkdir(parents=True, exist_ok=True)
    master = folder / "solutions" / DEMO.name
    shutil.copy(DEMO, master)
    (folder / "notebooks").mkdir(exist_ok=True)
    exercise = assign_one(master, folder / "exercises", folder / "build")
    return {
        "course": folder,
        "master": master,
        "exercise": exercise,
        "solutions": folder / "solutions",
        "build": folder / "build",
        "autograder": folder / "build" / DEMO.stem / "autograder" / DEMO.name,
    }


def exercise_with(
    master: Path,
    answers: dict[str, str],
    extra: list[tuple[str, str]],
    exercise: Path | None = None,
) -> object:
    """The exercise (default: the committed one of ``master``) with some answer cells replaced
    (``name -> source`` for the cell that assigns/defines ``name``) and extra cells inserted after
    the cell defining a name (``("", src)``: right after the first cell)."""
    from lecturekit.i18n import problems_name

    exercise = exercise or ROOT / "exercises" / problems_name(master.stem)
    nb = nbformat.read(str(exercise), as_version=4)
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for name, source in answers.items():
            if cell.source.startswith((f"{name} =", f"def {name}(")):
                cell.source = source
    for after, source in extra:
        at = 1
        if after:
            at = 1 + next(
                i
                for i, c in enumerate(nb.cells)
                if c.cell_type == "code" and c.source.startswith((f"{after} =", f"def {after}("))
            )
        nb.cells.insert(at, nbformat.v4.new_code_cell(source))
    return nb


def library_wrapper(name: str) -> str:
    """A function ``name`` that answers with the library: lecturekit (imported in the notebook,
    where the student may explore with it) does the work, and a networkx import stands beside
    it. Graded, it cannot run: the function's interpreter has neither."""
    return (
        "import lecturekit, networkx\n"
        f"def {name}(*args, **kwargs):\n"
        "    found = lecturekit.core.bounds.heights, networkx.topological_sort\n"
        "    return found[0](*args)"
    )
