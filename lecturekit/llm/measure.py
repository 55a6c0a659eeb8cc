"""Measure it yourself: the bytes a small PyTorch GPT really saves for backward (CPU is enough).

PyTorch is optional: :func:`torch_available` says whether it is installed; everything else here
imports it inside the functions.

:func:`measure_saved_activations` runs one forward pass of a GPT built exactly as the lecture
counts it (learned positions, pre-LayerNorm blocks, GeLU MLP, dropout everywhere, tied output
layer, fp32 logits for the cross-entropy) under ``torch.autograd.graph.saved_tensors_hooks``,
which sees every tensor autograd keeps for the backward pass. Tensors sharing storage (views)
are counted once, parameters and buffers (weights, the causal mask) not at all: what remains is
activation memory, to compare with :func:`~lecturekit.llm.memory.memory_report`.

Dropout calls ``torch.native_dropout``, the fused kernel ``F.dropout`` uses on GPUs (it keeps a
1-byte mask); on CPU ``F.dropout`` instead multiplies by a noise tensor of the input's dtype, which
is not what the lecture (or a GPU) counts.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass

from ..errors import ConfigError
from ..language import _
from .config import ModelConfig, preset

__all__ = ["Measured", "build_tiny_gpt", "measure_saved_activations", "torch_available"]


def torch_available() -> bool:
    """True when PyTorch can be imported (it is an optional dependency)."""
    return importlib.util.find_spec("torch") is not None


@dataclass(frozen=True)
class Measured:
    """What autograd saved: total bytes (deduplicated by storage) and one row per storage."""

    bytes: int
    tensors: list[tuple[str, tuple[int, ...], str, int]]  # (op, shape, dtype, bytes)

    def by_producer(self) -> dict[str, int]:
        """Bytes per producing autograd node (e.g. ``SoftmaxBackward0``; ``input`` = no grad_fn)."""
        out: dict[str, int] = {}
        for op, _kind, _shape, n in self.tensors:
            out[op] = out.get(op, 0) + n
        return out


def build_tiny_gpt(model: ModelConfig, dtype: str = "bfloat16", seed: int = 0, p: float = 0.1):
    """A GPT (the lecture's architecture) as a ``torch.nn.Module`` in ``dtype``, seeded."""
    import torch
    from torch import nn
    from torch.nn import functional as F

    if not model.is_lecture_gpt and not _is_gpt2(model):
        raise ConfigError(_("model: the measured GPT implements the lecture's architecture only"))

    def dropout(x):
        if not model.dropout or p == 0:
            return x
        return torch.native_dropout(x, p, True)[0]

    h, a = model.hidden, model.heads

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.ln1, self.ln2 = nn.LayerNorm(h), nn.LayerNorm(h)
            self.qkv, self.proj = nn.Linear(h, 3 * h), nn.Linear(h, h)
            self.fc1, self.fc2 = nn.Linear(h, 4 * h), nn.Linear(4 * h, h)

        def forward(self, x, mask):
            B, s, _ = x.shape
            q, k, v = self.qkv(self.ln1(x)).view(B, s, 3, a, h // a).permute(2, 0, 3, 1, 4)
            scores = (q @ k.transpose(-2, -1)) * (h // a) ** -0.5
            attn = dropout(torch.softmax(scores.masked_fill(mask, float("-inf")), dim=-1))
            y = (attn @ v).transpose(1, 2).contiguous().view(B, s, h)
            x = x + dropout(self.proj(y))
            return x + dropout(self.fc2(F.gelu(self.fc1(self.ln2(x)))))

    class GPT(nn.Module):
        def __init__(self):
            super().__init__()
            self.wte = nn.Embedding(model.vocab, h)
            self.wpe = nn.Embedding(model.seq, h)
            self.blocks = nn.ModuleList(Block() for _ in range(model.layers))
            self.ln_f = nn.LayerNorm(h)
            causal = torch.triu(torch.ones(model.seq, model.seq, dtype=torch.bool), diagonal=1)
            self.register_buffer("mask", causal)

        def forward(self, idx, targets):
            s = idx.shape[1]
            x = dropout(self.wte(idx) + self.wpe(torch.arange(s)))
            for block in self.blocks:
                x = block(x, self.mask[:s, :s])
            logits = F.linear(self.ln_f(x), self.wte.weight)  # tied output layer
            return F.cross_entropy(logits.float().view(-1, model.vocab), targets.view(-1))

    torch.manual_seed(seed)
    return GPT().to(getattr(torch, dtype))


def _is_gpt2(model: ModelConfig) -> bool:
    return model.with_(final_norm_bias=False).is_lecture_gpt


def measure_saved_activations(
    model: ModelConfig | str = "tiny", dtype: str = "bfloat16", seed: int = 0
) -> Measured:
    """One training forward pass of :func:`build_tiny_gpt`; bytes autograd saved for backward.

    Raises :class:`~lecturekit.errors.ConfigError` if PyTorch is not installed.
    """
    if not torch_available():
        raise ConfigError(_("torch: PyTorch is not installed (pip install torch) -- optional"))
    import torch

    model = preset(model)
    net = build_tiny_gpt(model, dtype, seed)
    net.train()
    skip = {t.untyped_storage().data_ptr() for t in [*net.parameters(), *net.buffers()]}
    seen: dict[int, tuple[str, tuple[int, ...], str, int]] = {}

    def pack(t):
        ptr = t.untyped_storage().data_ptr()
        if ptr not in skip and ptr not in seen:
            op = type(t.grad_fn).__name__ if t.grad_fn is not None else "input"
            nbytes = t.untyped_storage().nbytes()
            seen[ptr] = (op, tuple(t.shape), str(t.dtype).replace("torch.", ""), nbytes)
        return t

    gen = torch.Generator().manual_seed(seed)
    idx = torch.randint(model.vocab, (model.batch, model.seq), generator=gen)
    targets = torch.randint(model.vocab, (model.batch, model.seq), generator=gen)
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        loss = net(idx, targets)
    loss.backward()  # proves the graph is complete
    rows = list(seen.values())
    return Measured(sum(r[3] for r in rows), rows)
