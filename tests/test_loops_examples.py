"""The example loops (lecturekit.loops.examples): the program text is the shipped file's in
English; in Chinese its prose comments are Chinese and its instructions the same."""

import re
from importlib import resources

import pytest

from lecturekit.language import using
from lecturekit.loops import analyze_loop
from lecturekit.loops.examples import COMMENTS, EXAMPLES, example, example_state
from lecturekit.loops.interp import compare


def shipped(name: str) -> str:
    return resources.files("lecturekit").joinpath(f"data/examples/{name}.s").read_text("utf-8")


def comments(text: str) -> list[str]:
    return [line.partition("#")[2].strip() for line in text.splitlines() if "#" in line]


def code(text: str) -> list[str]:
    return [line.partition("#")[0].rstrip() for line in text.splitlines()]


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_english_text_is_the_shipped_file(name):
    with using("en"):
        assert example(name) == shipped(name)


def test_every_prose_comment_is_in_the_catalog_list_and_none_is_stale():
    shown = {c for name in EXAMPLES for c in comments(shipped(name))}
    # prose: two words of three letters or more (``B[j]``, ``a[i-1] * x`` are code)
    prose = {c for c in shown if len(re.findall(r"\b[A-Za-z]{3,}\b", c)) >= 2}
    assert prose <= set(COMMENTS), prose - set(COMMENTS)
    assert set(COMMENTS) <= shown, set(COMMENTS) - shown


@pytest.mark.parametrize("name", EXAMPLES)
def test_in_chinese_the_comments_are_chinese_and_the_program_the_same(name):
    with using("zh"):
        zh = example(name)
    en = shipped(name)
    assert code(zh) == code(en)
    translated = [c for c in comments(en) if c in COMMENTS]
    assert translated
    for c in translated:
        assert c not in comments(zh)
    assert [i.text for i in analyze_loop(zh).body] == [i.text for i in analyze_loop(en).body]
    for n in (1, 5):
        assert compare(en, zh, *example_state(name, n, seed=n)) == []
