"""An explorer of the training network: a fabric, a collective, a routing policy; the load of every
cable and, step by step, which links are busy when.

``network_explorer()`` returns a :class:`NetworkExplorer`: dropdowns and sliders for the
algorithm (:data:`lecturekit.llm.nccl.ALGORITHMS`), the routing policy
(:data:`lecturekit.llm.routing.ROUTING`), the nodes, GPUs per node, switch radix, message size
and the seed that draws the queue pairs (a new run of the same job); a summary (time, algorithm
and bus bandwidth, the most connections on one link between switches); and a
:class:`~lecturekit.widgets.common.Stepper` whose first frame colours every cable by the
connections crossing it and whose later frames show the cables busy at one moment of the core's
schedule, above the timeline of the busiest links with a cursor.

A size that does not fit the fabric (too many pods for the radix), or any other bad input, is
explained in the error line and the figures stay those of the last valid settings. Headless use
(tests): set ``explorer.controls["nodes"].value = 6`` and read ``explorer.result``,
``explorer.summary.value``, ``explorer.error.value``. ipywidgets and matplotlib are imported when
an explorer is built.
"""

from __future__ import annotations

import html

from ..errors import ConfigError
from ..language import _
from ..llm import nccl
from ..llm.fabric import Fabric
from ..llm.routing import ROUTING
from .common import WIDGET_DPI, choice_problem, control_panel, error_html, range_problem, safe

_SIZES_MB = [1, 8, 64, 256]
_RADIX = [4, 8, 16]
_GPN = [1, 2, 4]  #: up to 32 GPUs: a ring's ~8,000 messages stay interactive
#: time frames the stepper shows after the first (whole-run) frame
FRAMES = 12
_NETWORK = ("nic", "tor-leaf", "leaf-spine")


def summary_html(result: nccl.CollectiveRun) -> str:
    """Time, bandwidths and the link figures of one run, as a short HTML block."""
    run = result.run
    busiest = run.busiest(3, network_only=True)
    links = ", ".join(
        f"{html.escape(name)} ({cycles * run.quantum * 1e6:,.0f} µs)" for name, cycles in busiest
    )
    collisions = result.max_connections
    verdict = (
        _("no link between switches carries two connections")
        if collisions <= 1
        else _(
            "<b>{collisions} connections share one link between switches</b> (a collision)"
        ).format(collisions=collisions)
    )
    if not result.routes:
        verdict = _("the reduction tree is fixed (no routing choice)")
    return _(
        "<b>{algorithm} {collective}</b> of {megabytes:,.3g} MB on {ranks} ranks: "
        "<b>{us:,.1f} µs</b>, algbw {algbw:,.1f} GB/s, busbw "
        "{busbw:,.1f} GB/s; {n_messages:,} messages on the core, verified. "
        "{verdict}. Busiest network links: {links}."
    ).format(
        algorithm=html.escape(_(result.algorithm)),
        collective=_(result.collective),
        megabytes=result.nbytes / 1e6,
        ranks=result.ranks,
        us=result.seconds * 1e6,
        algbw=result.algbw / 1e9,
        busbw=result.busbw / 1e9,
        n_messages=len(run.messages),
        verdict=verdict,
        links=links,
    )


def frame_cycle(result: nccl.CollectiveRun, k: int) -> int:
    """The cycle frame ``k`` (1..FRAMES) shows: evenly spread over the run."""
    run = result.run
    return run.first + int((k - 0.5) * run.cycles / FRAMES)


def frame_figure(result: nccl.CollectiveRun, k: int):
    """Frame 0: every cable coloured by its connections; frame k: the cables busy at one moment."""
    from matplotlib.figure import Figure

    from ..viz.network import plot_fabric, plot_link_timeline

    run = result.run
    fab = run.fabric
    fig = Figure(figsize=(min(11.0, 2.0 + 0.3 * fab.gpus + 0.3 * fab.nodes), 6.4), dpi=WIDGET_DPI)
    top, bottom = fig.subplots(2, 1, gridspec_kw={"height_ratios": [3.4, 2.6]})
    if k == 0:
        if result.routes:
            load = result.connection_load(_NETWORK)
            label, title = _("connections"), _("connections per cable (whole run)")
        else:
            load = {name: 1 for name in run.link_bytes() if fab.links[name].network}
            label, title = _("used"), _("cables the reduction tree uses")
        plot_fabric(fab, load, top, title=title, label=label)
        plot_link_timeline(run, bottom, top=8)
    else:
        t = frame_cycle(result, k)
        busy = {name: 1 for name in run.busy_at(t) if fab.links[name].network}
        at = (t - run.first) * run.quantum * 1e6
        plot_fabric(
            fab, busy, top, title=_("cables busy at {at:,.1f} µs").format(at=at), label=_("busy")
        )
        plot_link_timeline(run, bottom, top=8, upto=t)
    fig.tight_layout()
    return fig


class NetworkExplorer:
    """Controls, an error line, a summary and a stepper over the run (see the module doc)."""

    def __init__(
        self,
        algorithm: str = "ring cross-NIC",  # i18n: not shown (a key of ALGORITHMS)
        policy: str = "ecmp",
        nodes: int = 4,
        gpus_per_node: int = 4,
        radix: int = 4,
        megabytes: int = 64,
        seed: int = 0,
    ):
        import ipywidgets as w

        from .common import Stepper

        style = {"description_width": "110px"}
        problems = [
            choice_problem("algorithm", algorithm, nccl.ALGORITHMS),
            choice_problem("policy", policy, ROUTING),
            range_problem("nodes", nodes, 2, 8),
            choice_problem(_("GPUs per node"), gpus_per_node, _GPN),
            choice_problem("radix", radix, _RADIX),
            choice_problem("MB", megabytes, _SIZES_MB),
            range_problem("seed", seed, 0, 29),
        ]
        problems = [x for x in problems if x]
        if problems:  # the controls show the defaults; nothing runs on a replaced value
            algorithm, policy, nodes, gpus_per_node, radix, megabytes, seed = (
                "ring cross-NIC",  # i18n: not shown (a key of ALGORITHMS)
                "ecmp",
                4,
                4,
                4,
                64,
                0,
            )
        self.controls = {
            "algorithm": w.Dropdown(
                options=list(nccl.ALGORITHMS),
                value=algorithm,
                description=_("algorithm"),
                style=style,
            ),
            "policy": w.Dropdown(
                options=list(ROUTING), value=policy, description=_("routing"), style=style
            ),
            "megabytes": w.Dropdown(
                options=_SIZES_MB, value=megabytes, description=_("MB"), style=style
            ),
            "seed": w.IntSlider(
                value=seed,
                min=0,
                max=29,
                description=_("seed (QPs)"),
                style=style,
                continuous_update=False,
            ),
            "nodes": w.IntSlider(
                value=nodes,
                min=2,
                max=8,
                description=_("nodes"),
                style=style,
                continuous_update=False,
            ),
            "gpus_per_node": w.Dropdown(
                options=_GPN, value=gpus_per_node, description=_("GPUs per node"), style=style
            ),
            "radix": w.Dropdown(
                options=_RADIX, value=radix, description=_("switch radix"), style=style
            ),
        }
        self.error = w.HTML("")
        self.summary = w.HTML("")
        self.result: nccl.CollectiveRun | None = None
        self.stepper = Stepper(
            FRAMES + 1, self._render, title=_("the network over time"), step_name=_("frame")
        )
        self.widget = control_panel(
            self.controls, [self.error, self.summary, self.stepper.widget], lambda: self.update()
        )
        if problems:
            self.error.value = "<br>".join(error_html(x) for x in problems)
        else:
            self.update()

    def update(self) -> None:
        safe(self._update, self.error)()

    def _update(self) -> None:
        c = {k: ctl.value for k, ctl in self.controls.items()}
        fabric = Fabric.build(c["nodes"], c["gpus_per_node"], radix=c["radix"])
        if fabric.gpus > 32:  # not reachable from the controls; a guard for direct use
            raise ConfigError(
                _(
                    "{gpus} GPUs: the explorer schedules at most 32; use fewer nodes or "
                    "GPUs per node"
                ).format(gpus=fabric.gpus)
            )
        self.result = nccl.run(c["algorithm"], fabric, c["megabytes"] * 1e6, c["policy"], c["seed"])
        self.summary.value = summary_html(self.result)
        self.stepper.reset(FRAMES + 1, self.stepper.index)

    def _render(self, k: int):
        if self.result is None:
            return _("no run yet")
        fig = frame_figure(self.result, k)
        if k == 0:
            caption = _("frame 0: the whole run (connections per cable, busiest links' timeline)")
        else:
            at = (frame_cycle(self.result, k) - self.result.run.first) * self.result.run.quantum
            caption = _(
                "frame {k}: the cables busy at {us:,.1f} µs (red line in the timeline)"
            ).format(k=k, us=at * 1e6)
        return fig, caption

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)


def network_explorer(**kwargs) -> NetworkExplorer:
    """Build the explorer (default: the cross-NIC ring on 4 nodes of 4 GPUs, ECMP, radix 4)."""
    return NetworkExplorer(**kwargs)


__all__ = ["FRAMES", "NetworkExplorer", "frame_figure", "network_explorer", "summary_html"]
