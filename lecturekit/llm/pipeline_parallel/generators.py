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
    ``forward_backward_pipelining_with_interleaving`` and PyTorch's ``ScheduleInterleaved1F1B``,
    for every ``m >= p`` (with ``m = p`` too: the old all-forwards-first order is an option).
    Needs ``m`` a multiple of ``p`` (or of the round size ``group``).
``interleaved_zero_bubble`` (PyTorch's ``ScheduleInterleavedZeroBubble``)
    interleaved 1F1B with a split backward; warm-up of ``(v - 1) g + p - d - 1`` forwards,
    device ``d``'s ``W`` passes postponed by ``d``: see the function.
``looped_bfs``, ``zb_v``, ``dualpipe_v`` (the second edition)
    looped BFS on the loop placement; ZB-V and DualPipeV on the V placement (device ``d`` holds
    stages ``d`` and ``2p - 1 - d``): see each function. All three give the same op lists as
    PyTorch's ``ScheduleLoopedBFS``, ``ScheduleZBVZeroBubble`` and ``ScheduleDualPipeV``.
``v_half``, ``v_min`` (Qi et al. 2024, "Pipeline Parallelism with Controllable Memory")
    the V placement with building blocks whose short lifespan keeps about 1/2 (V-Half) or 1/3
    (V-Min) of 1F1B's activations, at some bubble: see :func:`v_half`, :func:`v_min`.
``dualpipe`` (DeepSeek-V3)
    two directions: half the micro-batches enter at device 0, half at device ``p - 1``; device
    ``d`` holds stage ``d`` of the one and ``p - 1 - d`` of the other, and runs the DualPipeV
    order of device ``min(d, p - 1 - d)`` of ``p/2`` (see :func:`dualpipe`).
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

from heapq import merge
from itertools import islice

from ...language import _

Key = tuple[str, int, int]  # (kind, micro, stage)


def gpipe(p: int, m: int, backward: str = "newest") -> dict[int, list[Key]]:
    """All forwards, then all backwards, on every device: ``backward="newest"`` first (as in
    the GPipe paper's figure, the default) or ``"oldest"`` first (as PyTorch's
    ``ScheduleGPipe`` runs them)."""
    if backward not in ("newest", "oldest"):
        raise ValueError(
            _("backward: 'newest' or 'oldest', got {backward!r}").format(backward=backward)
        )
    back = range(m, 0, -1) if backward == "newest" else range(1, m + 1)
    return {
        s: [("F", k, s) for k in range(1, m + 1)] + [("B", k, s) for k in back] for s in range(p)
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


def interleaved(
    p: int, m: int, v: int, group: int | None = None, all_forwards_first: bool = False
) -> dict[int, list[Key]]:
    """Interleaved 1F1B with ``v`` chunks per device, as current Megatron-LM and PyTorch's
    ``ScheduleInterleaved1F1B`` run it.

    Forwards go through the chunks in rounds of ``group`` micro-batches (default ``p``; ``m``
    must be a multiple of it), backwards through the chunks in reverse; device ``d`` runs a
    warm-up of ``min(2 (p - d - 1) + (v - 1) group, m v)`` forwards, then one forward and one
    backward in turn, then the remaining backwards. This holds for every ``m`` including
    ``m = p``, where the last devices start their backwards before all forwards are done.
    ``all_forwards_first=True`` gives the order of Megatron-LM before late 2024, which with
    ``m = p`` ran every forward first on every device (the same makespan, more memory on the
    later devices)."""
    g = p if group is None else group
    total = m * v
    round_ = g * v

    def stage_of(k: int, device: int, forward: bool) -> tuple[int, int]:
        chunk = (k % round_) // g
        if not forward:
            chunk = v - 1 - chunk
        micro = (k // round_) * g + k % g + 1
        return micro, chunk * p + device

    out = {}
    for d in range(p):
        if all_forwards_first and m == p:
            warm = total
        else:
            warm = min(2 * (p - d - 1) + (v - 1) * g, total)
        order: list[Key] = []
        for k in range(warm):
            order.append(("F", *stage_of(k, d, True)))
        for k in range(total - warm):
            order.append(("F", *stage_of(warm + k, d, True)))
            order.append(("B", *stage_of(k, d, False)))
        for k in range(total - warm, total):
            order.append(("B", *stage_of(k, d, False)))
        out[d] = order
    return out


def interleaved_zero_bubble(p: int, m: int, v: int) -> dict[int, list[Key]]:
    """Interleaved zero bubble (PyTorch's ``ScheduleInterleavedZeroBubble``, the ZB1P idea of
    Qi et al. 2023 on the loop placement with ``v`` chunks per device): interleaved 1F1B with
    the backward split into ``B`` (input gradient) and ``W`` (weight gradient), and ``W``
    passes used to fill what would be bubbles.

    Micro-batches go through the chunks in rounds of ``g = m / r`` with ``r = max(1, m // p)``
    rounds (``m`` must be a multiple of ``r``): forwards through chunk 0 for ``g`` micro-batches,
    chunk 1 for the same ``g``, ...; backwards through the chunks in reverse. Device ``d``:

    - warm-up: ``min((v - 1) g + p - 1 - d, m v)`` forwards (one per hop from the last device,
      where interleaved 1F1B has two: its backward is not split);
    - steady state: a forward and a ``B`` in turn; from the ``d + 1``-th ``B`` on, each is
      followed by the ``W`` of the oldest ``B`` still waiting (device ``d`` postpones its
      ``W`` passes by ``d``, as ZB-H1 does);
    - cool-down: the remaining ``B`` passes, each followed by a waiting ``W`` as above; then
      the ``W`` passes still waiting, oldest first."""
    rounds = max(1, m // p)
    g = m // rounds
    if m % rounds:
        raise ValueError(
            _("m = {m} is not a multiple of the {rounds} rounds (m // p)").format(
                m=m, rounds=rounds
            )
        )
    return {d: _interleaved_zero_bubble_device(p, m, v, g, d) for d in range(p)}


def _interleaved_zero_bubble_device(p: int, m: int, v: int, g: int, d: int) -> list[Key]:
    total = m * v
    warm = min((v - 1) * g + (p - 1 - d), total)
    nxt: dict[tuple[str, int], int] = {}
    order: list[Key] = []

    def put(kind: str, stage: int) -> None:
        k = nxt.get((kind, stage), 1)
        nxt[(kind, stage)] = k + 1
        order.append((kind, k, stage))

    def forward_stage(step: int) -> int:  # chunk 0 for g micro-batches, chunk 1, ...
        return (step // g) % v * p + d

    def backward_stage(step: int) -> int:  # the chunks in reverse
        return (v - 1 - (step - warm) // g % v) * p + d

    waiting: list[int] = []  # stages of the B passes whose W is still to run, oldest first
    for step in range(total + warm):
        if step < total:
            put("F", forward_stage(step))
        if step < warm:
            continue
        put("B", backward_stage(step))
        waiting.append(backward_stage(step))
        if step - warm >= d:
            put("W", waiting.pop(0))
    for stage in waiting:
        put("W", stage)
    return order


def looped_bfs(p: int, m: int, v: int) -> dict[int, list[Key]]:
    """Looped BFS (Lamy-Poirier 2022, "Breadth-First Pipeline Parallelism"; PyTorch's
    ``ScheduleLoopedBFS``): the stages placed in a loop as for interleaving, but device ``d``
    runs every micro-batch through its chunk 0, then through its chunk 1, ... (breadth first:
    GPipe on each chunk in turn), then the backwards chunk by chunk in reverse, newest
    micro-batch first."""
    out = {}
    for d in range(p):
        stages = [c * p + d for c in range(v)]
        order: list[Key] = [("F", k, s) for s in stages for k in range(1, m + 1)]
        order += [("B", k, s) for s in reversed(stages) for k in range(m, 0, -1)]
        out[d] = order
    return out


def zb_v(p: int, m: int) -> dict[int, list[Key]]:
    """ZB-V (Qi et al. 2024, "Zero Bubble Pipeline Parallelism", section 6; PyTorch's
    ``ScheduleZBVZeroBubble``), on the V placement: device ``d`` holds stage ``d`` (chunk 0)
    and stage ``2p - 1 - d`` (chunk 1), so a micro-batch goes down the devices and back up and
    the loss is computed on device 0. Split backward (``B`` input gradient, ``W`` weight
    gradient). Device ``d``:

    - warm-up: ``2 (p - d) - 1`` forwards of chunk 0; then ``d`` times a forward of chunk 1 and
      one of chunk 0; then ``p - d`` times ``F B W`` on chunk 1;
    - steady state: ``F B W`` on chunk 0, ``F B W`` on chunk 1, until every forward is done;
    - cool-down: ``d`` times ``B`` on chunk 0 and chunk 1; ``p - d`` times ``B W`` on chunk 0;
      the remaining ``W`` passes of chunk 1, then of chunk 0.

    With fewer than ``2p - 1`` micro-batches the order is that of ``2p - 1`` with the missing
    micro-batches left out (as PyTorch does). Peak activation memory as 1F1B's (``p`` micro-
    batches' worth, ``2p`` chunks of half a device's share) on every device."""
    n = max(m, 2 * p - 1)
    return {d: [key for key in _zb_v_device(p, n, d) if key[1] <= m] for d in range(p)}


def _zb_v_device(p: int, n: int, d: int) -> list[Key]:
    s0, s1 = d, 2 * p - 1 - d
    nxt = {(kind, s): 1 for kind in ("F", "B", "W") for s in (s0, s1)}
    order: list[Key] = []

    def put(kind: str, stage: int) -> None:
        order.append((kind, nxt[(kind, stage)], stage))
        nxt[(kind, stage)] += 1

    for _unused in range(2 * (p - d) - 1):
        put("F", s0)
    for _unused in range(d):
        put("F", s1)
        put("F", s0)
    for _unused in range(p - d):
        put("F", s1)
        put("B", s1)
        put("W", s1)
    while nxt[("F", s1)] < nxt[("F", s0)] or nxt[("F", s0)] <= n:
        if nxt[("F", s0)] <= n:
            put("F", s0)
        put("B", s0)
        put("W", s0)
        put("F", s1)
        put("B", s1)
        put("W", s1)
    for _unused in range(d):
        put("B", s0)
        put("B", s1)
    for _unused in range(p - d):
        put("B", s0)
        put("W", s0)
    while nxt[("W", s1)] < nxt[("B", s1)]:
        put("W", s1)
    while nxt[("W", s0)] < nxt[("B", s0)]:
        put("W", s0)
    return order


def dualpipe_v(p: int, m: int) -> dict[int, list[Key]]:
    """DualPipeV (DeepSeek 2025, the V-shaped "cut in half" DualPipe; PyTorch's
    ``ScheduleDualPipeV``), on the V placement with a split backward. Needs ``m >= 2p``.

    Device ``d`` (chunk 0 = stage ``d``, chunk 1 = stage ``2p - 1 - d``), in eight steps:
    ``2 (p - d - 1)`` forwards of chunk 0; ``d + 1`` times a forward of chunk 0 and one of
    chunk 1; ``p - d - 1`` times ``B`` on chunk 1, a pending ``W``, a forward of chunk 1; the
    main step, ``m - 2p + d + 1`` times "forward chunk 0 with full backward chunk 1, then
    forward chunk 1 with full backward chunk 0"; ``p - d - 1`` times a full backward of chunk 1
    then "forward chunk 1 with full backward chunk 0"; ``d + 1`` times a backward of chunk 1 and
    of chunk 0 (full in the first half, then split into ``B`` with the ``W`` postponed);
    ``p - d - 1`` times a pending ``W`` and a backward of chunk 0; the pending ``W`` passes.

    A *full* backward is written ``B`` then ``W`` at once; a forward "with" a backward is the
    forward then the backward: DualPipe overlaps the two to hide their communication (the
    all-to-all of expert parallelism) behind computation. A device runs one pass at a time, so
    the pair takes ``F + B + W``, unless the reference's calls run as units and the timing
    gives the overlapped pair's time (``Timing.paired``, DeepSeek-V3's ``F&B``): then the
    call takes ``F&B``."""
    return {d: _dualpipe_v_device(p, m, d) for d in range(p)}


def _dualpipe_v_device(p: int, m: int, d: int) -> list[Key]:
    return [key for call in _dualpipe_v_calls(p, m, d) for key in call]


def _dualpipe_v_calls(p: int, m: int, d: int) -> list[list[Key]]:
    """Device ``d``'s order as the reference implementation's calls: a forward ``[F]``, a full
    backward ``[B, W]`` (one autograd call), a split one ``[B]`` with its ``[W]`` later, and a
    forward paired with a full backward ``[F, B, W]``."""
    s0, s1 = d, 2 * p - 1 - d
    nxt: dict[tuple[str, int], int] = {}
    pending: list[tuple[int, int]] = []
    calls: list[list[Key]] = []

    def take(kind: str, stage: int) -> int:
        k = nxt.get((kind, stage), 1)
        nxt[(kind, stage)] = k + 1
        return k

    def fwd(stage: int) -> list[Key]:
        return [("F", take("F", stage), stage)]

    def full(stage: int) -> list[Key]:
        k = take("B", stage)
        return [("B", k, stage), ("W", k, stage)]

    def back(stage: int) -> list[Key]:  # input gradient now, weight gradient later
        k = take("B", stage)
        pending.append((k, stage))
        return [("B", k, stage)]

    def weight() -> None:
        if pending:
            k, stage = pending.pop(0)
            calls.append([("W", k, stage)])

    for _unused in range(2 * (p - d - 1)):
        calls.append(fwd(s0))
    for _unused in range(d + 1):
        calls.append(fwd(s0))
        calls.append(fwd(s1))
    for _unused in range(p - d - 1):
        calls.append(back(s1))
        weight()
        calls.append(fwd(s1))
    for i in range(m - 2 * p + d + 1):
        if i == 0 and d == p - 1:  # the reference does not pair these two, to shorten the bubble
            calls += [fwd(s0), full(s1)]
        else:
            calls.append(fwd(s0) + full(s1))
        calls.append(fwd(s1) + full(s0))
    for _unused in range(p - d - 1):
        calls.append(full(s1))
        calls.append(fwd(s1) + full(s0))
    split = False
    steps = d + 1
    for i in range(steps):
        if i == steps // 2 and d % 2 == 1:
            split = True
        calls.append((back if split else full)(s1))
        if i == steps // 2 and d % 2 == 0:
            split = True
        calls.append((back if split else full)(s0))
    for _unused in range(p - d - 1):
        weight()
        calls.append((back if split else full)(s0))
    for _unused in range(d + 1):
        weight()
    return calls


def dualpipe(p: int, m: int) -> dict[int, list[Key]]:
    """DualPipe (DeepSeek-V3, 2024; ``dualpipe.py`` of deepseek-ai/DualPipe), in two
    directions on ``p`` devices (``p`` even, ``m`` even and ``>= 2p``).

    Micro-batches ``1 .. m/2`` enter at device 0 and go down (stage ``s`` on device ``s``),
    ``m/2 + 1 .. m`` enter at device ``p - 1`` and go up (stage ``s`` on device ``p - 1 - s``):
    device ``d`` holds stage ``d`` of the one and stage ``p - 1 - d`` of the other (two copies
    of the parameters). The reference runs, on device ``d`` with ``h = min(d, p - 1 - d)``,
    DualPipeV's eight steps for ``p/2`` devices and ``m/2`` micro-batches on its device ``h``
    (see :func:`dualpipe_v`), its "phase 0" being the direction that reaches device ``d``
    first (down on the first half of the devices, up on the second) and its "phase 1" the
    other: two mirrored DualPipeVs, each device ``d`` and ``p - 1 - d`` sharing one V-device's
    order."""
    return {d: [key for call in calls for key in call] for d, calls in dualpipe_calls(p, m).items()}


def dualpipe_calls(p: int, m: int) -> dict[int, list[list[Key]]]:
    """:func:`dualpipe`'s order grouped into the reference implementation's calls (a paired
    forward and full backward ``[F, B, W]``, a full backward ``[B, W]``, ...)."""
    if p % 2 or m % 2 or m < 2 * p:
        raise ValueError(
            _("dualpipe needs p even, m even and m >= 2p, got p={p}, m={m}").format(p=p, m=m)
        )
    half, half_m = p // 2, m // 2
    out = {}
    for d in range(p):
        h = min(d, p - 1 - d)
        second = d >= half
        calls = []
        for call in _dualpipe_v_calls(half, half_m, h):
            mapped = []
            for kind, k, stage in call:
                direction = int((stage == h) == second)  # phase 0 is down on the first half
                mapped.append((kind, k + half_m * direction, stage))
            calls.append(mapped)
        out[d] = calls
    return out


def v_min(p: int, m: int, squeeze: bool = True) -> dict[int, list[Key]]:
    """V-Min (Qi et al. 2024, "Pipeline Parallelism with Controllable Memory"): the V placement
    with the building block whose lifespan keeps about a third of 1F1B's activations,
    ``(p + 4) // 3`` micro-batches' worth at the peak, at a bubble of about ``2p / 3m``.
    ``squeeze=False``: the repeated block as it is, without the greedy squeeze of the warm-up
    and cool-down (see :func:`_v_block_orders`)."""
    return _v_block_orders(p, m, "min", squeeze)


def v_half(p: int, m: int, squeeze: bool = True) -> dict[int, list[Key]]:
    """V-Half (same paper): about half of 1F1B's activations, ``(p + 2) // 2`` micro-batches'
    worth at the peak, at a bubble of about ``p / 2m``; ``squeeze`` as for :func:`v_min`."""
    return _v_block_orders(p, m, "half", squeeze)


# the building block's passes on one device, in the order of the slot lists below
_F0, _F1, _B1, _B0, _W = range(5)  # chunk-0/1 forward, chunk-1/0 backward (B), weight gradient


def _v_block_offsets(p: int, d: int, kind: str) -> list[int]:
    """The time slots of device ``d``'s forward of chunk 0, forward of chunk 1, backward of
    chunk 1 and backward of chunk 0 for the first micro-batch in the paper's building block
    (every pass one slot; the block repeats every 6 slots, one per pass of a micro-batch on a
    device: two forwards, two ``B``, two ``W``). A micro-batch's chunk-0 forwards run down the
    devices one slot apart, its chunk-1 forwards back up, then its backwards the same way; the
    gap before the backwards (the block's lifespan) sets the memory. V-Min leaves no gap
    between the forwards' and the backwards' legs (2 slots when ``3 | p``, so that the
    passes of consecutive blocks do not collide), V-Half spaces the forwards two slots apart
    (3 slots of gap when ``p`` is even); as the sail-sg/zero-bubble-pipeline-parallelism
    implementation's stable patterns."""
    if kind == "min":
        gap = 2 if p % 3 == 0 else 0
        return [d, 2 * p - 1 - d, 2 * p + gap + d, 4 * p + gap - 1 - d]
    gap = 3 if p % 2 == 0 else 0
    return [2 * d, 3 * p - 2 - d, 3 * p + gap + 2 * d - 1, 6 * p + gap - d - 2]


def _v_block_orders(p: int, m: int, kind: str, squeeze: bool = True) -> dict[int, list[Key]]:
    """Every device's order, built as the authors' implementation builds it:

    1. the block repeated ``m`` times (slot lists per device and pass kind);
    2. squeezed twice, with the ``W`` passes placed and then without them: in slot order,
       each pass of the warm-up (first round only) and of the cool-down moves to the earliest
       free slot its inputs allow where the device's peak memory does not grow (the steady
       state is left alone);
    3. every ``W`` in the first free slot after its ``B`` (chunk 1's first), in slot order.

    The evaluator then runs each device's order as soon as the inputs arrive."""
    slots = [
        [[first + 6 * k for k in range(m)] for first in _v_block_offsets(p, d, kind)]
        for d in range(p)
    ]
    if squeeze:
        slots = _squeeze(slots, p, with_w=True)
        slots = _squeeze([x[:4] for x in slots], p, with_w=False)
    out = {}
    for d in range(p):
        s0, s1 = d, 2 * p - 1 - d
        names = [("F", s0), ("F", s1), ("B", s1), ("B", s0), ("W", s1), ("W", s0)]
        lists = _put_w(slots[d][:4], split=True)
        events = sorted((t, kind_, k) for kind_, ts in enumerate(lists) for k, t in enumerate(ts))
        out[d] = [(names[kind_][0], k + 1, names[kind_][1]) for _, kind_, k in events]
    return out


def _put_w(lists: list[list[int]], split: bool = False) -> list[list[int]]:
    """The four slot lists plus the ``W`` slots: each ``W`` in the first free slot after its
    ``B``; one list, or (``split``) chunk 1's and chunk 0's, chunk 1's served first."""
    at = {t: kind for kind, ts in enumerate(lists[:4]) for t in ts}
    ws: list[list[int]] = [[], []]
    pending = [0, 0]
    t = 0
    for t in range(max(at) + 1):
        kind = at.get(t)
        if kind is None:
            for w in (0, 1):
                if pending[w]:
                    ws[w].append(t)
                    pending[w] -= 1
                    break
        elif kind in (_B1, _B0):
            pending[kind - _B1 if split else 0] += 1
    for w in (0, 1):
        for _unused in range(pending[w]):
            t += 1
            ws[w].append(t)
    return [list(x) for x in lists[:4]] + (ws if split else ws[:1])


class _Memory:
    """One device's chunks held per slot, as the squeeze needs it: +1 at each forward, -1 at
    each ``W`` (without ``W`` slots: at each free slot while a ``W`` is pending). ``fits``
    says whether moving a pass earlier keeps every slot within ``limit``, looking only at the
    slots the move changes."""

    def __init__(self, lists: list[list[int]]):
        self.with_w = len(lists) > 4
        size = max(t for ts in lists for t in ts) + 1
        self.at: list[int | None] = [None] * size
        for kind, ts in enumerate(lists):
            for t in ts:
                self.at[t] = kind
        self.level = [0] * size  # after slot t
        self.pending = [0] * size
        self._redo(0)

    def _walk(self, at: list[int | None], start: int):
        level = self.level[start - 1] if start else 0
        pending = self.pending[start - 1] if start else 0
        for t in range(start, len(at)):
            kind = at[t]
            if kind in (_F0, _F1):
                level += 1
            elif kind == _W:
                level -= 1
            elif kind is not None:
                pending += 1
            elif not self.with_w and pending:
                level -= 1
                pending -= 1
            yield t, level, pending

    def _redo(self, start: int) -> None:
        for t, level, pending in list(self._walk(self.at, start)):
            self.level[t], self.pending[t] = level, pending

    @property
    def peak(self) -> int:
        return max(self.level)

    def fits(self, kind: int, old: int, new: int, limit: int) -> bool:
        if self.with_w:  # only a forward raises the level, on slots new .. old - 1
            return kind not in (_F0, _F1) or max(self.level[new:old]) + 1 <= limit
        at = list(self.at)
        at[old], at[new] = None, kind
        return all(level <= limit for _, level, _ in self._walk(at, new))

    def move(self, kind: int, old: int, new: int) -> None:
        self.at[old], self.at[new] = None, kind
        if not self.with_w:
            self._redo(new)
        elif kind in (_F0, _F1, _W):  # held one slot longer (a forward) or shorter (a W)
            step = 1 if kind != _W else -1
            for t in range(new, old):
                self.level[t] += step


def _squeeze(slots: list[list[list[int]]], p: int, with_w: bool) -> list[list[list[int]]]:
    """One greedy round (see :func:`_v_block_orders`); returns the slots of the passes run as
    soon as possible in the new order, one slot each."""
    if with_w:
        slots = [_put_w(x) for x in slots]
    memory = [_Memory(x) for x in slots]
    limit = max(x.peak for x in memory)
    m = len(slots[0][0])
    taken: list[set[int]] = [set() for _unused in range(p)]
    phase = 0  # 0 warm-up, 1 steady state (left alone), 2 cool-down
    events = _slot_events(slots, p)
    for t0, d, kind, k in events:
        mine = slots[d]
        if phase == 0 and kind == _B0 and d == 0:  # the first micro-batch is through
            phase = 1
        if phase == 1 or (phase == 0 and not with_w):
            if phase == 1 and kind == _F0 and k == m - 1:  # the last micro-batch entered
                phase = 2
            taken[d].add(t0)
            continue
        ready = -1  # the latest slot an input of this pass takes
        if kind in (_F0, _B1) and d > 0:
            ready = max(ready, slots[d - 1][kind][k])
        if kind in (_F1, _B0) and d + 1 < p:
            ready = max(ready, slots[d + 1][kind][k])
        if _F0 < kind < _W:
            ready = max(ready, mine[kind - 1][k])
        if kind == _W:
            ready = max(ready, next(islice(merge(mine[_B1], mine[_B0]), k, None)))
        if k > 0:
            ready = max(ready, mine[kind][k - 1])
        for t in range(ready + 1, t0):  # the earliest free slot that keeps the memory
            if t not in taken[d] and memory[d].fits(kind, t0, t, limit):
                memory[d].move(kind, t0, t)
                mine[kind][k] = t
                break
        taken[d].add(mine[kind][k])
    if not with_w:
        slots = [_put_w(x) for x in slots]
    return _asap(slots, p)


def _slot_events(slots: list[list[list[int]]], p: int) -> list[tuple[int, int, int, int]]:
    """Every pass as ``(slot, device, kind, micro-batch)``, in slot order (ties by device)."""
    return sorted(
        (t, d, kind, k)
        for d in range(p)
        for kind, ts in enumerate(slots[d])
        for k, t in enumerate(ts)
    )


def _asap(slots: list[list[list[int]]], p: int) -> list[list[list[int]]]:
    """Each device's passes in slot order, each as soon as its inputs allow, one slot each."""
    done: dict[tuple[int, int, int], int] = {}
    free = [0] * p
    out = [[[0] * len(ts) for ts in x] for x in slots]
    events = _slot_events(slots, p)
    for _unused, d, kind, k in events:
        t = free[d]
        if kind in (_F0, _B1) and d > 0:
            t = max(t, done[d - 1, kind, k])
        if kind in (_F1, _B0) and d + 1 < p:
            t = max(t, done[d + 1, kind, k])
        if _F0 < kind < _W:
            t = max(t, done[d, kind - 1, k])
        if k > 0:
            t = max(t, done[d, kind, k - 1])
        out[d][kind][k] = t
        done[d, kind, k] = free[d] = t + 1
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
