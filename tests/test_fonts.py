"""Figures in Chinese: the text comes from the catalog, a CJK font draws it (no missing glyph),
and without any CJK font the figure is drawn in English instead of in boxes."""

from __future__ import annotations

import warnings
from pathlib import Path

import matplotlib
import pytest

from lecturekit import language
from lecturekit.target.deps import analyze
from lecturekit.viz import fonts

ROOT = Path(__file__).resolve().parents[1]
SIX_BLOCK = "t0 = t1 + t2\nt1 = t0 + t1\nt3 = t2 + t4\nt0 = t1 + t2\nt5 = t3 + t4\nt6 = t2 + t7\n"


@pytest.fixture
def fresh_fonts(monkeypatch):
    """The font search and the one-time warning start over; matplotlib's settings come back."""
    monkeypatch.setattr(fonts, "_found", [])
    monkeypatch.setattr(fonts, "_warned", [])
    with matplotlib.rc_context():
        yield
    language.set_language(None)


def texts(fig) -> list[str]:
    return [t.get_text() for t in fig.findobj(matplotlib.text.Text) if t.get_text().strip()]


def draw_and_render(draw):
    """Draw, render to PNG, and return (figure texts, warnings raised)."""
    import io

    import matplotlib.pyplot as plt

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fig = draw()
        fig.savefig(io.BytesIO(), format="png", dpi=40)
    found = texts(fig)
    plt.close(fig)
    return found, [str(w.message) for w in caught]


def dependence_graph():
    from lecturekit.viz.graph import draw_dependence_graph

    return draw_dependence_graph(analyze(SIX_BLOCK))


def stage_table():
    from lecturekit.target.pipeline import simulate
    from lecturekit.viz.pipeline import draw_stage_table

    return draw_stage_table(simulate(SIX_BLOCK))


@pytest.mark.needs("cjk-font")
@pytest.mark.parametrize("draw", [dependence_graph, stage_table])
def test_a_chinese_figure_has_no_missing_glyph(fresh_fonts, draw):
    """With a CJK font (fonts-wqy-microhei here; any font of CJK_FAMILIES, or the optional
    package's, would do) the Chinese title renders with every glyph."""
    with language.using("zh"):
        found, caught = draw_and_render(draw)
    assert not [w for w in caught if "missing from font" in w], caught
    assert any("周期" in t or "依赖图" in t for t in found), found
    assert fonts.cjk_font() in matplotlib.rcParams["font.family"]


def test_the_english_figure_is_what_it_was(fresh_fonts):
    before = list(matplotlib.rcParams["font.family"])
    with language.using("en"):
        found, caught = draw_and_render(dependence_graph)
    assert any(t.startswith("Dependence graph (transitive reduction)") for t in found), found
    assert matplotlib.rcParams["font.family"] == before  # English never touches the fonts
    assert not [w for w in caught if "missing from font" in w]


def test_without_a_cjk_font_the_figure_is_english(fresh_fonts, monkeypatch):
    """No CJK font at all (no system font, no optional package): the figure's text is English,
    one warning says how to get a font, and no glyph is missing."""
    monkeypatch.setattr(fonts, "_found", [None])
    with language.using("zh"):
        found, caught = draw_and_render(dependence_graph)
        again, caught_again = draw_and_render(dependence_graph)
        assert language.get_language() == "zh"  # only the figure was drawn in English
    assert any(t.startswith("Dependence graph") for t in found), found
    assert not any("依赖" in t for t in found + again)
    told = [w for w in caught if "fonts-noto-cjk" in w]
    assert len(told) == 1 and "中文字体" in told[0], caught
    assert not [w for w in caught_again if "fonts-noto-cjk" in w]  # once per session
    assert not [w for w in caught + caught_again if "missing from font" in w]


def test_the_search_order_prefers_each_systems_own_font(monkeypatch, fresh_fonts):
    """What each system has: the first of CJK_FAMILIES that is installed is used (Noto CJK on a
    Linux desktop before WenQuanYi; PingFang on macOS; Microsoft YaHei on Windows)."""
    from matplotlib import font_manager

    def installed(*names):
        entries = [font_manager.FontEntry(fname=f"/x/{n}.ttf", name=n) for n in names]
        monkeypatch.setattr(font_manager.fontManager, "ttflist", entries + [])
        monkeypatch.setattr(fonts, "_found", [])
        return fonts.cjk_font()

    assert installed("DejaVu Sans", "WenQuanYi Micro Hei", "Noto Sans CJK SC") == "Noto Sans CJK SC"
    assert installed("DejaVu Sans", "Heiti SC", "PingFang SC") == "PingFang SC"
    assert installed("Arial", "SimHei", "Microsoft YaHei") == "Microsoft YaHei"
    monkeypatch.setattr(fonts, "PACKAGE_FONT", ("no_such_font_package", "Noto Sans CJK SC"))
    monkeypatch.setattr(font_manager, "findSystemFonts", lambda *args, **kwargs: [])
    assert installed("DejaVu Sans") is None


@pytest.mark.needs("cjk-font")
def test_a_font_installed_after_matplotlib_made_its_cache_is_found(monkeypatch, fresh_fonts):
    """matplotlib lists the system's fonts once, into a cache it reads on every start: a CJK font
    installed later (``apt install fonts-noto-cjk``, then a new kernel) is not in its list. The
    search reads the system's font folders again and finds it, as the warning without a font
    promises ("install one ... and restart the kernel")."""
    from matplotlib import font_manager

    listed = font_manager.fontManager.ttflist
    cjk = [f for f in listed if f.name in fonts.CJK_FAMILIES]
    if not cjk:
        pytest.skip("the CJK font found is the optional package's, not a system font")
    system = set(font_manager.findSystemFonts())
    assert str(cjk[0].fname) in system  # a system font, not the optional package's
    expected = next(name for name in fonts.CJK_FAMILIES if name in {f.name for f in cjk})
    # the cache as it was made before the font was installed: nothing from the CJK fonts' files
    files = {f.fname for f in cjk}
    monkeypatch.setattr(
        font_manager.fontManager, "ttflist", [f for f in listed if f.fname not in files]
    )
    monkeypatch.setattr(fonts, "PACKAGE_FONT", ("no_such_font_package", "Noto Sans CJK SC"))
    assert fonts._listed(font_manager) is None
    assert fonts.cjk_font() == expected
    assert any(f.name == expected for f in font_manager.fontManager.ttflist)


@pytest.mark.needs("cjk-font")
def test_monospace_text_gets_the_cjk_font_too(fresh_fonts):
    with language.using("zh"):
        assert fonts.family("monospace") == ["monospace", fonts.cjk_font()]
    with language.using("en"):
        assert fonts.family("monospace") == ["monospace"]


def test_every_drawing_function_draws_chinese_with_a_cjk_font():
    """Every ``plot_*`` and ``draw_*`` function of lecturekit.viz is wrapped by fonts.figure:
    one that is not draws its Chinese labels in boxes (chapter 15's fabric and chapter 14's
    roofline figures were)."""
    import ast
    import importlib
    import pkgutil

    import lecturekit.viz as viz

    bare = []
    for info in pkgutil.iter_modules(viz.__path__):
        module = importlib.import_module(f"lecturekit.viz.{info.name}")
        tree = ast.parse(open(module.__file__, encoding="utf-8").read())
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith(("plot_", "draw_")):
                if not any(ast.unparse(d) == "figure" for d in node.decorator_list):
                    bare.append(f"{info.name}.{node.name}")
    assert not bare, bare


@pytest.mark.needs("cjk-font")
def test_chinese_tick_labels_on_axes_made_before_the_first_chinese_figure(fresh_fonts):
    """A notebook makes its axes (plt.subplots) before calling the first drawing function: the
    tick labels then keep the fonts of that moment; the drawing function gives them the CJK
    font (chapter 15's first fabric drew its tier names in boxes)."""
    import matplotlib.pyplot as plt

    from lecturekit.llm.fabric import Fabric
    from lecturekit.viz.network import plot_fabric

    with language.using("zh"):
        fig, ax = plt.subplots(figsize=(6, 2), dpi=50)
        found, caught = draw_and_render(
            lambda: plot_fabric(Fabric.build(2, 2, radix=4), ax=ax).figure
        )
    assert "节点" in found and not [w for w in caught if "missing from font" in w], caught


def test_a_chapters_own_figure_draws_chinese_after_use_language_font(fresh_fonts):
    """A chapter's own pyplot figure (chapter 06's unrolling plot) with a title from the catalog:
    in Chinese, use_language_font gives matplotlib the CJK font (no missing glyph); in English
    it changes nothing."""
    import matplotlib.pyplot as plt
    from matplotlib import rcParams

    from lecturekit import _

    before = list(rcParams["font.family"])
    with language.using("en"):
        assert fonts.use_language_font() is True
    assert list(rcParams["font.family"]) == before

    def draw():
        fig, ax = plt.subplots(figsize=(3, 2), dpi=40)
        ax.plot([1, 2], [3, 4], label=_("retire width"))
        ax.set_title(_("reorder buffer size"))
        ax.legend()
        return fig

    with language.using("zh"):
        assert fonts.use_language_font() is True
        found, caught = draw_and_render(draw)
    assert "重排序缓冲区大小" in found and "提交宽度" in found
    assert not [w for w in caught if "missing from font" in w], caught


def test_without_a_cjk_font_use_language_font_says_so_once(fresh_fonts, monkeypatch):
    monkeypatch.setattr(fonts, "_found", [None])
    with language.using("zh"), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert fonts.use_language_font() is False
        assert fonts.use_language_font() is False
    assert len(caught) == 1 and "fonts-noto-cjk" in str(caught[0].message)


@pytest.mark.parametrize(
    "path", sorted((ROOT / "notebooks" / "zh").glob("*.ipynb")), ids=lambda p: p.stem
)
def test_a_chinese_chapters_figures_had_every_glyph(path):
    """A glyph missing while a Chinese chapter was run shows in its saved outputs as
    matplotlib's warning ("Glyph 21608 ... missing from font(s) DejaVu Sans"): there is none
    (the chapter's own figures call use_language_font, the library's are wrapped by figure)."""
    import json

    nb = json.loads(path.read_text(encoding="utf-8"))
    warned = [
        cell.get("id")
        for cell in nb["cells"]
        for out in cell.get("outputs", [])
        if "missing from font" in "".join(out.get("text", ""))
    ]
    assert not warned, f"{path.name}: glyphs missing in cells {warned}"
