"""Submissions built from a committed exercise, shared by the grading tests
(tests/test_grading.py grades them in each set's one run; tests/test_grading_security.py grades
the attacks)."""

from __future__ import annotations

from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]


def exercise_with(master: Path, answers: dict[str, str], extra: list[tuple[str, str]]) -> object:
    """The committed exercise with some answer cells replaced (``name -> source`` for the cell
    that assigns/defines ``name``) and extra cells inserted after the cell defining a name
    (``("", src)``: right after the first cell)."""
    nb = nbformat.read(str(ROOT / "exercises" / master.name), as_version=4)
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
