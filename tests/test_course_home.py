"""The course home page (index.ipynb, opened by the README's command): it links every chapter and
every problem set that exists, and the Chinese edition (notebooks/zh, exercises/zh) of each that
exists, in the row of its number, and the glossary (术语表); every link leads to a file, and it
is what tools/course_home.py makes from the files today (so a chapter added later fails here
until the page is updated)."""

import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
HOME = ROOT / "index.ipynb"
sys.path.insert(0, str(ROOT / "tools"))

import course_files  # noqa: E402
import course_home  # noqa: E402

from lecturekit import i18n  # noqa: E402


def links():
    nb = nbformat.read(str(HOME), as_version=4)
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    return re.findall(r"\]\(([^)\s]+)\)", text)


def test_home_links_every_chapter_and_problem_set():
    linked = set(links())
    wanted = course_files.numbered(ROOT / "notebooks") + course_files.numbered(ROOT / "exercises")
    assert len(wanted) >= 22
    missing = [p.relative_to(ROOT).as_posix() for p in wanted]
    missing = [m for m in missing if m not in linked]
    assert not missing, f"index.ipynb does not link {missing}: run `python tools/course_home.py`"


def test_home_links_every_chinese_edition_beside_its_english_original():
    """Row NN: English chapter, 中文 chapter, problem set, 习题（中文）, in that order."""
    nb = nbformat.read(str(HOME), as_version=4)
    table = {
        line.split("|")[1].strip(): re.findall(r"\]\(([^)\s]+)\)", line)
        for line in nb.cells[1].source.splitlines()
        if re.match(r"\| \d\d \|", line)
    }
    zh = course_files.numbered(ROOT / "notebooks" / "zh")
    zh_sets = course_files.numbered(ROOT / "exercises" / "zh")
    assert len(zh) >= 12
    for path in zh + zh_sets:
        n = path.name[:2]
        english = i18n.english_source(ROOT, path)
        assert english is not None, f"{path}: no English notebook has this edition"
        wanted = [english.relative_to(ROOT).as_posix(), path.relative_to(ROOT).as_posix()]
        row = table.get(n, [])
        assert all(w in row for w in wanted), (
            f"index.ipynb row {n} does not link {wanted}: run `python tools/course_home.py`"
        )
        assert row.index(wanted[0]) + 1 == row.index(wanted[1]), row
    assert "glossary.ipynb" in links() and "术语表" in nb.cells[0].source


def test_every_link_leads_to_a_file_in_the_repository():
    for target in links():
        assert not target.startswith(("/", "..", "http")), target
        assert (ROOT / target).is_file(), f"index.ipynb links {target}, which does not exist"


def test_home_says_how_to_check_an_answer():
    nb = nbformat.read(str(HOME), as_version=4)
    text = "\n".join(c.source for c in nb.cells)
    assert 'grader.check("qN")' in text and "not answered yet" in text
    assert "## 检查答案" in text and "尚未作答" in text  # what the Chinese grader.check says


def test_home_is_what_the_script_makes_today(tmp_path):
    made = course_home.home(ROOT)
    committed = nbformat.read(str(HOME), as_version=4)
    assert [c.source for c in made.cells] == [c.source for c in committed.cells], (
        "index.ipynb is stale: run `python tools/course_home.py`"
    )


def test_a_chapter_added_later_is_missing_until_the_page_is_made_again(tmp_path):
    for folder in ("notebooks", "exercises", "notebooks/zh", "exercises/zh"):
        (tmp_path / folder).mkdir()
        for path in (ROOT / folder).glob("0[1-2]_*.ipynb"):
            (tmp_path / folder / path.name).write_bytes(path.read_bytes())
    course_home.write(tmp_path)
    before = nbformat.read(str(tmp_path / "index.ipynb"), as_version=4).cells[1].source
    new = nbformat.v4.new_notebook()
    new.cells = [nbformat.v4.new_markdown_cell("# 12 · Real compilers — 真实编译器")]
    nbformat.write(new, str(tmp_path / "notebooks" / "12_real_compilers.ipynb"))
    assert "12_real_compilers" not in before
    after = course_home.home(tmp_path).cells[1].source
    assert (
        "| 12 | [Real compilers — 真实编译器](notebooks/12_real_compilers.ipynb) | — | — | — |"
        in after
    )
    assert "[problem set 02](exercises/02_hazards_and_reordering_problems.ipynb)" in after
    assert "[习题 02](exercises/zh/02_冒险与重排_习题.ipynb)" in after
    # its Chinese edition appears in the 中文 column once it is built, under its own name
    zh = nbformat.v4.new_notebook()
    zh.cells = [nbformat.v4.new_markdown_cell("# 12 · 真实编译器 — Real compilers")]
    nbformat.write(zh, str(tmp_path / "notebooks" / "zh" / "12_real_compilers.ipynb"))
    assert "notebooks/zh/12" not in course_home.home(tmp_path).cells[1].source
    nbformat.write(zh, str(tmp_path / "notebooks" / "zh" / "12_真实编译器.ipynb"))
    after = course_home.home(tmp_path).cells[1].source
    assert "| [真实编译器](notebooks/zh/12_真实编译器.ipynb) | — | — |" in after


def test_a_chapters_four_notebooks_open_as_four_tabs():
    """JupyterLab names a tab after the file: a chapter, its Chinese edition, its problem set and
    the Chinese problem set have four different file names, each saying what it is."""
    for n, *four in course_home.rows(ROOT):
        assert all(four), f"row {n}: {four}"
        names = [p.name for p in four]
        assert len(set(names)) == 4, names
        chapter, zh_chapter, problems, zh_problems = names
        assert problems.endswith("_problems.ipynb") and zh_problems.endswith("_习题.ipynb")
        assert zh_problems == zh_chapter.removesuffix(".ipynb") + "_习题.ipynb"
        assert all(name.startswith(n + "_") for name in names)


def test_every_link_between_the_courses_notebooks_leads_to_a_file():
    """A chapter or problem set linking another notebook (chapter 10 points to chapter 15) links
    it by the name it has in its own folder: in notebooks/zh, 15_集群网络.ipynb."""
    pages = [ROOT / "glossary.ipynb"]
    for folder in ("notebooks", "exercises", "notebooks/zh", "exercises/zh"):
        pages += course_files.numbered(ROOT / folder)
    broken = []
    for page in pages:
        nb = nbformat.read(str(page), as_version=4)
        for cell in nb.cells:
            if cell.cell_type != "markdown":
                continue
            for target in re.findall(r"\]\(([^)\s#:]+\.ipynb)(?:#[^)\s]*)?\)", cell.source):
                if not (page.parent / target).is_file():
                    broken.append(f"{page.relative_to(ROOT)} cell {cell.get('id')}: {target}")
    assert not broken, "links to no file:\n" + "\n".join(broken)
