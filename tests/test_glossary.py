"""The 术语表 (glossary): every row links a chapter that exists, and the term it defines is used
there (in English or in Chinese), so the glossary cannot drift away from the chapters."""

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
GLOSSARY = ROOT / "glossary.ipynb"
ROW = re.compile(r"^\| (.+?) \| (.+?) \| (.+?) \| \[(\d\d)\]\((.+?)\) \|$", re.M)


def rows():
    nb = nbformat.read(str(GLOSSARY), as_version=4)
    return [r for c in nb.cells if c.cell_type == "markdown" for r in ROW.findall(c.source)]


def names(english: str, chinese: str) -> list[str]:
    """The ways a chapter may write the term: the English without its parenthesis, each
    parenthesised alternative, each '/' alternative, and the Chinese term."""
    plain = re.sub(r"\s*\(.*?\)", "", english)
    found = [plain, *re.findall(r"\((.*?)\)", english + chinese), *plain.split("/")]
    found.append(re.sub(r"\s*\(.*?\)", "", chinese))
    return [n.strip().strip("`").lower() for n in found if len(n.strip()) >= 2]


def chapter_text(path: Path) -> str:
    texts = [" ".join(c.source for c in nbformat.read(str(path), as_version=4).cells)]
    zh = path.parent / "zh" / path.name
    if zh.exists():
        texts.append(" ".join(c.source for c in nbformat.read(str(zh), as_version=4).cells))
    return " ".join(texts).lower()


def test_glossary_has_every_part_of_the_course():
    chapters = {r[3] for r in rows()}
    numbers = {p.name[:2] for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")}
    assert len(rows()) >= 80
    assert chapters <= numbers
    assert {"01", "03", "04", "07", "08", "09", "10", "11"} <= chapters


@pytest.mark.parametrize("row", rows(), ids=lambda r: r[1])
def test_each_term_links_a_chapter_that_uses_it(row):
    chinese, english, _meaning, number, link = row
    path = ROOT / link
    assert path.exists(), f"the glossary links {link}, which does not exist"
    assert path.name.startswith(number), f"{english}: link {link} is not chapter {number}"
    text = chapter_text(path)
    assert any(n in text for n in names(english, chinese)), (
        f"{english} / {chinese}: chapter {number} uses none of {names(english, chinese)}"
    )
