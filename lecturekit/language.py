"""The language lecturekit speaks to a person: English, or Chinese (中文), from one message catalog.

Every text the library shows a person (printed tables and traces, step captions, widget labels,
figure titles, axis labels and legends, error messages, CLI help) is written in English in the
code and marked for translation; the Chinese is in the gettext catalog
``lecturekit/locale/zh/LC_MESSAGES/lecturekit.po``, compiled to the ``.mo`` beside it (committed,
so an editable install and a wheel both find it; ``tools/messages.py`` extracts, updates and
compiles, and ``tests/test_messages.py`` fails on an untranslated, stale or uncompiled entry)::

    from ..language import _, N_, ngettext

    raise ConfigError(_("{name}: must be at least {minimum:,}").format(name=name, minimum=m))
    ngettext("{n} stall cycle", "{n} stall cycles", n).format(n=n)
    HEADERS = (N_("cycle"), N_("stage"))   # marked where defined (at import, before any
    [_(h) for h in HEADERS]                # language is chosen), translated where shown

A message is a template with named ``{placeholders}`` filled by ``str.format`` after the look-up,
never an f-string (the catalog holds the template, and the Chinese may put the values in
another order). In English the look-up returns the template itself, so English output is exactly
what it was before the catalog.

Which language (the first that applies):

1. :func:`set_language` (``lecturekit.set_language("zh")``), or the CLI's ``--lang``;
2. the notebook's edition, in a Jupyter kernel: the Chinese edition's notebooks carry
   ``metadata.lecturekit.edition = "zh"`` (written by ``lecturekit translate build``); the kernel
   finds its notebook through ``JPY_SESSION_NAME`` (JupyterLab, Jupyter Notebook 7) or
   ``__vsc_ipynb_file__`` (VS Code) and reads that key; where neither is set (nbconvert, nbval,
   papermill), a kernel whose working folder is ``notebooks/zh`` or ``exercises/zh`` runs the
   Chinese edition, and one in ``notebooks/``, ``exercises/`` or ``solutions/`` of a course the
   English. A notebook's edition wins over the environment, so the English notebooks print
   English on a Chinese desktop, and the Chinese ones Chinese anywhere;
3. ``LECTUREKIT_LANG``;
4. gettext's variables ``LANGUAGE`` (a ``:``-separated list), ``LC_ALL``, ``LC_MESSAGES``,
   ``LANG``: the first set one that names a language lecturekit speaks (``zh_CN.UTF-8`` → zh);
5. English.

Widths: :func:`display_width` measures text as a terminal or a monospace font shows it (a
Chinese character takes two columns), and :func:`ljust`/:func:`rjust` pad by it, so a text table
with Chinese cells stays aligned.
"""

from __future__ import annotations

import contextlib
import gettext as _gettext
import json
import os
import sys
import unicodedata
from pathlib import Path

from .errors import LectureKitError

#: the languages lecturekit speaks; English is the language of the code, the others have catalogs
LANGUAGES = ("en", "zh")
#: the gettext domain: ``locale/<lang>/LC_MESSAGES/lecturekit.mo``
DOMAIN = "lecturekit"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
#: the environment variable that chooses the language outside a notebook edition
ENV = "LECTUREKIT_LANG"
#: gettext's own variables, in gettext's order
LOCALE_ENV = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
#: the course folders whose notebooks are English (an edition lives in ``<folder>/<lang>/``)
ENGLISH_FOLDERS = ("notebooks", "exercises", "solutions")
EDITION_FOLDERS = ("notebooks", "exercises")

_chosen: str | None = None  # set_language
_translations: dict[str, _gettext.NullTranslations] = {}
_notebook_cache: dict[str, str | None] = {}


class LanguageError(LectureKitError):
    """A language lecturekit has no catalog for."""


def normalize(name: str | None) -> str | None:
    """``"zh"`` for zh, zh_CN, zh-Hans, zh_CN.UTF-8 ...; ``"en"`` for en*, C and POSIX; None
    for anything else (a language lecturekit does not speak, or nothing)."""
    if not name:
        return None
    code = name.strip().split(".")[0].split("@")[0].replace("-", "_").lower()
    if code in ("c", "posix"):
        return "en"
    base = code.split("_")[0]
    return base if base in LANGUAGES else None


def set_language(language: str | None) -> str:
    """Speak ``language`` (``"zh"`` or ``"en"``; zh_CN and the like are read as zh) from now on,
    in this process; ``None`` goes back to choosing automatically (module docstring). Returns
    the language now spoken. Text already shown (and widgets already made) keeps its language."""
    global _chosen
    if language is None:
        _chosen = None
        return get_language()
    found = normalize(language) if isinstance(language, str) else None
    if found is None:
        raise LanguageError(
            _("no catalog for language {language!r}; lecturekit speaks {known}").format(
                language=language, known=", ".join(LANGUAGES)
            )
        )
    _chosen = found
    return found


def get_language() -> str:
    """The language lecturekit speaks now (module docstring: how it is chosen)."""
    return _chosen or language_reason()[0]


def language_reason() -> tuple[str, str]:
    """(language, why): the automatic choice and what decided it, e.g.
    ``("zh", "notebook notebooks/zh/04_列表调度.ipynb (edition zh)")``."""
    found = _notebook_language()
    if found is not None:
        return found
    value = normalize(os.environ.get(ENV))
    if value:
        return value, f"{ENV}={os.environ[ENV]}"
    for var in LOCALE_ENV:
        raw = os.environ.get(var)
        if not raw:
            continue
        for part in raw.split(":") if var == "LANGUAGE" else [raw]:
            value = normalize(part)
            if value:
                return value, f"{var}={raw}"
        if var != "LANGUAGE":
            break  # gettext uses the first of LC_ALL, LC_MESSAGES, LANG that is set
    return "en", "default"


@contextlib.contextmanager
def using(language: str | None):
    """Speak ``language`` inside a ``with`` block (``None``: the automatic choice), then
    whatever was chosen before."""
    global _chosen
    before = _chosen
    set_language(language)
    try:
        yield get_language()
    finally:
        _chosen = before


# -- the notebook a kernel runs ----------------------------------------------------------------
def _notebook_path() -> Path | None:
    """The notebook this kernel runs, when the front end says (JupyterLab, VS Code)."""
    session = os.environ.get("JPY_SESSION_NAME", "")
    if session.endswith(".ipynb"):
        path = Path(session)
        for candidate in (path, Path.cwd() / path, Path.cwd() / path.name):
            if candidate.is_file():
                return candidate
    ipython = sys.modules.get("IPython")
    if ipython is not None:
        shell = ipython.get_ipython() if hasattr(ipython, "get_ipython") else None
        name = getattr(shell, "user_ns", {}).get("__vsc_ipynb_file__") if shell else None
        if isinstance(name, str) and Path(name).is_file():
            return Path(name)
    return None


def edition_of(path: Path) -> str | None:
    """The edition a notebook file declares (``metadata.lecturekit.edition``): ``"en"`` when it
    declares none; None when the file cannot be read as a notebook."""
    try:
        metadata = json.loads(path.read_text(encoding="utf-8")).get("metadata", {})
    except (OSError, UnicodeDecodeError, ValueError, AttributeError):
        return None
    edition = metadata.get("lecturekit", {}).get("edition") if isinstance(metadata, dict) else None
    return normalize(edition) if isinstance(edition, str) else "en"


def _folder_language(cwd: Path) -> str | None:
    """A kernel started in ``notebooks/zh`` runs the Chinese edition; in ``notebooks/`` (of a
    course: ``translations/`` beside it) the English one; elsewhere nothing is known."""
    if cwd.name in LANGUAGES and cwd.parent.name in EDITION_FOLDERS:
        return cwd.name
    if cwd.name in ENGLISH_FOLDERS and (cwd.parent / "translations").is_dir():
        return "en"
    return None


def _notebook_language() -> tuple[str, str] | None:
    if "ipykernel" not in sys.modules:
        return None  # not a Jupyter kernel: the CLI, a script, a console
    try:
        cwd = Path.cwd()
    except OSError:
        return None
    key = f"{os.environ.get('JPY_SESSION_NAME', '')}\0{cwd}"
    if key not in _notebook_cache:
        _notebook_cache[key] = None
        path = _notebook_path()
        edition = edition_of(path) if path is not None else None
        if edition is not None:
            why = f"notebook {path} (edition {edition})"  # i18n: not shown (a diagnosis)
            _notebook_cache[key] = (edition, why)
        else:
            folder = _folder_language(cwd)
            if folder is not None:
                why = f"notebook folder {cwd}"  # i18n: not shown (a diagnosis)
                _notebook_cache[key] = (folder, why)
    return _notebook_cache[key]


# -- looking messages up -----------------------------------------------------------------------
def translations(language: str | None = None) -> _gettext.NullTranslations:
    """The gettext translations of ``language`` (default: the one spoken now); English, and a
    language whose catalog is missing, give the messages back unchanged."""
    language = language or get_language()
    if language not in _translations:
        if language == "en":
            _translations[language] = _gettext.NullTranslations()
        else:
            _translations[language] = _gettext.translation(
                DOMAIN, str(LOCALE_DIR), languages=[language], fallback=True
            )
    return _translations[language]


def gettext(message: str) -> str:
    """``message`` in the language spoken now."""
    return translations().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for count ``n`` (``"{n} cycle"`` / ``"{n} cycles"``)."""
    return translations().ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the sense ``context`` names (``pgettext("button", "step")``), for an
    English word that needs different Chinese in different places."""
    return translations().pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    return translations().npgettext(context, singular, plural, n)


_ = gettext


def keep_underscore(shell=None) -> bool:
    """In a notebook, keep ``_`` the translation function across a student's throwaway ``_``.

    A chapter translates with ``from lecturekit import _``. A student who writes ``for _ in
    range(3):`` in a cell of their own rebinds it, and every later cell that shows text would
    fail with "'int' object is not callable". So, in an IPython kernel, after each cell: if
    ``_`` was lecturekit's before the cell and is something else after it, it is lecturekit's
    again (the throwaway value is thrown away, as ``_`` says). A notebook that never imported
    ``_`` is left alone, and so is IPython's own ``_`` (the last result). Registered once per
    shell when lecturekit is imported there; True when the shell now keeps ``_``."""
    if shell is None:
        ipython = sys.modules.get("IPython")
        get = getattr(ipython, "get_ipython", None)
        shell = get() if get is not None else None
    events = getattr(shell, "events", None)
    if events is None or not isinstance(getattr(shell, "user_ns", None), dict):
        return False
    if getattr(shell, "_lecturekit_keeps_underscore", False):
        return True
    ours = []

    def before_cell(*_info) -> None:
        ours[:] = [shell.user_ns.get("_") is gettext]

    def after_cell(*_result) -> None:
        if ours and ours[0] and shell.user_ns.get("_") is not gettext:
            shell.user_ns["_"] = gettext

    events.register("pre_run_cell", before_cell)
    events.register("post_run_cell", after_cell)
    shell._lecturekit_keeps_underscore = True
    return True


def N_(message: str) -> str:
    """Marks ``message`` for the catalog without translating it now (a module-level constant,
    read before any language is chosen); translate it with ``_()`` where it is shown."""
    return message


def ordinal(n: int) -> str:
    """``n`` as an ordinal in the language spoken: ``1st``, ``2nd``, ``11th`` in English, ``第 1``
    in Chinese (a message puts it where the language wants it)."""
    if get_language() == "en":
        suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
        return f"{n}{suffix}"
    return _("{n}th").format(n=n)


# -- text width --------------------------------------------------------------------------------
def display_width(text: str) -> int:
    """Columns ``text`` takes in a terminal or a monospace font: wide and full-width characters
    (Chinese, full-width punctuation) take two, combining marks none."""
    width = 0
    for ch in text:
        if unicodedata.combining(ch):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def ljust(text: str, width: int, fill: str = " ") -> str:
    """``text`` padded on the right to ``width`` columns (:func:`display_width`)."""
    return text + fill * max(0, width - display_width(text))


def rjust(text: str, width: int, fill: str = " ") -> str:
    """``text`` padded on the left to ``width`` columns (:func:`display_width`)."""
    return fill * max(0, width - display_width(text)) + text


def center(text: str, width: int, fill: str = " ") -> str:
    """``text`` centred in ``width`` columns (:func:`display_width`; an odd column left over
    goes on the right)."""
    pad = max(0, width - display_width(text))
    left = pad // 2
    return fill * left + text + fill * (pad - left)


__all__ = [
    "DOMAIN",
    "ENV",
    "LANGUAGES",
    "LanguageError",
    "N_",
    "center",
    "display_width",
    "edition_of",
    "get_language",
    "gettext",
    "keep_underscore",
    "language_reason",
    "ljust",
    "ngettext",
    "npgettext",
    "ordinal",
    "pgettext",
    "rjust",
    "set_language",
    "translations",
    "using",
]
