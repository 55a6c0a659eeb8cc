"""NCCL's all-reduce tree: two binary trees, pipelined chunk by chunk.

The binomial tree of :mod:`lecturekit.llm.collectives` reduces the *whole* buffer up the tree and
broadcasts it back down: ``2 ceil(log2 p)`` steps, each moving all ``m`` bytes. That is the
textbook tree, and the one that loses to the ring by a factor ``~log2 p`` on large messages.
NCCL's tree (since NCCL 2.4, 2019) is different in two ways (Sanders, Speck & Träff 2009,
"Two-tree algorithms for full bandwidth broadcast, reduction and scan"):

1. **Pipelining.** The buffer is cut into chunks; a rank passes chunk ``j`` up as soon as its
   children's parts of chunk ``j`` have arrived, while chunk ``j + 1`` is still on its way, and
   the broadcast of the finished chunks starts while later ones are still being reduced. The
   tree's depth is paid once (the pipeline's fill), not once per byte.
2. **Two trees.** In a binary tree half of the ranks are leaves: they send once and never
   forward, so half of the links' capacity idles. NCCL builds a second tree in which (for even
   ``p``) the leaves of the first are the inner nodes, and sends half of the buffer through each.

With both, every rank sends ``2m`` bytes in all (up: its part of each half, down: each half to
its children in the tree where it is inner), against the ring's ``2(p-1)/p m``: nearly the
ring's bandwidth, with ``~2 log2 p`` steps of latency instead of ``2(p-1)``. NCCL's own tuning
model says the same: it converts a tree's bus bandwidth to algorithm bandwidth with a factor
1/2, i.e. ``2m`` bytes per rank (``src/graph/tuning.cc``).

The tree shape is NCCL's (``src/graph/trees.cc``: ``ncclGetBtree``, ``ncclGetDtree``): rank
``r``'s parent and children come from the lowest set bit of ``r``; the second tree mirrors the
first (``r -> p - 1 - r``) for even ``p`` and shifts it by one rank for odd ``p``. One rank per
node, a flat network: NCCL's chains inside a node are not modelled.

**The schedule** (synchronous steps, as every trace in :mod:`~lecturekit.llm.collectives`): each
tree carries ``k`` chunks. A rank of height ``h`` (leaves 0) sends chunk ``j`` to its parent in
step ``j + h + 1``; the root of height ``H`` has chunk ``j`` complete after step ``j + H``; a
rank at depth ``d`` (root 0) sends the finished chunk ``j`` to its children in step
``j + H + d + 1``. The last leaf has the last chunk after ``k - 1 + 2H`` steps.

**The cost.** Each rank has one NIC, full duplex, as in NCCL: what it sends in a step shares its
outgoing port, what it receives its incoming one. A step lasts as long as its busiest port, the
most chunks one rank sends *or receives* (:func:`double_tree_step_load`): a parent receives both
children's chunks at once, so for 8 ranks and one chunk per tree the six steps take 10
chunk-times, where the senders alone would take 8.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from numbers import Integral

from ..errors import ConfigError
from ..language import _

__all__ = [
    "Tree",
    "binary_tree",
    "double_binary_tree",
    "double_tree_schedule",
    "double_tree_height",
    "double_tree_step_load",
    "double_tree_load_line",
]

#: more chunks than this is not a useful pipeline (and would make a trace enormous)
MAX_CHUNKS = 1 << 24


@dataclass(frozen=True)
class Tree:
    """A rooted tree over ranks ``0 .. p-1``: ``parent[r]`` (-1: the root), ``children[r]``."""

    parent: tuple[int, ...]
    children: tuple[tuple[int, ...], ...]

    @property
    def p(self) -> int:
        return len(self.parent)

    @property
    def root(self) -> int:
        return self.parent.index(-1)

    def depth(self) -> tuple[int, ...]:
        """Edges from the root to each rank."""
        depth = [0] * self.p
        order = [self.root]
        for r in order:
            for c in self.children[r]:
                depth[c] = depth[r] + 1
                order.append(c)
        return tuple(depth)

    def height(self) -> tuple[int, ...]:
        """Edges from each rank down to its deepest leaf (leaves: 0)."""
        height, depth = [0] * self.p, self.depth()
        for r in sorted(range(self.p), key=lambda r: -depth[r]):
            if self.children[r]:
                height[r] = 1 + max(height[c] for c in self.children[r])
        return tuple(height)

    def inner(self) -> frozenset[int]:
        """The ranks that have children (they forward data; leaves do not)."""
        return frozenset(r for r in range(self.p) if self.children[r])


def _check_p(p) -> int:
    if isinstance(p, bool) or not isinstance(p, Integral) or p < 1:
        raise ConfigError(
            _("double binary tree: p (number of ranks) must be an integer >= 1, got {p!r}").format(
                p=p
            )
        )
    return int(p)


def _btree_links(p: int, r: int) -> tuple[int, list[int]]:
    """NCCL's ``ncclGetBtree``: the parent and the children of rank ``r`` among ``p``."""
    bit = 1
    while bit < p and not bit & r:
        bit <<= 1
    if r == 0:
        return -1, [bit >> 1] if p > 1 else []
    up = (r ^ bit) | (bit << 1)
    if up >= p:
        up = r ^ bit
    low = bit >> 1
    if low == 0:
        return up, []
    down = [r - low]
    right = r + low
    while right >= p:  # the right child is the first of r + low, r + low/2, ... that exists
        low >>= 1
        right = r + low if low else -1
    if right > 0:
        down.append(right)
    return up, down


def binary_tree(p: int) -> Tree:
    """NCCL's binary tree over ``p`` ranks: root 0 with one child, leaves the odd ranks."""
    p = _check_p(p)
    links = [_btree_links(p, r) for r in range(p)]
    return Tree(tuple(up for up, _ in links), tuple(tuple(down) for _, down in links))


def double_binary_tree(p: int) -> tuple[Tree, Tree]:
    """NCCL's two trees: :func:`binary_tree` and its mirror image (even ``p``) or the same tree
    shifted by one rank (odd ``p``), so that a rank is an inner node in at most one of them
    (for odd ``p`` one rank, 0, is inner in both)."""
    return _double_binary_tree(_check_p(p))


@lru_cache(maxsize=256)
def _double_binary_tree(p: int) -> tuple[Tree, Tree]:
    first = binary_tree(p)
    if p % 2 == 0:
        rename = [p - 1 - r for r in range(p)]  # mirror: its own inverse
        back = rename
    else:
        rename = [(r + 1) % p for r in range(p)]  # rank r plays the role of btree rank r - 1
        back = [(r - 1) % p for r in range(p)]
    parent = [-1] * p
    children: list[tuple[int, ...]] = [()] * p
    for r in range(p):
        role = back[r]
        up = first.parent[role]
        parent[r] = -1 if up < 0 else rename[up]
        children[r] = tuple(rename[c] for c in first.children[role])
    return first, Tree(tuple(parent), tuple(children))


def _check_chunks(chunks) -> int:
    if (
        isinstance(chunks, bool)
        or not isinstance(chunks, Integral)
        or not 1 <= chunks <= MAX_CHUNKS
    ):
        raise ConfigError(
            _(
                "double binary tree: chunks (per tree) must be an integer from 1 to "
                "{max_chunks}, got {chunks!r}"
            ).format(max_chunks=MAX_CHUNKS, chunks=chunks)
        )
    return int(chunks)


def double_tree_schedule(p: int, chunks: int) -> list[list[tuple[int, int, int, str]]]:
    """The steps of a pipelined double-binary-tree all-reduce: for each step, the messages
    ``(src, dst, chunk, combine)``. Chunks ``0 .. k-1`` travel through the first tree, chunks
    ``k .. 2k-1`` through the second; ``combine`` is ``"add"`` going up, ``"copy"`` going down."""
    p, k = _check_p(p), _check_chunks(chunks)
    steps: dict[int, list[tuple[int, int, int, str]]] = {}
    for t, tree in enumerate(double_binary_tree(p)):
        height, depth = tree.height(), tree.depth()
        top = height[tree.root]
        for j in range(k):
            chunk = t * k + j
            for r in range(p):
                if tree.parent[r] >= 0:
                    steps.setdefault(j + height[r] + 1, []).append(
                        (r, tree.parent[r], chunk, "add")
                    )
                for c in tree.children[r]:
                    steps.setdefault(j + top + depth[r] + 1, []).append((r, c, chunk, "copy"))
    return [sorted(steps[s]) for s in range(1, max(steps, default=0) + 1)]


@lru_cache(maxsize=256)
def _port_windows(p: int) -> frozenset[tuple[tuple[int, int], ...]]:
    """What each rank's two ports carry, as windows ``(first step, chunks per step)``, each ``k``
    steps long. Its outgoing port: up to its parent in a tree (from step ``h + 1``), down to its
    children (from step ``H + d + 1``). Its incoming port: from each child ``c`` on the way up
    (from step ``h_c + 1``), from its parent on the way down (from step ``H + d``). Ports with the
    same windows are counted once."""
    ports: list[list[tuple[int, int]]] = [[] for _ in range(2 * p)]  # 2r: out, 2r + 1: in
    for tree in _double_binary_tree(p):
        height, depth = tree.height(), tree.depth()
        top = height[tree.root]
        for r in range(p):
            if tree.parent[r] >= 0:
                ports[2 * r].append((height[r] + 1, 1))
                ports[2 * r + 1].append((top + depth[r], 1))
            if tree.children[r]:
                ports[2 * r].append((top + depth[r] + 1, len(tree.children[r])))
            for c in tree.children[r]:
                ports[2 * r + 1].append((height[c] + 1, 1))
    return frozenset(tuple(sorted(w)) for w in ports if w)


@lru_cache(maxsize=256)
def _height(p: int) -> int:
    return max(tree.height()[tree.root] for tree in _double_binary_tree(p))


def double_tree_height(p: int) -> int:
    """The height ``H`` of the taller of the two trees (at most ``ceil(log2 p)``)."""
    return _height(_check_p(p))


def double_tree_step_load(p: int, chunks: int) -> list[tuple[int, int]]:
    """How many chunks the busiest port carries in each step, as runs ``(steps, chunks)``: the
    most any one rank sends, or receives, in that step.

    Each rank has one NIC, full duplex (NCCL's tree sends and receives on one NIC per rank): what
    it sends in a step shares its outgoing port, what it receives its incoming one. A parent
    receives both children's chunks in the same step, so counting senders alone is optimistic
    (8 ranks, one chunk per tree: 10 chunk-times, not 8). The same information as
    :func:`double_tree_schedule` without listing the messages: each port's roles are windows of
    ``k`` consecutive steps, so the load is piecewise constant and only the window edges matter.
    This is what :func:`lecturekit.llm.comm.collective_time` sums for ``"double-tree"``, at any
    ``k``."""
    p, k = _check_p(p), _check_chunks(chunks)
    windows = _port_windows(p)
    edges = sorted({s for w in windows for first, _ in w for s in (first, first + k)})
    runs: list[tuple[int, int]] = []
    for a, b in zip(edges, edges[1:], strict=False):
        load = max(sum(n for first, n in w if first <= a < first + k) for w in windows)
        if runs and runs[-1][1] == load:
            runs[-1] = (runs[-1][0] + b - a, load)
        else:
            runs.append((b - a, load))
    return runs


def double_tree_load_line(p: int) -> tuple[int, int, int]:
    """``(k0, per_chunk, extra)``: from ``k0`` chunks per tree on, the step loads of
    :func:`double_tree_step_load` add up to ``per_chunk * k + extra`` chunk-times (once ``k``
    spans the distance between the first and the last window start, the order of the window
    edges no longer changes and every run grows with ``k`` or stays). The time
    ``(k - 1 + 2H) α + (per_chunk k + extra) m β / 2k`` is then convex in ``k``, which is how
    :func:`lecturekit.llm.comm.double_tree_chunks` finds its minimum."""
    return _load_line(_check_p(p))


@lru_cache(maxsize=256)
def _load_line(p: int) -> tuple[int, int, int]:
    starts = [first for w in _port_windows(p) for first, _ in w]
    k0 = max(starts, default=1) - min(starts, default=1) + 1
    total = [sum(n * load for n, load in double_tree_step_load(p, k)) for k in (k0, k0 + 1)]
    per_chunk = total[1] - total[0]
    return k0, per_chunk, total[0] - per_chunk * k0
