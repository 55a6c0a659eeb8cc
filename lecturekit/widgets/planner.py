"""A small explorer for 3D-parallel plans: pick a model, a cluster and the assumptions, read the
layouts that fit with their estimated step time and training days.

``planner_explorer()`` returns a :class:`PlannerExplorer`; headless code sets
``explorer.controls["gpus"].value = 512`` and reads ``explorer.plans``, ``explorer.table.value``
and ``explorer.error.value``. Bad input is explained in the error line; nothing raises into the
kernel. ipywidgets is imported when an explorer is built.
"""

from __future__ import annotations

import html

from ..language import _
from ..llm import hardware
from ..llm.config import PRESETS, preset
from ..llm.planner import Cluster, plan, plan_table
from .common import choice_problem, control_panel, error_html, safe

_GPUS = [8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096]
_BATCH = [8, 16, 32, 64, 128, 256, 512, 1024, 1536, 2048, 4096]


#: context-parallel degrees the explorer tries, up to the chosen maximum
_CP = (1, 2, 4, 8, 16, 32, 64)


def _safe_keys(mapping) -> list:
    return list(mapping)


class PlannerExplorer:
    """Controls for model, cluster and assumptions; the table of layouts; an error line."""

    def __init__(self, model: str = "gpt3", gpus: int = 1024, batch: int | None = None):
        import ipywidgets as w

        style = {"description_width": "120px"}
        problems = [
            choice_problem("model", model, PRESETS),
            choice_problem("gpus", gpus, _GPUS),
            None if batch is None else choice_problem("batch", batch, _BATCH),
        ]
        problems = [x for x in problems if x]
        m = preset(model if problems == [] or model in _safe_keys(PRESETS) else "gpt3")
        if problems:  # the controls show defaults; nothing is computed with a replaced value
            gpus, batch = (gpus if gpus in _GPUS else 1024), None
        if (batch or m.batch) not in _BATCH:
            batch = 1536 if 1536 in _BATCH else _BATCH[-1]
            problems.append(
                _("batch: the model's batch {batch} is not on the slider").format(batch=m.batch)
            )
        self.controls = {
            "preset": w.Dropdown(
                options=list(PRESETS), value=m.name, description=_("model"), style=style
            ),
            "batch": w.SelectionSlider(
                options=_BATCH,
                value=batch or m.batch,
                description=_("sequences/step"),
                style=style,
                continuous_update=False,
            ),
            "gpus": w.SelectionSlider(
                options=_GPUS,
                value=gpus,
                description=_("GPUs"),
                style=style,
                continuous_update=False,
            ),
            "gpus_per_node": w.Dropdown(
                options=[4, 8, 16], value=8, description=_("GPUs per node"), style=style
            ),
            "gpu": w.Dropdown(
                options=list(hardware.GPUS), value="A100-80GB", description=_("GPU"), style=style
            ),
            "efficiency": w.FloatSlider(
                value=0.5,
                min=0.1,
                max=1.0,
                step=0.05,
                description=_("compute efficiency"),
                style=style,
                continuous_update=False,
            ),
            "max_cp": w.Dropdown(
                options=list(_CP),
                value=1,
                description=_("context parallel ≤"),
                style=style,
            ),
            "cp_kind": w.Dropdown(
                options=["ring", "ulysses"], value="ring", description=_("CP by"), style=style
            ),
            "tokens": w.FloatLogSlider(
                value=300e9,
                base=10,
                min=9,
                max=13,
                description=_("training tokens"),
                style=style,
                continuous_update=False,
            ),
        }
        self.error = w.HTML("")
        self.headline = w.HTML("")
        self.table = w.HTML("")
        self.plans: list = []
        self.widget = control_panel(
            self.controls, [self.error, self.headline, self.table], lambda: self.update()
        )
        if problems:
            self.error.value = "<br>".join(error_html(x) for x in problems)
        else:
            self.update()

    def update(self) -> None:
        safe(self._update, self.error)()

    def _update(self) -> None:
        c = {k: ctl.value for k, ctl in self.controls.items()}
        model = preset(c["preset"]).with_(batch=c["batch"])
        cluster = Cluster(gpus=c["gpus"], gpus_per_node=c["gpus_per_node"], gpu=c["gpu"])
        cps = [cp for cp in _CP if cp <= c["max_cp"]]
        plans = plan(
            model, cluster, efficiency=c["efficiency"], cp_options=cps, cp_kind=c["cp_kind"]
        )  # a mixture of experts: every expert-parallel degree is tried
        self.plans = plans
        if not plans:
            self.headline.value = _(
                "<b>No layout of {escape} fits on {gpus} × {escape2}</b> (or none "
                "divides the batch of {batch})."
            ).format(
                escape=html.escape(model.name),
                gpus=cluster.gpus,
                escape2=html.escape(cluster.gpu),
                batch=model.batch,
            )
            self.table.value = ""
            return
        best = plans[0]
        axes = "dp × tp × pp × cp" if best.cp > 1 or best.ep > 1 else "dp × tp × pp"  # i18n: as is
        self.headline.value = _(
            "<b>{n_plans}</b> layouts fit. Fastest: <b>{layout}</b> ({axes}), "
            "ZeRO-{zero}, {micro_batches} micro-batches, {recompute} "
            "recomputation: {step_time:.2f} s per step, {mfu:.0%} of peak, "
            "<b>{days:.1f} days</b> for {c:.3g} tokens."
        ).format(
            n_plans=len(plans),
            layout=best.layout,
            axes=axes,
            zero=best.zero,
            micro_batches=best.micro_batches,
            recompute=best.recompute,
            step_time=best.step_time,
            mfu=best.mfu,
            days=best.days(c["tokens"]),
            c=c["tokens"],
        )
        text = plan_table(plans, tokens=c["tokens"], limit=10)
        self.table.value = f"<pre style='line-height:1.2'>{html.escape(text)}</pre>"

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)


def planner_explorer(model: str = "gpt3", gpus: int = 1024, batch: int | None = None):
    """Build the planner explorer (default: GPT-3 on 1024 A100-80GB, the lecture's batch)."""
    return PlannerExplorer(model, gpus, batch)


__all__ = ["PlannerExplorer", "planner_explorer"]
