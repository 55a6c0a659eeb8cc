"""Drawing a dependence graph (matplotlib, imported lazily).

:func:`draw_dependence_graph` lays the DAG out in layers by depth (the number of edges on the
longest path from a source: every edge points down), puts each instruction in a box (``I3`` and its
text), labels each edge with its kind, what it is on and its latency (``RAW $t0 · 3``), and
highlights the critical path that :meth:`~lecturekit.target.deps.DependenceGraph.critical_path`
returns. Colours come from :mod:`lecturekit.viz.style`, so an instruction's box has the colour it
has in the pipeline tables.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..language import N_, _
from . import style
from .fonts import family, figure
from .text import label, register_name

NODE_FONT = 9
EDGE_FONT = 7
X_GAP = 0.55  # data units between boxes in a layer
Y_STEP = 1.75  # data units between layers
INCH_PER_UNIT = 0.72
#: legend entry of a dependence the scheduler's graph orders through a store between
IMPLIED = N_("ordered via a store")


def _core_graph(dg):
    return dg.graph if hasattr(dg, "graph") and hasattr(dg, "edges") else dg


def layers(graph) -> dict[int, int]:
    """Depth of every operation: 0 for a source, else 1 + the deepest predecessor (distance-0
    edges only). This is layout, not scheduling: it counts edges, not latencies."""
    g = graph.to_networkx()
    import networkx as nx

    depth: dict[int, int] = {}
    for v in nx.lexicographical_topological_sort(g):
        depth[v] = max((depth[u] + 1 for u in g.predecessors(v)), default=0)
    return depth


def layout(graph) -> dict[int, tuple[float, float]]:
    """Positions (x, y) in layer units: y = -depth; within a layer, nodes are ordered by the mean
    x of their predecessors (fewer crossings), then by index, and centred."""
    depth = layers(graph)
    g = graph.to_networkx()
    by_layer: dict[int, list[int]] = {}
    for v, d in depth.items():
        by_layer.setdefault(d, []).append(v)
    xs: dict[int, float] = {}
    for d in sorted(by_layer):
        nodes = by_layer[d]

        def key(v: int) -> tuple[float, int]:
            px = [xs[u] for u in g.predecessors(v) if u in xs]
            return (sum(px) / len(px) if px else float(v), v)

        nodes.sort(key=key if d else (lambda v: (float(v), v)))
        width = len(nodes)
        for pos, v in enumerate(nodes):
            xs[v] = pos - (width - 1) / 2
    return {v: (xs[v], -float(depth[v])) for v in depth}


def edge_label(dg, edges) -> str:
    """``RAW $t0 · 3`` per edge of a pair, one line each; a memory dependence that may alias
    adds ``(may)``, one the scheduler's graph orders through a store adds ``via I2``."""
    program = getattr(dg, "program", None)
    lines = []
    for e in edges:
        on = e.on
        if program is not None and e.kind in ("RAW", "WAR", "WAW") and not on.startswith("mem"):
            on = register_name(program, e.dst, on)
        text = f"{e.kind} {on} · {e.latency}".replace("  ", " ")
        if getattr(e, "alias", "") == "may":
            text += " (may)"
        via = getattr(e, "via", None)
        if via is not None:
            text += f" via {label(via)}"
        lines.append(text)
    return "\n".join(lines)


@figure
def draw_dependence_graph(
    dg,
    ax=None,
    *,
    reduce: bool = True,
    annotate: Mapping[int, str] | None = None,
    states: Mapping[int, str] | None = None,
    highlight_critical: bool = True,
    title: str | None = None,
    legend: bool = True,
):
    """Draw ``dg`` (a :class:`~lecturekit.target.deps.DependenceGraph`, or a core
    :class:`~lecturekit.core.Graph`) and return the matplotlib Figure.

    ``reduce``: draw only the transitive reduction (edges implied by a longer path are left
    out; a critical-path edge is always kept). With ``reduce=False`` a dependence graph is drawn
    with every dependence it lists, also the memory pairs the scheduler's graph orders through a
    store between (drawn in grey, labelled ``via I2``). ``annotate``: index -> short text shown
    in the node (e.g. ``"est 3"``, ``"prio 7"``). ``states``: index -> ``'scheduled'`` /
    ``'ready'`` / ``'waiting'`` colours the nodes as a list scheduler sees them (see
    :data:`~lecturekit.viz.style.STATE_COLORS`). ``highlight_critical``: the critical path's
    boxes and edges in red. ``title``: default says which edges are drawn and the critical path.
    """
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch, Patch

    graph = _core_graph(dg)
    n = len(graph.ops)
    annotate = dict(annotate or {})
    states = dict(states or {})
    for i, s in states.items():
        if s not in style.STATE_COLORS:
            from ..errors import LectureKitError

            raise LectureKitError(
                _("state of operation {i} is {s!r}; use one of {join}").format(
                    i=i, s=s, join=", ".join(style.STATE_COLORS)
                )
            )

    full = graph.to_networkx(reduce=False)
    if not reduce and dg is not graph:  # every listed dependence, also those ordered via a store
        for e in getattr(dg, "edges", ()):
            if getattr(e, "via", None) is None or e.distance:
                continue
            if full.has_edge(e.src, e.dst):
                full.edges[e.src, e.dst]["edges"].append(e)
            else:
                full.add_edge(e.src, e.dst, latency=e.latency, edges=[e])
    shown = graph.to_networkx(reduce=True) if reduce and n else full
    path, length = [], None
    if highlight_critical and hasattr(dg, "critical_path") and n:
        path, length = dg.critical_path()
    critical_edges = set(zip(path, path[1:], strict=False))
    pairs = set(shown.edges) | (critical_edges & set(full.edges))

    pos = layout(graph) if n else {}
    texts = {i: graph.ops[i].text for i in range(n)}
    longest = max([len(t) for t in texts.values()] + [4])
    box_w = max(1.3, 0.125 * longest + 0.45)
    box_h = 0.95 if annotate else 0.72
    x_step = box_w + X_GAP
    coords = {v: (x * x_step, y * Y_STEP) for v, (x, y) in pos.items()}
    n_layers = 1 + max((-y for _x, y in pos.values()), default=0)
    per_layer: dict[float, int] = {}
    for _x, y in pos.values():
        per_layer[y] = per_layer.get(y, 0) + 1
    widest = max(per_layer.values(), default=1)

    x_span = (widest - 1) * x_step + box_w + 1.2
    y_span = (n_layers - 1) * Y_STEP + box_h + 0.6
    scale = 1.0
    if ax is None:
        top_in = 0.6 if title != "" else 0.1
        bottom_in = (0.65 if states else 0.45) if legend else 0.1
        scale = min(1.0, 13.0 / (x_span * INCH_PER_UNIT), 9.0 / (y_span * INCH_PER_UNIT))
        w_in = x_span * INCH_PER_UNIT * scale
        h_in = y_span * INCH_PER_UNIT * scale
        fig_w = max(4.0, w_in)
        fig_h = h_in + top_in + bottom_in
        fig = plt.figure(figsize=(fig_w, fig_h))
        ax = fig.add_axes(
            ((fig_w - w_in) / 2 / fig_w, bottom_in / fig_h, w_in / fig_w, h_in / fig_h)
        )
    else:
        fig = ax.figure
    node_font = max(5.0, NODE_FONT * scale)
    edge_font = max(5.0, EDGE_FONT * scale)

    on_path = set(path)
    boxes = {}
    for v, (x, y) in coords.items():
        if states:
            fill = style.STATE_COLORS.get(states.get(v, "waiting"))
        else:
            fill = style.lighten(style.instruction_color(v), 0.55)
        critical = v in on_path
        box = FancyBboxPatch(
            (x - box_w / 2, y - box_h / 2),
            box_w,
            box_h,
            boxstyle="round,pad=0.02,rounding_size=0.12",
            facecolor=fill,
            edgecolor=style.CRITICAL_COLOR if critical else "#333333",
            linewidth=2.4 if critical else 1.0,
            zorder=3,
        )
        ax.add_patch(box)
        boxes[v] = box
        top = y + (0.2 if annotate else 0.14)
        ax.text(
            x,
            top,
            graph.ops[v].name,
            ha="center",
            va="center",
            fontsize=node_font,
            fontweight="bold",
            zorder=4,
            parse_math=False,
        )
        ax.text(
            x,
            top - 0.3,
            texts[v],
            ha="center",
            va="center",
            fontsize=node_font,
            zorder=4,
            family=family("monospace"),
            parse_math=False,
        )
        if v in annotate:
            ax.text(
                x,
                top - 0.58,
                str(annotate[v]),
                ha="center",
                va="center",
                fontsize=node_font - 1,
                color=style.NOTE_COLOR,
                zorder=4,
                parse_math=False,
            )

    centre = 0.0
    kinds_drawn = set()
    for u, v in sorted(pairs):
        data = full.edges[u, v]
        edges = sorted(
            data["edges"], key=lambda e: (getattr(e, "via", None) is not None, -e.latency, e.kind)
        )
        binding = edges[0]
        color, ls = style.EDGE_STYLES.get(binding.kind, style.DEFAULT_EDGE_STYLE)
        critical = (u, v) in critical_edges
        if critical:
            color, width = style.CRITICAL_COLOR, 2.2
        elif getattr(binding, "via", None) is not None:  # only through a store between
            (color, ls), width = style.IMPLIED_EDGE_STYLE, 1.0
            kinds_drawn.add(IMPLIED)
        else:
            width = 1.2
            kinds_drawn.add(binding.kind)
        (x1, y1), (x2, y2) = coords[u], coords[v]
        span = round((y1 - y2) / Y_STEP)
        mid_x = (x1 + x2) / 2
        rad = 0.0
        if span > 1:  # bend around the boxes in between: midpoint offset = rad * length / 2
            dist = max(1e-9, ((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5)
            rad = min(0.6, (box_w / 2 + 0.3) / (0.5 * dist))
            rad = -rad if mid_x >= centre else rad
        arrow = FancyArrowPatch(
            (x1, y1),
            (x2, y2),
            patchA=boxes[u],
            patchB=boxes[v],
            arrowstyle="-|>",
            mutation_scale=12,
            connectionstyle=f"arc3,rad={rad}",
            color=color,
            linestyle=ls,
            linewidth=width,
            shrinkA=1,
            shrinkB=1,
            zorder=2,
        )
        ax.add_patch(arrow)
        dx, dy = x2 - x1, y2 - y1
        lx, ly = (x1 + x2) / 2 + 0.5 * rad * dy, (y1 + y2) / 2 - 0.5 * rad * dx
        ax.text(
            lx,
            ly,
            edge_label(dg, edges),
            ha="center",
            va="center",
            fontsize=edge_font,
            parse_math=False,
            color=color if critical else "#222222",
            zorder=5,
            bbox=dict(boxstyle="round,pad=0.15", facecolor="white", edgecolor="none", alpha=0.85),
        )

    xs = [x for x, _unused in coords.values()] or [0.0]
    ys = [y for _unused, y in coords.values()] or [0.0]
    ax.set_xlim(min(xs) - box_w / 2 - 0.6, max(xs) + box_w / 2 + 0.6)
    ax.set_ylim(min(ys) - box_h / 2 - 0.3, max(ys) + box_h / 2 + 0.3)
    ax.set_aspect("equal")
    ax.axis("off")

    if title is None:
        what = _("transitive reduction") if reduce else _("all dependences")
        machine = getattr(getattr(dg, "machine", None), "name", graph.name)
        if machine:
            title = _("Dependence graph ({what}) on {machine}").format(what=what, machine=machine)
        else:
            title = _("Dependence graph ({what})").format(what=what)
        if path and length is not None:
            title += _("\ncritical path {join}: {length} cycles").format(
                join=" → ".join(label(i) for i in path), length=length
            )
    if title:
        ax.set_title(title, fontsize=10, parse_math=False)
    if legend and n:
        handles = []
        for kind in ("RAW", "WAR", "WAW", "CTRL"):
            if kind in kinds_drawn:
                color, ls = style.EDGE_STYLES[kind]
                handles.append(Line2D([], [], color=color, linestyle=ls, label=kind))
        if IMPLIED in kinds_drawn:
            color, ls = style.IMPLIED_EDGE_STYLE
            handles.append(Line2D([], [], color=color, linestyle=ls, label=_(IMPLIED)))
        for kind in sorted(kinds_drawn - set(style.EDGE_STYLES) - {IMPLIED}):
            color, ls = style.DEFAULT_EDGE_STYLE
            handles.append(Line2D([], [], color=color, linestyle=ls, label=kind))
        if path:
            handles.append(
                Line2D([], [], color=style.CRITICAL_COLOR, lw=2.2, label=_("critical path"))
            )
        if states:
            for s, c in style.STATE_COLORS.items():
                handles.append(Patch(facecolor=c, edgecolor="#333333", label=s))
        if handles:
            ax.legend(
                handles=handles,
                loc="upper center",
                bbox_to_anchor=(0.5, 0.0),
                ncol=min(len(handles), 4),
                fontsize=8,
                frameon=False,
            )
    if n == 0:
        ax.text(0.5, 0.5, _("(no instructions)"), ha="center", va="center", transform=ax.transAxes)
    return fig


@figure
def draw_ready_frames(dg, frames, *, cols: int = 4, reduce: bool = False, title: str | None = None):
    """The lecture's animation (升级版的指令调度) as small multiples: one panel per frame of
    :func:`lecturekit.core.list_sched.ready_frames`, each node annotated with its ready cycle
    (counted from 0) as the list scheduler recorded it after the frame's placement. Grey: placed,
    green: placed in this frame; a number this placement raised is drawn as ``"old→new"``.
    ``reduce``: draw only the transitive reduction (default: every edge, so that an edge such as
    a WAW implied by a longer path, which the slide draws, is visible). Returns the Figure."""
    import math

    import matplotlib.pyplot as plt

    graph = _core_graph(dg)
    if not frames:
        from ..errors import LectureKitError

        raise LectureKitError(_("draw_ready_frames needs at least one frame"))
    cols = max(1, min(cols, len(frames)))
    rows = math.ceil(len(frames) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(3.6 * cols, 3.3 * rows), squeeze=False)
    before = frames[0].numbers
    for k, frame in enumerate(frames):
        ax = axes[k // cols][k % cols]
        notes = {}
        for j, v in frame.numbers.items():
            notes[j] = f"{before[j]}→{v}" if j in frame.changed else str(v)
        states = {
            j: "ready" if j in frame.placed else "scheduled" if j in frame.scheduled else "waiting"
            for j in range(len(graph.ops))
        }
        if frame.cycle is None:
            head = _("start: every number 0")
        else:
            placed = ", ".join(graph.label(j) for j in frame.placed)
            head = _("{k}. place {placed} in cycle {cycle}").format(
                k=k, placed=placed, cycle=frame.cycle
            )
        draw_dependence_graph(
            dg,
            ax=ax,
            reduce=reduce,
            annotate=notes,
            states=states,
            title=head,
            legend=False,
            highlight_critical=False,
        )
        before = frame.numbers
    for k in range(len(frames), rows * cols):
        axes[k // cols][k % cols].axis("off")
    if title:
        fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    return fig


__all__ = ["draw_dependence_graph", "draw_ready_frames", "edge_label", "layers", "layout"]
