"""lecturekit's message catalog: extract, update, compile and check it; find and wrap unmarked text.

Usage (from the course root, with Babel installed: ``pip install -e .[test]``)::

    python tools/messages.py update     # extract every marked message of lecturekit/ and of
                                        # the English chapters' code cells, merge into
                                        # locale/zh/LC_MESSAGES/lecturekit.po (new ones
                                        # empty, changed ones fuzzy with the old translation)
    python tools/messages.py compile    # .po -> .mo (committed beside it)
    python tools/messages.py check      # what is untranslated, fuzzy, stale or inconsistent
    python tools/messages.py find [PATH...]   # user-facing text not marked (default: MARKED;
                                        # a chapter: notebooks/04_list_scheduling.ipynb, or
                                        # `notebooks` for every English chapter)
    python tools/messages.py wrap FILE...     # mark it: "x" -> _("x"), f"{a} b" ->
                                        # _("{a} b").format(a=a); review the diff, then
                                        # `ruff format`; module-level text is listed, not changed

One catalog holds the library's text and the chapters' own: a chapter's code cells are the
same in both editions, so what they print goes through ``_()`` too (``from lecturekit import
_``), and ``update`` extracts it from ``notebooks/*.ipynb`` (the English chapters; the Chinese
ones have the same code) with the source reference ``notebooks/NN_topic.ipynb#<cell id>``.

The catalog's rules are in :mod:`lecturekit.language`; ``tests/test_messages.py`` runs
``check`` and ``find`` (so it fails on a marked message with no Chinese, a stale ``.mo``, or
text in :data:`MARKED` that is not marked), and ``tests/test_i18n_outputs.py`` runs ``find`` on
each chapter it enforces.
"""

from __future__ import annotations

import ast
import datetime
import io
import json
import re
import string
import sys
import tokenize
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "lecturekit"
#: the English chapters, whose code cells are read like modules (the Chinese ones, in zh/, have
#: the same code)
NOTEBOOKS = ROOT / "notebooks"
#: the problem sets' masters: what a student sees of their code (the setup cells, the code a
#: question hands over) is read like a chapter's; the solution and test cells are not shown
SOLUTIONS = ROOT / "solutions"
LOCALE = PACKAGE / "locale"
DOMAIN = "lecturekit"
TRANSLATED = ("zh",)

#: Where every user-facing string must be marked for translation (``find`` reports an unmarked
#: one, and the test fails on it): the whole package, but for what :data:`NOT_YET` leaves out.
MARKED = ("lecturekit",)
#: inside MARKED, not yet marked (empty: the whole package is)
NOT_YET: tuple[str, ...] = ()

#: the marking functions (lecturekit.language) and the position of their message arguments
KEYWORDS = {
    "_": None,
    "gettext": None,
    "N_": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
}
#: the header every .po keeps (no dates, no tool versions: nothing that changes by itself)
HEADER = "lecturekit's messages in {language}. Edit msgstr; run `python tools/messages.py compile`."


def rel(path: Path) -> str:
    """``path`` as the course names it (relative to the root where it is inside)."""
    try:
        return path.relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


def po_path(language: str) -> Path:
    return LOCALE / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(language: str) -> Path:
    return po_path(language).with_suffix(".mo")


def source_files(paths=("lecturekit",)) -> list[Path]:
    """The Python modules under ``paths`` (notebooks are :func:`notebook_files`)."""
    found: set[Path] = set()
    for p in paths:
        path = ROOT / p
        if path.suffix == ".ipynb" or path == NOTEBOOKS:
            continue
        found |= set(path.rglob("*.py")) if path.is_dir() else {path}
    return sorted(f for f in found if f.is_file())


def notebook_files(paths=("notebooks", "solutions")) -> list[Path]:
    """The English chapters and problem-set masters among ``paths`` (``notebooks`` or
    ``solutions`` for all of them, or notebook files; never the Chinese edition in
    ``notebooks/zh``, whose code is the English one's, nor the exercises made from the masters)."""
    found: set[Path] = set()
    for p in paths:
        path = ROOT / p
        if path.is_dir() and path.resolve() in (NOTEBOOKS.resolve(), SOLUTIONS.resolve()):
            found |= set(path.glob("*.ipynb"))
        elif path.suffix == ".ipynb":
            found.add(path)
    return sorted(f for f in found if f.is_file())


#: a line of IPython (a magic, a shell command): not Python, read as a comment
_MAGIC = re.compile(r"^(\s*)([%!])", re.MULTILINE)


def notebook_cells(path: Path) -> list[tuple[str, str]]:
    """(cell id, code) of each code cell of the notebook at ``path``, its IPython lines
    (``%config ...``) turned into comments so that the lines keep their numbers; a cell that is
    a cell magic (``%%bash``) is not Python and is left out."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    cells = []
    hidden = False  # inside a master's solution or tests: never shown to a student as code
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "raw":
            marker = "".join(cell.get("source", "")).strip().upper()
            if marker.startswith(("# BEGIN SOLUTION", "# BEGIN TESTS")):
                hidden = True
            elif marker.startswith(("# END SOLUTION", "# END TESTS")):
                hidden = False
        if cell.get("cell_type") != "code" or hidden:
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else source
        if source.lstrip().startswith("%%"):
            continue
        cells.append((cell.get("id", "?"), _MAGIC.sub(r"\1#\2", source)))
    return cells


@dataclass(frozen=True)
class Code:
    """Python the catalog reads: a module of the package, or one code cell of a chapter."""

    path: Path
    source: str
    cell: str | None = None

    @property
    def where(self) -> str:
        """How the catalog names it: ``lecturekit/core/window.py``,
        ``notebooks/04_list_scheduling.ipynb#e3a0e866``."""
        return rel(self.path) + (f"#{self.cell}" if self.cell is not None else "")


def code(paths=("lecturekit", "notebooks", "solutions")) -> list[Code]:
    """The modules, the chapters' code cells and the problem sets' shown code under ``paths``."""
    found = [Code(p, p.read_text(encoding="utf-8")) for p in source_files(paths)]
    for nb in notebook_files(paths):
        found += [Code(nb, source, cell) for cell, source in notebook_cells(nb)]
    return found


# -- extraction (Babel) ------------------------------------------------------------------------
def extract(helpers: bool = True):
    """A Babel catalog template of every marked message in lecturekit/ and in the English
    chapters' code cells, in file and line order, each with the files (and cells) it comes
    from; with ``helpers``, also the text a chapter gives a helper of its own that translates
    it (:func:`helper_messages`)."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract as babel_extract

    template = Catalog(domain=DOMAIN, fuzzy=False)
    for unit in code():
        for lineno, message, comments, context in babel_extract(
            "python",
            io.BytesIO(unit.source.encode("utf-8")),
            keywords=KEYWORDS,
            comment_tags=("i18n:",),
            options={"encoding": "utf-8"},
            strip_comment_tags=True,
        ):
            template.add(
                message, None, [(unit.where, lineno)], auto_comments=comments, context=context
            )
    if helpers:
        for nb in notebook_files():
            for cell, lineno, message in helper_messages(nb):
                template.add(message, None, [(f"{rel(nb)}#{cell}", lineno)])
    return template


def _read(language: str):
    from babel.messages.pofile import read_po

    path = po_path(language)
    if not path.exists():
        from babel.messages.catalog import Catalog

        return Catalog(locale=language, domain=DOMAIN)
    with path.open("rb") as fh:
        return read_po(fh, locale=language, domain=DOMAIN)


def _fix_header(catalog, language: str) -> None:
    fixed = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
    catalog.project, catalog.version = "lecturekit", "1"
    catalog.creation_date = catalog.revision_date = fixed
    catalog.last_translator = catalog.language_team = "lecturekit"
    catalog.msgid_bugs_address = ""
    catalog.fuzzy = False
    catalog.header_comment = "# " + HEADER.format(language=language)


def _po_bytes(catalog) -> bytes:
    from babel.messages.pofile import write_po

    buf = io.BytesIO()
    write_po(buf, catalog, width=100, ignore_obsolete=True, include_lineno=False)
    # the one line that names the tool's version would change with every Babel release
    return re.sub(rb'"Generated-By: .*?\\n"\n', b"", buf.getvalue())


def update() -> None:
    template = extract()
    for language in TRANSLATED:
        catalog = _read(language)
        catalog.update(template, update_creation_date=False)
        _fix_header(catalog, language)
        po_path(language).parent.mkdir(parents=True, exist_ok=True)
        po_path(language).write_bytes(_po_bytes(catalog))
        print(f"{po_path(language).relative_to(ROOT)}: {len(catalog)} messages")


def mo_bytes(language: str) -> bytes:
    from babel.messages.mofile import write_mo

    buf = io.BytesIO()
    write_mo(buf, _read(language), use_fuzzy=False)
    return buf.getvalue()


def compile_all() -> None:
    for language in TRANSLATED:
        mo_path(language).write_bytes(mo_bytes(language))
        print(f"wrote {mo_path(language).relative_to(ROOT)}")


# -- checks ------------------------------------------------------------------------------------
def _fields(text: str) -> set[str] | None:
    try:
        return {
            f"{name}!{conv}"
            for _lit, name, _spec, conv in string.Formatter().parse(text)
            if name is not None
        }
    except ValueError:
        return None


def problems(language: str = "zh") -> list[str]:
    """Every way the catalog of ``language`` is not complete and current (empty when it is)."""
    template = extract()
    catalog = _read(language)
    found = []
    for message in template:
        if not message.id:
            continue
        entry = catalog.get(message.id, context=message.context)
        where = ", ".join(sorted({f for f, _ in message.locations}))
        shown = message.id if isinstance(message.id, str) else message.id[0]
        if entry is None:
            found.append(f"missing: {shown!r} ({where}): run `python tools/messages.py update`")
        elif entry.fuzzy or not all(
            entry.string if isinstance(entry.string, tuple) else [entry.string]
        ):
            kind = "fuzzy (the English changed)" if entry.fuzzy else "untranslated"
            found.append(f"{kind}: {shown!r} ({where})")
        else:
            ids = entry.id if isinstance(entry.id, tuple) else (entry.id,)
            strs = entry.string if isinstance(entry.string, tuple) else (entry.string,)
            want = _fields(ids[-1])
            for s in strs:
                if want is not None and _fields(s) != want:
                    found.append(
                        f"placeholders differ: {shown!r} has {sorted(want)}, the translation "
                        f"{sorted(_fields(s) or [])}"
                    )
    extracted = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in template if m.id}
    for entry in catalog:
        key = (entry.id if isinstance(entry.id, str) else entry.id[0], entry.context)
        if entry.id and key not in extracted:
            found.append(f"obsolete: {key[0]!r} is in the .po but not in the code: run update")
    if not mo_path(language).exists() or _mo_messages(
        mo_path(language).read_bytes()
    ) != _mo_messages(mo_bytes(language)):
        found.append(f"stale: {rel(mo_path(language))}: run `python tools/messages.py compile`")
    return found


def _mo_messages(data: bytes) -> dict:
    import gettext

    table = gettext.GNUTranslations(io.BytesIO(data))._catalog  # noqa: SLF001
    return {k: v for k, v in table.items() if k != ""}


# -- unmarked user-facing text -----------------------------------------------------------------
PROSE = re.compile(r"[A-Za-z][a-z]+[^\n]*? [^\n]*?[A-Za-z]{2,}")
#: calls whose string arguments a person reads
SHOWN_CALLS = {
    "print",
    "set_title",
    "set_xlabel",
    "set_ylabel",
    "suptitle",
    "text",
    "annotate",
    "Button",
    "Label",
    "HTML",
    "ToggleButton",
    "ToggleButtons",
    "Checkbox",
    "Dropdown",
    "add_argument_group",
}
SHOWN_KEYWORDS = {
    "label",
    "description",
    "tooltip",
    "placeholder",
    "title",
    "help",
    "xlabel",
    "ylabel",
    "caption",
    "step_name",
}
#: calls whose string arguments are names, not text (a key, an attribute, a pattern, a format)
NAME_CALLS = {
    "get",
    "pop",
    "setdefault",
    "startswith",
    "endswith",
    "removeprefix",
    "removesuffix",
    "getattr",
    "hasattr",
    "setattr",
    "import_module",
    "compile",
    "match",
    "fullmatch",
    "search",
    "sub",
    "split",
    "findall",
    "observe",
    "filterwarnings",
    "simplefilter",
    "strftime",
    "encode",
    "decode",
    "replace",
    "join",
    "partition",
    "rpartition",
    "isinstance",
    "Layout",
    "TypeVar",
    "namedtuple",
    "field",
    "set_defaults",
    "rc",
    "rcParams",
}
MARKERS = {"_", "gettext", "N_", "ngettext", "pgettext", "npgettext"}
#: keyword arguments whose strings are names or styles, never shown
NAME_KEYWORDS = {
    "textcoords",
    "xycoords",
    "scale",
    "xscale",
    "yscale",
    "which",
    "axis",
    "loc",
    "ha",
    "va",
    "family",
    "fontfamily",
    "weight",
    "fontweight",
    "color",
    "cmap",
    "linestyle",
    "ls",
    "boxstyle",
    "connectionstyle",
    "arrowstyle",
    "mode",
    "names",
    "style",
    "marker",
    "align",
    "orientation",
    "button_style",
    "bar_style",
    "dtype",
    "format",
    "kind",
    "interpolation",
    "aspect",
    "hatch",
    "edgecolor",
    "facecolor",
    "encoding",
    "errors",
    "sep",
}


@dataclass
class Unmarked:
    path: Path
    line: int
    text: str
    node: ast.AST
    module_level: bool
    cell: str | None = None  # a chapter's code cell (its id); line is the cell's

    def __str__(self) -> str:
        where = " (module level: mark with N_, translate where shown)" if self.module_level else ""
        place = rel(self.path) + (f"#{self.cell}" if self.cell is not None else "")
        return f"{place}:{self.line}: {self.text[:70]!r}{where}"


def _call_name(node: ast.Call) -> str | None:
    f = node.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


def _skipped_lines(source: str) -> set[int]:
    """Lines with a ``# i18n: not shown`` comment (a string there is not text a person reads) or
    ``# i18n: as is`` (read as written in every language: a proper name, a formula)."""
    lines = set()
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT and (
            "i18n: not shown" in tok.string or "i18n: as is" in tok.string
        ):
            lines.add(tok.start[0])
    return lines


def _literal_text(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
    return None


def unmarked(path: Path) -> list[Unmarked]:
    """User-facing text in ``path`` not passed to a marking function: a string or f-string that
    reads as prose (two words or more), or any text given to a call or keyword a person reads
    (``print``, ``set_xlabel``, ``description=`` ...); not docstrings, keys, names, patterns,
    comparisons, format specs, nor a line marked ``# i18n: not shown``."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    skip_lines = _skipped_lines(source)
    parents: dict[int, ast.AST] = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
    excluded: set[int] = set()

    def exclude(node: ast.AST) -> None:
        for sub in ast.walk(node):
            excluded.add(id(sub))

    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and node.lineno in skip_lines:
            exclude(node)  # the marker on a statement's first line covers the statement
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            first = node.body[0] if node.body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                exclude(first.value)  # docstring (a first statement that is a call is not one)
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            exclude(node.value)  # attribute docstrings (a string after an assignment)
        elif isinstance(node, ast.Call):
            name = _call_name(node)
            if name == "join":  # the separator is not text; what it joins may be
                exclude(node.func)
            elif name in MARKERS or name in NAME_CALLS:
                exclude(node)
        elif isinstance(node, ast.Compare):
            exclude(node)
        elif isinstance(node, ast.keyword) and node.arg in NAME_KEYWORDS:
            exclude(node.value)
        elif isinstance(node, ast.Subscript):
            exclude(node.slice)
        elif isinstance(node, ast.Dict):
            for key in node.keys:
                if key is not None:
                    exclude(key)
        elif isinstance(node, ast.FormattedValue) and node.format_spec is not None:
            exclude(node.format_spec)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
                exclude(node)
        elif isinstance(node, ast.JoinedStr):
            for v in node.values:  # an f-string is one text; its parts are not
                excluded.add(id(v))
                if isinstance(v, ast.FormattedValue):
                    for sub in ast.walk(v.value):
                        if isinstance(sub, ast.Constant):
                            excluded.add(id(sub))

    def module_level(node: ast.AST) -> bool:
        """Evaluated at import (module or class body, a default argument), before anyone can
        choose a language: it is marked with N_ and translated where shown."""
        child = node
        while id(child) in parents:
            parent = parents[id(child)]
            if isinstance(parent, ast.arguments):
                return True
            if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                return False
            child = parent
        return True

    def shown(node: ast.AST) -> bool:
        parent = parents.get(id(node))
        if isinstance(parent, ast.keyword) and parent.arg in SHOWN_KEYWORDS:
            return True
        if isinstance(parent, ast.Call) and node in parent.args:
            name = _call_name(parent)
            return name in SHOWN_CALLS or (name or "").endswith(("Error", "Exception"))
        return False

    found = []
    for node in ast.walk(tree):
        if id(node) in excluded:
            continue
        text = _literal_text(node)
        if text is None or not text.strip():
            continue
        lines = range(node.lineno, (node.end_lineno or node.lineno) + 1)
        if any(n in skip_lines for n in lines):
            continue
        words = re.sub(r"<[^>]*>|&\w+;|\{\}", " ", text)  # markup and values are not text
        if PROSE.search(words) or (shown(node) and re.search(r"[A-Za-z]{2,}", words)):
            found.append(Unmarked(path, node.lineno, text, node, module_level(node)))
    return sorted(found, key=lambda u: u.line)


# -- a chapter's helpers that translate what they are given --------------------------------------
def _cell_trees(path: Path) -> list[tuple[str, ast.AST, str]]:
    """(cell id, syntax tree, code) of each code cell of a chapter that is Python."""
    found = []
    for cell, source in notebook_cells(path):
        tree = _parse(source)
        if tree is not None:
            found.append((cell, tree, source))
    return found


def translating_parameters(trees) -> dict[str, dict[str, int | None]]:
    """The functions a chapter defines that translate a parameter themselves: ``{function:
    {parameter: position}}``. A parameter is translated when the function passes it, or each
    of its items, to ``_()``: ``_(title)``, ``" | ".join(_(h) for h in header)``."""
    found: dict[str, dict[str, int | None]] = {}
    for _cell, tree, _source in trees:
        for fn in tree.body:
            if not isinstance(fn, ast.FunctionDef):
                continue
            positional = [a.arg for a in fn.args.posonlyargs + fn.args.args]
            params = set(positional) | {a.arg for a in fn.args.kwonlyargs}
            items = {}  # a name bound to each item of a parameter: for h in header
            for node in ast.walk(fn):
                loops = [node] if isinstance(node, (ast.For, ast.comprehension)) else []
                for loop in loops:
                    if (
                        isinstance(loop.target, ast.Name)
                        and isinstance(loop.iter, ast.Name)
                        and loop.iter.id in params
                    ):
                        items[loop.target.id] = loop.iter.id
            for node in ast.walk(fn):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Name)
                    and node.func.id in ("_", "gettext")
                    and node.args
                    and isinstance(node.args[0], ast.Name)
                ):
                    name = node.args[0].id
                    param = name if name in params else items.get(name)
                    if param is not None:
                        position = positional.index(param) if param in positional else None
                        found.setdefault(fn.name, {})[param] = position
    return found


def _translated_arguments(call: ast.Call, params: dict[str, int | None]) -> list[ast.AST]:
    """The arguments of ``call`` that its function translates (:func:`translating_parameters`)."""
    found = []
    for param, position in params.items():
        if position is not None and position < len(call.args):
            found.append(call.args[position])
        found += [k.value for k in call.keywords if k.arg == param]
    return found


def _helper_literals(arg: ast.AST) -> list[ast.Constant]:
    """The texts a helper is given as they are written: ``"order"``, or the texts of a list or
    tuple written in place (``["order", "cycles", *more]``)."""
    elts = arg.elts if isinstance(arg, (ast.List, ast.Tuple)) else [arg]
    return [e for e in elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]


def helper_messages(path: Path) -> list[tuple[str, int, str]]:
    """(cell id, line, text) of each text a chapter gives one of its own helpers that
    translates it (``table(["order", "cycles"], rows)`` where ``table`` does ``_(h) for h in
    header``): they are in the catalog as if written ``_("order")``, so the call reads
    naturally and the helper translates in one place."""
    trees = _cell_trees(path)
    helpers = translating_parameters(trees)
    found = []
    for cell, tree, _source in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                params = helpers.get(node.func.id)
                for arg in _translated_arguments(node, params) if params else ():
                    for literal in _helper_literals(arg):
                        if literal.value.strip():
                            found.append((cell, literal.lineno, literal.value))
    return found


# -- unmarked text in a chapter's code cells ---------------------------------------------------
#: what a chapter's code shows text with, besides :data:`SHOWN_CALLS`: IPython's display and
#: Markdown, pyplot's functions, tick labels and legends
CELL_SHOWN_CALLS = SHOWN_CALLS | {
    "display",
    "Markdown",
    "title",
    "xlabel",
    "ylabel",
    "legend",
    "figtext",
    "set_xticklabels",
    "set_yticklabels",
    "bar_label",
}
CELL_SHOWN_KEYWORDS = SHOWN_KEYWORDS | {"labels", "tick_label", "xticklabels", "yticklabels"}
#: methods that put values into the container they are called on (a table's rows)
FILLS = {"append", "extend", "insert", "add", "update", "setdefault", "appendleft"}
#: calls whose result shows what they are given (the container's items, the text itself)
PASSES_ON = {"items", "values", "keys", "copy", "strip", "upper", "lower", "capitalize"}
PASSES_ON_BUILTINS = {"str", "list", "tuple", "sorted", "reversed", "enumerate", "zip", "set"}
#: code and names inside a text: registers ($t0, %rax), snake_case and dotted names, `code`,
#: command-line options (-funroll-loops), names with a digit (sifive-u74, fp16, A100)
CODE_WORDS = re.compile(
    r"[$%]\w+|\w+_\w+|\w+\.\w+|`[^`]*`|(?<![\w-])--?\w[\w-]*|\b[\w-]*\d[\w-]*\b"
)


def _cell_words(text: str) -> str:
    """``text`` without markup, the values filled in, and code or names in it."""
    return CODE_WORDS.sub(" ", re.sub(r"<[^>]*>|&\w+;|\{\}", " ", text))


def unmarked_in_cells(path: Path) -> list[Unmarked]:
    """Text that a chapter's code cells show without ``_()``.

    A chapter's code runs after its language is chosen, so nothing in it is "module level";
    what counts is where a text goes. Shown are the arguments of ``print``, ``display``,
    ``Markdown``, a widget and a drawing (``set_title``, ``title=``, ``label=`` ...), and of a
    function the chapter defines that shows them (its table helper); through a name, what was
    put in it (``rows.append([...])``, ``rows += ...``), and what it was bound to
    (``what = ...``, ``for what, order in orders.items()``), and a function's ``return``.
    Text given to the shown call, or put into a shown container, is reported when it holds a
    word; text bound to a name on its way there when it reads as prose (two words or more: a
    single word there is usually a name the code passes on, like a machine's). Not reported:
    names and code inside a text (``$t0``, ``slide_literally``), text inside any other call
    (``analyze(SIX)``, ``list_schedule(dg, "height")``), a line marked ``# i18n: as is`` or
    ``# i18n: not shown``."""
    cells = []
    for cell, source in notebook_cells(path):
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue  # not Python: running the chapter says so
        skip = _skipped_lines(source)
        ignored: set[int] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.stmt) and node.lineno in skip:
                ignored |= {id(sub) for sub in ast.walk(node)}
        cells.append((cell, tree, skip, ignored))
    where_of = {id(node): cell for cell, tree, _s, _i in cells for node in ast.walk(tree)}
    functions: dict[str, ast.FunctionDef] = {}
    for _cell, tree, _s, _i in cells:
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                functions[node.name] = node
    calls = [n for _c, tree, _s, _i in cells for n in ast.walk(tree) if isinstance(n, ast.Call)]
    helpers = translating_parameters([(cell, tree, "") for cell, tree, _s, _i in cells])
    translated: set[int] = set()  # texts given to a helper that translates them
    for call in calls:
        params = helpers.get(call.func.id) if isinstance(call.func, ast.Name) else None
        for arg in _translated_arguments(call, params) if params else ():
            translated |= {id(literal) for literal in _helper_literals(arg)}
    ignored_all = set().union(*(c[3] for c in cells)) if cells else set()
    skip_of = {cell: skip for cell, _t, skip, _i in cells}

    found: dict[int, Unmarked] = {}
    walked: set[tuple[int, bool]] = set()
    todo: list[tuple[ast.AST, bool]] = []
    tainted: set[str] = set()
    returning: set[str] = set()

    def show(node: ast.AST | None, direct: bool) -> None:
        if node is not None and (id(node), direct) not in walked and id(node) not in ignored_all:
            walked.add((id(node), direct))
            todo.append((node, direct))

    def report(node: ast.AST, text: str, direct: bool) -> None:
        cell = where_of[id(node)]
        lines = range(node.lineno, (node.end_lineno or node.lineno) + 1)
        if not text.strip() or id(node) in translated or any(n in skip_of[cell] for n in lines):
            return
        words = _cell_words(text)
        prose = PROSE.search(words) and "\n" not in text.strip()
        if (direct and re.search(r"[A-Za-z]{2,}", words)) or prose:
            found[id(node)] = Unmarked(path, node.lineno, text, node, False, cell)

    def taint(name: str) -> None:
        if name in tainted or name in functions:
            return
        tainted.add(name)
        for _cell, tree, _s, _i in cells:
            for node in ast.walk(tree):
                bound_here = False
                if isinstance(node, (ast.Assign, ast.AnnAssign, ast.NamedExpr)):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    bound_here = any(_binds(t, name) for t in targets)
                    if bound_here:
                        show(node.value, False)
                    elif any(_fills(t, name) for t in targets):
                        show(node.value, True)  # rows[k] = [...]
                elif isinstance(node, ast.AugAssign) and _binds(node.target, name):
                    show(node.value, True)  # lines += [...]
                elif isinstance(node, (ast.For, ast.comprehension)) and _binds(node.target, name):
                    show(node.iter, False)
                elif (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr in FILLS
                    and isinstance(node.func.value, ast.Name)
                    and node.func.value.id == name
                ):
                    for arg in [*node.args, *(k.value for k in node.keywords)]:
                        show(arg, True)
        for fname, fn in functions.items():  # a parameter of a function the chapter defines
            params = [a.arg for a in fn.args.posonlyargs + fn.args.args]
            if name not in params and name not in [a.arg for a in fn.args.kwonlyargs]:
                continue
            k = params.index(name) if name in params else None
            for call in calls:
                if isinstance(call.func, ast.Name) and call.func.id == fname:
                    if k is not None and k < len(call.args):
                        show(call.args[k], True)
                    for kw in call.keywords:
                        if kw.arg == name:
                            show(kw.value, True)

    def walk(node: ast.AST, direct: bool) -> None:
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str):
                report(node, node.value, direct)
        elif isinstance(node, ast.JoinedStr):
            report(node, _literal_text(node) or "", direct)
            for v in node.values:
                if isinstance(v, ast.FormattedValue):
                    show(v.value, direct)
        elif isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            for e in node.elts:
                show(e, direct)
        elif isinstance(node, ast.Dict):
            for e in [*node.keys, *node.values]:
                show(e, direct)
        elif isinstance(node, ast.BinOp):
            show(node.left, direct)
            show(node.right, direct)
        elif isinstance(node, ast.BoolOp):
            for e in node.values:
                show(e, direct)
        elif isinstance(node, ast.IfExp):
            show(node.body, direct)
            show(node.orelse, direct)
        elif isinstance(node, (ast.Starred, ast.Subscript, ast.NamedExpr)):
            show(node.value, direct)
        elif isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
            show(node.elt, direct)
        elif isinstance(node, ast.DictComp):
            show(node.key, direct)
            show(node.value, direct)
        elif isinstance(node, ast.Name):
            taint(node.id)
        elif isinstance(node, ast.Call):
            name = _call_name(node)
            if name in MARKERS:
                return  # marked: the catalog has it
            if isinstance(node.func, ast.Attribute) and name == "format":
                show(node.func.value, direct)
                for arg in [*node.args, *(k.value for k in node.keywords)]:
                    show(arg, False)  # values put into a text: names, unless prose
            elif isinstance(node.func, ast.Attribute) and name == "join":
                for arg in node.args:
                    show(arg, direct)  # what it joins, not the separator
            elif isinstance(node.func, ast.Attribute) and name in PASSES_ON:
                show(node.func.value, direct)
            elif isinstance(node.func, ast.Name) and name in PASSES_ON_BUILTINS:
                for arg in node.args:
                    show(arg, direct)
            elif isinstance(node.func, ast.Name) and name in functions and name not in returning:
                returning.add(name)
                for sub in ast.walk(functions[name]):
                    if isinstance(sub, ast.Return):
                        show(sub.value, True)

    for _cell, tree, _s, _i in cells:
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = _call_name(node)
                if name in CELL_SHOWN_CALLS:
                    for arg in node.args:
                        show(arg, True)
                for kw in node.keywords:
                    if kw.arg in CELL_SHOWN_KEYWORDS:
                        show(kw.value, True)
        last = tree.body[-1] if tree.body else None
        if isinstance(last, ast.Expr) and not isinstance(last.value, ast.Call):
            show(last.value, True)  # a cell's last value is displayed
    while todo:
        walk(*todo.pop())
    order = {cell: k for k, (cell, _t, _s, _i) in enumerate(cells)}
    return sorted(found.values(), key=lambda u: (order[u.cell], u.line, u.node.col_offset))


def _binds(target: ast.AST, name: str) -> bool:
    """Whether assigning to ``target`` binds ``name`` (``name``, ``a, name``, ``a, (b, name)``)."""
    if isinstance(target, ast.Name):
        return target.id == name
    if isinstance(target, (ast.Tuple, ast.List)):
        return any(_binds(t, name) for t in target.elts)
    if isinstance(target, ast.Starred):
        return _binds(target.value, name)
    return False


def _fills(target: ast.AST, name: str) -> bool:
    """Whether assigning to ``target`` puts a value into ``name`` (``name[k] = ...``)."""
    return (
        isinstance(target, ast.Subscript)
        and isinstance(target.value, ast.Name)
        and target.value.id == name
    )


def find(paths=MARKED, not_yet=NOT_YET) -> list[Unmarked]:
    """Unmarked text in the modules under ``paths`` (:func:`unmarked`) and in the chapters
    among them (``notebooks/NN_topic.ipynb``, or ``notebooks`` for all:
    :func:`unmarked_in_cells`)."""
    skip = tuple(ROOT / p for p in not_yet)
    found = [
        u
        for path in source_files(paths)
        if not any(path == s or s in path.parents for s in skip)
        for u in unmarked(path)
    ]
    return found + [u for nb in notebook_files(paths) for u in unmarked_in_cells(nb)]


def _tree(unit: Code) -> ast.AST | None:
    """The syntax tree of ``unit``; None for a cell that is not Python (running the chapter
    says so), where a module's syntax error is raised."""
    return ast.parse(unit.source) if unit.cell is None else _parse(unit.source)


def marked_calls_with_no_literal(paths=("lecturekit", "notebooks", "solutions")) -> list[str]:
    """``_(f"...")``, ``_("a" + b)``, ``_("{n}".format(n=n))``: a marking call whose message is
    built in place, which no extraction can see (the catalog would never hold it). A name, an
    attribute or a subscript is fine: text marked with ``N_`` where it was defined (or, in a
    chapter, data shown as it is translated: ``_(p.heuristic)``)."""
    wrong = []
    built = (ast.JoinedStr, ast.BinOp, ast.Call, ast.IfExp, ast.BoolOp)
    for unit in code(paths):
        tree = _tree(unit)
        for node in ast.walk(tree) if tree is not None else ():
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            spec = KEYWORDS.get(node.func.id, False)
            if spec is False:
                continue
            positions = (
                [0] if spec is None else [(p[0] if isinstance(p, tuple) else p) - 1 for p in spec]
            )
            for k in positions:
                if k < len(node.args) and isinstance(node.args[k], built):
                    where = f"{unit.where}:{node.lineno}"
                    wrong.append(f"{where}: {node.func.id}() of text built in place")
    return wrong


def shadowed(paths=("lecturekit", "notebooks", "solutions")) -> list[str]:
    """Functions (and comprehensions) that call ``_()`` where ``_`` is also a local name (``for _
    in ...``, ``a, _ = ...``): there the call would reach the throwaway value, not the catalog.
    A chapter is one namespace: ``_, x = ...`` at the top of any cell rebinds the ``_`` every
    other cell translates with (:func:`shadowed_in_chapter`)."""
    scopes = (
        ast.FunctionDef,
        ast.AsyncFunctionDef,
        ast.Lambda,
        ast.ListComp,
        ast.SetComp,
        ast.DictComp,
        ast.GeneratorExp,
    )
    wrong = []
    for unit in code(paths):
        tree = _tree(unit)
        for scope in ast.walk(tree) if tree is not None else ():
            if not isinstance(scope, scopes):
                continue
            stores, calls = [], []
            todo = list(ast.iter_child_nodes(scope))
            while todo:
                node = todo.pop()
                if isinstance(
                    node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
                ):
                    continue  # its own scope
                if (
                    isinstance(node, ast.Name)
                    and node.id == "_"
                    and isinstance(node.ctx, ast.Store)
                ):
                    stores.append(node.lineno)
                if isinstance(node, ast.arg) and node.arg == "_":
                    stores.append(node.lineno)
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Name)
                    and node.func.id == "_"
                ):
                    calls.append(node.lineno)
                todo.extend(ast.iter_child_nodes(node))
            if isinstance(scope, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
                pass
            if stores and calls:
                wrong.append(
                    f"{unit.where}:{min(stores)}: `_` is a local name here and _() is called "
                    f"(line {min(calls)}): rename the throwaway"
                )
    return wrong + [w for nb in notebook_files(paths) for w in shadowed_in_chapter(nb)]


def _top_level(tree: ast.AST):
    """The nodes of a cell that run in the chapter's namespace (not inside a function, a
    class or a comprehension, which have their own)."""
    todo = list(ast.iter_child_nodes(tree))
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(
            node,
            (
                ast.FunctionDef,
                ast.AsyncFunctionDef,
                ast.Lambda,
                ast.ClassDef,
                ast.ListComp,
                ast.SetComp,
                ast.DictComp,
                ast.GeneratorExp,
            ),
        ):
            todo.extend(ast.iter_child_nodes(node))


def shadowed_in_chapter(path: Path) -> list[str]:
    """A chapter that translates with ``_()`` and binds ``_`` to something else in its
    namespace (``_, trace = ...``, ``for _ in ...`` at the top of a cell): every cell run after
    it would call the throwaway. ``from lecturekit import _`` is the one binding allowed."""
    cells = [(cell, tree) for cell, src in notebook_cells(path) if (tree := _parse(src))]
    translates = any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in MARKERS
        for _cell, tree in cells
        for n in ast.walk(tree)
    )
    wrong = []
    for cell, tree in cells if translates else ():
        for node in _top_level(tree):
            if isinstance(node, ast.Name) and node.id == "_" and isinstance(node.ctx, ast.Store):
                wrong.append(
                    f"{rel(path)}#{cell}:{node.lineno}: `_` is bound here, and the chapter "
                    "translates with _(): rename the throwaway"
                )
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                for alias in node.names:
                    bound = alias.asname or alias.name
                    if bound == "_" and not (
                        isinstance(node, ast.ImportFrom)
                        and (node.module or "").split(".")[0] == "lecturekit"
                    ):
                        wrong.append(
                            f"{rel(path)}#{cell}:{node.lineno}: `_` is imported from elsewhere"
                        )
    return wrong


def _parse(source: str) -> ast.AST | None:
    try:
        return ast.parse(source)
    except SyntaxError:
        return None


# -- wrapping ----------------------------------------------------------------------------------
def _name_for(expr: ast.AST, taken: dict[str, str], source: str) -> str:
    text = ast.get_source_segment(source, expr) or ""
    for name, seen in taken.items():
        if seen == text:
            return name
    if isinstance(expr, ast.Name):
        base = expr.id
    elif isinstance(expr, ast.Attribute):
        base = expr.attr
    elif isinstance(expr, ast.Call) and _call_name(expr) == "len" and expr.args:
        base = "n_" + _name_for(expr.args[0], {}, source)
    elif isinstance(expr, ast.Call) and _call_name(expr):
        base = _call_name(expr).strip("_")
    elif isinstance(expr, ast.Subscript):
        base = _name_for(expr.value, {}, source)
    else:
        base = "value"
    base = re.sub(r"\W", "_", base).strip("_").lower() or "value"
    if base in ("self", "cls"):
        base = "value"
    name, k = base, 2
    while name in taken:
        name, k = f"{base}{k}", k + 1
    taken[name] = text
    return name


def _literal(text: str, indent: int) -> str:
    """``text`` as a Python string literal; long text as implicitly joined pieces on their own
    lines (inside the call's parentheses)."""
    if len(text) <= 70:
        return _quote(text)
    words = re.findall(r"\S+\s*|\s+", text)
    pieces, line = [], ""
    for w in words:
        if line and len(line) + len(w) > 70:
            pieces.append(line)
            line = ""
        line += w
    pieces.append(line)
    pad = " " * (indent + 4)
    return "\n" + "\n".join(pad + _quote(p) for p in pieces) + "\n" + " " * indent


def _quote(text: str) -> str:
    r = repr(text)
    if r.startswith("'") and '"' not in text:
        r = '"' + r[1:-1].replace("\\'", "'") + '"'
    return r


def wrapped(node: ast.AST, source: str, indent: int) -> str | None:
    """The marked form of one string or f-string node (None: too involved, do it by hand)."""
    if isinstance(node, ast.Constant):
        return f"_({ast.get_source_segment(source, node)})"
    parts, args, taken = [], [], {}
    for v in node.values:
        if isinstance(v, ast.Constant):
            parts.append(v.value.replace("{", "{{").replace("}", "}}"))
            continue
        name = _name_for(v.value, taken, source)
        conv = "" if v.conversion == -1 else "!" + chr(v.conversion)
        spec = ""
        if v.format_spec is not None:
            if any(not isinstance(s, ast.Constant) for s in v.format_spec.values):
                return None
            spec = ":" + "".join(s.value for s in v.format_spec.values)
        parts.append("{" + name + conv + spec + "}")
        if (name, taken[name]) not in args:
            args.append((name, taken[name]))
    call = ", ".join(f"{n}={t}" for n, t in args)
    return f"_({_literal(''.join(parts), indent)}).format({call})"


def wrap(path: Path) -> list[Unmarked]:
    """Mark the unmarked text of ``path`` in place; returns what it left for a person."""
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines(keepends=True)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line.encode("utf-8")))
    data = source.encode("utf-8")
    left, edits = [], []
    for u in unmarked(path):
        node = u.node
        if u.module_level:
            left.append(u)
            continue
        indent = len(lines[node.lineno - 1]) - len(lines[node.lineno - 1].lstrip())
        new = wrapped(node, source, indent)
        if new is None:
            left.append(u)
            continue
        start = offsets[node.lineno - 1] + node.col_offset
        end = offsets[node.end_lineno - 1] + node.end_col_offset
        edits.append((start, end, new.encode("utf-8")))
    for start, end, new in sorted(edits, reverse=True):
        data = data[:start] + new + data[end:]
    text = data.decode("utf-8")
    if edits and not _imports_marker(text):
        text = _add_import(text, path)
    path.write_text(text, encoding="utf-8")
    return left


def _imports_marker(text: str) -> bool:
    return any(
        isinstance(node, ast.ImportFrom)
        and (node.module or "").endswith("language")
        and any(a.name == "_" for a in node.names)
        for node in ast.walk(ast.parse(text))
    )


def _add_import(text: str, path: Path) -> str:
    depth = len(path.relative_to(PACKAGE).parts) - 1
    line = f"from {'.' * (depth + 1)}language import _\n"
    tree = ast.parse(text)
    last = 0
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            last = node.end_lineno
        elif last:
            break
    if not last:  # after the docstring
        last = tree.body[0].end_lineno if tree.body and isinstance(tree.body[0], ast.Expr) else 0
    lines = text.splitlines(keepends=True)
    return "".join(lines[:last] + [line] + lines[last:])


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("update", "compile", "check", "find", "wrap"):
        print(__doc__)
        return 2
    action, rest = argv[0], argv[1:]
    if action == "update":
        update()
    elif action == "compile":
        compile_all()
    elif action == "check":
        found = [p for language in TRANSLATED for p in problems(language)]
        found += marked_calls_with_no_literal()
        print("\n".join(found) or "the catalog is complete and compiled")
        return 1 if found else 0
    elif action == "find":
        found = find(rest) if rest else find()
        print("\n".join(map(str, found)) or "no unmarked text")
        return 1 if found else 0
    else:
        for p in rest:
            for u in wrap(Path(p).resolve()):
                print(f"by hand: {u}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
