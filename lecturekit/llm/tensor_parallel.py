"""Tensor parallelism (Megatron-LM) on simulated ranks: split GEMMs that equal the unsplit ones.

A weight matrix ``A`` can be split across ``t`` GPUs two ways (notes 003, "列并行 / 行并行"):

- **column-parallel**: ``A = [A_0 | ... | A_(t-1)]``; every rank holds the whole input ``X`` and
  computes ``Y_i = X A_i``, a slice of the output's columns. Joining needs an *all-gather*;
  but an element-wise function (GeLU) can be applied to each slice first.
- **row-parallel**: ``A`` split into row blocks ``A_i`` and ``X = [X_0 | ... | X_(t-1)]`` split
  by columns; rank ``i`` computes the partial product ``X_i A_i`` and ``Y = Σ_i X_i A_i`` needs
  an *all-reduce*.

Megatron's MLP (Shoeybi et al. 2019) chains them: ``Z = GeLU(X A) B`` with ``A`` column-parallel
and ``B`` row-parallel, so the GeLU output ``Y_i`` is already the row slice the second GEMM needs
and the block needs **one all-reduce** forward. Self-attention splits by heads the same way
(``Q, K, V`` projections column-parallel, output projection row-parallel).

Two conjugate operators mark the communication (notes 002: "f = Identity, g = AllReduce"):

========  ==========================  ==========================
operator  forward                     backward
========  ==========================  ==========================
``f``     identity (X to every rank)  all-reduce of the dX parts
``g``     all-reduce of the parts     identity (dZ to every rank)
========  ==========================  ==========================

Every function here computes on the ranks with numpy and combines with the collectives of
:mod:`lecturekit.llm.collectives`; pass a list as ``log`` to record each collective as
``(collective, phase, elements)`` and compare with :func:`lecturekit.llm.comm.tensor_parallel_comm`
(with ``t = 1`` nothing is sent and nothing is recorded).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..errors import ConfigError
from ..language import _
from .collectives import all_gather, all_reduce


def _check_t(t, what: str) -> int:
    if isinstance(t, bool) or not isinstance(t, (int, np.integer)) or t < 1:
        raise ConfigError(
            _("{what}: t (tensor-parallel size) must be an integer >= 1, got {t!r}").format(
                what=what, t=t
            )
        )
    return int(t)


def _matrix(a, name: str, what: str) -> np.ndarray:
    arr = np.asarray(a, dtype=np.float64)
    if arr.ndim != 2:
        raise ConfigError(
            _("{what}: {name} must be a 2-D matrix, got shape {shape}").format(
                what=what, name=name, shape=arr.shape
            )
        )
    return arr


def _check_inner(x: np.ndarray, a: np.ndarray, xname: str, aname: str, what: str) -> None:
    if x.shape[1] != a.shape[0]:
        raise ConfigError(
            _("{what}: {xname} has {shape} columns but {aname} has {shape2} rows").format(
                what=what, xname=xname, shape=x.shape[1], aname=aname, shape2=a.shape[0]
            )
        )


def _check_split(size: int, t: int, name: str, what: str) -> None:
    if t > size:
        raise ConfigError(
            _("{what}: cannot split {name} of size {size} across t={t} ranks").format(
                what=what, name=name, size=size, t=t
            )
        )


def split_columns(a, t: int) -> list[np.ndarray]:
    """``A`` cut into ``t`` column blocks (near-equal, as ``np.array_split``)."""
    a = _matrix(a, "A", "split_columns")
    t = _check_t(t, "split_columns")
    _check_split(a.shape[1], t, _("the columns"), "split_columns")
    return np.array_split(a, t, axis=1)


def split_rows(a, t: int) -> list[np.ndarray]:
    """``A`` cut into ``t`` row blocks (near-equal, as ``np.array_split``)."""
    a = _matrix(a, "A", "split_rows")
    t = _check_t(t, "split_rows")
    _check_split(a.shape[0], t, _("the rows"), "split_rows")
    return np.array_split(a, t, axis=0)


def _log(log, collective: str, phase: str, arr: np.ndarray, ranks: int) -> None:
    # on one rank a collective is the identity and sends nothing: nothing to record
    if log is not None and ranks > 1:
        log.append((collective, phase, int(arr.size)))


# ----------------------------------------------------------------------------------------------
# the conjugate operators f and g
# ----------------------------------------------------------------------------------------------


def f_forward(x, t: int) -> list[np.ndarray]:
    """``f`` forward: identity; every rank gets (already has) the same input ``X``."""
    t = _check_t(t, "f_forward")
    x = np.asarray(x, dtype=np.float64)
    return [x.copy() for _ in range(t)]


def f_backward(grads: list[np.ndarray], log: list | None = None) -> list[np.ndarray]:
    """``f`` backward: each rank has a partial ``dX``; all-reduce them into the full ``dX``."""
    out = all_reduce(grads)
    _log(log, "all-reduce", "backward", out[0], len(out))
    return out


def g_forward(parts: list[np.ndarray], log: list | None = None) -> list[np.ndarray]:
    """``g`` forward: each rank has a partial sum of the output; all-reduce them."""
    out = all_reduce(parts)
    _log(log, "all-reduce", "forward", out[0], len(out))
    return out


def g_backward(grad, t: int) -> list[np.ndarray]:
    """``g`` backward: identity; every rank gets the same output gradient ``dZ``."""
    t = _check_t(t, "g_backward")
    grad = np.asarray(grad, dtype=np.float64)
    return [grad.copy() for _ in range(t)]


# ----------------------------------------------------------------------------------------------
# linear layers
# ----------------------------------------------------------------------------------------------


def column_parallel_linear(x, a, t: int) -> list[np.ndarray]:
    """Rank ``i`` computes ``X A_i`` (a column slice of ``X A``); ``X`` is on every rank.

    Join the slices with ``all_gather(parts, axis=1)`` (or keep them split for the next layer)."""
    what = "column_parallel_linear"
    x, a = _matrix(x, "X", what), _matrix(a, "A", what)
    _check_inner(x, a, "X", "A", what)
    return [x @ a_i for a_i in split_columns(a, t)]


def row_parallel_linear(x, a, t: int) -> list[np.ndarray]:
    """Rank ``i`` holds column block ``X_i`` of ``X`` and row block ``A_i`` of ``A`` and computes
    the partial product ``X_i A_i``. ``X A`` is their sum: combine with ``all_reduce``."""
    what = "row_parallel_linear"
    x, a = _matrix(x, "X", what), _matrix(a, "A", what)
    _check_inner(x, a, "X", "A", what)
    a_parts = split_rows(a, t)
    x_parts = np.array_split(x, t, axis=1)
    return [x_i @ a_i for x_i, a_i in zip(x_parts, a_parts, strict=True)]


def linear_column_then_gather(x, a, t: int) -> np.ndarray:
    """``X A`` computed column-parallel and joined by an all-gather (what every rank ends with)."""
    return all_gather(column_parallel_linear(x, a, t), axis=1)[0]


def linear_row_then_reduce(x, a, t: int) -> np.ndarray:
    """``X A`` computed row-parallel and joined by an all-reduce (what every rank ends with)."""
    return all_reduce(row_parallel_linear(x, a, t))[0]


# ----------------------------------------------------------------------------------------------
# the MLP block: forward and backward by hand
# ----------------------------------------------------------------------------------------------

_C = math.sqrt(2 / math.pi)


def gelu(x):
    """GeLU, tanh approximation (GPT-2, Megatron):
    ``0.5 x (1 + tanh(√(2/π)(x + 0.044715 x³)))``."""
    x = np.asarray(x, dtype=np.float64)
    return 0.5 * x * (1 + np.tanh(_C * (x + 0.044715 * x**3)))


def gelu_grad(x):
    """Derivative of :func:`gelu`."""
    x = np.asarray(x, dtype=np.float64)
    u = _C * (x + 0.044715 * x**3)
    th = np.tanh(u)
    return 0.5 * (1 + th) + 0.5 * x * (1 - th**2) * _C * (1 + 3 * 0.044715 * x**2)


@dataclass(frozen=True)
class MLPGrads:
    """Gradients of the MLP ``Z = GeLU(X A) B`` with respect to ``X``, ``A`` and ``B``."""

    dx: np.ndarray
    da: np.ndarray
    db: np.ndarray


def _check_mlp(x, a, b, what: str):
    x, a, b = _matrix(x, "X", what), _matrix(a, "A", what), _matrix(b, "B", what)
    _check_inner(x, a, "X", "A", what)
    if a.shape[1] != b.shape[0]:
        raise ConfigError(
            _("{what}: A has {shape} columns but B has {shape2} rows").format(
                what=what, shape=a.shape[1], shape2=b.shape[0]
            )
        )
    return x, a, b


def mlp_forward(x, a, b) -> np.ndarray:
    """Unsplit MLP: ``Z = GeLU(X A) B`` (X: tokens×h, A: h×4h, B: 4h×h)."""
    x, a, b = _check_mlp(x, a, b, "mlp_forward")
    return gelu(x @ a) @ b


def mlp_backward(x, a, b, dz) -> MLPGrads:
    """Unsplit MLP backward, by the chain rule. With ``U = X A``, ``Y = GeLU(U)``, ``Z = Y B``:
    ``dB = Yᵀ dZ``, ``dY = dZ Bᵀ``, ``dU = dY ⊙ GeLU'(U)``, ``dA = Xᵀ dU``, ``dX = dU Aᵀ``."""
    x, a, b = _check_mlp(x, a, b, "mlp_backward")
    dz = np.asarray(dz, dtype=np.float64)
    u = x @ a
    y = gelu(u)
    db = y.T @ dz
    du = (dz @ b.T) * gelu_grad(u)
    return MLPGrads(dx=du @ a.T, da=x.T @ du, db=db)


def tp_mlp_forward(x, a, b, t: int, log: list | None = None) -> list[np.ndarray]:
    """Megatron's MLP on ``t`` ranks; returns ``Z`` as every rank holds it (all equal).

    ``f`` (identity) → rank ``i``: ``Y_i = GeLU(X A_i)`` (column-parallel, GeLU local: no
    communication, because GeLU acts element by element on the columns) → ``Z_i = Y_i B_i``
    (row-parallel) → ``g``: all-reduce ``Σ Z_i``. One all-reduce of ``tokens × h`` elements."""
    x, a, b = _check_mlp(x, a, b, "tp_mlp_forward")
    t = _check_t(t, "tp_mlp_forward")
    _check_split(a.shape[1], t, _("the hidden (4h) dimension"), "tp_mlp_forward")
    xs = f_forward(x, t)
    a_parts, b_parts = split_columns(a, t), split_rows(b, t)
    partial = [gelu(xs[i] @ a_parts[i]) @ b_parts[i] for i in range(t)]
    return g_forward(partial, log)


def tp_mlp_backward(x, a, b, dz, t: int, log: list | None = None) -> MLPGrads:
    """Megatron's MLP backward on ``t`` ranks, by hand; gradients joined for comparison.

    ``g`` backward (identity) gives every rank ``dZ``. Rank ``i`` then computes its own weight
    gradients with no communication: ``dB_i = Y_iᵀ dZ``, ``dU_i = (dZ B_iᵀ) ⊙ GeLU'(U_i)``,
    ``dA_i = Xᵀ dU_i``, and a *partial* input gradient ``dX_i = dU_i A_iᵀ``; ``f`` backward
    all-reduces ``Σ dX_i``. One all-reduce of ``tokens × h`` elements.

    Returns ``dX`` (as every rank holds it), ``dA = [dA_0 | ...]`` and ``dB = [dB_0; ...]``
    stacked back together, so they can be compared with :func:`mlp_backward`."""
    x, a, b = _check_mlp(x, a, b, "tp_mlp_backward")
    t = _check_t(t, "tp_mlp_backward")
    _check_split(a.shape[1], t, _("the hidden (4h) dimension"), "tp_mlp_backward")
    dzs = g_backward(dz, t)
    a_parts, b_parts = split_columns(a, t), split_rows(b, t)
    da, db, dx_parts = [], [], []
    for i in range(t):
        u_i = x @ a_parts[i]
        y_i = gelu(u_i)
        db.append(y_i.T @ dzs[i])
        du_i = (dzs[i] @ b_parts[i].T) * gelu_grad(u_i)
        da.append(x.T @ du_i)
        dx_parts.append(du_i @ a_parts[i].T)
    dx = f_backward(dx_parts, log)[0]
    return MLPGrads(dx=dx, da=np.concatenate(da, axis=1), db=np.concatenate(db, axis=0))


# ----------------------------------------------------------------------------------------------
# self-attention, heads split across ranks
# ----------------------------------------------------------------------------------------------


def _softmax(s: np.ndarray) -> np.ndarray:
    s = s - s.max(axis=-1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=-1, keepdims=True)


def _heads(x, wq, wk, wv, n_heads: int, d: int, causal: bool) -> np.ndarray:
    """Attention of ``n_heads`` heads of width ``d`` (head ``j`` uses columns ``j·d .. j·d+d``
    of the projections), outputs side by side: tokens × (n_heads·d)."""
    s = x.shape[0]
    mask = np.triu(np.full((s, s), -np.inf), k=1) if causal else 0.0
    outs = []
    for j in range(n_heads):
        cols = slice(j * d, (j + 1) * d)
        q, k, v = x @ wq[:, cols], x @ wk[:, cols], x @ wv[:, cols]
        outs.append(_softmax(q @ k.T / math.sqrt(d) + mask) @ v)
    return np.concatenate(outs, axis=1)


def _check_attention(x, wq, wk, wv, wo, a: int, what: str):
    x = _matrix(x, "X", what)
    h = x.shape[1]
    mats = []
    for name, w in (("Wq", wq), ("Wk", wk), ("Wv", wv), ("Wo", wo)):
        w = _matrix(w, name, what)
        if w.shape != (h, h):
            raise ConfigError(
                _("{what}: {name} must be {h}×{h} (h×h), got {shape}").format(
                    what=what, name=name, h=h, shape=w.shape
                )
            )
        mats.append(w)
    if isinstance(a, bool) or not isinstance(a, (int, np.integer)) or a < 1 or h % a:
        raise ConfigError(
            _("{what}: heads a={a!r} must be an integer >= 1 dividing h={h}").format(
                what=what, a=a, h=h
            )
        )
    return (x, *mats, int(a), h // int(a))


def attention_forward(x, wq, wk, wv, wo, a: int, causal: bool = True) -> np.ndarray:
    """Unsplit multi-head self-attention of one sequence ``X`` (s × h) with ``a`` heads."""
    x, wq, wk, wv, wo, a, d = _check_attention(x, wq, wk, wv, wo, a, "attention_forward")
    return _heads(x, wq, wk, wv, a, d, causal) @ wo


def tp_attention_forward(
    x, wq, wk, wv, wo, a: int, t: int, causal: bool = True, log: list | None = None
) -> list[np.ndarray]:
    """Self-attention with the ``a`` heads split across ``t`` ranks (``a`` divisible by ``t``).

    Rank ``i`` holds the columns of ``Wq, Wk, Wv`` for its ``a/t`` heads (column-parallel) and
    the matching rows of ``Wo`` (row-parallel). It computes its heads' attention entirely
    locally, multiplies by its rows of ``Wo``, and ``g`` all-reduces the partial outputs: one
    all-reduce of ``s × h`` elements, as in the MLP."""
    what = "tp_attention_forward"
    x, wq, wk, wv, wo, a, d = _check_attention(x, wq, wk, wv, wo, a, what)
    t = _check_t(t, what)
    if a % t:
        raise ConfigError(
            _("{what}: the a={a} heads cannot be split evenly across t={t} ranks").format(
                what=what, a=a, t=t
            )
        )
    per = a // t
    xs = f_forward(x, t)
    partial = []
    for i in range(t):
        cols = slice(i * per * d, (i + 1) * per * d)
        heads_out = _heads(xs[i], wq[:, cols], wk[:, cols], wv[:, cols], per, d, causal)
        partial.append(heads_out @ wo[cols, :])
    return g_forward(partial, log)
