"""Drawings for chapter 14: tensor graphs, scheduled loop nests on the roofline, searches,
tile sizes against traffic, kernels on a device.

Computed by :mod:`lecturekit.tensor`; matplotlib is imported inside the functions. A tensor
graph is laid out with the dependence-graph layout of :mod:`lecturekit.viz.graph` (layers by
depth), on the graph's :meth:`~lecturekit.tensor.graph.TensorGraph.to_core` form.
"""

from __future__ import annotations

import numpy as np

from . import style
from .fonts import figure
from .graph import layout

#: box fill per kind of node
NODE_FILL = {"placeholder": "#e8eef7", "compute": "#ffffff", "backward": "#fde9d9"}


@figure
def draw_tensor_graph(
    graph, ax=None, *, groups=None, backward_from=None, highlight=(), title=None, notes=None
):
    """Draw a :class:`~lecturekit.tensor.graph.TensorGraph`: inputs on top, one box per node
    (``name = op(...)``), an arrow per tensor read.

    ``groups``: lists of node names drawn in one colour each (fusion kernels). ``backward_from``:
    a node name; nodes after it in the list are the backward pass (shaded). ``highlight``: names
    drawn with a thick red border. ``notes``: name -> short text under the box (a value)."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

    core = graph.to_core()
    pos = layout(core)
    names = [op.name for op in core.ops]
    order = [n.name for n in graph.nodes]
    cut = order.index(backward_from) if backward_from in order else None
    colour = {}
    for k, g in enumerate(groups or []):
        for name in g:
            colour[name] = style.lighten(style.instruction_color(k), 0.55)
    texts = {k: core.ops[k].text for k in range(len(names))}
    longest = max([len(t) for t in texts.values()] + [6])
    box_w = max(1.4, 0.12 * longest + 0.4)
    x_step, y_step = box_w + 0.5, 1.5
    coords = {v: (x * x_step, y * y_step) for v, (x, y) in pos.items()}
    if ax is None:
        xs = [c[0] for c in coords.values()] or [0]
        ys = [c[1] for c in coords.values()] or [0]
        w = min(13.0, 0.62 * (max(xs) - min(xs) + box_w + 1))
        h = min(10.0, 0.62 * (max(ys) - min(ys) + 2))
        _, ax = plt.subplots(figsize=(max(4.0, w), max(2.2, h)), dpi=80)
    for e in core.edges:
        (x0, y0), (x1, y1) = coords[e.src], coords[e.dst]
        ax.add_patch(
            FancyArrowPatch(
                (x0, y0 - 0.3), (x1, y1 + 0.3), arrowstyle="-|>", mutation_scale=9,
                color="#555555", lw=0.8, shrinkA=0, shrinkB=0,
            )
        )  # fmt: skip
    for k, name in enumerate(names):
        x, y = coords[k]
        node = graph.node(name)
        if name in colour:
            fill = colour[name]
        elif node.op == "placeholder":
            fill = NODE_FILL["placeholder"]
        elif cut is not None and order.index(name) > cut:
            fill = NODE_FILL["backward"]
        else:
            fill = NODE_FILL["compute"]
        red = name in set(highlight)
        ax.add_patch(
            FancyBboxPatch(
                (x - box_w / 2, y - 0.3), box_w, 0.6, boxstyle="round,pad=0.02",
                facecolor=fill, edgecolor=style.CRITICAL_COLOR if red else "#333333",
                lw=2.2 if red else 0.9,
            )
        )  # fmt: skip
        ax.text(x, y, texts[k], ha="center", va="center", fontsize=8, family="monospace")
        if notes and name in notes:
            ax.text(x, y - 0.45, notes[name], ha="center", va="top", fontsize=7,
                    color=style.NOTE_COLOR)  # fmt: skip
    xs = [c[0] for c in coords.values()] or [0]
    ys = [c[1] for c in coords.values()] or [0]
    ax.set_xlim(min(xs) - box_w / 2 - 0.3, max(xs) + box_w / 2 + 0.3)
    ax.set_ylim(min(ys) - 0.9, max(ys) + 0.6)
    ax.axis("off")
    if title:
        ax.set_title(title, fontsize=10)
    return ax.figure


@figure
def plot_nest_roofline(costs, labels=None, ax=None, *, title=None, ceilings=True):
    """Each :class:`~lecturekit.tensor.cost.Cost` as a point under its CPU's roof: x its
    arithmetic intensity (FLOPs per byte of DRAM traffic by the cache model), y the FLOP/s the
    roofline allows with its schedule's compute ceiling (a dash marks the ceiling)."""
    import matplotlib.pyplot as plt

    from ..llm.roofline import Roof
    from .roofline import plot_roofline

    costs = list(costs)
    labels = list(labels or [f"schedule {k + 1}" for k in range(len(costs))])
    cpu = costs[0].cpu
    roofs = [cpu.roof()]
    if ceilings:
        one_core = cpu.peak_flops / cpu.cores
        roofs += [
            Roof("one core", one_core, cpu.bandwidth),
            Roof("one core, no SIMD", one_core / cpu.lanes, cpu.bandwidth),
        ]
    lo = min([c.intensity for c in costs] + [0.1]) / 3
    hi = max([c.intensity for c in costs] + [cpu.peak_flops / cpu.bandwidth]) * 5
    if ax is None:
        _, ax = plt.subplots(figsize=(9, 4.2), dpi=80)
    plot_roofline(roofs, [], ax=ax, xlim=(lo, hi))
    for k, (c, label) in enumerate(zip(costs, labels, strict=True)):
        colour = style.instruction_color(k)
        ax.plot([c.intensity], [c.attainable], "o", color=colour, ms=7, zorder=6, label=label)
        ax.plot([c.intensity / 1.6, c.intensity * 1.6], [c.ceiling] * 2, "-", color=colour, lw=1)
    ax.legend(fontsize=7, loc="center left", bbox_to_anchor=(1.01, 0.5))
    ax.set_title(title or f"scheduled loop nests on {cpu.name}", fontsize=10)
    return ax


@figure
def plot_search(results, optimum=None, ax=None, *, title=None):
    """Best time found so far against schedules costed, one line per search result."""
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(6.5, 3.2), dpi=80)
    for k, r in enumerate(results):
        best = np.array(r.best_so_far) * 1e6
        ax.plot(np.arange(1, len(best) + 1), best, color=style.instruction_color(k), lw=1.6,
                label=r.method)  # fmt: skip
    if optimum is not None:
        ax.axhline(optimum * 1e6, color="k", ls="--", lw=1, label="optimum of the space")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("schedules costed")
    ax.set_ylabel("best modelled time (µs)")
    ax.grid(True, which="both", alpha=0.25)
    ax.legend(fontsize=8)
    ax.set_title(title or "searching the schedule space", fontsize=10)
    return ax


@figure
def plot_tile_map(rows, cols, values, ax=None, *, xlabel="", ylabel="", title="", unit="KiB"):
    """A heat map of ``values[r][c]`` (e.g. traffic) over two tile factors, each cell labelled."""
    import matplotlib.pyplot as plt

    values = np.asarray(values, dtype=float)
    if ax is None:
        _, ax = plt.subplots(figsize=(0.75 * len(cols) + 1.8, 0.5 * len(rows) + 1.2), dpi=80)
    im = ax.imshow(np.log2(values), cmap="viridis_r", aspect="auto")
    del im
    for r in range(len(rows)):
        for c in range(len(cols)):
            v = values[r, c]
            dark = v > np.sqrt(values.max() * values.min())
            ax.text(c, r, f"{v:,.0f}", ha="center", va="center", fontsize=7,
                    color="white" if dark else "black")  # fmt: skip
    ax.set_xticks(range(len(cols)), [str(c) for c in cols])
    ax.set_yticks(range(len(rows)), [str(r) for r in rows])
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title + (f" ({unit})" if unit else ""), fontsize=10)
    return ax


@figure
def plot_kernel_runs(runs, titles, ax=None):
    """Kernel runs (:class:`~lecturekit.tensor.fusion.KernelRun`) as two rows each, CPU
    launches and GPU kernels, on one time axis in µs."""
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(8, 0.9 * len(runs) + 0.9), dpi=80)
    yticks, ylabels = [], []
    for r, (run, title) in enumerate(zip(runs, titles, strict=True)):
        base = 2.6 * (len(runs) - 1 - r)
        g, s = run.graph, run.schedule
        for i, op in enumerate(g.ops):
            row = base + (1 if op.stream == "cpu" else 0)
            start = (s.start[i] - g.earliest) * run.tick * 1e6
            width = (op.tail + 1) * run.tick * 1e6
            colour = style.instruction_color(i // 2)
            ax.barh(row, width, left=start, height=0.7, color=colour if op.stream == "gpu"
                    else style.lighten(colour, 0.5), edgecolor="#333333", lw=0.5)  # fmt: skip
            if op.stream == "gpu":
                ax.text(start + width / 2, row, op.name, ha="center", va="center", fontsize=7)
        yticks += [base + 1, base]
        ylabels += [f"{title}: CPU launches", f"{title}: GPU"]
    ax.set_yticks(yticks, ylabels, fontsize=8)
    ax.set_xlabel("time (µs)")
    ax.grid(True, axis="x", alpha=0.3)
    return ax
