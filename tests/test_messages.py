"""The message catalog (lecturekit.language, tools/messages.py): every marked message has its
Chinese, the compiled .mo is the .po's, user-facing text in the converted folders is marked, and
the language is chosen as documented (set_language, a notebook's edition, the environment)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lecturekit
from lecturekit import language
from lecturekit.language import _, display_width, ljust, ngettext, rjust

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import messages  # noqa: E402  (tools/messages.py)


@pytest.fixture(autouse=True)
def _english_afterwards():
    yield
    language.set_language(None)


# -- the catalog is complete, consistent and compiled --------------------------------------------
def test_the_chinese_catalog_is_complete_and_compiled():
    """A marked message with no Chinese (or a fuzzy one: the English changed), a translation
    whose {placeholders} differ, an entry the code no longer has, or a .mo that is not the
    .po's: each is listed with what to run."""
    problems = messages.problems("zh")
    assert not problems, "\n".join(problems[:60])


def test_every_user_facing_string_in_the_converted_folders_is_marked():
    """tools/messages.py MARKED lists the folders whose text is all in the catalog (the rest of
    the package is converted in phase 2 of issue 27, and added there)."""
    found = messages.find()
    assert not found, "mark these with _() (tools/messages.py wrap FILE):\n" + "\n".join(
        map(str, found[:80])
    )


def test_marking_calls_take_a_literal():
    assert not messages.marked_calls_with_no_literal()


def test_no_throwaway_underscore_where_underscore_translates(tmp_path):
    """``for _ in ...`` or ``_, x = ...`` in a function that calls ``_()``: the call would reach
    the throwaway (viz/tensor.py's plots had ``_, ax = plt.subplots()`` before their titles)."""
    assert not messages.shadowed()
    planted = tmp_path / "planted.py"
    planted.write_text(
        "def f(ax):\n    _, ax = ax\n    return _('a title')\n\n\n"
        "def g():\n    return [_('x') for _k in range(2)]\n",
        encoding="utf-8",
    )
    (found,) = messages.shadowed(paths=(str(planted),))
    assert found.endswith(
        ":2: `_` is a local name here and _() is called (line 3): rename the throwaway"
    )


def test_babel_and_the_syntax_tree_see_the_same_messages():
    """Two paths to the message list agree: Babel's extraction (what the catalog holds) and the
    literal first arguments of the marking calls found by walking the syntax tree, in the
    package and in the English chapters' code cells."""
    import ast

    template = messages.extract(helpers=False)
    babel = {(m.id if isinstance(m.id, str) else m.id[0]) for m in template if m.id}
    walked = set()
    for unit in messages.code():
        tree = ast.parse(unit.source) if unit.cell is None else messages._parse(unit.source)
        for node in ast.walk(tree) if tree is not None else ():
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in messages.MARKERS
            ):
                k = 1 if node.func.id in ("pgettext", "npgettext") else 0
                arg = node.args[k] if len(node.args) > k else None
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    walked.add(arg.value)
    assert babel == walked, (sorted(babel - walked)[:10], sorted(walked - babel)[:10])
    assert len(babel) >= 50


def test_the_checks_see_a_missing_entry_and_a_stale_mo(tmp_path, monkeypatch):
    """The checks above are not vacuous: with one translation removed from a copy of the .po
    the entry is reported untranslated and the committed .mo stale; a wrong placeholder and an
    unmarked print are found."""
    copy = tmp_path / "locale"
    shutil.copytree(messages.LOCALE, copy)
    monkeypatch.setattr(messages, "LOCALE", copy)
    po = messages.po_path("zh")
    text = po.read_text(encoding="utf-8")
    entry = 'msgid "no catalog for language {language!r}; lecturekit speaks {known}"\nmsgstr "'
    assert entry in text
    start = text.index(entry) + len(entry)
    end = text.index('"\n', start)
    po.write_text(text[:start] + text[end:], encoding="utf-8")
    found = messages.problems("zh")
    assert any(p.startswith("untranslated: 'no catalog for language") for p in found), found
    assert any(p.startswith("stale:") for p in found), found

    po.write_text(text.replace("lecturekit 支持的语言", "{oops} 支持的语言", 1), encoding="utf-8")
    assert any(p.startswith("placeholders differ") for p in messages.problems("zh"))

    planted = tmp_path / "planted.py"
    planted.write_text(
        "def f(n):\n"
        '    """A docstring is not shown."""\n'
        '    key = {"some key here": 1}\n'
        '    print(f"{n} stall cycles")\n'
        "    return key\n",
        encoding="utf-8",
    )
    (hit,) = messages.unmarked(planted)
    assert hit.line == 4 and hit.text == "{} stall cycles"


def _planted_chapter(tmp_path, monkeypatch, cells):
    """A course in ``tmp_path`` with one English chapter of ``cells`` ((id, code) pairs) and
    its Chinese twin in notebooks/zh (which the tools must not read)."""
    import nbformat

    monkeypatch.setattr(messages, "ROOT", tmp_path)
    monkeypatch.setattr(messages, "NOTEBOOKS", tmp_path / "notebooks")
    nb = nbformat.v4.new_notebook()
    for cell, source in cells:
        nb.cells.append(nbformat.v4.new_code_cell(source, id=cell))
    path = tmp_path / "notebooks" / "04_planted.ipynb"
    (path.parent / "zh").mkdir(parents=True)
    nbformat.write(nb, str(path))
    nbformat.write(nb, str(path.parent / "zh" / path.name))
    return path


CHAPTER = [
    (
        "setup",
        '%config InlineBackend.figure_format = "png"\n'
        "from lecturekit import _\n"
        "from IPython.display import Markdown, display\n\n\n"
        "def table(header, rows):\n"
        '    lines = ["| " + " | ".join(_(h) for h in header) + " |"]\n'
        '    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]\n'
        '    display(Markdown("\\n".join(lines)))\n',
    ),
    (
        "marked",
        'orders = {_("program order"): [0, 1], _("the slide\'s order"): [1, 0]}\n'
        "rows = [[what, len(order)] for what, order in orders.items()]\n"
        'table(["order", "cycles"], rows)\n'
        'print(_("{n} cycles on {machine}").format(n=3, machine="dual"))\n'
        'print(ngettext("{n} stall cycle", "{n} stall cycles", 2).format(n=2))\n',
    ),
    (
        "unmarked",
        'SIX = """\nbne $t0, $zero, loop\nadd $t1, $t2, $t3\n"""\n'
        'labels = {"six on dual": SIX, "M": "mul $t0, $t1, $t2"}\n'
        "rows = []\n"
        "for name, text in labels.items():\n"
        '    rows.append([name, "optimal", f"{len(text)} characters"])\n'
        'table(["block", "what", "length"], rows)\n'
        'print(f"{len(rows)} blocks, lower bound {3}")\n'
        'draw(SIX, title="the six-instruction block", engine="classic")\n'
        'print("bne $t0, $zero, loop")  # i18n: as is\n'
        "_, trace = (1, 2)\n",
    ),
]


def test_a_chapters_code_cells_are_in_the_catalog(tmp_path, monkeypatch):
    """The English chapter's marked text is extracted with its cell as the source reference,
    and so is what it gives its own helper that translates (table's header); the Chinese
    twin in notebooks/zh is not read (its code is the same)."""
    _planted_chapter(tmp_path, monkeypatch, CHAPTER)
    assert [(nb.name, cell) for nb, cell, _src in _units()] == [
        ("04_planted.ipynb", "setup"),
        ("04_planted.ipynb", "marked"),
        ("04_planted.ipynb", "unmarked"),
    ]
    template = messages.extract()
    found = {m.id: sorted(f for f, _line in m.locations) for m in template if m.id}
    here = "notebooks/04_planted.ipynb"
    assert found["program order"] == [f"{here}#marked"]
    assert found["{n} cycles on {machine}"] == [f"{here}#marked"]
    assert found[("{n} stall cycle", "{n} stall cycles")] == [f"{here}#marked"]
    assert found["order"] == found["cycles"] == [f"{here}#marked"]  # table(...) translates
    assert found["block"] == [f"{here}#unmarked"]
    assert "the six-instruction block" not in found  # not marked: find reports it
    without = {m.id for m in messages.extract(helpers=False) if m.id}
    assert "program order" in without and "order" not in without


def _units():
    return [(u.path, u.cell, u.source) for u in messages.code(("notebooks",))]


def test_find_reports_a_chapters_unmarked_text_and_nothing_else(tmp_path, monkeypatch):
    """What the chapter shows without _(): a table row's text put in by rows.append (also a
    single word), a label bound on its way (prose only: "M" and the program are not), an
    f-string printed, a figure's title; not the marked cell, not code (registers, a
    program), not a keyword that names a style or an engine, not a line marked as is."""
    path = _planted_chapter(tmp_path, monkeypatch, CHAPTER)
    found = [(u.cell, u.line, u.text) for u in messages.find(["notebooks"])]
    assert found == [
        ("unmarked", 5, "six on dual"),
        ("unmarked", 8, "optimal"),
        ("unmarked", 8, "{} characters"),
        ("unmarked", 10, "{} blocks, lower bound {}"),
        ("unmarked", 11, "the six-instruction block"),
    ]
    assert str(messages.find([str(path.relative_to(tmp_path))])[0]).startswith(
        "notebooks/04_planted.ipynb#unmarked:5: 'six on dual'"
    )
    # the chapter translates with _(), so the throwaway `_` at the top of a cell is wrong
    (wrong,) = messages.shadowed(paths=("notebooks",))
    assert wrong.startswith("notebooks/04_planted.ipynb#unmarked:13: `_` is bound here")
    assert messages.marked_calls_with_no_literal(paths=("notebooks",)) == []


def test_a_built_message_in_a_chapter_is_found(tmp_path, monkeypatch):
    _planted_chapter(tmp_path, monkeypatch, [("c", 'n = 2\nprint(_(f"{n} cycles"))\n')])
    assert messages.marked_calls_with_no_literal(paths=("notebooks",)) == [
        "notebooks/04_planted.ipynb#c:2: _() of text built in place"
    ]


def test_a_chapter_translates_after_ipython_shows_a_value(tmp_path):
    """IPython binds ``_`` to the last value a cell shows, unless the notebook bound ``_``
    itself: a Chinese chapter that imports ``_`` from lecturekit keeps translating after a cell
    whose value is shown (the idiom of CONTRIBUTING's Chinese edition)."""
    import nbformat
    from nbclient import NotebookClient

    folder = tmp_path / "notebooks" / "zh"
    folder.mkdir(parents=True)
    nb = nbformat.v4.new_notebook()
    nb.metadata["lecturekit"] = {"edition": "zh"}
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nb.cells = [
        nbformat.v4.new_code_cell("from lecturekit import _, ngettext"),
        nbformat.v4.new_code_cell("41 + 1"),
        nbformat.v4.new_code_cell(
            'print(_("retire width"))\nprint(ngettext("{n} cycle", "{n} cycles", 3).format(n=3))'
        ),
    ]
    NotebookClient(nb, timeout=120, resources={"metadata": {"path": str(folder)}}).execute()
    assert nb.cells[1].outputs[0]["data"]["text/plain"] == "42"
    assert nb.cells[2].outputs[0]["text"] == "提交宽度\n3 个周期\n"


def test_wrap_marks_an_f_string_with_named_values(tmp_path):
    path = tmp_path / "lecturekit" / "viz" / "planted.py"
    path.parent.mkdir(parents=True)
    path.write_text(
        'def f(sim, k):\n    return f"{sim.cycles} cycles on {sim.machine.name}, {k:,} {{x}}"\n',
        encoding="utf-8",
    )
    original_package = messages.PACKAGE
    try:
        messages.PACKAGE = tmp_path / "lecturekit"
        messages.wrap(path)
    finally:
        messages.PACKAGE = original_package
    text = path.read_text(encoding="utf-8")
    assert "from ..language import _" in text
    assert '_("{cycles} cycles on {name}, {k:,} {{x}}").format(' in text
    namespace: dict = {}
    body = text.replace("from ..language import _\n", "")
    exec(body, {"_": lambda m: m}, namespace)  # noqa: S102

    class Sim:
        cycles = 11
        machine = type("M", (), {"name": "lecture"})

    assert namespace["f"](Sim, 1234) == "11 cycles on lecture, 1,234 {x}"


# -- looking messages up -------------------------------------------------------------------------
def test_english_is_the_message_itself_and_chinese_is_the_catalogs():
    message = "no catalog for language {language!r}; lecturekit speaks {known}"
    with language.using("en"):
        assert _(message) is message
        assert ngettext("{n} cycle", "{n} cycles", 2) == "{n} cycles"
    with language.using("zh"):
        assert _(message) != message and "{language!r}" in _(message)
        assert _("a message nobody wrote") == "a message nobody wrote"


def test_set_language_and_its_errors():
    assert lecturekit.set_language("zh_CN.UTF-8") == "zh"
    assert lecturekit.get_language() == "zh"
    assert lecturekit.set_language("en") == "en"
    with pytest.raises(language.LanguageError, match="no catalog for language 'fr'"):
        lecturekit.set_language("fr")
    with language.using("zh"):
        with pytest.raises(language.LanguageError, match="lecturekit 支持的语言"):
            lecturekit.set_language("klingon")


@pytest.mark.parametrize(
    "env, expected",
    [
        ({}, "en"),
        ({"LANG": "zh_CN.UTF-8"}, "zh"),
        ({"LANG": "de_DE.UTF-8"}, "en"),
        ({"LANGUAGE": "fr:zh_TW:en", "LANG": "en_US.UTF-8"}, "zh"),
        ({"LC_ALL": "C.UTF-8", "LANG": "zh_CN.UTF-8"}, "en"),  # LC_ALL wins, as in gettext
        ({"LC_MESSAGES": "zh_CN", "LANG": "en_US"}, "zh"),
        ({"LECTUREKIT_LANG": "en", "LANG": "zh_CN.UTF-8"}, "en"),
        ({"LECTUREKIT_LANG": "zh", "LANG": "en_US.UTF-8"}, "zh"),
    ],
)
def test_the_environment_chooses_outside_a_notebook(monkeypatch, env, expected):
    for var in (language.ENV, *language.LOCALE_ENV):
        monkeypatch.delenv(var, raising=False)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    language.set_language(None)
    assert language.get_language() == expected


def _kernel_language(cwd: Path, env: dict) -> str:
    """What lecturekit chooses in a process that looks like a Jupyter kernel (ipykernel
    imported) started in ``cwd`` with ``env``."""
    code = "import ipykernel, lecturekit; print(lecturekit.get_language())"
    chosen = ("JPY_SESSION_NAME", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", language.ENV)
    clean = {k: v for k, v in os.environ.items() if k not in chosen}
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=cwd,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_a_kernel_learns_its_edition(tmp_path):
    """JupyterLab: JPY_SESSION_NAME names the notebook, whose metadata says the edition (also
    for a copy outside the course); nbconvert/nbval: the kernel's folder (notebooks/zh). The
    notebook's edition wins over the environment, both ways."""
    course = tmp_path / "course"
    (course / "translations").mkdir(parents=True)
    zh_folder = course / "notebooks" / "zh"
    zh_folder.mkdir(parents=True)
    chapter = {"cells": [], "metadata": {"lecturekit": {"edition": "zh"}}, "nbformat": 4}
    (zh_folder / "04.ipynb").write_text(json.dumps(chapter), encoding="utf-8")
    english = {"cells": [], "metadata": {}, "nbformat": 4}
    (course / "notebooks" / "04.ipynb").write_text(json.dumps(english), encoding="utf-8")
    elsewhere = tmp_path / "homework"
    elsewhere.mkdir()
    shutil.copy(zh_folder / "04.ipynb", elsewhere / "mine.ipynb")

    en_desktop = {"LANG": "en_US.UTF-8", "LECTUREKIT_LANG": "en"}
    zh_desktop = {"LANG": "zh_CN.UTF-8"}
    # JupyterLab: an absolute path, or one relative to the server's root
    assert (
        _kernel_language(zh_folder, {**en_desktop, "JPY_SESSION_NAME": str(zh_folder / "04.ipynb")})
        == "zh"
    )
    assert (
        _kernel_language(elsewhere, {**en_desktop, "JPY_SESSION_NAME": "homework/mine.ipynb"})
        == "zh"
    )
    assert (
        _kernel_language(
            course / "notebooks", {**zh_desktop, "JPY_SESSION_NAME": "notebooks/04.ipynb"}
        )
        == "en"
    )
    # nbconvert, nbval: the folder
    assert _kernel_language(zh_folder, en_desktop) == "zh"
    assert _kernel_language(course / "notebooks", zh_desktop) == "en"
    # outside the course, the environment decides
    assert _kernel_language(tmp_path, zh_desktop) == "zh"
    assert _kernel_language(tmp_path, en_desktop) == "en"


def test_a_chinese_notebook_prints_chinese_in_nbconvert(tmp_path):
    """The real path: a notebook of the Chinese edition run by nbclient in its folder."""
    import nbformat
    from nbclient import NotebookClient

    folder = tmp_path / "notebooks" / "zh"
    folder.mkdir(parents=True)
    nb = nbformat.v4.new_notebook()
    nb.metadata["lecturekit"] = {"edition": "zh"}
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    nb.cells = [nbformat.v4.new_code_cell("import lecturekit\nprint(lecturekit.get_language())")]
    NotebookClient(nb, timeout=120, resources={"metadata": {"path": str(folder)}}).execute()
    assert nb.cells[0].outputs[0]["text"].strip() == "zh"


# -- text width ------------------------------------------------------------------------------------
def test_display_width_counts_chinese_as_two_columns():
    assert display_width("通义千问") == 8
    assert display_width("GPT-3 (lecture)") == 15
    assert display_width("ＡＢ，。") == 8  # full-width forms
    assert display_width("e\u0301") == 1  # a combining accent takes no column
    assert ljust("通义", 6) + "|" == "通义  |"
    assert rjust("7", 3) == "  7"


@settings(max_examples=80, deadline=None, derandomize=True)
@given(st.lists(st.text(alphabet="ab通义千问，x ", min_size=0, max_size=8), min_size=1, max_size=6))
def test_padded_cells_line_up(cells):
    width = max(display_width(c) for c in cells) + 1
    assert {display_width(ljust(c, width) + "|") for c in cells} == {width + 1}
    assert {display_width(rjust(c, width)) for c in cells} == {width}


# -- the catalog is found wherever lecturekit is installed -----------------------------------------
def test_the_wheel_carries_the_compiled_catalog(tmp_path):
    """``pip install .`` (a wheel) finds the catalog as an editable install does: the .mo is
    package data."""
    import zipfile

    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(
        ROOT / "lecturekit", source / "lecturekit", ignore=shutil.ignore_patterns("__pycache__")
    )
    out = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(source)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    (wheel,) = tmp_path.glob("lecturekit-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "lecturekit/locale/zh/LC_MESSAGES/lecturekit.mo" in names


# -- what a person sees, in Chinese ----------------------------------------------------------------
def test_the_cli_speaks_the_language_asked_for(capsys, monkeypatch):
    from lecturekit.cli import main

    monkeypatch.setenv("LECTUREKIT_LANG", "en")
    assert main(["--lang", "zh", "translate", "bogus"]) == 2
    err = capsys.readouterr().err
    assert "错误" in err and "无效的选择" in err and "'bogus'" in err
    assert main(["translate", "bogus", "--lang=zh"]) == 2  # after the subcommand too
    assert "错误" in capsys.readouterr().err
    assert main(["translate", "bogus"]) == 2  # English without --lang: argparse as it was
    err = capsys.readouterr().err
    assert "error: argument action: invalid choice: 'bogus'" in err
    monkeypatch.setenv("LECTUREKIT_LANG", "zh")
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("用法：lecturekit") and "显示本帮助信息并退出" in out
    assert "位置参数" in out and "本命令输出所用的语言" in out
    assert main(["--lang", "fr", "translate", "status"]) == 2  # in the environment's language
    assert "没有语言 'fr' 的消息目录" in capsys.readouterr().err
    assert main(["--lang", "en", "translate", "bogus"]) == 2
    assert "invalid choice" in capsys.readouterr().err
    assert language.get_language() == "zh"  # --lang changes nothing after the command


def test_a_text_table_with_chinese_cells_lines_up():
    from lecturekit.viz.text import text_table

    table = text_table(
        ["model", "s"], [["GPT-3 (lecture)", "2,048"], ["通义千问", "10,000,000"]], right=[1]
    )
    lines = table.splitlines()
    assert {display_width(line) for line in lines} == {len(lines[1])}
    assert lines[2].startswith("通义千问         ")


def test_a_widget_speaks_chinese_and_an_error_stays_in_it():
    """Labels from the catalog; a failing callback shows the error (in Chinese) in the widget and
    never raises into the kernel."""
    from lecturekit.widgets.common import Stepper

    def render(i):
        if i == 2:
            raise ValueError("boom")
        return f"{i}"

    with language.using("zh"):
        stepper = Stepper(3, render, title="列表调度")
        assert stepper.back_button.description == "◀ 上一步"
        assert stepper.step_button.description == "下一步 ▶"
        assert stepper.position.value == "步 1 / 3"
        stepper.step()
        stepper.step()  # render raises: shown, not raised
        assert "意外的错误（ValueError）：boom" in stepper.error.value
        assert "错误：" in stepper.error.value
    with language.using("en"):
        assert Stepper(2, render).step_button.description == "step ▶"


def test_every_preset_machines_description_is_in_the_catalog():
    """The presets read from data/machines/*.toml have their descriptions listed for the catalog
    (target.machine.DATA_DESCRIPTIONS): a new preset file without its line fails here."""
    from lecturekit.target.machine import PRESETS, preset

    with language.using("zh"):
        for name in PRESETS:
            description = preset(name).description
            assert description and _(description) != description, name
