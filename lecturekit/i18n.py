"""Two editions from one source: the Chinese (中文) edition of the chapters and problem sets.

The English notebooks are the only source of code, tests and outputs. A translation file holds,
for each markdown cell of one English notebook, the English text it translates (``en``) and the
translation (``zh``), keyed by the cell's id::

    translations/zh/notebooks/04_list_scheduling.yaml   ->  notebooks/zh/04_list_scheduling.ipynb
    translations/zh/exercises/04_list_scheduling.yaml   ->  exercises/zh/04_list_scheduling.ipynb

:func:`build` writes the Chinese notebook: every cell of the English one, in order, with the same
ids, code and outputs, and each markdown cell's text replaced by its translation. Code therefore
exists once; only prose is translated (in the spirit of gettext's ``msgid``/``msgstr``, with the
English text itself kept in the file so a reviewer sees what changed).

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
import re
from dataclasses import dataclass
from pathlib import Path

from .errors import LectureKitError

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
        text = f"{self.notebook}: cell {self.cell}: {self.kind}"
        return f"{text} ({self.detail})" if self.detail else text


class TranslationError(LectureKitError):
    """A translation file that cannot be read or an edition that is not current."""


# -- paths -----------------------------------------------------------------------------------
def translation_path(root: Path, source: Path, lang: str = "zh") -> Path:
    """``translations/<lang>/<folder>/<name>.yaml`` for the English notebook ``source``."""
    rel = source.resolve().relative_to(root.resolve())
    return root / "translations" / lang / rel.parent / (rel.stem + ".yaml")


def edition_path(root: Path, source: Path, lang: str = "zh") -> Path:
    """``<folder>/<lang>/<name>.ipynb``: where the translated notebook of ``source`` lives."""
    rel = source.resolve().relative_to(root.resolve())
    return root / rel.parent / lang / rel.name


def english_sources(root: Path) -> list[Path]:
    """Every English notebook that has editions (chapters and student problem sets)."""
    return [p for folder in SOURCES for p in sorted((root / folder).glob("*.ipynb"))]


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


def load(path: Path) -> list[dict]:
    """The entries of a translation file (a list of ``{id, en, zh[, en_was, stale]}``)."""
    yaml, _ = _yaml()
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise TranslationError(f"{path}: cannot read translation file: {exc}") from None
    cells = data.get("cells") if isinstance(data, dict) else None
    if not isinstance(cells, list):
        raise TranslationError(f"{path}: expected a mapping with a 'cells' list")
    for i, entry in enumerate(cells):
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
            raise TranslationError(f"{path}: entry {i + 1} has no string 'id'")
        for key in ("en", "zh", "en_was"):
            if entry.get(key) is not None and not isinstance(entry[key], str):
                raise TranslationError(f"{path}: cell {entry['id']}: '{key}' must be text")
    return cells


def load_messages(path: Path) -> list[dict]:
    """The ``messages`` of a translation file: ``{en, zh}`` per assertion message (maybe none)."""
    yaml, _ = _yaml()
    if not path.exists():
        return []
    load(path)  # the same checks of the file as a whole
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    messages = data.get("messages") or []
    if not isinstance(messages, list):
        raise TranslationError(f"{path}: 'messages' must be a list")
    for i, m in enumerate(messages):
        if not isinstance(m, dict) or not isinstance(m.get("en"), str):
            raise TranslationError(f"{path}: message {i + 1} has no text 'en'")
        if m.get("zh") is not None and not isinstance(m["zh"], str):
            raise TranslationError(f"{path}: message {i + 1}: 'zh' must be text")
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


def check_one(source: Path, translation: Path, name: str | None = None) -> list[Problem]:
    """Every way the translation of ``source`` is not current (empty when it is)."""
    import nbformat

    name = name or str(source)
    nb = nbformat.read(str(source), as_version=4)
    if not translation.exists():
        return [Problem(name, "*", "missing", f"no translation file {translation}")]
    entries = load(translation)
    problems: list[Problem] = []
    by_id: dict[str, dict] = {}
    for e in entries:
        if e["id"] in by_id:
            problems.append(Problem(name, e["id"], "duplicate", "the id appears twice"))
        by_id[e["id"]] = e
    ids = set()
    for cell in _markdown_cells(nb):
        cid = cell.get("id")
        if not cid:
            problems.append(Problem(name, "?", "missing", "a markdown cell has no id"))
            continue
        ids.add(cid)
        entry = by_id.get(cid)
        first = cell.source.strip().splitlines()[0][:60] if cell.source.strip() else ""
        if entry is None or not (entry.get("zh") or "").strip():
            problems.append(Problem(name, cid, "missing", f"untranslated: {first!r}"))
        elif entry.get("stale") or entry.get("en") != cell.source:
            problems.append(
                Problem(name, cid, "stale", f"the English changed after translation: {first!r}")
            )
    for cid in by_id:
        if cid not in ids:
            problems.append(Problem(name, cid, "orphan", "no markdown cell has this id"))
    wanted = public_messages(nb)
    have = {m["en"]: m for m in load_messages(translation)}
    for t in wanted:
        if not (have.get(t, {}).get("zh") or "").strip():
            problems.append(Problem(name, "message", "missing", f"untranslated: {t[:60]!r}"))
    for t in have:
        if t not in wanted:
            problems.append(Problem(name, "message", "orphan", f"no test says {t[:60]!r}"))
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
            raise TranslationError(f"{source_rel}: a markdown cell has no id (nbformat ≥ 4.5)")
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
        more = f"\n  … and {len(problems) - 20} more" if len(problems) > 20 else ""
        raise TranslationError(
            f"{source}: the {lang} translation is not current; run `lecturekit translate "
            f"sync` and translate:\n  {listed}{more}"
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


def built_text(source: Path, translation: Path, lang: str = "zh") -> str:
    """The exact text :func:`build_one` would write (used to check an edition is current)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = build_one(source, translation, Path(tmp) / source.name, lang)
        return path.read_text(encoding="utf-8")
