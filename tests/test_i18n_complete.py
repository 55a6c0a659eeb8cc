"""Every chapter (notebooks/NN_*.ipynb) and every problem set (exercises/NN_*_problems.ipynb) has
a current Chinese edition: a translation file with no missing or stale cell or message, and the
notebook ``lecturekit translate build`` makes from it today. (tests/test_i18n.py checks the
translations that exist; this one fails when a chapter or problem set has none, e.g. one added
later without a translation.)"""

from pathlib import Path

import pytest
from course_files import numbered

from lecturekit import i18n

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = numbered(ROOT / "notebooks")  # the course's own: never a student's copy
PROBLEM_SETS = numbered(ROOT / "exercises")


def test_every_chapter_and_problem_set_is_an_edition_source():
    """The sources i18n knows are exactly the numbered chapters and problem sets."""
    assert len(CHAPTERS) >= 12 and len(PROBLEM_SETS) >= 12
    sources = set(i18n.english_sources(ROOT))
    assert set(CHAPTERS) | set(PROBLEM_SETS) <= sources


@pytest.mark.parametrize(
    "source", CHAPTERS + PROBLEM_SETS, ids=lambda p: f"{p.parent.name}/{p.stem}"
)
def test_has_a_current_chinese_edition(source):
    rel = source.relative_to(ROOT).as_posix()
    translation = i18n.translation_path(ROOT, source)
    assert translation.exists(), (
        f"{rel} has no Chinese translation: run `lecturekit translate sync {rel}` and translate"
    )
    problems = i18n.check_one(source, translation, rel)
    assert not problems, "\n".join(map(str, problems))
    edition = i18n.edition_path(ROOT, source)
    assert edition.exists(), f"run `lecturekit translate build {rel}` to make {edition}"
    # outputs aside: the edition's are its own (it runs in Chinese), checked by nbval
    problems = i18n.edition_problems(source, translation, edition, root=ROOT)
    assert not problems, "\n".join(map(str, problems))


def test_every_notebook_of_a_chapter_has_its_own_name():
    """Every chapter has a short Chinese title in lecturekit.i18n.TITLES (its edition's file name),
    a problem set made from the master of the same name, and each of the four notebooks of a
    number is named apart (a tab in JupyterLab shows only the file name) and maps back to its
    English source and its chapter."""
    solutions = sorted((ROOT / "solutions").glob("[0-9][0-9]_*.ipynb"))
    assert [p.stem for p in CHAPTERS] == list(i18n.TITLES["zh"]), (
        "a chapter without a Chinese title (or a title without a chapter) in i18n.TITLES"
    )
    assert [p.name for p in PROBLEM_SETS] == [i18n.problems_name(m.stem) for m in solutions]
    for source in CHAPTERS + PROBLEM_SETS:
        edition = i18n.edition_path(ROOT, source)
        assert edition.exists() and i18n.english_source(ROOT, edition) == source
        assert (
            i18n.topic_of(edition)
            == i18n.topic_of(source)
            == source.name[:2]
            + (source.stem.removeprefix(source.name[:2]).removesuffix("_problems"))
        )
    names = [p.name for p in CHAPTERS + PROBLEM_SETS]
    names += [i18n.edition_path(ROOT, p).name for p in CHAPTERS + PROBLEM_SETS]
    assert len(set(names)) == len(names)
    titles = list(i18n.TITLES["zh"].values())
    assert len(set(titles)) == len(titles) and all(2 <= len(t) <= 10 for t in titles)
