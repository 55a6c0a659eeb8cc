"""Fonts for figures in Chinese: find a CJK font, or draw the figure in English.

Matplotlib's default font (DejaVu Sans) has no Chinese characters: a Chinese title would come
out as empty boxes ("tofu"), with a "Glyph ... missing" warning. Every drawing function of
:mod:`lecturekit.viz` is wrapped by :func:`figure`, which, when the language spoken is not
English, appends the first CJK font it finds to ``rcParams["font.family"]`` (after the generic
family, so Latin letters and digits keep DejaVu Sans and only the characters it lacks come from
the CJK font: matplotlib falls back glyph by glyph along that list):

1. the system's fonts, in :data:`CJK_FAMILIES` order: Linux (Noto Sans CJK SC from
   ``fonts-noto-cjk``, Source Han Sans SC, WenQuanYi Micro Hei / Zen Hei from ``fonts-wqy-*``,
   Droid Sans Fallback, AR PL UMing), macOS (PingFang SC, Hiragino Sans GB, Heiti SC, STHeiti,
   Songti SC, Arial Unicode MS), Windows (Microsoft YaHei, SimHei, DengXian, SimSun); first in
   matplotlib's font cache, then, if none is there, in the system's font folders read again (a
   font installed after matplotlib made its cache);
2. Noto Sans CJK from the optional PyPI package ``noto-cjk-sans-otc`` (``pip install
   noto-cjk-sans-otc``: one 19 MB font collection, SIL Open Font License), when installed;
3. none: the figure is drawn in English (its text, not the printed output around it), with one
   warning per session that says how to get a Chinese font. A figure in English reads; one in
   boxes does not.

Text drawn in a monospace font asks for :func:`family` ``("monospace")``, which adds the CJK font
too. A chapter that draws a figure itself (pyplot in a code cell) calls :func:`use_language_font`
first. No matplotlib at import time; the search runs once, on the first Chinese figure.
"""

from __future__ import annotations

import functools
import logging
import warnings

from .. import language
from ..language import N_, _

#: CJK families tried in order: Linux, then macOS, then Windows (each is on one system only)
CJK_FAMILIES = (  # i18n: not shown (font names)
    "Noto Sans CJK SC",
    "Noto Sans SC",
    "Source Han Sans SC",
    "Source Han Sans CN",
    "WenQuanYi Micro Hei",
    "WenQuanYi Zen Hei",
    "Droid Sans Fallback",
    "AR PL UMing CN",
    "PingFang SC",
    "Hiragino Sans GB",
    "Heiti SC",
    "STHeiti",
    "Songti SC",
    "Arial Unicode MS",
    "Microsoft YaHei",
    "SimHei",
    "DengXian",
    "SimSun",
)
#: the optional package with a CJK font (its module has FONT_PATH) and the family it adds
PACKAGE_FONT = ("noto_cjk_sans_otc", "Noto Sans CJK SC")  # i18n: not shown
#: what a person without any CJK font is told, once
NO_FONT = N_(
    "no Chinese font found for figures, so their text is drawn in English; install one "
    "(Debian/Ubuntu: apt install fonts-noto-cjk or fonts-wqy-microhei; any system: "
    "pip install noto-cjk-sans-otc) and restart the kernel"
)

_found: list[str | None] = []  # the search's result, once it has run
_warned: list[bool] = []


def cjk_font() -> str | None:
    """The CJK font family figures use (None: there is none). Searched once per process."""
    if _found:
        return _found[0]
    from matplotlib import font_manager

    found = _listed(font_manager) or _uncached(font_manager) or _package_font(font_manager)
    _found.append(found)
    return found


def _listed(font_manager) -> str | None:
    """The first of :data:`CJK_FAMILIES` that matplotlib's font list has."""
    installed = {f.name for f in font_manager.fontManager.ttflist}
    return next((name for name in CJK_FAMILIES if name in installed), None)


def _uncached(font_manager) -> str | None:
    """A CJK font installed after matplotlib made its font cache: matplotlib lists the system's
    fonts once, into a cache it reads on every start, so a font installed later (``apt install
    fonts-noto-cjk``) is not in its list. The system's font folders are read again and the files
    the list lacks are added (only when no CJK font was listed: this takes a moment)."""
    known = {str(f.fname) for f in font_manager.fontManager.ttflist}
    try:
        files = font_manager.findSystemFonts()
    except OSError:
        return None
    for path in sorted(set(files) - known):
        try:
            font_manager.fontManager.addfont(path)
        except (OSError, RuntimeError, ValueError):
            continue  # a file the font library cannot read
    return _listed(font_manager)


def _package_font(font_manager) -> str | None:
    import importlib

    module_name, family_name = PACKAGE_FONT
    try:
        module = importlib.import_module(module_name)
        font_manager.fontManager.addfont(str(module.FONT_PATH))
    except (ImportError, AttributeError, OSError, RuntimeError, ValueError):
        return None
    installed = {f.name for f in font_manager.fontManager.ttflist}
    return family_name if family_name in installed else None


def use_cjk_font() -> bool:
    """Make matplotlib draw Chinese with :func:`cjk_font` (appended to ``font.family`` once);
    False when there is no CJK font."""
    font = cjk_font()
    if font is None:
        return False
    from matplotlib import rcParams

    families = list(rcParams["font.family"])
    if font not in families:
        rcParams["font.family"] = [*families, font]
        # a CJK font often has no bold face: matplotlib then uses the regular one and logs
        # "findfont: Failed to find font weight bold" on every bold title, into the output
        logging.getLogger("matplotlib.font_manager").setLevel(logging.ERROR)
    return True


def use_language_font() -> bool:
    """For the figures a chapter draws itself (``plt.subplots()``, ``ax.set_title(_("..."))``
    in a code cell, where no drawing function of :mod:`lecturekit.viz` is called): in a
    language other than English, matplotlib draws every figure from now on with the CJK font
    (:func:`use_cjk_font`); where there is none, it says so once, as :func:`figure` does, and
    returns False (the chapter's own Chinese text would be boxes). In English nothing changes.
    A chapter that draws figures of its own calls it in its first cell."""
    if language.get_language() == "en" or use_cjk_font():
        return True
    if not _warned:
        _warned.append(True)
        warnings.warn(_(NO_FONT), stacklevel=2)
    return False


def family(generic: str = "sans-serif") -> list[str]:
    """A ``family=`` for text that asks for ``generic`` (e.g. ``"monospace"``), with the CJK font
    after it when the language spoken needs one."""
    font = cjk_font() if language.get_language() != "en" else None
    return [generic, font] if font else [generic]


def _cjk_text(*drawn) -> None:
    """Give the CJK font to the Chinese text of the figures ``drawn`` touched whose font was
    fixed before :func:`use_cjk_font` ran: tick labels of axes a notebook made with
    ``plt.subplots()`` before the first Chinese figure keep the fonts of that moment."""
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure
    from matplotlib.text import Text

    font = cjk_font()
    figures = set()
    for thing in drawn:
        for obj in thing if isinstance(thing, (list, tuple)) else (thing,):
            if isinstance(obj, Axes):
                figures.add(obj.figure)
            elif isinstance(obj, Figure):
                figures.add(obj)
    for fig in figures:
        for text in fig.findobj(Text):
            words = text.get_text()
            fonts = text.get_fontfamily()
            if font not in fonts and language.display_width(words) != len(words):
                text.set_fontfamily([*fonts, font])


def figure(draw):
    """Decorator for a drawing function: in a language other than English, it draws with a CJK
    font, or, where there is none, in English (warning once)."""

    @functools.wraps(draw)
    def wrapper(*args, **kwargs):
        if language.get_language() == "en":
            return draw(*args, **kwargs)
        if use_cjk_font():
            result = draw(*args, **kwargs)
            _cjk_text(result, *args, *kwargs.values())
            return result
        if not _warned:
            _warned.append(True)
            warnings.warn(_(NO_FONT), stacklevel=2)
        with language.using("en"):
            return draw(*args, **kwargs)

    return wrapper


__all__ = ["CJK_FAMILIES", "cjk_font", "family", "figure", "use_cjk_font", "use_language_font"]
