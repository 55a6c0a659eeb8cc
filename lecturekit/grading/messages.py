"""Text made where lecturekit's catalog is not, shown in the language spoken.

A graded function runs in an interpreter with the standard library only (:mod:`.callee`), and
its recipe is read by :mod:`.portable` and its values by :mod:`.protocol` there: those modules
cannot import :mod:`lecturekit.language`, so what they say (``height uses g (a ... Graph from the
notebook): a graded function must be your own ...``) is English. Their templates are marked
``N_`` in them (so ``tools/messages.py`` puts them in the catalog) and listed in each module's
``MESSAGES``; :func:`shown` finds the template a text was made from and fills its translation
with the same values (values that are themselves such texts are translated too). Text that no
template made (a student's own exception message) is shown as it is.
"""

from __future__ import annotations

import re
import string
from functools import cache

from ..language import _
from . import callee, portable, protocol

TEMPLATES = (*portable.MESSAGES, *protocol.MESSAGES, *callee.MESSAGES)


@cache
def _pattern(template: str) -> re.Pattern:
    parts = []
    seen: set[str] = set()
    for literal, field, _spec, _conversion in string.Formatter().parse(template):
        parts.append(re.escape(literal))
        if field is None:
            continue
        if field in seen:
            parts.append(f"(?P={field})")
        else:
            seen.add(field)
            parts.append(f"(?P<{field}>.+?)")
    return re.compile("".join(parts) + r"\Z", re.S)


def _plain(template: str) -> str:
    """``template`` with every field as a bare ``{name}`` (the values are text by now)."""
    out = []
    for literal, field, _spec, _conversion in string.Formatter().parse(template):
        out.append(literal.replace("{", "{{").replace("}", "}}"))
        if field is not None:
            out.append("{" + field + "}")
    return "".join(out)


def shown(text: str, depth: int = 0) -> str:
    """``text`` in the language spoken, if one of :data:`TEMPLATES` made it; else as it is."""
    for template in TEMPLATES:
        found = _pattern(template).match(text)
        if found is None:
            continue
        values = {k: shown(v, depth + 1) if depth < 3 else v for k, v in found.groupdict().items()}
        return _plain(_(template)).format(**values)
    return text
