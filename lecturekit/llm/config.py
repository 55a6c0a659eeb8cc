"""What is being trained and how: model shape, parallel strategy, number precision.

Three small frozen dataclasses, validated on construction so that every calculator downstream can
trust them; a bad value raises :class:`~lecturekit.errors.ConfigError` naming the field and why.

- :class:`ModelConfig`: the lecture's symbols h, s, L, a, b, v (``hidden``, ``seq``, ``layers``,
  ``heads``, ``batch``, ``vocab``) plus the variants of today's open models: FFN size,
  grouped-query attention (``kv_heads``), SwiGLU, mixture of experts, untied embeddings, rotary
  positions, RMSNorm, no biases, no dropout.
- :class:`ParallelConfig`: data (``dp``), tensor (``tp``), pipeline (``pp``) parallel degrees,
  micro-batches, ZeRO stage, sequence parallel, recomputation, flash attention, CPU offload.
- :class:`Precision`: bytes per parameter for weights, gradients, fp32 master weights and optimizer
  states, and bytes per activation element.

``batch`` (b) is the lecture's mini-batch: all sequences of one optimizer step. Data parallelism
splits it over ``dp`` replicas, each replica splits its share into ``micro_batches``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace

from ..errors import ConfigError
from ..language import _

__all__ = [
    "PRECISIONS",
    "PRESETS",
    "ModelConfig",
    "ParallelConfig",
    "Precision",
    "precision",
    "preset",
]


#: sane maxima: far beyond any real model or cluster, small enough that every figure is computed
#: at once (larger values are refused, with the limit named)
MAXIMA = {
    "hidden": 2**20,
    "seq": 2**24,
    "layers": 100_000,
    "heads": 2**16,
    "batch": 2**24,
    "vocab": 2**24,
    "experts": 2**16,
    "top_k": 2**16,
    "ffn": 2**24,
    "kv_heads": 2**16,
    "dp": 2**20,
    "tp": 2**16,
    "pp": 100_000,
    "micro_batches": 2**24,
}


def _positive_int(owner: str, name: str, value) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ConfigError(
            _("{name}: must be a positive integer, got {value!r} ({owner})").format(
                name=name, value=value, owner=owner
            )
        )
    if value < 1:
        raise ConfigError(
            _("{name}: must be a positive integer, got {value} ({owner})").format(
                name=name, value=value, owner=owner
            )
        )
    if name in MAXIMA and value > MAXIMA[name]:
        shown = (
            f"{value:,}"
            if value < 10**30
            else _("a {n_str}-digit number").format(n_str=len(str(value)))
        )
        raise ConfigError(
            _("{name}: at most {maxima:,} here, got {shown} ({owner})").format(
                name=name, maxima=MAXIMA[name], shown=shown, owner=owner
            )
        )


def _choice(name: str, value, allowed) -> None:
    if value not in allowed:
        raise ConfigError(
            _("{name}: must be one of {join}; got {value!r}").format(
                name=name, join=", ".join(map(str, allowed)), value=value
            )
        )


def _divisors(n: int) -> str:
    root = math.isqrt(n)
    if root > 10**6:  # only reached by direct calls beyond MAXIMA: do not loop for minutes
        return _("(too large to list)")
    small = [d for d in range(1, root + 1) if n % d == 0]
    ds = small + [n // d for d in reversed(small) if d * d != n]
    return ", ".join(map(str, ds)) if len(ds) <= 16 else ", ".join(map(str, ds[:16])) + ", ..."


@dataclass(frozen=True)
class ModelConfig:
    """A decoder-only transformer (GPT family and its descendants).

    The lecture's symbols: ``hidden`` h, ``seq`` s, ``layers`` L, ``heads`` a, ``batch`` b,
    ``vocab`` v. Variants (defaults give the lecture's GPT):

    - ``ffn``: FFN inner size (default 4h).
    - ``kv_heads``: grouped-query attention, key/value heads (default = ``heads``, plain MHA).
    - ``mlp``: ``"gelu"`` (two matrices) or ``"swiglu"`` (gate, up, down: three matrices).
    - ``experts``, ``top_k``: mixture of experts; each token goes to ``top_k`` of ``experts``
      FFNs chosen by a router (``experts=1`` is a dense model).
    - ``tied_embeddings``: output projection shares the input embedding matrix (GPT-2/3).
    - ``position``: ``"learned"`` (an s x h table, GPT) or ``"rotary"`` (no parameters, Llama).
    - ``norm``: ``"layernorm"`` (weight + bias, 2h) or ``"rmsnorm"`` (weight only, h).
    - ``bias``: linear layers have biases (GPT yes, Llama no).
    - ``dropout``: dropout layers exist (their masks are saved for backward).
    - ``final_norm_bias``: whether the final LayerNorm has a bias. The lecture's formula
      ``L(12h^2+13h) + hv + h(s+1)`` counts that last norm as h parameters, a real GPT-2 as 2h;
      the ``gpt3`` preset follows the lecture, ``gpt2-xl`` the real model.
    """

    hidden: int
    seq: int
    layers: int
    heads: int
    batch: int
    vocab: int
    ffn: int | None = None
    kv_heads: int | None = None
    mlp: str = "gelu"
    experts: int = 1
    top_k: int = 1
    tied_embeddings: bool = True
    position: str = "learned"
    norm: str = "layernorm"
    bias: bool = True
    dropout: bool = True
    final_norm_bias: bool = True
    name: str = "custom"

    def __post_init__(self) -> None:
        who = _("model {name!r}").format(name=self.name)
        for f in ("hidden", "seq", "layers", "heads", "batch", "vocab", "experts", "top_k"):
            _positive_int(who, f, getattr(self, f))
        for f in ("ffn", "kv_heads"):
            if getattr(self, f) is not None:
                _positive_int(who, f, getattr(self, f))
        for f in ("tied_embeddings", "bias", "dropout", "final_norm_bias"):
            if not isinstance(getattr(self, f), bool):
                raise ConfigError(
                    _("{f}: must be True or False, got {getattr!r}").format(
                        f=f, getattr=getattr(self, f)
                    )
                )
        _choice("mlp", self.mlp, ("gelu", "swiglu"))
        _choice("position", self.position, ("learned", "rotary"))
        _choice("norm", self.norm, ("layernorm", "rmsnorm"))
        if self.hidden % self.heads:
            raise ConfigError(
                _(
                    "heads: {heads} does not divide hidden ({hidden}); every head needs "
                    "hidden/heads dimensions. Divisors of {hidden}: {divisors}"
                ).format(heads=self.heads, hidden=self.hidden, divisors=_divisors(self.hidden))
            )
        if self.heads % self.n_kv_heads:
            raise ConfigError(
                _(
                    "kv_heads: {n_kv_heads} does not divide heads ({heads}); in "
                    "grouped-query attention each key/value head serves heads/kv_heads "
                    "query heads"
                ).format(n_kv_heads=self.n_kv_heads, heads=self.heads)
            )
        if self.top_k > self.experts:
            raise ConfigError(
                _(
                    "top_k: {top_k} exceeds experts ({experts}); a token cannot be routed "
                    "to more experts than exist"
                ).format(top_k=self.top_k, experts=self.experts)
            )

    # the lecture's one-letter names, for formulas
    h = property(lambda self: self.hidden)
    s = property(lambda self: self.seq)
    L = property(lambda self: self.layers)
    a = property(lambda self: self.heads)
    b = property(lambda self: self.batch)
    v = property(lambda self: self.vocab)

    @property
    def ffn_size(self) -> int:
        """FFN inner size (4h unless given)."""
        return self.ffn if self.ffn is not None else 4 * self.hidden

    @property
    def n_kv_heads(self) -> int:
        return self.kv_heads if self.kv_heads is not None else self.heads

    @property
    def head_dim(self) -> int:
        return self.hidden // self.heads

    @property
    def kv_hidden(self) -> int:
        """Width of K (and of V): kv_heads x head_dim (= h without GQA)."""
        return self.n_kv_heads * self.head_dim

    @property
    def is_lecture_gpt(self) -> bool:
        """True when the lecture's closed form L(12h^2+13h)+hv+h(s+1) applies exactly."""
        return (
            self.ffn_size == 4 * self.hidden
            and self.n_kv_heads == self.heads
            and self.mlp == "gelu"
            and self.experts == 1
            and self.tied_embeddings
            and self.position == "learned"
            and self.norm == "layernorm"
            and self.bias
            and not self.final_norm_bias
        )

    def with_(self, **changes) -> ModelConfig:
        """A copy with some fields changed (validated again); unknown fields are a ConfigError."""
        known = {f.name for f in fields(self)}
        for k in changes:
            if k not in known:
                raise ConfigError(
                    _("{k}: not a model field; known: {join}").format(
                        k=k, join=", ".join(sorted(known))
                    )
                )
        return replace(self, **changes)

    def describe(self) -> str:
        """One line with the lecture's symbols and whichever variants are on."""
        text = (
            f"h={self.hidden} s={self.seq} L={self.layers} a={self.heads} b={self.batch} "
            f"v={self.vocab}"
        )
        extras = []
        if self.ffn is not None and self.ffn != 4 * self.hidden:
            extras.append(f"ffn={self.ffn}")
        if self.n_kv_heads != self.heads:
            extras.append(f"kv_heads={self.n_kv_heads}")
        if self.mlp != "gelu":
            extras.append(self.mlp)
        if self.experts > 1:
            extras.append(
                _("MoE {experts} experts top-{top_k}").format(
                    experts=self.experts, top_k=self.top_k
                )
            )
        if not self.tied_embeddings:
            extras.append("untied")
        if self.position != "learned":
            extras.append(self.position)
        return text + (" (" + ", ".join(extras) + ")" if extras else "")


def _llama(name, h, L, a, kv, ffn, v, s, b=8, **kw) -> ModelConfig:
    return ModelConfig(
        hidden=h,
        seq=s,
        layers=L,
        heads=a,
        batch=b,
        vocab=v,
        ffn=ffn,
        kv_heads=kv,
        mlp="swiglu",
        tied_embeddings=False,
        position="rotary",
        norm="rmsnorm",
        bias=False,
        dropout=False,
        name=name,
        **kw,
    )


#: name -> ModelConfig. Batch sizes: the lecture's 128 for GPT-3, otherwise a modest 8 (tiny: 4).
PRESETS: dict[str, ModelConfig] = {
    # exactly the lecture's table (训练1750亿参数的GPT-3的配置)
    "gpt3": ModelConfig(12288, 2048, 96, 96, 128, 50000, final_norm_bias=False, name="gpt3"),
    # GPT-2 XL (Radford et al. 2019; Hugging Face "gpt2-xl": 1,557,611,200 parameters)
    "gpt2-xl": ModelConfig(1600, 1024, 48, 25, 8, 50257, name="gpt2-xl"),
    # GPT-2 small (124,439,808 parameters)
    "gpt2": ModelConfig(768, 1024, 12, 12, 8, 50257, name="gpt2"),
    # Touvron et al. 2023, config of meta-llama/Llama-2-7b-hf: 6,738,415,616 parameters
    "llama2-7b": _llama("llama2-7b", 4096, 32, 32, 32, 11008, 32000, 4096),
    # Llama 2 70B: GQA with 8 KV heads, 68,976,648,192 parameters
    "llama2-70b": _llama("llama2-70b", 8192, 80, 64, 8, 28672, 32000, 4096),
    # Llama 3 8B / 70B (meta-llama/Meta-Llama-3-*): 8,030,261,248 and 70,553,706,496 parameters
    "llama3-8b": _llama("llama3-8b", 4096, 32, 32, 8, 14336, 128256, 8192),
    "llama3-70b": _llama("llama3-70b", 8192, 80, 64, 8, 28672, 128256, 8192),
    # Mixtral 8x7B (Jiang et al. 2024): 8 experts, top-2; 46,702,792,704 parameters, ~12.9B active
    "mixtral-8x7b": _llama("mixtral-8x7b", 4096, 32, 32, 8, 14336, 32000, 4096, experts=8, top_k=2),
    # small enough to run on a laptop CPU (the "measure it yourself" model)
    "tiny": ModelConfig(128, 64, 2, 4, 4, 256, name="tiny"),
}


def preset(name: str | ModelConfig) -> ModelConfig:
    """A preset model by name (case-insensitive); ConfigError lists the known names."""
    if isinstance(name, ModelConfig):
        return name
    key = str(name).strip().lower().replace("_", "-")
    if key in ("gpt-3", "gpt3-175b"):
        key = "gpt3"
    if key not in PRESETS:
        raise ConfigError(
            _("preset: unknown model {name!r}; known: {join}").format(
                name=name, join=", ".join(PRESETS)
            )
        )
    return PRESETS[key]


@dataclass(frozen=True)
class ParallelConfig:
    """How the training job is split over GPUs, and what it trades compute for memory.

    - ``dp``, ``tp``, ``pp``: data, tensor, pipeline parallel degrees (world size dp x tp x pp).
    - ``micro_batches``: m, how many micro-batches each data-parallel replica splits its
      ``batch/dp`` sequences into (gradient accumulation steps, or pipeline micro-batches).
    - ``schedule``: pipeline schedule, ``"1f1b"`` (stage i keeps min(pp-i, m) micro-batches in
      flight) or ``"gpipe"`` (all m).
    - ``zero``: ZeRO stage 0-3 over the ``dp`` replicas (1 shards optimizer states, 2 also
      gradients, 3 also parameters).
    - ``offload``: ZeRO-Offload: gradients and optimizer states (fp32 master weights and
      moments) live in CPU memory; the update runs on the CPU.
    - ``sp``: Megatron sequence parallelism (shards the 10 sbh per layer tensor parallelism
      leaves replicated: LayerNorm inputs 4, QKV and fc1 inputs 4, dropout masks 2).
    - ``recompute``: ``"none"``, ``"selective"`` (recompute attention's softmax part) or ``"full"``
      (keep only each layer's input).
    - ``flash``: flash attention (never materializes the s x s attention matrix).
    """

    dp: int = 1
    tp: int = 1
    pp: int = 1
    micro_batches: int = 1
    schedule: str = "1f1b"
    zero: int = 0
    offload: bool = False
    sp: bool = False
    recompute: str = "none"
    flash: bool = False

    def __post_init__(self) -> None:
        for f in ("dp", "tp", "pp", "micro_batches"):
            _positive_int(_("parallel config"), f, getattr(self, f))
        for f in ("offload", "sp", "flash"):
            if not isinstance(getattr(self, f), bool):
                raise ConfigError(
                    _("{f}: must be True or False, got {getattr!r}").format(
                        f=f, getattr=getattr(self, f)
                    )
                )
        if isinstance(self.zero, bool) or self.zero not in (0, 1, 2, 3):
            raise ConfigError(
                _("zero: ZeRO stage must be 0, 1, 2 or 3; got {zero!r}").format(zero=self.zero)
            )
        _choice("recompute", self.recompute, ("none", "selective", "full"))
        _choice("schedule", self.schedule, ("1f1b", "gpipe"))

    @property
    def world_size(self) -> int:
        return self.dp * self.tp * self.pp

    def check(self, model: ModelConfig) -> None:
        """Raise ConfigError if this split does not fit the model's shape."""
        t, p = self.tp, self.pp
        if model.heads % t:
            raise ConfigError(
                _(
                    "tp: tensor-parallel size {t} does not divide heads ({heads}); each "
                    "GPU must get whole attention heads. Divisors of {heads}: {divisors}"
                ).format(t=t, heads=model.heads, divisors=_divisors(model.heads))
            )
        if model.n_kv_heads % t:
            raise ConfigError(
                _("tp: tensor-parallel size {t} does not divide kv_heads ({n_kv_heads})").format(
                    t=t, n_kv_heads=model.n_kv_heads
                )
            )
        if model.ffn_size % t:
            raise ConfigError(
                _("tp: tensor-parallel size {t} does not divide ffn ({ffn_size})").format(
                    t=t, ffn_size=model.ffn_size
                )
            )
        if model.layers % p:
            raise ConfigError(
                _(
                    "pp: pipeline size {p} does not divide layers ({layers}); stages must "
                    "get equal numbers of layers. Divisors of {layers}: {divisors}"
                ).format(p=p, layers=model.layers, divisors=_divisors(model.layers))
            )
        if model.batch % self.dp:
            raise ConfigError(
                _(
                    "dp: data-parallel size {dp} does not divide batch ({batch}); each "
                    "replica must get whole sequences"
                ).format(dp=self.dp, batch=model.batch)
            )
        if (model.batch // self.dp) % self.micro_batches:
            raise ConfigError(
                _(
                    "micro_batches: {micro_batches} does not divide the per-replica batch "
                    "({batch}/{dp} = {value})"
                ).format(
                    micro_batches=self.micro_batches,
                    batch=model.batch,
                    dp=self.dp,
                    value=model.batch // self.dp,
                )
            )

    def micro_batch_size(self, model: ModelConfig) -> int:
        """Sequences per micro-batch on one GPU: b / (dp x m)."""
        self.check(model)
        return model.batch // (self.dp * self.micro_batches)


@dataclass(frozen=True)
class Precision:
    """Bytes per number for each kind of state.

    - ``param_bytes``: the weights the forward pass uses (2 for fp16/bf16, 4 for fp32).
    - ``grad_bytes``: the gradients (same as the weights in the ZeRO paper's accounting).
    - ``master_bytes``: fp32 master copy of the weights kept by mixed precision (0 otherwise).
    - ``state_bytes``: optimizer moments (Adam: m and v; SGD with momentum: one buffer).
    - ``activation_bytes``: one activation element (dropout masks are 1 byte regardless).

    The ZeRO paper's K (optimizer-state multiplier) is ``master_bytes + state_bytes``; mixed
    precision Adam has 2 + 2 + K = 2 + 2 + 12 = 16 bytes per parameter.
    """

    name: str
    param_bytes: int
    grad_bytes: int
    master_bytes: int
    state_bytes: int
    activation_bytes: int

    def __post_init__(self) -> None:
        for f in ("param_bytes", "grad_bytes", "activation_bytes"):
            _positive_int(_("precision {name!r}").format(name=self.name), f, getattr(self, f))
        for f in ("master_bytes", "state_bytes"):
            v = getattr(self, f)
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise ConfigError(_("{f}: must be an integer >= 0, got {v!r}").format(f=f, v=v))

    @property
    def K(self) -> int:
        """Optimizer bytes per parameter (the ZeRO paper's K)."""
        return self.master_bytes + self.state_bytes

    @property
    def bytes_per_param(self) -> int:
        return self.param_bytes + self.grad_bytes + self.K


#: optimizer -> bytes of moment state per parameter when kept in fp32
_OPTIMIZER_STATE = {"adam": 8, "adamw": 8, "sgd": 4, "adam8bit": 2}
_WEIGHTS = ("fp32", "fp16", "bf16")


def precision(weights: str = "bf16", optimizer: str = "adam") -> Precision:
    """Build a :class:`Precision` from a weight format and an optimizer.

    ``weights``: ``fp32`` (everything in 4 bytes, no master copy), ``fp16`` or ``bf16`` (mixed
    precision: 2-byte weights, gradients and activations, 4-byte fp32 master weights), or
    ``lecture`` (the lecture's table = bf16/fp16 mixed precision with Adam).
    ``optimizer``: ``adam``/``adamw`` (m and v, fp32: 8 bytes), ``sgd`` (momentum, 4 bytes),
    ``adam8bit`` (m and v quantized to 1 byte each: 2 bytes; the per-block scales, one fp32 per
    2048 numbers in bitsandbytes, are ignored).
    """
    w = str(weights).lower()
    o = str(optimizer).lower().replace("-", "").replace("_", "")
    _choice("precision", w, _WEIGHTS + ("lecture",))
    if w == "lecture":
        if o not in ("adam", "adamw"):
            raise ConfigError(
                _(
                    "optimizer: the lecture's precision assumes Adam; got {optimizer!r} "
                    "(use bf16/fp16/fp32 weights with that optimizer)"
                ).format(optimizer=optimizer)
            )
        return Precision(_("lecture (16-bit mixed precision, Adam)"), 2, 2, 4, 8, 2)
    _choice("optimizer", o, tuple(_OPTIMIZER_STATE))
    state = _OPTIMIZER_STATE[o]
    if w == "fp32":
        return Precision(f"fp32 {o}", 4, 4, 0, state, 4)
    return Precision(f"{w} mixed, {o}", 2, 2, 4, state, 2)


#: the formats the lecture and the widget offer
PRECISIONS: dict[str, Precision] = {
    "lecture": precision("lecture"),
    "fp32": precision("fp32"),
    "bf16": precision("bf16"),
    "fp16": precision("fp16"),
}
