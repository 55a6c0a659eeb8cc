"""Write the course home page, ``index.ipynb``: every chapter, its problem set, how to check.

Usage: python tools/course_home.py          (rewrites index.ipynb at the repository root)

The README's "open the course" command opens this page in JupyterLab with the repository root as
the server root, so its links reach both ``notebooks/`` and ``exercises/``. The table is built
from the files that exist (``notebooks/NN_topic.ipynb``, ``exercises/NN_topic_problems.ipynb`` and
their Chinese editions ``notebooks/zh/NN_列表调度.ipynb``, ``exercises/zh/NN_列表调度_习题.ipynb``,
made by ``lecturekit translate build``; :mod:`lecturekit.i18n` names them) and their
first heading; the page also links the glossary (术语表) and says in English and in Chinese how
to check an answer; tests/test_course_home.py fails when the committed page is not what this
script makes (a chapter or problem set added without running it, say).

Only the course's own notebooks are listed (``tools/course_files.py``: what git tracks, so
``git add`` a new chapter first), never a student's copy saved beside them
(``04_list_scheduling_problems-Copy1.ipynb``); the script names the numbered notebooks it left out.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import nbformat
from course_files import COURSE_NAME, numbered

from lecturekit import i18n

ROOT = Path(__file__).resolve().parents[1]
HOME = "index.ipynb"
FOLDERS = ("notebooks", "exercises", "notebooks/zh", "exercises/zh")
PROBLEMS = i18n.PROBLEMS["en"]

INTRO = """\
# 面向目标机器的代码优化——指令并行与调度 · Course home

Target-machine code optimization: instruction-level parallelism and scheduling, and the frontier
section 大模型的流水并行训练 (parallel training of large models). Every figure in the chapters is
computed by the `lecturekit` library, every schedule can be stepped through with a widget, and
every answer in the problem sets can be checked.

**Chapters** (`notebooks/`): open one and run it top to bottom (*Run ▸ Run All Cells*); the
widgets (steppers, explorers) have a static figure or table beside them.

**Problem sets** (`exercises/`): one per chapter, see *Checking an answer* below.

**中文版**：每一章和每套习题都有中文版（`notebooks/zh/`、`exercises/zh/`，见下表的“中文”两列），
代码、测试与英文版完全相同，`grader.check` 的反馈也是中文。
术语对照见 [术语表 · Glossary](glossary.ipynb)。
Every chapter and problem set also exists in Chinese (the 中文 columns below); the
[glossary](glossary.ipynb) gives every term in both languages."""

CHECKING = """\
## Checking an answer

1. Open the problem set and run its first cell (`grader = Grader(...)`). A copy saved under
   another name (`04_list_scheduling_problems-Copy1.ipynb`) works just as well.
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

CHECKING_ZH = """\
## 检查答案（中文版习题）

1. 打开习题（`exercises/zh/` 中的中文版），先运行第一个单元格（`grader = Grader(...)`）。
   另存为其他名字的副本（如 `04_列表调度_习题-Copy1.ipynb`）同样可用。
2. 在标有 `...` 的单元格中作答：给出一个值（`q1_heights = [...]`）或补全函数体，然后运行该单元格。
3. 运行其下方的 `grader.check("qN")` 单元格，它用一两行中文回答：答案仍是 `...` 时显示
   *q1 尚未作答*；测试未通过时给出该测试自己的提示（*q1：2 个公开测试中通过 1 个。尚未通过：……*）；
   类型不对时指出应有的类型（*q1_heights 应为列表（list），而不是整数（int）*）；
   全部通过时显示 *2 个公开测试全部通过*。
4. 评分还会用你没见过的输入运行隐藏测试：函数要对一般情况正确，而不只是对示例正确。
   标为“手写 / 解释”的题目由教师批阅。中文版习题与英文版由同一个自动评分器、同一套测试评分。"""


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


def zh_title(path: Path) -> str:
    """The Chinese part of a Chinese edition's first heading ("现代处理器架构 — Processor ...")."""
    text = title(path)
    text = re.sub(r"^习题\s*\d+\s*[·—-]\s*", "", text)
    return text.split(" — ")[0].strip() or path.stem


def rows(root: Path = ROOT) -> list[tuple[str, Path | None, Path | None, Path | None, Path | None]]:
    """(number, chapter, 中文 chapter, problem set, 中文 problem set) for every number with a
    chapter or a problem set, each file where :mod:`lecturekit.i18n` names it (the four have
    four names, so that they open in JupyterLab as four tabs); one that does not exist (yet)
    is ``None``."""
    own = {p for folder in FOLDERS for p in numbered(root / folder, root)}

    def found(path: Path | None) -> Path | None:
        return path if path in own else None

    english = [p for folder in ("notebooks", "exercises") for p in numbered(root / folder, root)]
    chapters = {p.name[:2]: p for p in english if p.parent.name == "notebooks"}
    sets = {
        p.name[:2]: p for p in english if p.parent.name == "exercises" and p.stem.endswith(PROBLEMS)
    }
    return [
        (
            n,
            chapters.get(n),
            found(i18n.edition_path(root, chapters[n])) if n in chapters else None,
            sets.get(n),
            found(i18n.edition_path(root, sets[n])) if n in sets else None,
        )
        for n in sorted(set(chapters) | set(sets))
    ]


def link(path: Path | None, text: str, root: Path) -> str:
    return f"[{text}]({path.relative_to(root).as_posix()})" if path else "—"


def home(root: Path = ROOT) -> nbformat.NotebookNode:
    table = [
        "## Chapters and problem sets",
        "",
        "| | Chapter | 中文 | Problem set | 习题（中文） |",
        "| --- | --- | --- | --- | --- |",
    ]
    for n, chapter, zh_chapter, problems, zh_problems in rows(root):
        chapter_text = title(chapter) if chapter else ""
        zh_text = zh_title(zh_chapter) if zh_chapter else ""
        table.append(
            f"| {n} | {link(chapter, chapter_text, root)} | {link(zh_chapter, zh_text, root)} | "
            f"{link(problems, f'problem set {n}', root)} | "
            f"{link(zh_problems, f'习题 {n}', root)} |"
        )
    nb = nbformat.v4.new_notebook()
    cells = [INTRO, "\n".join(table), CHECKING, CHECKING_ZH]
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


def left_out(root: Path = ROOT) -> list[Path]:
    """Numbered notebooks in the course's folders that are not the course's own: a student's
    copy, or a new chapter git does not track yet."""
    listed = {p for row in rows(root) for p in row[1:] if p}
    return sorted(
        p for f in FOLDERS for p in (root / f).glob("[0-9][0-9]*.ipynb") if p not in listed
    )


def write(root: Path = ROOT) -> Path:
    path = root / HOME
    nbformat.write(home(root), str(path))
    return path


if __name__ == "__main__":
    course = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT
    print(f"wrote {write(course)}")
    for p in left_out(course):
        why = (
            "not a course notebook's name"
            if not COURSE_NAME.match(p.name)
            else "not tracked by git"
        )
        print(f"left out {p.relative_to(course).as_posix()} ({why}; `git add` a new chapter)")
