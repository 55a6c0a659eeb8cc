"""What each memory-saving technique costs: extra FLOPs, communication, pipeline bubble.

Chapter 08 shows what each technique *saves*; this module says what it *costs*, from the same
configuration (a :class:`~lecturekit.llm.config.ParallelConfig`) and the model's shape:

- **recomputation** (Korthikanti et al. 2022): a layer's forward pass takes ``24 bsh^2 + 4 bs^2h``
  FLOPs and its backward twice that. *Full* recomputation runs the forward again: ``+1/3`` of
  the step's FLOPs (33%). *Selective* recomputation redoes only the attention scores (``Q K^T``
  and the product with ``V``, ``4 bs^2h``): ``s / (3 (6h + s))`` of the step, under 1% for
  GPT-3 at ``s = 2048`` (the paper measures a few percent of time: the recomputed softmax and
  dropout are memory-bound, not FLOP-bound).
- **flash attention**: recomputes the scores in its backward pass too, but reads and writes far
  fewer bytes; it is faster, not slower, so no cost is counted.
- **data parallelism / ZeRO** (communication per GPU per step, 16-bit): DDP, ZeRO-1 and ZeRO-2
  ``2 Psi_gpu`` elements, ZeRO-3 ``3 Psi_gpu`` (:func:`lecturekit.llm.comm.data_parallel_comm`),
  off the critical path when overlapped with the backward pass.
- **tensor parallelism**: 4 all-reduces of ``b s h`` per layer and micro-batch
  (:func:`lecturekit.llm.comm.tensor_parallel_comm`), on the critical path; sequence parallelism
  replaces each by a reduce-scatter plus an all-gather: the same bytes, no extra cost.
- **pipeline parallelism**: the 1F1B bubble ``(p - 1)/(m + p - 1)`` of the step, computed by the
  pipeline simulator (:func:`lecturekit.llm.pipeline_parallel.pipeline_schedule`): that fraction
  of the GPUs' time is idle, so ``N`` GPUs do the work of ``N (1 - bubble)``.
- **CPU offload** (ZeRO-Offload): the 16-bit gradients go to the CPU and the 16-bit weights come
  back over PCIe every step (``4 B`` per parameter of the GPU's shard), and the update runs on
  the CPU.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..language import _
from .config import ModelConfig, ParallelConfig, preset
from .params import stage_parameters

__all__ = ["StepCost", "recompute_overhead", "technique_cost"]


def recompute_overhead(model: ModelConfig | str, recompute: str) -> float:
    """Extra FLOPs of recomputation as a fraction of a step without it (forward + backward)."""
    model = preset(model)
    s, h = model.seq, model.hidden
    if recompute == "full":
        return 1 / 3
    if recompute == "selective":
        return s / (3 * (6 * h + s))
    return 0.0


@dataclass(frozen=True)
class StepCost:
    """What one configuration costs compared with the one before it (both on ``model``)."""

    flops: float = 0.0  #: extra compute FLOPs, fraction of a step without recomputation
    bubble: float = 0.0  #: pipeline bubble, fraction of the step's time
    comm_bytes: float = 0.0  #: bytes each GPU sends per step for this technique
    pcie_bytes: float = 0.0  #: bytes each GPU moves over PCIe per step (offload)
    effective_gpus: float = 0.0  #: world size x (1 - bubble)
    notes: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "; ".join(self.notes) if self.notes else _("no extra cost")


def technique_cost(
    model: ModelConfig | str, cur: ParallelConfig, prev: ParallelConfig | None = None
) -> StepCost:
    """The cost of going from ``prev`` (None: nothing) to ``cur``, in words and numbers."""
    from . import comm
    from .pipeline_parallel import pipeline_schedule

    model = preset(model)
    prev = prev or ParallelConfig()
    notes: list[str] = []
    flops = recompute_overhead(model, cur.recompute)
    bubble = 0.0
    comm_bytes = 0.0
    pcie = 0.0
    psi_gpu = stage_parameters(model, cur, 0)
    if cur.recompute != prev.recompute:
        if cur.recompute == "full":
            notes.append(_("+{flops:.0%} FLOPs (the forward pass runs twice)").format(flops=flops))
        elif cur.recompute == "selective":
            notes.append(_("+{flops:.1%} FLOPs (attention scores recomputed)").format(flops=flops))
    if cur.flash and not prev.flash:
        gone = cur.recompute != "none"
        notes.append(
            _("no extra cost: flash attention is faster")
            + (_("; it saves no memory once recomputation has dropped the scores") if gone else "")
        )
    if cur.dp > 1 and (cur.dp, cur.zero) != (prev.dp, prev.zero):
        strategy = {0: "ddp", 1: "zero1", 2: "zero2", 3: "zero3"}[cur.zero]
        plan = comm.data_parallel_comm(psi_gpu, strategy)
        comm_bytes += plan.bytes_per_rank(cur.dp)
        what = {0: "all-reduce", 1: _("as DDP"), 2: _("as DDP"), 3: "1.5x DDP"}[cur.zero]
        notes.append(
            _("{value:.0f}Ψ ({what}): {value2:,.0f} GiB sent per GPU per step").format(
                value=plan.elements_per_rank() / psi_gpu, what=what, value2=comm_bytes / 2**30
            )
        )
    if cur.tp > 1 and (cur.tp, cur.sp) != (prev.tp, prev.sp):
        mb = cur.micro_batch_size(model)
        layer = comm.tensor_parallel_comm(mb, model.seq, model.hidden, sequence_parallel=cur.sp)
        per_step = layer.bytes_per_rank(cur.tp) * (model.layers // cur.pp) * cur.micro_batches
        comm_bytes += per_step
        if cur.sp and prev.tp == cur.tp:
            notes.append(
                _("same communication as tensor parallelism (reduce-scatter + all-gather)")
            )
        else:
            what = _("4 reduce-scatters + 4 all-gathers") if cur.sp else _("4 all-reduces")
            notes.append(
                _(
                    "{what} per layer on the critical path: {value:,.0f} GiB sent per GPU per step"
                ).format(what=what, value=per_step / 2**30)
            )
    world = cur.world_size
    if cur.pp > 1:
        run = pipeline_schedule("1f1b", cur.pp, cur.micro_batches)
        bubble = run.bubble_fraction
        if (cur.pp, cur.micro_batches) != (prev.pp, prev.micro_batches):
            notes.append(
                _(
                    "1F1B bubble {bubble:.0%} = (p-1)/(m+p-1) = {value}/{value2}: the "
                    "{world:,} GPUs do the work of {value3:,.0f}"
                ).format(
                    bubble=bubble,
                    value=cur.pp - 1,
                    value2=cur.micro_batches + cur.pp - 1,
                    world=world,
                    value3=world * (1 - bubble),
                )
            )
    if cur.offload and not prev.offload:
        shard = psi_gpu if cur.zero == 0 else -(-psi_gpu // cur.dp)
        pcie = 4 * shard
        notes.append(
            _(
                "gradients out, weights back over PCIe: {value:,.2f} GiB per GPU per "
                "step; the Adam update runs on the CPU"
            ).format(value=pcie / 2**30)
        )
    return StepCost(flops, bubble, comm_bytes, pcie, world * (1 - bubble), notes)
