"""What a student reads never names the course's internal source files: the lecture's slides and
notes reach us as text files (``000_01c68b4250782e53.txt``, "notes 003" in a docstring), but a
student knows them by their titles (the slides, the notes on NCCL), so no chapter, problem set,
translation, README, course home or glossary says "笔记 003" or "000_*.txt"."""

from __future__ import annotations

import json
import re
from pathlib import Path

import course_files
import pytest

ROOT = Path(__file__).resolve().parents[1]
#: a source file's name (000_<hex>.txt, 001_*.txt) or a numbered reference to one ("notes 002";
#: "幻灯片 440" is a number the slide shows)
INTERNAL = re.compile(
    r"\b0\d\d_(?:[0-9a-f]{8,}|\*)(?:\.txt)?|\b(?:notes?|slides?|seeds?)\s+0\d\d\b"
    r"|(?:笔记|讲义|幻灯片|课件)\s*(?:第\s*)?0\d\d",
    re.I,
)


def student_files() -> list[str]:
    tracked = course_files.tracked(ROOT) or frozenset()
    return sorted(
        path
        for path in tracked
        if re.match(r"(notebooks|exercises|translations)/", path)
        and path.endswith((".ipynb", ".yaml"))
        or path in ("README.md", "README.zh.md", "index.ipynb", "glossary.ipynb")
    )


def texts(path: Path) -> list[str]:
    """A notebook's markdown and outputs (its code cells are code); a file's text."""
    if path.suffix != ".ipynb":
        return [path.read_text(encoding="utf-8")]
    found = []
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] != "code":
            found.append("".join(cell["source"]))
        for out in cell.get("outputs", []):
            text = out.get("text") or out.get("data", {}).get("text/plain", "")
            found.append("".join(text) if isinstance(text, list) else text)
    return found


def test_the_check_finds_internal_names():
    for said in ("(000_01c68b4250782e53.txt)", "the notes 003 say", "笔记 003 中", "001_*.txt"):
        assert INTERNAL.search(said), said
    for said in ("1_000_000 tokens", "the notes say", "笔记中的图接入", "幻灯片 440 个"):
        assert not INTERNAL.search(said), said


@pytest.mark.parametrize("name", student_files())
def test_no_internal_source_file_is_named(name):
    found = [m.group(0) for text in texts(ROOT / name) for m in INTERNAL.finditer(text)]
    assert not found, f"{name} names the course's internal files: {found}"
