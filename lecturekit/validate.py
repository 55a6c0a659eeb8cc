"""Shared input checks for every user-facing entry point (CLI, calculators, widgets).

Each check returns the value (converted where that is the point, e.g. text to a number) or raises
:class:`~lecturekit.errors.ConfigError` naming *what* was wrong (``name``) and *why*. Numbers are
finite and in range before anything uses them; integers given as text are read with a bounded
number of digits (no 4,300-digit conversions, no float rounding of huge counts).

The CLI uses :func:`cli_int`, :func:`cli_float` and :func:`cli_count` as argparse ``type=``
functions: they raise ``argparse.ArgumentTypeError``, which the CLI prints as one line.
"""

from __future__ import annotations

import argparse
import math
import re

from .errors import ConfigError, LectureKitError
from .language import _

#: the longest integer literal anything reads (a 64-bit value has at most 20 digits)
MAX_DIGITS = 40

_COUNT_RE = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d{1,4})?")
_SCALES = {"k": 10**3, "m": 10**6, "b": 10**9, "g": 10**9, "t": 10**12}


def _where(name: str) -> str:
    return f"{name}: " if name else ""


def text(value, name: str) -> str:
    """``value`` must be a string (not None, a number or bytes)."""
    if not isinstance(value, str):
        raise ConfigError(
            _("{where}expected text, got {name}").format(
                where=_where(name), name=type(value).__name__
            )
        )
    return value


def integer(value, name: str, minimum: int | None = None, maximum: int | None = None) -> int:
    """An ``int`` (not bool, not float) within ``[minimum, maximum]``."""
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and math.isfinite(value) and value == int(value):
            value = int(value)
        else:
            raise ConfigError(
                _("{where}expected a whole number, got {show} ({name})").format(
                    where=_where(name), show=_show(value), name=type(value).__name__
                )
            )
    if minimum is not None and value < minimum:
        if minimum == 1:
            raise ConfigError(
                _("{where}must be a positive integer, got {show}").format(
                    where=_where(name), show=_show(value)
                )
            )
        raise ConfigError(
            _("{where}must be at least {minimum:,}, got {show}").format(
                where=_where(name), minimum=minimum, show=_show(value)
            )
        )
    if maximum is not None and value > maximum:
        raise ConfigError(
            _("{where}must be at most {maximum:,}, got {show}").format(
                where=_where(name), maximum=maximum, show=_show(value)
            )
        )
    return value


def number(
    value,
    name: str,
    minimum: float | None = None,
    maximum: float | None = None,
    *,
    above: float | None = None,
) -> float:
    """A finite real number (int or float, not bool) in range; ``above`` is a strict minimum."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ConfigError(
            _("{where}expected a number, got {show} ({name})").format(
                where=_where(name), show=_show(value), name=type(value).__name__
            )
        )
    try:
        value_f = float(value)
    except OverflowError:
        raise ConfigError(
            _("{where}number too large: {show}").format(where=_where(name), show=_show(value))
        ) from None
    if not math.isfinite(value_f):
        raise ConfigError(
            _("{where}must be a finite number, got {value_f}").format(
                where=_where(name), value_f=value_f
            )
        )
    if above is not None and not value_f > above:
        raise ConfigError(
            _("{where}must be greater than {above:g}, got {value_f:g}").format(
                where=_where(name), above=above, value_f=value_f
            )
        )
    if minimum is not None and value_f < minimum:
        raise ConfigError(
            _("{where}must be at least {minimum:g}, got {value_f:g}").format(
                where=_where(name), minimum=minimum, value_f=value_f
            )
        )
    if maximum is not None and value_f > maximum:
        raise ConfigError(
            _("{where}must be at most {maximum:g}, got {value_f:g}").format(
                where=_where(name), maximum=maximum, value_f=value_f
            )
        )
    return value if isinstance(value, int) else value_f


def _show(value) -> str:
    r = repr(value)
    return r if len(r) <= 40 else r[:30] + _("... ({n} characters)").format(n=len(r))


def parse_integer(
    text_value: str, name: str, minimum: int | None = None, maximum: int | None = None
) -> int:
    """A decimal integer written as text (bounded length), then range-checked."""
    t = str(text_value).strip().replace("_", "")
    if len(t.lstrip("+-")) > MAX_DIGITS:
        raise ConfigError(
            _("{where}number too long ({n_t} digits; at most {max_digits})").format(
                where=_where(name), n_t=len(t), max_digits=MAX_DIGITS
            )
        )
    if not re.fullmatch(r"[+-]?\d+", t):
        raise ConfigError(
            _("{where}not a whole number: {show}").format(
                where=_where(name), show=_show(text_value)
            )
        )
    return integer(int(t), name, minimum, maximum)


def parse_count(
    text_value: str, name: str, minimum: float | None = None, maximum: float | None = None
) -> float:
    """A count like ``175000000000``, ``1.75e11``, ``175B``, ``7b``, ``350M``: a finite number
    (float) in range. Exact for integers written out in full."""
    t = str(text_value).strip().replace("_", "").replace(",", "")
    scale = _SCALES.get(t[-1:].lower(), 1)
    if scale != 1:
        t = t[:-1]
    if len(t) > MAX_DIGITS + 8 or not _COUNT_RE.fullmatch(t):
        raise ConfigError(
            _("{where}not a number: {show} (e.g. 300e9, 300B)").format(
                where=_where(name), show=_show(text_value)
            )
        )
    value = float(t) * scale
    return number(value, name, minimum, maximum)


def parse_whole_count(text_value: str, name: str, minimum: int = 1, maximum: int = 10**18) -> int:
    """A whole count (``7e9``, ``7B``, ``350M``, ``1234``) in ``[minimum, maximum]``."""
    t = str(text_value).strip().replace("_", "").replace(",", "")
    if re.fullmatch(r"\d+", t):
        return parse_integer(t, name, minimum, maximum)
    value = parse_count(text_value, name, minimum, maximum)
    if value != int(value):
        raise ConfigError(
            _("{where}must be a whole number, got {show}").format(
                where=_where(name), show=_show(text_value)
            )
        )
    return int(value)


# -- argparse types ----------------------------------------------------------------------------
def _argparse(fn, *args, **kw):
    def convert(s: str):
        try:
            return fn(s, "", *args, **kw)
        except LectureKitError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    convert.__name__ = fn.__name__
    return convert


def cli_int(minimum: int | None = None, maximum: int | None = None):
    """argparse ``type=``: a whole number in ``[minimum, maximum]``."""
    return _argparse(parse_integer, minimum, maximum)


def cli_float(minimum: float | None = None, maximum: float | None = None):
    """argparse ``type=``: a finite number in ``[minimum, maximum]`` (also 300e9, 300B)."""
    return _argparse(parse_count, minimum, maximum)


def cli_count(minimum: int = 1, maximum: int = 10**18):
    """argparse ``type=``: a whole count (7e9, 7B, 350M) in ``[minimum, maximum]``."""
    return _argparse(parse_whole_count, minimum, maximum)


__all__ = [
    "MAX_DIGITS",
    "cli_count",
    "cli_float",
    "cli_int",
    "integer",
    "number",
    "parse_count",
    "parse_integer",
    "parse_whole_count",
    "text",
]
