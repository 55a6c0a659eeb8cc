"""What the sandboxed worker and the trusted driver say to each other: plain data with exact
types, in length-prefixed JSON messages over a pipe.

:func:`encode` accepts only exact built-in types (``type(x) is int``, not ``isinstance``) and
numpy numbers, so nothing a submission builds can pretend to be an answer (an ``int`` subclass
whose ``__eq__`` returns ``True`` is refused); :func:`decode` checks every tag and shape before it
builds anything. Both sides import this module; it imports nothing of lecturekit.
"""

from __future__ import annotations

import base64
import json
import math
import os
import struct
import sys
from fractions import Fraction

FRAME_LIMIT = 32 * 2**20  # bytes in one message from the sandbox


def N_(message: str) -> str:
    """Marks a message for lecturekit's catalog (this module runs where lecturekit is not:
    :mod:`.messages` shows its text in the language spoken)."""
    return message


TOO_LARGE = N_("the answer is too large or too deeply nested")
ARRAY_TOO_LARGE = N_("the array is too large")
NOT_PLAIN = N_("an answer of type {type} is not plain data")
MALFORMED = N_("malformed value ({what})")
NO_NUMPY = N_("an array, and numpy is not available here")
#: every template above, for :mod:`.messages`
MESSAGES = (TOO_LARGE, ARRAY_TOO_LARGE, NOT_PLAIN, MALFORMED, NO_NUMPY)


# -- plain data with exact types -------------------------------------------------------------
class Unencodable(TypeError):
    pass


_NUMPY_KINDS = "biufc"


def encode(value, depth: int = 0, budget: list | None = None):
    """Tagged plain data for ``value``; only exact built-in types (and numpy numbers)."""
    if budget is None:
        budget = [2_000_000]
    budget[0] -= 1
    if budget[0] < 0 or depth > 60:
        raise Unencodable(TOO_LARGE)
    t = type(value)
    if value is None:
        return ["none"]
    if value is Ellipsis:
        return ["ellipsis"]
    if t is bool:
        return ["bool", value]
    if t is int:
        return ["int", str(value)]
    if t is float:
        return ["float", repr(value)]
    if t is complex:
        return ["complex", repr(value.real), repr(value.imag)]
    if t is str:
        return ["str", value]
    if t is bytes:
        return ["bytes", base64.b64encode(value).decode()]
    if t is Fraction:
        return ["frac", str(value.numerator), str(value.denominator)]
    if t in (list, tuple, set, frozenset):
        if all(type(v) is int for v in value):  # a fast path for the commonest plain data
            budget[0] -= len(value)
            items = [["int", str(v)] for v in value]
        elif all(type(v) is str for v in value):
            budget[0] -= len(value)
            items = [["str", v] for v in value]
        else:
            items = [encode(v, depth + 1, budget) for v in value]
        return [t.__name__, items]
    if t is dict:
        return [
            "dict",
            [
                [encode(k, depth + 1, budget), encode(v, depth + 1, budget)]
                for k, v in value.items()
            ],
        ]
    np = sys.modules.get("numpy")
    if np is not None:
        if t is np.ndarray and value.dtype.kind in _NUMPY_KINDS and value.dtype.hasobject is False:
            if value.size > 1_000_000:
                raise Unencodable(ARRAY_TOO_LARGE)
            return [
                "ndarray",
                value.dtype.str,
                list(value.shape),
                encode(value.ravel().tolist(), depth + 1, budget),
            ]
        if (
            isinstance(value, np.generic)
            and t.__module__ == "numpy"
            and value.dtype.kind in _NUMPY_KINDS
        ):
            return ["npscalar", value.dtype.str, encode(value.item(), depth + 1, budget)]
    raise Unencodable(NOT_PLAIN.format(type=f"{t.__module__}.{t.__qualname__}"))


def decode(data, depth: int = 0):
    """The value encoded by :func:`encode`; raises ``ValueError`` (and nothing else) on anything
    malformed, so a forged value (``Fraction(1, 0)``, a huge shape) costs one answer, never the
    submission's whole row."""
    try:
        return _decode(data, depth)
    except ValueError:
        raise
    except (TypeError, ArithmeticError, RecursionError, MemoryError, KeyError) as exc:
        raise ValueError(MALFORMED.format(what=type(exc).__name__)) from None


def _decode(data, depth: int = 0):
    if depth > 62 or not isinstance(data, list) or not data or type(data[0]) is not str:
        raise ValueError(MALFORMED.format(what="?"))
    tag, rest = data[0], data[1:]

    def one(kind):
        if len(rest) != 1 or type(rest[0]) is not kind:
            raise ValueError(MALFORMED.format(what=tag))
        return rest[0]

    if tag == "none" and not rest:
        return None
    if tag == "ellipsis" and not rest:
        return Ellipsis
    if tag == "bool":
        return one(bool)
    if tag == "int":
        text = one(str)
        if len(text) > 5000:
            raise ValueError(MALFORMED.format(what="int"))
        return int(text)
    if tag == "float":
        return float(one(str))
    if tag == "complex" and len(rest) == 2 and all(type(r) is str for r in rest):
        return complex(float(rest[0]), float(rest[1]))
    if tag == "str":
        return one(str)
    if tag == "bytes":
        return base64.b64decode(one(str), validate=True)
    if tag == "frac" and len(rest) == 2 and all(type(r) is str and len(r) < 5000 for r in rest):
        return Fraction(int(rest[0]), int(rest[1]))
    if tag in ("list", "tuple", "set", "frozenset"):
        items = [_decode(v, depth + 1) for v in one(list)]
        return {"list": list, "tuple": tuple, "set": set, "frozenset": frozenset}[tag](items)
    if tag == "dict":
        out = {}
        for pair in one(list):
            if not isinstance(pair, list) or len(pair) != 2:
                raise ValueError(MALFORMED.format(what="dict"))
            out[_decode(pair[0], depth + 1)] = _decode(pair[1], depth + 1)
        return out
    if tag in ("ndarray", "npscalar"):
        np = sys.modules.get("numpy")
        if np is None:
            try:
                import numpy as np
            except ImportError:
                raise ValueError(NO_NUMPY) from None

        dtype = np.dtype(rest[0]) if rest and type(rest[0]) is str else None
        if dtype is None or dtype.kind not in _NUMPY_KINDS:
            raise ValueError(MALFORMED.format(what="ndarray"))
        if tag == "ndarray" and len(rest) == 3 and isinstance(rest[1], list):
            shape = tuple(rest[1])
            if not all(type(n) is int and n >= 0 for n in shape):
                raise ValueError(MALFORMED.format(what="shape"))
            flat = _decode(rest[2], depth + 1)
            if not isinstance(flat, list) or len(flat) != math.prod(shape):
                raise ValueError(MALFORMED.format(what="ndarray"))
            return np.array(flat, dtype=dtype).reshape(shape)
        if tag == "npscalar" and len(rest) == 2:
            return dtype.type(_decode(rest[1], depth + 1))
    raise ValueError(MALFORMED.format(what=repr(tag)))


# -- messages: a 4-byte length, then JSON ------------------------------------------------------
def send(fd: int, message: dict) -> None:
    data = json.dumps(message).encode()
    data = struct.pack(">I", len(data)) + data
    while data:
        n = os.write(fd, data)
        data = data[n:]


def _read_exactly(fd: int, n: int) -> bytes:
    out = bytearray()
    while len(out) < n:
        chunk = os.read(fd, n - len(out))
        if not chunk:
            raise EOFError
        out += chunk
    return bytes(out)


def receive_blocking(fd: int) -> dict:
    (n,) = struct.unpack(">I", _read_exactly(fd, 4))
    return json.loads(_read_exactly(fd, n))


def encode_or_none(value):
    try:
        return encode(value)
    except Unencodable:
        return None
