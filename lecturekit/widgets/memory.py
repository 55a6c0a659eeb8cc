"""An explorer for training memory: change the model or the strategy, every figure follows.

``memory_explorer()`` returns a :class:`MemoryExplorer`; display it in a notebook (or its
``.widget``). Headless code (tests) can set ``explorer.controls["tp"].value = 8`` and read
``explorer.summary.value``, ``explorer.error.value``, ``explorer.image.value`` (PNG bytes) and
``explorer.report``. A bad combination (e.g. tp not dividing the heads) is explained in the error
line; the callback never raises into the kernel. The step-by-step story of cutting memory is
:func:`lecturekit.widgets.memory_ladder.memory_stepper`.

ipywidgets and matplotlib are imported when an explorer is built, not when this module is.
"""

from __future__ import annotations

import html
import io

from ..errors import LectureKitError
from ..language import _
from ..llm import hardware
from ..llm.config import PRESETS, ParallelConfig, precision
from ..llm.memory import CONSUMERS, GB, GIB, MemoryReport, consumer_label, memory_report

_POW2 = [2**k for k in range(0, 18)]


def _png(report: MemoryReport, gpu: str) -> bytes:
    from matplotlib.figure import Figure  # no pyplot: nothing leaks into the notebook

    from ..viz.memory import plot_memory

    fig = Figure(figsize=(6.5, 2.4), dpi=80)
    ax = fig.subplots()
    plot_memory([(_("per GPU"), report)], unit="GiB", gpu=gpu, ax=ax)
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return buf.getvalue()


def summary_html(report: MemoryReport, gpu: str) -> str:
    """The explorer's table: the four consumers per GPU in GiB and GB, and what it takes."""
    g = hardware.gpu(gpu)
    rows = "".join(
        f"<tr><td>{consumer_label(name)}</td><td>{getattr(report, name) / GIB:,.1f}</td>"
        f"<td>{getattr(report, name) / GB:,.1f}</td></tr>"
        for name in CONSUMERS
    )
    rows += _(
        "<tr><td><b>total per "
        "GPU</b></td><td><b>{value:,.1f}</b></td><td><b>{value2:,.1f}</b></td></tr>"
    ).format(value=report.total / GIB, value2=report.total / GB)
    if report.cpu:
        rows += _(
            "<tr><td>(CPU: offloaded gradients + "
            "optimizer)</td><td>{value:,.1f}</td><td>{value2:,.1f}</td></tr>"
        ).format(value=report.cpu / GIB, value2=report.cpu / GB)
    need = report.gpus_needed(g)
    cost = (
        _(", ${value:,.0f} at ${price_usd:,.0f} each").format(
            value=need * g.price_usd, price_usd=g.price_usd
        )
        if g.price_usd
        else ""
    )
    fits = _("fits") if report.fits(g) else _("<b style='color:#b00'>does not fit</b>")
    return _(
        "<div><b>{escape}</b>: Ψ = {parameter_count:,} parameters; "
        "{micro_batch} sequence(s) per micro-batch; one layer saves "
        "{value:,.2f} GiB per micro-batch</div><table><tr><th>per "
        "GPU</th><th>GiB (2^30 B)</th><th>GB (10^9 "
        "B)</th></tr>{rows}</table><div>{world_size} GPU(s) (dp×tp×pp); per "
        "GPU it {fits} in one {name} ({memory_gib:.0f} GiB).<br>By memory "
        "alone the whole job needs at least <b>{need:,} × "
        "{name}</b>{cost}.</div>"
    ).format(
        escape=html.escape(report.model.name),
        parameter_count=report.parameter_count,
        micro_batch=report.micro_batch,
        value=report.activations_per_layer / GIB,
        rows=rows,
        world_size=report.parallel.world_size,
        fits=fits,
        name=g.name,
        memory_gib=g.memory_gib,
        need=need,
        cost=cost,
    )


class MemoryExplorer:
    """Controls for the model and the strategy, a summary table, a bar chart, an error line."""

    def __init__(self, preset: str = "gpt3", gpu: str = "A100-80GB"):
        import ipywidgets as w

        from .common import choice_problem, error_html

        problems = [
            choice_problem("model", preset, list(PRESETS)),
            choice_problem("gpu", gpu, list(hardware.GPUS)),
        ]
        problems = [x for x in problems if x]
        model = (
            PRESETS[preset] if not choice_problem("", preset, list(PRESETS)) else PRESETS["gpt3"]
        )
        if choice_problem("", gpu, list(hardware.GPUS)):
            gpu = "A100-80GB"
        style = {"description_width": "110px"}

        def dd(desc, options, value):
            return w.Dropdown(description=desc, options=options, value=value, style=style)

        def slider(desc, value):
            return w.SelectionSlider(
                description=desc, options=_POW2, value=value, style=style, continuous_update=False
            )

        self.controls = {
            "preset": dd("model", list(PRESETS), model.name),
            "seq": slider(_("seq length s"), model.seq),
            "batch": slider(_("batch b"), model.batch),
            "precision": dd("weights", ["bf16", "fp16", "fp32"], "bf16"),
            "optimizer": dd("optimizer", ["adam", "adamw", "sgd", "adam8bit"], "adam"),
            "gpu": dd("GPU", list(hardware.GPUS), hardware.gpu(gpu).name),
            "dp": slider(_("data par. dp"), 1),
            "tp": dd(_("tensor par. tp"), [1, 2, 3, 4, 6, 8, 16, 32], 1),
            "pp": dd(_("pipeline pp"), [1, 2, 3, 4, 6, 8, 12, 16, 24, 32], 1),
            "micro_batches": dd("micro-batches m", [1, 2, 4, 8, 16, 32, 64], 1),
            "zero": dd(_("ZeRO stage"), [0, 1, 2, 3], 0),
            "recompute": dd("recompute", ["none", "selective", "full"], "none"),
            "sp": w.Checkbox(description=_("sequence parallel"), value=False),
            "flash": w.Checkbox(description=_("flash attention"), value=False),
            "offload": w.Checkbox(description=_("offload grads + optimizer to CPU"), value=False),
        }
        self.error = w.HTML(value="")
        self.summary = w.HTML(value="")
        self.image = w.Image(format="png")
        self.report: MemoryReport | None = None
        self._quiet = False
        names = list(self.controls)
        left = w.VBox([self.controls[n] for n in names[:6]])
        right = w.VBox([self.controls[n] for n in names[6:]])
        self.widget = w.VBox(
            [w.HBox([left, right]), self.error, w.HBox([self.summary, self.image])]
        )
        for name, control in self.controls.items():
            handler = self._on_preset if name == "preset" else self._on_change
            control.observe(handler, names="value")
        if problems:  # shown; the defaults on the controls are not used to compute anything
            self.error.value = "<br>".join(error_html(x) for x in problems)
        else:
            self.update()

    def _on_preset(self, change) -> None:
        model = PRESETS[change["new"]]
        self._quiet = True  # one update, not three
        try:
            self.controls["seq"].value = model.seq
            self.controls["batch"].value = model.batch
        finally:
            self._quiet = False
        self.update()

    def _on_change(self, change) -> None:
        if not self._quiet:
            self.update()

    def update(self) -> None:
        """Recompute from the controls; on bad input show why and keep the last figure."""
        c = {k: v.value for k, v in self.controls.items()}
        try:
            model = PRESETS[c["preset"]].with_(seq=c["seq"], batch=c["batch"])
            parallel = ParallelConfig(
                dp=c["dp"],
                tp=c["tp"],
                pp=c["pp"],
                micro_batches=c["micro_batches"],
                zero=c["zero"],
                offload=c["offload"],
                sp=c["sp"],
                recompute=c["recompute"],
                flash=c["flash"],
            )
            report = memory_report(model, parallel, precision(c["precision"], c["optimizer"]))
            self.summary.value = summary_html(report, c["gpu"])
            self.image.value = _png(report, c["gpu"])
            self.report = report
            self.error.value = ""
        except LectureKitError as exc:
            self._show_error(str(exc))
        except Exception as exc:  # never a traceback into the kernel
            self._show_error(
                _("internal error ({name}): {exc}").format(name=type(exc).__name__, exc=exc)
            )

    def _show_error(self, message: str) -> None:
        self.error.value = _(
            "<div style='color:#b00'>⚠ {escape} (the figures below are for the "
            "last valid settings)</div>"
        ).format(escape=html.escape(message))

    def _ipython_display_(self) -> None:
        from IPython.display import display

        display(self.widget)


def memory_explorer(preset: str = "gpt3", gpu: str = "A100-80GB") -> MemoryExplorer:
    """Build the training-memory explorer, starting from a preset model and a GPU."""
    return MemoryExplorer(preset, gpu)
