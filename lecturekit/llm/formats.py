"""Floating-point formats for training: bit layouts, ranges, rounding, and why mixed precision.

A binary floating-point number is ``(-1)^sign × 1.mantissa × 2^(exponent - bias)`` (a *normal*
number), or ``(-1)^sign × 0.mantissa × 2^(1 - bias)`` when the exponent field is 0 (a
*subnormal*). Everything in the format table follows from two widths, the exponent bits ``e`` and
the mantissa bits ``m`` (notes 003: "1位正负，8位指数部分，表示取值范围，还有23位表示精度"):

- bias ``2^(e-1) - 1``; smallest normal ``2^(1 - bias)``; smallest subnormal ``2^(1 - bias - m)``;
- machine epsilon ``2^-m`` (the gap between 1 and the next number);
- largest finite ``(2 - 2^-m) × 2^(2^e - 2 - bias)`` (the all-ones exponent is kept for inf/NaN).

FP8 E4M3 (OCP / NVIDIA) breaks the last rule: it has no infinities, only ``S.1111.111`` is NaN,
so its largest finite is ``1.75 × 2^8 = 448``. TF32 is FP32's range with FP16's precision (19
bits, stored in 32-bit registers; tensor cores only).

Rounding everywhere is IEEE round-to-nearest, ties-to-even. :func:`quantize` rounds any value to
any format from the layout alone; tests check it against numpy's own ``float16``/``float32``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Integral, Real

import numpy as np

from ..errors import ConfigError
from ..language import N_, _


@dataclass(frozen=True)
class FloatFormat:
    """A binary floating-point format, described by its field widths."""

    name: str
    exponent_bits: int
    mantissa_bits: int  #: stored fraction bits (the leading 1 of normals is implicit)
    ieee: bool = True  #: False for E4M3: no infinities, the top exponent holds numbers
    storage_bits: int | None = None  #: bits in memory, if more than the format's own (TF32)
    note: str = ""  # in English: _(note) in the language spoken

    @property
    def bits(self) -> int:
        """Sign + exponent + mantissa."""
        return 1 + self.exponent_bits + self.mantissa_bits

    @property
    def bytes(self) -> int:
        """Bytes one value takes in memory."""
        return (self.storage_bits or self.bits) // 8

    @property
    def bias(self) -> int:
        return 2 ** (self.exponent_bits - 1) - 1

    @property
    def emin(self) -> int:
        """Exponent of the smallest normal number."""
        return 1 - self.bias

    @property
    def emax(self) -> int:
        """Exponent of the largest finite number."""
        top = 2**self.exponent_bits - 1  # all-ones field
        return (top if not self.ieee else top - 1) - self.bias

    @property
    def max(self) -> float:
        """Largest finite value."""
        m = self.mantissa_bits
        # IEEE: mantissa all ones. E4M3: all ones is NaN, so one step less.
        frac = 2 - 2.0**-m if self.ieee else 2 - 2.0 ** -(m - 1)
        return frac * 2.0**self.emax

    @property
    def min_normal(self) -> float:
        return 2.0**self.emin

    @property
    def min_subnormal(self) -> float:
        return 2.0 ** (self.emin - self.mantissa_bits)

    @property
    def epsilon(self) -> float:
        """Machine epsilon: the gap between 1.0 and the next larger number, ``2^-m``."""
        return 2.0**-self.mantissa_bits

    @property
    def decimal_digits(self) -> float:
        """About how many significant decimal digits: ``(m + 1) log10 2``."""
        return (self.mantissa_bits + 1) * math.log10(2)


#: name -> format. FP32, TF32, BF16, FP16 and the two FP8 formats of Hopper-class GPUs.
FORMATS: dict[str, FloatFormat] = {
    f.name: f
    for f in [
        FloatFormat("fp64", 11, 52, note=N_("double; scientific computing")),
        FloatFormat("fp32", 8, 23, note=N_("single; master weights, optimizer states")),
        FloatFormat(
            "tf32", 8, 10, storage_bits=32, note=N_("FP32 range, FP16 precision; A100 MMA")
        ),
        FloatFormat("bf16", 8, 7, note=N_("FP32 range, 8 bits of precision; no loss scaling")),
        FloatFormat("fp16", 5, 10, note=N_("half; small range, needs loss scaling")),
        FloatFormat("fp8_e4m3", 4, 3, ieee=False, note=N_("FP8 for weights/activations (H100)")),
        FloatFormat("fp8_e5m2", 5, 2, note=N_("FP8 for gradients (H100)")),
    ]
}

_ALIASES = {
    "float64": "fp64",
    "double": "fp64",
    "float32": "fp32",
    "float": "fp32",
    "single": "fp32",
    "float16": "fp16",
    "half": "fp16",
    "bfloat16": "bf16",
    "e4m3": "fp8_e4m3",
    "e5m2": "fp8_e5m2",
    "fp8-e4m3": "fp8_e4m3",
    "fp8-e5m2": "fp8_e5m2",
}

#: integer formats, for byte counts only
INT_BYTES = {"int8": 1, "int16": 2, "int32": 4, "int64": 8}


def get_format(fmt: str | FloatFormat) -> FloatFormat:
    """Look a format up by name (``fp16``, ``bf16``, ``float32``, ``e4m3``, ...)."""
    if isinstance(fmt, FloatFormat):
        return fmt
    key = str(fmt).strip().lower()
    key = _ALIASES.get(key, key)
    if key not in FORMATS:
        raise ConfigError(
            _("format: unknown format {fmt!r}; known: {join}").format(
                fmt=fmt, join=", ".join(FORMATS)
            )
        )
    return FORMATS[key]


def bytes_per_element(fmt: str | FloatFormat) -> int:
    """Bytes per value in memory (``int8`` etc. also accepted)."""
    if isinstance(fmt, str) and fmt.strip().lower() in INT_BYTES:
        return INT_BYTES[fmt.strip().lower()]
    return get_format(fmt).bytes


def format_table(names=("fp32", "tf32", "bf16", "fp16", "fp8_e4m3", "fp8_e5m2")) -> list[dict]:
    """One row per format with every figure computed from the layout."""
    rows = []
    for name in names:
        f = get_format(name)
        rows.append(
            {
                "format": f.name,
                "bits": f.bits,
                "sign": 1,
                "exponent": f.exponent_bits,
                "mantissa": f.mantissa_bits,
                "bias": f.bias,
                "max": f.max,
                "min normal": f.min_normal,
                "min subnormal": f.min_subnormal,
                "epsilon": f.epsilon,
                "decimal digits": round(f.decimal_digits, 1),
            }
        )
    return rows


# ----------------------------------------------------------------------------------------------
# rounding
# ----------------------------------------------------------------------------------------------


def _round_scalar(x: float, f: FloatFormat) -> float:
    """Round one Python float to the nearest value of ``f`` (ties to even)."""
    if math.isnan(x):
        return math.nan
    if math.isinf(x):
        return x if f.ieee else math.nan
    a = abs(x)
    if a == 0:
        return x
    exp = math.frexp(a)[1] - 1  # a = 1.xxx * 2**exp
    e = max(exp, f.emin)  # below the normals, the spacing stays that of emin (subnormals)
    ulp = math.ldexp(1.0, e - f.mantissa_bits)
    q = round(a / ulp) * ulp  # Python's round() is round-half-to-even; a/ulp is exact
    if q > f.max:  # rounded past the largest finite value
        q = math.inf if f.ieee else math.nan
    return math.copysign(q, x)


def quantize(x, fmt: str | FloatFormat = "fp16"):
    """``x`` rounded to the nearest value representable in ``fmt`` (round to nearest, ties to
    even; overflow gives ``inf``, or NaN for E4M3 which has no infinity).

    Returns a float for a scalar, a float64 array for an array. The result is exactly a value of
    the format, held in float64 so that every format can be shown the same way.
    """
    f = get_format(fmt)
    if np.ndim(x) == 0:
        return _round_scalar(float(x), f)
    x = np.asarray(x, dtype=np.float64)
    a = np.abs(x)
    with np.errstate(invalid="ignore", over="ignore"):
        exp = np.frexp(a)[1] - 1
        e = np.maximum(exp, f.emin)
        ulp = np.ldexp(1.0, e - f.mantissa_bits)
        q = np.round(a / ulp) * ulp  # np.round rounds halves to even
        q = np.where(q > f.max, np.inf if f.ieee else np.nan, q)
        q = np.where(np.isinf(a), np.inf if f.ieee else np.nan, q)
        q = np.where(np.isnan(a), np.nan, q)
    return np.copysign(q, x)


def ulp(x: float, fmt: str | FloatFormat = "fp16") -> float:
    """The gap between ``x`` (rounded to ``fmt``) and the next value of larger magnitude."""
    f = get_format(fmt)
    a = abs(quantize(float(x), f))
    if not math.isfinite(a):
        raise ConfigError(_("ulp: {x!r} is not a finite {name} value").format(x=x, name=f.name))
    exp = math.frexp(a)[1] - 1 if a else f.emin
    return math.ldexp(1.0, max(exp, f.emin) - f.mantissa_bits)


def add(a: float, b: float, fmt: str | FloatFormat = "fp16") -> float:
    """``a + b`` as the hardware does it in ``fmt``: round both, add exactly, round the sum.

    (Float64 holds the exact sum of two values of 24 bits or less closely enough that rounding
    twice is harmless; for fp16 this equals numpy's ``np.float16(a) + np.float16(b)``.)"""
    f = get_format(fmt)
    return quantize(quantize(a, f) + quantize(b, f), f)


# ----------------------------------------------------------------------------------------------
# bits
# ----------------------------------------------------------------------------------------------


def fp32_to_bf16_bits(x) -> int | np.ndarray:
    """BF16 bits of FP32 value(s): the top 16 bits of the FP32 pattern, rounded to nearest even.

    Adding ``0x7FFF`` plus the lowest kept bit, then dropping the low 16 bits, rounds to nearest
    with ties to even (the usual trick in frameworks). NaN stays a quiet NaN."""
    arr = np.asarray(x, dtype=np.float32)
    u = arr.view(np.uint32).astype(np.uint64)
    lsb = (u >> 16) & 1
    rounded = ((u + 0x7FFF + lsb) >> 16) & 0xFFFF
    out = np.where(np.isnan(arr), (u >> 16) & 0x8000 | 0x7FC0, rounded).astype(np.uint16)
    return int(out) if out.ndim == 0 else out


def bf16_bits_to_fp32(bits) -> float | np.ndarray:
    """The FP32 value(s) of BF16 bit pattern(s) (append 16 zero bits)."""
    arr = (np.asarray(bits, dtype=np.uint32) << 16).view(np.float32)
    return float(arr) if arr.ndim == 0 else arr


def encode(value: float, fmt: str | FloatFormat) -> int:
    """The bit pattern of ``value`` rounded to ``fmt``, built from the layout alone."""
    f = get_format(fmt)
    m_bits, e_bits = f.mantissa_bits, f.exponent_bits
    q = quantize(float(value), f)
    sign = 1 if math.copysign(1.0, q) < 0 else 0
    top = 2**e_bits - 1
    if math.isnan(q):
        exp_field, mant = top, (2**m_bits - 1 if not f.ieee else 2 ** (m_bits - 1))
    elif math.isinf(q):
        exp_field, mant = top, 0
    elif abs(q) < f.min_normal:
        exp_field, mant = 0, int(abs(q) / f.min_subnormal)
    else:
        exp = math.frexp(abs(q))[1] - 1
        exp_field = exp + f.bias
        mant = int((abs(q) / 2.0**exp - 1) * 2**m_bits)
    return (sign << (e_bits + m_bits)) | (exp_field << m_bits) | mant


def decode(bits: int, fmt: str | FloatFormat) -> float:
    """The value of a bit pattern in ``fmt``."""
    f = get_format(fmt)
    m_bits, e_bits = f.mantissa_bits, f.exponent_bits
    if not isinstance(bits, (int, np.integer)) or not 0 <= bits < 2**f.bits:
        raise ConfigError(
            _("decode: {bits!r} is not a {bits2}-bit pattern for {name}").format(
                bits=bits, bits2=f.bits, name=f.name
            )
        )
    bits = int(bits)
    sign = -1.0 if bits >> (e_bits + m_bits) else 1.0
    exp_field = (bits >> m_bits) & (2**e_bits - 1)
    mant = bits & (2**m_bits - 1)
    top = 2**e_bits - 1
    if f.ieee and exp_field == top:
        return sign * math.inf if mant == 0 else math.nan
    if not f.ieee and exp_field == top and mant == 2**m_bits - 1:
        return math.nan
    if exp_field == 0:
        return sign * mant * f.min_subnormal
    return sign * (1 + mant / 2**m_bits) * 2.0 ** (exp_field - f.bias)


def to_bits(value: float, fmt: str | FloatFormat = "fp32") -> int:
    """The bit pattern of ``value`` in ``fmt``, the way a program gets it.

    fp16 / fp32 / fp64: numpy casts the value and we read its bits through an integer *view*.
    bf16: the FP32 value's bits rounded to 16 (:func:`fp32_to_bf16_bits`).
    tf32: the FP32 bits with the low 13 mantissa bits rounded off (ties to even here; GPUs' own
    conversion may round ties differently).
    FP8: :func:`encode` (numpy has no FP8 type).
    """
    f = get_format(fmt)
    if isinstance(value, bool) or not isinstance(value, (int, float, np.floating, np.integer)):
        raise ConfigError(
            _("to_bits: expected a number, got {name}").format(name=type(value).__name__)
        )
    try:
        value = float(value)  # nan and inf are values a format represents; 1e400 ints are not
    except OverflowError:
        raise ConfigError(_("to_bits: integer too large for a float")) from None
    views = {"fp16": (np.float16, np.uint16), "fp32": (np.float32, np.uint32)}
    views["fp64"] = (np.float64, np.uint64)
    if f.name in views:
        ftype, itype = views[f.name]
        with np.errstate(over="ignore"):
            return int(np.array(value, dtype=ftype).view(itype))
    if f.name == "bf16":
        with np.errstate(over="ignore"):
            return fp32_to_bf16_bits(np.float32(value))
    if f.name == "tf32":
        with np.errstate(over="ignore"):
            u = int(np.array(value, dtype=np.float32).view(np.uint32))
        if math.isnan(value):
            return (u >> 13) | (1 << 9)
        return (u + 0xFFF + ((u >> 13) & 1)) >> 13
    return encode(value, f)


@dataclass(frozen=True)
class BitFields:
    """A value's bits in one format, split into sign, exponent and mantissa fields."""

    format: str
    bits: int
    sign: int
    exponent: int  #: the stored (biased) exponent field
    mantissa: int  #: the stored fraction field
    exponent_bits: int
    mantissa_bits: int
    value: float  #: what the bits mean
    kind: str  #: normal, subnormal, zero, inf, nan

    @property
    def exponent_str(self) -> str:
        return format(self.exponent, f"0{self.exponent_bits}b")

    @property
    def mantissa_str(self) -> str:
        return format(self.mantissa, f"0{self.mantissa_bits}b")

    @property
    def unbiased_exponent(self) -> int:
        """The power of two: field − bias (``1 − bias`` for subnormals)."""
        bias = 2 ** (self.exponent_bits - 1) - 1
        return max(self.exponent, 1) - bias

    def __str__(self) -> str:
        return (
            f"{self.format:>8}: {self.sign} | {self.exponent_str} | {self.mantissa_str}"
            f"  = {self.value!r} ({self.kind})"
        )


def bit_fields(value: float, fmt: str | FloatFormat = "fp32") -> BitFields:
    """Split ``value`` (rounded to ``fmt``) into its sign, exponent and mantissa fields."""
    f = get_format(fmt)
    if isinstance(value, bool) or not isinstance(value, Real):
        raise ConfigError(_("bit_fields: expected a number, got {value!r}").format(value=value))
    bits = to_bits(float(value), f)
    m_bits, e_bits = f.mantissa_bits, f.exponent_bits
    exponent = (bits >> m_bits) & (2**e_bits - 1)
    mantissa = bits & (2**m_bits - 1)
    val = decode(bits, f)
    if math.isnan(val):
        kind = "nan"
    elif math.isinf(val):
        kind = "inf"
    elif val == 0:
        kind = "zero"
    elif exponent == 0:
        kind = "subnormal"
    else:
        kind = "normal"
    return BitFields(f.name, bits, bits >> (e_bits + m_bits), exponent, mantissa, e_bits, m_bits,
                     val, kind)  # fmt: skip


# ----------------------------------------------------------------------------------------------
# mixed precision: swamping, accumulation, loss scaling
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Swamping:
    """``big + small`` in a format: the exact sum, the rounded one, and the gap at ``big``."""

    format: str
    big: float
    small: float
    exact: float
    result: float
    ulp: float  #: spacing of the format's numbers at ``big``

    @property
    def lost(self) -> bool:
        """The small addend vanished: ``big + small == big``."""
        return self.result == quantize(self.big, self.format)


def swamping(big: float = 2**-3, small: float = 2**-14, fmt: str = "fp16") -> Swamping:
    """Add a small update to a big weight in ``fmt`` (notes 003: weight 2^-3, gradient 2^-14).

    In fp16 the numbers near ``2^-3`` are ``2^-3 × 2^-10 = 2^-13`` apart (10 mantissa bits), so
    ``2^-14`` is exactly half a gap: a tie, rounded to the even neighbour, which is ``2^-3``
    itself. The update is lost; anything smaller is lost too."""
    f = get_format(fmt)
    return Swamping(f.name, big, small, big + small, add(big, small, f), ulp(big, f))


def accumulate(
    start: float = 1.0, update: float = 1e-4, steps: int = 10_000, fmt: str = "fp16"
) -> np.ndarray:
    """A weight receiving ``steps`` equal updates, stored and added in ``fmt``.

    Returns the ``steps + 1`` values the weight takes. In fp16 near 1.0 the gap is ``2^-10 ≈
    0.00098``; an update below half of it (0.00049) rounds away every time, so the weight never
    moves. In fp32 (master weights) it reaches ``start + steps × update``."""
    f = get_format(fmt)
    if isinstance(steps, bool) or not isinstance(steps, Integral) or steps < 0:
        raise ConfigError(
            _("accumulate: steps must be an integer >= 0, got {steps!r}").format(steps=steps)
        )
    w = quantize(start, f)
    u = quantize(update, f)
    out = [w]
    for _unused in range(steps):
        w = quantize(w + u, f)
        out.append(w)
    return np.array(out)


@dataclass(frozen=True)
class GradientCast:
    """What happens to fp32 gradients cast to a low-precision format with a loss scale."""

    format: str
    scale: float
    zero_fraction: float  #: non-zero gradients that became 0 (underflow)
    subnormal_fraction: float  #: gradients that became subnormal (few significant bits left)
    overflow_fraction: float  #: gradients that became inf/NaN (scale too large)
    median_relative_error: float  #: of the finite results, after dividing the scale back out


def cast_gradients(grads, scale: float = 1.0, fmt: str = "fp16") -> GradientCast:
    """Cast gradients ``× scale`` to ``fmt`` (as the backward pass would hold them), then
    unscale in fp64, and measure what was lost.

    Loss scaling multiplies the loss by ``scale`` before backward; by the chain rule every
    gradient is ``scale`` times larger, lifting small gradients out of fp16's underflow zone
    (below ``2^-24 ≈ 6e-8`` they become 0). The optimizer divides the scale out in fp32. Too
    large a scale overflows (fp16 max 65504): dynamic loss scaling then skips the step and
    halves the scale."""
    f = get_format(fmt)
    g = np.asarray(grads, dtype=np.float64).ravel()
    if g.size == 0:
        raise ConfigError(_("cast_gradients: no gradients given"))
    if not isinstance(scale, Real) or isinstance(scale, bool) or not scale > 0:
        raise ConfigError(_("cast_gradients: scale must be > 0, got {scale!r}").format(scale=scale))
    cast = quantize(g * scale, f)
    nonzero = g != 0
    finite = np.isfinite(cast)
    zero = nonzero & (cast == 0)
    sub = finite & (cast != 0) & (np.abs(cast) < f.min_normal)
    back = cast[finite & nonzero] / scale
    rel = np.abs(back - g[finite & nonzero]) / np.abs(g[finite & nonzero])
    return GradientCast(
        format=f.name,
        scale=float(scale),
        zero_fraction=float(zero.sum() / max(nonzero.sum(), 1)),
        subnormal_fraction=float(sub.sum() / g.size),
        overflow_fraction=float((~finite).sum() / g.size),
        median_relative_error=float(np.median(rel)) if rel.size else math.nan,
    )
