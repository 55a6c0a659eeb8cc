"""Communication cost: the α–β model of collectives, and what DP, ZeRO and TP send per step.

**The α–β model.** Sending one message of ``n`` bytes between two ranks takes ``α + n β``:
``α`` is the latency (start-up) in seconds, ``β = 1 / bandwidth`` the time per byte. A collective
algorithm runs in steps; each rank has one full-duplex port, and in one step every rank sends at
most one message and receives at most one, so a step costs ``α + (largest message) β``. Summing
over the steps gives the classic costs (Thakur, Rabenseifner & Gropp 2005, "Optimization of
collective communication operations in MPICH"), for ``p`` ranks and an ``m``-byte buffer:

============== ====================== ============================================
collective     algorithm              time
============== ====================== ============================================
all-reduce     ring                   2(p−1) α + 2(p−1)/p · m β
all-reduce     tree (binomial)        2⌈log2 p⌉ (α + m β)
all-reduce     halving-doubling       2 log2 p · α + 2(p−1)/p · m β
all-reduce     double-tree            Σ over steps of α + (busiest port's chunks) · m/2k · β
reduce-scatter ring                   (p−1) α + (p−1)/p · m β
reduce-scatter halving-doubling       log2 p · α + (p−1)/p · m β
all-gather     ring                   (p−1) α + (p−1)/p · m β
all-gather     halving-doubling       log2 p · α + (p−1)/p · m β
broadcast      tree (binomial)        ⌈log2 p⌉ (α + m β)
reduce         tree (binomial)        ⌈log2 p⌉ (α + m β)
scatter        tree (binomial)        ⌈log2 p⌉ α + (p−1)/p · m β
gather         tree (binomial)        ⌈log2 p⌉ α + (p−1)/p · m β
all-to-all     pairwise               (p−1) (α + m/p β)
============== ====================== ============================================

The ``tree`` is the binomial tree that moves the whole buffer on every step; ``double-tree`` is
NCCL's: two binary trees carrying half of the buffer each, pipelined in ``k`` chunks per tree
(:mod:`lecturekit.llm.double_tree`). It is the one algorithm here whose ranks send or receive
several messages in a step: a rank sends up in both trees and down to two children, and a parent
receives from both children at once. A step lasts as long as its busiest port (the most chunks
one rank sends, or receives): up to four, about ``2 m β`` in all for large ``k``, the ring's
bandwidth term times ``p/(p-1)``, over ``k - 1 + 2H`` steps for trees of height ``H``. ``chunks``
sets ``k``; by default :func:`double_tree_chunks` picks the ``k`` that minimises the time.

``m`` is always the size of the *whole* buffer: the vector being all-reduced, the all-gather's
output, the reduce-scatter's input, the root's buffer for scatter/gather, one rank's send buffer
for all-to-all. The all-reduce rows are cross-checked against the traces of
:mod:`lecturekit.llm.collectives` by :func:`trace_time`; the ring's per-rank traffic
``2(p−1)/p · m`` is the lecture's "每个节点的传输开销 m/p·2(p−1)".

**Per training step.** :func:`data_parallel_comm` gives the ZeRO paper's volumes (Rajbhandari
et al. 2020, §7): DDP ``2Ψ``, ZeRO-1/2 ``2Ψ``, ZeRO-3 ``3Ψ`` elements per rank;
:func:`tensor_parallel_comm` gives Megatron's four all-reduces of ``b·s·h`` per transformer layer
(two forward, two backward), or with sequence parallelism the all-gathers and reduce-scatters
that replace them at the same volume (Korthikanti et al. 2022).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Integral, Real

from ..errors import ConfigError
from ..language import _

ALGORITHMS: dict[str, tuple[str, ...]] = {
    "all-reduce": ("ring", "tree", "halving-doubling", "double-tree"),
    "reduce-scatter": ("ring", "halving-doubling"),
    "all-gather": ("ring", "halving-doubling"),
    "broadcast": ("tree",),
    "reduce": ("tree",),
    "scatter": ("tree",),
    "gather": ("tree",),
    "all-to-all": ("pairwise",),
}


@dataclass(frozen=True)
class Link:
    """A network link in the α–β model: ``alpha`` seconds per message, ``beta`` seconds per byte."""

    alpha: float
    beta: float

    def __post_init__(self):
        for name in ("alpha", "beta"):
            v = getattr(self, name)
            if not isinstance(v, Real) or isinstance(v, bool) or not v >= 0:
                raise ConfigError(
                    _("Link: {name} must be a number >= 0, got {v!r}").format(name=name, v=v)
                )

    @classmethod
    def from_bandwidth(cls, alpha: float, bandwidth_bytes_per_s: float) -> Link:
        """A link with latency ``alpha`` (s) and a bandwidth in bytes/s (``β = 1/bandwidth``)."""
        if not isinstance(bandwidth_bytes_per_s, Real) or not bandwidth_bytes_per_s > 0:
            raise ConfigError(
                _("Link: bandwidth must be > 0 bytes/s, got {bandwidth_bytes_per_s!r}").format(
                    bandwidth_bytes_per_s=bandwidth_bytes_per_s
                )
            )
        return cls(alpha, 1.0 / bandwidth_bytes_per_s)

    @property
    def bandwidth(self) -> float:
        """Bytes per second (``inf`` when β = 0)."""
        return math.inf if self.beta == 0 else 1.0 / self.beta

    def message_time(self, nbytes: float) -> float:
        """``α + n β``: one point-to-point message of ``nbytes``."""
        return self.alpha + nbytes * self.beta


def _check_p(p, what: str) -> int:
    if isinstance(p, bool) or not isinstance(p, Integral) or p < 1:
        raise ConfigError(
            _("{what}: p (number of ranks) must be an integer >= 1, got {p!r}").format(
                what=what, p=p
            )
        )
    return p


def _check_nonneg(value, name: str, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, Real) or not value >= 0:
        raise ConfigError(
            _("{what}: {name} must be a number >= 0, got {value!r}").format(
                what=what, name=name, value=value
            )
        )
    return value


def ring_all_reduce_bytes_per_rank(m_bytes: float, p: int) -> float:
    """What each rank sends in a ring all-reduce of ``m`` bytes: ``m/p · 2(p−1)``."""
    _check_p(p, _("ring all-reduce"))
    _check_nonneg(m_bytes, "m_bytes", _("ring all-reduce"))
    return m_bytes / p * 2 * (p - 1)


def double_tree_time(m_bytes: float, p: int, link: Link, chunks: int) -> float:
    """α–β time of the pipelined double-binary-tree all-reduce with ``chunks`` per tree: every
    step costs ``α`` plus the chunks of ``m / 2k`` bytes its busiest port carries, the most one
    rank sends or receives (the rule :func:`trace_time` applies to the recorded
    :func:`~lecturekit.llm.collectives.double_tree_all_reduce_trace`)."""
    from .double_tree import double_tree_step_load

    chunk = m_bytes / (2 * chunks)
    return sum(
        n * (link.alpha + load * chunk * link.beta) for n, load in double_tree_step_load(p, chunks)
    )


def double_tree_chunks(m_bytes: float, p: int, link: Link) -> int:
    """The number of chunks per tree that minimises :func:`double_tree_time`.

    Few chunks pay the trees' depth with large messages, many chunks pay ``α`` per step. From
    ``k0`` chunks on (:func:`~lecturekit.llm.double_tree.double_tree_load_line`) the time is
    ``(k - 1 + 2H) α + (c k + e) m β / 2k``, convex in ``k`` with its minimum at
    ``k = sqrt(e m β / 2α)``; below ``k0`` every ``k`` is tried. (NCCL cuts buffers into
    fixed-size chunks instead; for large buffers both give ``~2mβ``.)"""
    from .double_tree import MAX_CHUNKS, double_tree_load_line

    what = "double_tree_chunks"
    p = _check_p(p, what)
    m = _check_nonneg(m_bytes, "m_bytes", what)
    if p == 1 or m == 0:
        return 1
    if link.alpha == 0:
        return MAX_CHUNKS
    k0, _per_chunk, extra = double_tree_load_line(p)
    k0 = min(k0, MAX_CHUNKS)
    candidates = set(range(1, k0 + 1))
    if extra > 0:
        best = math.sqrt(extra * m * link.beta / (2 * link.alpha))
        candidates |= {max(k0, min(MAX_CHUNKS, k)) for k in (math.floor(best), math.ceil(best))}
    return min(sorted(candidates), key=lambda k: double_tree_time(m, p, link, k))


def collective_time(
    collective: str,
    m_bytes: float,
    p: int,
    link: Link,
    algorithm: str | None = None,
    chunks: int | None = None,
) -> float:
    """Time in seconds of ``collective`` on ``p`` ranks over ``link``, by the table above.

    ``algorithm`` defaults to the first one listed for the collective in :data:`ALGORITHMS`
    (the ring for all-reduce, all-gather and reduce-scatter). ``chunks`` (chunks per tree) is
    for ``"double-tree"`` only; by default the best number (:func:`double_tree_chunks`).
    """
    what = f"collective_time({collective!r})"
    if collective not in ALGORITHMS:
        raise ConfigError(
            _("collective_time: unknown collective {collective!r}; choose one of {join}").format(
                collective=collective, join=", ".join(ALGORITHMS)
            )
        )
    algorithm = algorithm or ALGORITHMS[collective][0]
    if algorithm not in ALGORITHMS[collective]:
        raise ConfigError(
            _("{what}: no algorithm {algorithm!r} here; choose one of {join}").format(
                what=what, algorithm=algorithm, join=", ".join(ALGORITHMS[collective])
            )
        )
    p = _check_p(p, what)
    m = _check_nonneg(m_bytes, "m_bytes", what)
    if not isinstance(link, Link):
        raise ConfigError(
            _("{what}: link must be a Link, got {name}").format(what=what, name=type(link).__name__)
        )
    if chunks is not None and algorithm != "double-tree":
        raise ConfigError(
            _("{what}: chunks is for the double-tree algorithm, not {algorithm!r}").format(
                what=what, algorithm=algorithm
            )
        )
    if algorithm == "double-tree":
        if p == 1:
            return 0.0
        from .double_tree import _check_chunks

        k = double_tree_chunks(m, p, link) if chunks is None else _check_chunks(chunks)
        return double_tree_time(m, p, link, k)
    a, b = link.alpha, link.beta
    if algorithm == "halving-doubling" and p & (p - 1):
        raise ConfigError(
            _("{what}: halving-doubling needs p a power of two, got p={p}").format(what=what, p=p)
        )
    log_p = math.ceil(math.log2(p)) if p > 1 else 0
    share = (p - 1) / p * m  # what each rank sends in one reduce-scatter or all-gather
    if collective == "all-reduce":
        if algorithm == "ring":
            return 2 * (p - 1) * a + 2 * share * b
        if algorithm == "tree":
            return 2 * log_p * (a + m * b)
        return 2 * log_p * a + 2 * share * b
    if collective in ("reduce-scatter", "all-gather"):
        if algorithm == "ring":
            return (p - 1) * a + share * b
        return log_p * a + share * b
    if collective in ("broadcast", "reduce"):
        return log_p * (a + m * b)
    if collective in ("scatter", "gather"):
        return log_p * a + share * b
    return (p - 1) * (a + m / p * b)  # all-to-all, pairwise exchange


def trace_time(trace, link: Link, phase: str | None = None) -> float:
    """Time of a recorded algorithm (a :class:`~lecturekit.llm.collectives.CollectiveTrace`).

    Each step costs ``α + β ×`` (the most bytes any one rank sends, or receives, in that step: a
    rank's port is full duplex, and what arrives from two senders at once shares it); steps run
    one after another. Restrict to one ``phase`` (e.g. ``"reduce-scatter"``) if given. For
    buffers that split evenly into ``p`` chunks this equals :func:`collective_time` exactly.
    """
    if not isinstance(link, Link):
        raise ConfigError(
            _("trace_time: link must be a Link, got {name}").format(name=type(link).__name__)
        )
    total = 0.0
    for step in trace.steps:
        if phase is not None and step.phase != phase:
            continue
        sent, received = [0] * trace.p, [0] * trace.p
        for t in step.transfers:
            sent[t.src] += t.nbytes
            received[t.dst] += t.nbytes
        total += link.message_time(max(max(sent), max(received)))
    return total


# ----------------------------------------------------------------------------------------------
# volumes per training step
# ----------------------------------------------------------------------------------------------

#: traffic each rank sends per element of the tensor, as a multiple of (p−1)/p
_SHARES = {"all-reduce": 2, "reduce-scatter": 1, "all-gather": 1}


@dataclass(frozen=True)
class CommOp:
    """One collective in a training step: ``collective`` over a tensor of ``elements``."""

    collective: str  #: all-reduce, reduce-scatter or all-gather
    tensor: str  #: what is communicated, e.g. "gradients"
    elements: int  #: size of the whole tensor
    phase: str  #: forward / backward / after backward

    def elements_per_rank(self, p: int | None = None) -> float:
        """Elements each rank sends (ring algorithms).

        With ``p`` given, exactly ``(p−1)/p`` of the tensor per reduce-scatter or all-gather
        (twice that for an all-reduce); with ``p=None`` the large-``p`` limit the ZeRO paper
        uses (``Ψ`` per reduce-scatter or all-gather, ``2Ψ`` per all-reduce)."""
        factor = 1.0 if p is None else (_check_p(p, "CommOp") - 1) / p
        return _SHARES[self.collective] * factor * self.elements


@dataclass(frozen=True)
class CommPlan:
    """The collectives of one training step (or one layer), and their cost."""

    label: str
    ops: tuple[CommOp, ...]
    bytes_per_element: int

    def elements_per_rank(self, p: int | None = None) -> float:
        """Elements each rank sends over all ops (see :meth:`CommOp.elements_per_rank`)."""
        return sum(op.elements_per_rank(p) for op in self.ops)

    def bytes_per_rank(self, p: int | None = None) -> float:
        """Bytes each rank sends over all ops."""
        return self.elements_per_rank(p) * self.bytes_per_element

    def count(self, collective: str, phase: str | None = None) -> int:
        """How many ops of this collective (in this phase)."""
        return sum(
            1 for op in self.ops if op.collective == collective and phase in (None, op.phase)
        )

    def time(self, p: int, link: Link, algorithm: str = "ring") -> float:
        """Seconds for all ops one after another (no overlap with compute), α–β model."""
        return sum(
            collective_time(op.collective, op.elements * self.bytes_per_element, p, link, algorithm)
            for op in self.ops
        )


def _bytes_per_element(dtype) -> int:
    if isinstance(dtype, str):
        from .formats import bytes_per_element

        return bytes_per_element(dtype)
    if isinstance(dtype, bool) or not isinstance(dtype, Integral) or dtype < 1:
        raise ConfigError(
            _("dtype: expected a format name or a byte count >= 1, got {dtype!r}").format(
                dtype=dtype
            )
        )
    return dtype


def _check_count(value, name: str, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, Integral) or value < 1:
        raise ConfigError(
            _("{what}: {name} must be an integer >= 1, got {value!r}").format(
                what=what, name=name, value=value
            )
        )
    return value


DP_STRATEGIES = ("ddp", "zero1", "zero2", "zero3")


def data_parallel_comm(num_params: int, strategy: str = "ddp", dtype="fp16") -> CommPlan:
    """The collectives of one data-parallel training step with ``Ψ = num_params`` parameters.

    As in the ZeRO paper (§7.2) and the CS336 notes (004):

    - ``ddp``: all-reduce the gradients (= reduce-scatter + all-gather): ``2Ψ``.
    - ``zero1`` / ``zero2`` (optimizer states / + gradients sharded): reduce-scatter the
      gradients (each rank gets the sum for its shard), update its shard of parameters,
      all-gather the parameters: ``Ψ + Ψ = 2Ψ``, the same as DDP.
    - ``zero3`` (parameters sharded too, i.e. FSDP): all-gather the parameters before the
      forward pass and again before the backward pass, reduce-scatter the gradients: ``3Ψ``.

    ``dtype`` is the format of what is sent (``"fp16"`` as in the paper, or a byte count).
    """
    what = "data_parallel_comm"
    psi = _check_count(num_params, "num_params", what)
    if strategy not in DP_STRATEGIES:
        raise ConfigError(
            _("{what}: unknown strategy {strategy!r}; choose {join}").format(
                what=what, strategy=strategy, join=", ".join(DP_STRATEGIES)
            )
        )
    nbytes = _bytes_per_element(dtype)
    if strategy == "ddp":
        ops = [
            CommOp("reduce-scatter", "gradients", psi, _("after backward")),
            CommOp("all-gather", "gradients", psi, _("after backward")),
        ]
    elif strategy in ("zero1", "zero2"):
        ops = [
            CommOp("reduce-scatter", "gradients", psi, _("after backward")),
            CommOp("all-gather", "parameters", psi, _("after update")),
        ]
    else:
        ops = [
            CommOp("all-gather", "parameters", psi, "forward"),
            CommOp("all-gather", "parameters", psi, "backward"),
            CommOp("reduce-scatter", "gradients", psi, "backward"),
        ]
    return CommPlan(f"{strategy} (Ψ={psi:,})", tuple(ops), nbytes)


def tensor_parallel_comm(
    b: int, s: int, h: int, dtype="fp16", sequence_parallel: bool = False
) -> CommPlan:
    """The collectives of one transformer layer under Megatron tensor parallelism.

    Without sequence parallelism: the ``g`` operator after the attention block and after the MLP
    all-reduces the ``b·s·h`` activations (2 forward), and the ``f`` operator before each block
    all-reduces the ``b·s·h`` input gradients (2 backward): 4 all-reduces of ``b·s·h``.

    With sequence parallelism (Korthikanti et al. 2022) each all-reduce becomes a reduce-scatter
    and an all-gather of the same tensor (``g`` → reduce-scatter, ``f`` → all-gather in the
    forward pass, the other way round backward): the same bytes, and the layer norms and dropouts
    between the blocks work on a ``1/t`` slice of the sequence.
    """
    what = "tensor_parallel_comm"
    n = _check_count(b, "b", what) * _check_count(s, "s", what) * _check_count(h, "h", what)
    nbytes = _bytes_per_element(dtype)
    ops = []
    for block in ("attention", "MLP"):
        if sequence_parallel:
            ops += [
                CommOp("all-gather", f"{block} input (f)", n, "forward"),
                CommOp("reduce-scatter", f"{block} output (g)", n, "forward"),
                CommOp(
                    "all-gather", _("{block} output grad (g)").format(block=block), n, "backward"
                ),
                CommOp(
                    "reduce-scatter", _("{block} input grad (f)").format(block=block), n, "backward"
                ),
            ]
        else:
            ops += [
                CommOp("all-reduce", f"{block} output (g)", n, "forward"),
                CommOp(
                    "all-reduce", _("{block} input grad (f)").format(block=block), n, "backward"
                ),
            ]
    label = f"TP layer b={b} s={s} h={h}" + (" +SP" if sequence_parallel else "")
    return CommPlan(label, tuple(ops), nbytes)
