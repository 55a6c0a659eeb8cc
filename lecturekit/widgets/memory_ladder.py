"""Cut per-GPU training memory one technique at a time (ipywidgets, imported lazily).

``memory_stepper()`` returns a :class:`MemoryStepper`: the chapter's story of cutting per-GPU
memory, one technique added per step (``step ▶``), each step drawn next to the one before.
:func:`memory_ladder` computes that story (a list of :class:`LadderStep`, each holding the
:func:`~lecturekit.llm.memory.memory_report` of its configuration); the stepper and the notebook's
static figure only read it.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace

from ..errors import ConfigError, LectureKitError
from ..language import _
from ..llm import hardware
from ..llm.config import PRECISIONS, ModelConfig, ParallelConfig, Precision
from ..llm.config import preset as find_preset
from ..llm.costs import StepCost, technique_cost
from ..llm.memory import CONSUMERS, GIB, MemoryReport, consumer_label, memory_report

#: the degrees of the chapter's section 6: 64 data-parallel replicas, 8-way tensor and pipeline
LADDER_DEGREES = {"dp": 64, "tp": 8, "pp": 8}

_PARALLEL_FIELDS = tuple(f.name for f in fields(ParallelConfig))


@dataclass(frozen=True)
class LadderStep:
    """One step of the ladder: what it adds, the configuration, and what the calculator says."""

    label: str  #: what this step adds (short: it labels a bar)
    parallel: ParallelConfig
    precision: Precision
    report: MemoryReport  #: ``memory_report(model, parallel, precision)``
    note: str = ""  #: one sentence on what the technique does (plain text)
    #: what the step costs against the step before (extra FLOPs, communication, bubble)
    cost: StepCost | None = None


def _largest_valid(model: ModelConfig, limit: int, make) -> int:
    """The largest ``d <= limit`` for which ``make(d)`` is a ParallelConfig fitting ``model``."""
    for d in range(limit, 1, -1):
        try:
            make(d).check(model)
        except ConfigError:
            continue
        return d
    return 1


def ladder_degrees(
    model: ModelConfig | str = "gpt3",
    dp: int | None = None,
    tp: int | None = None,
    pp: int | None = None,
) -> dict[str, int]:
    """``dp``, ``tp``, ``pp`` and the pipeline's ``micro_batches`` of the default ladder.

    A degree not given is the chapter's (64, 8, 8), or, where the model's shape does not allow it
    (batch, heads, layers), the largest smaller one that does. The pipeline step splits each
    replica's sequences into ``pp`` micro-batches, or fewer when there are fewer sequences.
    """
    model = find_preset(model)
    given = {k: v for k, v in {"dp": dp, "tp": tp, "pp": pp}.items() if v is not None}
    ParallelConfig(**given)  # validates the degrees given
    if dp is None:
        dp = _largest_valid(model, LADDER_DEGREES["dp"], lambda d: ParallelConfig(dp=d))
    if tp is None:
        tp = _largest_valid(model, LADDER_DEGREES["tp"], lambda d: ParallelConfig(tp=d))
    if pp is None:
        pp = _largest_valid(model, LADDER_DEGREES["pp"], lambda d: ParallelConfig(pp=d))
    m = _largest_valid(model, pp, lambda d: ParallelConfig(dp=dp, micro_batches=d))
    return {"dp": dp, "tp": tp, "pp": pp, "micro_batches": m}


def default_ladder(
    model: ModelConfig | str = "gpt3",
    *,
    dp: int | None = None,
    tp: int | None = None,
    pp: int | None = None,
) -> list[tuple[str, ParallelConfig, Precision, str]]:
    """The chapter's techniques in the chapter's order, each added to all before it.

    Returns ``(label, parallel, precision, note)`` per step: fp32 Adam on one GPU, mixed
    precision, data parallelism, ZeRO-1, -2, -3, tensor parallelism, sequence parallelism,
    selective recomputation, flash attention, full recomputation (instead of selective), pipeline
    parallelism, and last the optimizer offload (the lecture's 优化器卸载, which comes after 3D
    parallelism). Degrees: :func:`ladder_degrees`; a degree of 1 drops its steps.
    """
    model = find_preset(model)
    deg = ladder_degrees(model, dp, tp, pp)
    dp, tp, pp, m = deg["dp"], deg["tp"], deg["pp"], deg["micro_batches"]
    fp32, mixed = PRECISIONS["fp32"], PRECISIONS["lecture"]
    par = ParallelConfig()
    steps = [
        (
            _("fp32 Adam, 1 GPU"),
            par,
            fp32,
            _(
                "the starting point: weights, gradients and Adam's moments in fp32 "
                "({param_bytes} + {grad_bytes} + {k} bytes per parameter), "
                "{activation_bytes}-byte activations, no parallelism"
            ).format(
                param_bytes=fp32.param_bytes,
                grad_bytes=fp32.grad_bytes,
                k=fp32.K,
                activation_bytes=fp32.activation_bytes,
            ),
        )
    ]

    def add(label: str, note: str, **changes) -> None:
        nonlocal par
        par = replace(par, **changes)
        steps.append((label, par, mixed, note))

    add(
        _("+ mixed precision"),
        _(
            "16-bit weights, gradients and activations; the optimizer adds an fp32 "
            "master copy ({param_bytes} + {grad_bytes} + {k} bytes per parameter: "
            "the lecture's accounting)"
        ).format(param_bytes=mixed.param_bytes, grad_bytes=mixed.grad_bytes, k=mixed.K),
    )
    if dp > 1:
        add(
            _("+ data parallel ×{dp}").format(dp=dp),
            _(
                "{dp} replicas, each with {value} of the {batch} sequences: "
                "activations split, every model state still replicated"
            ).format(dp=dp, value=model.batch // dp, batch=model.batch),
            dp=dp,
        )
        add(
            "+ ZeRO-1",
            _("the optimizer states are sharded over the {dp} replicas").format(dp=dp),
            zero=1,
        )
        add("+ ZeRO-2", _("the gradients are sharded too"), zero=2)
        add(
            "+ ZeRO-3",
            _("the parameters are sharded too (FSDP): a layer's weights are gathered when needed"),
            zero=3,
        )
    if tp > 1:
        add(
            _("+ tensor parallel ×{tp}").format(tp=tp),
            _(
                "weight matrices and most activations split over {tp} GPUs "
                "(Megatron-LM); 10 sbh per layer stay replicated (LayerNorm inputs, "
                "QKV and fc1 inputs, dropout masks)"
            ).format(tp=tp),
            tp=tp,
        )
        add(
            _("+ sequence parallel"),
            _(
                "the activations tensor parallelism left replicated are split over the "
                "{tp} GPUs too"
            ).format(tp=tp),
            sp=True,
        )
    add(
        _("+ selective recompute"),
        _("the s × s attention scores (softmax, dropout) are recomputed in backward, not stored"),
        recompute="selective",
    )
    add(
        _("+ flash attention"),
        _(
            "never materializes the s × s scores; selective recomputation has already dropped "
            "them, so here flash attention buys speed, not memory"
        ),
        flash=True,
    )
    add(
        _("full recompute"),
        _(
            "full instead of selective recomputation: only each layer's input is kept, the whole "
            "layer is recomputed in backward"
        ),
        recompute="full",
    )
    if pp > 1:
        add(
            _("+ pipeline ×{pp} (m={m})").format(pp=pp, m=m),
            _(
                "each GPU holds {value} of the {layers} layers; each replica's "
                "sequences go through in {m} micro-batch(es), 1F1B schedule"
            ).format(value=model.layers // pp, layers=model.layers, m=m),
            pp=pp,
            micro_batches=m,
        )
    add(
        _("+ CPU offload"),
        _("ZeRO-Offload: the gradients, the optimizer states and the update move to the CPU"),
        offload=True,
    )
    return steps


def _as_parallel(where: str, value) -> ParallelConfig:
    if value is None:
        return ParallelConfig()
    if isinstance(value, ParallelConfig):
        return value
    if isinstance(value, Mapping):
        unknown = [str(k) for k in value if k not in _PARALLEL_FIELDS]
        if unknown:
            raise ConfigError(
                _("{where}: unknown ParallelConfig field(s) {join}; known: {join2}").format(
                    where=where, join=", ".join(unknown), join2=", ".join(_PARALLEL_FIELDS)
                )
            )
        try:
            return ParallelConfig(**value)
        except ConfigError as exc:
            raise ConfigError(f"{where}: {exc}") from exc
    raise ConfigError(
        _("{where}: expected a ParallelConfig (or a dict of its fields), got {name}").format(
            where=where, name=type(value).__name__
        )
    )


def _as_precision(where: str, value) -> Precision:
    if value is None:
        return PRECISIONS["lecture"]
    if isinstance(value, Precision):
        return value
    if isinstance(value, str) and value.strip().lower() in PRECISIONS:
        return PRECISIONS[value.strip().lower()]
    raise ConfigError(
        _(
            "{where}: precision must be one of {join} or a Precision "
            "(lecturekit.llm.config.precision(weights, optimizer)); got {value!r}"
        ).format(where=where, join=", ".join(PRECISIONS), value=value)
    )


def _custom_steps(steps) -> list[tuple[str, ParallelConfig, Precision, str]]:
    """Check an instructor's ladder: ``(label, ParallelConfig)`` or ``(label, ParallelConfig,
    precision)`` items (a dict of ParallelConfig fields works too; ``(label, precision)`` means
    one GPU, no parallelism)."""
    if isinstance(steps, Mapping):
        items = list(steps.items())
    elif isinstance(steps, str | bytes) or not hasattr(steps, "__iter__"):
        raise ConfigError(
            _("steps: expected a list of (label, ParallelConfig) pairs, got {name}").format(
                name=type(steps).__name__
            )
        )
    else:
        items = list(steps)
    if not items:
        raise ConfigError(_("steps: the list is empty; give at least one (label, ParallelConfig)"))
    out = []
    for i, item in enumerate(items):
        where = f"steps[{i}]"
        if isinstance(item, str | bytes) or not isinstance(item, tuple | list) or len(item) < 2:
            raise ConfigError(
                _(
                    "{where}: expected (label, ParallelConfig) or (label, ParallelConfig, "
                    "precision), got {item!r:.80}"
                ).format(where=where, item=item)
            )
        if len(item) > 3:
            raise ConfigError(
                _("{where}: {n_item} entries; expected 2 or 3, got {item!r:.80}").format(
                    where=where, n_item=len(item), item=item
                )
            )
        label, parallel, *rest = item
        if not isinstance(label, str) or not label.strip():
            raise ConfigError(
                _("{where}: the label must be a non-empty string, got {label!r}").format(
                    where=where, label=label
                )
            )
        where = f"{where} ({label.strip()!r})"
        prec = rest[0] if rest else None
        if not rest and isinstance(parallel, Precision | str):
            parallel, prec = None, parallel
        out.append((label.strip(), _as_parallel(where, parallel), _as_precision(where, prec), ""))
    return out


def memory_ladder(
    preset: ModelConfig | str = "gpt3",
    steps=None,
    *,
    dp: int | None = None,
    tp: int | None = None,
    pp: int | None = None,
) -> list[LadderStep]:
    """Each step's :func:`~lecturekit.llm.memory.memory_report` for ``preset``.

    ``steps``: None for :func:`default_ladder` (``dp``, ``tp``, ``pp`` shape it), or an
    instructor's own list of ``(label, ParallelConfig)`` / ``(label, ParallelConfig,
    precision)``. Bad input raises :class:`~lecturekit.errors.ConfigError` naming the step.
    """
    model = find_preset(preset)
    if steps is None:
        rungs = default_ladder(model, dp=dp, tp=tp, pp=pp)
        where = [f"step {i + 1} ({r[0]!r})" for i, r in enumerate(rungs)]
    else:
        if (dp, tp, pp) != (None, None, None):
            raise ConfigError(
                _(
                    "dp, tp, pp: they shape the default ladder; with your own steps put them in "
                    "each step's ParallelConfig"
                )
            )
        rungs = _custom_steps(steps)
        where = [f"steps[{i}] ({r[0]!r})" for i, r in enumerate(rungs)]
    ladder = []
    prev = None
    for at, (label, parallel, prec, note) in zip(where, rungs, strict=True):
        try:
            report = memory_report(model, parallel, prec)
            cost = technique_cost(model, parallel, prev)
        except LectureKitError as exc:
            raise ConfigError(f"{at}: {exc}") from exc
        ladder.append(LadderStep(label, parallel, prec, report, note, cost))
        prev = parallel
    return ladder


def gib(n: float) -> str:
    """Bytes as GiB for captions and tables: ``1,194.9`` from 10 GiB up, ``6.34`` below, and two
    significant digits below 0.01 GiB (``0.0031``)."""
    x = n / GIB
    if x == 0 or abs(x) >= 0.01:
        return f"{x:,.{1 if abs(x) >= 10 else 2}f}"
    return f"{x:.2g}"


def step_caption(ladder: list[LadderStep], i: int, gpu: str | hardware.GPU = "A100-80GB") -> str:
    """What step ``i`` added, what it saved per GPU (GiB) and whether it fits in one ``gpu``."""
    g = hardware.gpu(gpu)
    step, r = ladder[i], ladder[i].report
    step_of = _("step {i} / {n}: {label}").format(
        i=i + 1, n=len(ladder), label=html.escape(step.label)
    )
    head = f"<b>{step_of}</b>"
    if step.note:
        head += f" — {html.escape(step.note)}"
    if i == 0:
        parts = ", ".join(f"{consumer_label(name)} {gib(getattr(r, name))}" for name in CONSUMERS)
        memory = _("per GPU: <b>{gib} GiB</b> ({parts} GiB)").format(gib=gib(r.total), parts=parts)
    else:
        prev = ladder[i - 1].report
        saved = prev.total - r.total
        if saved > 0:
            verdict = _("<b>saves {gib} GiB</b> per GPU").format(gib=gib(saved))
        elif saved < 0:
            verdict = _("<b>adds {gib} GiB</b> per GPU").format(gib=gib(-saved))
        else:
            verdict = _("<b>no change</b> per GPU")
        changed = [
            f"{consumer_label(name)} {gib(getattr(prev, name))} → {gib(getattr(r, name))}"
            for name in CONSUMERS
            if getattr(prev, name) != getattr(r, name)
        ]
        memory = _("per GPU: <b>{gib} GiB</b> (was {gib2} GiB): {verdict}").format(
            gib=gib(r.total), gib2=gib(prev.total), verdict=verdict
        )
        if changed:
            memory += " (" + "; ".join(changed) + " GiB)"
    if r.cpu:
        memory += _("; {gib} GiB of gradients and optimizer states in CPU memory").format(
            gib=gib(r.cpu)
        )
    if step.cost is not None and i > 0:
        memory += "<br>" + _("cost: {text}").format(text=html.escape(step.cost.text))
    if r.fits(g):
        fit = _(
            "<b style='color:#1a7f37'>fits</b> in one {name} ({memory_gib:.0f} "
            "GiB), {gib} GiB to spare"
        ).format(name=g.name, memory_gib=g.memory_gib, gib=gib(g.memory_bytes - r.total))
    else:
        fit = _(
            "<b style='color:#b00'>does not fit</b> in one {name} "
            "({memory_gib:.0f} GiB): {value:,.1f} × its memory"
        ).format(name=g.name, memory_gib=g.memory_gib, value=r.total / g.memory_bytes)
    par = r.parallel
    gpus = _("{world_size:,} GPU(s) (dp {dp} × tp {tp} × pp {pp})").format(
        world_size=par.world_size, dp=par.dp, tp=par.tp, pp=par.pp
    )
    return f"{head}<br>{memory}<br>{fit}; {gpus}"


def ladder_figure(ladder: list[LadderStep], i: int, gpu: str | hardware.GPU = "A100-80GB"):
    """Step ``i`` under the step before it: stacked bars per GPU (GiB), a matplotlib Figure.

    Built without pyplot, so nothing is left open in a notebook.
    """
    from matplotlib.figure import Figure

    from ..viz.memory import plot_memory

    rows = [(f"{k + 1}. {ladder[k].label}", ladder[k].report) for k in range(max(0, i - 1), i + 1)]
    fig = Figure(figsize=(7.0, 0.45 * len(rows) + 1.2))
    plot_memory(rows, gpu=gpu, ax=fig.subplots())
    return fig


class MemoryStepper:
    """The widget :func:`memory_stepper` returns; displays itself in a notebook.

    Attributes: ``widget`` (the VBox), ``stepper`` (the :class:`~.common.Stepper`), ``steps``
    (the ladder, a list of :class:`LadderStep`; empty after bad input), ``model`` and ``gpu``
    (None when they were the bad input). ``caption``, ``error``, ``output``, ``index``,
    :meth:`step` and :meth:`back` are the Stepper's. Bad input is shown in the red error area.
    """

    def __init__(
        self,
        preset: ModelConfig | str = "gpt3",
        gpu: str | hardware.GPU = "A100-80GB",
        steps=None,
        *,
        dp: int | None = None,
        tp: int | None = None,
        pp: int | None = None,
        title: str | None = None,
    ):
        from .common import Stepper

        self.model: ModelConfig | None = None
        self.gpu: hardware.GPU | None = None
        self.steps: list[LadderStep] = []
        self._problem: Exception | None = None
        try:
            self.model = find_preset(preset)
            self.gpu = hardware.gpu(gpu)
            self.steps = memory_ladder(self.model, steps, dp=dp, tp=tp, pp=pp)
        except Exception as exc:  # noqa: BLE001 - shown in the widget, never raised
            self._problem = exc
            self.steps = []
        model_name = self.model.name if self.model else str(preset)
        gpu_name = self.gpu.name if self.gpu else str(gpu)
        default_title = _("Cutting per-GPU training memory: {model_name} on {gpu_name}").format(
            model_name=model_name, gpu_name=gpu_name
        )
        self.stepper = Stepper(
            max(1, len(self.steps)),
            self._render,
            title or default_title,
            step_name=_("step"),
            interval=1500,
        )
        self.widget = self.stepper.widget

    def _render(self, i: int):
        if self._problem is not None:
            raise self._problem  # the Stepper shows it in red
        return ladder_figure(self.steps, i, self.gpu), step_caption(self.steps, i, self.gpu)

    # the Stepper's parts, for tests and scripts
    caption = property(lambda self: self.stepper.caption)
    error = property(lambda self: self.stepper.error)
    output = property(lambda self: self.stepper.output)

    @property
    def index(self) -> int:
        """The step shown, 0-based."""
        return self.stepper.index

    @index.setter
    def index(self, value: int) -> None:
        self.stepper.index = value

    def step(self) -> None:
        """Next step (as the ``step ▶`` button)."""
        self.stepper.step()

    def back(self) -> None:
        """Previous step (as the ``◀ back`` button)."""
        self.stepper.back()

    def _repr_mimebundle_(self, **kwargs):
        from .common import _with_plain_text, plain_text_note

        name = self.model.name if self.model else "?"
        text = plain_text_note(
            _("memory stepper, {name}, {n_steps} steps").format(name=name, n_steps=len(self.steps))
        )
        return _with_plain_text(self.widget._repr_mimebundle_(**kwargs), text)


def memory_stepper(
    preset: ModelConfig | str = "gpt3",
    gpu: str | hardware.GPU = "A100-80GB",
    steps=None,
    *,
    dp: int | None = None,
    tp: int | None = None,
    pp: int | None = None,
    title: str | None = None,
) -> MemoryStepper:
    """Step through the chapter's ladder of memory-saving techniques for ``preset`` on ``gpu``.

    Each step adds one technique (:func:`default_ladder`; ``dp``, ``tp``, ``pp`` set its degrees)
    and shows the four consumers per GPU next to the step before, what it saved and whether it
    fits. ``steps``: your own ladder instead, a list of ``(label, ParallelConfig)`` or ``(label,
    ParallelConfig, precision)`` (precision: a name in ``PRECISIONS`` or a ``Precision``)::

        memory_stepper("llama3-8b", "H100", steps=[
            ("one GPU", ParallelConfig()),
            ("+ ZeRO-3 over 8", ParallelConfig(dp=8, zero=3)),
            ("+ full recompute", ParallelConfig(dp=8, zero=3, recompute="full")),
        ])

    Bad input (an unknown preset or GPU, a step the model cannot take) is shown in the widget's
    red error area, never raised.
    """
    return MemoryStepper(preset, gpu, steps, dp=dp, tp=tp, pp=pp, title=title)
