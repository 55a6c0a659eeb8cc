"""Two editions from one source: the Chinese (中文) edition of the chapters and problem sets.

The English notebooks are the only source of code, tests and outputs. A translation file holds,
for each markdown cell of one English notebook, the English text it translates (``en``) and the
translation (``zh``), keyed by the cell's id::

    translations/zh/notebooks/04_list_scheduling.yaml   ->  notebooks/zh/04_列表调度.ipynb
    translations/zh/exercises/04_list_scheduling.yaml   ->  exercises/zh/04_列表调度_习题.ipynb

Each of a chapter's four notebooks has its own file name, because JupyterLab names a tab after
the file: ``notebooks/04_list_scheduling.ipynb``, the student's problem set
``exercises/04_list_scheduling_problems.ipynb`` (from the master ``solutions/04_list_scheduling
.ipynb``), and their Chinese editions, named by the chapter's short Chinese title
(:data:`TITLES`). :func:`edition_path` and :func:`problems_name` make these names,
:func:`topic_of` reads any of them back (and an old name, or a copy a student or a learning
platform renamed) to the chapter it belongs to; nothing else builds or parses them.

:func:`build_one` writes the Chinese notebook: every cell of the English one, in order, with the
same ids and code, each markdown cell's text replaced by its translation, and
``metadata.lecturekit.edition = "zh"``; :func:`run_edition` then runs it in its folder, where its
kernel speaks Chinese (:mod:`lecturekit.language`), so its saved outputs are the Chinese
edition's own (what the library prints comes from the message catalog). Code therefore exists
once; only prose is translated (in the spirit of gettext's ``msgid``/``msgstr``, with the English
text itself kept in the file so a reviewer sees what changed). :func:`edition_problems` says
whether a built notebook is what the build makes today, outputs aside, reading plain JSON.

A translation is *stale* when the English cell no longer equals the ``en`` it was written for,
and *missing* when a markdown cell has no entry or an empty ``zh``. :func:`check` reports both,
naming the notebook and the cell; the test suite fails on any. :func:`sync` prepares a file for a
translator: it adds empty entries for new cells, drops entries of cells that are gone, and for a
changed cell keeps the old translation, records the new English in ``en`` and the old English in
``en_was``, and marks it ``stale`` (like gettext's *fuzzy*) until a person has updated ``zh`` and
removed the mark.

A problem set's file also translates what a student reads when a check fails: ``messages`` lists
each assertion message of the public tests (an f-string message as its template, ``{}`` where a
value goes) with its translation. :func:`build_one` stores them in the Chinese notebook's metadata,
where ``lecturekit.grading.check.Grader`` finds them; :func:`translate_message` applies them.
"""

from __future__ import annotations

import ast
import copy
import json
import re
from dataclasses import dataclass
from pathlib import Path

from .errors import LectureKitError
from .language import N_, _

LANGUAGES = ("zh",)
#: English notebook folders that have editions, relative to the course root
SOURCES = ("notebooks", "exercises")


@dataclass(frozen=True)
class Problem:
    """One reason an edition is not current: which notebook, which cell, what is wrong."""

    notebook: str
    cell: str
    kind: str  # "missing", "stale", "orphan", "duplicate"
    detail: str = ""

    def __str__(self) -> str:
        kind = _(KINDS[self.kind]) if self.kind in KINDS else self.kind
        text = _("{notebook}: cell {cell}: {kind}").format(
            notebook=self.notebook, cell=self.cell, kind=kind
        )
        return f"{text} ({self.detail})" if self.detail else text


#: the kinds of :class:`Problem`, as shown (translated where shown)
KINDS = {
    "missing": N_("missing"),
    "stale": N_("stale"),
    "orphan": N_("orphan"),
    "duplicate": N_("duplicate"),
}


class TranslationError(LectureKitError):
    """A translation file that cannot be read or an edition that is not current."""


# -- file names --------------------------------------------------------------------------------
#: each chapter's short title in an edition's language, by the English chapter's file name: the
#: edition's file names (``notebooks/zh/04_列表调度.ipynb``). Shortened from the chapter's
#: Chinese title (its H1), in the lecture's terms. The one table of them: a chapter missing here
#: keeps its English name in the edition (a course other than this lecture), which the course's
#: tests do not allow for its own chapters.
TITLES = {
    "zh": {
        "01_processor_pipelines": "处理器流水线",
        "02_hazards_and_reordering": "冒险与重排",
        "03_dependence_graph": "数据依赖分析",
        "04_list_scheduling": "列表调度",
        "05_optimal_scheduling": "最优调度",
        "06_loop_unrolling": "循环展开",
        "07_software_pipelining": "软件流水线",
        "08_training_memory": "训练内存占用",
        "09_pipeline_parallelism": "流水线并行",
        "10_parallelism_and_collectives": "张量并行与集合通信",
        "11_hardware_limits": "硬件限制",
        "12_real_compilers": "真实编译器",
        "13_beyond_the_block": "超越基本块",
        "14_tensor_compilers": "张量程序编译",
        "15_training_network": "集群网络",
    }
}
#: what ends the file name of a student's problem set, by language (``en``: the English one)
PROBLEMS = {"en": "_problems", "zh": "_习题"}
#: the folder of the student problem sets (the masters are in ``solutions/``, named by topic)
EXERCISES = "exercises"


def title(topic: str, lang: str = "en") -> str:
    """A chapter's name in ``lang``'s file names: ``04_列表调度`` for ``04_list_scheduling``
    in Chinese; the topic itself in English or where the table has no title."""
    short = TITLES.get(lang, {}).get(topic)
    return f"{topic[:2]}_{short}" if short else topic


def problems_name(topic: str, lang: str = "en") -> str:
    """The file name of a chapter's student problem set in ``lang``:
    ``04_list_scheduling_problems.ipynb``, ``04_列表调度_习题.ipynb``."""
    return f"{title(topic, lang)}{PROBLEMS[lang]}.ipynb"


def topic_of(path: str | Path) -> str | None:
    """The chapter (the English chapter's file name without ``.ipynb``, ``04_list_scheduling``)
    a course notebook's file name belongs to: a chapter, a master, a problem set or an edition of
    either, by its name today or the name it had before (``exercises/04_list_scheduling.ipynb``),
    also a copy renamed after it (``04_列表调度_习题-Copy1.ipynb``,
    ``04_list_scheduling_problems_Li_Hua.ipynb``). None for a name that is none of these (or a
    chapter of another course, whose topic this table does not know: see :func:`english_topic`).
    """
    stem = Path(path).name.removesuffix(".ipynb")
    for titles in TITLES.values():
        for topic, short in titles.items():
            if stem.startswith(topic) or stem.startswith(f"{topic[:2]}_{short}"):
                return topic
    return None


def english_topic(source: Path) -> str:
    """The topic of an English notebook in ``notebooks/`` or ``exercises/`` (any course: a name
    the table does not know is taken as it is, less the problem sets' ending)."""
    stem = source.name.removesuffix(".ipynb")
    if source.parent.name == EXERCISES:
        stem = stem.removesuffix(PROBLEMS["en"])
    return stem


def translation_path(root: Path, source: Path, lang: str = "zh") -> Path:
    """``translations/<lang>/<folder>/<topic>.yaml`` for the English notebook ``source``
    (``translations/zh/exercises/04_list_scheduling.yaml`` for the problem set)."""
    rel = source.resolve().relative_to(root.resolve())
    return root / "translations" / lang / rel.parent / (english_topic(rel) + ".yaml")


def edition_path(root: Path, source: Path, lang: str = "zh") -> Path:
    """Where the ``lang`` edition of the English notebook ``source`` lives:
    ``notebooks/zh/04_列表调度.ipynb``, ``exercises/zh/04_列表调度_习题.ipynb``."""
    rel = source.resolve().relative_to(root.resolve())
    topic = english_topic(rel)
    if rel.parent.name == EXERCISES:
        return root / rel.parent / lang / problems_name(topic, lang)
    return root / rel.parent / lang / f"{title(topic, lang)}.ipynb"


def english_source(root: Path, edition: Path) -> Path | None:
    """The English notebook whose edition ``edition`` is (the inverse of :func:`edition_path`),
    or None when it is no edition of an English notebook of the course."""
    try:
        rel = edition.resolve().relative_to(root.resolve())
    except ValueError:
        return None
    if len(rel.parts) != 3 or rel.parts[0] not in SOURCES or rel.parts[1] not in LANGUAGES:
        return None
    for source in english_sources(root):
        if edition_path(root, source, rel.parts[1]) == root / rel:
            return source
    return None


def english_sources(root: Path) -> list[Path]:
    """Every English notebook that may have editions: the chapters, and the student problem sets
    by their names (``*_problems.ipynb``: a copy a student keeps under a problem set's old name,
    ``exercises/04_list_scheduling.ipynb``, is not one)."""
    return [
        p
        for folder in SOURCES
        for p in sorted((root / folder).glob("*.ipynb"))
        if folder != EXERCISES or p.stem.endswith(PROBLEMS["en"])
    ]


# -- translation files -----------------------------------------------------------------------
def _yaml():
    import yaml

    class Dumper(yaml.SafeDumper):
        pass

    def text(dumper, value):
        # YAML reads U+0085 (NEL) as a line break unless it is escaped, which only the
        # double-quoted style does; everything else keeps the readable block style.
        style = '"' if "\x85" in value else "|" if "\n" in value else None
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)

    Dumper.add_representer(str, text)
    return yaml, Dumper


_parsed: dict[Path, tuple[tuple[int, int], object]] = {}


def _document(path: Path):
    """A translation file's YAML, parsed once per version of the file (libyaml's loader where
    PyYAML has it: ``translate status`` reads every file of the course)."""
    yaml, _dumper = _yaml()
    try:
        stat = path.stat()
        key = (stat.st_mtime_ns, stat.st_size)
        if path in _parsed and _parsed[path][0] == key:
            return copy.deepcopy(_parsed[path][1])
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=loader) or {}  # noqa: S506
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise TranslationError(
            _("{path}: cannot read translation file: {error}").format(path=path, error=exc)
        ) from None
    _parsed[path] = (key, data)
    return copy.deepcopy(data)


def load(path: Path) -> list[dict]:
    """The entries of a translation file (a list of ``{id, en, zh[, en_was, stale]}``)."""
    data = _document(path)
    cells = data.get("cells") if isinstance(data, dict) else None
    if not isinstance(cells, list):
        raise TranslationError(
            _("{path}: expected a mapping with a 'cells' list").format(path=path)
        )
    for i, entry in enumerate(cells):
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
            raise TranslationError(
                _("{path}: entry {number} has no string 'id'").format(path=path, number=i + 1)
            )
        for key in ("en", "zh", "en_was"):
            if entry.get(key) is not None and not isinstance(entry[key], str):
                raise TranslationError(
                    _("{path}: cell {cell}: '{key}' must be text").format(
                        path=path, cell=entry["id"], key=key
                    )
                )
    return cells


def load_messages(path: Path) -> list[dict]:
    """The ``messages`` of a translation file: ``{en, zh}`` per assertion message (maybe none)."""
    if not path.exists():
        return []
    load(path)  # the same checks of the file as a whole
    data = _document(path)
    messages = data.get("messages") or []
    if not isinstance(messages, list):
        raise TranslationError(_("{path}: 'messages' must be a list").format(path=path))
    for i, m in enumerate(messages):
        if not isinstance(m, dict) or not isinstance(m.get("en"), str):
            raise TranslationError(
                _("{path}: message {number} has no text 'en'").format(path=path, number=i + 1)
            )
        if m.get("zh") is not None and not isinstance(m["zh"], str):
            raise TranslationError(
                _("{path}: message {number}: 'zh' must be text").format(path=path, number=i + 1)
            )
    return messages


def save(
    path: Path, source_rel: str, entries: list[dict], messages: list[dict] | None = None
) -> None:
    """Write a translation file; ``messages=None`` keeps the file's messages as they are."""
    yaml, Dumper = _yaml()
    if messages is None:
        messages = load_messages(path) if path.exists() else []
    ordered = []
    for e in entries:
        item = {"id": e["id"]}
        if e.get("stale"):
            item["stale"] = True
        item["en"] = e.get("en") or ""
        if e.get("en_was") is not None:
            item["en_was"] = e["en_was"]
        item["zh"] = e.get("zh") or ""
        ordered.append(item)
    document = {"source": source_rel, "cells": ordered}
    if messages:
        document["messages"] = [{"en": m["en"], "zh": m.get("zh") or ""} for m in messages]
    body = yaml.dump(
        document,
        Dumper=Dumper,
        allow_unicode=True,
        sort_keys=False,
        width=10_000,
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(body, encoding="utf-8")


# -- what a failing check says -----------------------------------------------------------------
def _template(node: ast.expr) -> str | None:
    """An assertion message as text: a string as it is, an f-string with ``{}`` for each value."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.replace("{", "{{").replace("}", "}}")
    if isinstance(node, ast.JoinedStr):
        parts = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                parts.append(str(v.value).replace("{", "{{").replace("}", "}}"))
            else:
                parts.append("{}")
        return "".join(parts)
    return None


def assertion_messages(test_code: str) -> list[str]:
    """The message templates of the ``assert`` statements in one doctest case (otter's format)."""
    lines = []
    for line in test_code.splitlines():
        stripped = line.lstrip()
        if stripped.startswith(">>> ") or stripped.startswith("... "):
            lines.append(stripped[4:])
        elif stripped in (">>>", "..."):
            lines.append("")
    try:
        tree = ast.parse("\n".join(lines))
    except SyntaxError:
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assert) and node.msg is not None:
            t = _template(node.msg)
            if t and t not in found:
                found.append(t)
    return found


def public_messages(nb) -> list[str]:
    """Every assertion message template of a student notebook's public tests, in order."""
    tests = nb.metadata.get("otter", {}).get("tests", {})
    found: list[str] = []
    for question in tests.values():
        for suite in question.get("suites", []):
            for case in suite.get("cases", []):
                if case.get("hidden"):
                    continue
                for t in assertion_messages(case.get("code", "")):
                    if t not in found:
                        found.append(t)
    return found


def _pattern(template: str) -> re.Pattern:
    pieces = re.split(r"(\{\{|\}\}|\{\})", template)
    regex = []
    for piece in pieces:
        if piece == "{}":
            regex.append("(.*?)")
        elif piece in ("{{", "}}"):
            regex.append(re.escape(piece[0]))
        else:
            regex.append(re.escape(piece))
    return re.compile("".join(regex) + r"\Z", re.S)


def translate_message(text: str, table: dict[str, str]) -> str:
    """``text`` (an assertion message as a student sees it) in the language of ``table``
    (English template -> translated template); unchanged when no template matches."""
    for template, translated in table.items():
        match = _pattern(template).match(text) if translated else None
        if match:
            return _fill(translated, list(match.groups()))
    return text


def _fill(template: str, values: list[str]) -> str:
    rest = iter(values)

    def one(m: re.Match) -> str:
        return m.group()[0] if m.group() != "{}" else next(rest, "")

    return re.sub(r"\{\{|\}\}|\{\}", one, template)


# -- the three operations ----------------------------------------------------------------------
def _markdown_cells(nb) -> list:
    return [c for c in nb.cells if c.cell_type == "markdown"]


class _Node(dict):
    """A notebook read as plain JSON, with nbformat's attribute access (``nb.cells``,
    ``cell.source`` as one string): reading and validating with nbformat would take most of
    ``translate status``'s time, and checking needs neither."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def read_plain(path: Path) -> _Node:
    """The notebook at ``path`` as :class:`_Node` (cells' sources joined into strings)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        cells = []
        for c in data.get("cells", []):
            cell = _Node(c)
            source = c.get("source", "")
            cell["source"] = "".join(source) if isinstance(source, list) else source
            cells.append(cell)
    except (OSError, UnicodeDecodeError, ValueError, AttributeError) as exc:
        raise TranslationError(
            _("{path}: cannot read the notebook: {error}").format(path=path, error=exc)
        ) from None
    return _Node(data, cells=cells, metadata=data.get("metadata", {}))


def check_one(source: Path, translation: Path, name: str | None = None) -> list[Problem]:
    """Every way the translation of ``source`` is not current (empty when it is)."""
    name = name or str(source)
    nb = read_plain(source)
    if not translation.exists():
        return [
            Problem(name, "*", "missing", _("no translation file {path}").format(path=translation))
        ]
    entries = load(translation)
    problems: list[Problem] = []
    by_id: dict[str, dict] = {}
    for e in entries:
        if e["id"] in by_id:
            problems.append(Problem(name, e["id"], "duplicate", _("the id appears twice")))
        by_id[e["id"]] = e
    ids = set()
    for cell in _markdown_cells(nb):
        cid = cell.get("id")
        if not cid:
            problems.append(Problem(name, "?", "missing", _("a markdown cell has no id")))
            continue
        ids.add(cid)
        entry = by_id.get(cid)
        first = cell.source.strip().splitlines()[0][:60] if cell.source.strip() else ""
        if entry is None or not (entry.get("zh") or "").strip():
            detail = _("untranslated: {text!r}").format(text=first)
            problems.append(Problem(name, cid, "missing", detail))
        elif entry.get("stale") or entry.get("en") != cell.source:
            detail = _("the English changed after translation: {text!r}").format(text=first)
            problems.append(Problem(name, cid, "stale", detail))
    for cid in by_id:
        if cid not in ids:
            problems.append(Problem(name, cid, "orphan", _("no markdown cell has this id")))
    wanted = public_messages(nb)
    have = {m["en"]: m for m in load_messages(translation)}
    for t in wanted:
        if not (have.get(t, {}).get("zh") or "").strip():
            detail = _("untranslated: {text!r}").format(text=t[:60])
            problems.append(Problem(name, "message", "missing", detail))
    for t in have:
        if t not in wanted:
            detail = _("no test says {text!r}").format(text=t[:60])
            problems.append(Problem(name, "message", "orphan", detail))
    return problems


def sync(source: Path, translation: Path, source_rel: str) -> dict[str, int]:
    """Bring ``translation``'s entries in line with ``source``'s markdown cells (see module doc)."""
    import nbformat

    nb = nbformat.read(str(source), as_version=4)
    old = {e["id"]: e for e in load(translation)} if translation.exists() else {}
    counts = {"added": 0, "stale": 0, "removed": 0, "kept": 0}
    entries = []
    for cell in _markdown_cells(nb):
        cid = cell.get("id")
        if not cid:
            raise TranslationError(
                _("{notebook}: a markdown cell has no id (nbformat ≥ 4.5)").format(
                    notebook=source_rel
                )
            )
        e = old.get(cid)
        if e is None:
            entries.append({"id": cid, "en": cell.source, "zh": ""})
            counts["added"] += 1
        elif e.get("en") != cell.source:
            was = e["en_was"] if e.get("stale") and e.get("en_was") is not None else e.get("en")
            entries.append(
                {"id": cid, "en": cell.source, "en_was": was, "zh": e.get("zh"), "stale": True}
            )
            counts["stale"] += 1
        else:
            entries.append(e)
            counts["kept"] += 1
    counts["removed"] = len(set(old) - {e["id"] for e in entries})
    had = {m["en"]: m for m in load_messages(translation)} if translation.exists() else {}
    messages = []
    for t in public_messages(nb):
        messages.append(had.get(t) or {"en": t, "zh": ""})
        counts["added"] += t not in had
    counts["removed"] += len(set(had) - {m["en"] for m in messages})
    save(translation, source_rel, entries, messages)
    return counts


def build_one(source: Path, translation: Path, target: Path, lang: str = "zh") -> Path:
    """Write the ``lang`` edition of ``source`` to ``target``; refuses a stale translation."""
    import nbformat

    problems = check_one(source, translation)
    if problems:
        listed = "\n  ".join(map(str, problems[:20]))
        more = (
            "\n  " + _("… and {count} more").format(count=len(problems) - 20)
            if len(problems) > 20
            else ""
        )
        raise TranslationError(
            _(
                "{notebook}: the {language} translation is not current; run `lecturekit "
                "translate sync` and translate:"
            ).format(notebook=source, language=lang)
            + f"\n  {listed}{more}"
        )
    nb = nbformat.read(str(source), as_version=4)
    zh = {e["id"]: e["zh"] for e in load(translation)}
    out = copy.deepcopy(nb)
    for cell in out.cells:
        if cell.cell_type == "markdown":
            cell.source = zh[cell.id].rstrip("\n")
    out.metadata["lecturekit"] = {
        **nb.metadata.get("lecturekit", {}),
        "edition": lang,
        "translated_from": source.name,
    }
    messages = {m["en"]: m["zh"] for m in load_messages(translation) if m.get("zh")}
    if messages:
        out.metadata["lecturekit"]["messages"] = messages
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(out, str(target))
    return target


#: what :func:`sync` counts, as ``translate sync`` prints it
COUNTS = {
    "added": N_("{count} added"),
    "stale": N_("{count} stale"),
    "removed": N_("{count} removed"),
    "kept": N_("{count} kept"),
}


def edition_problems(
    source: Path, translation: Path, edition: Path, lang: str = "zh", root: Path | None = None
) -> list[Problem]:
    """How the built ``edition`` differs from what :func:`build_one` would make from ``source``
    and ``translation`` today, outputs aside (they are the edition's own, from running it:
    :func:`run_edition`): a missing edition, other cells or code, a markdown cell that is not its
    translation, other metadata; an English cell that has outputs whose edition cell has none
    (built but not run). Reads plain JSON (no nbformat), so ``translate status`` stays fast."""
    shown = edition.relative_to(root).as_posix() if root else str(edition)
    rel = source.relative_to(root).as_posix() if root else str(source)
    fix = _("run `lecturekit translate build {notebook}`").format(notebook=rel)
    if not edition.exists():
        return [Problem(shown, "*", "stale", _("not built: {fix}").format(fix=fix))]
    en, zh = read_plain(source), read_plain(edition)
    texts = {e["id"]: (e.get("zh") or "").rstrip("\n") for e in load(translation)}
    problems: list[Problem] = []

    def stale(cell: str, what: str) -> None:
        problems.append(Problem(shown, cell, "stale", f"{what}: {fix}"))

    if [(c.get("id"), c.cell_type) for c in en.cells] != [
        (c.get("id"), c.cell_type) for c in zh.cells
    ]:
        stale("*", _("its cells are not the English notebook's"))
        return problems
    for a, b in zip(en.cells, zh.cells, strict=True):
        cid = a.get("id") or "?"
        if a.cell_type == "markdown":
            if b.source != texts.get(cid, b.source):
                stale(cid, _("the text is not the translation"))
            continue
        if b.source != a.source:
            stale(cid, _("the code is not the English notebook's"))
        elif a.get("metadata", {}) != b.get("metadata", {}):
            stale(cid, _("the cell's metadata is not the English notebook's"))
        elif a.get("outputs") and not b.get("outputs"):
            stale(cid, _("not run: no outputs"))
    meta = dict(zh.metadata)
    edition_meta = dict(meta.pop("lecturekit", {}))
    english_meta = dict(en.metadata)
    english_lecturekit = dict(english_meta.pop("lecturekit", {}))
    messages = {m["en"]: m["zh"] for m in load_messages(translation) if m.get("zh")}
    own = {key: edition_meta.pop(key, None) for key in ("edition", "translated_from", "messages")}
    if (
        meta != english_meta
        or edition_meta != english_lecturekit  # what assign records: answers, questions ...
        or own["edition"] != lang
        or (own["messages"] or {}) != messages
    ):
        stale("metadata", _("the notebook's metadata is not what build writes"))
    return problems


def _clean(nb) -> None:
    """Drop what changes from run to run (as tools/clean_notebooks.py does for the English)."""
    nb.metadata.pop("widgets", None)
    nb.metadata.pop("toc", None)
    for cell in nb.cells:
        for key in ("execution", "ExecuteTime", "collapsed"):
            cell.metadata.pop(key, None)
        for out in cell.get("outputs", []):
            out.get("metadata", {}).pop("execution", None)


def run_edition(path: Path, timeout: int = 600) -> float | None:
    """Run the built notebook at ``path`` in place, in its own folder, and keep its outputs: its
    kernel learns from the folder (``notebooks/zh``) and the notebook's metadata that it runs
    the Chinese edition (:mod:`lecturekit.language`), so everything lecturekit prints and
    draws there is Chinese. A notebook whose English has no outputs (a student's problem set)
    is not run. Returns the seconds it took, or None when not run."""
    import time

    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    nb = nbformat.read(str(path), as_version=4)
    if not any(c.cell_type == "code" and c.get("outputs") for c in nb.cells):
        return None
    start = time.perf_counter()
    client = NotebookClient(
        nb,
        timeout=timeout,
        kernel_name=nb.metadata.get("kernelspec", {}).get("name", "python3"),
        resources={"metadata": {"path": str(Path(path).resolve().parent)}},
        record_timing=False,
        store_widget_state=False,
    )
    kept = {
        k: copy.deepcopy(nb.metadata[k])
        for k in ("kernelspec", "language_info")
        if k in nb.metadata
    }
    try:
        client.execute()
    except CellExecutionError as exc:
        failed = next(
            (c for c in nb.cells for o in c.get("outputs", []) if o.get("output_type") == "error"),
            None,
        )
        raise TranslationError(
            _("{path}: cell {cell} failed while running the edition: {error}").format(
                path=path,
                cell=failed.get("id", "?") if failed is not None else "?",
                error=f"{exc.ename}: {exc.evalue}",
            )
        ) from None
    _clean(nb)
    for key in ("kernelspec", "language_info"):  # the English notebook's, not this machine's
        nb.metadata.pop(key, None)
        if key in kept:
            nb.metadata[key] = kept[key]
    nbformat.write(nb, str(path))
    return time.perf_counter() - start


def run_editions(paths: list[Path], jobs: int | None = None):
    """:func:`run_edition` on each of ``paths``, ``jobs`` at once (default: the number of
    cores); yields ``(path, seconds or None)`` as each finishes. A notebook that fails does not
    stop the others: after the last, one :class:`TranslationError` names every failure."""
    import os
    from concurrent.futures import ProcessPoolExecutor, as_completed

    jobs = max(1, min(jobs or os.cpu_count() or 1, len(paths) or 1))
    failed: list[str] = []
    if jobs == 1:
        for p in paths:
            try:
                yield p, run_edition(p)
            except TranslationError as exc:
                failed.append(str(exc))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            running = {pool.submit(run_edition, p): p for p in paths}
            for done in as_completed(running):
                try:
                    yield running[done], done.result()
                except TranslationError as exc:
                    failed.append(str(exc))
    if failed:
        raise TranslationError("\n".join(failed))


def built_text(source: Path, translation: Path, lang: str = "zh") -> str:
    """The exact text :func:`build_one` would write (used to check an edition is current)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = build_one(source, translation, Path(tmp) / source.name, lang)
        return path.read_text(encoding="utf-8")
