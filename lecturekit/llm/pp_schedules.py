"""The per-device op lists of the pipeline-parallel schedules (which op each GPU runs, in order).

Each function returns ``{device: [(kind, micro, stage), ...]}``: for every device (0-based) the
fixed list of passes it runs, in order. ``kind`` is ``"F"`` (forward), ``"B"`` (backward: the
whole backward, or only the input-gradient part when the backward is split) or ``"W"`` (the
weight-gradient part of a split backward); ``micro`` is the micro-batch number, 1-based as on
the slides; ``stage`` the pipeline stage (0-based; with ``v`` chunks per device there are
``p * v`` stages and stage ``k`` lives on device ``k % p``).

These are *orders*, not timings. :mod:`lecturekit.llm.pipeline_parallel` builds the graph of
passes and hands an order to :func:`lecturekit.core.evaluate`, the same evaluator that places an
instruction order on an in-order pipeline: each device runs its list in order, each pass as soon
as its inputs have arrived.

The rules, for ``p`` devices (stages) and ``m`` micro-batches:

``gpipe`` (Huang et al. 2019)
    every device: all forwards ``F1 .. Fm``, then all backwards in reverse order ``Bm .. B1``
    (as in the GPipe paper's figure; the reverse order frees the newest activations first).
``one_f_one_b`` (1F1B: DAPPLE, Fan et al. 2021 = PipeDream-Flush, Narayanan et al. 2021)
    stage ``s``: a warm-up of ``min(p - s - 1, m)`` forwards, then one forward and one backward
    in turn (steady state), then the remaining backwards (cool-down). Stage ``s`` never holds
    more than ``p - s`` micro-batches' activations.
``interleaved`` (Narayanan et al. 2021, Megatron-LM's interleaved 1F1B)
    device ``d`` holds the ``v`` model chunks (stages) ``d, d + p, ..., d + (v - 1) p``.
    Forwards go through the chunks in groups of ``p`` micro-batches (chunk 0 for micro-batches
    1..p, chunk 1 for 1..p, ...), backwards through the chunks in reverse; a warm-up of
    ``2 (p - d - 1) + (v - 1) p`` forwards, then 1F1B, then cool-down, exactly as Megatron-LM's
    ``forward_backward_pipelining_with_interleaving``. Needs ``m`` a multiple of ``p``.
``zb_h1`` (Qi et al. 2023, "Zero Bubble Pipeline Parallelism", handcrafted schedule 1)
    the backward is split into ``B`` (input gradient, on the critical path) and ``W`` (weight
    gradient, needed by nobody but the optimizer). Stage ``s`` runs 1F1B's warm-up, then
    ``F, B, W`` in turn but with its ``W`` passes postponed by ``s`` micro-batches, and the
    postponed ``W`` passes at the end, where 1F1B's cool-down bubble was. The same *peak*
    activation memory as 1F1B (``p M_B``, on stage 0): stage ``s`` holds ``p - s`` micro-batches
    between ``F`` and ``B`` as in 1F1B, plus up to ``s`` whose ``W`` is postponed, each of
    which keeps only ``M_W < M_B``
    (see :meth:`lecturekit.llm.pipeline_parallel.PipelineRun.memory`).
``zb_h2`` (same paper, handcrafted schedule 2)
    stage ``s`` runs ``2 (p - s) - 1`` forwards before its first backward (filling the warm-up
    bubble), then ``B, W, F`` in turn with its ``W`` passes postponed by ``2 s``; each device is
    then busy without a gap from its first pass to its last (a parallelogram). This is the
    order of the paper's Fig. 3 (device 1: ``F1 .. F7 B1 W1 F8 B2 W2 ..``): the ``W`` comes
    *before* the next ``F``, so a micro-batch's memory is released before the next one's is
    taken and stage 0 never holds more than ``2p - 1`` micro-batches (the paper's bound
    ``(2p - 1) M_B``, about twice 1F1B's ``p M_B``). Running ``F`` before ``W`` instead
    (``F1 .. F7 B1 F8 W1``) takes the same time but holds ``2p`` at once.

PipeDream (Narayanan et al. 2019) runs 1F1B's order without ever flushing the pipeline; what
differs is when weights are updated, see :func:`lecturekit.llm.pipeline_parallel.weight_versions`.
"""

from __future__ import annotations

Key = tuple[str, int, int]  # (kind, micro, stage)


def gpipe(p: int, m: int) -> dict[int, list[Key]]:
    """All forwards, then all backwards (newest first), on every device."""
    return {
        s: [("F", k, s) for k in range(1, m + 1)] + [("B", k, s) for k in range(m, 0, -1)]
        for s in range(p)
    }


def one_f_one_b(p: int, m: int) -> dict[int, list[Key]]:
    """1F1B: warm-up of ``p - s - 1`` forwards on stage ``s``, steady F/B, cool-down."""
    out = {}
    for s in range(p):
        warm = min(p - s - 1, m)
        order = [("F", k, s) for k in range(1, warm + 1)]
        for i in range(1, m - warm + 1):
            order += [("F", warm + i, s), ("B", i, s)]
        order += [("B", k, s) for k in range(m - warm + 1, m + 1)]
        out[s] = order
    return out


def interleaved(p: int, m: int, v: int) -> dict[int, list[Key]]:
    """Megatron-LM's interleaved 1F1B with ``v`` chunks per device (``m`` a multiple of ``p``)."""
    total = m * v
    group = p * v

    def stage_of(k: int, device: int, forward: bool) -> tuple[int, int]:
        chunk = (k % group) // p
        if not forward:
            chunk = v - 1 - chunk
        micro = (k // group) * p + k % p + 1
        return micro, chunk * p + device

    out = {}
    for d in range(p):
        if m == p:
            warm = total  # Megatron: with m == p every forward runs first
        else:
            warm = min(2 * (p - d - 1) + (v - 1) * p, total)
        order: list[Key] = []
        for k in range(warm):
            micro, stage = stage_of(k, d, True)
            order.append(("F", micro, stage))
        for k in range(total - warm):
            micro, stage = stage_of(warm + k, d, True)
            order.append(("F", micro, stage))
            micro, stage = stage_of(k, d, False)
            order.append(("B", micro, stage))
        for k in range(total - warm, total):
            micro, stage = stage_of(k, d, False)
            order.append(("B", micro, stage))
        out[d] = order
    return out


def zb_h1(p: int, m: int) -> dict[int, list[Key]]:
    """ZB-H1: 1F1B with split backward; stage ``s`` postpones its W passes by ``s``."""
    out = {}
    for s in range(p):
        warm = min(p - s - 1, m)
        order = [("F", k, s) for k in range(1, warm + 1)]
        done_w = 0
        for i in range(1, m + 1):
            if warm + i <= m:
                order.append(("F", warm + i, s))
            order.append(("B", i, s))
            if i - s >= 1:
                order.append(("W", i - s, s))
                done_w = i - s
        order += [("W", k, s) for k in range(done_w + 1, m + 1)]
        out[s] = order
    return out


def zb_h2(p: int, m: int) -> dict[int, list[Key]]:
    """ZB-H2: ``2(p-s)-1`` warm-up forwards on stage ``s``; W passes postponed by ``2s``."""
    out = {}
    for s in range(p):
        warm = min(2 * (p - s) - 1, m)
        order = [("F", k, s) for k in range(1, warm + 1)]
        done_w = 0
        for i in range(1, m + 1):
            order.append(("B", i, s))
            if i - 2 * s >= 1:  # the paper's order: W right after B, before the next F
                order.append(("W", i - 2 * s, s))
                done_w = i - 2 * s
            if warm + i <= m:
                order.append(("F", warm + i, s))
        order += [("W", k, s) for k in range(done_w + 1, m + 1)]
        out[s] = order
    return out


def naive(p: int) -> dict[int, list[Key]]:
    """Plain model parallelism: one forward and one backward of the whole batch per device."""
    return {s: [("F", 1, s), ("B", 1, s)] for s in range(p)}
