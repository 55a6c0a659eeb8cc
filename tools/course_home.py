"""Write the course home page, ``index.ipynb``: every chapter, its problem set, how to check.

Usage: python tools/course_home.py          (rewrites index.ipynb at the repository root)

The README's "open the course" command opens this page in JupyterLab with the repository root as
the server root, so its links reach both ``notebooks/`` and ``exercises/``. The table is built
from the files that exist (``notebooks/NN_*.ipynb``, ``exercises/NN_*.ipynb``) and their first
heading; tests/test_course_home.py fails when the committed page is not what this script makes
(a chapter or problem set added without running it, say).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
HOME = "index.ipynb"

INTRO = """\
# 面向目标机器的代码优化——指令并行与调度 · Course home

Target-machine code optimization: instruction-level parallelism and scheduling, and the frontier
section 大模型的流水并行训练 (parallel training of large models). Every figure in the chapters is
computed by the `lecturekit` library, every schedule can be stepped through with a widget, and
every answer in the problem sets can be checked.

**Chapters** (`notebooks/`): open one and run it top to bottom (*Run ▸ Run All Cells*); the
widgets (steppers, explorers) have a static figure or table beside them.

**Problem sets** (`exercises/`): one per chapter, see *Checking an answer* below."""

CHECKING = """\
## Checking an answer

1. Open the problem set and run its first cell (`grader = Grader(...)`). A copy saved under
   another name (`04_list_scheduling-Copy1.ipynb`) works just as well.
2. Answer each question in the cell marked `...`: a value (`q1_heights = [...]`) or the body of a
   function; run that cell.
3. Run the `grader.check("qN")` cell below it. It answers in a line or two:
   *q1 is not answered yet* while the answer is still `...`; the failing test's own message
   (*q1: 1 of 2 public tests pass. Not yet: every height is at least the tail*); the type expected
   (*q1_heights should be a list, not an int*); or *all 2 public test(s) pass*.
4. Your grade also uses hidden tests on inputs you have not seen: make functions right in
   general, not only for the example. Questions marked *by hand / explain* are read by your
   instructor.

Instructors: `lecturekit assign` regenerates `exercises/` from `solutions/`, `lecturekit grade`
grades a folder of submissions (see `README.md`). After adding a chapter or a problem set, run
`python tools/course_home.py` to update this page."""


def title(path: Path) -> str:
    """The first heading of a notebook, without ``#``, its number or "Problem set NN —"."""
    nb = nbformat.read(str(path), as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            for line in cell.source.splitlines():
                if line.startswith("#"):
                    text = line.lstrip("#").strip()
                    text = re.sub(r"^(Problem set\s+)?\d+\s*[·—-]\s*", "", text)
                    return text.replace("|", "/")
    return path.stem


def rows(root: Path = ROOT) -> list[tuple[str, Path | None, Path | None]]:
    """(number, chapter, problem set) for every number with a chapter or a problem set."""
    chapters = {p.name[:2]: p for p in (root / "notebooks").glob("[0-9][0-9]_*.ipynb")}
    sets = {p.name[:2]: p for p in (root / "exercises").glob("[0-9][0-9]_*.ipynb")}
    return [(n, chapters.get(n), sets.get(n)) for n in sorted(set(chapters) | set(sets))]


def link(path: Path | None, text: str, root: Path) -> str:
    return f"[{text}]({path.relative_to(root).as_posix()})" if path else "—"


def home(root: Path = ROOT) -> nbformat.NotebookNode:
    table = [
        "## Chapters and problem sets",
        "",
        "| | Chapter | Problem set |",
        "| --- | --- | --- |",
    ]
    for n, chapter, problems in rows(root):
        chapter_text = title(chapter) if chapter else ""
        table.append(
            f"| {n} | {link(chapter, chapter_text, root)} | "
            f"{link(problems, f'problem set {n}', root)} |"
        )
    nb = nbformat.v4.new_notebook()
    cells = [INTRO, "\n".join(table), CHECKING]
    nb.cells = [nbformat.v4.new_markdown_cell(text) for text in cells]
    for k, cell in enumerate(nb.cells):
        cell["id"] = f"home-{k}"
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nb.metadata["language_info"] = {"name": "python"}
    return nb


def write(root: Path = ROOT) -> Path:
    path = root / HOME
    nbformat.write(home(root), str(path))
    return path


if __name__ == "__main__":
    print(f"wrote {write(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT)}")
