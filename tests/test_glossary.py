"""The 术语表 (glossary) and the Chinese chapters agree.

* Every row links a chapter that exists, and the chapter uses the term in its prose, section by
  section: some section (a heading and the markdown under it) of the English chapter holds the
  English term as a whole word (``SP`` is not found inside ``display``, a plural counts) and
  some section of the Chinese edition the Chinese term. A row that links a chapter which never
  names the term fails, naming the chapter and where the other edition has it.
* The Chinese text uses the glossary's terms, not their variants (:data:`VARIANTS`): each
  Chinese chapter's prose, the glossary itself and lecturekit's message catalog are searched, and
  every variant found is reported with chapter, cell id and the term to use instead.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from lecturekit import i18n

ROOT = Path(__file__).resolve().parents[1]
GLOSSARY = ROOT / "glossary.ipynb"
ROW = re.compile(r"^\| (.+?) \| (.+?) \| (.+?) \| \[(\d\d)\]\((.+?)\) \|$", re.M)
CATALOG = ROOT / "lecturekit" / "locale" / "zh" / "LC_MESSAGES" / "lecturekit.po"

#: glossary term -> (English, the variants that must not be used: regular expressions)
VARIANTS = {
    "交互控件": ("widget", [r"(?<!步进)小部件", r"小组件", r"(?<!交互)(?<!探索)(?<!步进)控件"]),
    "单步演示器": ("stepper", [r"步进小部件", r"步进器", r"步进控件", r"单步器"]),
    "探索器": ("explorer", [r"探索工具", r"探索控件", r"浏览器\s*[（(]\s*explorer"]),
    "阻塞": ("stall", [r"停顿"]),
    "功能单元": ("functional unit", [r"功能部件", r"(?<!小)(?<!功能)(?<!零)部件"]),
    "递推": ("recurrence", [r"递归依赖", r"递归约束", r"递归环"]),
    "递推约束下界": ("RecMII", [r"递归约束下界"]),
}


def _cells(path: Path) -> list[dict]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    for c in cells:
        c["text"] = "".join(c["source"]) if isinstance(c["source"], list) else c["source"]
    return cells


def rows() -> list[tuple[str, ...]]:
    return [
        r for c in _cells(GLOSSARY) if c["cell_type"] == "markdown" for r in ROW.findall(c["text"])
    ]


def names(english: str, chinese: str) -> tuple[list[str], list[str]]:
    """(English names, Chinese names) a chapter may write the term with: the English without
    its parenthesis, each '/' alternative, each parenthesised alternative (an acronym such as
    ``RecMII`` counts in either edition); the Chinese likewise."""

    def plain(text: str) -> str:
        return re.sub(r"\s*\(.*?\)", "", text)

    extra = [x.strip() for x in re.findall(r"\((.*?)\)", english + chinese)]
    en = [plain(english), *plain(english).split("/"), *extra]
    en += [n.replace("ization", "isation") for n in en if "ization" in n]  # either spelling
    zh = [*plain(chinese).split("/"), *extra]
    clean = lambda found: sorted({n.strip().strip("`") for n in found if len(n.strip()) >= 2})  # noqa: E731
    return clean(en), clean(zh)


def used(name: str, text: str) -> bool:
    """``name`` in ``text`` as a term: a whole word for Latin names (acronyms in capitals match
    case-sensitively), a plain substring for Chinese ones."""
    if re.search(r"[\u4e00-\u9fff]", name):
        return name in text
    flags = 0 if name.isupper() else re.I
    plural = "" if name.isupper() else "(?:s|es)?"
    pattern = rf"(?<![A-Za-z0-9]){re.escape(name)}{plural}(?![A-Za-z0-9])"
    return re.search(pattern, text, flags) is not None


def sections(path: Path) -> dict[str, str]:
    """Heading cell id -> the prose of that section (the heading's cell and the markdown cells
    up to the next heading)."""
    found: dict[str, str] = {}
    current = "top"
    for c in _cells(path):
        if c["cell_type"] != "markdown":
            continue
        if c["text"].lstrip().startswith("#"):
            current = c.get("id", current)
        found[current] = found.get(current, "") + "\n" + c["text"]
    return found


def test_glossary_has_every_part_of_the_course():
    chapters = {r[3] for r in rows()}
    numbers = {p.name[:2] for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")}
    assert len(rows()) >= 80
    assert chapters <= numbers
    assert {"01", "03", "04", "07", "08", "09", "10", "11"} <= chapters


def test_the_glossary_defines_every_enforced_term():
    defined = {re.sub(r"\s*\(.*?\)", "", r[0]).strip() for r in rows()}
    assert set(VARIANTS) <= defined, set(VARIANTS) - defined


@pytest.mark.parametrize("row", rows(), ids=lambda r: r[1])
def test_each_term_links_the_chapter_section_that_uses_it(row):
    chinese, english, _meaning, number, link = row
    path = ROOT / link.partition("#")[0]
    assert path.exists(), f"the glossary links {link}, which does not exist"
    assert path.name.startswith(number), f"{english}: link {link} is not chapter {number}"
    en_names, zh_names = names(english, chinese)
    en_sections = sections(path)
    zh_path = i18n.edition_path(ROOT, path)
    zh_sections = sections(zh_path) if zh_path.exists() else None
    en_hits = [cid for cid, t in en_sections.items() if any(used(n, t) for n in en_names)]
    assert en_hits, f"{english}: no section of chapter {number} uses {en_names} (English)"
    if zh_sections is not None:
        zh_hits = [cid for cid, t in zh_sections.items() if any(used(n, t) for n in zh_names)]
        assert zh_hits, (
            f"{chinese}: no section of the Chinese chapter {number} uses {zh_names} (the English "
            f"does, in sections {en_hits[:5]}: translate the term as the glossary does there)"
        )


def test_term_matching_is_by_word_not_substring():
    """The check above is not the old substring test: ``SP`` is not found in ``display`` or
    ``ResMII``, and a chapter without the term fails."""
    assert not used("SP", "the display shows ResMII and a WASP")
    assert used("SP", "TP with SP splits LayerNorm")
    assert used("sequence parallelism", "Sequence parallelism splits")
    assert not used("stall", "the installation")
    assert used("hazard", "data hazards") and used("stall", "two stalls")
    assert used("序列并行", "再加上序列并行")


def _zh_prose() -> list[tuple[str, str, str]]:
    """(where, cell id, text): the Chinese chapters' and problem sets' markdown, and the
    glossary's."""
    found = []
    for path in [
        *sorted((ROOT / "notebooks" / "zh").glob("*.ipynb")),
        *sorted((ROOT / "exercises" / "zh").glob("*.ipynb")),
        GLOSSARY,
    ]:
        where = path.relative_to(ROOT).as_posix()
        for c in _cells(path):
            if c["cell_type"] == "markdown":
                found.append((where, c.get("id", "?"), c["text"]))
    return found


def variants_in(text: str) -> list[tuple[str, str]]:
    """(variant found, term to use) for every variant of :data:`VARIANTS` in ``text`` (a
    glossary note that names a variant not to use, （不作“停顿”）, is not a use, and neither is a
    quotation of the slides or notes in “…”: their words are quoted as they are)."""
    text = re.sub(r"（不作[^）]*）", "", text)
    text = re.sub(r"“[^”]*”", "", text)
    found = []
    for term, (_english, patterns) in VARIANTS.items():
        for pattern in patterns:
            for m in re.finditer(pattern, text):
                found.append((m.group(0), term))
    return found


def test_the_variant_check_finds_what_the_review_found():
    assert variants_in("用步进小部件看") == [("步进小部件", "单步演示器")]
    assert variants_in("浏览器（explorer）") == [("浏览器（explorer", "探索器")]
    assert variants_in("交互控件与探索器、功能单元、传递归约") == []
    assert [v for v, _t in variants_in("功能部件和部件")] == ["功能部件", "部件"]
    assert variants_in("递归约束下界") == [("递归约束", "递推"), ("递归约束下界", "递推约束下界")]
    assert variants_in("笔记写的是“每个指令部件每次仅译码一条指令”") == []
    assert variants_in("“引文”之外的部件") == [("部件", "功能单元")]


@pytest.mark.parametrize(
    "where",
    sorted({w for w, _c, _t in _zh_prose()}),
    ids=lambda w: w.replace("/", "-"),
)
def test_the_chinese_uses_the_glossarys_terms(where):
    found = [
        f"{where} cell {cid}: {variant!r} -> {term} ({VARIANTS[term][0]})"
        for w, cid, text in _zh_prose()
        if w == where
        for variant, term in variants_in(text)
    ]
    assert not found, "use the glossary's term:\n" + "\n".join(found)


def test_the_catalog_uses_the_glossarys_terms():
    """lecturekit's own Chinese (the message catalog) keeps to the glossary too."""
    found = [
        f"{CATALOG.name} line {k}: {variant!r} -> {term}"
        for k, line in enumerate(CATALOG.read_text(encoding="utf-8").splitlines(), 1)
        if line.startswith("msgstr")
        for variant, term in variants_in(line)
    ]
    assert not found, "\n".join(found)
