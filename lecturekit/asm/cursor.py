"""Reading assembly text: lines as an editor numbers them, and a cursor over one line that
reports a :class:`~lecturekit.errors.ParseError` at the column where the text went wrong. Both
parsers (:mod:`lecturekit.asm.lecture`, :mod:`lecturekit.asm.riscv`) read through it."""

from __future__ import annotations

import re
import unicodedata

from ..errors import ParseError
from ..language import _

#: a label or name
IDENT = r"[A-Za-z_][A-Za-z0-9_.]*"
_REGISTER_RE = re.compile(r"\$?(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+)\Z")
_INT_RE = re.compile(r"[+-]?(?:0[xX][0-9a-fA-F]+|[0-9]+)\Z")
_LINE_BREAK_RE = re.compile(r"\r\n|\r|\n")
#: the largest immediate magnitude (a 64-bit word); longer literals are refused before int()
MAX_IMMEDIATE = 2**64 - 1


def ascii_twin(ch: str) -> str | None:
    """The ASCII character a full-width one stands for (what a Chinese input method types for
    ``,`` ``(`` ``+`` or a space: ``，`` ``（`` ``＋`` U+3000), or None for any other character."""
    code = ord(ch)
    if 0xFF01 <= code <= 0xFF5E:  # the full-width forms of ! .. ~
        return chr(code - 0xFEE0)
    return {"\u3000": " ", "、": ",", "。": "."}.get(ch)


def split_lines(source: str) -> list[str]:
    """Lines split on ``\\n``, ``\\r\\n`` and ``\\r`` only (not on U+2028, form feed, ... as
    :meth:`str.splitlines` does), so line numbers match an editor's."""
    lines = _LINE_BREAK_RE.split(source)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


class LineCursor:
    """Cursor over one source line, producing ParseErrors that point at a column."""

    def __init__(self, text: str, number: int, full: str):
        self.text = text
        self.pos = 0
        self.number = number
        self.full = full

    def error(self, message: str, pos: int | None = None) -> ParseError:
        at = self.pos if pos is None else pos
        # a full-width character in the text the parser stopped at is the likely cause: point
        # at it and say what to type instead
        stop = re.match(r"[^ \t]*", self.text[at:]).end() or 1
        for k, ch in enumerate(self.text[at : at + stop]):
            twin = ascii_twin(ch)
            if twin is not None:
                name = unicodedata.name(ch, f"U+{ord(ch):04X}")
                message = _(
                    "{message}; {ch!r} here is full-width ({name}): type {twin!r} instead, "
                    "with the input method in half-width (English) mode"
                ).format(message=message, ch=ch, name=name, twin=twin)
                at += k
                break
        return ParseError(message, self.number, at + 1, self.full.rstrip())

    def skip_ws(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in " \t":
            self.pos += 1

    def at_end(self) -> bool:
        self.skip_ws()
        return self.pos >= len(self.text)

    def peek(self, s: str) -> bool:
        self.skip_ws()
        return self.text.startswith(s, self.pos)

    def expect(self, s: str, what: str | None = None) -> None:
        self.skip_ws()
        if not self.text.startswith(s, self.pos):
            raise self.error(
                _("expected {what}, found {found}").format(
                    what=_(what) if what else repr(s), found=self._found()
                )
            )
        self.pos += len(s)

    def _found(self) -> str:
        if self.pos >= len(self.text):
            return _("end of line")
        m = re.match(r"\S+", self.text[self.pos :])
        return repr(m.group(0)) if m else repr(self.text[self.pos])

    def token(self, pattern: str) -> tuple[str, int] | None:
        self.skip_ws()
        m = re.compile(pattern).match(self.text, self.pos)
        if not m or not m.group(0):
            return None
        start = self.pos
        self.pos = m.end()
        return m.group(0), start

    def word(self) -> tuple[str, int] | None:
        """A register, integer or name up to the next delimiter."""
        return self.token(r"[^\s,()\[\]=+\-*/&|^<>!#]+|[+-]?[0-9]+")

    def register(self, role: str) -> str:
        """A register name (``$t0`` or ``t0``, returned without the ``$``). ``role`` says which
        operand it is, marked with ``N_`` and translated only for an error message: a parse
        that succeeds never looks a text up."""
        self.skip_ws()
        start = self.pos
        tok = self.word()
        if tok is None or not _REGISTER_RE.match(tok[0]) or _INT_RE.match(tok[0]):
            if tok is not None and tok[0].startswith("$") and _INT_RE.match(tok[0][1:]):
                return tok[0][1:]
            self.pos = start
            raise self.error(
                _("expected a register for {role} (like $t0 or t0), found {found}").format(
                    role=_(role), found=self._found()
                )
            )
        return tok[0].lstrip("$")

    def integer(self, role: str) -> int:
        self.skip_ws()
        start = self.pos
        tok = self.token(r"[+-]?(?:0[xX][0-9a-fA-F]+|[0-9]+)(?![A-Za-z0-9_])")
        if tok is None:
            self.pos = start
            raise self.error(
                _("expected an integer for {role}, found {found}").format(
                    role=_(role), found=self._found()
                )
            )
        digits = tok[0].lstrip("+-")
        if len(digits) > 22:  # more than any 64-bit value needs: refuse before converting
            raise self.error(
                _(
                    "integer for {role} is too long ({n_digits} digits); immediates are at "
                    "most {max_immediate:,}"
                ).format(role=_(role), n_digits=len(digits), max_immediate=MAX_IMMEDIATE),
                tok[1],
            )
        if len(digits) > 1 and digits[0] == "0" and digits[1] not in "xX":
            raise self.error(
                _(
                    "integer {tok!r} for {role} has a leading zero; write it without (e.g. "
                    "{plain}), or use 0x for hexadecimal"
                ).format(tok=tok[0], role=_(role), plain=int(digits, 10)),
                tok[1],
            )
        value = int(tok[0], 0)
        if abs(value) > MAX_IMMEDIATE:
            raise self.error(
                _(
                    "integer for {role} is out of range (at most {max_immediate:,} in magnitude)"
                ).format(role=_(role), max_immediate=MAX_IMMEDIATE),
                tok[1],
            )
        return value

    def label(self) -> str:
        tok = self.token(IDENT)
        if tok is None:
            raise self.error(_("expected a label name, found {found}").format(found=self._found()))
        return tok[0]

    def operand(self, role: str) -> tuple[str, object]:
        """A register or an integer: returns ('reg', name) or ('imm', value)."""
        self.skip_ws()
        if re.match(r"[+-]?(?:0[xX][0-9a-fA-F]+|[0-9]+)(?![A-Za-z0-9_])", self.text[self.pos :]):
            return "imm", self.integer(role)
        return "reg", self.register(role)

    def end(self) -> None:
        if not self.at_end():
            raise self.error(
                _("expected end of instruction, found {found}").format(found=self._found())
            )
