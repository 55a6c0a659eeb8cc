"""Counting parameters: the lecture's closed form and a component-by-component count.

The lecture (after Megatron-LM) counts a GPT as ``L(12h^2 + 13h) + hv + h(s+1)``: per layer
4h^2 + 4h for attention (Q, K, V, output projections and their biases), 8h^2 + 5h for the MLP
(h -> 4h -> h with biases) and 4h for two LayerNorms; then the word embeddings hv (shared with the
output layer), learned position embeddings hs, and h for the final LayerNorm (a real GPT-2 has 2h
there: weight and bias, see ``ModelConfig.final_norm_bias``).

:func:`parameter_breakdown` counts the same thing one component at a time, so it also covers the
variants (GQA, SwiGLU, MoE, untied embeddings, rotary positions, RMSNorm, no biases). It splits
every component into the part tensor parallelism shards (weight matrices, column-parallel biases,
the vocabulary) and the part it replicates (norms, row-parallel biases, position embeddings),
which is what a GPU actually holds.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ConfigError
from ..language import _
from .config import ModelConfig, ParallelConfig

__all__ = [
    "Part",
    "active_parameter_count",
    "lecture_parameter_count",
    "layer_parameters",
    "parameter_breakdown",
    "padded_vocab",
    "parameter_count",
    "stage_parameters",
]


def lecture_parameter_count(model: ModelConfig) -> int:
    """The lecture's formula Psi = L(12h^2 + 13h) + hv + h(s+1), exact integer.

    Only describes the lecture's GPT (``model.is_lecture_gpt``); for other models it is still the
    formula's value, not the model's count.
    """
    h, s, L, v = model.hidden, model.seq, model.layers, model.vocab
    return L * (12 * h * h + 13 * h) + h * v + h * (s + 1)


@dataclass(frozen=True)
class Part:
    """A parameter count split by what tensor parallelism does to it."""

    sharded: int  #: divided over the tp GPUs
    replicated: int  #: copied on every tp GPU

    @property
    def total(self) -> int:
        return self.sharded + self.replicated

    def per_gpu(self, tp: int) -> int:
        return -(-self.sharded // tp) + self.replicated

    def __add__(self, other: Part) -> Part:
        return Part(self.sharded + other.sharded, self.replicated + other.replicated)

    def __mul__(self, k: int) -> Part:
        return Part(self.sharded * k, self.replicated * k)


def _norm(model: ModelConfig, bias: bool = True) -> int:
    return 2 * model.hidden if (model.norm == "layernorm" and bias) else model.hidden


def layer_parameters(model: ModelConfig) -> dict[str, Part]:
    """One transformer layer: ``attention``, ``mlp`` (all experts), ``router``, ``norms``."""
    h, hk, f, bias = model.hidden, model.kv_hidden, model.ffn_size, int(model.bias)
    # Q and O are h x h, K and V are h x kv_hidden; Q, K, V biases are column-parallel (sharded),
    # the output projection's bias is added after the all-reduce (replicated).
    attention = Part(2 * h * h + 2 * h * hk + bias * (h + 2 * hk), bias * h)
    if model.mlp == "gelu":  # h -> f -> h
        expert = Part(2 * h * f + bias * f, bias * h)
    else:  # SwiGLU: gate and up (h -> f each), down (f -> h)
        expert = Part(3 * h * f + bias * 2 * f, bias * h)
    router = Part(0, h * model.experts if model.experts > 1 else 0)
    return {
        "attention": attention,
        "mlp": expert * model.experts,
        "router": router,
        "norms": Part(0, 2 * _norm(model)),
    }


def _embedding_parts(model: ModelConfig) -> dict[str, Part]:
    h = model.hidden
    return {
        "embedding": Part(model.vocab * h, 0),  # vocabulary-parallel under tp
        "position": Part(0, model.seq * h if model.position == "learned" else 0),
        "final_norm": Part(0, _norm(model, bias=model.final_norm_bias)),
        "lm_head": Part(0 if model.tied_embeddings else model.vocab * h, 0),
    }


def parameter_breakdown(model: ModelConfig) -> dict[str, int]:
    """Parameters per component for the whole model (layers summed), e.g. ``{"mlp": ...}``."""
    per_layer = layer_parameters(model)
    out = {k: v.total * model.layers for k, v in per_layer.items()}
    out.update({k: v.total for k, v in _embedding_parts(model).items()})
    return out


def parameter_count(model: ModelConfig) -> int:
    """Total parameters, component by component (equals the lecture's formula for its GPT)."""
    return sum(parameter_breakdown(model).values())


def active_parameter_count(model: ModelConfig) -> int:
    """Parameters one token uses: for a mixture of experts only ``top_k`` experts' FFNs."""
    total = parameter_count(model)
    if model.experts == 1:
        return total
    per_expert = layer_parameters(model)["mlp"].total // model.experts
    return total - model.layers * per_expert * (model.experts - model.top_k)


def padded_vocab(vocab: int, tp: int = 1, divisible_by: int = 128) -> int:
    """The vocabulary size Megatron-LM trains with: ``vocab`` rounded up to a multiple of
    ``divisible_by * tp`` (``--make-vocab-size-divisible-by``, default 128; Megatron's
    ``_vocab_size_with_padding``), so that every tensor-parallel rank gets the same number of
    rows and that number is a multiple of ``divisible_by``. GPT-3's 50,257 becomes 50,304 with
    ``tp = 1`` and 51,200 with ``tp = 8`` (6,400 rows per GPU, not ceil(50,257/8) = 6,283)."""
    for name, x in (("vocab", vocab), ("tp", tp), ("divisible_by", divisible_by)):
        if isinstance(x, bool) or not isinstance(x, int) or x < 1:
            raise ConfigError(
                _("padded_vocab: {name} must be an integer >= 1, got {x!r}").format(name=name, x=x)
            )
    multiple = divisible_by * tp
    return -(-vocab // multiple) * multiple


def stage_parameters(model: ModelConfig, parallel: ParallelConfig, stage: int = 0) -> int:
    """Parameters one GPU of pipeline ``stage`` (0-based) holds before ZeRO.

    Each stage has ``layers/pp`` layers, each sharded over ``tp`` GPUs; the first stage also holds
    the embeddings, the last the final norm and output layer. With tied embeddings and ``pp > 1``
    the last stage keeps its own copy of the word embeddings (as Megatron-LM does). Under tensor
    parallelism the vocabulary is padded as Megatron-LM pads it (:func:`padded_vocab`: up to a
    multiple of ``128 * tp``) and split into ``padded / tp`` rows per GPU; with ``tp = 1`` the
    model's own ``v`` is counted, as the lecture's formula does.
    """
    parallel.check(model)
    t, p = parallel.tp, parallel.pp
    layer = sum(part.per_gpu(t) for part in layer_parameters(model).values())
    n = layer * (model.layers // p)
    emb = _embedding_parts(model)
    vocab = padded_vocab(model.vocab, t) if t > 1 else model.vocab
    vocab_rows = vocab // t * model.hidden  # one GPU's rows of a v x h matrix
    if stage == 0:
        n += vocab_rows + emb["position"].per_gpu(t)
    if stage == p - 1:
        n += emb["final_norm"].per_gpu(t)
        if not model.tied_embeddings or p > 1:
            n += vocab_rows  # the output layer, or the last stage's copy of the tied one
    return n
