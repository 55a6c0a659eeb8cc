"""The roofline model: is an operator limited by arithmetic or by memory traffic?

An operator does ``F`` floating-point operations and moves ``B`` bytes between DRAM (HBM) and
the chip. Its **arithmetic intensity** is ``I = F / B`` (FLOP per byte; notes 002 call it 计算密度,
"the number of computations per unit of data"). On a processor with peak rate ``P`` (FLOP/s)
and memory bandwidth ``W`` (bytes/s) it can run at most at

    attainable(I) = min(P, W × I)

(Williams, Waterman & Patterson 2009). The two roofs meet at the **ridge point** ``I* = P / W``:
below it an operator is **memory-bound** (访存密集型: element-wise ops, layer norm), above it
**compute-bound** (计算密集型: large GEMMs). Notes 003 put the same in words: the x-axis is "how
many times each datum is used", the slope is the bandwidth, the flat roof the peak.

The time of one operator is then ``max(F / P, B / W)`` when compute and memory overlap perfectly
(the roofline), or ``launch + B / W + F / P`` without any overlap, the notes' 子图执行时间 =
算子求和(kernel launch时间 + 访存时间 + 计算时间) (notes 002). :func:`op_time` gives both.

**Fusion** (算子融合) runs a chain of operators as one kernel: intermediates stay in registers
or shared memory instead of going to DRAM and back, and there is one launch instead of several.
:func:`fuse` computes the fused operator's bytes honestly from what each operator reads and
writes, so you can see its intensity rise and its time fall.

Peak rates and bandwidths come from :mod:`lecturekit.llm.hardware` via :meth:`Roof.from_gpu`;
every function also takes plain numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from numbers import Integral, Real

from ..errors import ConfigError
from ..language import N_, _


def _positive(value, name: str, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, Real) or not value > 0:
        raise ConfigError(
            _("{what}: {name} must be a number > 0, got {value!r}").format(
                what=what, name=name, value=value
            )
        )
    return float(value)


def _nonneg(value, name: str, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, Real) or not value >= 0:
        raise ConfigError(
            _("{what}: {name} must be a number >= 0, got {value!r}").format(
                what=what, name=name, value=value
            )
        )
    return float(value)


def _count(value, name: str, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, Integral) or value < 1:
        raise ConfigError(
            _("{what}: {name} must be an integer >= 1, got {value!r}").format(
                what=what, name=name, value=value
            )
        )
    return value


@dataclass(frozen=True)
class Roof:
    """One processor's roofline: a peak FLOP/s and a memory bandwidth in bytes/s."""

    name: str
    peak_flops: float
    bandwidth: float

    def __post_init__(self):
        _positive(self.peak_flops, "peak_flops", f"Roof {self.name!r}")
        _positive(self.bandwidth, "bandwidth", f"Roof {self.name!r}")

    @classmethod
    def from_gpu(cls, gpu, precision: str = "fp16") -> Roof:
        """The roof of a GPU from :mod:`lecturekit.llm.hardware` (a name or a ``GPU``).

        ``precision`` ``"fp16"`` uses the tensor-core FP16/BF16 peak, ``"fp32"`` the FP32 one."""
        from .hardware import gpu as lookup

        g = lookup(gpu)
        if precision not in ("fp16", "fp32"):
            raise ConfigError(
                _("Roof.from_gpu: precision must be 'fp16' or 'fp32', not {precision!r}").format(
                    precision=precision
                )
            )
        peak = g.peak_fp16_flops if precision == "fp16" else g.peak_fp32_flops
        return cls(f"{g.name} {precision}", peak, g.mem_bandwidth_bytes_per_s)

    @property
    def ridge(self) -> float:
        """Ridge point ``P / W`` in FLOP/byte."""
        return ridge_point(self.peak_flops, self.bandwidth)

    def attainable(self, intensity: float) -> float:
        return attainable_flops(intensity, self.peak_flops, self.bandwidth)


def attainable_flops(intensity: float, peak_flops: float, bandwidth: float) -> float:
    """``min(peak, bandwidth × intensity)``: the best FLOP/s at this arithmetic intensity."""
    what = "attainable_flops"
    i = _nonneg(intensity, "intensity", what)
    return min(
        _positive(peak_flops, "peak_flops", what), _positive(bandwidth, "bandwidth", what) * i
    )


def ridge_point(peak_flops: float, bandwidth: float) -> float:
    """The intensity (FLOP/byte) where the bandwidth slope meets the peak: ``peak / bandwidth``."""
    what = "ridge_point"
    return _positive(peak_flops, "peak_flops", what) / _positive(bandwidth, "bandwidth", what)


@dataclass(frozen=True)
class Op:
    """An operator: its FLOPs and which tensors it reads and writes (name -> bytes).

    Naming the tensors lets :func:`fuse` tell intermediates (written by one operator of a chain
    and read by a later one) from the chain's real inputs and outputs."""

    name: str
    flops: float
    reads: dict = field(default_factory=dict)
    writes: dict = field(default_factory=dict)

    @property
    def bytes_moved(self) -> float:
        return float(sum(self.reads.values()) + sum(self.writes.values()))

    @property
    def intensity(self) -> float:
        """FLOP per byte of DRAM traffic."""
        return self.flops / self.bytes_moved if self.bytes_moved else float("inf")


def gemm(m: int, k: int, n: int, bytes_per_element: int = 2, name: str | None = None) -> Op:
    """``C = A B`` with ``A`` m×k, ``B`` k×n: ``2mkn`` FLOPs (a multiply and an add per term),
    reading ``A`` and ``B`` and writing ``C`` once each: ``(mk + kn + mn) × bytes``.

    Intensity ``2mkn / ((mk + kn + mn) b)``; for square ``n×n`` it is ``2n / 3b``, growing with
    ``n``: big GEMMs are compute-bound, skinny ones (small ``m``, e.g. decoding one token) are not.
    The bytes are the minimum (each matrix touched once, perfect on-chip reuse)."""
    what = "gemm"
    m, k, n = _count(m, "m", what), _count(k, "k", what), _count(n, "n", what)
    b = _count(bytes_per_element, "bytes_per_element", what)
    return Op(
        name or f"GEMM {m}×{k}·{k}×{n}",
        2.0 * m * k * n,
        reads={"A": m * k * b, "B": k * n * b},
        writes={"C": m * n * b},
    )


#: FLOPs per element we count for element-wise operators (a convention; stated, not measured)
ELEMENTWISE_FLOPS = {
    "add": 1,  # x + y
    "bias": 1,  # x + b (b broadcast along rows)
    # 0.5·x·(1 + tanh(√(2/π)(x + 0.044715x³))): x³ 2, ·c 1, + 1, ·√(2/π) 1, tanh 1, +1 1, ·x 1,
    # ·0.5 1 -- counting tanh as one operation
    "gelu": 9,
    "dropout": 2,  # x · mask · 1/(1-p)
    "scale": 1,
    "relu": 1,
}


def elementwise(
    kind: str,
    n: int,
    bytes_per_element: int = 2,
    inputs: Sequence[str] = ("x",),
    output: str = "y",
    name: str | None = None,
    flops_per_element: float | None = None,
) -> Op:
    """An element-wise operator over ``n`` elements: reads each input once, writes the output.

    ``kind`` picks the FLOPs per element from :data:`ELEMENTWISE_FLOPS` unless
    ``flops_per_element`` is given. Intensity ``flops / ((inputs + 1) × bytes)`` per element: a
    GeLU in fp16 does ~9 FLOPs per 4 bytes, far left of any GPU's ridge point: memory-bound."""
    what = f"elementwise({kind!r})"
    n = _count(n, "n", what)
    b = _count(bytes_per_element, "bytes_per_element", what)
    if flops_per_element is None:
        if kind not in ELEMENTWISE_FLOPS:
            raise ConfigError(
                _("{what}: unknown kind; known {join}, or pass flops_per_element").format(
                    what=what, join=", ".join(ELEMENTWISE_FLOPS)
                )
            )
        flops_per_element = ELEMENTWISE_FLOPS[kind]
    if not inputs:
        raise ConfigError(_("{what}: needs at least one input tensor").format(what=what))
    return Op(
        name or kind,
        float(flops_per_element) * n,
        reads={t: n * b for t in inputs},
        writes={output: n * b},
    )


def bias_add(rows: int, cols: int, bytes_per_element: int = 2, x="x", y="y") -> Op:
    """``y = x + bias``: reads ``x`` (rows×cols) and the bias vector (cols), writes ``y``."""
    what = "bias_add"
    rows, cols = _count(rows, "rows", what), _count(cols, "cols", what)
    b = _count(bytes_per_element, "bytes_per_element", what)
    n = rows * cols
    return Op(_("bias add"), float(n), reads={x: n * b, "bias": cols * b}, writes={y: n * b})


def dropout(n: int, bytes_per_element: int = 2, x="x", y="y", mask_bytes: int = 1) -> Op:
    """Training-time dropout: reads ``x``, writes ``y`` and the keep-mask (1 byte per element,
    saved for the backward pass); the random numbers are generated on chip."""
    what = "dropout"
    n = _count(n, "n", what)
    b = _count(bytes_per_element, "bytes_per_element", what)
    return Op(
        "dropout",
        ELEMENTWISE_FLOPS["dropout"] * float(n),
        reads={x: n * b},
        writes={y: n * b, "dropout mask": n * mask_bytes},
    )


def layer_norm(rows: int, h: int, bytes_per_element: int = 2, x="x", y="y") -> Op:
    """Layer norm over the last dimension ``h`` of a rows×h tensor.

    FLOPs per element: mean 1 (add), variance 3 (subtract, square, add), normalize 2 (subtract,
    multiply by 1/σ), affine 2 (γ·, +β): 8 per element (the per-row square root and division
    are negligible). Bytes: read ``x`` and ``γ, β``, write ``y`` and the per-row mean and 1/σ
    (fp32, kept for backward)."""
    what = "layer_norm"
    rows, h = _count(rows, "rows", what), _count(h, "h", what)
    b = _count(bytes_per_element, "bytes_per_element", what)
    n = rows * h
    return Op(
        _("layer norm"),
        8.0 * n,
        reads={x: n * b, "gamma": h * b, "beta": h * b},
        writes={y: n * b, "mean, rstd": 2 * rows * 4},
    )


def fuse(ops: Sequence[Op], name: str | None = None, keep: Sequence[str] = ()) -> Op:
    """The chain ``ops`` run as one kernel.

    A tensor written by one operator of the chain and read by a later one is an intermediate: in
    the fused kernel it stays on chip, so neither its write nor its reads touch DRAM, unless it
    is in ``keep`` (needed after the kernel, e.g. saved for the backward pass). Everything else
    is read or written once. FLOPs do not change."""
    if not ops:
        raise ConfigError(_("fuse: nothing to fuse (empty list of operators)"))
    keep = set(keep)
    produced: dict[str, float] = {}
    reads: dict[str, float] = {}
    for op in ops:
        if not isinstance(op, Op):
            raise ConfigError(
                _("fuse: expected Op objects, got {name}").format(name=type(op).__name__)
            )
        for t, nbytes in op.reads.items():
            if t not in produced and t not in reads:  # a real input: read from DRAM once
                reads[t] = nbytes
        for t, nbytes in op.writes.items():
            produced[t] = nbytes
    read_later = {t for i, op in enumerate(ops) for t in op.reads if _written_before(ops, i, t)}
    writes = {t: nb for t, nb in produced.items() if t not in read_later or t in keep}
    return Op(
        name or " + ".join(op.name for op in ops) + _(" (fused)"),
        float(sum(op.flops for op in ops)),
        reads=reads,
        writes=writes,
    )


def _written_before(ops: Sequence[Op], i: int, tensor: str) -> bool:
    return any(tensor in op.writes for op in ops[:i])


def op_time(
    op: Op, peak_flops: float, bandwidth: float, launch_s: float = 0.0, overlap: bool = True
) -> float:
    """Seconds for one operator.

    ``overlap=True`` (the roofline): ``launch + max(F / peak, B / bandwidth)``.
    ``overlap=False`` (notes 002's formula): ``launch + B / bandwidth + F / peak``."""
    what = "op_time"
    peak = _positive(peak_flops, "peak_flops", what)
    bw = _positive(bandwidth, "bandwidth", what)
    launch = _nonneg(launch_s, "launch_s", what)
    compute, memory = op.flops / peak, op.bytes_moved / bw
    return launch + (max(compute, memory) if overlap else compute + memory)


def classify(op_or_intensity, peak_flops: float, bandwidth: float) -> str:
    """``"memory-bound"`` left of the ridge point, ``"compute-bound"`` at or right of it."""
    intensity = op_or_intensity.intensity if isinstance(op_or_intensity, Op) else op_or_intensity
    _nonneg(intensity, "intensity", "classify")
    if intensity < ridge_point(peak_flops, bandwidth):
        return N_("memory-bound")
    return N_("compute-bound")


def square_gemm_ridge_size(
    peak_flops: float, bandwidth: float, bytes_per_element: int = 2
) -> float:
    """The ``n`` at which an ``n×n·n×n`` GEMM reaches the ridge: ``2n / 3b = P / W``."""
    b = _count(bytes_per_element, "bytes_per_element", "square_gemm_ridge_size")
    return 1.5 * b * ridge_point(peak_flops, bandwidth)


def balance_point(flops_per_s: float, bytes_per_s: float, bytes_per_value: int = 8) -> float:
    """FLOPs each loaded value must feed to keep the arithmetic busy (notes 003's "80次").

    E.g. a CPU doing 2000 GFLOP/s of FP64 fed at 200 GB/s gets 25 G values/s, so each value must
    be used in 80 operations."""
    what = "balance_point"
    return _positive(flops_per_s, "flops_per_s", what) / (
        _positive(bytes_per_s, "bytes_per_s", what)
        / _count(bytes_per_value, "bytes_per_value", what)
    )


def bytes_in_flight(bandwidth: float, latency_s: float) -> float:
    """Little's law: bytes that must be in flight to keep a memory busy (notes 003's 11659 B
    from 131 GB/s × 89 ns): ``bandwidth × latency``."""
    return _positive(bandwidth, "bandwidth", "bytes_in_flight") * _positive(
        latency_s, "latency_s", "bytes_in_flight"
    )
