"""Context parallelism: a long sequence split over ``cp`` devices (ring attention, Ulysses).

The lecture's long-context table (slides 000: GPT-4.1 100万 tokens, Gemini 1.5 Pro and Kimi
200万, 通义千问 1000万) is a memory problem before it is a compute problem: a transformer layer
saves ``34 s b h`` bytes of activations for its backward (Korthikanti et al. 2022, 16-bit,
without the ``5 a s^2 b`` attention scores that FlashAttention recomputes instead of saving),
linear in the sequence length ``s``. Context parallelism cuts the sequence into ``cp`` pieces,
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
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import ConfigError
from .config import ModelConfig, preset

__all__ = [
    "LONG_CONTEXT",
    "CPLayer",
    "context_parallel_layer",
    "long_context_table",
    "min_cp_for_budget",
]

#: the lecture's long-context table (slides 000: 模型 / 上下文长度 (token数) / 发布时间)
LONG_CONTEXT: dict[str, int] = {
    "GPT-4.1": 1_000_000,  # 100万, 2025年4月
    "Gemini 1.5 Pro": 2_000_000,  # 200万, 2024年2月
    "Claude": 200_000,  # 20万, 2024年
    "DeepSeek": 128_000,  # 12.8万, 2025年
    "Kimi": 2_000_000,  # 200万, 2025年
    "通义千问": 10_000_000,  # 1000万, 2025年
}

KINDS = ("ring", "ulysses")


def _pos(name: str, value, low: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ConfigError(f"{name}: must be an integer >= {low}, got {value!r}")
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
    cp = _pos("cp (context-parallel devices)", cp)
    seq = model.seq if seq is None else _pos("seq (sequence length)", seq)
    micro_batch = _pos("micro_batch", micro_batch)
    dtype_bytes = _pos("dtype_bytes", dtype_bytes)
    if kind not in KINDS:
        raise ConfigError(
            f"kind: {kind!r} is not a context-parallel method; choose ring or ulysses"
        )
    if seq % cp:
        raise ConfigError(f"cp: {cp} does not divide the sequence length {seq}")
    if kind == "ulysses" and (model.heads % cp or model.n_kv_heads % cp):
        raise ConfigError(
            f"cp: Ulysses gives each device heads/cp heads; {cp} does not divide the "
            f"{model.heads} query heads and {model.n_kv_heads} key/value heads"
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
    seq = _pos("seq (sequence length)", seq)
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
    """For each row of the lecture's long-context table: the tokens, and for each ``cp`` the
    activation bytes one layer saves per device (scores not saved, micro-batch 1) and the bytes
    one layer's forward sends per device with ring attention and, where ``cp`` divides the
    heads, with Ulysses (``None`` where it does not)."""
    if isinstance(model, str):
        model = preset(model)
    rows = []
    for name, tokens in LONG_CONTEXT.items():
        row: dict = {"model": name, "tokens": tokens}
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
