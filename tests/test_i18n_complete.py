"""Every chapter (notebooks/NN_*.ipynb) and every problem set (exercises/NN_*.ipynb) has a
current Chinese edition: a translation file with no missing or stale cell or message, and the
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
