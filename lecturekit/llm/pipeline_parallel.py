"""Pipeline-parallel training schedules, placed and checked by the shared scheduling core.

**The bridge to the first half of the lecture.** A training step split over ``p`` GPUs is a
graph of operations: the forward pass ``F`` of micro-batch ``k`` on stage ``s``, its backward
pass ``B`` (and, for the zero-bubble schedules, the weight-gradient pass ``W`` split off the
backward). Each pass holds its GPU for its duration, exactly like an instruction holds a
functional unit; "micro-batch 3's activations must reach GPU 2" is a dependence with a latency,
exactly like a register written in one cycle and read in a later one. A schedule (GPipe, 1F1B,
...) is one fixed list of passes per GPU, and running it is what in-order hardware does with an
instruction order. So this module builds a :class:`lecturekit.core.Graph` and hands the per-GPU
lists to :func:`lecturekit.core.evaluate`; :func:`lecturekit.core.verify` checks the result.
A bubble is an idle slot of a GPU, as a stall is an idle slot of the pipeline.

**Model** (integers throughout; a *time unit* is whatever the durations are counted in):

- ``p`` devices (GPUs), the model cut into ``p`` stages of equal cost (``p * v`` with ``v``
  chunks per device for the interleaved schedule); ``m`` micro-batches per training step.
- :class:`Timing`: ``forward`` = T_F, ``backward`` = T_B, ``weight`` = T_W, ``comm`` = c, all
  integers: the time of one micro-batch through one device's share of the model. Schedules that
  do not split the backward run one backward op of ``T_B + T_W`` ("B includes W"); the
  zero-bubble schedules run ``B`` (T_B) and ``W`` (T_W) separately. With ``v`` chunks a chunk
  takes ``T/v``, so the interleaved schedule needs durations divisible by ``v``.
- A pass of duration ``d`` started at ``t`` holds its device in time units ``t .. t+d-1``
  (``Reservation(device, 0, d)``, ``tail = d - 1``). Time starts at 1, as in the lecture.
- Edges: ``F(s,k) -> F(s+1,k)`` and ``B(s+1,k) -> B(s,k)`` with latency ``d + c`` (the
  activation or its gradient travels to the next device, ``c`` = 0 between two chunks on the
  same device); ``F(last,k) -> B(last,k)`` and ``B(s,k) -> W(s,k)`` with latency ``d``.
- The optimizer step waits for every device (a *flush*), except in PipeDream (no flush: weights
  are updated after every micro-batch) and ZB-H2 (the paper replaces the synchronisation before
  the optimizer step by a post-update validation). :attr:`PipelineRun.steady_period` says what
  that means for the time per step when steps follow each other.

**Figures** (:class:`PipelineRun`): ``makespan`` (first start to last finish), ``bubble_fraction``
= idle device-time / (``p`` x makespan), ``peak_in_flight`` per device = the most micro-batches
whose activations are alive at once (forward started, backward not finished), in units of one
micro-batch's activations for one device's share of the model; ``peak_held`` the same until the
``W`` pass (a split backward keeps the inputs of each linear layer until ``W``).

**Schedules** (:data:`SCHEDULES`; orders in :mod:`lecturekit.llm.pp_schedules`): ``naive``
(model parallel, the whole batch as one micro-batch: durations and communication ``m`` times
longer), ``gpipe``, ``pipedream``, ``1f1b``, ``1f1b-eager`` (the 2023 slide's DAPPLE figure: list
scheduling with backward first and at most ``p`` micro-batches in flight), ``interleaved``,
``zb-h1``, ``zb-h2``; and in :data:`MORE_SCHEDULES`, with more than one stage per device placed
by :func:`placement_devices` (a loop, or a V: device ``d`` holds stages ``d`` and ``2p - 1 - d``):
``looped-bfs``, ``zb-v``, ``v-half``, ``v-min``, ``dualpipev``; and ``dualpipe``, whose
micro-batches travel in two directions, half from each end, so the placement depends on the
micro-batch
(:func:`placement_directions`: device ``d`` holds stage ``d`` of the down direction and stage
``p - 1 - d`` of the up direction). :mod:`lecturekit.llm.torch_pipelining` reads and writes
orders in the action notation of PyTorch's ``torch.distributed.pipelining``.
"""

from __future__ import annotations

import gc
from bisect import bisect_left
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property, wraps

from ..core import Edge, Graph, Operation, Reservation, Schedule, evaluate, verify
from ..errors import ScheduleError
from . import pp_schedules

__all__ = [
    "ALIASES",
    "ALL_SCHEDULES",
    "DAPPLE_SLIDE",
    "DAPPLE_SLIDE_EXTRACTION",
    "MAX_OPS",
    "MORE_SCHEDULES",
    "PLACEMENTS",
    "SCHEDULES",
    "PipeOp",
    "PipelineGraph",
    "PipelineRun",
    "Timing",
    "build_pipeline_graph",
    "closed_form",
    "compare_schedules",
    "critical_path",
    "device_name",
    "eager_order",
    "parse_order",
    "pipeline_schedule",
    "placement_devices",
    "placement_directions",
    "resolve_schedule",
    "run_order",
    "weight_versions",
]

#: name -> one-line description, in the order the lecture tells the story
SCHEDULES: dict[str, str] = {
    "naive": "model parallel: the whole batch as one micro-batch, one device busy at a time",
    "gpipe": "GPipe (2019): all forwards, then all backwards; flush",
    "pipedream": "PipeDream (2019): 1F1B without flush, weights updated per micro-batch",
    "1f1b": "1F1B = DAPPLE (2021) = PipeDream-Flush: warm-up, one forward one backward, cool-down",
    "1f1b-eager": "the 2023 slide's DAPPLE figure: backward first, forwards as they arrive, <= p",
    "interleaved": "interleaved 1F1B (Megatron-LM 2021): v model chunks per device",
    "zb-h1": "zero bubble ZB-H1 (2023): backward split into B and W, W postponed; 1F1B peak memory",
    "zb-h2": "zero bubble ZB-H2 (2023): more warm-up forwards, parallelogram; ~2x memory",
}

#: the second edition's schedules (more than one chunk per device; the V placement)
MORE_SCHEDULES: dict[str, str] = {
    "looped-bfs": "looped BFS (2022): loop placement, each chunk GPipe-style in turn; m in flight",
    "zb-v": "ZB-V (2024): V placement (stages d and 2p-1-d), split backward; 1F1B memory",
    "v-half": "V-Half (2024): V placement, about half of 1F1B's activation memory, small bubble",
    "v-min": "V-Min (2024): V placement, about a third of 1F1B's activation memory",
    "dualpipev": "DualPipeV (DeepSeek 2025): V placement, forward and backward chunks paired",
    "dualpipe": "DualPipe (DeepSeek-V3 2024): two directions, half the micro-batches from each "
    "end; 2x parameters",
}

#: every schedule :func:`pipeline_schedule` runs
ALL_SCHEDULES: dict[str, str] = SCHEDULES | MORE_SCHEDULES

#: other names people use
ALIASES = {
    "dapple": "1f1b",
    "pipedream-flush": "1f1b",
    "1f1b-interleaved": "interleaved",
    "interleaved-1f1b": "interleaved",
    "megatron": "interleaved",
    "zbh1": "zb-h1",
    "zb1p": "zb-h1",
    "zbh2": "zb-h2",
    "zb2p": "zb-h2",
    "model-parallel": "naive",
    "dapple-slide": "1f1b-eager",
    "bfs": "looped-bfs",
    "loopedbfs": "looped-bfs",
    "zbv": "zb-v",
    "zbvzerobubble": "zb-v",
    "dualpipe-v": "dualpipev",
    "dual-pipe": "dualpipe",
    "vhalf": "v-half",
    "vmin": "v-min",
    "bidirectional": "dualpipe",
}

#: how the optimizer step is synchronised: "flush" (wait for every device), "none" (PipeDream:
#: every micro-batch updates its stage's weights), "post-validation" (ZB-H2's assumption)
SYNC = {name: "flush" for name in ALL_SCHEDULES} | {"pipedream": "none", "zb-h2": "post-validation"}

#: a bound against runaway input only: the evaluator and the figures are O(n log n) in the number
#: of passes (p = 32, m = 256 with a split backward is 24,576 passes, seconds); a million would
#: take minutes
MAX_OPS = 100_000
#: and it walks time unit by time unit; keep durations modest
MAX_DURATION = 1000

KINDS = ("F", "B", "W")
_KIND_TEXT = {"F": "forward", "B": "backward", "W": "weight-gradient"}


def _collector_paused(func):
    """Run ``func`` with Python's cyclic garbage collector paused (when it was running): a
    schedule of p = 32, m = 256 creates a few hundred thousand objects at once, none of them
    garbage, and the collector would walk them over and over while they are made (about a
    third of the time). It runs again afterwards, also when ``func`` raises."""

    @wraps(func)
    def paused(*args, **kwargs):
        if not gc.isenabled():
            return func(*args, **kwargs)
        gc.disable()
        try:
            return func(*args, **kwargs)
        finally:
            gc.enable()

    return paused


def _int(name: str, value, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ScheduleError(f"{name}: must be an integer, got {value!r}")
    if value < low or (high is not None and value > high):
        rng = f">= {low}" if high is None else f"between {low} and {high}"
        raise ScheduleError(f"{name}: must be {rng}, got {value}")
    return value


@dataclass(frozen=True)
class Timing:
    """Durations of one micro-batch through one device's share of the model, and the
    communication latency between devices, in integer time units.

    ``backward`` is the input-gradient part B and ``weight`` the weight-gradient part W of the
    backward pass; a schedule that does not split the backward runs one op of
    ``backward + weight`` (so ``weight=0`` describes an unsplit backward of ``backward``).
    """

    forward: int = 1
    backward: int = 1
    weight: int = 1
    comm: int = 0

    def __post_init__(self) -> None:
        _int("forward (T_F)", self.forward, 1, MAX_DURATION)
        _int("backward (T_B)", self.backward, 1, MAX_DURATION)
        _int("weight (T_W)", self.weight, 0, MAX_DURATION)
        _int("comm (communication latency)", self.comm, 0, MAX_DURATION)

    @property
    def full_backward(self) -> int:
        """The unsplit backward: ``T_B + T_W``."""
        return self.backward + self.weight

    def per_micro_batch(self) -> int:
        """Work of one micro-batch on one device: ``T_F + T_B + T_W``."""
        return self.forward + self.backward + self.weight

    def as_dict(self) -> dict[str, int]:
        return {"F": self.forward, "B": self.backward, "W": self.weight, "comm": self.comm}


@dataclass(frozen=True)
class PipeOp:
    """One pass: ``kind`` F/B/W of micro-batch ``micro`` (1-based) on ``stage`` (0-based),
    which lives on ``device`` as its ``chunk``-th model chunk. ``batch`` > 1 (naive model
    parallelism) means the op carries that many micro-batches at once."""

    kind: str
    micro: int
    stage: int
    device: int
    chunk: int = 0
    duration: int = 1
    batch: int = 1

    @property
    def label(self) -> str:
        """``F3``; ``F3.1`` for chunk 1 (interleaved); ``F1-8`` for a whole batch of 8."""
        if self.batch > 1:
            return f"{self.kind}{self.micro}-{self.micro + self.batch - 1}"
        return f"{self.kind}{self.micro}" + (f".{self.chunk}" if self.chunk else "")


def device_name(d: int) -> str:
    """The stream (and unit) name of device ``d`` in the core graph: ``device 0``, ..."""
    return f"device {d}"


@dataclass
class PipelineGraph:
    """The passes of one training step and their dependences, as a core :class:`Graph`."""

    p: int
    m: int
    v: int
    timing: Timing
    split: bool
    batch: int
    ops: list[PipeOp]
    graph: Graph
    index: dict[tuple[str, int, int], int] = field(repr=False)
    #: the device of every stage (see :func:`placement_devices`); empty means the loop. With
    #: two directions (DualPipe) this is the placement of direction 0
    placement: tuple[int, ...] = ()
    #: the placement's name: "loop", "v", "dualpipe" or "custom"
    placement_name: str = "loop"
    #: one placement per direction (one entry unless micro-batches travel in two directions)
    placements: tuple[tuple[int, ...], ...] = ()
    #: the direction (index into :attr:`placements`) of each micro-batch, micro-batch 1 first
    directions: tuple[int, ...] = ()
    #: groups of passes run as one call (see :func:`build_pipeline_graph`); empty: none
    calls: tuple[tuple[tuple[str, int, int], ...], ...] = ()

    @property
    def stages(self) -> int:
        return self.p * self.v

    def direction_of(self, micro: int) -> int:
        """The direction micro-batch ``micro`` travels in (0 unless there are two)."""
        return self.directions[micro - 1] if self.directions else 0

    def device_of(self, stage: int, micro: int | None = None) -> int:
        """The device that holds ``stage`` (of ``micro``'s direction when there are two)."""
        if micro is not None and len(self.placements) > 1:
            return self.placements[self.direction_of(micro)][stage]
        return self.placement[stage] if self.placement else stage % self.p

    def chunks_of(self, device: int) -> list[tuple[int, int]]:
        """The model chunks ``device`` holds, as ``(direction, stage)``, chunk 0 first."""
        places = self.placements or (tuple(self.device_of(s) for s in range(self.stages)),)
        return [
            (k, s)
            for k, place in enumerate(places)
            for s in range(self.stages)
            if place[s] == device
        ]

    def stages_of(self, device: int) -> list[int]:
        """The stages ``device`` holds, in order: its chunk 0, chunk 1, ... (with two
        directions, a stage number can appear twice: once per direction)."""
        return [s for _, s in self.chunks_of(device)]

    def stage_of(self, device: int, chunk: int) -> int:
        """The stage that is ``device``'s ``chunk``-th model chunk."""
        return self.stages_of(device)[chunk]

    def parameter_share(self, device: int) -> Fraction:
        """The fraction of the model's parameters ``device`` holds: one ``1/(p v)`` per chunk
        (``1/p`` for 1F1B; ``2/p`` for DualPipe, which keeps both directions' copy of a stage)."""
        return Fraction(len(self.chunks_of(device)), self.stages)

    def op(self, kind: str, micro: int, stage: int) -> int:
        """The operation index of ``kind`` of ``micro`` on ``stage``."""
        key = (kind, micro, stage)
        if key not in self.index:
            raise ScheduleError(
                f"there is no {kind}{micro} on stage {stage} (p={self.p}, m={self.m}, v={self.v}"
                f"{', backward split into B and W' if self.split else ''})"
            )
        return self.index[key]

    def order_from_keys(self, keys: Mapping[int, list]) -> dict[str, list[int]]:
        """``{device: [(kind, micro, stage), ...]}`` -> the core's ``{stream: [op index]}``."""
        index = self.index
        return {
            device_name(d): [
                index[k] if type(k) is tuple and k in index else self.op(*k) for k in ks
            ]
            for d, ks in keys.items()
        }


def _check_shape(p, m, v) -> tuple[int, int, int]:
    p = _int("p (pipeline stages / devices)", p, 1, 64)
    m = _int("m (micro-batches)", m, 1, 512)
    v = _int("v (model chunks per device)", v, 1, 16)
    return p, m, v


#: stage placements: how the ``p v`` stages sit on the ``p`` devices
PLACEMENTS = {
    "loop": "stage s on device s mod p (v = 1: one stage per device; v > 1: interleaved, "
    "looped BFS)",
    "v": "V shape (zig-zag): chunk c of device d is stage c p + d for even c and "
    "c p + p - 1 - d for odd c; v = 2: device d holds stages d and 2p - 1 - d (ZB-V, DualPipeV)",
    "dualpipe": "two directions (DualPipe): the first half of the micro-batches go down the loop "
    "(stage s on device s mod p), the second half up its mirror image (stage s on device "
    "p - 1 - s mod p); v = 1: device d holds stage d of one and stage p - 1 - d of the other",
}


def placement_devices(p: int, v: int, placement="loop") -> tuple[int, ...]:
    """The device of each of the ``p v`` stages.

    ``placement`` is a name from :data:`PLACEMENTS` (``"interleaved"`` is another name for
    ``"loop"``; ``"zigzag"`` for ``"v"``) or the data itself: a sequence of ``p v`` device
    numbers, stage by stage, in which every device appears ``v`` times."""
    stages = p * v
    if isinstance(placement, str):
        key = placement.strip().lower().replace("_", "-")
        key = {"interleaved": "loop", "looped": "loop", "zigzag": "v", "v-shape": "v"}.get(key, key)
        if key in ("dualpipe", "bidirectional"):
            raise ScheduleError(
                f"placement: {placement!r} has two directions, one placement each: see "
                f"placement_directions"
            )
        if key == "loop":
            return tuple(s % p for s in range(stages))
        if key == "v":
            return tuple(s % p if (s // p) % 2 == 0 else p - 1 - s % p for s in range(stages))
        raise ScheduleError(
            f"placement: unknown placement {placement!r}; choose one of {', '.join(PLACEMENTS)} "
            f"or give the device of each stage"
        )
    try:
        devs = [int(x) for x in placement]
    except (TypeError, ValueError):
        raise ScheduleError(
            f"placement: expected a name or a list of device numbers, got {placement!r}"
        ) from None
    if len(devs) != stages:
        raise ScheduleError(
            f"placement: {len(devs)} device number(s) given for p x v = {stages} stages"
        )
    for s, d in enumerate(devs):
        if not 0 <= d < p:
            raise ScheduleError(f"placement: stage {s} is on device {d}, devices are 0..{p - 1}")
    for d in range(p):
        if devs.count(d) != v:
            raise ScheduleError(
                f"placement: device {d} holds {devs.count(d)} stage(s); each device holds v = {v}"
            )
    return tuple(devs)


def placement_directions(p: int, v: int, placement="loop") -> tuple[tuple[int, ...], ...]:
    """The device of each stage, once per direction the micro-batches travel in.

    One direction for every placement :func:`placement_devices` takes; two for
    ``"dualpipe"`` (DeepSeek's DualPipe: direction 0 goes down the loop, stage ``s`` on device
    ``s mod p``, direction 1 up its mirror image, stage ``s`` on device ``p - 1 - (s mod p)``)
    or for data with one placement per direction: ``[[0, 1, 2, 3], [3, 2, 1, 0]]`` or
    ``{0: [...], 1: [...]}``."""
    if isinstance(placement, str):
        key = placement.strip().lower().replace("_", "-")
        if key in ("dualpipe", "bidirectional"):
            loop = placement_devices(p, v)
            return (loop, tuple(p - 1 - d for d in loop))
        return (placement_devices(p, v, placement),)
    if isinstance(placement, Mapping):
        keys = sorted(placement)
        if keys != list(range(len(keys))):
            raise ScheduleError(
                f"placement: directions must be numbered 0, 1, ..., got {', '.join(map(str, keys))}"
            )
        placement = [placement[k] for k in keys]
    try:
        nested = [not isinstance(x, (str, bytes)) and hasattr(x, "__iter__") for x in placement]
    except TypeError:
        nested = []
    if nested and all(nested):
        if len(placement) > 2:
            raise ScheduleError(
                f"placement: {len(placement)} directions given; micro-batches travel in one "
                f"direction or two (DualPipe)"
            )
        return tuple(placement_devices(p, v, pl) for pl in placement)
    return (placement_devices(p, v, placement),)


def _directions(m: int, n: int, directions) -> tuple[int, ...]:
    """Each micro-batch's direction: by default the first ``m / n`` go in direction 0, the
    next in direction 1 (DualPipe: half from each end)."""
    if directions is None:
        if n == 1:
            return ()
        if m % n:
            raise ScheduleError(
                f"directions: m = {m} micro-batches do not split evenly over {n} directions; "
                f"use an even m or give each micro-batch's direction"
            )
        return tuple(k * n // m for k in range(m))
    try:
        dirs = tuple(int(x) for x in directions)
    except (TypeError, ValueError):
        raise ScheduleError(
            f"directions: expected one direction number per micro-batch, got {directions!r}"
        ) from None
    if len(dirs) != m:
        raise ScheduleError(f"directions: {len(dirs)} given for m = {m} micro-batches")
    bad = [k + 1 for k, x in enumerate(dirs) if not 0 <= x < n]
    if bad:
        raise ScheduleError(
            f"directions: micro-batch {bad[0]} has direction {dirs[bad[0] - 1]}; the placement "
            f"has direction(s) 0..{n - 1}"
        )
    return dirs if n > 1 else ()


@_collector_paused
def build_pipeline_graph(
    p: int,
    m: int,
    v: int = 1,
    timing: Timing | None = None,
    split: bool = False,
    batch: int = 1,
    placement="loop",
    directions=None,
    calls=None,
) -> PipelineGraph:
    """The graph of ``F``/``B`` (/``W`` when ``split``) passes for ``p`` devices, ``m``
    micro-batches and ``v`` chunks per device; durations from ``timing`` (each divided by
    ``v`` for a chunk, multiplied by ``batch`` when one op carries ``batch`` micro-batches).
    ``placement`` puts the stages on the devices (see :func:`placement_devices`): the loop
    (stage ``s`` on device ``s mod p``, the default), ``"v"`` (device ``d`` holds stages ``d``
    and ``2p - 1 - d``), or a list with the device of each stage; or, for micro-batches that
    travel in two directions, ``"dualpipe"`` or one such list per direction (see
    :func:`placement_directions`), with ``directions`` the direction of each micro-batch
    (default: the first half 0, the second half 1).

    ``calls`` (optional): groups of passes that run as one call, e.g. a full backward
    ``[("B", 3, 1), ("W", 3, 1)]`` (one autograd call computes both gradients) or DualPipe's
    paired forward and backward. A call waits for all its inputs before its first pass starts
    and sends its outputs when its last pass ends: edges are added from every input of a
    member to the first member and from the last member to every consumer of a member's
    output. Each group must be consecutive in the order that runs on the graph."""
    p, m, v = _check_shape(p, m, v)
    places = placement_directions(p, v, placement)
    dirs = _directions(m, len(places), directions)
    place = places[0]
    pname = "loop" if place == placement_devices(p, v) else "custom"
    if pname == "custom" and place == placement_devices(p, v, "v"):
        pname = "v"
    if len(places) > 1:
        pname = "dualpipe" if places == placement_directions(p, v, "dualpipe") else "custom"
    chunk_of = {}
    for d in range(p):
        held = [(k, x) for k, pl in enumerate(places) for x in range(p * v) if pl[x] == d]
        for c, key in enumerate(held):
            chunk_of[key] = c

    timing = timing or Timing()
    if split and timing.weight < 1:
        raise ScheduleError(
            "weight (T_W): a split backward needs a weight-gradient pass of at least 1 time unit"
        )
    n_ops = p * v * m * (3 if split else 2)
    if n_ops > MAX_OPS:
        raise ScheduleError(
            f"{n_ops} passes (p={p} x v={v} x m={m} x {3 if split else 2}) is more than this "
            f"simulator handles quickly ({MAX_OPS}); use fewer micro-batches or stages"
        )
    full_b = timing.backward if split else timing.full_backward
    raw = {"F": timing.forward, "B": full_b, "W": timing.weight}
    if v > 1:
        for kind, d in raw.items():
            if kind == "W" and not split:
                continue
            if d % v:
                names = {"F": "forward (T_F)", "B": "backward", "W": "weight (T_W)"}
                raise ScheduleError(
                    f"{names[kind]} = {d} is not divisible by v = {v}: with v chunks per device "
                    f"each chunk's pass takes 1/v of the time, and durations are whole time "
                    f"units. Use durations that are multiples of {v} (e.g. T_F = T_B = T_W = {v})"
                )
    dur = {k: d * batch // v for k, d in raw.items()}
    comm = timing.comm * batch
    stages = p * v
    ops: list[PipeOp] = []
    index: dict[tuple[str, int, int], int] = {}
    kinds = ("F", "B", "W") if split else ("F", "B")
    for k in range(1, m + 1):
        dk = dirs[k - 1] if dirs else 0
        place_k = places[dk]
        for kind in kinds:
            rng = range(stages) if kind == "F" else range(stages - 1, -1, -1)
            for s in rng:
                index[(kind, k, s)] = len(ops)
                ops.append(PipeOp(kind, k, s, place_k[s], chunk_of[dk, s], dur[kind], batch))
    core_ops = []
    # what many passes share is made once: a device's unit name and reservation, a stage's
    # place in words
    units: dict[tuple[int, int], tuple[str, tuple[Reservation, ...]]] = {}
    wheres: dict[tuple[int, int, int], str] = {}
    for op in ops:
        held = units.get((op.device, op.duration))
        if held is None:
            unit = device_name(op.device)
            held = units[op.device, op.duration] = (unit, (Reservation(unit, 0, op.duration),))
        where = wheres.get((op.stage, op.device, op.chunk))
        if where is None:
            where = wheres[op.stage, op.device, op.chunk] = f"stage {op.stage}" + (
                f" (device {op.device}, chunk {op.chunk})" if v > 1 or dirs else ""
            )
        what = f"micro-batches {op.label[1:]}" if batch > 1 else f"micro-batch {op.micro}"
        core_ops.append(
            Operation(
                name=f"{op.kind}{op.micro}@{op.stage}",
                text=f"{_KIND_TEXT[op.kind]} of {what} on {where}",
                reservations=held[1],
                tail=op.duration - 1,
                kind=op.kind,
                stream=held[0],
            )
        )
    edges = []
    # the communication latency from stage s to s + 1, per direction
    hops = [[comm if pl[s] != pl[s + 1] else 0 for s in range(stages - 1)] for pl in places]

    for k in range(1, m + 1):
        hop = hops[dirs[k - 1] if dirs else 0]
        activations, gradient = f"activations of micro-batch {k}", f"gradient of micro-batch {k}"
        for s in range(stages - 1):
            edges.append(
                Edge(
                    index["F", k, s],
                    index["F", k, s + 1],
                    dur["F"] + hop[s],
                    "ACT",
                    activations,
                )
            )
            edges.append(
                Edge(
                    index["B", k, s + 1],
                    index["B", k, s],
                    dur["B"] + hop[s],
                    "GRAD",
                    gradient,
                )
            )
        edges.append(
            Edge(
                index["F", k, stages - 1],
                index["B", k, stages - 1],
                dur["F"],
                "LOSS",
                f"loss of micro-batch {k}",
            )
        )
        if split:
            for s in range(stages):
                edges.append(
                    Edge(
                        index["B", k, s],
                        index["W", k, s],
                        dur["B"],
                        "LOCAL",
                        f"output gradient of micro-batch {k}",
                    )
                )
    if calls:
        edges += _call_edges(calls, index, ops, edges)
    graph = Graph(
        core_ops,
        edges,
        units={device_name(d): 1 for d in range(p)},
        issue_width=None,
        earliest=1,
        name=f"pipeline p={p} m={m}"
        + (f" v={v}" if v > 1 else "")
        + (f" placement={pname}" if pname != "loop" else ""),
    )
    pg = PipelineGraph(
        p,
        m,
        v,
        timing,
        split,
        batch,
        ops,
        graph,
        index,
        place,
        pname,
        places,
        dirs,
        tuple(tuple(tuple(k) for k in g) for g in calls or ()),
    )
    graph.source = pg
    return pg


def _call_edges(calls, index, ops, edges) -> list[Edge]:
    """The edges that make each group of passes one call (see :func:`build_pipeline_graph`)."""
    group_of: dict[int, tuple[int, int]] = {}  # op -> (its call's first op, last op)
    for g in calls:
        members = []
        for key in g:
            key = tuple(key)
            if key not in index:
                raise ScheduleError(f"calls: there is no pass {key} in this graph")
            members.append(index[key])
        if len({ops[i].device for i in members}) > 1:
            raise ScheduleError(f"calls: the passes of one call run on one device, got {list(g)}")
        for i in members:
            if i in group_of:
                raise ScheduleError(f"calls: {ops[i].label} on stage {ops[i].stage} is in two")
            group_of[i] = (members[0], members[-1])
    extra = []
    for e in edges:
        gs, gd = group_of.get(e.src), group_of.get(e.dst)
        if gs == gd and gs is not None:
            continue  # inside one call
        # a call sends its outputs when its last pass ends, and waits for every input of a
        # member before its first pass starts
        src = gs[1] if gs else e.src
        dst = gd[0] if gd else e.dst
        if (src, dst) != (e.src, e.dst):
            lat = ops[src].duration + e.latency - ops[e.src].duration
            extra.append(Edge(src, dst, lat, e.kind, e.on + " (one call)"))
    return extra


# ----------------------------------------------------------------------------------------------
# running an order
# ----------------------------------------------------------------------------------------------


@dataclass
class PipelineRun:
    """A schedule of one training step: the order each device ran, the start of every pass
    (from :func:`lecturekit.core.evaluate`, checked by :func:`lecturekit.core.verify`), and
    the figures derived from it."""

    name: str
    pg: PipelineGraph
    order: dict[str, list[int]]
    schedule: Schedule
    note: str = ""

    # -- shape ---------------------------------------------------------------------------------
    p = property(lambda self: self.pg.p)
    #: micro-batches per step (for ``naive`` the one op carries all of them)
    m = property(lambda self: self.pg.m * self.pg.batch)
    v = property(lambda self: self.pg.v)
    timing = property(lambda self: self.pg.timing)

    @property
    def ops(self) -> list[PipeOp]:
        return self.pg.ops

    def start(self, i: int) -> int:
        return self.schedule.start[i]

    @cached_property
    def _finish(self) -> list[int]:
        return list(self.schedule.finish)

    def finish(self, i: int) -> int:
        return self._finish[i]

    def device_ops(self, d: int) -> list[int]:
        """Operation indices run by device ``d``, in the order it ran them."""
        return list(self.order[device_name(d)])

    # -- time ----------------------------------------------------------------------------------
    @cached_property
    def first(self) -> int:
        return min(self.schedule.start)

    @cached_property
    def last(self) -> int:
        return max(self._finish, default=0)

    @cached_property
    def makespan(self) -> int:
        """Time units from the first start to the last finish."""
        return self.last - self.first + 1 if self.schedule.start else 0

    @cached_property
    def _busy(self) -> list[int]:
        return [
            sum(self.ops[i].duration for i in self.order[device_name(d)]) for d in range(self.p)
        ]

    def busy(self, d: int) -> int:
        """Time units device ``d`` computes."""
        return self._busy[d]

    def idle(self, d: int) -> int:
        return self.makespan - self.busy(d)

    @property
    def bubble_time(self) -> Fraction:
        """Idle time per device, averaged over devices."""
        return Fraction(sum(self.idle(d) for d in range(self.p)), self.p)

    @property
    def bubble_fraction(self) -> float:
        """Idle device-time / (p x makespan)."""
        return float(self.bubble_time / self.makespan)

    @property
    def ideal(self) -> int:
        """The step time with no bubble at all: the busiest device's work."""
        return max(self.busy(d) for d in range(self.p))

    @property
    def bubble_over_ideal(self) -> float:
        """Bubble time / ideal time, the measure of the Megatron-LM and zero-bubble papers
        ((p-1)/m for 1F1B)."""
        return float(self.bubble_time / self.ideal)

    def span(self, d: int) -> tuple[int, int]:
        """First start and last finish on device ``d``."""
        ops = self.order[device_name(d)]
        return min(self.start(i) for i in ops), max(self.finish(i) for i in ops)

    @property
    def sync(self) -> str:
        return SYNC.get(self.name, "flush")

    @property
    def steady_period(self) -> int:
        """Time per training step when steps follow each other.

        With a flush the next step starts when this one has finished everywhere: the makespan.
        Without the synchronisation (ZB-H2's post-validation) each device starts its next step
        as soon as it is done, so the step repeats every ``max(device span)``. PipeDream never
        drains: in the steady state each device is busy all the time."""
        if self.sync == "none":
            return self.ideal
        if self.sync == "post-validation":
            return max(b - a + 1 for a, b in (self.span(d) for d in range(self.p)))
        return self.makespan

    @property
    def steady_bubble_fraction(self) -> float:
        return 1 - self.ideal / self.steady_period

    # -- memory --------------------------------------------------------------------------------
    def _alive_changes(self, d: int, until: str) -> dict[int, int]:
        """Where the micro-batches alive on device ``d`` change (index 0 = ``first``), in
        units of ``1/v``: each forward adds its batch at its start and takes it away after its
        backward (``until="B"``) or ``W`` pass ends."""
        return self._changes[d][0 if until == "B" or not self.pg.split else 1]

    @cached_property
    def _spans(self) -> list[list[tuple[int, int, int, int]]]:
        """Per device, each forward's start, its B pass's finish, its W pass's finish (the B
        pass's without a split backward) and its batch; times from :attr:`first`."""
        t0 = self.first
        index, ops, start, finish = self.pg.index, self.ops, self.schedule.start, self._finish
        last = "W" if self.pg.split else "B"
        out = []
        for d in range(self.p):
            spans = []
            for i in self.order[device_name(d)]:
                op = ops[i]
                if op.kind == "F":
                    b_end = finish[index["B", op.micro, op.stage]]
                    w_end = finish[index[last, op.micro, op.stage]]
                    spans.append((start[i] - t0, b_end - t0, w_end - t0, op.batch))
            out.append(spans)
        return out

    @cached_property
    def _changes(self) -> list[tuple[dict[int, int], dict[int, int]]]:
        """Per device, :meth:`_alive_changes` until the B pass and until the W pass."""
        out = []
        for spans in self._spans:
            until_b: dict[int, int] = {}
            until_w: dict[int, int] = {}
            for a, b_end, w_end, batch in spans:
                if a <= b_end:
                    until_b[a] = until_b.get(a, 0) + batch
                    until_b[b_end + 1] = until_b.get(b_end + 1, 0) - batch
                if self.pg.split and a <= w_end:
                    until_w[a] = until_w.get(a, 0) + batch
                    until_w[w_end + 1] = until_w.get(w_end + 1, 0) - batch
            out.append((until_b, until_w))
        return out

    def _alive(self, d: int, until: str) -> list[Fraction]:
        """Per time unit (index 0 = ``first``), the micro-batches alive on device ``d``."""
        return _curve(self._alive_changes(d, until), self.v, self.last - self.first + 1)

    def in_flight(self, d: int) -> list[Fraction]:
        """Micro-batches with activations alive on device ``d`` (forward started, backward not
        finished), per time unit from :attr:`first`; chunks count ``1/v``, a whole batch ``m``."""
        return self._alive(d, "B")

    def held(self, d: int) -> list[Fraction]:
        """As :meth:`in_flight` but until the ``W`` pass (equal when the backward is not split)."""
        return self._alive(d, "W")

    def _peaks(self, until: str) -> list[Fraction]:
        """Per device, the peak of :meth:`_alive`, from its changes alone: O(ops log ops), not
        O(time units), so a long timeline (the naive schedule's) costs no more than a short."""
        length = self.last - self.first + 1
        return [_peak(self._alive_changes(d, until), self.v, length) for d in range(self.p)]

    @cached_property
    def peak_in_flight(self) -> list[Fraction]:
        """Per device, the most micro-batches' activations alive at once (F done, B not yet)."""
        return self._peaks("B")

    @cached_property
    def peak_held(self) -> list[Fraction]:
        """Per device, the most micro-batches whose activations are kept until their W pass."""
        return self._peaks("W")

    def memory(self, d: int, m_b=1, m_w=None) -> list[Fraction]:
        """Activation memory on device ``d`` per time unit (index 0 = :attr:`first`), in the
        units of ``m_b`` and ``m_w``.

        The zero-bubble paper's accounting (Qi et al. 2023, section 3): a forward pass takes
        ``M_B`` (what its backward needs), the ``B`` pass frees ``M_B - M_W`` and the ``W`` pass
        the remaining ``M_W`` (the inputs of the linear layers and the gradients of their
        outputs, which the weight gradients are computed from; for a transformer layer
        ``M_W = 32 sbh`` bytes against ``M_B = 34 sbh + 5 a s^2 b``, see
        :func:`lecturekit.llm.activations.weight_pass_bytes`). So a micro-batch holds ``m_b``
        from the start of its F to the end of its B, then ``m_w`` until the end of its W.
        ``m_w`` defaults to ``m_b`` (the upper bound: everything kept until W, as
        :meth:`held`). Without a split backward there is no W and ``m_w`` plays no part."""
        m_b, m_w = _memory_units(m_b, m_w)
        return _curve(*self._memory_changes(d, m_b, m_w), self.last - self.first + 1)

    def _memory_changes(self, d: int, m_b: Fraction, m_w: Fraction) -> tuple[dict[int, int], int]:
        """Where :meth:`memory` changes (index 0 = :attr:`first`), as whole numbers over one
        common denominator (returned second), so the sums are integer sums."""
        scale = m_b.denominator * m_w.denominator  # m_b, m_w times scale are whole
        b_units, w_units = int(m_b * scale), int(m_w * scale)
        split = self.pg.split
        delta: dict[int, int] = {}
        for a, b_end, w_end, batch in self._spans[d]:
            if a <= b_end:
                delta[a] = delta.get(a, 0) + batch * b_units
                delta[b_end + 1] = delta.get(b_end + 1, 0) - batch * b_units
            if split and b_end + 1 <= w_end:
                delta[b_end + 1] = delta.get(b_end + 1, 0) + batch * w_units
                delta[w_end + 1] = delta.get(w_end + 1, 0) - batch * w_units
        return delta, self.v * scale

    def peak_memory(self, m_b=1, m_w=None) -> list[Fraction]:
        """Per device, the peak of :meth:`memory` (``M_B`` from F to B, ``M_W`` from B to W)."""
        m_b, m_w = _memory_units(m_b, m_w)
        length = self.last - self.first + 1
        return [_peak(*self._memory_changes(d, m_b, m_w), length) for d in range(self.p)]

    def activation_bytes(self, per_micro_batch: int, until: str = "W") -> list[int]:
        """Peak activation bytes per device, given the bytes one micro-batch's activations take
        on one device's share of the model (e.g. ``layers/p`` x a layer's activations from
        :mod:`lecturekit.llm.memory`). ``until="W"`` counts a split backward's kept inputs."""
        peaks = self.peak_held if until == "W" else self.peak_in_flight
        return [int(x * per_micro_batch) for x in peaks]

    # -- bounds --------------------------------------------------------------------------------
    @cached_property
    @_collector_paused
    def lower_bounds(self) -> dict[str, int]:
        """No schedule of this graph can be shorter: the busiest device's work, the critical
        path (the longest chain of passes and transfers), and the scheduling core's best bound
        (:func:`lecturekit.core.bounds.lower_bound`: each device's work plus the time before it
        can start and after it must stop, the same bound that judges instruction schedules)."""
        from ..core.bounds import bounds

        g = self.pg.graph
        each = bounds(g)  # lower_bound(g) is their maximum; one of them is the critical path
        return {
            "device work": self.ideal,
            "critical path": each["critical_path"] - g.earliest + 1,
            "core": max(each.values()) - g.earliest + 1,
        }

    # -- output --------------------------------------------------------------------------------
    @_collector_paused
    def devices(self) -> list[list[dict]]:
        """Per device, its passes in order: label, kind, micro, stage, chunk, start, finish."""
        ops, start, finish = self.ops, self.schedule.start, self._finish
        return [
            [
                {
                    "op": ops[i].label,
                    "kind": ops[i].kind,
                    "micro": ops[i].micro,
                    "stage": ops[i].stage,
                    "chunk": ops[i].chunk,
                    "start": start[i],
                    "finish": finish[i],
                }
                for i in self.order[device_name(d)]
            ]
            for d in range(self.p)
        ]

    @_collector_paused
    def summary(self) -> dict:
        """The figures of one row of a comparison table."""
        return {
            "schedule": self.name,
            "p": self.p,
            "m": self.m,
            "v": self.v,
            "makespan": self.makespan,
            "ideal": self.ideal,
            "bubble_fraction": self.bubble_fraction,
            "bubble_over_ideal": self.bubble_over_ideal,
            "peak_in_flight": [_num(x) for x in self.peak_in_flight],
            "peak_held": [_num(x) for x in self.peak_held],
            "steady_period": self.steady_period,
        }

    @_collector_paused
    def to_dict(self) -> dict:
        """The JSON contract of ``lecturekit parallel pipeline --json``."""
        d = self.summary()
        d.update(
            {
                "timing": self.timing.as_dict(),
                "split_backward": self.pg.split,
                "time_origin": self.first,
                "bubble_time_per_device": _num(self.bubble_time),
                "sync": self.sync,
                "steady_bubble_fraction": self.steady_bubble_fraction,
                "lower_bounds": self.lower_bounds,
                "closed_form_makespan": (
                    closed_form(
                        self.name, self.p, self.m, self.v, self.timing, calls=bool(self.pg.calls)
                    )
                    if self.name in ALL_SCHEDULES
                    else None  # a hand-written or imported order
                ),
                "note": self.note,
                "devices": [
                    {"device": k, "busy": self.busy(k), "idle": self.idle(k), "ops": ops}
                    for k, ops in enumerate(self.devices())
                ],
            }
        )
        return d


def _memory_units(m_b, m_w) -> tuple[Fraction, Fraction]:
    """``m_b`` and ``m_w`` (default ``m_b``) as fractions, checked: ``0 <= m_w <= m_b``."""
    if m_w is None:
        m_w = m_b
    if m_b < 0 or m_w < 0 or m_w > m_b:
        raise ScheduleError(
            f"memory: need 0 <= m_w <= m_b (B frees m_b - m_w), got m_b={m_b!r}, m_w={m_w!r}"
        )
    return Fraction(m_b), Fraction(m_w)


def _curve(delta: Mapping[int, int], denominator: int, length: int) -> list[Fraction]:
    """The curve of ``length`` time units whose changes are ``delta`` (position -> whole-number
    change, over ``denominator``; a change at ``length`` only closes intervals)."""
    curve: list[Fraction] = []
    values: dict[int, Fraction] = {}  # one Fraction per level reached
    level, at = 0, 0
    for pos in sorted(delta):
        if pos >= length:
            break
        if pos > at:
            value = values.get(level)
            if value is None:
                value = values[level] = Fraction(level, denominator)
            curve += [value] * (pos - at)
            at = pos
        level += delta[pos]
    if length > at:
        value = values[level] if level in values else Fraction(level, denominator)
        curve += [value] * (length - at)
    return curve


def _peak(delta: Mapping[int, int], denominator: int, length: int) -> Fraction:
    """``max(_curve(delta, denominator, length), default=Fraction(0))`` from the changes
    alone."""
    if length <= 0:
        return Fraction(0)
    positions = sorted(delta)
    best = 0 if not positions or positions[0] > 0 else None
    level = 0
    for pos in positions:
        if pos >= length:
            break
        level += delta[pos]
        if best is None or level > best:
            best = level
    return Fraction(best, denominator)


def _num(x: Fraction) -> int | float:
    return int(x) if x.denominator == 1 else float(x)


def critical_path(pg: PipelineGraph) -> int:
    """Length of the longest chain of passes and transfers, first start to last finish."""
    g = pg.graph
    preds = g._adjacency()[0]
    est = [g.earliest] * len(g.ops)
    for j in g.topological_order():
        for e in preds[j]:
            if est[e.src] + e.latency > est[j]:
                est[j] = est[e.src] + e.latency
    return max(est[j] + g.ops[j].tail for j in range(len(g.ops))) - g.earliest + 1


@_collector_paused
def run_order(pg: PipelineGraph, order, name: str = "custom", note: str = "") -> PipelineRun:
    """Run a per-device order on the graph with :func:`lecturekit.core.evaluate` and check it
    with :func:`lecturekit.core.verify`.

    ``order`` is ``{device: [(kind, micro, stage), ...]}``, the core's ``{stream: [index]}``, or
    text as :func:`parse_order` reads it. Raises :class:`~lecturekit.errors.DeadlockError`
    (naming the stuck devices and what each waits for) when the devices wait on each other
    forever, and :class:`~lecturekit.errors.ScheduleError` when a pass is missing or repeated.
    """
    streams = _as_streams(pg, order)
    sched = evaluate(pg.graph, streams, algorithm=name)
    verify(pg.graph, sched)
    return PipelineRun(name, pg, streams, sched, note)


def _as_streams(pg: PipelineGraph, order) -> dict[str, list[int]]:
    if not isinstance(order, Mapping):
        return parse_order(pg, order)
    values = list(order.values())
    textual = [isinstance(v, str) or all(isinstance(t, str) for t in v) for v in values]
    if values and all(textual):  # "F1 F2 B1 B2" or ["F1", "F2", "B1", "B2"] per device
        return parse_order(pg, order)
    if all(isinstance(k, str) and k.startswith("device ") for k in order):
        if all(all(isinstance(i, int) for i in v) for v in values):
            missing = [device_name(d) for d in range(pg.p) if device_name(d) not in order]
            if missing:
                raise ScheduleError(f"the order gives no op list for {', '.join(missing)}")
            return {k: list(v) for k, v in order.items()}
    out = {}
    for d, keys in order.items():
        dev = _device_index(pg, d)
        out[device_name(dev)] = [pg.op(*k) if isinstance(k, tuple) else k for k in keys]
    return out


def _device_index(pg: PipelineGraph, d) -> int:
    if isinstance(d, str) and d.startswith("device "):
        d = d[len("device ") :]
    try:
        k = int(d)
    except (TypeError, ValueError):
        raise ScheduleError(f"{d!r} is not a device (devices are 0..{pg.p - 1})") from None
    if not 0 <= k < pg.p:
        raise ScheduleError(f"device {k} does not exist: devices are 0..{pg.p - 1}")
    return k


def parse_order(pg: PipelineGraph, spec) -> dict[str, list[int]]:
    """Read a hand-written order: one line (or list entry) per device, e.g.
    ``["F1 F2 B1 B2", "F1 B1 F2 B2"]`` or ``{0: "F1 F2 B1 B2", 1: "F1 B1 F2 B2"}``.

    A token is kind + micro-batch (``F3``, ``B3``, ``W3``); the stage is the device's own, or
    ``F3.1`` for its chunk 1, or ``F3@5`` for stage 5 explicitly.
    """
    if isinstance(spec, str):
        lines = [ln for ln in spec.strip().splitlines() if ln.strip()]
        spec = dict(enumerate(lines))
    elif not isinstance(spec, Mapping):
        spec = dict(enumerate(spec))
    if len(spec) != pg.p:
        raise ScheduleError(f"the order has {len(spec)} device line(s) but p = {pg.p}")
    out = {}
    for d, line in spec.items():
        dev = _device_index(pg, d)
        tokens = line.split() if isinstance(line, str) else list(line)
        idx = []
        for col, tok in enumerate(tokens, 1):
            idx.append(_parse_token(pg, dev, str(tok), col))
        out[device_name(dev)] = idx
    return out


def _parse_token(pg: PipelineGraph, dev: int, tok: str, col: int) -> int:
    where = f"device {dev}, token {col} {tok!r}"
    kind = tok[:1].upper()
    rest = tok[1:]
    if kind not in KINDS:
        raise ScheduleError(f"{where}: a pass starts with F, B or W")
    stage = chunk = None
    if "@" in rest:
        rest, st = rest.split("@", 1)
        if not st.isdigit():
            raise ScheduleError(f"{where}: the stage after @ must be a number")
        stage = int(st)
        if stage >= pg.stages:
            raise ScheduleError(f"{where}: there is no stage {stage} (stages 0..{pg.stages - 1})")
    elif "." in rest:
        rest, ch = rest.split(".", 1)
        n = len(pg.chunks_of(dev))
        if not ch.isdigit() or int(ch) >= n:
            raise ScheduleError(f"{where}: chunk must be 0..{n - 1}")
        chunk = int(ch)
    if not rest.isdigit():
        raise ScheduleError(f"{where}: expected a micro-batch number after {kind}")
    micro = int(rest)
    if not 1 <= micro <= pg.m:
        raise ScheduleError(f"{where}: micro-batch {micro} is not in 1..{pg.m}")
    direction = pg.direction_of(micro)
    mine = [s for k, s in pg.chunks_of(dev) if k == direction]  # micro's stages on dev
    if chunk is not None:
        k, stage = pg.chunks_of(dev)[chunk]
        if k != direction:
            raise ScheduleError(
                f"{where}: chunk {chunk} of device {dev} is in direction {k}, micro-batch "
                f"{micro} travels in direction {direction}"
            )
    elif stage is None:
        stage = mine[0]
    elif pg.device_of(stage, micro) != dev:
        raise ScheduleError(
            f"{where}: stage {stage} runs on device {pg.device_of(stage, micro)}, not {dev}"
        )
    if kind == "W" and not pg.split:
        raise ScheduleError(f"{where}: this graph does not split the backward, so it has no W")
    return pg.op(kind, micro, stage)


# ----------------------------------------------------------------------------------------------
# the schedules
# ----------------------------------------------------------------------------------------------


def resolve_schedule(name: str) -> str:
    """The canonical schedule name (case-insensitive, aliases allowed)."""
    key = str(name).strip().lower().replace("_", "-").replace(" ", "-")
    key = ALIASES.get(key, key)
    if key not in ALL_SCHEDULES:
        raise ScheduleError(
            f"schedule: unknown pipeline schedule {name!r}; choose one of "
            f"{', '.join(ALL_SCHEDULES)}"
        )
    return key


def eager_order(pg: PipelineGraph, cap: int | None = None) -> dict[int, list]:
    """List scheduling of the passes (chapter 4's algorithm, with a memory limit): whenever a
    device is free it runs a backward if one has arrived, else a forward if one has arrived and
    fewer than ``cap`` (default ``p``) micro-batches are in flight on it, else waits. Returns
    the per-device order it produced (unsplit backward, ``v = 1``)."""
    if pg.split or pg.v != 1:
        raise ScheduleError("the eager list schedule is defined for v = 1 and an unsplit backward")
    p, m = pg.p, pg.m
    cap = p if cap is None else _int("cap (micro-batches in flight)", cap, 1)
    g = pg.graph
    # no schedule needs longer than doing everything one after another
    horizon = g.earliest + sum(op.duration for op in pg.ops) + sum(e.latency for e in g.edges)
    preds = {i: g.preds(i) for i in range(len(g.ops))}
    start: dict[int, int] = {}
    nxt = {(kind, s): 1 for kind in ("F", "B") for s in range(p)}
    free = [g.earliest] * p
    order: dict[int, list] = {s: [] for s in range(p)}

    def ready_at(i: int) -> int | None:
        t = g.earliest
        for e in preds[i]:
            if e.src not in start:
                return None
            t = max(t, start[e.src] + e.latency)
        return t

    t = g.earliest
    while len(start) < len(g.ops):
        if t > horizon:  # pragma: no cover - a guard, not a path
            raise ScheduleError("the eager list schedule made no progress")
        for s in range(p):
            if free[s] > t:
                continue
            pick = None
            for kind in ("B", "F"):
                k = nxt[(kind, s)]
                if k > m:
                    continue
                if kind == "F" and nxt[("F", s)] - nxt[("B", s)] >= cap:
                    continue
                i = pg.op(kind, k, s)
                r = ready_at(i)
                if r is not None and r <= t:
                    pick = (kind, k, i)
                    break
            if pick:
                kind, k, i = pick
                start[i] = t
                free[s] = t + pg.ops[i].duration
                nxt[(kind, s)] += 1
                order[s].append((kind, k, s))
        t += 1
    return order


@_collector_paused
def pipeline_schedule(
    name: str = "1f1b",
    p: int = 4,
    m: int = 8,
    v: int | None = None,
    tf: int = 1,
    tb: int = 1,
    tw: int = 1,
    comm: int = 0,
    *,
    timing: Timing | None = None,
    gpipe_backward: str = "newest",
    all_forwards_first: bool = False,
    calls: bool = False,
) -> PipelineRun:
    """Build, run and verify a named schedule (see :data:`ALL_SCHEDULES`).

    ``tf``, ``tb``, ``tw``, ``comm`` (or ``timing``) are integer time units; schedules that do not
    split the backward run one backward of ``tb + tw``. ``v`` (model chunks per device) applies
    to ``interleaved`` and ``looped-bfs`` (default 2 there); ``zb-v`` and ``dualpipev`` always
    place two chunks per device in a V; ``dualpipe`` one stage per device and direction.
    ``gpipe_backward``: GPipe's backwards ``"newest"`` first (the GPipe figure, default) or
    ``"oldest"`` first (as PyTorch's ``ScheduleGPipe``).
    ``all_forwards_first``: interleaved with ``m = p`` as Megatron-LM ran it before late 2024
    (every forward first) instead of interleaving from the start (default).
    ``calls`` (``dualpipe``, ``dualpipev``): run the reference implementation's calls as units
    (see ``calls`` in :func:`build_pipeline_graph`): a full backward sends its input gradient
    after computing the weight gradient too, and a forward paired with a backward waits for
    both inputs and sends both outputs when the pair is done; default off (each pass sends
    its output when it ends, as PyTorch's ``ScheduleDualPipeV`` runs unpaired actions).
    """
    name = resolve_schedule(name)
    timing = timing or Timing(tf, tb, tw, comm)
    if gpipe_backward not in ("newest", "oldest"):
        raise ScheduleError(
            f"gpipe_backward: 'newest' (GPipe's figure) or 'oldest' (PyTorch), "
            f"got {gpipe_backward!r}"
        )
    if name in ("interleaved", "looped-bfs"):
        v = 2 if v is None else v
    elif name == "dualpipe":
        if v not in (None, 1):
            raise ScheduleError(
                f"v (model chunks per device): dualpipe places one stage of each direction "
                f"per device (v = 1), got v = {v}"
            )
    elif name in ("zb-v", "dualpipev", "v-half", "v-min"):
        if v not in (None, 2):
            raise ScheduleError(
                f"v (model chunks per device): {name} places exactly 2 chunks per device "
                f"(a V), got v = {v}"
            )
        v = 2
    elif v not in (None, 1):
        raise ScheduleError(
            f"v (model chunks per device) only applies to the interleaved and looped-bfs "
            f"schedules (zb-v, dualpipev, v-half and v-min use 2), not {name}"
        )
    p, m, v = _check_shape(p, m, v or 1)
    if calls and name not in ("dualpipe", "dualpipev"):
        raise ScheduleError(f"calls: only dualpipe and dualpipev have calls, not {name}")
    note = ""
    if name == "naive":
        pg = build_pipeline_graph(p, 1, 1, timing, split=False, batch=m)
        keys = pp_schedules.naive(p)
        note = f"the whole batch ({m} micro-batches) is one op per device; comm x {m} as well"
    elif name == "gpipe":
        pg = build_pipeline_graph(p, m, 1, timing)
        keys = pp_schedules.gpipe(p, m, gpipe_backward)
    elif name in ("1f1b", "pipedream"):
        pg = build_pipeline_graph(p, m, 1, timing)
        keys = pp_schedules.one_f_one_b(p, m)
        if name == "pipedream":
            note = "same op lists as 1F1B, no flush: see weight_versions() and steady_period"
    elif name == "1f1b-eager":
        pg = build_pipeline_graph(p, m, 1, timing)
        keys = eager_order(pg)
    elif name == "interleaved":
        if m % p:
            raise ScheduleError(
                f"interleaved: m = {m} micro-batches is not a multiple of p = {p}; Megatron-LM's "
                f"interleaved schedule sends micro-batches through the chunks in groups of p. "
                f"Try m = {max(p, m - m % p)} or {m + p - m % p}"
            )
        pg = build_pipeline_graph(p, m, v, timing)
        keys = pp_schedules.interleaved(p, m, v, all_forwards_first=all_forwards_first)
    elif name == "looped-bfs":
        pg = build_pipeline_graph(p, m, v, timing)
        keys = pp_schedules.looped_bfs(p, m, v)
    elif name == "zb-v":
        pg = build_pipeline_graph(p, m, 2, timing, split=True, placement="v")
        keys = pp_schedules.zb_v(p, m)
        if m < 2 * p - 1:
            note = f"m = {m} < 2p - 1 = {2 * p - 1}: too few micro-batches to fill ZB-V's warm-up"
    elif name in ("v-half", "v-min"):
        pg = build_pipeline_graph(p, m, 2, timing, split=True, placement="v")
        keys = (pp_schedules.v_half if name == "v-half" else pp_schedules.v_min)(p, m)
    elif name == "dualpipev":
        if m < 2 * p:
            raise ScheduleError(
                f"dualpipev: needs at least 2p = {2 * p} micro-batches (as many as stages), "
                f"got m = {m}"
            )
        groups = [c for d in range(p) for c in pp_schedules._dualpipe_v_calls(p, m, d)]
        pg = build_pipeline_graph(
            p, m, 2, timing, split=True, placement="v", calls=groups if calls else None
        )
        keys = pp_schedules.dualpipe_v(p, m)
        note = "a paired forward and backward runs one after the other (no overlap modelled)"
    elif name == "dualpipe":
        if p % 2 or m % 2 or m < 2 * p:
            raise ScheduleError(
                f"dualpipe: needs an even number of devices p and an even number of "
                f"micro-batches m >= 2p (half enter at each end), got p = {p}, m = {m}"
            )
        by_device = pp_schedules.dualpipe_calls(p, m)
        groups = [c for cs in by_device.values() for c in cs]
        pg = build_pipeline_graph(
            p, m, 1, timing, split=True, placement="dualpipe", calls=groups if calls else None
        )
        keys = {d: [k for c in cs for k in c] for d, cs in by_device.items()}
        note = (
            f"micro-batches 1-{m // 2} go down from device 0, {m // 2 + 1}-{m} up from device "
            f"{p - 1}; a paired forward and backward runs one after the other (no overlap)"
        )
    elif name == "zb-h1":
        pg = build_pipeline_graph(p, m, 1, timing, split=True)
        keys = pp_schedules.zb_h1(p, m)
    else:  # zb-h2
        pg = build_pipeline_graph(p, m, 1, timing, split=True)
        keys = pp_schedules.zb_h2(p, m)
        if m < 2 * p - 1:
            note = (
                f"m = {m} < 2p - 1 = {2 * p - 1}: too few micro-batches to fill ZB-H2's warm-up; "
                f"ZB-H1 is as good or better here"
            )
    return run_order(pg, pg.order_from_keys(keys), name, note)


def closed_form(
    name: str, p: int, m: int, v: int = 1, timing: Timing | None = None, calls: bool = False
) -> int | None:
    """The textbook makespan, where one is known (``None`` otherwise).

    With ``c`` = comm, ``Bt = T_B + T_W``:

    - naive: ``p m (T_F + Bt) + 2 (p-1) m c``
    - gpipe: ``(m + p - 1)(T_F + Bt) + 2 (p-1) c``
    - 1f1b, pipedream (``c = 0``): ``(m + p - 1)(T_F + Bt)``; 1f1b-eager too when
      ``Bt`` is ``T_F`` or ``2 T_F`` (with other ratios the greedy list schedule can lose: p=3,
      m=4, T_F=2, T_B=1, T_W=0 gives 19, not 18)
    - interleaved (``c = 0``, ``m`` a multiple of ``p``, ``m = p`` too):
      ``m (T_F + Bt) + (p-1)(T_F + Bt)/v``
    - zb-h1 (``c = 0``, ``T_F = T_B = T_W``, ``m >= p``): ``m (T_F+T_B+T_W) + (p-1)(T_F+T_B-T_W)``
    - zb-h2 (``c = 0``, ``T_F = T_B = T_W``, ``m >= 2p - 1``): ``m (T_F+T_B+T_W) + (p-1) T_F``
    - looped-bfs (``c = 0``, ``m >= p``): ``m (T_F + Bt) + (p-1)(T_F + Bt)/v``, the same as
      interleaved (Lamy-Poirier 2022: bubble / ideal ``(p-1)/(v m)``), with ``m`` micro-batches
      in flight on every device (GPipe's memory)
    - zb-v (``c = 0``, ``T_F = T_B = T_W``, ``m >= 2p - 1``) and dualpipev (the same, ``m >= 2p``):
      ``m (T_F+T_B+T_W) + (p-1) T_F / 2``: every device busy without a gap after a warm-up of
      ``p - 1`` half-size (chunk) forwards, ZB-H2's time at half ZB-H2's warm-up
    - dualpipe (``c = 0``, ``T_F = T_B = T_W``, ``p`` even, ``m >= 2p`` even):
      ``m (T_F+T_B+T_W) + (p/2 - 1) T_F``: DualPipeV's on ``p/2`` devices, each device doing
      a whole stage (not a half) for every micro-batch
    - with ``calls=True`` (dualpipe, dualpipev: the reference's calls run as units) the bubble
      doubles: ``m (T_F+T_B+T_W) + (P/2 - 1) 2 F`` with ``P`` stages (``p`` for dualpipe, ``2p``
      for dualpipev) and ``F`` a stage's forward; this is DeepSeek's bubble
      ``(P/2 - 1)(F&B + B - 3W)`` with ``F&B = F + B`` (a paired forward and full backward
      ``B`` run one after the other) and ``F = W``, ``B = 2W``
    - v-half, v-min: none (Qi et al. 2024 give their bubble only approximately, ``~p/2m`` and
      ``~2p/3m``; their peak memory is exact, see :mod:`lecturekit.llm.pp_schedules`)
    """
    name = resolve_schedule(name)
    t = timing or Timing()
    f, bt, c = t.forward, t.full_backward, t.comm
    equal = t.forward == t.backward == t.weight
    if name == "naive":
        return p * m * (f + bt) + 2 * (p - 1) * m * c
    if name == "gpipe":
        return (m + p - 1) * (f + bt) + 2 * (p - 1) * c
    if c:
        return None
    if name == "1f1b-eager" and bt not in (f, 2 * f):
        return None  # list scheduling is a heuristic: e.g. p=3, m=4, T_F=2, T_B=1 gives 19 > 18
    if name in ("1f1b", "pipedream", "1f1b-eager"):
        return (m + p - 1) * (f + bt)
    if name in ("interleaved", "looped-bfs"):
        if m % p or (p - 1) * (f + bt) % v:
            return None
        return m * (f + bt) + (p - 1) * (f + bt) // v
    if calls and name not in ("dualpipe", "dualpipev"):
        return None
    if name in ("zb-v", "dualpipev") and equal and m >= 2 * p - (name == "zb-v"):
        if (p - 1) * t.forward % 2:
            return None
        return m * t.per_micro_batch() + (p - 1) * t.forward // 2 * (2 if calls else 1)
    if name == "dualpipe" and equal and p % 2 == 0 and m % 2 == 0 and m >= 2 * p:
        return m * t.per_micro_batch() + (p // 2 - 1) * t.forward * (2 if calls else 1)
    if name == "zb-h1" and equal and m >= p:
        return m * t.per_micro_batch() + (p - 1) * (t.forward + t.backward - t.weight)
    if name == "zb-h2" and equal and m >= 2 * p - 1:
        return m * t.per_micro_batch() + (p - 1) * t.forward
    return None


def compare_schedules(
    p: int = 4,
    m: int = 8,
    v: int = 2,
    tf: int = 1,
    tb: int = 1,
    tw: int = 1,
    comm: int = 0,
    names=None,
) -> list[PipelineRun]:
    """One run per schedule with the same model and durations (interleaved with ``v`` chunks)."""
    names = names or list(SCHEDULES)
    return [
        pipeline_schedule(
            n,
            p,
            m,
            v if resolve_schedule(n) in ("interleaved", "looped-bfs") else None,
            tf,
            tb,
            tw,
            comm,
        )
        for n in names
    ]


# ----------------------------------------------------------------------------------------------
# PipeDream's weight versions
# ----------------------------------------------------------------------------------------------


def weight_versions(run: PipelineRun) -> dict:
    """Which weight version each pass uses when every micro-batch updates its stage's weights
    right after its backward (PipeDream: no flush).

    Version ``n`` of stage ``s`` = the weights after ``n`` updates there. Returns
    ``forward[k][s]`` (the version micro-batch ``k+1``'s forward uses on stage ``s``),
    ``latest_at_backward[k][s]`` (the version current when its backward runs: what a backward
    without weight stashing would use, wrongly), ``stored[s]`` (the most versions stage ``s``
    must keep at once with weight stashing: one per micro-batch in flight plus the current one,
    counted as distinct versions) and ``stale[k]`` (whether micro-batch ``k+1``'s forward used
    different versions on different stages: the inconsistency PipeDream's vertical sync fixes).
    """
    pg = run.pg
    if pg.v != 1 or pg.batch != 1:
        raise ScheduleError("weight versions are computed for v = 1 and one micro-batch per op")
    last = "W" if pg.split else "B"
    updates = {
        s: sorted(run.finish(pg.op(last, k, s)) for k in range(1, pg.m + 1)) for s in range(pg.p)
    }

    def version(s: int, t: int) -> int:  # updates finished before time t on stage s
        return bisect_left(updates[s], t)

    fwd = [
        [version(s, run.start(pg.op("F", k, s))) for s in range(pg.p)] for k in range(1, pg.m + 1)
    ]
    bwd = [
        [version(s, run.start(pg.op("B", k, s))) for s in range(pg.p)] for k in range(1, pg.m + 1)
    ]
    stored = []
    for s in range(pg.p):
        # the versions kept at time t: those of the micro-batches between their forward's start
        # and their last pass's finish, and the current one. They change only when a micro-batch
        # starts or ends or an update lands, so look at those times (sorted), not at every one
        changes: list[tuple[int, int, int]] = []  # (time, +1 / -1, version)
        for k in range(1, pg.m + 1):
            a, b = run.start(pg.op("F", k, s)), run.finish(pg.op(last, k, s))
            if a <= b:
                changes += [(a, 1, fwd[k - 1][s]), (b + 1, -1, fwd[k - 1][s])]
        changes.sort()
        times = {run.first} | {t for t, _, _ in changes} | {u + 1 for u in updates[s]}
        held: dict[int, int] = {}  # version -> micro-batches keeping it
        best, c = 0, 0
        for t in sorted(x for x in times if run.first <= x <= run.last):
            while c < len(changes) and changes[c][0] <= t:
                _, step, ver = changes[c]
                held[ver] = held.get(ver, 0) + step
                if not held[ver]:
                    del held[ver]
                c += 1
            best = max(best, len(held) + (version(s, t) not in held))
        stored.append(best)
    stale = [len(set(row)) > 1 for row in fwd]
    return {"forward": fwd, "latest_at_backward": bwd, "stored": stored, "stale": stale}


# ----------------------------------------------------------------------------------------------
# the 2023 slide's DAPPLE figure
# ----------------------------------------------------------------------------------------------

#: The DAPPLE grid of the 2023 slides (001_*.txt) as the text extraction gives it: one line per
#: device, tab-separated cells, one cell per time unit (a forward takes one, a backward two).
DAPPLE_SLIDE_EXTRACTION = (
    "1\t2\t3\t4\t\t\t\t\t\t\t1\tı\t5\t2\t\t5\t3\t7\t4\t4\t8\tį\t5\t\t6\t,\t\t7\t7\t8\n"
    "\t1\t2\t3\t4\t\t\t\t1\t\t\t2\t2\t5\t3\t•\t6\t4\t7\tĘ\t5\t8\t6\t5\t\t7\t7\t\t8\t\n"
    "\t\t1\t2\t3\t4\t1\t\t\t2\t2\t\t3\t3\t5\t4\t6\t5 (5\t7\t6\t5\t8\t7\t7\t\t8\t3\t\t\n"
    "\t\t\t1\t1\t1\t2\t2\t2\t3\t3\t3\t4\t4\t!\t5\t5\t6\t(5\t7\t-\t7\t8\t8\t3\t\t\t\t\n"
)

#: Our reading of that grid (4 devices, 8 micro-batches, T_F = 1, backward = 2): ``F3`` a
#: forward, ``B3`` one of the two units of a backward, ``.`` idle. Devices 1 and 2 run their
#: first four forwards as soon as they arrive (more than 1F1B's p - s - 1 warm-up): it is the
#: ``1f1b-eager`` schedule, and :func:`pipeline_schedule` reproduces it cell for cell.
DAPPLE_SLIDE = (
    "F1 F2 F3 F4 . . . . . . B1 B1 F5 B2 B2 F6 B3 B3 F7 B4 B4 F8 B5 B5 . B6 B6 . B7 B7 . B8 B8",
    ". F1 F2 F3 F4 . . . B1 B1 . B2 B2 F5 B3 B3 F6 B4 B4 F7 B5 B5 F8 B6 B6 . B7 B7 . B8 B8 . .",
    ". . F1 F2 F3 F4 B1 B1 . B2 B2 . B3 B3 F5 B4 B4 F6 B5 B5 F7 B6 B6 F8 B7 B7 . B8 B8 . . . .",
    ". . . F1 B1 B1 F2 B2 B2 F3 B3 B3 F4 B4 B4 F5 B5 B5 F6 B6 B6 F7 B7 B7 F8 B8 B8 . . . . . .",
)
