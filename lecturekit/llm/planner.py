"""Planning 3D-parallel training: which DP x TP x PP (x ZeRO) layouts fit, and how fast they run.

The lecture's frontier section ends with 3D parallelism (3D并行训练: data 2-way, pipeline 4
stages, tensor 4 partitions on 32 GPUs) and the estimate "175B parameters, 300B tokens, 1024
A100: 34 days". This module computes both, from the other calculators:

- memory per GPU: :func:`lecturekit.llm.memory.memory_report` (parameters, gradients,
  optimizer states under ZeRO, activations with 1F1B's in-flight micro-batches);
- communication: :mod:`lecturekit.llm.comm` (α-β costs of ring collectives, Megatron's four
  all-reduces per layer, DP/ZeRO gradient and parameter traffic);
- pipeline bubble: :func:`lecturekit.llm.pipeline_parallel.closed_form` (the 1F1B bubble
  ``(p-1)/m`` of the ideal time, checked against the simulator in the tests).

**Step-time model** (stated, deliberately simple; every term is reported separately):

``compute``  = FLOPs per step / (GPUs x peak x ``efficiency``), FLOPs = 6 Ψ x tokens per step
(8 Ψ with full recomputation: the forward runs twice) plus attention's ``Q K^T`` and ``P V``,
quadratic in the sequence: ``2 b s^2 h`` a layer's causal forward, 3x that for forward and
backward (4x with full recomputation), :func:`~lecturekit.llm.context_parallel.attention_flops`;
``bubble``   = compute x (p-1)/m (1F1B; one sequence per micro-batch);
``tp``       = Megatron's 4 all-reduces of (s x h) activations per layer and micro-batch, inside
a node, never overlapped;
``pp``       = the activation sends on the pipeline's fill and drain, 2(p-1) messages;
``dp``       = the gradient all-reduce (ZeRO-1/2: reduce-scatter + all-gather; ZeRO-3: one more
all-gather) of one stage's parameters across the ``dp`` replicas, between nodes, of which a
fraction ``dp_overlap`` hides behind the backward pass.

Tensor parallelism stays inside a node (its traffic needs NVLink); ranks are numbered tensor
fastest, then data, then pipeline (as DeepSpeed's and Megatron-LM's topologies do), so a tensor
group is always one node's GPUs when ``tp`` divides the GPUs per node.

**Five dimensions** (``cp_options``, ``ep_options``): context parallelism splits every sequence
over ``cp`` GPUs (:mod:`.context_parallel`), so a plan uses ``dp x tp x pp x cp`` GPUs; expert
parallelism splits a mixture-of-experts model's experts over ``ep`` GPUs taken from the
``dp x cp`` ranks, as Megatron-LM does (its rank order tp-cp-ep-dp-pp: data-parallel size
``world / (tp pp cp)``, expert data-parallel size ``world / (tp ep pp) = dp cp / ep``). Memory
per GPU is :func:`~lecturekit.llm.memory.memory_report` with ``cp`` and ``ep``. Two more terms:

``cp``       = per layer and micro-batch, the *exposed* part of ring attention's ``3 (cp-1)``
key/value block messages (forward and backward): the ring runs on the scheduling core's gpu and
link, each block's attention hiding the next block's transfer, so only
``3 (cp-1) max(0, t - c)`` is left (:func:`~lecturekit.llm.context_parallel.ring_attention_time`;
``Plan.cp_hidden`` is the hidden rest); or Ulysses' 8 all-to-alls, which attention waits for
(never overlapped); bytes from
:func:`~lecturekit.llm.context_parallel.context_parallel_layer` divided by ``tp`` (heads split);
``ep``       = per layer and micro-batch, 4 all-to-alls (dispatch and combine, forward and
backward) of :func:`~lecturekit.llm.moe.all_to_all_elements` for the ``s / (cp tp)`` tokens a
GPU holds, never overlapped.

The DP term all-reduces the dense parameters over ``dp x cp`` ranks and the expert parameters
over ``dp cp / ep``; compute counts a MoE model's *active* parameters (6 Ψ_active per token).
A group stays inside a node when its ranks do: CP's when ``tp cp``, EP's when ``tp ep`` is at
most the GPUs per node.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import validate
from ..errors import ConfigError
from ..language import _, rjust
from . import hardware
from .comm import Link, data_parallel_comm, tensor_parallel_comm
from .config import PRECISIONS, ModelConfig, ParallelConfig, Precision, preset
from .context_parallel import KINDS as CP_KINDS
from .context_parallel import attention_flops, context_parallel_layer, ring_attention_time
from .memory import GIB, memory_report
from .moe import all_to_all_elements
from .params import active_parameter_count, layer_parameters, parameter_count, stage_parameters
from .pipeline_parallel import Timing, closed_form

__all__ = [
    "GPT3_ESTIMATE",
    "Cluster",
    "Plan",
    "RankLayout",
    "cp_exposed_seconds",
    "cp_step_seconds",
    "days_to_train",
    "ep_step_seconds",
    "megatron_groups",
    "model_flops",
    "plan",
    "plan_table",
    "rank_layout",
    "training_flops",
    "utilisation_for_days",
]

DAY = 86400


@dataclass(frozen=True)
class Cluster:
    """GPUs and the network between them.

    Defaults: NVIDIA DGX A100 nodes: 8 x A100-80GB per node, NVLink 3 at 300 GB/s per
    direction per GPU (600 GB/s bidirectional, datasheet), 8 x 200 Gb/s HDR InfiniBand per node
    = 25 GB/s per GPU between nodes; latencies 5 µs (NVLink) and 10 µs (InfiniBand), a
    round-number assumption. Peak FLOP/s and memory come from :mod:`lecturekit.llm.hardware`
    unless given.
    """

    gpus: int = 1024
    gpus_per_node: int = 8
    gpu: str = "A100-80GB"
    intra_bandwidth: float = 300e9  #: bytes/s per GPU inside a node (NVLink)
    inter_bandwidth: float = 25e9  #: bytes/s per GPU between nodes (InfiniBand)
    intra_latency: float = 5e-6
    inter_latency: float = 10e-6
    peak_flops: float | None = None  #: FLOP/s per GPU (default: the GPU's dense FP16/BF16)
    memory_bytes: int | None = None  #: per GPU (default: the GPU's)

    def __post_init__(self) -> None:
        validate.integer(self.gpus, "gpus", 1, MAX_GPUS)
        validate.integer(self.gpus_per_node, "gpus_per_node", 1, MAX_GPUS_PER_NODE)
        hardware.gpu(self.gpu)  # validates the name
        for name in ("intra_bandwidth", "inter_bandwidth", "peak_flops", "memory_bytes"):
            v = getattr(self, name)
            if v is not None:
                validate.number(v, name, above=0)
        for name in ("intra_latency", "inter_latency"):
            validate.number(getattr(self, name), name, 0)

    @property
    def flops(self) -> float:
        return self.peak_flops or hardware.gpu(self.gpu).peak_fp16_flops

    @property
    def memory(self) -> int:
        return self.memory_bytes or hardware.gpu(self.gpu).memory_bytes

    @property
    def intra(self) -> Link:
        return Link.from_bandwidth(self.intra_latency, self.intra_bandwidth)

    @property
    def inter(self) -> Link:
        return Link.from_bandwidth(self.inter_latency, self.inter_bandwidth)


# ----------------------------------------------------------------------------------------------
# the lecture's two numbers
# ----------------------------------------------------------------------------------------------


#: sane maxima (refused above, with the limit named)
MAX_GPUS = 2**20
MAX_GPUS_PER_NODE = 1024
MAX_LAYOUT_GPUS = 2**17


def training_flops(parameters: float, tokens: float, recompute: bool = False) -> float:
    """C = 6 Ψ D (forward 2ΨD + backward 4ΨD); 8 Ψ D when the forward is recomputed."""
    validate.number(parameters, "parameters", above=0, maximum=1e18)
    validate.number(tokens, "tokens", above=0, maximum=1e18)
    return (8 if recompute else 6) * parameters * tokens


def days_to_train(
    parameters: float,
    tokens: float,
    gpus: int,
    utilisation: float,
    peak_flops: float | None = None,
    gpu: str = "A100-80GB",
    recompute: bool = False,
) -> float:
    """Days for C = 6ΨD (or 8ΨD) FLOPs on ``gpus`` GPUs each doing ``utilisation`` x peak."""
    validate.number(utilisation, "utilisation", above=0, maximum=1)
    validate.integer(gpus, "gpus", 1, MAX_GPUS)
    if peak_flops is not None:
        validate.number(peak_flops, "peak_flops", above=0, maximum=1e20)
    peak = peak_flops or hardware.gpu(gpu).peak_fp16_flops
    return training_flops(parameters, tokens, recompute) / (gpus * peak * utilisation) / DAY


def utilisation_for_days(
    days: float,
    parameters: float,
    tokens: float,
    gpus: int,
    peak_flops: float | None = None,
    gpu: str = "A100-80GB",
    recompute: bool = False,
) -> float:
    """The fraction of peak FLOP/s that makes training take ``days`` days."""
    validate.number(days, "days", above=0, maximum=1e9)
    at_peak = days_to_train(parameters, tokens, gpus, 1.0, peak_flops, gpu, recompute)
    u = at_peak / days
    if u > 1:
        raise ConfigError(
            _(
                "days: {days:g} days would need {u:.0%} of peak FLOP/s, which is "
                "impossible; at 100% of peak it takes {at_peak:.3g} days"
            ).format(days=days, u=u, at_peak=at_peak)
        )
    return u


def model_flops(hardware_flops: float, recompute: bool = True) -> float:
    """Model FLOP/s from hardware FLOP/s: what the model needs vs what the GPU executes.

    *Hardware FLOPs utilisation* (HFU) counts every FLOP the GPU runs, recomputation included:
    ``8 Psi D`` with full recomputation (the forward pass runs twice). *Model FLOPs utilisation*
    (MFU, Chowdhery et al. 2022, PaLM) counts only the ``6 Psi D`` the model needs, whatever the
    implementation does. So with full recomputation MFU = 6/8 HFU: Megatron-LM's 140 TFLOP/s per
    A100 (Narayanan et al. 2021, counted with recomputation) are 105 TFLOP/s of model FLOPs."""
    validate.number(hardware_flops, "hardware_flops", above=0, maximum=1e20)
    return hardware_flops * (6 / 8 if recompute else 1.0)


#: the slide's "1750亿参数、3000亿词语、1024卡A100, 需要34天训练" (002_*.txt) and where it
#: comes from: Narayanan et al. 2021 (Megatron-LM, SC'21) estimate 8TP/(nX), X = 140 TFLOP/s
GPT3_ESTIMATE = {
    "parameters": 175e9,
    "tokens": 300e9,
    "gpus": 1024,
    "gpu": "A100-80GB",
    "days_on_slide": 34,
    "megatron_achieved_flops": 140e12,
}


# ----------------------------------------------------------------------------------------------
# 3D layout of ranks
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RankLayout:
    """Which GPU does what in a dp x pp x tp (x cp, ep) job: ``ranks[r] = (dp, pp, tp, node)``.

    Ranks are numbered as Megatron-LM does (order ``tp-cp-ep-dp-pp``: tensor fastest, then
    context, data, pipeline); with ``cp > 1`` a rank's context index is :meth:`context_of`, and
    with ``ep > 1`` its place in its expert-parallel group :meth:`expert_of`. Every group comes
    from :func:`megatron_groups` (one source of truth)."""

    dp: int
    pp: int
    tp: int
    gpus_per_node: int
    ranks: tuple[tuple[int, int, int, int], ...]
    cp: int = 1
    ep: int = 1

    @property
    def world_size(self) -> int:
        return self.dp * self.pp * self.tp * self.cp

    def rank(self, dp: int, pp: int, tp: int, cp: int = 0) -> int:
        """Global rank of data replica ``dp``, pipeline stage ``pp``, tensor partition ``tp``
        (and context rank ``cp``)."""
        return ((pp * self.dp + dp) * self.cp + cp) * self.tp + tp

    def all_groups(self) -> dict[str, list[list[int]]]:
        """Every kind of group, :func:`megatron_groups` of this layout."""
        return megatron_groups(tp=self.tp, cp=self.cp, dp=self.dp, pp=self.pp, ep=self.ep)

    def groups(self, kind: str) -> list[list[int]]:
        """The communication groups: ``tensor`` (all-reduce every layer), ``pipeline``
        (send/receive activations), ``data`` (all-reduce gradients), and Megatron-LM's
        ``context``, ``data_context``, ``expert``, ``expert_data``."""
        groups = self.all_groups()
        if kind not in groups:
            raise ConfigError(
                _("kind: must be one of {join}; got {kind!r}").format(
                    join=", ".join(groups), kind=kind
                )
            )
        return groups[kind]

    def context_of(self, rank: int) -> int:
        """The rank's place in its context-parallel group (which piece of the sequence)."""
        return (rank // self.tp) % self.cp

    def expert_of(self, rank: int) -> int:
        """The rank's place in its expert-parallel group: it holds the ``i``-th ``1/ep`` of
        every MoE layer's experts (Megatron-LM's expert view numbers ranks tensor fastest,
        then expert: ``(rank // tp) % ep``, as in :func:`megatron_groups`)."""
        if isinstance(rank, bool) or not isinstance(rank, int) or not 0 <= rank < self.world_size:
            raise ConfigError(
                _("rank: {rank!r} is not a rank of this {world_size}-GPU layout").format(
                    rank=rank, world_size=self.world_size
                )
            )
        return (rank // self.tp) % self.ep

    def node_of(self, rank: int) -> int:
        return rank // self.gpus_per_node

    def tensor_groups_in_one_node(self) -> bool:
        return all(len({self.node_of(r) for r in g}) == 1 for g in self.groups("tensor"))

    def text(self) -> str:
        """One block per data replica: rows = pipeline stages, columns = tensor partitions
        (under their context rank when ``cp > 1``), cells = global rank, node (and, when
        ``ep > 1``, ``e<i>``: the slice of the experts it holds), then the expert groups."""
        if self.cp == 1 and self.ep == 1:
            return self._text_3d()
        experts = {}
        if self.ep > 1:
            for g in self.groups("expert"):
                experts.update({r: i for i, r in enumerate(g)})
        w = len(str(self.world_size - 1))

        def cell(r: int) -> str:
            out = f"GPU {r:>{w}} (n{self.node_of(r)})"
            return out + (f" e{experts[r]}" if self.ep > 1 else "")

        cw = max(len(cell(r)) for r in range(self.world_size)) + 2
        cw = max(cw, len(f"tensor {self.tp - 1}") + 2)
        lines = []
        for dp in range(self.dp):
            lines.append(_("data-parallel replica {dp}:").format(dp=dp))
            if self.cp > 1:
                head = "".join(f"context {c}".ljust(cw * self.tp) for c in range(self.cp))
                lines.append((" " * 10 + head).rstrip())
            cols = [(c, t) for c in range(self.cp) for t in range(self.tp)]
            lines.append(
                (" " * 10 + "".join(f"tensor {t}".ljust(cw) for _unused, t in cols)).rstrip()
            )
            for pp in range(self.pp):
                cells = "".join(cell(self.rank(dp, pp, t, c)).ljust(cw) for c, t in cols)
                lines.append((f"stage {pp}".ljust(10) + cells).rstrip())
        if self.ep > 1:
            lines.append(
                _("expert-parallel groups (ep = {ep}): ").format(ep=self.ep)
                + " ".join(str(g) for g in self.groups("expert"))
            )
            lines.append(
                _(
                    "e<i>: the i-th 1/{ep} of every MoE layer's experts; expert "
                    "data-parallel size dp x cp / ep = {value}"
                ).format(ep=self.ep, value=self.dp * self.cp // self.ep)
            )
        return "\n".join(lines)

    def _text_3d(self) -> str:
        w = len(str(self.world_size - 1))
        lines = []
        for dp in range(self.dp):
            lines.append(_("data-parallel replica {dp}:").format(dp=dp))
            head = " " * 10 + "".join(f"tensor {t}".ljust(w + 12) for t in range(self.tp))
            lines.append(head.rstrip())
            for pp in range(self.pp):
                cells = []
                for t in range(self.tp):
                    r = self.rank(dp, pp, t)
                    cells.append(f"GPU {r:>{w}} (n{self.node_of(r)})".ljust(w + 12))
                lines.append(f"stage {pp}".ljust(10) + "".join(cells).rstrip())
        return "\n".join(lines)


def rank_layout(
    dp: int = 2, pp: int = 4, tp: int = 4, gpus_per_node: int = 4, cp: int = 1, ep: int = 1
) -> RankLayout:
    """The rank grid of a 3D-parallel job (default: the lecture's 2 x 4 x 4 on 8 nodes of 4),
    or of a 5D one with ``cp`` context-parallel ranks per replica and ``ep`` expert-parallel
    ranks (``ep`` divides ``dp x cp``), numbered as :func:`megatron_groups`."""
    for name, v in (("dp", dp), ("pp", pp), ("tp", tp), ("gpus_per_node", gpus_per_node)):
        validate.integer(v, name, 1)
    validate.integer(cp, "cp", 1)
    validate.integer(ep, "ep", 1)
    world = dp * pp * tp * cp
    if world > MAX_LAYOUT_GPUS:
        what = _("dp x pp x tp") + (" x cp" if cp > 1 else "")
        raise ConfigError(
            _(
                "{what} = {world:,} GPUs: a rank layout lists at most {max_layout_gpus:,} GPUs"
            ).format(what=what, world=world, max_layout_gpus=MAX_LAYOUT_GPUS)
        )
    if (dp * cp) % ep:
        raise ConfigError(
            _(
                "ep: {ep} must divide dp x cp = {value}: expert parallelism regroups "
                "the data- and context-parallel ranks"
            ).format(ep=ep, value=dp * cp)
        )
    ranks = []
    for r in range(world):
        t = r % tp
        d = (r // (tp * cp)) % dp
        s = r // (tp * cp * dp)
        ranks.append((d, s, t, r // gpus_per_node))
    return RankLayout(dp, pp, tp, gpus_per_node, tuple(ranks), cp, ep)


def megatron_groups(
    tp: int = 1, cp: int = 1, dp: int = 1, pp: int = 1, ep: int = 1
) -> dict[str, list[list[int]]]:
    """Megatron-LM's communication groups of a 5D job, rank order ``tp-cp-ep-dp-pp``.

    Dense layers see the ranks as the grid ``pp x dp x cp x tp`` (tensor index fastest): groups
    ``tensor``, ``context``, ``data`` (gradients of dense layers are averaged over ``data x
    context``: ``data_context``), ``pipeline``. MoE layers see the *same* ranks as
    ``pp x edp x ep x tp`` with ``edp = dp cp / ep`` (expert tensor parallelism = ``tp``):
    ``expert`` groups (the all-to-all) and ``expert_data`` groups (an expert's gradients).
    ``ep`` must divide ``dp x cp``. Each kind's groups partition the ranks."""
    for name, v in (("tp", tp), ("cp", cp), ("dp", dp), ("pp", pp), ("ep", ep)):
        validate.integer(v, name, 1)
    world = tp * cp * dp * pp
    if world > MAX_LAYOUT_GPUS:
        raise ConfigError(
            _(
                "tp x cp x dp x pp = {world:,} GPUs: a rank layout lists at most "
                "{max_layout_gpus:,} GPUs"
            ).format(world=world, max_layout_gpus=MAX_LAYOUT_GPUS)
        )
    if (dp * cp) % ep:
        raise ConfigError(
            _(
                "ep: {ep} must divide dp x cp = {value}: expert parallelism regroups "
                "the data- and context-parallel ranks"
            ).format(ep=ep, value=dp * cp)
        )
    edp = dp * cp // ep

    def rank(p, d, c, t):  # dense view
        return ((p * dp + d) * cp + c) * tp + t

    def erank(p, e_d, e, t):  # expert view of the same ranks
        return ((p * edp + e_d) * ep + e) * tp + t

    R = range
    return {
        "tensor": [[rank(p, d, c, t) for t in R(tp)] for p in R(pp) for d in R(dp) for c in R(cp)],
        "context": [[rank(p, d, c, t) for c in R(cp)] for p in R(pp) for d in R(dp) for t in R(tp)],
        "data": [[rank(p, d, c, t) for d in R(dp)] for p in R(pp) for c in R(cp) for t in R(tp)],
        "data_context": [
            [rank(p, d, c, t) for d in R(dp) for c in R(cp)] for p in R(pp) for t in R(tp)
        ],
        "pipeline": [
            [rank(p, d, c, t) for p in R(pp)] for d in R(dp) for c in R(cp) for t in R(tp)
        ],
        "expert": [
            [erank(p, e_d, e, t) for e in R(ep)] for p in R(pp) for e_d in R(edp) for t in R(tp)
        ],
        "expert_data": [
            [erank(p, e_d, e, t) for e_d in R(edp)] for p in R(pp) for e in R(ep) for t in R(tp)
        ],
    }


# ----------------------------------------------------------------------------------------------
# the planner
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    """One layout: its memory per GPU and its estimated step time (seconds), term by term."""

    dp: int
    tp: int
    pp: int
    zero: int
    micro_batches: int
    recompute: str
    memory_bytes: int
    fits: bool
    compute: float
    bubble: float
    tp_comm: float
    pp_comm: float
    dp_comm: float
    tokens_per_step: int
    flops_per_step: float
    gpus: int
    peak_flops: float
    cp: int = 1
    ep: int = 1
    cp_comm: float = 0.0
    ep_comm: float = 0.0
    cp_hidden: float = 0.0  #: ring attention's traffic hidden behind attention (not in the step)
    attention_flops: float = 0.0  #: the s^2 part of ``flops_per_step``

    @property
    def step_time(self) -> float:
        return (
            self.compute
            + self.bubble
            + self.tp_comm
            + self.pp_comm
            + self.dp_comm
            + self.cp_comm
            + self.ep_comm
        )

    @property
    def mfu(self) -> float:
        """Model FLOPs utilisation: 6Ψ x tokens / (step time x GPUs x peak)."""
        model_flops = self.flops_per_step * (6 / 8 if self.recompute == "full" else 1)
        return model_flops / (self.step_time * self.gpus * self.peak_flops)

    def days(self, tokens: float) -> float:
        return self.step_time * tokens / self.tokens_per_step / DAY

    @property
    def layout(self) -> str:
        """``dp x tp x pp``, then ``x cp`` and ``ep`` when used (e.g. ``8x1x1x2 ep4``)."""
        out = f"{self.dp}x{self.tp}x{self.pp}"
        if self.cp > 1 or self.ep > 1:
            out += f"x{self.cp}"
        if self.ep > 1:
            out += f" ep{self.ep}"
        return out

    def as_dict(self) -> dict:
        return {
            "dp": self.dp,
            "tp": self.tp,
            "pp": self.pp,
            "cp": self.cp,
            "ep": self.ep,
            "zero": self.zero,
            "micro_batches": self.micro_batches,
            "recompute": self.recompute,
            "memory_gib": self.memory_bytes / GIB,
            "fits": self.fits,
            "seconds": {
                "compute": self.compute,
                "bubble": self.bubble,
                "tp": self.tp_comm,
                "pp": self.pp_comm,
                "dp": self.dp_comm,
                "cp": self.cp_comm,
                "ep": self.ep_comm,
                "step": self.step_time,
            },
            "mfu": self.mfu,
            "cp_hidden_seconds": self.cp_hidden,
            "attention_flops": self.attention_flops,
        }


_RECOMPUTE = ("none", "selective", "full")


def _divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


def plan(
    model: ModelConfig | str = "gpt3",
    cluster: Cluster | None = None,
    *,
    precision: Precision | str = "lecture",
    efficiency: float = 0.5,
    dp_overlap: float = 0.0,
    zero_stages=(0, 1, 2, 3),
    recompute=("none", "selective", "full"),
    tp_options=None,
    pp_options=None,
    cp_options=(1,),
    ep_options=None,
    cp_kind: str = "ring",
    all_layouts: bool = False,
) -> list[Plan]:
    """Every DP x TP x PP (x ZeRO) layout of ``cluster.gpus`` GPUs for ``model``, fastest first.

    For each layout the cheapest recomputation (``none`` < ``selective`` < ``full``) that fits in
    one GPU's memory is used. Tensor parallelism stays within a node (``tp`` divides
    ``gpus_per_node``) and must divide the heads; ``pp`` must divide the layers; ``dp`` the
    batch. One sequence per micro-batch, so ``m = batch / dp``. ZeRO-2/3 are not combined with
    pipeline parallelism (their per-micro-batch gradient or parameter traffic defeats it;
    DeepSpeed refuses the combination). ``all_layouts=True`` also returns those that do not fit.

    ``cp_options``: context-parallel degrees to try (default only 1; each must divide the
    sequence), with ``cp_kind`` ``ring`` or ``ulysses`` (Ulysses needs ``cp`` to divide the
    key/value heads left after ``tp``). ``ep_options``: expert-parallel degrees (default: every
    divisor of a MoE model's experts, 1 for a dense model); ``ep`` must divide ``dp x cp``.
    """
    model = preset(model)
    cluster = cluster or Cluster()
    if isinstance(precision, str):
        if precision not in PRECISIONS:
            raise ConfigError(
                _("precision: must be one of {join}").format(join=", ".join(PRECISIONS))
            )
        precision = PRECISIONS[precision]
    validate.number(efficiency, "efficiency", above=0, maximum=1)
    validate.number(dp_overlap, "dp_overlap", 0, 1)
    for r in recompute:
        if r not in _RECOMPUTE:
            raise ConfigError(
                _("recompute: {r!r} is not one of {join}").format(r=r, join=", ".join(_RECOMPUTE))
            )
    if cp_kind not in CP_KINDS:
        raise ConfigError(
            _("cp_kind: {cp_kind!r} is not one of {join}").format(
                cp_kind=cp_kind, join=", ".join(CP_KINDS)
            )
        )
    cps = list(cp_options)
    eps = list(ep_options) if ep_options is not None else _divisors(model.experts)
    for name, values in (("cp_options", cps), ("ep_options", eps)):
        for v in values:
            validate.integer(v, name, 1, MAX_GPUS)
    for e in eps:
        if e > 1 and model.experts == 1:
            raise ConfigError(
                _(
                    "ep_options: {e}: {name} is dense (one expert); expert parallelism "
                    "needs a mixture-of-experts model"
                ).format(e=e, name=model.name)
            )
        if model.experts % e:
            raise ConfigError(
                _("ep_options: {e} does not divide the experts of {name} ({experts})").format(
                    e=e, name=model.name, experts=model.experts
                )
            )
    n = cluster.gpus
    psi = active_parameter_count(model) if model.experts > 1 else parameter_count(model)
    tokens = model.batch * model.seq
    tps = tp_options or [
        t for t in _divisors(cluster.gpus_per_node) if model.heads % t == 0 and n % t == 0
    ]
    pps = pp_options or [p for p in _divisors(model.layers) if n % p == 0]
    out: list[Plan] = []
    for tp in tps:
        for pp in pps:
            for cp in cps:
                if n % (tp * pp * cp) or model.seq % cp:
                    continue
                if cp_kind == "ulysses" and (model.n_kv_heads // tp) % cp:
                    continue
                dp = n // (tp * pp * cp)
                if model.batch % dp:
                    continue
                for ep in eps:
                    if (dp * cp) % ep:
                        continue
                    out.extend(
                        _layouts(
                            model, cluster, precision, recompute, zero_stages, tp, pp, cp, ep,
                            dp, psi, tokens, efficiency, dp_overlap, cp_kind, all_layouts,
                        )
                    )  # fmt: skip
    out.sort(key=lambda pl: (not pl.fits, pl.step_time))
    return out


def _layouts(
    model, cluster, precision, recompute, zero_stages, tp, pp, cp, ep, dp, psi, tokens,
    efficiency, dp_overlap, cp_kind, all_layouts,
) -> list[Plan]:  # fmt: skip
    """The plans of one dp x tp x pp x cp (x ep) split, one per ZeRO stage."""
    out = []
    m = model.batch // dp
    for zero in zero_stages:
        if pp > 1 and zero >= 2:
            continue
        if dp * cp == 1 and zero > 0:
            continue
        best = None
        for rec in [r for r in _RECOMPUTE if r in recompute]:
            par = ParallelConfig(
                dp=dp, tp=tp, pp=pp, micro_batches=m, zero=zero, sp=tp > 1, recompute=rec
            )
            try:
                rep = memory_report(model, par, precision, cp=cp, ep=ep)
            except ConfigError:
                break
            best = (par, rep)
            if rep.total <= cluster.memory:
                break
        if best is None:
            continue
        par, rep = best
        fits = rep.total <= cluster.memory
        if not fits and not all_layouts:
            continue
        out.append(
            _estimate(
                model,
                cluster,
                par,
                rep.total,
                fits,
                psi,
                tokens,
                efficiency,
                dp_overlap,
                cp,
                ep,
                cp_kind,
            )  # fmt: skip
        )
    return out


def cp_step_seconds(model, cluster, tp: int, cp: int, kind: str = "ring") -> float:
    """CP communication of one layer and one micro-batch (one sequence) on one GPU, forward and
    backward: ring attention's ``3 (cp-1)`` block messages or Ulysses' 8 all-to-alls of
    ``cp - 1`` messages each, the bytes of :func:`context_parallel_layer` over ``tp``."""
    if cp == 1:
        return 0.0
    lay = context_parallel_layer(model, cp, kind, model.seq, 1)
    link = cluster.intra if tp * cp <= cluster.gpus_per_node else cluster.inter
    messages = 3 * (cp - 1) if kind == "ring" else 8 * (cp - 1)
    return messages * link.alpha + lay.step_bytes / tp * link.beta


def cp_exposed_seconds(
    model, cluster, tp: int, cp: int, kind: str = "ring", efficiency: float = 0.5
) -> tuple[float, float]:
    """``(exposed, hidden)`` CP communication of one layer and one micro-batch on one GPU,
    forward and backward. Ring attention overlaps each block's transfer with the previous
    block's attention (GPUs at ``efficiency`` x peak): exposed ``3 (cp-1) max(0, t - c)`` of
    its ``3 (cp-1) t`` (:func:`~lecturekit.llm.context_parallel.ring_attention_time`, the same
    link and bytes as :func:`cp_step_seconds`); Ulysses' all-to-alls are all exposed."""
    if cp == 1:
        return 0.0, 0.0
    if kind != "ring":
        return cp_step_seconds(model, cluster, tp, cp, kind), 0.0
    link = cluster.intra if tp * cp <= cluster.gpus_per_node else cluster.inter
    ring = ring_attention_time(model, cp, link, cluster.flops * efficiency, model.seq, 1, tp)
    return ring.step_exposed, ring.step_traffic - ring.step_exposed


def ep_step_seconds(model, cluster, tp: int, cp: int, ep: int, dtype_bytes: int = 2) -> float:
    """EP communication of one MoE layer and one micro-batch on one GPU: 4 all-to-alls
    (dispatch, combine; forward, backward) of the ``s / (cp tp)`` tokens it holds."""
    if ep == 1:
        return 0.0
    tokens = -(-model.seq // (cp * tp))
    nbytes = all_to_all_elements(tokens, model.hidden, model.top_k, ep) * dtype_bytes
    link = cluster.intra if tp * ep <= cluster.gpus_per_node else cluster.inter
    return 4 * ((ep - 1) * link.alpha + nbytes * link.beta)


def _estimate(
    model, cluster, par, mem, fits, psi, tokens, efficiency, dp_overlap, cp=1, ep=1, kind="ring"
) -> Plan:
    n = cluster.gpus
    passes = 4 if par.recompute == "full" else 3  # forward, backward = 2 forwards, recompute
    attention = attention_flops(model.seq, model.hidden, model.batch) * model.layers * passes
    flops = training_flops(psi, tokens, recompute=par.recompute == "full") + attention
    compute = flops / (n * cluster.flops * efficiency)
    m, pp = par.micro_batches, par.pp
    ideal = closed_form("1f1b", 1, m, 1, Timing(1, 2, 0))  # m (T_F + T_B) with p = 1
    bubble = compute * (closed_form("1f1b", pp, m, 1, Timing(1, 2, 0)) - ideal) / ideal
    tp_comm = 0.0
    if par.tp > 1:
        per_layer = tensor_parallel_comm(1, model.seq // cp, model.hidden, "fp16", par.sp)
        tp_comm = per_layer.time(par.tp, cluster.intra) * (model.layers // pp) * m
    pp_comm = 0.0
    if pp > 1:
        nbytes = model.seq // cp * model.hidden * 2 / (par.tp if par.sp else 1)
        link = cluster.inter if par.tp * par.dp * cp >= cluster.gpus_per_node else cluster.intra
        pp_comm = 2 * (pp - 1) * link.message_time(nbytes)
    dp_comm = 0.0
    ranks = par.dp * cp  # gradients are reduced over the data- and context-parallel ranks
    if ranks > 1:
        strategy = "ddp" if par.zero == 0 else f"zero{par.zero}"
        stage_psi = stage_parameters(model, par, 0)
        link = cluster.intra if par.tp * ranks <= cluster.gpus_per_node else cluster.inter
        if ep > 1:
            experts = (model.layers // pp) * layer_parameters(model)["mlp"].per_gpu(par.tp)
            dense = data_parallel_comm(stage_psi - experts, strategy).time(ranks, link)
            edp = ranks // ep
            expert = data_parallel_comm(experts // ep, strategy).time(edp, link) if edp > 1 else 0.0
            dp_comm = (dense + expert) * (1 - dp_overlap)
        else:
            dp_comm = data_parallel_comm(stage_psi, strategy).time(ranks, link) * (1 - dp_overlap)
    layers = model.layers // pp
    cp_exposed, cp_hidden = cp_exposed_seconds(model, cluster, par.tp, cp, kind, efficiency)
    cp_comm, cp_hidden = cp_exposed * layers * m, cp_hidden * layers * m
    ep_comm = ep_step_seconds(model, cluster, par.tp, cp, ep) * layers * m
    return Plan(
        par.dp,
        par.tp,
        pp,
        par.zero,
        m,
        par.recompute,
        mem,
        fits,
        compute,
        bubble,
        tp_comm,
        pp_comm,
        dp_comm,
        tokens,
        flops,
        n,
        cluster.flops,
        cp,
        ep,
        cp_comm,
        ep_comm,
        cp_hidden,
        attention,
    )


def plan_table(plans, tokens: float | None = None, limit: int | None = 12) -> str:
    """A plain-text table of plans (fastest first)."""
    rows = list(plans)[: limit or None]
    five = any(pl.cp > 1 or pl.ep > 1 for pl in rows)  # CP and EP columns only when used
    w = 17 if five else 13
    recompute, compute = rjust(_("recompute"), 9), rjust(_("compute"), 8)
    bubble, step, days = rjust(_("bubble"), 7), rjust(_("step s"), 7), rjust(_("days"), 6)
    head = (
        f"{'dp x tp x pp' + (' x cp' if five else ''):>{w}} {'ZeRO':>4} {'m':>4} "
        f"{recompute} {'GiB/GPU':>8} "
        f"{compute} {bubble} {'TP':>6} {'PP':>6} {'DP':>6} "
        + (f"{'CP':>6} {'EP':>6} " if five else "")
        + f"{step} {'MFU':>5}"
    )
    if tokens:
        head += f" {days}"
    lines = [head]
    for pl in rows:
        line = (
            f"{pl.layout:>{w}} {pl.zero:>4} {pl.micro_batches:>4} {pl.recompute:>9} "
            f"{pl.memory_bytes / GIB:>8.1f} {pl.compute:>8.2f} {pl.bubble:>7.2f} "
            f"{pl.tp_comm:>6.2f} {pl.pp_comm:>6.3f} {pl.dp_comm:>6.2f} "
            + (f"{pl.cp_comm:>6.2f} {pl.ep_comm:>6.2f} " if five else "")
            + f"{pl.step_time:>7.2f} {pl.mfu:>5.1%}"
        )
        if tokens:
            line += f" {pl.days(tokens):>6.1f}"
        if not pl.fits:
            line += _("  (does not fit)")
        lines.append(line)
    return "\n".join(lines)
