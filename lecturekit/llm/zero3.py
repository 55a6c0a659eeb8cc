"""What limits ZeRO-3 (FSDP) used alone: communication, the batch, and the gathered layer.

ZeRO-3 shards parameters, gradients and optimizer states over the ``N_d`` data-parallel ranks,
so its *model states* per GPU shrink as ``(2 + 2 + K) Psi / N_d`` (chapter 10's table). Memory is
then rarely what stops it. Three other things do:

1. **Communication.** Every step each rank all-gathers the parameters for the forward pass and
   again for the backward pass, and reduce-scatters the gradients: ``3 Psi`` elements, in 16 bits
   ``3 Psi x 2`` bytes, sent by *every* GPU (:func:`lecturekit.llm.comm.data_parallel_comm`).
   That does not shrink with ``N_d``, while the compute per GPU does (each GPU runs
   ``batch / N_d`` sequences): beyond some ``N_d`` the step is communication-bound, however well
   the transfers overlap with compute.
2. **The batch.** Data parallelism splits the mini-batch; with ``batch`` sequences at most
   ``batch`` ranks get one each (the lecture's GPT-3 step has 128).
3. **Working memory.** To compute a layer a rank must hold that layer's *whole* parameters
   (gathered), and with prefetching (DeepSpeed, FSDP) also the next layer's while the current
   one computes: twice; in the backward pass also the layer's whole gradient before it is
   reduce-scattered (:func:`gathered_layer_bytes`).

:func:`zero3_limits` puts the three side by side for a model, ``N_d`` and a link.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import validate
from ..errors import ConfigError
from ..language import _
from . import comm, hardware
from .config import PRECISIONS, ModelConfig, ParallelConfig, Precision, preset
from .memory import memory_report
from .params import layer_parameters, parameter_count

__all__ = ["Zero3Limits", "gathered_layer_bytes", "zero3_limits"]


def gathered_layer_bytes(
    model: ModelConfig | str,
    precision: Precision | None = None,
    prefetch: bool = True,
    tp: int = 1,
) -> dict[str, int]:
    """ZeRO-3's working memory for gathered layers on one GPU, in bytes (beyond its shards).

    - ``layer_parameters``: parameters of one transformer layer (per tensor-parallel rank);
    - ``forward``: the gathered 16-bit weights of the layer being computed, and with
      ``prefetch`` those of the next layer being gathered meanwhile: ``(1 + prefetch) P_layer x 2``;
    - ``backward``: the same plus the layer's full 16-bit gradient before its reduce-scatter;
    - ``peak``: the larger of the two.
    """
    model = preset(model)
    precision = precision or PRECISIONS["lecture"]
    if not isinstance(prefetch, bool):
        raise ConfigError(
            _("gathered_layer_bytes: prefetch must be True or False, got {prefetch!r}").format(
                prefetch=prefetch
            )
        )
    validate.integer(tp, "tp", 1, 1024)
    n = sum(part.per_gpu(tp) for part in layer_parameters(model).values())
    weights = (2 if prefetch else 1) * n * precision.param_bytes
    backward = weights + n * precision.grad_bytes
    return {
        "layer_parameters": n,
        "forward": weights,
        "backward": backward,
        "peak": max(weights, backward),
    }


@dataclass(frozen=True)
class Zero3Limits:
    """ZeRO-3 alone on ``dp`` GPUs: memory, communication and compute per GPU per step."""

    model: str
    dp: int
    batch: int  #: sequences per step
    parameters: int  #: Psi
    comm_bytes_per_gpu: float  #: 3 Psi x 2 bytes (ring all-gather x 2 + reduce-scatter)
    comm_seconds: float  #: those bytes over the link, alpha-beta model
    compute_seconds: float  #: 6 Psi (8 Psi with recomputation) x tokens per GPU / achieved FLOP/s
    model_states_bytes: int  #: the sharded parameters, gradients and optimizer states
    activation_bytes: int  #: one GPU's activations (its batch / dp sequences)
    gathered_bytes: int  #: the gathered-layer working memory (with prefetch)
    gpu_memory_bytes: int

    @property
    def max_dp(self) -> int:
        """Data parallelism cannot go beyond one sequence per GPU."""
        return self.batch

    @property
    def total_bytes(self) -> int:
        return self.model_states_bytes + self.activation_bytes + self.gathered_bytes

    @property
    def fits(self) -> bool:
        return self.total_bytes <= self.gpu_memory_bytes

    @property
    def comm_over_compute(self) -> float:
        """> 1: the step is communication-bound even with perfect overlap."""
        return self.comm_seconds / self.compute_seconds

    @property
    def step_seconds(self) -> float:
        """At best (perfect overlap) the slower of the two."""
        return max(self.comm_seconds, self.compute_seconds)


def zero3_limits(
    model: ModelConfig | str = "gpt3",
    dp: int = 64,
    link: comm.Link | None = None,
    utilisation: float = 0.5,
    gpu: str = "A100-80GB",
    recompute: str = "full",
    prefetch: bool = True,
) -> Zero3Limits:
    """ZeRO-3 alone (no tensor or pipeline parallelism) on ``dp`` GPUs.

    ``link``: each GPU's network link (default 10 us, 25 GB/s: one InfiniBand HDR port per GPU);
    ``utilisation``: the fraction of the GPU's dense 16-bit peak that the compute achieves;
    ``recompute``: the activation recomputation (``"full"`` also makes the compute 8 Psi per
    token instead of 6 Psi: the forward pass runs twice).
    """
    model = preset(model)
    validate.integer(dp, "dp", 1, 2**20)
    validate.number(utilisation, "utilisation", above=0, maximum=1)
    if dp > model.batch:
        raise ConfigError(
            _(
                "dp: {dp} data-parallel ranks for a batch of {batch} sequences; data "
                "parallelism splits the batch, so dp <= {batch}"
            ).format(dp=dp, batch=model.batch)
        )
    link = link or comm.Link.from_bandwidth(10e-6, 25e9)
    g = hardware.gpu(gpu)
    psi = parameter_count(model)
    plan = comm.data_parallel_comm(psi, "zero3")
    comm_bytes = plan.bytes_per_rank(dp)
    comm_s = plan.time(dp, link)
    tokens_per_gpu = model.seq * model.batch / dp
    flops = (8 if recompute == "full" else 6) * psi * tokens_per_gpu
    compute_s = flops / (g.peak_fp16_flops * utilisation)
    rep = memory_report(model, ParallelConfig(dp=dp, zero=3, recompute=recompute))
    gathered = gathered_layer_bytes(model, rep.precision, prefetch)["peak"]
    return Zero3Limits(
        model=model.name,
        dp=dp,
        batch=model.batch,
        parameters=psi,
        comm_bytes_per_gpu=comm_bytes,
        comm_seconds=comm_s,
        compute_seconds=compute_s,
        model_states_bytes=rep.parameters + rep.gradients + rep.optimizer,
        activation_bytes=rep.activations,
        gathered_bytes=gathered,
        gpu_memory_bytes=g.memory_bytes,
    )
