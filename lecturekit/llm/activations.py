"""Activations: the tensors the forward pass saves for the backward pass.

After Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer Models"
(section 4): with 16-bit activations and 1-byte dropout masks, one GPT layer saves

    s*b*h*(34 + 5*a*s/h) bytes
    = attention 11sbh + 5as^2b  (QKV input 2, Q and K 4, softmax output 2as^2b, its dropout
                                 mask as^2b, dropout output 2as^2b, V 2, projection input 2,
                                 dropout mask 1)
    + MLP 19sbh                 (fc1 input 2, GeLU input 8, GeLU output 8, dropout mask 1)
    + two LayerNorm inputs 4sbh

Around the layers: the embedding dropout mask sbh, the final LayerNorm input 2sbh, the output
layer's input 2sbh and fp32 logits for the cross-entropy 4sbv: 5sbh + 4sbv in all.

:func:`layer_saved_tensors` lists those tensors by name and size, for any
:class:`~lecturekit.llm.config.ModelConfig` variant and strategy; :func:`korthikanti_layer_bytes`
is the paper's closed form for the GPT layer (a cross-check, see the tests). Strategies:

- tensor parallel t: tensors inside the parallel region (Q, K, V, attention scores, the MLP's
  4h-wide tensors, the projection inputs) are split t ways: ``sbh(10 + 24/t + 5as/(ht))``.
- sequence parallel: also splits the 10sbh outside that region: ``sbh(34/t + 5as/(ht))``.
- selective recomputation: recompute softmax/dropout/attention-over-V, dropping ``5as^2b``.
- full recomputation: keep only each layer's input, ``2sbh`` (``/t`` with sequence parallel).
  (During backward one layer's activations are rebuilt at a time: a transient we do not add.)
- flash attention: never stores the s x s matrices; keeps Q, K, V, its output and the softmax
  log-sum-exp (fp32, one per head and token: ``4abs`` bytes).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ConfigError
from ..language import _
from .config import PRECISIONS, ModelConfig, ParallelConfig, Precision

__all__ = [
    "SavedTensor",
    "korthikanti_layer_bytes",
    "layer_activation_bytes",
    "layer_saved_tensors",
    "lecture_activation_bytes",
    "input_saved_tensors",
    "output_saved_tensors",
    "weight_pass_bytes",
]

MASK_BYTES = 1  #: a dropout mask element (bool)
LOGIT_BYTES = 4  #: logits are upcast to fp32 for the cross-entropy


@dataclass(frozen=True)
class SavedTensor:
    """One tensor saved for backward: its name and its bytes on one GPU."""

    name: str
    bytes: int


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


class _Saver:
    def __init__(self, tp: int, sp: bool):
        self.tp, self.sp = tp, sp
        self.items: list[SavedTensor] = []

    def inside(self, name: str, nbytes: int) -> None:
        """A tensor inside the tensor-parallel region: split over tp."""
        self.items.append(SavedTensor(name, _ceil_div(nbytes, self.tp)))

    def outside(self, name: str, nbytes: int) -> None:
        """Outside the region: replicated over tp unless sequence parallel splits it."""
        self.items.append(SavedTensor(name, _ceil_div(nbytes, self.tp if self.sp else 1)))


def _defaults(parallel, precision, micro_batch, model):
    parallel = parallel or ParallelConfig()
    precision = precision or PRECISIONS["lecture"]
    b = model.batch if micro_batch is None else micro_batch
    return parallel, precision, b


def layer_saved_tensors(
    model: ModelConfig,
    parallel: ParallelConfig | None = None,
    precision: Precision | None = None,
    micro_batch: int | None = None,
) -> list[SavedTensor]:
    """The tensors one transformer layer saves for backward on one GPU, for one micro-batch.

    ``micro_batch`` sequences (default: the model's whole ``batch``). Storage shared by two
    uses (e.g. the LayerNorm output that is also the QKV input) is listed once.
    """
    parallel, precision, b = _defaults(parallel, precision, micro_batch, model)
    s, h, a, e = model.seq, model.hidden, model.heads, precision.activation_bytes
    tok = s * b  # tokens in the micro-batch
    save = _Saver(parallel.tp, parallel.sp)
    if parallel.recompute == "full":
        save.outside(_("layer input (the rest is recomputed)"), e * tok * h)
        return save.items

    # attention block
    save.outside(_("LayerNorm 1 input"), e * tok * h)
    save.outside(_("QKV projection input (LayerNorm 1 output)"), e * tok * h)
    save.inside("Q", e * tok * h)
    save.inside("K", e * tok * model.kv_hidden)
    save.inside("V", e * tok * model.kv_hidden)
    if parallel.recompute == "selective":
        pass  # softmax, dropout and attention-over-V are recomputed from Q, K, V
    elif parallel.flash:
        save.inside(_("softmax log-sum-exp (fp32)"), 4 * a * tok)
    else:
        save.inside(_("softmax output"), e * a * s * tok)
        if model.dropout:
            save.inside(_("attention dropout mask"), MASK_BYTES * a * s * tok)
            save.inside(_("attention dropout output"), e * a * s * tok)
    save.inside(_("output projection input"), e * tok * h)
    if model.dropout:
        save.outside(_("attention output dropout mask"), MASK_BYTES * tok * h)

    # MLP block (a mixture of experts routes each token to top_k experts)
    save.outside(_("LayerNorm 2 input"), e * tok * h)
    save.outside(_("MLP input (LayerNorm 2 output)"), e * tok * h)
    k, f = model.top_k, model.ffn_size
    if model.experts > 1:
        save.outside(_("router probabilities (fp32)"), 4 * tok * model.experts)
        save.outside(_("tokens dispatched to experts"), e * k * tok * h)
        save.outside(_("expert outputs (weighted by the router)"), e * k * tok * h)
    if model.mlp == "gelu":
        save.inside(_("fc1 output (GeLU input)"), e * k * tok * f)
        save.inside(_("GeLU output (fc2 input)"), e * k * tok * f)
    else:
        save.inside(_("gate projection output (SiLU input)"), e * k * tok * f)
        save.inside(_("SiLU output"), e * k * tok * f)
        save.inside(_("up projection output"), e * k * tok * f)
        save.inside(_("SiLU(gate) * up (down projection input)"), e * k * tok * f)
    if model.dropout:
        save.outside(_("MLP dropout mask"), MASK_BYTES * tok * h)
    return save.items


def input_saved_tensors(model, parallel=None, precision=None, micro_batch=None):
    """What the embedding stage saves (first pipeline stage): the embedding dropout mask."""
    parallel, precision, b = _defaults(parallel, precision, micro_batch, model)
    save = _Saver(parallel.tp, parallel.sp)
    if model.dropout:
        save.outside(_("embedding dropout mask"), MASK_BYTES * model.seq * b * model.hidden)
    return save.items


def output_saved_tensors(model, parallel=None, precision=None, micro_batch=None):
    """What the output stage saves (last pipeline stage): final norm, output layer, logits."""
    parallel, precision, b = _defaults(parallel, precision, micro_batch, model)
    e, tok, h = precision.activation_bytes, model.seq * b, model.hidden
    save = _Saver(parallel.tp, parallel.sp)
    save.outside(_("final norm input"), e * tok * h)
    save.outside(_("output layer input (final norm output)"), e * tok * h)
    save.inside(_("logits (fp32, for the cross-entropy)"), LOGIT_BYTES * tok * model.vocab)
    return save.items


def layer_activation_bytes(model, parallel=None, precision=None, micro_batch=None) -> int:
    """Bytes one layer saves on one GPU for one micro-batch (sum of :func:`layer_saved_tensors`)."""
    return sum(t.bytes for t in layer_saved_tensors(model, parallel, precision, micro_batch))


def korthikanti_layer_bytes(
    s: int, b: int, h: int, a: int, t: int = 1, sp: bool = False, recompute: str = "none"
) -> int:
    """The paper's closed forms for one GPT layer, 16-bit activations (Korthikanti et al., Table 2).

    ====================  ==============================
    none                  sbh(10 + 24/t + 5as/(ht))
    sequence parallel     sbh(34/t + 5as/(ht))
    selective             sbh(10 + 24/t), with sp sbh(34/t)
    full                  2sbh, with sp 2sbh/t
    ====================  ==============================
    """
    sbh = s * b * h
    replicated = 10 * sbh if not sp else 10 * sbh // t
    attention = 5 * a * s * s * b // t
    if recompute == "full":
        return 2 * sbh // (t if sp else 1)
    if recompute == "selective":
        attention = 0
    return replicated + 24 * sbh // t + attention


def weight_pass_bytes(s: int, b: int, h: int) -> int:
    """``M_W``: what one GPT layer keeps for its weight-gradient pass W after its B pass, in
    bytes (16-bit tensors, no tensor parallelism): ``32 sbh``.

    The zero-bubble paper (Qi et al. 2023, Table 1) splits the backward into B (input
    gradients) and W (weight gradients). B frees everything except what ``dW = dY^T X`` needs
    for the four linear layers: their inputs ``X`` (QKV ``h``, attention output projection ``h``,
    fc1 ``h``, fc2 ``4h`` per token: ``7h``) and the gradients of their outputs ``dY`` (QKV
    ``3h``, projection ``h``, fc1 ``4h``, fc2 ``h``: ``9h``), 2 bytes each: ``2 (7 + 9) sbh``.
    Compare ``M_B = sbh (34 + 5as/h)`` (:func:`korthikanti_layer_bytes`): W keeps less than a
    forward saved, the more so the longer the sequence (the attention scores go at B).
    """
    for name, x in (("s", s), ("b", b), ("h", h)):
        if isinstance(x, bool) or not isinstance(x, int) or x < 1:
            raise ConfigError(
                _("weight_pass_bytes: {name} must be a positive integer, got {x!r}").format(
                    name=name, x=x
                )
            )
    return 32 * s * b * h


def lecture_activation_bytes(model: ModelConfig) -> int:
    """The slide's activations: (L(5as^2 + 34hs) + 5hs + 4sv) x b bytes.

    The slide prints "x 4b", but its own value (32895 for GPT-3) needs "x b": the bracket already
    counts bytes (34hs includes the 2 bytes of each 16-bit number), so a further x 4 would count
    each byte four times (131,583 GiB for GPT-3).
    """
    h, s, L, a, b, v = model.hidden, model.seq, model.layers, model.heads, model.batch, model.vocab
    return (L * (5 * a * s * s + 34 * h * s) + 5 * h * s + 4 * s * v) * b
