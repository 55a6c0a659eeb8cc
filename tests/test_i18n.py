"""The Chinese edition: translations keyed by cell id, staleness named by notebook and cell, and
generated notebooks that carry the English code and outputs unchanged."""

import re
from pathlib import Path

import nbformat
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from lecturekit import i18n
from lecturekit.cli import main

ROOT = Path(__file__).resolve().parents[1]


def make_course(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("# Chapter 4\n\nList scheduling.", id="intro"),
        nbformat.v4.new_code_cell("x = 1 + 1\nx", id="code1"),
        nbformat.v4.new_markdown_cell("The **critical path** bounds the schedule.", id="cp"),
    ]
    nb.cells[1].outputs = [
        nbformat.v4.new_output("execute_result", {"text/plain": "2"}, execution_count=1)
    ]
    nb.cells[1].execution_count = 1
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "solutions").mkdir()
    src = tmp_path / "notebooks" / "04_list_scheduling.ipynb"
    nbformat.write(nb, str(src))
    return src


def translate_all(path, texts):
    entries = i18n.load(path)
    for e in entries:
        e["zh"] = texts[e["id"]]
        e.pop("stale", None)
        e.pop("en_was", None)
    i18n.save(path, "notebooks/04_list_scheduling.ipynb", entries)


ZH = {"intro": "# 第四章\n\n列表调度。", "cp": "**关键路径**给出调度长度的下界。"}


def test_sync_then_translate_then_build(tmp_path):
    src = make_course(tmp_path)
    tr = i18n.translation_path(tmp_path, src)
    assert tr == tmp_path / "translations/zh/notebooks/04_list_scheduling.yaml"
    counts = i18n.sync(src, tr, "notebooks/04_list_scheduling.ipynb")
    assert counts == {"added": 2, "stale": 0, "removed": 0, "kept": 0}
    missing = i18n.check_one(src, tr, "04")
    assert [(p.cell, p.kind) for p in missing] == [("intro", "missing"), ("cp", "missing")]
    with pytest.raises(i18n.TranslationError, match="cell intro: missing"):
        i18n.build_one(src, tr, tmp_path / "out.ipynb")

    translate_all(tr, ZH)
    assert i18n.check_one(src, tr) == []
    out = i18n.build_one(src, tr, i18n.edition_path(tmp_path, src))
    assert out == tmp_path / "notebooks/zh/04_列表调度.ipynb"
    en, zh = (nbformat.read(str(p), as_version=4) for p in (src, out))
    assert [c.id for c in zh.cells] == [c.id for c in en.cells]
    assert zh.cells[0].source == ZH["intro"] and zh.cells[2].source == ZH["cp"]
    # code, outputs and execution counts are the English ones, untouched
    assert zh.cells[1] == en.cells[1]
    assert zh.metadata["lecturekit"]["edition"] == "zh"


def test_a_changed_english_cell_is_stale_and_named(tmp_path):
    src = make_course(tmp_path)
    tr = i18n.translation_path(tmp_path, src)
    i18n.sync(src, tr, "x")
    translate_all(tr, ZH)
    nb = nbformat.read(str(src), as_version=4)
    nb.cells[2].source = "The critical path is a **lower bound**."
    nbformat.write(nb, str(src))

    (problem,) = i18n.check_one(src, tr, "notebooks/04_list_scheduling.ipynb")
    assert (problem.notebook, problem.cell, problem.kind) == (
        "notebooks/04_list_scheduling.ipynb",
        "cp",
        "stale",
    )
    assert "notebooks/04_list_scheduling.ipynb: cell cp: stale" in str(problem)

    # sync keeps the old translation for the translator, with both English texts, marked stale
    assert i18n.sync(src, tr, "x")["stale"] == 1
    (entry,) = [e for e in i18n.load(tr) if e["id"] == "cp"]
    assert entry["stale"] is True
    assert entry["en_was"] == "The **critical path** bounds the schedule."
    assert entry["en"] == "The critical path is a **lower bound**."
    assert entry["zh"] == ZH["cp"]
    assert [p.kind for p in i18n.check_one(src, tr)] == ["stale"]  # still stale until reviewed
    # a second sync remembers what the translation was written for
    i18n.sync(src, tr, "x")
    assert [e for e in i18n.load(tr) if e["id"] == "cp"][0]["en_was"] == entry["en_was"]


def test_removed_and_duplicate_cells(tmp_path):
    src = make_course(tmp_path)
    tr = i18n.translation_path(tmp_path, src)
    i18n.sync(src, tr, "x")
    translate_all(tr, ZH)
    entries = i18n.load(tr)
    i18n.save(tr, "x", entries + [{"id": "gone", "en": "old", "zh": "旧"}, entries[0]])
    kinds = sorted((p.cell, p.kind) for p in i18n.check_one(src, tr))
    assert kinds == [("gone", "orphan"), ("intro", "duplicate")]
    assert i18n.sync(src, tr, "x")["removed"] == 1
    assert i18n.check_one(src, tr) == []


def test_bad_translation_files_are_named(tmp_path):
    bad = tmp_path / "t.yaml"
    bad.write_text("cells: [1, 2]\n", encoding="utf-8")
    with pytest.raises(i18n.TranslationError, match=r"t.yaml: entry 1 has no string 'id'"):
        i18n.load(bad)
    bad.write_text("cells:\n  - id: a\n    zh: [x]\n", encoding="utf-8")
    with pytest.raises(i18n.TranslationError, match=r"cell a: 'zh' must be text"):
        i18n.load(bad)
    bad.write_bytes(b"\xff\xfe")
    with pytest.raises(i18n.TranslationError, match="cannot read"):
        i18n.load(bad)


texts = st.text(st.characters(blacklist_categories=("Cs",)), max_size=80)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(en=texts, zh=texts)
@example(en="\x85", zh="a\u2028b\r\nc")
@example(en="line\n  indented\n", zh=" lead\ttab \n")
def test_translation_files_keep_text_exactly(tmp_path_factory, en, zh):
    path = tmp_path_factory.mktemp("rt") / "t.yaml"
    i18n.save(path, "x", [{"id": "c", "en": en, "zh": zh}])
    (entry,) = i18n.load(path)
    assert entry["en"] == en and (entry["zh"] or "") == zh


def test_cli_status_sync_build(tmp_path, monkeypatch, capsys):
    src = make_course(tmp_path)
    monkeypatch.chdir(tmp_path / "notebooks")
    assert main(["translate", "sync"]) == 0
    assert "2 added" in capsys.readouterr().out
    assert main(["translate", "status"]) == 1
    out = capsys.readouterr().out
    assert "notebooks/04_list_scheduling.ipynb: cell intro: missing" in out
    assert main(["translate", "build"]) == 2  # refuses: not translated
    assert "not current" in capsys.readouterr().err
    translate_all(i18n.translation_path(tmp_path, src), ZH)
    assert main(["translate", "status", "04"]) == 1  # translated, not built yet
    assert "cell *: stale (not built" in capsys.readouterr().out
    assert main(["translate", "build"]) == 0
    out = capsys.readouterr().out
    assert "wrote notebooks/zh/04_列表调度.ipynb" in out
    assert "ran notebooks/zh/04_列表调度.ipynb in zh" in out
    assert main(["translate", "status", "04"]) == 0
    built = nbformat.read(str(tmp_path / "notebooks/zh/04_列表调度.ipynb"), as_version=4)
    assert built.cells[1].outputs[0]["data"]["text/plain"] == "2"  # run, not copied
    assert "execution" not in built.cells[1].metadata
    # a changed English code cell makes the built edition stale, named by cell
    nb = nbformat.read(str(src), as_version=4)
    nb.cells[1].source = "x = 2 + 2\nx"
    nbformat.write(nb, str(src))
    assert main(["translate", "status"]) == 1
    assert "cell code1: stale (the code is not the English notebook's" in capsys.readouterr().out
    # relative paths: a notebook and the course, both from another folder
    monkeypatch.chdir(tmp_path / "notebooks")
    assert main(["translate", "sync", "04_list_scheduling.ipynb", "--course", ".."]) == 0
    assert "notebooks/04_list_scheduling.ipynb: 2 kept" in capsys.readouterr().out
    assert (
        main(["translate", "status", "../notebooks/04_list_scheduling.ipynb", "--course", ".."])
        == 1
    )
    capsys.readouterr()
    # an edition, given by its path, stands for its English notebook
    assert main(["translate", "status", "zh/04_列表调度.ipynb", "--course", ".."]) == 1
    assert "cell code1: stale" in capsys.readouterr().out
    monkeypatch.chdir("/")
    assert main(["translate", "status"]) == 2
    assert "no course folder found" in capsys.readouterr().err


# -- the course itself: every translation that exists is current, and so is its notebook --------
TRANSLATED = [s for s in i18n.english_sources(ROOT) if i18n.translation_path(ROOT, s).exists()] or [
    pytest.param(None, marks=pytest.mark.skip(reason="no translations yet"))
]


@pytest.mark.parametrize("source", TRANSLATED, ids=lambda p: p and p.stem)
def test_course_translation_is_current(source):
    rel = str(source.relative_to(ROOT))
    problems = i18n.check_one(source, i18n.translation_path(ROOT, source), rel)
    assert not problems, "run `lecturekit translate sync`, then translate:\n" + "\n".join(
        map(str, problems)
    )
    edition = i18n.edition_path(ROOT, source)
    assert edition.exists(), f"run `lecturekit translate build` to make {edition}"
    # outputs aside: those are the edition's own (it runs in Chinese), checked by nbval
    problems = i18n.edition_problems(source, i18n.translation_path(ROOT, source), edition)
    assert not problems, "\n".join(map(str, problems))


# -- problem sets: what a failing check says ---------------------------------------------------
def make_exercise(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("**Question 1.** Heights.", id="q1")]
    case = ">>> assert isinstance(h, list), 'a list of six whole numbers'\n"
    fcase = ">>> assert len(h) == 6, f'{len(h)} heights, one per instruction: {{6}}'\n"
    hidden = ">>> assert h == [1], 'the hidden answer'\n"
    nb.metadata["otter"] = {
        "tests": {
            "q1": {
                "name": "q1",
                "suites": [
                    {
                        "cases": [
                            {"code": case, "hidden": False},
                            {"code": fcase, "hidden": False},
                            {"code": hidden, "hidden": True},
                        ]
                    }
                ],
            }
        }
    }
    (tmp_path / "exercises").mkdir()
    src = tmp_path / "exercises" / "04_list_scheduling_problems.ipynb"
    nbformat.write(nb, str(src))
    return src


def test_problem_set_messages_are_translated_and_stored(tmp_path):
    src = make_exercise(tmp_path)
    tr = i18n.translation_path(tmp_path, src)
    assert tr == tmp_path / "translations/zh/exercises/04_list_scheduling.yaml"
    assert i18n.sync(src, tr, "exercises/04_list_scheduling_problems.ipynb")["added"] == 3
    templates = [m["en"] for m in i18n.load_messages(tr)]
    # public tests only; an f-string becomes a template, literal braces stay escaped
    assert templates == [
        "a list of six whole numbers",
        "{} heights, one per instruction: {{6}}",
    ]
    kinds = [(p.cell, p.kind) for p in i18n.check_one(src, tr)]
    assert kinds == [("q1", "missing"), ("message", "missing"), ("message", "missing")]
    entries = i18n.load(tr)
    entries[0]["zh"] = "**问题 1.** 高度。"
    zh = {templates[0]: "一个含六个整数的列表", templates[1]: "{} 个高度，每条指令一个：{{6}}"}
    i18n.save(tr, "x", entries, [{"en": t, "zh": zh[t]} for t in templates])
    i18n.save(tr, "x", i18n.load(tr))  # saving cells alone keeps the messages
    assert i18n.check_one(src, tr) == []
    out = i18n.build_one(src, tr, i18n.edition_path(tmp_path, src))
    assert out == tmp_path / "exercises" / "zh" / "04_列表调度_习题.ipynb"
    assert i18n.english_source(tmp_path, out) == src
    table = nbformat.read(str(out), as_version=4).metadata["lecturekit"]["messages"]
    assert i18n.translate_message("5 heights, one per instruction: {6}", table) == (
        "5 个高度，每条指令一个：{6}"
    )
    assert i18n.translate_message("a list of six whole numbers", table) == zh[templates[0]]
    assert i18n.translate_message("something else", table) == "something else"


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    values=st.lists(st.text(max_size=12), min_size=2, max_size=2),
    literal=st.text(st.characters(blacklist_characters="{}"), max_size=10),
)
def test_a_message_template_round_trips_its_values(values, literal):
    template = f"{literal}{{}} and {{}}!"
    text = f"{literal}{values[0]} and {values[1]}!"
    back = i18n.translate_message(text, {template: "「{}」「{}」"})
    if "」「" not in values[0] + values[1] and " and " not in values[0]:
        assert back == f"「{values[0]}」「{values[1]}」"


def test_drawing_code_is_written_in_english():
    """The drawing code's text is English, marked for the catalog (only docstrings and comments
    may hold Chinese): a figure's Chinese comes from lecturekit/locale, drawn with a CJK font
    when there is one and in English when there is none (tests/test_fonts.py)."""
    import ast

    cjk = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]")
    found = []
    for path in sorted((ROOT / "lecturekit" / "viz").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in docstrings
                and cjk.search(node.value)
            ):
                found.append(f"{path.name}:{node.lineno}: {node.value[:40]!r}")
    assert not found, "Chinese belongs in the catalog (lecturekit/locale):\n" + "\n".join(found)


def test_the_four_notebooks_of_a_chapter_are_named_apart_and_read_back(tmp_path):
    """lecturekit.i18n names a chapter's problem set and their Chinese editions apart (JupyterLab
    shows a tab by file name) and reads every one back to its chapter: also the old names and
    the copies a student, JupyterLab or a learning platform makes."""
    assert i18n.problems_name("04_list_scheduling") == "04_list_scheduling_problems.ipynb"
    assert i18n.problems_name("04_list_scheduling", "zh") == "04_列表调度_习题.ipynb"
    assert i18n.problems_name("01_demo", "zh") == "01_demo_习题.ipynb"  # no title: English name
    for name in (
        "04_list_scheduling.ipynb",
        "04_list_scheduling_problems.ipynb",
        "04_列表调度.ipynb",
        "04_列表调度_习题.ipynb",
        "04_列表调度_习题-Copy1.ipynb",
        "04_list_scheduling_problems_Li_Hua.ipynb",
        "04_列表调度_习题_李华 (1).ipynb",
        "exercises/zh/04_list_scheduling.ipynb",  # the Chinese problem set's old name
    ):
        assert i18n.topic_of(name) == "04_list_scheduling", name
    for name in ("04_my_notes.ipynb", "Untitled.ipynb", "05_列表调度.ipynb", "4_list_scheduling"):
        assert i18n.topic_of(name) is None, name
    for folder in ("notebooks", "exercises"):
        (tmp_path / folder).mkdir()
    chapter = tmp_path / "notebooks" / "04_list_scheduling.ipynb"
    problems = tmp_path / "exercises" / "04_list_scheduling_problems.ipynb"
    old = tmp_path / "exercises" / "04_list_scheduling.ipynb"  # a student's copy, old name
    for path in (chapter, problems, old):
        path.write_text("{}", encoding="utf-8")
    assert i18n.english_sources(tmp_path) == [chapter, problems]
    assert i18n.edition_path(tmp_path, chapter) == tmp_path / "notebooks/zh/04_列表调度.ipynb"
    edition = i18n.edition_path(tmp_path, problems)
    assert edition == tmp_path / "exercises/zh/04_列表调度_习题.ipynb"
    assert i18n.english_source(tmp_path, edition) == problems
    assert i18n.english_source(tmp_path, tmp_path / "exercises/zh/04_list_scheduling.ipynb") is None
    assert i18n.english_source(tmp_path, chapter) is None  # English: no edition of anything


def test_a_students_throwaway_underscore_does_not_break_the_chapters_text():
    """In a kernel, `for _ in range(3)` in a student's cell rebinds the `_` a chapter translates
    with; lecturekit gives it back after that cell (language.keep_underscore), so the next cell
    that shows text still works. A notebook whose `_` was never lecturekit's keeps its own."""
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    from lecturekit import language

    quiet = Config()
    quiet.HistoryManager.enabled = False  # no history file shared with other test workers
    shell = InteractiveShell(config=quiet)
    try:
        assert language.keep_underscore(shell) and language.keep_underscore(shell)  # once
        assert shell.run_cell("from lecturekit import _").success
        assert shell.run_cell("for _ in range(3):\n    pass").success
        assert shell.user_ns["_"] is language.gettext
        shown = shell.run_cell("text = _('cycle {cycle}: {why}').format(cycle=1, why='x')")
        assert shown.success and shell.user_ns["text"] == "cycle 1: x"
        with language.using("zh"):
            assert shell.run_cell("text = _('cycle {cycle}: {why}')").success
        assert shell.user_ns["text"] == "周期 {cycle}：{why}"

        mine = InteractiveShell(config=quiet)
        language.keep_underscore(mine)
        assert mine.run_cell("_ = 5").success and mine.run_cell("for _ in range(2): pass").success
        assert mine.user_ns["_"] == 1  # never lecturekit's: left as the student made it
    finally:
        InteractiveShell.clear_instance()
