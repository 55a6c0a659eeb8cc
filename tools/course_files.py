"""Which notebooks are the course's own, and which are a person's copies beside them.

Students save copies next to the originals (JupyterLab's ``04_list_scheduling-Copy1.ipynb``, a
"Save As" under any name, in ``exercises/``, ``exercises/zh/`` or ``notebooks/``), as the README
invites them to. The course home (``tools/course_home.py``) and the tests must see only the
course's own files, or a student's copy would appear on the home page, be validated as a chapter,
or fail a test that pairs every problem set with its solution.

The course's files are those git tracks (``git ls-files``: committed or added; generated ones such
as ``exercises/`` and the Chinese editions are committed too). Where the course is not a git work
tree (an unpacked archive) or git is not installed, a numbered notebook counts when its name
follows the course's pattern: ``NN_topic.ipynb`` (lower-case words joined by ``_``; a problem set
``NN_topic_problems.ipynb``) or, in the Chinese edition, ``NN_<中文标题>.ipynb`` and
``NN_<中文标题>_习题.ipynb`` (:mod:`lecturekit.i18n` makes these names), which copies made by
JupyterLab (``-Copy1``), by a browser download (`` (1)``) or by hand (``Untitled``) do not. A new
chapter is seen once ``git add`` has added it.
"""

from __future__ import annotations

import functools
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: a chapter or problem set: two digits, then lower-case words joined by underscores, or (the
#: Chinese edition) a Chinese title, ``_习题`` after it for a problem set
COURSE_NAME = re.compile(
    r"\d\d_(?:[a-z0-9]+(?:_[a-z0-9]+)*|[\u3400-\u9fff]+(?:_[\u3400-\u9fff]+)*)\.ipynb\Z"
)


@functools.cache
def tracked(root: Path = ROOT) -> frozenset[str] | None:
    """The paths git tracks under ``root`` (relative, ``/``-separated), or None where ``root``
    is not in a git work tree or git cannot be run."""
    try:
        listed = subprocess.run(
            ["git", "-C", str(root), "ls-files", "-z"],  # paths relative to root
            capture_output=True,
            text=True,
            timeout=60,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if listed.returncode != 0:
        return None
    return frozenset(p for p in listed.stdout.split("\0") if p)


def is_course_file(path: Path, root: Path = ROOT) -> bool:
    """Whether ``path`` (a file under ``root``) belongs to the course rather than being a
    person's own file: tracked by git, or, without git, a notebook named ``NN_topic.ipynb``."""
    files = tracked(Path(root))
    if files is None:
        return path.suffix != ".ipynb" or bool(COURSE_NAME.match(path.name))
    try:
        rel = Path(path).resolve().relative_to(Path(root).resolve()).as_posix()
    except ValueError:
        return False
    return rel in files


def numbered(folder: Path, root: Path = ROOT) -> list[Path]:
    """The course's numbered notebooks in ``folder`` (``NN_topic.ipynb``,
    ``NN_topic_problems.ipynb``, ``NN_列表调度.ipynb`` ...), sorted (copies left out)."""
    return sorted(
        p
        for p in Path(folder).glob("[0-9][0-9]_*.ipynb")
        if COURSE_NAME.match(p.name) and is_course_file(p, root)
    )
