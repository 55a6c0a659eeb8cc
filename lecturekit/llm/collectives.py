"""Collective communication on simulated ranks: what every GPU holds before and after.

A *rank* is one GPU (one process). Here a group of ``p`` ranks is simply a list of ``p`` numpy
arrays, ``buffers[r]`` being what rank ``r`` holds. Every collective takes that list (the state
*before*) and returns a new list (the state *after*); nothing is modified in place.

The eight collectives of the lecture notes (003 and 004) and their meaning:

============== ======================================= ========================================
collective     before                                  after
============== ======================================= ========================================
broadcast      root holds x                            every rank holds x
scatter        root holds x = [x0 .. x(p-1)]           rank i holds xi
gather         rank i holds xi                         root holds [x0 .. x(p-1)]
reduce         rank i holds xi                         root holds x0 + ... + x(p-1)
all-gather     rank i holds xi                         every rank holds [x0 .. x(p-1)]
reduce-scatter rank i holds xi = [xi0 .. xi(p-1)]      rank j holds x0j + ... + x(p-1)j
all-reduce     rank i holds xi                         every rank holds x0 + ... + x(p-1)
all-to-all     rank i holds [xi0 .. xi(p-1)]           rank j holds [x0j .. x(p-1)j]
============== ======================================= ========================================

"Splitting into p pieces" is along ``axis`` (default 0) and follows ``np.array_split``: a length
``n`` not divisible by ``p`` is handled, the first ``n mod p`` pieces being one element longer.

These functions give the *result* of each collective. *How* a library gets there, with
messages between ranks, is an algorithm; three all-reduce algorithms are here, each returning a
:class:`CollectiveTrace` that records every step (who sends which chunk to whom, and every
rank's buffer afterwards):

- :func:`ring_all_reduce_trace` -- the ring (Baidu / Gibiansky; the lecture's slide): a
  reduce-scatter phase then an all-gather phase, ``p - 1`` steps each, chunks moving around the
  ring. Every rank sends ``2 (p - 1) / p * m`` bytes for an ``m``-byte buffer ("每个节点的传输开销
  m/p·2(p−1)").
- :func:`tree_all_reduce_trace` -- a binomial tree: reduce to rank 0 in ``ceil(log2 p)`` steps,
  then broadcast back down; few steps, but whole buffers move on every step.
- :func:`halving_doubling_all_reduce_trace` -- recursive halving (reduce-scatter) then recursive
  doubling (all-gather) (Rabenseifner; needs ``p`` a power of two): ``2 log2 p`` steps and the
  ring's ``2 (p - 1) / p * m`` bytes.
- :func:`double_tree_all_reduce_trace` -- NCCL's tree: two binary trees, half of the buffer
  each, cut into chunks that are reduced up and broadcast down in a pipeline
  (:mod:`lecturekit.llm.double_tree`): ``~2 log2 p`` steps of latency and ``2m`` bytes per
  rank, close to the ring's bandwidth.

Bad input (no ranks, ranks holding different shapes, a root that is not a rank, ...) raises
:class:`~lecturekit.errors.ConfigError` naming what was wrong.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..errors import ConfigError
from ..language import _

#: reduction name -> the numpy function that combines two buffers
REDUCE_OPS = {"sum": np.add, "prod": np.multiply, "max": np.maximum, "min": np.minimum}

#: the collectives of this module, by the names the notes use
COLLECTIVES = (
    "broadcast",
    "scatter",
    "gather",
    "reduce",
    "all-gather",
    "reduce-scatter",
    "all-reduce",
    "all-to-all",
)


# ----------------------------------------------------------------------------------------------
# checking the input
# ----------------------------------------------------------------------------------------------


def _as_ranks(buffers, what: str, allow_none: bool = False) -> list:
    """``buffers`` as a list of arrays (or ``None`` where allowed); at least one rank."""
    if isinstance(buffers, np.ndarray) or not isinstance(buffers, Sequence):
        raise ConfigError(
            _("{what}: buffers must be a list with one array per rank, got {name}").format(
                what=what, name=type(buffers).__name__
            )
        )
    if len(buffers) < 1:
        raise ConfigError(
            _("{what}: need at least one rank (p >= 1), got an empty list").format(what=what)
        )
    out = []
    for r, b in enumerate(buffers):
        if b is None and allow_none:
            out.append(None)
            continue
        if b is None:
            raise ConfigError(_("{what}: rank {r} holds nothing (None)").format(what=what, r=r))
        arr = np.asarray(b)
        if arr.dtype == object or not (
            np.issubdtype(arr.dtype, np.number) or arr.dtype == np.bool_
        ):
            raise ConfigError(
                _("{what}: rank {r} holds {dtype} data, expected numbers").format(
                    what=what, r=r, dtype=arr.dtype
                )
            )
        out.append(arr)
    return out


def _check_same_shape(arrays: list[np.ndarray], what: str) -> None:
    for r, a in enumerate(arrays):
        if a.shape != arrays[0].shape:
            raise ConfigError(
                _(
                    "{what}: rank {r} holds shape {shape} but rank 0 holds {shape2}; every "
                    "rank must hold the same shape"
                ).format(what=what, r=r, shape=a.shape, shape2=arrays[0].shape)
            )


def _check_root(root, p: int, what: str) -> int:
    if isinstance(root, bool) or not isinstance(root, (int, np.integer)) or not 0 <= root < p:
        raise ConfigError(
            _("{what}: root={root!r} is not a rank (ranks are 0..{value})").format(
                what=what, root=root, value=p - 1
            )
        )
    return int(root)


def _check_axis(arr: np.ndarray, axis, what: str, rank: int) -> int:
    if arr.ndim == 0:
        raise ConfigError(
            _("{what}: rank {rank} holds a scalar, which cannot be split into pieces").format(
                what=what, rank=rank
            )
        )
    if not isinstance(axis, (int, np.integer)) or not -arr.ndim <= axis < arr.ndim:
        raise ConfigError(
            _("{what}: axis={axis!r} is out of range for shape {shape}").format(
                what=what, axis=axis, shape=arr.shape
            )
        )
    return int(axis) % arr.ndim


def _check_op(op: str, what: str):
    if op not in REDUCE_OPS:
        raise ConfigError(
            _("{what}: unknown op {op!r}; choose one of {join}").format(
                what=what, op=op, join=", ".join(REDUCE_OPS)
            )
        )
    return REDUCE_OPS[op]


def _check_trailing(arrays: list[np.ndarray], axis: int, what: str) -> None:
    """Pieces to concatenate along ``axis`` must agree in every other dimension."""
    ref = arrays[0]
    for r, a in enumerate(arrays):
        if a.ndim != ref.ndim or any(
            a.shape[d] != ref.shape[d] for d in range(a.ndim) if d != axis
        ):
            raise ConfigError(
                _(
                    "{what}: rank {r} holds shape {shape}, which cannot be joined with "
                    "rank 0's {shape2} along axis {axis}"
                ).format(what=what, r=r, shape=a.shape, shape2=ref.shape, axis=axis)
            )


def chunk_bounds(n: int, p: int) -> list[tuple[int, int]]:
    """Element ranges ``[start, stop)`` of ``p`` near-equal chunks of ``n`` elements.

    Same rule as ``np.array_split``: the first ``n mod p`` chunks get one extra element. With
    ``n < p`` some chunks are empty (allowed; they cost no bytes).
    """
    if not isinstance(p, (int, np.integer)) or p < 1:
        raise ConfigError(_("chunk_bounds: p must be an integer >= 1, got {p!r}").format(p=p))
    if not isinstance(n, (int, np.integer)) or n < 0:
        raise ConfigError(_("chunk_bounds: n must be an integer >= 0, got {n!r}").format(n=n))
    base, extra = divmod(int(n), int(p))
    bounds, start = [], 0
    for i in range(p):
        stop = start + base + (1 if i < extra else 0)
        bounds.append((start, stop))
        start = stop
    return bounds


def _reduce(arrays: list[np.ndarray], op: str, what: str) -> np.ndarray:
    combine = _check_op(op, what)
    acc = arrays[0].copy()
    for a in arrays[1:]:  # in rank order: 0, 1, ..., p-1
        acc = combine(acc, a)
    return acc


# ----------------------------------------------------------------------------------------------
# the collectives (results only)
# ----------------------------------------------------------------------------------------------


def broadcast(buffers: Sequence, root: int = 0) -> list[np.ndarray]:
    """Before: ``root`` holds ``x`` (the other entries are ignored and may be ``None``).
    After: every rank holds a copy of ``x``."""
    ranks = _as_ranks(buffers, "broadcast", allow_none=True)
    root = _check_root(root, len(ranks), "broadcast")
    if ranks[root] is None:
        raise ConfigError(
            _("broadcast: the root (rank {root}) holds nothing to send").format(root=root)
        )
    return [ranks[root].copy() for _unused in ranks]


def scatter(buffers: Sequence, root: int = 0, axis: int = 0) -> list[np.ndarray]:
    """Before: ``root`` holds ``x`` (other entries ignored, may be ``None``).
    After: rank ``i`` holds piece ``i`` of ``x`` split into ``p`` pieces along ``axis``."""
    ranks = _as_ranks(buffers, "scatter", allow_none=True)
    p = len(ranks)
    root = _check_root(root, p, "scatter")
    if ranks[root] is None:
        raise ConfigError(
            _("scatter: the root (rank {root}) holds nothing to send").format(root=root)
        )
    axis = _check_axis(ranks[root], axis, "scatter", root)
    return [piece.copy() for piece in np.array_split(ranks[root], p, axis=axis)]


def gather(buffers: Sequence, root: int = 0, axis: int = 0) -> list[np.ndarray | None]:
    """Before: rank ``i`` holds ``xi``.
    After: ``root`` holds ``[x0 .. x(p-1)]`` concatenated along ``axis``; the other ranks receive
    nothing (``None``)."""
    ranks = _as_ranks(buffers, "gather")
    root = _check_root(root, len(ranks), "gather")
    axis = _check_axis(ranks[0], axis, "gather", 0)
    _check_trailing(ranks, axis, "gather")
    out: list[np.ndarray | None] = [None] * len(ranks)
    out[root] = np.concatenate(ranks, axis=axis)
    return out


def reduce(buffers: Sequence, root: int = 0, op: str = "sum") -> list[np.ndarray | None]:
    """Before: rank ``i`` holds ``xi`` (same shape everywhere).
    After: ``root`` holds ``x0 op x1 op ... op x(p-1)``; the other ranks receive nothing."""
    ranks = _as_ranks(buffers, "reduce")
    root = _check_root(root, len(ranks), "reduce")
    _check_same_shape(ranks, "reduce")
    out: list[np.ndarray | None] = [None] * len(ranks)
    out[root] = _reduce(ranks, op, "reduce")
    return out


def all_gather(buffers: Sequence, axis: int = 0) -> list[np.ndarray]:
    """Before: rank ``i`` holds ``xi``.
    After: every rank holds ``[x0 .. x(p-1)]`` concatenated along ``axis``."""
    ranks = _as_ranks(buffers, "all-gather")
    axis = _check_axis(ranks[0], axis, "all-gather", 0)
    _check_trailing(ranks, axis, "all-gather")
    whole = np.concatenate(ranks, axis=axis)
    return [whole.copy() for _ in ranks]


def reduce_scatter(buffers: Sequence, op: str = "sum", axis: int = 0) -> list[np.ndarray]:
    """Before: rank ``i`` holds ``xi`` (same shape everywhere), thought of as ``p`` pieces.
    After: rank ``j`` holds piece ``j`` of the reduction ``x0 op ... op x(p-1)``."""
    ranks = _as_ranks(buffers, "reduce-scatter")
    _check_same_shape(ranks, "reduce-scatter")
    axis = _check_axis(ranks[0], axis, "reduce-scatter", 0)
    total = _reduce(ranks, op, "reduce-scatter")
    return [piece.copy() for piece in np.array_split(total, len(ranks), axis=axis)]


def all_reduce(buffers: Sequence, op: str = "sum") -> list[np.ndarray]:
    """Before: rank ``i`` holds ``xi`` (same shape everywhere).
    After: every rank holds ``x0 op x1 op ... op x(p-1)``.

    Equal to reduce-scatter followed by all-gather, which is exactly how the ring does it
    (:func:`ring_all_reduce_trace`)."""
    ranks = _as_ranks(buffers, "all-reduce")
    _check_same_shape(ranks, "all-reduce")
    total = _reduce(ranks, op, "all-reduce")
    return [total.copy() for _ in ranks]


def all_to_all(buffers: Sequence, axis: int = 0) -> list[np.ndarray]:
    """Before: rank ``i`` holds ``[xi0 .. xi(p-1)]`` (its buffer split into ``p`` pieces).
    After: rank ``j`` holds ``[x0j .. x(p-1)j]``: piece ``j`` from every rank, in rank order.

    A transpose of the (rank, piece) grid; mixture-of-experts uses it to send each token to the
    GPU holding its expert (notes 002)."""
    ranks = _as_ranks(buffers, "all-to-all")
    p = len(ranks)
    axis = _check_axis(ranks[0], axis, "all-to-all", 0)
    _check_trailing(ranks, axis, "all-to-all")
    pieces = [np.array_split(b, p, axis=axis) for b in ranks]
    return [np.concatenate([pieces[i][j] for i in range(p)], axis=axis) for j in range(p)]


# ----------------------------------------------------------------------------------------------
# all-reduce algorithms, step by step
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Transfer:
    """One message in one step: ``src`` sends its ``chunks`` to ``dst``.

    ``combine`` says what the receiver does: ``"add"`` reduces the data into its own copy of
    those chunks (reduce-scatter phases), ``"copy"`` overwrites them (all-gather phases)."""

    src: int
    dst: int
    chunks: tuple[int, ...]
    nbytes: int
    combine: str


@dataclass(frozen=True, eq=False)
class Step:
    """One step of an algorithm: messages sent at the same time, then every rank's state.

    (Compared by identity: it holds numpy arrays.)

    ``contributors[r][c]`` is the set of ranks whose data is already reduced into rank ``r``'s
    chunk ``c`` (``{r}`` at the start, all ranks at the end of an all-reduce)."""

    number: int  #: 1-based
    phase: str
    transfers: tuple[Transfer, ...]
    buffers: tuple[np.ndarray, ...]  #: every rank's buffer after the step (flattened)
    contributors: tuple[tuple[frozenset, ...], ...]


@dataclass(frozen=True, eq=False)
class CollectiveTrace:
    """Every step of an all-reduce algorithm on simulated ranks.

    Buffers are flattened to 1-D and cut into ``p`` chunks (:func:`chunk_bounds`);
    :attr:`result` reshapes them back."""

    algorithm: str
    p: int
    shape: tuple[int, ...]
    itemsize: int
    bounds: tuple[tuple[int, int], ...]  #: element range of each chunk
    initial: tuple[np.ndarray, ...]
    steps: tuple[Step, ...]

    @property
    def message_bytes(self) -> int:
        """``m``: the size in bytes of one rank's whole buffer."""
        return (self.bounds[-1][1] if self.bounds else 0) * self.itemsize

    @property
    def result(self) -> list[np.ndarray]:
        """Every rank's buffer at the end, in the original shape."""
        last = self.buffers_at(len(self.steps))
        return [b.reshape(self.shape).copy() for b in last]

    def buffers_at(self, k: int) -> tuple[np.ndarray, ...]:
        """Every rank's (flattened) buffer after step ``k`` (``k = 0``: before the first step)."""
        self._check_k(k)
        return self.initial if k == 0 else self.steps[k - 1].buffers

    def contributors_at(self, k: int) -> tuple[tuple[frozenset, ...], ...]:
        """``[rank][chunk]`` -> set of ranks reduced into it, after step ``k``."""
        self._check_k(k)
        if k == 0:
            chunks = len(self.bounds)
            return tuple(tuple(frozenset({r}) for _ in range(chunks)) for r in range(self.p))
        return self.steps[k - 1].contributors

    def bytes_sent(self, phase: str | None = None) -> list[int]:
        """Bytes each rank sends over the whole algorithm (or in one ``phase``)."""
        sent = [0] * self.p
        for step in self.steps:
            if phase is None or step.phase == phase:
                for t in step.transfers:
                    sent[t.src] += t.nbytes
        return sent

    def bytes_received(self, phase: str | None = None) -> list[int]:
        """Bytes each rank receives over the whole algorithm (or in one ``phase``)."""
        got = [0] * self.p
        for step in self.steps:
            if phase is None or step.phase == phase:
                for t in step.transfers:
                    got[t.dst] += t.nbytes
        return got

    def _check_k(self, k: int) -> None:
        if not isinstance(k, (int, np.integer)) or not 0 <= k <= len(self.steps):
            raise ConfigError(
                _("trace: step {k!r} does not exist (0..{n_steps})").format(
                    k=k, n_steps=len(self.steps)
                )
            )


def _prepare(buffers, what: str) -> tuple[list[np.ndarray], tuple[int, ...]]:
    ranks = _as_ranks(buffers, what)
    _check_same_shape(ranks, what)
    dtype = np.result_type(*ranks)
    return [np.array(b, dtype=dtype).reshape(-1) for b in ranks], ranks[0].shape


def _run(
    algorithm: str, flat, shape, schedule, op: str, n_chunks: int | None = None
) -> CollectiveTrace:
    """Carry out a schedule of steps on the flattened buffers and record everything.

    ``schedule`` is a list of ``(phase, [(src, dst, chunks, combine), ...])``. All messages of a
    step are sent at the same time, so each carries the sender's data from *before* the step.
    The buffers are cut into ``n_chunks`` chunks (default: one per rank).
    """
    combine_fn = _check_op(op, algorithm)
    p = len(flat)
    bounds = chunk_bounds(flat[0].size, n_chunks or p)
    itemsize = flat[0].itemsize
    state = [b.copy() for b in flat]
    contrib = [[frozenset({r}) for _ in bounds] for r in range(p)]
    steps = []
    for number, (phase, messages) in enumerate(schedule, start=1):
        before = [b.copy() for b in state]
        before_contrib = [row[:] for row in contrib]
        transfers = []
        for src, dst, chunks, combine in messages:
            nbytes = 0
            for c in chunks:
                lo, hi = bounds[c]
                nbytes += (hi - lo) * itemsize
                if combine == "add":
                    state[dst][lo:hi] = combine_fn(state[dst][lo:hi], before[src][lo:hi])
                    contrib[dst][c] = contrib[dst][c] | before_contrib[src][c]
                else:
                    state[dst][lo:hi] = before[src][lo:hi]
                    contrib[dst][c] = before_contrib[src][c]
            transfers.append(Transfer(src, dst, tuple(chunks), nbytes, combine))
        steps.append(
            Step(
                number=number,
                phase=phase,
                transfers=tuple(transfers),
                buffers=tuple(b.copy() for b in state),
                contributors=tuple(tuple(row) for row in contrib),
            )
        )
    return CollectiveTrace(
        algorithm=algorithm,
        p=p,
        shape=tuple(shape),
        itemsize=itemsize,
        bounds=tuple(bounds),
        initial=tuple(b.copy() for b in flat),
        steps=tuple(steps),
    )


def ring_all_reduce_trace(buffers: Sequence, op: str = "sum") -> CollectiveTrace:
    """Ring all-reduce, step by step (the lecture's slide: Scatter-Reduce, then AllGather).

    Each buffer is cut into ``p`` chunks; rank ``r`` sends only to rank ``r + 1 (mod p)``.

    1. Reduce-scatter, steps ``s = 0 .. p-2``: rank ``r`` sends chunk ``(r - s - 1) mod p``, and
       the receiver adds it to its own copy. After ``p - 1`` steps rank ``r`` holds chunk ``r``
       reduced over all ranks.
    2. All-gather, steps ``s = 0 .. p-2``: rank ``r`` sends chunk ``(r - s) mod p`` (the one it
       has just completed or received), and the receiver overwrites its copy.

    Every rank sends one chunk per step, ``2 (p - 1)`` chunks in all: ``2 (p - 1) / p * m``
    bytes for an ``m``-byte buffer, independent of ``p`` for large ``p``. That is why the ring is
    bandwidth-optimal.
    """
    flat, shape = _prepare(buffers, _("ring all-reduce"))
    p = len(flat)
    schedule = []
    for s in range(p - 1):
        msgs = [(r, (r + 1) % p, ((r - s - 1) % p,), "add") for r in range(p)]
        schedule.append(("reduce-scatter", msgs))
    for s in range(p - 1):
        msgs = [(r, (r + 1) % p, ((r - s) % p,), "copy") for r in range(p)]
        schedule.append(("all-gather", msgs))
    return _run("ring", flat, shape, schedule, op)


def tree_all_reduce_trace(buffers: Sequence, op: str = "sum") -> CollectiveTrace:
    """Binomial-tree all-reduce: reduce to rank 0, then broadcast from rank 0.

    Reduce, distances ``d = 1, 2, 4, ...``: every rank ``r`` with ``r mod 2d == d`` sends its
    whole buffer to ``r - d``, which adds it. Broadcast retraces the tree in reverse
    (``d = ..., 4, 2, 1``): ``r - d`` sends the result to ``r``. ``2 ceil(log2 p)`` steps, each
    moving the whole buffer: few latencies, but ``m`` bytes per step.
    """
    flat, shape = _prepare(buffers, _("tree all-reduce"))
    p = len(flat)
    every = tuple(range(p))
    levels = math.ceil(math.log2(p)) if p > 1 else 0
    schedule = []
    for k in range(levels):
        d = 2**k
        msgs = [(r, r - d, every, "add") for r in range(p) if r % (2 * d) == d]
        schedule.append(("reduce", msgs))
    for k in reversed(range(levels)):
        d = 2**k
        msgs = [(r - d, r, every, "copy") for r in range(p) if r % (2 * d) == d]
        schedule.append(("broadcast", msgs))
    return _run(_("binomial tree"), flat, shape, schedule, op)


def halving_doubling_all_reduce_trace(buffers: Sequence, op: str = "sum") -> CollectiveTrace:
    """Recursive halving-doubling all-reduce (Rabenseifner), for ``p`` a power of two.

    Reduce-scatter by recursive halving, distances ``d = p/2, p/4, ..., 1``: rank ``r`` and its
    partner ``r XOR d`` split the chunks they are responsible for in two; each sends the half the
    other keeps (the chunks whose bit ``d`` differs from its own), and adds what it receives.
    After ``log2 p`` steps rank ``r`` holds chunk ``r`` fully reduced.
    All-gather by recursive doubling, ``d = 1, 2, ..., p/2``: partners swap everything they hold.

    ``2 log2 p`` steps (latency like the tree) and ``2 (p - 1) / p * m`` bytes per rank
    (bandwidth like the ring).
    """
    flat, shape = _prepare(buffers, _("halving-doubling all-reduce"))
    p = len(flat)
    if p & (p - 1):
        raise ConfigError(
            _(
                "halving-doubling all-reduce: p={p} ranks is not a power of two; use "
                "the ring or the tree"
            ).format(p=p)
        )
    owned = [list(range(p)) for _unused in range(p)]  # chunks each rank is responsible for
    schedule = []
    d = p // 2
    while d >= 1:
        msgs = []
        for r in range(p):
            give = [c for c in owned[r] if (c & d) != (r & d)]
            msgs.append((r, r ^ d, tuple(give), "add"))
        owned = [[c for c in owned[r] if (c & d) == (r & d)] for r in range(p)]
        schedule.append(("reduce-scatter", msgs))
        d //= 2
    d = 1
    while d < p:
        msgs = [(r, r ^ d, tuple(owned[r]), "copy") for r in range(p)]
        owned = [sorted(owned[r] + owned[r ^ d]) for r in range(p)]
        schedule.append(("all-gather", msgs))
        d *= 2
    return _run(_("recursive halving-doubling"), flat, shape, schedule, op)


def double_tree_all_reduce_trace(
    buffers: Sequence, chunks: int = 2, op: str = "sum"
) -> CollectiveTrace:
    """NCCL's pipelined double-binary-tree all-reduce, step by step.

    The buffer is cut into ``2 * chunks`` chunks: the first ``chunks`` go through the first tree
    of :func:`lecturekit.llm.double_tree.double_binary_tree`, the rest through the second. In
    each tree a rank adds its children's parts of a chunk to its own and passes the sum up one
    step later; the root broadcasts each finished chunk down, pipelined behind the reduction
    (:func:`~lecturekit.llm.double_tree.double_tree_schedule`). ``chunks - 1 + 2H`` steps for
    trees of height ``H``; every rank sends at most ``2m`` bytes for an ``m``-byte buffer.
    """
    from .double_tree import double_tree_schedule

    flat, shape = _prepare(buffers, _("double-tree all-reduce"))
    steps = double_tree_schedule(len(flat), chunks)
    schedule = []
    for messages in steps:
        kinds = {combine for *_rest, combine in messages}
        phase = {frozenset({"add"}): "reduce", frozenset({"copy"}): "broadcast"}.get(
            frozenset(kinds), "reduce+broadcast"
        )
        schedule.append((phase, [(src, dst, (c,), how) for src, dst, c, how in messages]))
    return _run(_("double binary tree"), flat, shape, schedule, op, n_chunks=2 * chunks)


def ring_all_reduce(buffers: Sequence, op: str = "sum") -> list[np.ndarray]:
    """The result of :func:`ring_all_reduce_trace`: every rank's buffer at the end."""
    return ring_all_reduce_trace(buffers, op).result


#: algorithm name -> trace function, for widgets and drawings
ALL_REDUCE_ALGORITHMS = {
    "ring": ring_all_reduce_trace,
    "tree": tree_all_reduce_trace,
    "halving-doubling": halving_doubling_all_reduce_trace,
}


def all_reduce_trace(buffers: Sequence, algorithm: str = "ring", op: str = "sum"):
    """Trace of the all-reduce ``algorithm`` (``ring``, ``tree`` or ``halving-doubling``)."""
    if algorithm not in ALL_REDUCE_ALGORITHMS:
        raise ConfigError(
            _("all-reduce: unknown algorithm {algorithm!r}; choose one of {join}").format(
                algorithm=algorithm, join=", ".join(ALL_REDUCE_ALGORITHMS)
            )
        )
    return ALL_REDUCE_ALGORITHMS[algorithm](buffers, op)


def chunk_name(chunk: int) -> str:
    """The slide's letters for chunks: ``a``, ``b``, ``c``, ... (``#26`` past ``z``)."""
    return chr(ord("a") + chunk) if 0 <= chunk < 26 else f"#{chunk}"


def cell_label(chunk: int, contributors: frozenset, p: int) -> str:
    """A short label for one rank's copy of one chunk, as on the slide's ring picture.

    ``a1`` is rank 1's own part of chunk ``a``; ``a0+a1`` is their sum; ``Σa`` is the sum over
    all ``p`` ranks."""
    name = chunk_name(chunk)
    if len(contributors) == p and p > 1:
        return f"Σ{name}"
    return "+".join(f"{name}{r}" for r in sorted(contributors))
