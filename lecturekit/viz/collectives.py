"""Drawings of collectives: before/after of the eight collectives, all-reduce traces, α–β times.

Everything is drawn from what :mod:`lecturekit.llm.collectives` computes; nothing is
re-implemented here. matplotlib is imported inside each function.
"""

from __future__ import annotations

import numpy as np

from ..errors import ConfigError
from ..language import N_, _
from ..llm.collectives import (
    COLLECTIVES,
    all_gather,
    all_reduce,
    all_to_all,
    broadcast,
    cell_label,
    gather,
    reduce,
    reduce_scatter,
    scatter,
)
from .fonts import figure

#: colours: a chunk with k of p contributions is drawn lighter for small k, darker for k = p
_CMAP = "Blues"
_RECEIVED_ADD = "#d62728"  # red frame: data added in this step
_RECEIVED_COPY = "#2ca02c"  # green frame: data copied in this step


def _encode(rank: int, chunk: int, p: int) -> int:
    """One integer standing for "rank's part of chunk"; sums of these stay decodable."""
    return chunk * 2**p + 2**rank


def _decode(value: int, p: int) -> str:
    mask = int(value) % 2**p
    ranks = frozenset(r for r in range(p) if mask >> r & 1)
    chunk = int(value) // 2**p // max(len(ranks), 1)
    return cell_label(chunk, ranks, p)


def collective_example(name: str, p: int = 4, root: int = 0):
    """Before and after of collective ``name`` on ``p`` ranks, as lists of cell labels per rank.

    The data are symbolic: rank ``r``'s part of chunk ``c`` is labelled like ``c1`` (``a``, ``b``,
    ... for the chunks, the digit for the rank), and sums like ``a0+a1`` or ``Σa``. The "after"
    comes from running the real collective of :mod:`lecturekit.llm.collectives` on integers
    encoding those labels. ``None`` marks a rank that holds nothing."""
    if name not in COLLECTIVES:
        raise ConfigError(
            _("collective_example: unknown collective {name!r}; choose {collectives}").format(
                name=name, collectives=COLLECTIVES
            )
        )
    if isinstance(p, bool) or not isinstance(p, int) or not 1 <= p <= 8:
        raise ConfigError(
            _("collective_example: p must be an integer from 1 to 8, got {p!r}").format(p=p)
        )
    full = [np.array([_encode(r, c, p) for c in range(p)], dtype=np.int64) for r in range(p)]
    own = [np.array([_encode(r, r, p)], dtype=np.int64) for r in range(p)]
    only_root = [full[root] if r == root else None for r in range(p)]
    before, after = {
        "broadcast": (only_root, lambda: broadcast(only_root, root)),
        "scatter": (only_root, lambda: scatter(only_root, root)),
        "gather": (own, lambda: gather(own, root)),
        "reduce": (full, lambda: reduce(full, root)),
        "all-gather": (own, lambda: all_gather(own)),
        "reduce-scatter": (full, lambda: reduce_scatter(full)),
        "all-reduce": (full, lambda: all_reduce(full)),
        "all-to-all": (full, lambda: all_to_all(full)),
    }[name]

    def labels(state):
        return [None if b is None else [_decode(v, p) for v in b] for b in state]

    return labels(before), labels(after())


def _draw_state(ax, state, x0: float, p: int) -> None:
    """Draw one state (list of label rows) with its left edge at ``x0``."""
    from matplotlib.patches import Rectangle

    for r, row in enumerate(state):
        y = p - 1 - r
        if row is None:
            ax.text(x0 + 0.1, y + 0.5, "—", va="center", ha="left", fontsize=8, color="0.5")
            continue
        for c, label in enumerate(row):
            full = label.startswith("Σ")
            ax.add_patch(
                Rectangle(
                    (x0 + c, y + 0.08),
                    0.95,
                    0.84,
                    facecolor="#9ecae1" if full else "#deebf7",
                    edgecolor="0.4",
                    lw=0.6,
                )
            )
            ax.text(x0 + c + 0.47, y + 0.5, label, ha="center", va="center", fontsize=7)


@figure
def plot_collective(name: str, p: int = 4, ax=None, root: int = 0):
    """One collective: ranks as rows, before on the left, after on the right."""
    import matplotlib.pyplot as plt

    before, after = collective_example(name, p, root)
    if ax is None:
        _unused, ax = plt.subplots(figsize=(5, 0.45 * p + 0.6), dpi=80)
    width = max(len(row) for row in before + after if row is not None)
    _draw_state(ax, before, 0.0, p)
    _draw_state(ax, after, width + 1.2, p)
    ax.annotate(
        "",
        xy=(width + 1.05, p / 2),
        xytext=(width + 0.15, p / 2),
        arrowprops={"arrowstyle": "->", "color": "0.3"},
    )
    for r in range(p):
        ax.text(
            -0.15, p - 1 - r + 0.5, _("rank {r}").format(r=r), ha="right", va="center", fontsize=7
        )
    ax.set_xlim(-1.3, 2 * width + 1.3)
    ax.set_ylim(0, p)
    ax.set_title(name, fontsize=9)
    ax.axis("off")
    return ax


@figure
def plot_collectives(p: int = 4, names=COLLECTIVES, ncols: int = 2):
    """All collectives in a grid (before → after each). Returns the figure."""
    import matplotlib.pyplot as plt

    nrows = -(-len(names) // ncols)
    fig, axes = plt.subplots(
        nrows, ncols, figsize=(5.2 * ncols, (0.42 * p + 0.5) * nrows), dpi=80, squeeze=False
    )
    for ax, name in zip(axes.flat, names, strict=False):
        plot_collective(name, p, ax)
    for ax in list(axes.flat)[len(names) :]:
        ax.axis("off")
    fig.tight_layout()
    return fig


@figure
def draw_trace_state(ax, trace, k: int, show_values: bool = False) -> None:
    """Draw the state of ``trace`` after step ``k`` (``k = 0``: the start) on ``ax``.

    Rows are ranks, columns chunks; a cell is labelled with what it holds (``a1``, ``a0+a1``,
    ``Σa``) and shaded by how many ranks' data it contains. A red frame marks a chunk that was
    added into in this step, a green one a chunk that was overwritten (copied)."""
    from matplotlib import colormaps
    from matplotlib.patches import Rectangle

    p = trace.p
    contrib = trace.contributors_at(k)
    received = {}
    if k > 0:
        for t in trace.steps[k - 1].transfers:
            for c in t.chunks:
                received[(t.dst, c)] = t.combine
    cmap = colormaps[_CMAP]
    buffers = trace.buffers_at(k)
    for r in range(p):
        for c in range(p):
            y = p - 1 - r
            shade = cmap(0.05 + 0.4 * len(contrib[r][c]) / p)
            how = received.get((r, c))
            edge = {"add": _RECEIVED_ADD, "copy": _RECEIVED_COPY}.get(how, "0.5")
            ax.add_patch(
                Rectangle(
                    (c + 0.04, y + 0.04),
                    0.92,
                    0.92,
                    facecolor=shade,
                    edgecolor=edge,
                    lw=2.0 if how else 0.5,
                )
            )
            text = cell_label(c, contrib[r][c], p)
            if show_values:
                lo, hi = trace.bounds[c]
                vals = buffers[r][lo:hi]
                text += "\n" + " ".join(f"{v:g}" for v in vals[:3]) + (" …" if hi - lo > 3 else "")
            ax.text(c + 0.5, y + 0.5, text, ha="center", va="center", fontsize=6.5)
    ax.set_xlim(0, p)
    ax.set_ylim(0, p)
    ax.set_aspect("equal")
    chunks = [_("chunk {c}").format(c=c) for c in range(p)]
    ranks = [_("rank {r}").format(r=r) for r in range(p)]
    ax.set_xticks([c + 0.5 for c in range(p)], chunks, fontsize=6)
    ax.set_yticks([p - 1 - r + 0.5 for r in range(p)], ranks, fontsize=6)
    ax.tick_params(length=0)
    for side in ax.spines.values():
        side.set_visible(False)
    if k == 0:
        ax.set_title(_("start"), fontsize=8)
    else:
        step = trace.steps[k - 1]
        moves = ", ".join(f"{t.src}→{t.dst}" for t in step.transfers[:4]) + (
            " …" if len(step.transfers) > 4 else ""
        )
        ax.set_title(
            _("step {k}: {phase}\n{moves}").format(k=k, phase=step.phase, moves=moves), fontsize=7
        )


@figure
def plot_trace(trace, ncols: int | None = None, show_values: bool = False):
    """Every state of an all-reduce trace, one small panel per step. Returns the figure."""
    import matplotlib.pyplot as plt

    n = len(trace.steps) + 1
    ncols = ncols or min(n, 4)
    nrows = -(-n // ncols)
    size = 0.42 * trace.p + 0.9
    fig, axes = plt.subplots(
        nrows, ncols, figsize=(size * ncols, (size + 0.2) * nrows), dpi=80, squeeze=False
    )
    for k, ax in enumerate(axes.flat):
        if k < n:
            draw_trace_state(ax, trace, k, show_values)
        else:
            ax.axis("off")
    fig.suptitle(
        _("{algorithm} all-reduce, p={p}: red frame = added into, green = copied").format(
            algorithm=trace.algorithm, p=trace.p
        ),
        fontsize=9,
    )
    fig.tight_layout()
    return fig


#: how the legend of :func:`plot_allreduce_times` names each all-reduce algorithm
ALLREDUCE_LABELS = {
    "ring": N_("ring"),
    "tree": N_("binomial tree"),
    "halving-doubling": N_("halving-doubling"),
    "double-tree": N_("double binary tree"),
}


@figure
def plot_allreduce_times(p: int, link, sizes=None, ax=None):
    """All-reduce time against message size (α–β model): four lines, the ring, the binomial
    tree, halving-doubling (only for ``p`` a power of two) and NCCL's pipelined double binary
    tree, each with its best number of chunks.

    Small messages: latency dominates and the ring's ``2(p−1)`` steps lose to the trees'
    ``~2 log2 p``. Large messages: bandwidth dominates and the binomial tree, which moves the
    whole buffer on every step, loses to the ring by ``~log2 p``; halving-doubling and the
    double tree get close to the best of both."""
    import matplotlib.pyplot as plt

    from ..llm.comm import ALGORITHMS, collective_time

    sizes = np.logspace(2, 10, 60) if sizes is None else np.asarray(sizes, dtype=float)
    if ax is None:
        _unused, ax = plt.subplots(figsize=(5.5, 3.5), dpi=80)
    for algorithm in ALGORITHMS["all-reduce"]:
        if algorithm == "halving-doubling" and p & (p - 1):
            continue
        times = [collective_time("all-reduce", float(m), p, link, algorithm) for m in sizes]
        label = ALLREDUCE_LABELS[algorithm]
        ax.loglog(sizes, times, label=_(label))
    ax.set_xlabel(_("message size m (bytes)"))
    ax.set_ylabel(_("time (s)"))
    ax.set_title(
        _("all-reduce on p={p}: α={alpha:g} s, bandwidth={bandwidth:.3g} B/s").format(
            p=p, alpha=link.alpha, bandwidth=link.bandwidth
        )
    )
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    return ax
