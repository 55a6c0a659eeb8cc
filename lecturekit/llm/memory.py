"""Training memory: the four consumers (训练过程中"四大"内存占用) per GPU.

1. **parameters** -- the weights the forward pass uses;
2. **gradients** -- one per parameter;
3. **optimizer states** -- fp32 master weights (mixed precision) and the optimizer's moments;
4. **activations** -- what the forward pass saves for backward (:mod:`.activations`).

:func:`memory_report` computes them for a model, a parallel strategy and a precision, for every
pipeline stage, and reports the stage that needs most (the per-GPU figure). Bytes are integers
internally; a :class:`MemoryReport` renders GiB (2**30) and GB (10**9), always labelled.

Model states under ZeRO (Rajbhandari et al. 2020) over N_d = ``dp`` replicas, per GPU, with Psi the
parameters on the GPU and K the optimizer bytes per parameter:

=======  =====================================
stage 0  (2 + 2 + K) Psi
stage 1  (2 + 2) Psi + K Psi / N_d
stage 2  2 Psi + (2 + K) Psi / N_d
stage 3  (2 + 2 + K) Psi / N_d
=======  =====================================

(2 and 2 are the 16-bit weights and gradients of mixed precision; :class:`Precision` sets them.)
With ``offload`` (ZeRO-Offload, Ren et al. 2021) the gradients *and* the optimizer states move
to CPU memory: only the 16-bit parameters stay on the GPU. The gradients are streamed to the CPU
during the backward pass (each rank its ZeRO partition: ZeRO-Offload is built on ZeRO-2, so with
ZeRO >= 1 and ``dp`` replicas each host holds ``(2 + K) Psi / N_d``), the Adam update runs on the
CPU and the new 16-bit weights come back. Not modelled: the GPU's gradient bucket for that
streaming (a few hundred MB), ZeRO-3's gathered-layer buffer (see
:func:`lecturekit.llm.zero3.gathered_layer_bytes`), communication buckets, the CUDA context,
allocator fragmentation -- real jobs need some GiB more per GPU.

The lecture's table (:func:`lecture_table`) is this calculator with ``precision("lecture")``:
16-bit weights and gradients (2 + 2 = the slide's "x 4"), fp32 master weights plus Adam's two fp32
moments (4 + 4 + 4 = the slide's "x 12"), 16-bit activations.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import ConfigError
from ..language import N_, _, ljust
from . import hardware
from .activations import (
    input_saved_tensors,
    layer_activation_bytes,
    lecture_activation_bytes,
    output_saved_tensors,
)
from .config import PRECISIONS, ModelConfig, ParallelConfig, Precision, preset
from .params import (
    layer_parameters,
    lecture_parameter_count,
    parameter_count,
    stage_parameters,
)

__all__ = [
    "GB",
    "GIB",
    "CONSUMERS",
    "CONSUMER_LABELS",
    "consumer_label",
    "LECTURE_SLIDE",
    "MemoryReport",
    "StageMemory",
    "format_bytes",
    "lecture_table",
    "memory_report",
    "model_state_bytes",
    "technique_effects",
]

GIB = 2**30
GB = 10**9

#: the four consumers, in the order tables and bars show them
CONSUMERS = ("parameters", "gradients", "optimizer", "activations")
#: how a table or a figure names each consumer (translated where shown: :func:`consumer_label`)
CONSUMER_LABELS = {
    "parameters": N_("parameters"),
    "gradients": N_("gradients"),
    "optimizer": N_("optimizer"),
    "activations": N_("activations"),
}


def consumer_label(name: str) -> str:
    """The name of a consumer (``parameters`` ...) in the language spoken."""
    return _(CONSUMER_LABELS[name]) if name in CONSUMER_LABELS else name


#: what the slide prints (its "GB" are GiB, see the notebook)
LECTURE_SLIDE = {
    "params+grads": 650,
    "optimizer": 1950,
    "activations": 32895,
    "A100-80GB": 440,
    "A100-40GB": 880,
}


def format_bytes(n: float | None, unit: str = "GiB", digits: int = 1) -> str:
    """``12.3 GiB`` / ``13.2 GB``; ``-`` for None."""
    if n is None:
        return "-"
    div = {"GiB": GIB, "GB": GB, "MiB": 2**20, "MB": 10**6, "B": 1}
    if unit not in div:
        raise ConfigError(
            _("unit: must be one of {join}; got {unit!r}").format(join=", ".join(div), unit=unit)
        )
    return f"{n / div[unit]:,.{digits}f} {unit}"


def _share(n: int, parts: int) -> int:
    return -(-n // parts)


def model_state_bytes(
    parameters: int, precision: Precision, zero: int = 0, dp: int = 1, offload: bool = False
) -> dict[str, int]:
    """Bytes of parameters, gradients and optimizer states on one GPU holding ``parameters``.

    ``zero`` shards over ``dp`` replicas: stage 1 the optimizer states, 2 also gradients, 3 also
    parameters. ``offload`` (ZeRO-Offload) moves the gradients and the optimizer states to the
    CPU; with ZeRO >= 1 each rank offloads only its partition of both (ZeRO-Offload reduce-
    scatters the gradients as ZeRO-2 does). Returns ``parameters``, ``gradients``, ``optimizer``
    (GPU) and ``cpu`` (host memory: offloaded gradients + optimizer states).
    """
    if isinstance(parameters, bool) or not isinstance(parameters, int) or parameters < 0:
        raise ConfigError(
            _("parameters: must be an integer >= 0, got {parameters!r}").format(
                parameters=parameters
            )
        )
    ParallelConfig(dp=dp, zero=zero)  # validates dp and zero
    p = parameters * precision.param_bytes
    g = parameters * precision.grad_bytes
    o = parameters * precision.K
    if zero >= 1:
        o = _share(o, dp)
    if zero >= 2:
        g = _share(g, dp)
    if zero >= 3:
        p = _share(p, dp)
    cpu = 0
    if offload:
        if zero == 1:  # ZeRO-Offload partitions the offloaded gradients as ZeRO-2 does
            g = _share(g, dp)
        cpu, o, g = o + g, 0, 0
    return {"parameters": p, "gradients": g, "optimizer": o, "cpu": cpu}


@dataclass(frozen=True)
class StageMemory:
    """One GPU of one pipeline stage."""

    stage: int
    layers: int  #: transformer layers on this stage
    in_flight: int  #: micro-batches whose activations are held at the peak
    parameter_count: int  #: parameters on this GPU before ZeRO sharding
    parameters: int  #: bytes
    gradients: int
    optimizer: int
    activations: int
    cpu: int = 0  #: offloaded gradient + optimizer bytes (host memory, not in total)

    @property
    def total(self) -> int:
        return self.parameters + self.gradients + self.optimizer + self.activations


@dataclass(frozen=True)
class MemoryReport:
    """Per-GPU memory of a training job; bytes, renderable in GiB and GB.

    The per-GPU figures are those of the pipeline stage needing most (``peak``); ``stages`` has
    them all. ``job_bytes`` adds up every GPU (world size = dp x tp x pp).
    """

    model: ModelConfig
    parallel: ParallelConfig
    precision: Precision
    parameter_count: int  #: parameters of the whole model
    micro_batch: int  #: sequences per micro-batch on one GPU
    activations_per_layer: int  #: bytes one layer saves on one GPU for one micro-batch
    stages: tuple[StageMemory, ...] = field(repr=False)
    cp: int = 1  #: context-parallel degree (the sequence split over ``cp`` GPUs)
    ep: int = 1  #: expert-parallel degree (MoE experts split over ``ep`` of the dp x cp GPUs)

    @property
    def peak(self) -> StageMemory:
        return max(self.stages, key=lambda st: (st.total, -st.stage))

    parameters = property(lambda self: self.peak.parameters)
    gradients = property(lambda self: self.peak.gradients)
    optimizer = property(lambda self: self.peak.optimizer)
    activations = property(lambda self: self.peak.activations)
    cpu = property(lambda self: self.peak.cpu)
    total = property(lambda self: self.peak.total)

    @property
    def bytes(self) -> dict[str, int]:
        """Per-GPU bytes by consumer (the CLI's ``--json`` ``bytes`` object)."""
        return {
            "parameters": self.parameters,
            "gradients": self.gradients,
            "optimizer": self.optimizer,
            "activations": self.activations,
            "activations_per_layer": self.activations_per_layer,
            "total": self.total,
            "cpu_offload": self.cpu,
        }

    @property
    def job_bytes(self) -> int:
        """GPU memory of the whole job: every stage's total x dp x tp x cp GPUs."""
        return sum(st.total for st in self.stages) * self.parallel.dp * self.parallel.tp * self.cp

    def gpus_needed(self, gpu: str | hardware.GPU = "A100-80GB") -> int:
        """GPUs needed to hold ``job_bytes`` by memory alone (the lecture's 440/880 question)."""
        return hardware.gpus_needed(self.job_bytes, gpu)

    def fits(self, gpu: str | hardware.GPU = "A100-80GB") -> bool:
        """Whether this per-GPU total fits in one ``gpu``'s memory."""
        return self.total <= hardware.gpu(gpu).memory_bytes

    def as_dict(self) -> dict:
        """A JSON-ready summary (the CLI's ``--json``)."""
        par = self.parallel
        return {
            "model": self.model.name,
            "config": {
                "hidden": self.model.hidden,
                "seq": self.model.seq,
                "layers": self.model.layers,
                "heads": self.model.heads,
                "batch": self.model.batch,
                "vocab": self.model.vocab,
            },
            "parallel": {
                "dp": par.dp,
                "tp": par.tp,
                "pp": par.pp,
                "micro_batches": par.micro_batches,
                "zero": par.zero,
                "sp": par.sp,
                "recompute": par.recompute,
                "flash_attention": par.flash,
                "offload": par.offload,
                "schedule": par.schedule,
                "cp": self.cp,
                "ep": self.ep,
            },
            "precision": self.precision.name,
            "parameters": self.parameter_count,
            "parameters_per_gpu": self.peak.parameter_count,
            "micro_batch": self.micro_batch,
            "peak_stage": self.peak.stage,
            "bytes": self.bytes,
            "gib": {k: v / GIB for k, v in self.bytes.items()},
            "job_bytes": self.job_bytes,
            "world_size": par.world_size * self.cp,
        }

    def table(self, gpu: str | None = "A100-80GB") -> str:
        """A plain-text table of the four consumers per GPU, in GiB and GB."""
        rows = [(consumer_label(name), getattr(self, name)) for name in CONSUMERS]
        rows.append((_("total per GPU"), self.total))
        if self.cpu:
            rows.append((_("(CPU: grads + optimizer)"), self.cpu))
        w = max([16] + [len(f"{n / GB:,.1f}") + 2 for _unused, n in rows])  # columns never touch
        lines = [ljust(_("per GPU"), 24) + f"{'GiB (2^30 B)':>{w}}{'GB (10^9 B)':>{w}}"]
        for name, n in rows:
            lines.append(ljust(name, 24) + f"{n / GIB:>{w},.1f}{n / GB:>{w},.1f}")
        if gpu is not None:
            g = hardware.gpu(gpu)
            verdict = _("fits") if self.fits(g) else _("does NOT fit")
            lines.append(
                _(
                    "{value} GPU(s); per GPU {verdict} in one {name}; by memory alone the "
                    "job needs >= {gpus_needed:,} x {name}"
                ).format(
                    value=self.parallel.world_size * self.cp,
                    verdict=verdict,
                    name=g.name,
                    gpus_needed=self.gpus_needed(g),
                )
            )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()


def _in_flight(parallel: ParallelConfig, stage: int) -> int:
    m, p = parallel.micro_batches, parallel.pp
    if parallel.schedule == "gpipe":
        return m
    return min(p - stage, m)  # 1F1B: stage i starts backward after p - i forwards


def memory_report(
    model: ModelConfig | str,
    parallel: ParallelConfig | None = None,
    precision: Precision | str | None = None,
    *,
    cp: int = 1,
    ep: int = 1,
) -> MemoryReport:
    """The four consumers per GPU for ``model`` trained with ``parallel`` and ``precision``.

    Defaults: no parallelism, the lecture's precision (16-bit mixed precision with Adam).

    ``cp`` (context parallelism, ring attention or Ulysses, :mod:`.context_parallel`): the
    sequence is split over ``cp`` GPUs, each keeping ``1/cp`` of every saved activation (its
    queries' attention scores against the whole sequence included), so activations divide by
    ``cp``; the world size is ``dp x tp x pp x cp``. ``ep`` (expert parallelism, :mod:`.moe`):
    a mixture-of-experts model's experts are split over ``ep`` GPUs taken from the ``dp x cp``
    ranks, as Megatron-LM does (expert data-parallel size ``dp cp / ep``, order tp-cp-ep-dp-pp).
    ZeRO shards the dense states over ``dp x cp`` ranks and the expert states over the
    ``dp cp / ep`` ranks that hold the same experts.
    """
    model = preset(model)
    parallel = parallel or ParallelConfig()
    if precision is None:
        precision = PRECISIONS["lecture"]
    elif isinstance(precision, str):
        if precision not in PRECISIONS:
            raise ConfigError(
                _("precision: must be one of {join}; got {precision!r}").format(
                    join=", ".join(PRECISIONS), precision=precision
                )
            )
        precision = PRECISIONS[precision]
    parallel.check(model)
    _check_cp_ep(model, parallel, cp, ep)
    mb = parallel.micro_batch_size(model)
    per_layer = _share(layer_activation_bytes(model, parallel, precision, mb), cp)
    first = _share(sum(t.bytes for t in input_saved_tensors(model, parallel, precision, mb)), cp)
    last = _share(sum(t.bytes for t in output_saved_tensors(model, parallel, precision, mb)), cp)
    layers = model.layers // parallel.pp
    expert_per_layer = layer_parameters(model)["mlp"].per_gpu(parallel.tp) if ep > 1 else 0
    ranks = parallel.dp * cp  # dense states are replicated (or ZeRO-sharded) over dp x cp
    stages = []
    for i in range(parallel.pp):
        n = stage_parameters(model, parallel, i)
        if ep > 1:
            experts = layers * expert_per_layer
            dense, local = n - experts, experts // ep
            a = model_state_bytes(dense, precision, parallel.zero, ranks, parallel.offload)
            b = model_state_bytes(local, precision, parallel.zero, ranks // ep, parallel.offload)
            states = {k: a[k] + b[k] for k in a}
            n = dense + local
        else:
            states = model_state_bytes(n, precision, parallel.zero, ranks, parallel.offload)
        act = layers * per_layer + (first if i == 0 else 0) + (last if i == parallel.pp - 1 else 0)
        flight = _in_flight(parallel, i)
        stages.append(StageMemory(i, layers, flight, n, activations=act * flight, **states))
    return MemoryReport(
        model, parallel, precision, parameter_count(model), mb, per_layer, tuple(stages), cp, ep
    )


def _check_cp_ep(model: ModelConfig, parallel: ParallelConfig, cp: int, ep: int) -> None:
    for name, v in ((_("cp (context-parallel GPUs)"), cp), (_("ep (expert-parallel GPUs)"), ep)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise ConfigError(
                _("{name}: must be an integer >= 1, got {v!r}").format(name=name, v=v)
            )
    if model.seq % cp:
        raise ConfigError(
            _(
                "cp: {cp} does not divide the sequence length {seq}; each GPU holds seq/cp tokens"
            ).format(cp=cp, seq=model.seq)
        )
    if ep > 1:
        if model.experts == 1:
            raise ConfigError(
                _("ep: {ep} needs a mixture-of-experts model; {name} is dense").format(
                    ep=ep, name=model.name
                )
            )
        if model.experts % ep:
            raise ConfigError(
                _(
                    "ep: {ep} does not divide the {experts} experts of {name}; each GPU "
                    "holds experts/ep whole experts"
                ).format(ep=ep, experts=model.experts, name=model.name)
            )
        if (parallel.dp * cp) % ep:
            raise ConfigError(
                _(
                    "ep: {ep} must divide dp x cp = {value}: expert parallelism takes its "
                    "GPUs from the data- and context-parallel ranks (Megatron-LM)"
                ).format(ep=ep, value=parallel.dp * cp)
            )


def lecture_table(model: ModelConfig | str = "gpt3") -> list[dict]:
    """The slide's table from the slide's formulas, with our GiB and GB and the slide's value
    (``consumer`` is marked with ``N_``: a chapter shows it as ``_(row["consumer"])``).

    Psi = L(12h^2+13h) + hv + h(s+1); params+grads = 4 Psi bytes; optimizer = 12 Psi bytes;
    activations = (L(5as^2+34hs) + 5hs + 4sv) x b bytes (the slide prints "x 4b").
    """
    model = preset(model)
    psi = lecture_parameter_count(model)
    rows = [
        (N_("params+grads"), "(L(12h²+13h)+hv+h(s+1)) × 4", 4 * psi),
        (N_("optimizer"), "(L(12h²+13h)+hv+h(s+1)) × 12", 12 * psi),
        (N_("activations"), "(L(5as²+34hs)+5hs+4sv) × b", lecture_activation_bytes(model)),
    ]
    out = []
    for name, formula, n in rows:
        out.append(
            {
                "consumer": name,
                "formula": formula,
                "bytes": n,
                "GiB": n / GIB,
                "GB": n / GB,
                "slide": LECTURE_SLIDE[name] if model.name == "gpt3" else None,
            }
        )
    total = sum(r["bytes"] for r in out)
    out.append(
        {
            "consumer": N_("total"),
            "formula": "",
            "bytes": total,
            "GiB": total / GIB,
            "GB": total / GB,
            "slide": None,
        }
    )
    return out


def technique_effects(
    model: ModelConfig | str = "gpt3", dp: int = 64, tp: int = 8, pp: int = 8
) -> list[tuple[str, MemoryReport]]:
    """One report per memory-saving technique, each applied alone to the lecture's baseline.

    The baseline is the lecture's accounting (no parallelism, 16-bit mixed precision, Adam).
    ZeRO rows run over ``dp`` replicas, which also splits the batch: the "dp only" row shows
    that part alone.
    """
    model = preset(model)
    base = ParallelConfig()
    lecture = PRECISIONS["lecture"]

    def run(label, precision=lecture, **kw):
        return label, memory_report(model, ParallelConfig(**kw) if kw else base, precision)

    return [
        run(_("fp32 (no mixed precision)"), PRECISIONS["fp32"]),
        run(_("lecture: 16-bit mixed precision")),
        run(_("data parallel dp={dp}").format(dp=dp), dp=dp),
        run(_("ZeRO-1, dp={dp}").format(dp=dp), dp=dp, zero=1),
        run(_("ZeRO-2, dp={dp}").format(dp=dp), dp=dp, zero=2),
        run(_("ZeRO-3, dp={dp}").format(dp=dp), dp=dp, zero=3),
        run(_("ZeRO-2 + CPU offload, dp={dp}").format(dp=dp), dp=dp, zero=2, offload=True),
        run(_("tensor parallel tp={tp}").format(tp=tp), tp=tp),
        run(_("tp={tp} + sequence parallel").format(tp=tp), tp=tp, sp=True),
        run(_("selective recomputation"), recompute="selective"),
        run(_("flash attention"), flash=True),
        run(_("full recomputation"), recompute="full"),
        run(_("pipeline pp={pp}, m={pp} (1F1B)").format(pp=pp), pp=pp, micro_batches=pp),
    ]
