"""Pipeline-parallel timelines: devices x time, one box per pass, bubbles shaded.

Everything is drawn from a :class:`~lecturekit.llm.pipeline_parallel.PipelineRun` (start times
from :func:`lecturekit.core.evaluate`); nothing is recomputed. :func:`timeline_text` needs no
matplotlib (the CLI and the tests use it); the plotting functions import matplotlib inside.

Colours follow the lecture's and the papers' figures: forward blue, backward green, the
weight-gradient pass ``W`` of the zero-bubble schedules orange; with several model chunks per
device (interleaved), later chunks are drawn darker. A device's idle time between the step's
first start and last finish is the bubble, hatched grey.
"""

from __future__ import annotations

from ..errors import ScheduleError
from ..language import _
from .fonts import figure

#: colour per pass kind
KIND_COLORS = {"F": "#6fa8dc", "B": "#93c47d", "W": "#f6b26b"}
#: darker shades for later model chunks (interleaved schedule)
CHUNK_DARKEN = (0.0, 0.35, 0.55, 0.7)
BUBBLE_COLOR = "#d9d9d9"
BUBBLE_HATCH = "////"

__all__ = [
    "BUBBLE_COLOR",
    "KIND_COLORS",
    "grid",
    "op_color",
    "plot_bubble_sweep",
    "plot_in_flight",
    "plot_rank_layout",
    "plot_timeline",
    "plot_timelines",
    "timeline_text",
]


def _darken(color: str, amount: float) -> str:
    r, g, b = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    r, g, b = (round(c * (1 - amount)) for c in (r, g, b))
    return f"#{r:02x}{g:02x}{b:02x}"


def op_color(kind: str, chunk: int = 0) -> str:
    """The fill of a pass of ``kind`` (F/B/W) on model chunk ``chunk``."""
    base = KIND_COLORS.get(kind, "#cccccc")
    return _darken(base, CHUNK_DARKEN[min(chunk, len(CHUNK_DARKEN) - 1)])


def grid(run) -> list[list[str]]:
    """Per device, one cell per time unit from the step's first to its last: the label of the
    pass running then (``F3``, ``B3``, ``W3``, ``F3.1`` for chunk 1), or ``.`` when idle."""
    width = run.last - run.first + 1
    rows = []
    for d in range(run.p):
        cells = ["."] * width
        for i in run.device_ops(d):
            label = run.ops[i].label
            for t in range(run.start(i), run.finish(i) + 1):
                cells[t - run.first] = label
        rows.append(cells)
    return rows


def timeline_text(run, *, header: bool = True, legend: bool = True, max_width: int = 400) -> str:
    """Rows = devices, columns = time units: ``F1 F2 B1 ..``; a pass of several time units
    repeats its label in each (as on the slides), ``.`` is a bubble."""
    cells = grid(run)
    if cells and len(cells[0]) > max_width:
        raise ScheduleError(
            _(
                "the timeline is {n_cells} time units long; a text view is limited to "
                "{max_width} columns (use smaller durations or plot_timeline)"
            ).format(n_cells=len(cells[0]), max_width=max_width)
        )
    w = max((len(c) for row in cells for c in row), default=1)
    name_w = len(f"device {run.p - 1}")
    lines = []
    if header:
        ticks = ""
        for t in range(run.first, run.last + 1):
            ticks += (str(t) if (t - run.first) % 5 == 0 else "").ljust(w + 1)
        lines.append(" " * (name_w + 2) + ticks.rstrip())
    for d, row in enumerate(cells):
        lines.append(
            f"device {d}".ljust(name_w) + "  " + " ".join(c.ljust(w) for c in row).rstrip()
        )
    if legend:
        kinds = _("F forward, B backward") + (
            _(" (input gradient), W weight gradient")
            if run.pg.split
            else _(" (incl. weight gradient)")
        )
        if run.v > 1:
            kinds += _("; .c = model chunk c")
        lines.append(
            f"{run.name}: p={run.p} m={run.m}"
            + (f" v={run.v}" if run.v > 1 else "")
            + _("; {kinds}; . idle. makespan {makespan}, bubble {bubble_fraction:.1%}").format(
                kinds=kinds, makespan=run.makespan, bubble_fraction=run.bubble_fraction
            )
        )
    return "\n".join(lines)


@figure
def plot_timeline(
    run,
    ax=None,
    *,
    title: str | None = None,
    labels: bool = True,
    bubbles: bool = True,
    figsize=None,
    upto: int | None = None,
):
    """Draw ``run`` as boxes on a devices x time grid (device 0 on top, as on the slides).

    ``upto``: draw only what has happened by the end of that time unit (later passes faint,
    a line at the current time), for stepping through a schedule. Returns the Axes."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch, Rectangle

    if ax is None:
        width = min(14.0, max(5.0, 0.22 * run.makespan + 1.5))
        _unused, ax = plt.subplots(figsize=figsize or (width, 0.42 * run.p + 1.0))
    t0, t1 = run.first - 1, run.last
    if bubbles:
        for d in range(run.p):
            ax.add_patch(
                Rectangle(
                    (t0, d - 0.42),
                    t1 - t0,
                    0.84,
                    facecolor=BUBBLE_COLOR,
                    hatch=BUBBLE_HATCH,
                    edgecolor="#b0b0b0",
                    linewidth=0,
                    zorder=0,
                )
            )
    ax.set_xlim(t0, t1)
    box = ax.get_window_extent().transformed(ax.figure.dpi_scale_trans.inverted())
    points_per_unit = box.width * 72 / max(t1 - t0, 1)
    for d in range(run.p):
        for i in run.device_ops(d):
            op = run.ops[i]
            x0, x1 = run.start(i) - 1, run.finish(i)
            future = upto is not None and run.start(i) > upto
            ax.add_patch(
                Rectangle(
                    (x0, d - 0.42),
                    x1 - x0,
                    0.84,
                    facecolor=op_color(op.kind, op.chunk),
                    edgecolor="#333333",
                    linewidth=0.6,
                    zorder=2,
                    alpha=0.15 if future else 1.0,
                )
            )
            if labels and not future:
                text = str(op.micro) if op.batch == 1 else op.label[1:]
                size = 7 if len(text) <= 2 else 6
                if (x1 - x0) * points_per_unit >= len(text) * size * 0.62 + 1:
                    ax.text(
                        (x0 + x1) / 2,
                        d,
                        text,
                        ha="center",
                        va="center",
                        fontsize=size,
                        zorder=3,
                        color="#000000" if op.chunk < 2 else "#ffffff",
                    )
    if upto is not None:
        ax.axvline(min(max(upto, t0), t1), color="#c00000", linewidth=1.2, zorder=4)
    ax.set_xlim(t0, t1)
    ax.set_ylim(run.p - 0.5, -0.5)
    ax.set_yticks(range(run.p))
    ax.set_yticklabels([_("device {d}").format(d=d) for d in range(run.p)], fontsize=8)
    ax.set_xlabel(_("time (units)"), fontsize=8)
    ax.tick_params(axis="x", labelsize=7)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    if title is None:
        title = (
            f"{run.name}  p={run.p} m={run.m}"
            + (f" v={run.v}" if run.v > 1 else "")
            + _(": makespan {makespan}, bubble {bubble_fraction:.1%}").format(
                makespan=run.makespan, bubble_fraction=run.bubble_fraction
            )
        )
    if title:
        ax.set_title(title, fontsize=9, loc="left")
    handles = [Patch(facecolor=KIND_COLORS["F"], edgecolor="#333", label=_("F forward"))]
    handles.append(Patch(facecolor=KIND_COLORS["B"], edgecolor="#333", label=_("B backward")))
    if run.pg.split:
        handles.append(
            Patch(facecolor=KIND_COLORS["W"], edgecolor="#333", label=_("W weight grad"))
        )
    for c in range(1, run.v):
        handles.append(
            Patch(
                facecolor=op_color("F", c),
                edgecolor="#333",
                label=_("chunk {c} (darker)").format(c=c),
            )
        )
    if bubbles:
        handles.append(Patch(facecolor=BUBBLE_COLOR, hatch=BUBBLE_HATCH, label=_("bubble")))
    ax.legend(
        handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False
    )
    return ax


@figure
def plot_timelines(runs, *, width: float = 11.0, titles=None):
    """Several runs stacked, sharing the time axis. Returns the Figure."""
    import matplotlib.pyplot as plt

    runs = list(runs)
    heights = [r.p + 1.2 for r in runs]
    fig, axes = plt.subplots(
        len(runs),
        1,
        figsize=(width, 0.36 * sum(heights) + 0.3),
        gridspec_kw={"height_ratios": heights},
        squeeze=False,
    )
    end = max(r.last for r in runs)
    for k, (run, ax) in enumerate(zip(runs, axes[:, 0], strict=True)):
        plot_timeline(run, ax, title=None if titles is None else titles[k])
        ax.set_xlim(run.first - 1, end)
        if k < len(runs) - 1:
            ax.set_xlabel("")
    fig.tight_layout()
    return fig


@figure
def plot_in_flight(run, ax=None, *, held: bool = False):
    """Micro-batches with activations alive on each device over time (a step plot)."""
    import matplotlib.pyplot as plt

    if ax is None:
        _unused, ax = plt.subplots(figsize=(6, 2.2))
    ts = list(range(run.first, run.last + 1))
    for d in range(run.p):
        ys = [float(x) for x in (run.held(d) if held else run.in_flight(d))]
        ax.step(ts, ys, where="mid", label=_("device {d}").format(d=d), linewidth=1.2)
    what = _("kept until W") if held else _("in flight (F done, B not)")
    ax.set_ylabel(_("micro-batches"), fontsize=8)
    ax.set_xlabel(_("time (units)"), fontsize=8)
    ax.set_title(
        _("{name}: activations {what}").format(name=run.name, what=what), fontsize=9, loc="left"
    )
    ax.tick_params(labelsize=7)
    ax.legend(fontsize=7, frameon=False, loc="upper right")
    return ax


@figure
def plot_bubble_sweep(series: dict, ax=None, *, p: int | None = None, ylabel=None):
    """Lines of (m, value) per schedule, e.g. the bubble fraction as m grows.

    ``series`` maps a label to a list of ``(m, value)`` pairs (computed by the caller from
    :func:`~lecturekit.llm.pipeline_parallel.pipeline_schedule` runs). Each series gets its own
    marker and line style, so curves that lie on top of each other stay visible."""
    import matplotlib.pyplot as plt

    if ax is None:
        _unused, ax = plt.subplots(figsize=(5.5, 3))
    # curves that coincide (GPipe, 1F1B and (p-1)/(m+p-1) for the bubble) must stay
    # distinguishable: each series its own marker, marker size and line style, drawn from the
    # biggest hollow marker down so the later ones show inside the earlier ones
    markers = ["o", "s", "^", "D", "v", "x", "+", "*"]
    styles = ["-", "--", ":", "-.", (0, (5, 1)), (0, (1, 3))]
    n = len(series)
    for k, (label, pts) in enumerate(series.items()):
        xs = [x for x, _unused in pts]
        ys = [y for _unused, y in pts]
        ax.plot(
            xs,
            ys,
            marker=markers[k % len(markers)],
            markersize=3 + 1.5 * (n - 1 - k) / max(n - 1, 1) * 3,
            markerfacecolor="none",
            linestyle=styles[k % len(styles)],
            linewidth=1.4,
            label=label,
        )
    ax.set_xlabel(_("micro-batches m"), fontsize=8)
    ax.set_ylabel(ylabel if ylabel is not None else _("bubble fraction"), fontsize=8)
    if p is not None:
        ax.set_title(f"p = {p}", fontsize=9, loc="left")
    ax.tick_params(labelsize=7)
    ax.legend(fontsize=7, frameon=False)
    ax.grid(alpha=0.3)
    return ax


@figure
def plot_rank_layout(layout, ax=None):
    """The GPUs of a parallel job (a :class:`~lecturekit.llm.planner.RankLayout`) as a grid:
    one column block per data-parallel replica, rows = pipeline stages, columns = tensor
    partitions (grouped by context rank when ``cp > 1``, as ``RankLayout.text`` does); each cell
    is a GPU (global rank, and ``e<i>``, its slice of the experts, when ``ep > 1``), coloured by
    node. Returns the Axes."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    dp, pp, tp, cp, ep = layout.dp, layout.pp, layout.tp, layout.cp, layout.ep
    width = cp * tp  # columns per data replica: context-major, tensor fastest
    gap = 0.6
    if ax is None:
        _unused, ax = plt.subplots(
            figsize=(0.75 * (dp * width + gap * (dp - 1)) + 1.2, 0.55 * pp + 0.9)
        )
    cmap = plt.get_cmap("tab20")
    for d in range(dp):
        x0 = d * (width + gap)
        ax.text(
            x0 + width / 2,
            -0.75,
            _("data replica {d}").format(d=d),
            ha="center",
            va="center",
            fontsize=8,
        )
        for s in range(pp):
            for c in range(cp):
                for t in range(tp):
                    r = layout.rank(d, s, t, c)
                    x = x0 + c * tp + t
                    ax.add_patch(
                        Rectangle(
                            (x, s),
                            0.92,
                            0.86,
                            facecolor=cmap(layout.node_of(r) % 20),
                            edgecolor="#333333",
                            linewidth=0.6,
                            alpha=0.75,
                        )
                    )
                    label = f"{r}" if ep == 1 else f"{r}\ne{layout.expert_of(r)}"
                    size = 8 if ep == 1 else 6.5
                    ax.text(x + 0.46, s + 0.43, label, ha="center", va="center", fontsize=size)
    ax.set_xlim(-0.2, dp * width + gap * (dp - 1))
    ax.set_ylim(pp, -1.2)
    ax.set_yticks([s + 0.43 for s in range(pp)])
    ax.set_yticklabels([_("stage {s}").format(s=s) for s in range(pp)], fontsize=8)
    ticks = [d * (width + gap) + k + 0.46 for d in range(dp) for k in range(width)]
    ax.set_xticks(ticks)
    names = [f"t{t}" if cp == 1 else f"c{c}t{t}" for c in range(cp) for t in range(tp)]
    ax.set_xticklabels(names * dp, fontsize=7)
    for side in ("top", "right", "left", "bottom"):
        ax.spines[side].set_visible(False)
    ax.tick_params(length=0)
    shape = _("dp={dp} x pp={pp} x tp={tp}").format(dp=dp, pp=pp, tp=tp) + (
        f" x cp={cp}" if cp > 1 else ""
    )
    experts = _(", ep={ep} (e<i>: the expert slice a GPU holds)").format(ep=ep) if ep > 1 else ""
    ax.set_title(
        _(
            "{shape} = {world_size} GPUs{experts}; colour = node ({gpus_per_node} "
            "GPUs each), number = global rank"
        ).format(
            shape=shape,
            world_size=layout.world_size,
            experts=experts,
            gpus_per_node=layout.gpus_per_node,
        ),
        fontsize=9,
        loc="left",
    )
    return ax
