"""Explorers for pipeline-parallel schedules.

``pipeline_explorer()`` returns a :class:`PipelineExplorer`: a schedule dropdown, sliders for
``p``, ``m``, ``v`` and the durations T_F, T_B, T_W and the communication latency, and what
follows from them: the timeline, the activations in flight over time, and a table of makespan,
bubble and peak memory. Every schedule
:func:`~lecturekit.llm.pipeline_parallel.pipeline_schedule` runs is offered, the second
edition's too (looped BFS, ZB-V, DualPipeV, DualPipe); with more than one stage per device, the
table, the timeline's rows and the stepper say which stages each device holds (a loop, a V:
stages ``d`` and ``2p - 1 - d``, or DualPipe's two directions: stage ``d`` down and
``p - 1 - d`` up) and the share of the parameters it keeps. A bad combination (interleaved
with ``m`` not a multiple of ``p``, durations not divisible by ``v``, ZB-V or DualPipeV with too few
micro-batches, too many passes) is explained in the error line and the figures stay those of the
last valid settings; nothing ever raises into the kernel.

``pipeline_stepper(run)`` walks through one schedule time unit by time unit (a
:class:`~lecturekit.widgets.common.Stepper`): what each device is doing and how many
micro-batches' activations it holds.

Headless use (tests): set ``explorer.controls["m"].value = 16`` and read ``explorer.run``,
``explorer.summary.value``, ``explorer.error.value``, ``explorer.image.value`` (PNG bytes).
ipywidgets and matplotlib are imported when a widget is built, not when this module is.
"""

from __future__ import annotations

import html

from ..language import _
from ..llm.pipeline_parallel import ALL_SCHEDULES, PipelineRun, closed_form, pipeline_schedule
from .common import (
    WIDGET_DPI,
    choice_problem,
    control_panel,
    error_html,
    figure_png,
    range_problem,
    safe,
)


def _figure(run: PipelineRun, upto: int | None = None):
    from matplotlib.figure import Figure  # no pyplot: nothing leaks into the notebook

    from ..viz.timeline import plot_in_flight, plot_timeline

    width = min(12.0, max(6.5, 0.2 * run.makespan + 2.0))
    fig = Figure(figsize=(width, 0.42 * run.p + 2.9), dpi=WIDGET_DPI)
    top, bottom = fig.subplots(2, 1, gridspec_kw={"height_ratios": [run.p + 1.2, 3.2]})
    plot_timeline(run, top, upto=upto)
    if _several(run):  # which stages each device holds (a loop, a V, or two directions)
        top.set_yticklabels(
            [
                _("dev {d}: stages {stages}").format(d=d, stages=_stages(run, d))
                for d in range(run.p)
            ],
            fontsize=7,
        )
    plot_in_flight(run, bottom, held=run.pg.split)
    bottom.set_xlim(run.first - 1, run.last)
    if upto is not None:
        bottom.axvline(upto, color="#c00000", linewidth=1.0)
    fig.tight_layout()
    return fig


def _fmt(x) -> str:
    return str(x)


def _several(run: PipelineRun) -> bool:
    """More than one stage per device: ``v`` > 1, or two directions (DualPipe)."""
    return run.v > 1 or len(run.pg.placements) > 1


def _stages(run: PipelineRun, device: int) -> str:
    if len(run.pg.placements) > 1:  # DualPipe: one stage per direction
        return ", ".join(f"{s} {'down' if k == 0 else 'up'}" for k, s in run.pg.chunks_of(device))
    return ", ".join(str(s) for s in run.pg.stages_of(device))


def placement_text(run: PipelineRun) -> str:
    """Which stages each device holds: ``"loop: 0: 0, 4; 1: 1, 5; ..."`` (``v`` > 1), or
    ``"dualpipe: 0: 0 down, 3 up; ..."`` (two directions)."""
    devices = "; ".join(f"{d}: {_stages(run, d)}" for d in range(run.p))
    return f"{run.pg.placement_name}: {devices}"


def summary_html(run: PipelineRun) -> str:
    """The explorer's table of figures."""
    s = run.summary()
    cf = closed_form(run.name, run.p, run.m, run.v, run.timing, calls=bool(run.pg.calls))
    t = run.timing
    rows = [
        ("makespan", f"{run.makespan}"),
        (_("closed form"), "-" if cf is None else f"{cf}" + (" ✓" if cf == run.makespan else " ✗")),
        (_("ideal (busiest device's work)"), f"{run.ideal}"),
        (_("bubble: idle / (p × makespan)"), f"{run.bubble_fraction:.1%}"),
        (_("bubble / ideal"), f"{run.bubble_over_ideal:.3f}"),
        (_("peak in flight per device"), ", ".join(map(_fmt, s["peak_in_flight"]))),
    ]
    if _several(run):
        rows.append((_("stages per device (placement)"), html.escape(placement_text(run))))
        shares = {run.pg.parameter_share(d) for d in range(run.p)}
        rows.append(
            (_("parameters per device (of the model)"), ", ".join(str(x) for x in sorted(shares)))
        )
    if run.pg.split:
        rows.append((_("kept until W per device"), ", ".join(map(_fmt, s["peak_held"]))))
    if run.sync != "flush":
        rows.append(
            (
                _("steady period ({sync})").format(sync=run.sync),
                f"{run.steady_period} ({run.steady_bubble_fraction:.1%})",
            )
        )
    body = "".join(f"<tr><td>{html.escape(a)}</td><td><b>{b}</b></td></tr>" for a, b in rows)
    head = (
        f"<div><b>{html.escape(run.name)}</b>: {html.escape(_(ALL_SCHEDULES[run.name]))}"
        f"<br>p={run.p}, m={run.m}"
        + (f", v={run.v}" if run.v > 1 else "")
        + f"; T_F={t.forward}, T_B={t.backward}, T_W={t.weight}, comm={t.comm}</div>"
    )
    note = f"<div><i>{html.escape(run.note)}</i></div>" if run.note else ""
    return head + f"<table>{body}</table>" + note


class PipelineExplorer:
    """Controls, a summary table, the timeline figure and an error line."""

    def __init__(self, schedule: str = "1f1b", p: int = 4, m: int = 8, v: int = 2):
        import ipywidgets as w

        style = {"description_width": "70px"}
        layout = w.Layout(width="260px")
        problems = [
            choice_problem("schedule", schedule, ALL_SCHEDULES),
            range_problem("p", p, 1, 8),
            range_problem("m", m, 1, 24),
            range_problem("v", v, 1, 4),
        ]
        problems = [x for x in problems if x]
        if problems:  # the controls show defaults; nothing is computed with a replaced value
            schedule, p, m, v = "1f1b", 4, 8, 2

        def slider(desc, value, lo, hi):
            return w.IntSlider(
                value=value,
                min=lo,
                max=hi,
                description=desc,
                style=style,
                layout=layout,
                continuous_update=False,
            )

        self.controls = {
            "schedule": w.Dropdown(
                options=list(ALL_SCHEDULES),
                value=schedule,
                description=_("schedule"),
                style=style,
                layout=layout,
            ),
            "p": slider("p devices", p, 1, 8),
            "m": slider("m micro", m, 1, 24),
            "v": slider("v chunks", v, 1, 4),
            "tf": slider("T_F", 2, 1, 6),
            "tb": slider("T_B", 2, 1, 6),
            "tw": slider("T_W", 2, 0, 6),
            "comm": slider("comm", 0, 0, 4),
        }
        self.error = w.HTML("")
        self.summary = w.HTML("")
        self.image = w.Image(format="png")
        self.run: PipelineRun | None = None
        self.widget = control_panel(
            self.controls, [self.error, self.summary, self.image], lambda: self.update()
        )
        if problems:
            self.error.value = "<br>".join(error_html(x) for x in problems)
        else:
            self.update()

    def update(self) -> None:
        """Recompute from the controls; on bad input show why and keep the last figures."""
        safe(self._update, self.error)()

    def _update(self) -> None:
        c = {k: ctl.value for k, ctl in self.controls.items()}
        chunks = c["schedule"] in ("interleaved", "looped-bfs", "interleaved-zb")  # zb-v: 2
        self.controls["v"].disabled = not chunks
        run = pipeline_schedule(
            c["schedule"],
            c["p"],
            c["m"],
            c["v"] if chunks else None,
            c["tf"],
            c["tb"],
            c["tw"],
            c["comm"],
        )
        self.summary.value = summary_html(run)
        self.image.value = figure_png(_figure(run), WIDGET_DPI)
        self.run = run

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)


def pipeline_explorer(schedule: str = "1f1b", p: int = 4, m: int = 8, v: int = 2):
    """Build the pipeline-schedule explorer (durations start at T_F = T_B = T_W = 2, so the
    interleaved schedule with v = 2 works right away)."""
    return PipelineExplorer(schedule, p, m, v)


def step_caption(run: PipelineRun, t: int) -> str:
    """What happens in time unit ``t``: each device's pass (or idle) and its micro-batches in
    flight."""
    if t < run.first:
        return _("before the step: {name}, p={p}, m={m}").format(name=run.name, p=run.p, m=run.m)
    parts = []
    for d in range(run.p):
        doing = "idle"
        for i in run.device_ops(d):
            if run.start(i) <= t <= run.finish(i):
                doing = run.ops[i].label
        alive = run.in_flight(d)[t - run.first]
        where = f" (stages {_stages(run, d)})" if _several(run) else ""
        parts.append(
            _("device {d}{where}: <b>{escape}</b> ({alive} in flight)").format(
                d=d, where=where, escape=html.escape(doing), alive=alive
            )
        )
    return f"time {t}: " + "; ".join(parts)


def pipeline_stepper(run: PipelineRun):
    """Step through ``run`` one time unit at a time; returns a
    :class:`~lecturekit.widgets.common.Stepper` (display it, or its ``.widget``)."""
    from .common import Stepper

    def render(k: int):
        t = run.first - 1 + k
        return _figure(run, upto=t), step_caption(run, t)

    return Stepper(
        run.makespan + 1,
        render,
        title=_("{name}: time unit by time unit").format(name=run.name),
        step_name=_("time"),
    )


__all__ = [
    "PipelineExplorer",
    "pipeline_explorer",
    "pipeline_stepper",
    "placement_text",
    "step_caption",
    "summary_html",
]
