"""A training step as a graph for the scheduling core: :class:`Timing` (the durations),
:class:`PipeOp` (one forward, backward or weight-gradient pass of one micro-batch on one stage)
and :class:`PipelineGraph`, made by :func:`build_pipeline_graph` with the dependences between
passes and the device each one holds."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from ...core import Edge, Graph, Operation, Reservation
from ...errors import ScheduleError
from ...language import N_, _
from .limits import MAX_DURATION, MAX_OPS, bounded_int, collector_paused
from .placement import check_shape, micro_batch_directions, placement_devices, placement_directions

KINDS = ("F", "B", "W")
_KIND_TEXT = {
    "F": N_("forward of {what} on {where}"),
    "B": N_("backward of {what} on {where}"),
    "W": N_("weight-gradient of {what} on {where}"),
}


@dataclass(frozen=True)
class Timing:
    """Durations of one micro-batch through one device's share of the model, and the
    communication latency between devices, in integer time units.

    ``backward`` is the input-gradient part B and ``weight`` the weight-gradient part W of the
    backward pass; a schedule that does not split the backward runs one op of
    ``backward + weight`` (so ``weight=0`` describes an unsplit backward of ``backward``).

    ``paired`` is DeepSeek-V3's ``F&B``: the time of a forward and a full backward (``B + W``)
    of two different micro-batches run as one call whose computation and communication overlap
    (DualPipe's paired chunks: one chunk's all-to-all and pipeline sends hide behind the other's
    computation). ``None`` (default): no overlap, the pair takes ``T_F + T_B + T_W``. It must
    lie between ``T_B + T_W + 1`` (the forward keeps at least one time unit of its own) and
    ``T_F + T_B + T_W``, and applies only where a schedule runs such pairs as calls
    (``dualpipe`` and ``dualpipev`` with ``calls``).
    """

    forward: int = 1
    backward: int = 1
    weight: int = 1
    comm: int = 0
    paired: int | None = None

    def __post_init__(self) -> None:
        bounded_int("forward (T_F)", self.forward, 1, MAX_DURATION)
        bounded_int("backward (T_B)", self.backward, 1, MAX_DURATION)
        bounded_int("weight (T_W)", self.weight, 0, MAX_DURATION)
        bounded_int(_("comm (communication latency)"), self.comm, 0, MAX_DURATION)
        if self.paired is not None:
            bounded_int("paired (F&B)", self.paired, 1, 3 * MAX_DURATION)
            low, high = self.full_backward + 1, self.per_micro_batch()
            if not low <= self.paired <= high:
                raise ScheduleError(
                    _(
                        "paired (F&B, a forward overlapped with a full backward) = {paired}: "
                        "must be at least T_B + T_W + 1 = {low} (the forward keeps one time "
                        "unit; use finer time units for a fuller overlap) and at most T_F + "
                        "T_B + T_W = {high} (no overlap)"
                    ).format(paired=self.paired, low=low, high=high)
                )

    @property
    def full_backward(self) -> int:
        """The unsplit backward: ``T_B + T_W``."""
        return self.backward + self.weight

    def per_micro_batch(self) -> int:
        """Work of one micro-batch on one device: ``T_F + T_B + T_W``."""
        return self.forward + self.backward + self.weight

    def as_dict(self) -> dict[str, int]:
        out = {"F": self.forward, "B": self.backward, "W": self.weight, "comm": self.comm}
        if self.paired is not None:
            out["F&B"] = self.paired
        return out


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
                (
                    _(
                        "there is no {kind}{micro} on stage {stage} (p={p}, m={m}, v={v}, "
                        "backward split into B and W)"
                    )
                    if self.split
                    else _("there is no {kind}{micro} on stage {stage} (p={p}, m={m}, v={v})")
                ).format(kind=kind, micro=micro, stage=stage, p=self.p, m=self.m, v=self.v)
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


@collector_paused
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
    p, m, v = check_shape(p, m, v)
    places = placement_directions(p, v, placement)
    dirs = micro_batch_directions(m, len(places), directions)
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
            _("weight (T_W): a split backward needs a weight-gradient pass of at least 1 time unit")
        )
    n_ops = p * v * m * (3 if split else 2)
    if n_ops > MAX_OPS:
        raise ScheduleError(
            _(
                "{n_ops} passes (p={p} x v={v} x m={m} x {kinds}) is more than this "
                "simulator handles quickly ({max_ops}); use fewer micro-batches or "
                "stages"
            ).format(n_ops=n_ops, p=p, v=v, m=m, kinds=3 if split else 2, max_ops=MAX_OPS)
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
                    _(
                        "{names} = {d} is not divisible by v = {v}: with v chunks per device "
                        "each chunk's pass takes 1/v of the time, and durations are whole time "
                        "units. Use durations that are multiples of {v} (e.g. T_F = T_B = T_W "
                        "= {v})"
                    ).format(names=names[kind], d=d, v=v)
                )
    if timing.paired is not None and timing.paired % v:
        raise ScheduleError(
            _(
                "paired (F&B) = {paired} is not divisible by v = {v}: each chunk's "
                "pair takes 1/v of it, in whole time units"
            ).format(paired=timing.paired, v=v)
        )
    dur = {k: d * batch // v for k, d in raw.items()}
    comm = timing.comm * batch
    paired_forwards = _paired_forwards(calls) if timing.paired is not None else set()
    if timing.paired is not None and not paired_forwards:
        raise ScheduleError(
            _(
                "paired (F&B): only a schedule that runs a forward and a full backward as one call "
                "overlaps them (dualpipe or dualpipev with calls)"
            )
        )
    # a paired forward keeps what the pair takes beyond its full backward (B + W)
    pair_f = (timing.paired or 0) * batch // v - dur["B"] - dur["W"]
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
                length = pair_f if kind == "F" and (k, s) in paired_forwards else dur[kind]
                ops.append(PipeOp(kind, k, s, place_k[s], chunk_of[dk, s], length, batch))
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
            where = wheres[op.stage, op.device, op.chunk] = (
                _("stage {stage} (device {device}, chunk {chunk})")
                if v > 1 or dirs
                else _("stage {stage}")
            ).format(stage=op.stage, device=op.device, chunk=op.chunk)
        what = (
            _("micro-batches {label}").format(label=op.label[1:])
            if batch > 1
            else _("micro-batch {k}").format(k=op.micro)
        )
        core_ops.append(
            Operation(
                name=f"{op.kind}{op.micro}@{op.stage}",
                text=_(_KIND_TEXT[op.kind]).format(what=what, where=where),
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
        activations, gradient = (
            _("activations of micro-batch {k}").format(k=k),
            _("gradient of micro-batch {k}").format(k=k),
        )
        for s in range(stages - 1):
            edges.append(
                Edge(
                    index["F", k, s],
                    index["F", k, s + 1],
                    ops[index["F", k, s]].duration + hop[s],
                    "ACT",
                    activations,
                )
            )
            edges.append(
                Edge(
                    index["B", k, s + 1],
                    index["B", k, s],
                    ops[index["B", k, s + 1]].duration + hop[s],
                    "GRAD",
                    gradient,
                )
            )
        edges.append(
            Edge(
                index["F", k, stages - 1],
                index["B", k, stages - 1],
                ops[index["F", k, stages - 1]].duration,
                "LOSS",
                _("loss of micro-batch {k}").format(k=k),
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
                        _("output gradient of micro-batch {k}").format(k=k),
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


def _paired_forwards(calls) -> set[tuple[int, int]]:
    """(micro-batch, stage) of every forward run in one call with a backward."""
    out = set()
    for g in calls or ():
        kinds = {key[0] for key in g}
        if "F" in kinds and "B" in kinds:
            out |= {(key[1], key[2]) for key in g if key[0] == "F"}
    return out


def _call_edges(calls, index, ops, edges) -> list[Edge]:
    """The edges that make each group of passes one call (see :func:`build_pipeline_graph`)."""
    group_of: dict[int, tuple[int, int]] = {}  # op -> (its call's first op, last op)
    for g in calls:
        members = []
        for key in g:
            key = tuple(key)
            if key not in index:
                raise ScheduleError(
                    _("calls: there is no pass {key} in this graph").format(key=key)
                )
            members.append(index[key])
        if len({ops[i].device for i in members}) > 1:
            raise ScheduleError(
                _("calls: the passes of one call run on one device, got {list}").format(
                    list=list(g)
                )
            )
        for i in members:
            if i in group_of:
                raise ScheduleError(
                    _("calls: {label} on stage {stage} is in two").format(
                        label=ops[i].label, stage=ops[i].stage
                    )
                )
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
            extra.append(Edge(src, dst, lat, e.kind, _("{on} (one call)").format(on=e.on)))
    return extra
