"""Drawings of control-flow graphs and of what global scheduling did to them
(:mod:`lecturekit.regions`).

:func:`plot_cfg` draws each block as a box with its code, in layers from the entry (a block below
every block that leads to it, back edges aside), edges labelled with how often they ran, and the
blocks of a trace in colour. :func:`cfg_text` is the same as text.
"""

from __future__ import annotations

from ..language import _
from .fonts import family, figure

TRACE_COLOR = "#fde9c9"
TRACE_EDGE = "#d9822b"
BLOCK_COLOR = "#ffffff"
COPY_COLOR = "#e8f1fa"


def _layers(cfg) -> dict[str, int]:
    from ..regions.trace import back_edges

    back = back_edges(cfg)
    depth = {cfg.entry: 0}
    changed = True
    while changed:
        changed = False
        for b in cfg.blocks:
            if b.name not in depth:
                continue
            for s in b.successors:
                if (b.name, s) in back:
                    continue
                if depth.get(s, -1) < depth[b.name] + 1:
                    depth[s] = depth[b.name] + 1
                    changed = True
    top = max(depth.values(), default=0) + 1
    for b in cfg.blocks:
        depth.setdefault(b.name, top)
    return depth


def cfg_text(cfg, trace=(), counts=None) -> str:
    """The blocks, each with its code and where it goes (``* `` marks the trace's blocks)."""
    counts = counts or {}
    lines = []
    for b in cfg.blocks:
        mark = "* " if b.name in trace else "  "
        lines.append(f"{mark}{b.name}:")
        lines.extend(f"      {ins.text}" for ins in b.instructions)
        goes = []
        for s in b.successors:
            n = counts.get((b.name, s))
            goes.append(f"{s} ({n})" if n is not None else s)
        if b.exits_program:
            goes.append(_("exit"))
        lines.append("      -> " + ", ".join(goes))
    return "\n".join(lines)


@figure
def plot_cfg(cfg, trace=(), counts=None, *, copies=(), title: str | None = None, ax=None):
    """Boxes for blocks (trace blocks highlighted, ``copies`` — e.g. a duplicated tail — in
    blue), arrows for edges with their ``counts``. Returns the Axes."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

    counts = counts or {}
    depth = _layers(cfg)
    rows: dict[int, list[str]] = {}
    for b in cfg.blocks:
        rows.setdefault(depth[b.name], []).append(b.name)
    box_w, line_h = 3.2, 0.32
    heights = {b.name: line_h * (len(b.instructions) + 1) + 0.25 for b in cfg.blocks}
    row_h = {d: max(heights[n] for n in names) for d, names in rows.items()}
    y_top: dict[int, float] = {}
    y = 0.0
    for d in sorted(rows):
        y_top[d] = y
        y -= row_h[d] + 0.7
    pos: dict[str, tuple[float, float]] = {}
    width = max(len(names) for names in rows.values())
    for d, names in rows.items():
        for i, name in enumerate(names):
            x = (i - (len(names) - 1) / 2) * (box_w + 0.8)
            pos[name] = (x, y_top[d])
    if ax is None:
        _unused, ax = plt.subplots(
            figsize=(min(12.0, 1.2 + width * 4.2), min(11.0, 0.6 - y * 0.62)), dpi=100
        )
    mono = family("monospace")
    for b in cfg.blocks:
        x, top = pos[b.name]
        h = heights[b.name]
        color = TRACE_COLOR if b.name in trace else COPY_COLOR if b.name in copies else BLOCK_COLOR
        ax.add_patch(
            FancyBboxPatch(
                (x - box_w / 2, top - h),
                box_w,
                h,
                boxstyle="round,pad=0.02",
                facecolor=color,
                edgecolor="#555555",
                linewidth=0.8,
            )
        )
        ax.text(
            x - box_w / 2 + 0.08,
            top - 0.2,
            f"{b.name}:",
            fontsize=7,
            weight="bold",
            va="center",
            family=mono,
        )
        for j, ins in enumerate(b.instructions):
            ax.text(
                x - box_w / 2 + 0.25,
                top - 0.2 - line_h * (j + 1),
                ins.text.replace("$", r"\$"),
                fontsize=6.5,
                va="center",
                family=mono,
            )
    trace_edges = set(zip(trace, list(trace)[1:], strict=False))
    for b in cfg.blocks:
        x0, top0 = pos[b.name]
        bottom = top0 - heights[b.name]
        for k, s in enumerate(b.successors):
            x1, top1 = pos[s]
            on = (b.name, s) in trace_edges
            if top1 >= top0:  # a back edge: around the side
                start, end = (x0 + box_w / 2, bottom + 0.15), (x1 + box_w / 2, top1 - 0.15)
                style = "arc3,rad=-0.5"
            else:
                shift = (k - (len(b.successors) - 1) / 2) * 0.5
                start, end = (x0 + shift, bottom), (x1, top1)
                style = "arc3,rad=0.0"
            ax.add_patch(
                FancyArrowPatch(
                    start,
                    end,
                    arrowstyle="-|>",
                    mutation_scale=9,
                    connectionstyle=style,
                    linewidth=2.0 if on else 0.9,
                    color=TRACE_EDGE if on else "#555555",
                )
            )
            n = counts.get((b.name, s))
            if n is not None:
                ax.text(
                    (start[0] + end[0]) / 2 + 0.1,
                    (start[1] + end[1]) / 2,
                    str(n),
                    fontsize=7,
                    color=TRACE_EDGE if on else "#555555",
                )
    xs = [p[0] for p in pos.values()]
    ax.set_xlim(min(xs) - box_w / 2 - 0.6, max(xs) + box_w / 2 + 1.2)
    ax.set_ylim(y + 0.4, 0.3)
    ax.axis("off")
    if title:
        ax.set_title(title, fontsize=9)
    return ax


@figure
def plot_path_cycles(rows, *, title: str | None = None, ax=None):
    """Grouped bars: for each version of the code (``rows``: ``(name, {path: cycles})``), the
    cycles of each path. Returns the Axes."""
    import matplotlib.pyplot as plt

    rows = list(rows)
    paths = list(rows[0][1]) if rows else []
    if ax is None:
        _unused, ax = plt.subplots(figsize=(6.4, 2.8), dpi=100)
    width = 0.8 / max(1, len(paths))
    for j, path in enumerate(paths):
        xs = [i + (j - (len(paths) - 1) / 2) * width for i in range(len(rows))]
        bars = ax.bar(xs, [r[1][path] for r in rows], width, label=path)
        for bar in bars:
            ax.text(
                bar.get_x() + bar.get_width() / 2,
                bar.get_height(),
                str(int(bar.get_height())),
                ha="center",
                va="bottom",
                fontsize=7,
            )
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels([r[0] for r in rows], fontsize=8)
    ax.set_ylabel(_("cycles"))
    ax.legend(fontsize=7)
    ax.set_title(title or _("cycles along each path"), fontsize=9)
    return ax


__all__ = ["cfg_text", "plot_cfg", "plot_path_cycles"]
