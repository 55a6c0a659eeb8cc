"""Drawings of the training network: the fabric with the load of every cable, and link timelines.

:func:`plot_fabric` draws a :class:`~lecturekit.llm.fabric.Fabric` tier by tier (spines, leaves,
ToRs, then the nodes with their GPUs, in rail colours) and colours every cable by a load
(connections, messages or busy time: whatever mapping of link names to numbers it is given; a
cable shows the larger of its two directions). :func:`plot_link_timeline` draws, for the busiest
links of a :class:`~lecturekit.llm.network.NetworkRun`, which message held each when: the core's
schedule, link by link. Nothing is computed here; matplotlib is imported inside the functions.
Labels are in the language spoken (Chinese through :func:`lecturekit.viz.fonts.figure`'s CJK
font); link and switch names are the fabric's own.
"""

from __future__ import annotations

from ..errors import ConfigError
from ..language import _
from .fonts import figure

#: the most GPUs :func:`plot_fabric` draws (beyond that the cables are a grey wash)
MAX_DRAWN_GPUS = 128

#: colours of the rails (GPU/NIC index in a node)
RAIL_COLORS = (
    "#4e79a7",
    "#f28e2b",
    "#59a14f",
    "#e15759",
    "#76b7b2",
    "#edc948",
    "#b07aa1",
    "#9c755f",
)

#: message kinds in the timelines
KIND_COLORS = {
    "reduce-scatter": "#fdae6b",
    "all-gather": "#9ecae1",
    "reduce": "#fdae6b",
    "broadcast": "#9ecae1",
    "reduce+broadcast": "#c7b9d6",
    "up": "#fdae6b",
    "down": "#9ecae1",
    "all-to-all": "#a1d99b",
}


def rail_color(rail: int) -> str:
    return RAIL_COLORS[rail % len(RAIL_COLORS)]


def _positions(fabric):
    """x, y of every switch and GPU: nodes along the bottom, each tier above its children."""
    r = fabric.gpus_per_node
    pos = {}
    for node in range(fabric.nodes):
        for i in range(r):
            pos[fabric.gpu_name(fabric.gpu(node, i))] = (node * (r + 1) + i, 0.0)
    tor_x: dict[str, list[float]] = {}
    for (node, nic), (t, _port) in fabric.attach.items():
        tor_x.setdefault(fabric.tor_name(t), []).append(
            pos[fabric.gpu_name(fabric.gpu(node, nic))][0]
        )
    for tor, xs in tor_x.items():
        pos[tor] = (sum(xs) / len(xs), 1.0)
    leaves = sorted({link.dst for link in fabric.links.values() if link.dst.startswith("leaf")})
    spines = sorted({link.dst for link in fabric.links.values() if link.dst.startswith("spine")})
    width = fabric.nodes * (r + 1) - 1
    by_pod: dict[int, list[str]] = {}
    for name in leaves:
        by_pod.setdefault(int(name[4:].split(".")[0]), []).append(name)
    pods = sorted(by_pod)
    for slot, pod in enumerate(pods):  # each pod's leaves side by side in a slot of their own
        names = sorted(by_pod[pod])
        for k, name in enumerate(names):
            x = (slot + (k + 0.5) / len(names)) * width / len(pods)
            pos[name] = (x, 2.0)
    for k, name in enumerate(spines):
        pos[name] = (width * (k + 0.5) / len(spines), 3.0)
    return pos


@figure
def plot_fabric(fabric, load=None, ax=None, *, title: str | None = None, label: str = "load"):
    """The fabric, every network cable coloured by ``load`` (link name -> number; the larger of
    the two directions): grey = unused, blue = 1, then orange to red for 2 and more (a link
    carrying two or more flows at once: a collision). Nodes are boxes of GPU dots coloured by
    rail. Returns the axes."""
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    if fabric.gpus > MAX_DRAWN_GPUS:
        raise ConfigError(
            _(
                "plot_fabric: {gpus} GPUs are too many to draw (at most "
                "{max_drawn_gpus}); draw a smaller fabric or tabulate the loads"
            ).format(gpus=fabric.gpus, max_drawn_gpus=MAX_DRAWN_GPUS)
        )
    load = dict(load or {})
    if ax is None:
        _fig, ax = plt.subplots(
            figsize=(min(12.0, 1.2 + 0.32 * fabric.gpus + 0.3 * fabric.nodes), 3.6)
        )
    pos = _positions(fabric)
    drawn = set()
    top = max(load.values(), default=0)
    for link in fabric.links.values():
        if not link.network:
            continue
        a, b = sorted((link.src, link.dst))
        if (a, b) in drawn:
            continue
        drawn.add((a, b))
        value = max(load.get(f"{a}>{b}", 0), load.get(f"{b}>{a}", 0))
        ends = []
        for end in (a, b):
            if ".nic" in end:  # a NIC is drawn at its GPU
                node, nic = end.split(".nic")
                end = f"{node}.g{nic}"
            ends.append(pos[end])
        (x0, y0), (x1, y1) = ends
        if value <= 0:
            color, lw, z = "#d9d9d9", 0.6, 1
        elif value <= 1 + 1e-9:
            color, lw, z = "#4e79a7", 1.6, 2
        else:
            color, lw, z = ("#f28e2b" if value < 2.5 else "#d62728"), 1.2 + 0.9 * min(value, 5), 3
        ax.plot([x0, x1], [y0, y1], color=color, linewidth=lw, zorder=z, solid_capstyle="round")
    r = fabric.gpus_per_node
    for node in range(fabric.nodes):
        x0 = node * (r + 1) - 0.45
        ax.add_patch(
            plt.Rectangle(
                (x0, -0.32), r - 0.1, 0.5, fill=True, color="#f3f3f3", ec="#888", lw=0.8, zorder=4
            )
        )
        ax.text(
            x0 + (r - 0.1) / 2,
            -0.48,
            _("node {node}").format(node=node),
            ha="center",
            va="top",
            fontsize=7,
        )
        for i in range(r):
            x, y = pos[fabric.gpu_name(fabric.gpu(node, i))]
            ax.scatter(
                [x], [y], s=36, color=rail_color(i), zorder=5, edgecolors="#333", linewidths=0.5
            )
    for name, (x, y) in pos.items():
        if y >= 1.0:
            ax.scatter([x], [y], s=60, marker="s", color="#ffffff", edgecolors="#333", zorder=5)
            short = name.replace("spine", "S").replace("leaf", "L").replace("tor", "T")
            if name.startswith("tor") and fabric.rail_of_tor(int(name[3:])) is not None:
                short += f" r{fabric.rail_of_tor(int(name[3:]))}"
            ax.text(x, y + 0.12, short, ha="center", va="bottom", fontsize=6)
    ax.set_yticks([0, 1, 2, 3], [_("nodes"), "ToR", _("leaf"), _("spine")], fontsize=8)
    ax.set_xticks([])
    ax.set_ylim(-0.75, 3.45)
    for side in ("top", "right", "bottom"):
        ax.spines[side].set_visible(False)
    handles = [
        Line2D([], [], color="#d9d9d9", lw=1, label=_("unused")),
        Line2D([], [], color="#4e79a7", lw=1.6, label=f"{label} 1"),
        Line2D([], [], color="#f28e2b", lw=2.6, label=f"{label} 2"),
        Line2D([], [], color="#d62728", lw=3.5, label=f"{label} ≥ 3"),
    ]
    if top:
        ax.legend(
            handles=handles,
            fontsize=7,
            loc="upper right",
            frameon=False,
            ncol=4,
            bbox_to_anchor=(1, 1.12),
        )
    if title:
        ax.set_title(title, fontsize=9, loc="left")
    return ax


@figure
def plot_link_timeline(
    run, ax=None, *, links=None, top: int = 10, upto: int | None = None, network_only: bool = True
):
    """Which message held each of the ``top`` busiest links when (``links``: these instead),
    from the core's schedule; x in µs. ``upto`` (a cycle) draws a cursor. Returns the axes."""
    import matplotlib.pyplot as plt

    if links is None:
        links = [name for name, _busy in run.busiest(top, network_only=network_only)]
    if not links:
        raise ConfigError(_("plot_link_timeline: the run uses no link of that kind"))
    if ax is None:
        _fig, ax = plt.subplots(figsize=(9, 0.32 * len(links) + 1.1))
    row = {name: k for k, name in enumerate(links)}
    us = run.quantum * 1e6
    first = run.first
    bars: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for i, op in enumerate(run.graph.ops):
        s = run.schedule.start[i]
        for res in op.reservations:
            if res.unit in row:
                bars.setdefault((res.unit, op.kind), []).append(
                    ((s + res.offset - first) * us, res.cycles * us)
                )
    for (unit, kind), spans in bars.items():  # one call per link and kind: fast with many bars
        ax.broken_barh(
            spans,
            (row[unit] - 0.38, 0.76),
            color=KIND_COLORS.get(kind, "#cccccc"),
            edgecolor="#555",
            linewidth=0.3,
        )
    if upto is not None:
        ax.axvline((upto - first) * us, color="#c00000", linewidth=1.0)
    ax.set_yticks(range(len(links)), links, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel(_("time (µs)"), fontsize=8)
    ax.set_xlim(0, run.cycles * us)
    ax.tick_params(axis="x", labelsize=7)
    kinds = sorted({op.kind for op in run.graph.ops})
    from matplotlib.patches import Patch

    ax.legend(
        handles=[Patch(color=KIND_COLORS.get(k, "#cccccc"), label=k) for k in kinds],
        fontsize=7,
        loc="lower right",
        frameon=False,
        ncol=len(kinds),
        bbox_to_anchor=(1, 1.0),
    )
    return ax
