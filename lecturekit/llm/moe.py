"""Expert parallelism: a mixture-of-experts model with its experts sharded over ``ep`` devices.

In a mixture-of-experts (MoE) layer (notes 002: MoE and All2All) a router sends each token to
``top_k`` of ``experts`` FFNs. The parameters grow with ``experts``, the work per token only with
``top_k``: Mixtral 8x7B has 46.7B parameters of which 12.9B are *active* for a token
(Jiang et al. 2024; counted by :func:`lecturekit.llm.params.parameter_count` and
:func:`~lecturekit.llm.params.active_parameter_count`, reused here).

**Expert parallelism** puts ``experts / ep`` experts on each of ``ep`` devices; attention,
norms, router and embeddings are replicated (or split by tensor parallelism, ``tp``). So the
model states (parameters, gradients, optimizer states: ``2 + 2 + 12`` bytes per parameter for
mixed-precision Adam, the lecture's 16 Phi) shrink only in the expert part. Each layer pays two
all-to-alls in the forward (*dispatch*: each token to the devices of its experts; *combine*:
the expert outputs back) and two in the backward. With ``T`` tokens on a device and routing
spread evenly over the experts, a device sends ``T top_k h (ep-1)/ep`` elements per
all-to-all (the fraction ``(ep-1)/ep`` of its routed copies lives elsewhere). Under even routing
each device's experts process ``T top_k`` token copies, as without expert parallelism, so the
activations per device do not change (:func:`lecturekit.llm.activations.layer_activation_bytes`
already counts the routed copies); the capacity factor of real MoE training, which pads or
drops tokens when routing is uneven, multiplies the expert part.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ConfigError
from ..language import _
from .config import ModelConfig, preset
from .params import active_parameter_count, layer_parameters, parameter_count

__all__ = ["MoEDevice", "all_to_all_elements", "expert_parallel", "fsdp_working_bytes"]


def _pos(name: str, value, low: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ConfigError(
            _("{name}: must be an integer >= {low}, got {value!r}").format(
                name=name, low=low, value=value
            )
        )
    return value


@dataclass(frozen=True)
class MoEDevice:
    """One device of an expert-parallel group: its parameters and per-layer traffic."""

    model: ModelConfig
    ep: int
    tp: int
    total_parameters: int
    active_parameters: int
    expert_parameters: int  # all experts of all layers
    local_parameters: int  # on this device
    all_to_all_bytes: int  # one all-to-all of one layer, sent by this device
    bytes_per_parameter: int = 16

    @property
    def model_state_bytes(self) -> int:
        """Parameters, gradients and Adam states on this device (16 bytes a parameter)."""
        return self.local_parameters * self.bytes_per_parameter

    @property
    def layer_step_bytes(self) -> int:
        """All-to-all bytes per layer and micro-batch: dispatch and combine, forward and
        backward."""
        return 4 * self.all_to_all_bytes


def all_to_all_elements(tokens: int, hidden: int, top_k: int, ep: int) -> int:
    """Elements a device sends in one dispatch (or combine) all-to-all: its ``tokens`` routed
    to ``top_k`` experts each, the share ``(ep-1)/ep`` of them to other devices."""
    return tokens * top_k * hidden * (ep - 1) // ep


def expert_parallel(
    model: ModelConfig | str = "mixtral-8x7b",
    ep: int = 8,
    tp: int = 1,
    tokens: int | None = None,
    dtype_bytes: int = 2,
) -> MoEDevice:
    """``model``'s experts over ``ep`` devices (``ep`` must divide ``experts``), everything
    else over ``tp``; ``tokens`` on the device per micro-batch (default ``seq x batch``)."""
    if isinstance(model, str):
        model = preset(model)
    ep = _pos(_("ep (expert-parallel devices)"), ep)
    tp = _pos("tp", tp)
    if model.experts % ep:
        raise ConfigError(
            _(
                "ep: {ep} does not divide the {experts} experts of {name}; each device "
                "holds experts/ep whole experts"
            ).format(ep=ep, experts=model.experts, name=model.name)
        )
    tokens = model.seq * model.batch if tokens is None else _pos("tokens", tokens)
    total = parameter_count(model)
    experts = model.layers * layer_parameters(model)["mlp"].total
    local = (total - experts) // tp + experts // (ep * tp)
    a2a = all_to_all_elements(tokens, model.hidden, model.top_k, ep) * dtype_bytes
    return MoEDevice(model, ep, tp, total, active_parameter_count(model), experts, local, a2a)


def fsdp_working_bytes(
    model: ModelConfig | str, dp: int, prefetch: bool = True, bytes_per_parameter: int = 16
) -> dict[str, int]:
    """FSDP / ZeRO-3 memory for model states on one of ``dp`` devices: the sharded states
    (``16 Phi / dp``) plus the *working* copy, the one layer whose 16-bit parameters are
    gathered for its forward or backward (``2 x`` its parameters in bytes) and, with
    ``prefetch``, the next layer's gathered while this one computes (two layers at once), and
    the layer's full 16-bit gradients before they are reduce-scattered. Returns ``sharded``,
    ``gathered``, ``gradients`` and ``total`` bytes."""
    if isinstance(model, str):
        model = preset(model)
    dp = _pos("dp", dp)
    phi = parameter_count(model)
    layer = sum(part.total for part in layer_parameters(model).values())
    sharded = -(-phi * bytes_per_parameter // dp)
    gathered = 2 * layer * (2 if prefetch else 1)
    grads = 2 * layer
    return {
        "sharded": sharded,
        "gathered": gathered,
        "gradients": grads,
        "total": sharded + gathered + grads,
    }
