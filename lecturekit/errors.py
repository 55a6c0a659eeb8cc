"""The error types every user-facing entry point raises.

All of them derive from :class:`LectureKitError`, so a caller (the CLI, a widget) can catch one
type and show its message: the message always says what was wrong and where.
"""

from __future__ import annotations

import sys


def _(message: str) -> str:
    """``message`` from the catalog (:func:`lecturekit.language.gettext`). The catalog's module
    raises these errors, so it imports this one, not the other way round; it is loaded with the
    package (``lecturekit/__init__.py``), and until it is the message stays English."""
    language = sys.modules.get("lecturekit.language")
    return language.gettext(message) if language is not None else message


class LectureKitError(Exception):
    """Base class: a clear, user-facing message about bad input or an impossible request."""


class ParseError(LectureKitError):
    """Source text that is not a valid instruction, with the 1-based line and column."""

    def __init__(self, message: str, line: int, column: int, source_line: str = ""):
        self.message = message
        self.line = line
        self.column = column
        self.source_line = source_line
        super().__init__(self._render())

    def _render(self) -> str:
        text = _("line {line}, column {column}: {message}").format(
            line=self.line, column=self.column, message=self.message
        )
        if self.source_line:
            pointer = " " * (self.column - 1) + "^"
            text += f"\n    {self.source_line}\n    {pointer}"
        return text


class MachineError(LectureKitError):
    """A machine description (preset name or file) that is unknown or invalid."""


class ScheduleError(LectureKitError):
    """A schedule or order that breaks a dependence or a resource limit, or cannot be evaluated."""


class DeadlockError(ScheduleError):
    """Fixed per-resource orders that wait on each other forever (e.g. a bad pipeline schedule)."""


class ConfigError(LectureKitError):
    """A model or parallelism configuration that is inconsistent (named field and reason)."""
