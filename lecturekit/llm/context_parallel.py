"""Context parallelism: a long sequence split over ``cp`` devices (ring attention, Ulysses).

The lecture's long-context table (slides 000: GPT-4.1 100万 tokens, Gemini 1.5 Pro and Kimi
200万, 通义千问 1000万; Kimi's and 通义千问's figures are characters, :data:`CONTEXT_WINDOWS`) is a
memory problem before it is a compute problem: a transformer layer saves ``34 s b h`` bytes of
activations for its backward (Korthikanti et al. 2022, 16-bit, without the ``5 a s^2 b``
attention scores that FlashAttention recomputes instead of saving), linear in the sequence
length ``s``. Context parallelism cuts the sequence into ``cp`` pieces,
one per device, so each device keeps ``1/cp`` of every saved tensor. What attention needs
from the other pieces is paid in communication, in one of two ways:

- **ring attention** (Liu et al. 2023; Megatron-LM's context parallelism): the ``cp`` devices
  form a ring and pass their key/value block around it; in ``cp - 1`` steps every device has
  seen every block and computed its queries' attention against it, block by block (the
  softmax is rescaled as blocks arrive, as FlashAttention does). Per layer and device the
  forward receives ``cp - 1`` blocks of K and V, ``2 (cp-1) (s/cp) b h_kv`` elements, and the
  backward twice that (K and V again, and their gradients travelling back). It does not
  shrink with ``cp``: ring attention trades memory for link time, hidden behind the
  ``(s/cp)^2`` attention blocks when those take longer.
- **Ulysses** (DeepSpeed-Ulysses, Jacobs et al. 2023): an all-to-all turns the
  sequence-sharded Q, K, V into head-sharded ones (each device then has the whole sequence for
  ``a/cp`` heads and runs ordinary attention), and a second all-to-all turns the output back.
  Each all-to-all keeps ``1/cp`` of a device's tensor and sends the rest: per layer forward
  ``(cp-1)/cp x (s/cp) b (2 h + 2 h_kv)`` elements per device, i.e. the paper's ``4 N h / P``
  per link for ``N = s b`` tokens and large ``P = cp``; the backward the same again. Needs
  ``cp`` to divide the number of (key/value) heads.

Counts are per device and per transformer layer, in bytes (``dtype_bytes`` per element, 2 for
fp16/bf16). :func:`long_context_table` sizes the lecture's table.

**Time: attention's s^2 FLOPs, and when ring attention's traffic is hidden.** The attention
scores ``Q K^T`` and the weighted sum ``P V`` cost ``2 b s^2 h`` FLOPs each in the forward,
``4 b s^2 h`` a layer (Narayanan et al. 2021 and Korthikanti et al. 2022 count a layer's forward
as ``24 b s h^2 + 4 b s^2 h``; their training total ``72 B s l h^2 (1 + s / 6h + ...)``
contains it as the ``s / 6h``); a causal mask skips the upper triangle, half of it
(:func:`attention_flops`). For long sequences this term dominates: at ``s = 2,000,000`` and
``h = 4096`` the causal ``2 s^2 h`` is 38x the ``2 Ψ_layer s`` of a Llama 3 8B layer
(``Ψ_layer`` = 218M).

Ring attention splits those FLOPs into ``cp`` steps per device. With the sequence cut in
``2 cp`` chunks and device ``j`` holding chunks ``j`` and ``2 cp - 1 - j`` (Megatron-LM's
load-balanced causal CP) *every* step is half a block of ``s/cp`` queries against ``s/cp``
keys, ``4 b (s/cp)^2 h / 2`` FLOPs (``/ tp`` with tensor parallelism, which splits the
heads): ``c`` = that over ``F`` seconds at ``F`` FLOP/s. Receiving one K/V block takes
``t = α + 2 b (s/cp) h_kv x dtype_bytes x β``. :func:`ring_attention_time` schedules the
``cp - 1`` receives against the ``cp`` blocks on the scheduling core's ``gpu`` and ``link``
(:func:`lecturekit.llm.priority_comm.ring_attention`, where the closed form
``c + (cp - 1) max(c, t)`` is checked against the list schedule): the traffic is **hidden
when c >= t**. Without the ``α`` and for ``h_kv = h``, 16-bit, no mask that is Liu et al.'s
condition ``4 d c^2 / F >= 4 c d / B``, i.e. a block of at least ``F / B`` tokens
(:func:`min_hidden_block`). The backward is the same ring with twice the compute (``dV``,
``dP``, ``dQ``, ``dK``: four products against the forward's two; FlashAttention's recomputed
scores, hardware FLOPs, are not counted) and twice the traffic (K and V, and the
partial ``dK``, ``dV`` travelling with them), so forward plus backward take three times the
forward. (An implementation also sends each finished ``dK``, ``dV`` one last hop home after
the ring; that one block per layer is left out, as in the volumes above.)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .. import validate
from ..errors import ConfigError
from ..language import N_, _
from .config import ModelConfig, preset

__all__ = [
    "CONTEXT_WINDOWS",
    "LONG_CONTEXT",
    "ContextWindow",
    "CPLayer",
    "RingTiming",
    "attention_flops",
    "context_parallel_layer",
    "long_context_table",
    "min_cp_for_budget",
    "min_hidden_block",
    "ring_attention_time",
]

#: the lecture's long-context table as the slide prints it (slides 000: 模型 /
#: 上下文长度 (token数) / 发布时间); two of its figures are not tokens, see :data:`CONTEXT_WINDOWS`
LONG_CONTEXT: dict[str, int] = {
    "GPT-4.1": 1_000_000,  # 100万, 2025年4月
    "Gemini 1.5 Pro": 2_000_000,  # 200万, 2024年2月
    "Claude": 200_000,  # 20万, 2024年
    "DeepSeek": 128_000,  # 12.8万, 2025年
    "Kimi": 2_000_000,  # 200万, 2025年
    "通义千问": 10_000_000,  # 1000万, 2025年
}


@dataclass(frozen=True)
class ContextWindow:
    """One row of the slide's long-context table: the slide's figure (:data:`LONG_CONTEXT`),
    what that figure counts as the vendor announced it (``unit``: ``"tokens"`` or
    ``"characters"``, 汉字), and the model's window in tokens by the vendor's own statement
    (``tokens``, what the memory and communication of a sequence depend on)."""

    slide: int
    unit: str
    tokens: int
    source: str


#: every row of :data:`LONG_CONTEXT` with its unit (chapter 08, section 5, checks the slide's
#: 约合汉字 column: Kimi's 200万 and 通义千问's 1000万 are characters, read by the slide as tokens);
#: ``source`` is marked for the catalog (``_(window.source)`` where it is shown)
CONTEXT_WINDOWS: dict[str, ContextWindow] = {
    "GPT-4.1": ContextWindow(1_000_000, "tokens", 1_000_000, N_("OpenAI, April 2025")),
    "Gemini 1.5 Pro": ContextWindow(
        2_000_000, "tokens", 2_000_000, N_("Google I/O, May 2024 (1M at launch, February 2024)")
    ),
    "Claude": ContextWindow(200_000, "tokens", 200_000, N_("Anthropic, 2024")),
    "DeepSeek": ContextWindow(128_000, "tokens", 128_000, N_("DeepSeek, 2025")),
    "Kimi": ContextWindow(
        2_000_000,
        "characters",
        1_000_000,
        N_("Moonshot AI, March 2024: 200万字; about 1M tokens by the Kimi team's conversion"),
    ),
    "通义千问": ContextWindow(
        10_000_000,
        "characters",
        10_000_000,
        N_(
            "the Tongyi app's long documents: 1000万字; Qwen-Long (Alibaba Cloud Model Studio): "
            "10M tokens = about 15M 字"
        ),
    ),
}

KINDS = ("ring", "ulysses")


def _pos(name: str, value, low: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ConfigError(
            _("{name}: must be an integer >= {low}, got {value!r}").format(
                name=name, low=low, value=value
            )
        )
    return value


@dataclass(frozen=True)
class CPLayer:
    """One transformer layer on one of ``cp`` devices: what it saves and what it sends."""

    kind: str
    cp: int
    seq: int
    micro_batch: int
    hidden: int
    kv_hidden: int
    heads: int
    dtype_bytes: int
    save_scores: bool

    @property
    def tokens(self) -> int:
        """Tokens of the sequence this device holds (``s / cp``), times the micro-batch."""
        return self.seq // self.cp * self.micro_batch

    @property
    def activation_bytes(self) -> int:
        """Saved activations per device: ``34 (s/cp) b h`` (Korthikanti, 16-bit), plus
        ``5 a (s/cp) s b`` if the attention scores are saved (each device's queries against the
        whole sequence); ``1/cp`` of the unsplit layer either way."""
        s_local = self.seq // self.cp
        b, h, a = self.micro_batch, self.hidden, self.heads
        out = 34 * s_local * b * h
        if self.save_scores:
            out += 5 * a * s_local * self.seq * b
        return out

    @property
    def forward_elements(self) -> int:
        """Elements one device receives (and sends) in one layer's forward."""
        if self.cp == 1:
            return 0
        if self.kind == "ring":
            return 2 * (self.cp - 1) * self.tokens * self.kv_hidden
        # Ulysses: Q, K, V in and the output back, each keeping 1/cp at home
        per = self.tokens * (2 * self.hidden + 2 * self.kv_hidden)
        return per * (self.cp - 1) // self.cp

    @property
    def backward_elements(self) -> int:
        """Ring: K, V again and their gradients (twice the forward); Ulysses: the same four
        all-to-alls with gradients (once the forward)."""
        return 2 * self.forward_elements if self.kind == "ring" else self.forward_elements

    @property
    def forward_bytes(self) -> int:
        return self.forward_elements * self.dtype_bytes

    @property
    def backward_bytes(self) -> int:
        return self.backward_elements * self.dtype_bytes

    @property
    def step_bytes(self) -> int:
        """Forward plus backward, per device and layer, for one micro-batch."""
        return self.forward_bytes + self.backward_bytes


def context_parallel_layer(
    model: ModelConfig | str,
    cp: int,
    kind: str = "ring",
    seq: int | None = None,
    micro_batch: int = 1,
    dtype_bytes: int = 2,
    save_scores: bool = False,
) -> CPLayer:
    """One layer of ``model`` with the sequence (``seq``, default the model's) split over
    ``cp`` devices by ring attention or Ulysses (``kind``). ``save_scores``: keep the attention
    scores for backward (without FlashAttention)."""
    if isinstance(model, str):
        model = preset(model)
    cp = _pos(_("cp (context-parallel devices)"), cp)
    seq = model.seq if seq is None else _pos(_("seq (sequence length)"), seq)
    micro_batch = _pos("micro_batch", micro_batch)
    dtype_bytes = _pos("dtype_bytes", dtype_bytes)
    if kind not in KINDS:
        raise ConfigError(
            _("kind: {kind!r} is not a context-parallel method; choose ring or ulysses").format(
                kind=kind
            )
        )
    if seq % cp:
        raise ConfigError(
            _("cp: {cp} does not divide the sequence length {seq}").format(cp=cp, seq=seq)
        )
    if kind == "ulysses" and (model.heads % cp or model.n_kv_heads % cp):
        raise ConfigError(
            _(
                "cp: Ulysses gives each device heads/cp heads; {cp} does not divide "
                "the {heads} query heads and {n_kv_heads} key/value heads"
            ).format(cp=cp, heads=model.heads, n_kv_heads=model.n_kv_heads)
        )
    return CPLayer(
        kind,
        cp,
        seq,
        micro_batch,
        model.hidden,
        model.kv_hidden,
        model.heads,
        dtype_bytes,
        bool(save_scores),
    )


def min_cp_for_budget(
    model: ModelConfig | str,
    seq: int,
    budget_bytes: int,
    layers: int | None = None,
    kind: str = "ring",
    max_cp: int = 4096,
) -> int | None:
    """The smallest ``cp`` dividing ``seq`` (and, for Ulysses, the key/value heads) whose saved
    activations for ``layers`` layers (default all) fit ``budget_bytes`` per device; ``None``
    if none up to ``max_cp``."""
    if isinstance(model, str):
        model = preset(model)
    layers = model.layers if layers is None else _pos("layers", layers)
    seq = _pos(_("seq (sequence length)"), seq)
    budget_bytes = _pos("budget_bytes", budget_bytes)
    for cp in range(1, max_cp + 1):
        if seq % cp or (kind == "ulysses" and (model.n_kv_heads % cp or model.heads % cp)):
            continue
        lay = context_parallel_layer(model, cp, kind, seq)
        if lay.activation_bytes * layers <= budget_bytes:
            return cp
    return None


def long_context_table(
    model: ModelConfig | str = "llama3-8b", cps=(1, 8, 64), dtype_bytes: int = 2
) -> list[dict]:
    """For each row of the lecture's long-context table: the slide's figure and its unit
    (``slide``, ``unit``), the window in tokens (``tokens``, :data:`CONTEXT_WINDOWS`: Kimi's
    200万 characters are about 1M tokens), and for each ``cp`` the activation bytes one layer
    saves per device (scores not saved, micro-batch 1) and the bytes one layer's forward sends
    per device with ring attention and, where ``cp`` divides the heads, with Ulysses (``None``
    where it does not)."""
    if isinstance(model, str):
        model = preset(model)
    rows = []
    for name, window in CONTEXT_WINDOWS.items():
        tokens = window.tokens
        row: dict = {"model": name, "slide": window.slide, "unit": window.unit, "tokens": tokens}
        for cp in cps:
            ring = context_parallel_layer(model, cp, "ring", tokens, 1, dtype_bytes)
            row[f"activation_bytes_cp{cp}"] = ring.activation_bytes
            row[f"ring_bytes_cp{cp}"] = ring.forward_bytes
            ok = model.heads % cp == 0 and model.n_kv_heads % cp == 0
            row[f"ulysses_bytes_cp{cp}"] = (
                context_parallel_layer(model, cp, "ulysses", tokens, 1, dtype_bytes).forward_bytes
                if ok
                else None
            )
        rows.append(row)
    return rows


# -- time: attention's FLOPs and ring attention's overlap --------------------------------------


def attention_flops(seq: int, hidden: int, micro_batch: int = 1, causal: bool = True) -> int:
    """Forward FLOPs of one layer's ``Q K^T`` and ``P V`` (the part quadratic in ``seq``):
    ``4 b s^2 h``, or ``2 b s^2 h`` with a causal mask (half the score matrix is skipped).
    ``hidden`` is the query width (heads x head size); with grouped-query attention the
    products still run over every query head. The backward is twice this."""
    s = _pos(_("seq (sequence length)"), seq)
    h = _pos("hidden", hidden)
    b = _pos("micro_batch", micro_batch)
    full = 4 * b * s * s * h
    return full // 2 if causal else full


@dataclass(frozen=True)
class RingTiming:
    """Ring attention's forward on one of ``cp`` devices, one layer: ``compute`` seconds per
    key/value block, ``transfer`` seconds to receive one (module text). Backward = 2 x forward."""

    cp: int
    block_tokens: int
    compute: float
    transfer: float

    @property
    def forward(self) -> float:
        """Overlapped: ``c + (cp-1) max(c, t)``."""
        return self.compute + (self.cp - 1) * max(self.compute, self.transfer)

    @property
    def serial(self) -> float:
        """Not overlapped (the upper bound): ``cp c + (cp-1) t``."""
        return self.cp * self.compute + (self.cp - 1) * self.transfer

    @property
    def lower_bound(self) -> float:
        """No schedule beats ``max(cp c, (cp-1) t)``: the GPU's work, or the link's."""
        return max(self.cp * self.compute, (self.cp - 1) * self.transfer)

    @property
    def hidden(self) -> bool:
        """Every transfer hidden behind a block's attention (``c >= t``)."""
        return self.cp == 1 or self.compute >= self.transfer

    @property
    def exposed_forward(self) -> float:
        """Forward time beyond the attention compute: ``(cp-1) max(0, t - c)``."""
        return self.forward - self.cp * self.compute

    @property
    def step(self) -> float:
        """Forward plus backward (3 x the forward)."""
        return 3 * self.forward

    @property
    def step_compute(self) -> float:
        """Attention compute of forward plus backward: ``3 cp c``."""
        return 3 * self.cp * self.compute

    @property
    def step_traffic(self) -> float:
        """Link time of forward plus backward, hidden or not: ``3 (cp-1) t``."""
        return 3 * (self.cp - 1) * self.transfer

    @property
    def step_exposed(self) -> float:
        """Forward plus backward beyond the attention compute: ``3 (cp-1) max(0, t - c)``."""
        return 3 * self.exposed_forward

    def schedule(self, units: int = 12, overlap: bool = True):
        """The forward on the scheduling core
        (:func:`~lecturekit.llm.priority_comm.ring_attention`), ``c`` and ``t`` rounded to whole
        time units, the longer of the two ``units`` long."""
        from .priority_comm import ring_attention

        units = validate.integer(units, "units", 1, 1000)
        q = max(self.compute, self.transfer) / units
        c = max(1, round(self.compute / q))
        t = max(1, round(self.transfer / q))
        return ring_attention(max(self.cp, 1), c, t, overlap)


def _ring_terms(model, tp, flops, link, micro_batch, causal, dtype_bytes):
    """``(a, k, alpha)``: a block of ``n`` tokens computes in ``a n^2`` s, arrives in
    ``alpha + k n`` s."""
    if isinstance(model, str):
        model = preset(model)
    tp = _pos("tp", tp)
    if model.heads % tp or model.n_kv_heads % tp:
        raise ConfigError(
            _("tp: {tp} does not divide the {n_kv_heads} key/value heads").format(
                tp=tp, n_kv_heads=model.n_kv_heads
            )
        )
    validate.number(flops, _("flops (FLOP/s of one GPU)"), above=0, maximum=1e20)
    b = _pos("micro_batch", micro_batch)
    a = 4 * b * model.hidden / tp * (0.5 if causal else 1.0) / flops
    k = 2 * b * model.kv_hidden / tp * _pos("dtype_bytes", dtype_bytes) * link.beta
    return model, a, k, link.alpha


def ring_attention_time(
    model: ModelConfig | str,
    cp: int,
    link,
    flops: float,
    seq: int | None = None,
    micro_batch: int = 1,
    tp: int = 1,
    causal: bool = True,
    dtype_bytes: int = 2,
) -> RingTiming:
    """Ring attention's timing for one layer of ``model`` on one of ``cp`` devices joined by
    ``link`` (:class:`~lecturekit.llm.comm.Link`), each running attention at ``flops`` FLOP/s
    (peak x efficiency), heads split over ``tp``. ``causal``: load-balanced causal mask (half
    a block per step), else full attention."""
    model, a, k, alpha = _ring_terms(model, tp, flops, link, micro_batch, causal, dtype_bytes)
    lay = context_parallel_layer(model, cp, "ring", seq, micro_batch, dtype_bytes)
    n = lay.seq // lay.cp
    return RingTiming(lay.cp, n, a * n * n, alpha + k * n)


def min_hidden_block(
    model: ModelConfig | str,
    link,
    flops: float,
    tp: int = 1,
    causal: bool = True,
    micro_batch: int = 1,
    dtype_bytes: int = 2,
) -> int:
    """The fewest tokens per device (block ``s / cp``) whose attention takes at least as long
    as receiving the next K/V block: the smallest ``n`` with ``a n^2 >= alpha + k n``. For
    ``h_kv = h``, 16-bit, no mask and ``alpha = 0`` that is Liu et al.'s ``F / B``."""
    _, a, k, alpha = _ring_terms(model, tp, flops, link, micro_batch, causal, dtype_bytes)
    n = max(1, math.ceil((k + math.sqrt(k * k + 4 * a * alpha)) / (2 * a)))
    while n > 1 and a * (n - 1) ** 2 >= alpha + k * (n - 1):  # float rounding
        n -= 1
    while a * n * n < alpha + k * n:
        n += 1
    return n
