"""Drawings for the search space and the optimal search (matplotlib, imported lazily).

* :func:`draw_length_histogram`: how many legal orders run in each number of cycles
  (:func:`lecturekit.core.search_space.length_histogram`), with named orders marked.
* :func:`draw_order_growth`: the number of legal orders against block size, log scale.
* :func:`draw_search_progress`: the incumbent of a branch-and-bound search against nodes explored,
  with the lower bound (:class:`lecturekit.core.optimal.SearchEvent` records).
* :func:`draw_ratio_histogram`: how far heuristic schedules are from the optimum over many blocks.

Each returns the matplotlib Figure; none computes anything an algorithm does not give it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..language import _
from . import style
from .fonts import figure

BAR_COLOR = "#4e79a7"
BEST_COLOR = "#59a14f"
BOUND_COLOR = style.CRITICAL_COLOR


def _figure(ax, size):
    import matplotlib.pyplot as plt

    if ax is not None:
        return ax.figure, ax
    fig, ax = plt.subplots(figsize=size)
    return fig, ax


@figure
def draw_length_histogram(
    hist: Mapping[int, int],
    *,
    marks: Mapping[str, int] | None = None,
    bound: int | None = None,
    ax=None,
    title: str | None = None,
):
    """Bars: number of legal orders per length in cycles. ``marks``: name -> length, written
    above the bars (e.g. ``{"program order": 12, "slide's order": 15}``); ``bound``: a dashed
    line at the lower bound. The shortest bar is green."""
    fig, ax = _figure(ax, (6.0, 3.2))
    lengths = sorted(hist)
    counts = [hist[k] for k in lengths]
    best = min(lengths) if lengths else None
    colors = [BEST_COLOR if k == best else BAR_COLOR for k in lengths]
    ax.bar(lengths, counts, color=colors, edgecolor="#333333", width=0.8)
    top = max(counts, default=1)
    for k, c in zip(lengths, counts, strict=True):
        inside = c >= 0.15 * top
        ax.text(
            k,
            c - 0.02 * top if inside else c + 0.01 * top,
            str(c),
            ha="center",
            va="top" if inside else "bottom",
            fontsize=8,
            color="white" if inside else "black",
        )
    if marks:
        by_length: dict[int, list[str]] = {}
        for name, k in marks.items():
            by_length.setdefault(k, []).append(name)
        for k, names in by_length.items():
            ax.annotate(
                "\n".join(names),
                (k, hist.get(k, 0)),
                xytext=(0, 3),
                textcoords="offset points",
                ha="center",
                va="bottom",
                fontsize=7,
                color=style.NOTE_COLOR,
            )
        top *= 1.15 + 0.1 * max(len(v) for v in by_length.values())
    if bound is not None:
        ax.axvline(bound - 0.5, color=BOUND_COLOR, linestyle="--", linewidth=1)
        ax.text(
            bound - 0.45,
            top * 0.95,
            _("lower bound {bound}").format(bound=bound),
            color=BOUND_COLOR,
            fontsize=7,
            va="top",
        )
    ax.set_ylim(0, top * 1.1)
    ax.set_xticks(lengths)
    if lengths:
        ax.set_xlim(min(lengths) - 1, max(lengths) + 1)
    ax.set_xlabel(_("cycles"))
    ax.set_ylabel(_("legal orders"))
    total = sum(counts)
    ax.set_title(
        title if title is not None else _("{total} legal orders by length").format(total=total),
        fontsize=10,
    )
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    return fig


@figure
def draw_order_growth(
    sizes: Sequence[int],
    series: Mapping[str, Sequence[float]],
    *,
    ax=None,
    title: str | None = None,
):
    """Lines on a log scale: ``series`` name -> number of legal orders for each of ``sizes``
    (e.g. a chain, random blocks, an independent block)."""
    fig, ax = _figure(ax, (6.0, 3.4))
    markers = "os^dv<>"
    for k, (name, values) in enumerate(series.items()):
        ax.plot(sizes, values, marker=markers[k % len(markers)], markersize=4, label=name)
    ax.set_yscale("log")
    ax.set_xlabel(_("instructions in the block"))
    ax.set_ylabel(_("legal orders (log scale)"))
    ax.set_title(
        title if title is not None else _("How many orders a scheduler could choose from"),
        fontsize=10,
    )
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=8, frameon=False)
    fig.tight_layout()
    return fig


@figure
def draw_search_progress(
    events: Sequence, *, upto: int | None = None, ax=None, title: str | None = None
):
    """The incumbent (best length found) against nodes explored, as a step line, with the lower
    bound dashed. ``upto``: draw only the first ``upto + 1`` events and mark the last one (the
    widget steps through the trace this way)."""
    fig, ax = _figure(ax, (6.0, 3.0))
    shown = list(events if upto is None else events[: upto + 1])
    everything = list(events)
    xs = [e.nodes for e in shown if e.incumbent is not None]
    ys = [e.incumbent for e in shown if e.incumbent is not None]
    x_end = max([e.nodes for e in everything] + [1])
    if xs:
        ax.step(
            xs + [shown[-1].nodes],
            ys + [ys[-1]],
            where="post",
            color=BAR_COLOR,
            label=_("incumbent (best found)"),
        )
        found = [e for e in shown if e.kind in ("incumbent", "start") and e.incumbent is not None]
        ax.plot(
            [e.nodes for e in found],
            [e.incumbent for e in found],
            "o",
            color=BAR_COLOR,
            markersize=5,
        )
    if everything:
        bound = everything[0].bound
        ax.axhline(
            bound,
            color=BOUND_COLOR,
            linestyle="--",
            linewidth=1,
            label=_("lower bound {bound}").format(bound=bound),
        )
        if shown:
            ax.axvline(shown[-1].nodes, color="#999999", linewidth=0.8)
        values = [e.incumbent for e in everything if e.incumbent is not None] + [bound]
        ax.set_ylim(min(values) - 1, max(values) + 1)
    ax.set_xlim(0, x_end * 1.02)
    ax.set_xlabel(_("nodes explored"))
    ax.set_ylabel(_("cycles"))
    ax.yaxis.get_major_locator().set_params(integer=True)
    ax.set_title(
        title if title is not None else _("Branch and bound: incumbent and bound"), fontsize=10
    )
    ax.legend(fontsize=8, frameon=False, loc="upper right")
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    return fig


@figure
def draw_ratio_histogram(
    ratios: Mapping[str, Sequence[float]], *, ax=None, title: str | None = None
):
    """For each heuristic (``ratios``: name -> schedule length / optimal length per block), the
    share of blocks that are optimal, within 5 %, 5-10 %, 10-20 % or more above (grouped bars)."""
    import numpy as np

    fig, ax = _figure(ax, (7.0, 3.2))
    edges = [1.0, 1.0000001, 1.05, 1.10, 1.20, float("inf")]
    labels = [_("optimal"), "≤ 5 %", "5–10 %", "10–20 %", "> 20 %"]
    names = list(ratios)
    width = 0.8 / max(1, len(names))
    x = np.arange(len(labels))
    for k, name in enumerate(names):
        values = list(ratios[name])
        counts = [
            sum(1 for r in values if lo <= r < hi) for lo, hi in zip(edges, edges[1:], strict=False)
        ]
        share = [100 * c / max(1, len(values)) for c in counts]
        ax.bar(x + (k - (len(names) - 1) / 2) * width, share, width, label=name)
    ax.set_xticks(x, labels)
    ax.set_ylabel(_("% of blocks"))
    ax.set_xlabel(_("schedule length over the optimal length"))
    ax.set_title(title if title is not None else _("How close the heuristics get"), fontsize=10)
    ax.legend(fontsize=8, frameon=False)
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    return fig


__all__ = [
    "draw_length_histogram",
    "draw_order_growth",
    "draw_ratio_histogram",
    "draw_search_progress",
]
