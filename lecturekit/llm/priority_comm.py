"""Priority scheduling of gradient communication (相关工作--优先级调度), on the scheduling core.

The lecture's slide: "问题：梯度通信不足以被反向计算完全隐藏" — the backward pass produces the
gradients last layer first, and the network cannot send them as fast as they come; the next
iteration's forward pass needs the *first* layer's synchronised gradient (and updated weights)
first. "核心技术：梯度切分、抢占式优先级调度，打破每轮迭代的Global Barrier": cut every layer's
gradient into chunks and let the chunks that are needed first take the network first
("先使用的梯度优先抢占网络资源"), so that the next forward starts earlier
("下一轮前向计算提前触发"). (ByteScheduler, Peng et al. SOSP 2019; P3, Jayarajan et al. MLSys 2019.)

This is list scheduling once more, and this module builds it from :mod:`lecturekit.core` alone:

- two resources (``units``): the ``gpu`` (computes) and the ``link`` (the network interface),
  each of capacity 1;
- operations: the backward pass ``B_l`` of each layer (``l = L .. 1``) and the next iteration's
  forward pass ``F_l`` (``l = 1 .. L``) on the GPU; the gradient of each layer cut into ``k``
  chunks ``G_l.c`` that each hold the link for ``chunk_time``;
- edges: ``B_{l+1} -> B_l`` and ``F_l -> F_{l+1}`` (the layers' order), ``B_l -> G_l.c`` (a
  chunk can go once its layer's backward is done), ``G_l.c -> F_l`` (the forward of layer ``l``
  waits for every chunk of its gradient to be synchronised);
- the **priority** of the list scheduler decides which ready chunk takes the link:
  ``"fifo"`` sends them in the order they were produced (last layer first: what a plain
  all-reduce queue does), ``"priority"`` sends the chunks of the layer the next forward needs
  first (layer 1 before layer 2, ...). Chunks are not interrupted once sent; cutting the
  gradient into chunks is what makes the priority *preemptive* at chunk boundaries.

:func:`priority_schedule` runs :func:`lecturekit.core.list_schedule` with that priority,
:func:`lecturekit.core.verify` checks it, and :func:`lecturekit.core.evaluate` replays the
per-resource orders as a cross-check. :func:`compare` gives both and when the next forward
starts.

The chapter's small case (``layers=3, backward=2, forward=1, chunks=2, chunk_time=2``; time
starts at 1): FIFO sends ``G3 G3 G2 G2 G1 G1`` from t = 3 to 14 and the forward starts at 15;
with priorities the link sends ``G3.1`` (alone at t = 3), ``G2.1`` (t = 5), ``G1.1 G1.2``
(t = 7, 9), then ``G2.2 G3.2``, and ``F1`` starts at 11: 4 time units earlier, and the forward
ends at 15 instead of 17.

**Overlap of communication with computation** (the network as a resource, the same two units):

- :func:`ddp_step`: data parallelism's gradient **buckets** (PyTorch DDP). The forward
  ``F_1 .. F_L`` and backward ``B_L .. B_1`` run on the ``gpu``; the gradients are all-reduced
  in buckets of ``bucket`` consecutive layers in the order the backward produces them, each
  all-reduce ``A_j`` holding the ``link`` for ``latency + bucket * allreduce`` time units.
  With ``overlap`` a bucket goes as soon as its last layer's backward is done; without, every
  all-reduce waits for the whole backward. The step ends with the last pass or all-reduce.
  Closed forms (``n = L / k`` buckets of ``k`` layers, ``a`` time units each, forward ``f``,
  backward ``b`` per layer): without overlap ``L (f + b) + n a``; with overlap
  ``L f + max(n k b + a, k b + n a)`` (the link either keeps up and only the last bucket is
  exposed, or it does not and everything after the first bucket waits for the link). Small
  buckets pay ``latency`` more often, one bucket of everything cannot overlap: the DDP
  bucket-size trade-off (:func:`ddp_bucket_sweep`).
- :func:`fsdp_forward`: ZeRO-3 / FSDP's **prefetch**. Before layer ``l``'s forward its
  parameters are all-gathered (``G_l`` on the link, ``gather`` time units). Without prefetch
  ``G_{l+1}`` is issued when ``F_l`` is done; with prefetch while ``F_l`` runs, as soon as
  the link is free and ``F_{l-1}`` has released its layer (at most two layers gathered at
  once: the working memory). Closed forms: ``L (f + g)`` without, ``g + f + (L - 1) max(f, g)``
  with prefetch.

- :func:`ring_attention`: **ring attention**'s ``cp`` steps on one of ``cp`` devices (Liu et
  al. 2023; Megatron-LM's context parallelism). ``A_0`` computes attention of the device's
  queries on its own key/value block; ``R_i`` (``i = 1 .. cp-1``) receives the next block from
  the ring neighbour (the device sends the block it holds at the same time, full duplex), and
  ``A_i`` computes on it. ``R_i`` follows ``R_{i-1}`` (a block is passed on once it has
  arrived); with ``overlap`` the device has two receive buffers, so ``R_{i+1}`` may run while
  ``A_i`` computes but not before ``A_{i-1}`` has freed its buffer; without, ``R_i`` waits for
  ``A_{i-1}``. Closed forms (``c`` compute, ``t`` transfer per block): without overlap
  ``cp c + (cp-1) t``; with overlap ``c + (cp-1) max(c, t)``: the first block is local (nothing
  to wait for), then every step takes the longer of computing one block and receiving the
  next. The transfers are hidden exactly when ``c >= t`` (Liu et al.'s condition); the time is
  never below ``max(cp c, (cp-1) t)`` nor above the serial one.

All are built from :mod:`lecturekit.core` alone, list-scheduled (the link serves buckets /
layers / blocks in order), verified, and replayed with :func:`lecturekit.core.evaluate` as a
check (:class:`OverlapRun`).
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import validate
from ..core import Edge, Graph, Operation, Reservation, Schedule, evaluate, list_schedule, verify
from ..errors import ScheduleError
from ..language import N_, _

__all__ = [
    "POLICIES",
    "OverlapRun",
    "PriorityRun",
    "build_graph",
    "compare",
    "ddp_bucket_sweep",
    "ddp_closed_form",
    "ddp_step",
    "fsdp_closed_form",
    "fsdp_forward",
    "priority_schedule",
    "ring_attention",
    "ring_attention_closed_form",
]

#: policy -> what it means
POLICIES = {
    "fifo": N_("chunks take the link in the order they are produced (last layer first)"),
    "priority": N_("chunks of the layer the next forward needs first take the link first"),
}


def _stream_orders(graph: Graph, schedule: Schedule) -> dict[str, list[int]]:
    """Per resource (``gpu``, ``link``), its operations in start order."""
    out: dict[str, list[int]] = {"gpu": [], "link": []}
    for i in sorted(range(len(graph.ops)), key=lambda i: (schedule.start[i], i)):
        out[graph.ops[i].stream].append(i)
    return out


@dataclass(frozen=True)
class _Shape:
    layers: int
    backward: int
    forward: int
    chunks: int
    chunk_time: int


def build_graph(
    layers: int = 3, backward: int = 2, forward: int = 1, chunks: int = 2, chunk_time: int = 2
) -> Graph:
    """The core graph of one backward pass, its gradient chunks and the next forward pass."""
    sh = _Shape(
        validate.integer(layers, "layers", 1, 64),
        validate.integer(backward, "backward", 1, 1000),
        validate.integer(forward, "forward", 1, 1000),
        validate.integer(chunks, "chunks", 1, 64),
        validate.integer(chunk_time, "chunk_time", 1, 1000),
    )
    ops: list[Operation] = []
    idx: dict[tuple, int] = {}

    def add(key, name, text, unit, d, kind):
        idx[key] = len(ops)
        ops.append(
            Operation(
                name=name,
                text=text,
                reservations=(Reservation(unit, 0, d),),
                tail=d - 1,
                kind=kind,
                stream=unit,
            )
        )

    L = sh.layers
    for layer in range(L, 0, -1):
        add(
            ("B", layer),
            f"B{layer}",
            _("backward of layer {layer}").format(layer=layer),
            "gpu",
            sh.backward,
            "B",
        )
        for c in range(1, sh.chunks + 1):
            add(
                ("G", layer, c),
                f"G{layer}.{c}",
                _("gradient chunk {c}/{chunks} of layer {layer}").format(
                    c=c, chunks=sh.chunks, layer=layer
                ),
                "link",
                sh.chunk_time,
                "G",
            )
    for layer in range(1, L + 1):
        add(
            ("F", layer),
            f"F{layer}",
            _("next iteration's forward of layer {layer}").format(layer=layer),
            "gpu",
            sh.forward,
            "F",
        )
    edges = []
    for layer in range(L, 1, -1):
        edges.append(
            Edge(
                idx["B", layer],
                idx["B", layer - 1],
                sh.backward,
                "GRAD",
                _("gradient of layer {value}'s output").format(value=layer - 1),
            )
        )
    for layer in range(1, L):
        edges.append(
            Edge(
                idx["F", layer],
                idx["F", layer + 1],
                sh.forward,
                "ACT",
                _("activations of layer {layer}").format(layer=layer),
            )
        )
    for layer in range(1, L + 1):
        for c in range(1, sh.chunks + 1):
            edges.append(
                Edge(
                    idx["B", layer],
                    idx["G", layer, c],
                    sh.backward,
                    "SEND",
                    _("chunk {c} of layer {layer}'s gradient computed").format(c=c, layer=layer),
                )
            )
            edges.append(
                Edge(
                    idx["G", layer, c],
                    idx["F", layer],
                    sh.chunk_time,
                    "SYNC",
                    _("chunk {c} of layer {layer}'s gradient synchronised").format(
                        c=c, layer=layer
                    ),
                )
            )
    g = Graph(
        ops,
        edges,
        units={"gpu": 1, "link": 1},
        issue_width=None,
        earliest=1,
        name=_("priority scheduling: {l} layers, {chunks} chunks per gradient").format(
            l=L, chunks=sh.chunks
        ),
    )
    g.source = (sh, idx)
    return g


def _priority(policy: str):
    if policy not in POLICIES:
        raise ScheduleError(
            _("policy: unknown {policy!r}; choose one of {join}").format(
                policy=policy, join=", ".join(POLICIES)
            )
        )

    def prio(graph: Graph, i: int) -> float:
        sh, idx = graph.source
        op = graph.ops[i]
        if op.kind != "G":
            return 0  # the GPU's passes never compete with chunks for a unit
        layer, c = (int(x) for x in op.name[1:].split("."))
        if policy == "fifo":  # produced first, sent first: last layer first, chunks in order
            return layer * sh.chunks - c
        return -(layer * sh.chunks + c)  # the next forward's first layer first

    prio.__name__ = policy
    return prio


@dataclass
class PriorityRun:
    """One policy's schedule and the figures the slide is about."""

    policy: str
    graph: Graph
    schedule: Schedule

    def start_of(self, name: str) -> int:
        for i, op in enumerate(self.graph.ops):
            if op.name == name:
                return self.schedule.start[i]
        raise ScheduleError(_("no operation named {name!r}").format(name=name))

    @property
    def forward_start(self) -> int:
        """When the next iteration's forward pass (layer 1) starts."""
        return self.start_of("F1")

    @property
    def forward_end(self) -> int:
        """When the next iteration's forward pass ends (the last layer's last time unit)."""
        sh, idx = self.graph.source
        i = idx["F", sh.layers]
        return self.schedule.start[i] + sh.forward - 1

    def link_order(self) -> list[str]:
        """The chunks in the order they took the link."""
        return [self.graph.ops[i].name for i in self.order()["link"]]

    def order(self) -> dict[str, list[int]]:
        """Per resource, its operations in start order (what :func:`core.evaluate` replays)."""
        return _stream_orders(self.graph, self.schedule)

    def timeline(self) -> str:
        """Two text rows, ``gpu`` and ``link``, one column per time unit."""
        end = max(
            s + r.cycles - 1
            for s, op in zip(self.schedule.start, self.graph.ops, strict=True)
            for r in op.reservations
        )
        rows = {"gpu": ["."] * end, "link": ["."] * end}
        for s, op in zip(self.schedule.start, self.graph.ops, strict=True):
            for t in range(s, s + op.reservations[0].cycles):
                rows[op.stream][t - 1] = op.name
        w = max(len(x) for r in rows.values() for x in r)
        return "\n".join(f"{k:<5}" + " ".join(x.ljust(w) for x in v) for k, v in rows.items())


def priority_schedule(policy: str = "priority", **shape) -> PriorityRun:
    """List-schedule the graph of :func:`build_graph` (``shape``) with ``policy``'s priority;
    verified, and cross-checked by replaying its orders with :func:`core.evaluate`."""
    g = build_graph(**shape)
    sched = list_schedule(g, _priority(policy))
    verify(g, sched)
    run = PriorityRun(policy, g, sched)
    replay = evaluate(g, run.order())
    verify(g, replay)
    if list(replay.start) != list(sched.start):  # in-order replay of a list schedule: same
        raise ScheduleError(_("internal: evaluate's replay differs from the list schedule"))
    return run


def compare(**shape) -> dict[str, PriorityRun]:
    """Both policies on the same graph: ``{"fifo": run, "priority": run}``."""
    return {p: priority_schedule(p, **shape) for p in POLICIES}


# -- overlap of communication with computation: DDP buckets, FSDP prefetch --------------------
class _Builder:
    def __init__(self):
        self.ops: list[Operation] = []
        self.edges: list[Edge] = []
        self.idx: dict[str, int] = {}
        self.dur: dict[str, int] = {}

    def op(self, name: str, text: str, unit: str, d: int, kind: str) -> None:
        self.idx[name] = len(self.ops)
        self.dur[name] = d
        self.ops.append(
            Operation(
                name=name,
                text=text,
                reservations=(Reservation(unit, 0, d),),
                tail=d - 1,
                kind=kind,
                stream=unit,
            )
        )

    def after(self, src: str, dst: str, on: str) -> None:  # dst starts once src is done
        self.edges.append(Edge(self.idx[src], self.idx[dst], self.dur[src], "DEP", on))

    def graph(self, name: str) -> Graph:
        return Graph(self.ops, self.edges, units={"gpu": 1, "link": 1}, issue_width=None, name=name)


@dataclass
class OverlapRun:
    """A step of computation and communication on the ``gpu`` and the ``link``."""

    what: str
    overlap: bool
    graph: Graph
    schedule: Schedule

    @property
    def step_time(self) -> int:
        """From the first time unit to the last one any pass or transfer occupies."""
        return max(
            s + op.reservations[0].cycles - 1
            for s, op in zip(self.schedule.start, self.graph.ops, strict=True)
        )

    def start_of(self, name: str) -> int:
        for i, op in enumerate(self.graph.ops):
            if op.name == name:
                return self.schedule.start[i]
        raise ScheduleError(_("no operation named {name!r}").format(name=name))

    def exposed_comm(self) -> int:
        """Time units the link works while the GPU is idle (communication not hidden)."""
        gpu, link = set(), set()
        for s, op in zip(self.schedule.start, self.graph.ops, strict=True):
            (gpu if op.stream == "gpu" else link).update(range(s, s + op.reservations[0].cycles))
        return len(link - gpu)

    def order(self) -> dict[str, list[int]]:
        """Per resource, its operations in start order (what :func:`core.evaluate` replays)."""
        return _stream_orders(self.graph, self.schedule)

    def timeline(self) -> str:
        """Two text rows, ``gpu`` and ``link``, one column per time unit."""
        rows = {"gpu": ["."] * self.step_time, "link": ["."] * self.step_time}
        for s, op in zip(self.schedule.start, self.graph.ops, strict=True):
            for t in range(s, s + op.reservations[0].cycles):
                rows[op.stream][t - 1] = op.name
        w = max(len(x) for r in rows.values() for x in r)
        return "\n".join(f"{k:<5}" + " ".join(x.ljust(w) for x in v) for k, v in rows.items())


def _run(what: str, overlap: bool, g: Graph, rank: dict[str, int]) -> OverlapRun:
    def prio(graph: Graph, i: int) -> float:  # the link serves in the given order
        return -rank.get(graph.ops[i].name, 0)

    prio.__name__ = _("in order")
    sched = list_schedule(g, prio)
    verify(g, sched)
    run = OverlapRun(what, overlap, g, sched)
    replay = evaluate(g, run.order())
    verify(g, replay)
    if list(replay.start) != list(sched.start):
        raise ScheduleError(_("internal: evaluate's replay differs from the list schedule"))
    return run


def _bool(x, what: str) -> bool:
    if not isinstance(x, bool):
        raise ScheduleError(_("{what}: expected True or False, got {x!r}").format(what=what, x=x))
    return x


def ddp_step(
    layers: int = 4,
    forward: int = 1,
    backward: int = 2,
    allreduce: int = 2,
    bucket: int = 2,
    latency: int = 1,
    overlap: bool = True,
) -> OverlapRun:
    """One data-parallel training step with bucketed gradient all-reduce (see the module text).

    ``allreduce``: time units per layer's gradient on the link; ``bucket``: layers per bucket
    (the last bucket takes what is left); ``latency``: the fixed cost of each all-reduce."""
    L = validate.integer(layers, "layers", 1, 256)
    f = validate.integer(forward, "forward", 1, 1000)
    b = validate.integer(backward, "backward", 1, 1000)
    r = validate.integer(allreduce, "allreduce", 0, 1000)
    k = validate.integer(bucket, "bucket", 1, L)
    alpha = validate.integer(latency, "latency", 0, 1000)
    overlap = _bool(overlap, "overlap")
    if r == 0 and alpha == 0:
        raise ScheduleError(_("allreduce and latency are both 0: an all-reduce must take time"))
    bld = _Builder()
    for layer in range(1, L + 1):
        bld.op(f"F{layer}", _("forward of layer {layer}").format(layer=layer), "gpu", f, "F")
    for layer in range(L, 0, -1):
        bld.op(f"B{layer}", _("backward of layer {layer}").format(layer=layer), "gpu", b, "B")
    buckets = [list(range(top, max(top - k, 0), -1)) for top in range(L, 0, -k)]
    rank = {}
    for j, members in enumerate(buckets, 1):
        bld.op(
            f"A{j}",
            _("all-reduce of bucket {j} (layers {join})").format(
                j=j, join=", ".join(map(str, members))
            ),
            "link",
            alpha + r * len(members),
            "A",
        )
        rank[f"A{j}"] = j
    for layer in range(1, L):
        bld.after(
            f"F{layer}", f"F{layer + 1}", _("activations of layer {layer}").format(layer=layer)
        )
    bld.after(f"F{L}", f"B{L}", _("the loss"))
    for layer in range(L, 1, -1):
        bld.after(
            f"B{layer}",
            f"B{layer - 1}",
            _("gradient of layer {value}'s output").format(value=layer - 1),
        )
    for j, members in enumerate(buckets, 1):
        last = f"B{members[-1]}" if overlap else "B1"
        bld.after(last, f"A{j}", _("bucket {j}'s gradients computed").format(j=j))
        if j > 1:
            bld.after(f"A{j - 1}", f"A{j}", _("the link, in bucket order"))
    g = bld.graph(
        _("DDP step: {l} layers, buckets of {k}, ").format(l=L, k=k)
        + ("overlapped" if overlap else _("no overlap"))
    )
    return _run("ddp", overlap, g, rank)


def ddp_closed_form(
    layers: int = 4,
    forward: int = 1,
    backward: int = 2,
    allreduce: int = 2,
    bucket: int = 2,
    latency: int = 1,
    overlap: bool = True,
) -> int | None:
    """The step time of :func:`ddp_step` when ``bucket`` divides ``layers`` (else ``None``)."""
    L, f, b, k = layers, forward, backward, bucket
    if L % k:
        return None
    n, a = L // k, latency + k * allreduce
    if not overlap:
        return L * (f + b) + n * a
    return L * f + max(n * k * b + a, k * b + n * a)


def ddp_bucket_sweep(**shape) -> dict[int, tuple[int, int]]:
    """``{bucket: (step time with overlap, without)}`` for every bucket size 1 .. layers."""
    L = validate.integer(shape.get("layers", 4), "layers", 1, 256)
    shape = {k: v for k, v in shape.items() if k not in ("bucket", "overlap")}
    return {
        k: (
            ddp_step(bucket=k, overlap=True, **shape).step_time,
            ddp_step(bucket=k, overlap=False, **shape).step_time,
        )
        for k in range(1, L + 1)
    }


def fsdp_forward(
    layers: int = 3, forward: int = 2, gather: int = 3, prefetch: bool = True
) -> OverlapRun:
    """ZeRO-3 / FSDP's forward pass: all-gather each layer's parameters before its forward,
    with or without prefetching the next layer's while the current one computes (see the
    module text); at most two layers are gathered at once."""
    L = validate.integer(layers, "layers", 1, 256)
    f = validate.integer(forward, "forward", 1, 1000)
    g = validate.integer(gather, "gather", 1, 1000)
    prefetch = _bool(prefetch, "prefetch")
    bld = _Builder()
    for layer in range(1, L + 1):
        bld.op(
            f"G{layer}",
            _("all-gather of layer {layer}'s parameters").format(layer=layer),
            "link",
            g,
            "G",
        )
        bld.op(f"F{layer}", _("forward of layer {layer}").format(layer=layer), "gpu", f, "F")
    for layer in range(1, L + 1):
        bld.after(
            f"G{layer}", f"F{layer}", _("layer {layer}'s parameters gathered").format(layer=layer)
        )
        if layer > 1:
            bld.after(
                f"F{layer - 1}",
                f"F{layer}",
                _("activations of layer {value}").format(value=layer - 1),
            )
            bld.after(f"G{layer - 1}", f"G{layer}", _("the link, in layer order"))
        if prefetch and layer > 2:  # layer l-2's parameters freed: room for layer l
            bld.after(
                f"F{layer - 2}",
                f"G{layer}",
                _("layer {value}'s parameters freed").format(value=layer - 2),
            )
        elif not prefetch and layer > 1:
            bld.after(f"F{layer - 1}", f"G{layer}", _("layer {value} done").format(value=layer - 1))
    graph = bld.graph(
        _("FSDP forward: {l} layers, ").format(l=L) + ("prefetch" if prefetch else _("no prefetch"))
    )
    return _run("fsdp", prefetch, graph, {f"G{k}": k for k in range(1, L + 1)})


def fsdp_closed_form(
    layers: int = 3, forward: int = 2, gather: int = 3, prefetch: bool = True
) -> int:
    """The forward time of :func:`fsdp_forward`."""
    if not prefetch:
        return layers * (forward + gather)
    return gather + forward + (layers - 1) * max(forward, gather)


def ring_attention(
    cp: int = 4, compute: int = 2, transfer: int = 3, overlap: bool = True
) -> OverlapRun:
    """Ring attention on one of ``cp`` devices (see the module text): ``compute`` time units to
    attend to one key/value block, ``transfer`` to receive one."""
    n = validate.integer(cp, "cp", 1, 256)
    c = validate.integer(compute, "compute", 1, 1000)
    t = validate.integer(transfer, "transfer", 1, 1000)
    overlap = _bool(overlap, "overlap")
    bld = _Builder()
    bld.op("A0", _("attention on the device's own key/value block"), "gpu", c, "A")
    for i in range(1, n):
        bld.op(
            f"R{i}",
            _("receive key/value block {i} from the ring neighbour").format(i=i),
            "link",
            t,
            "R",
        )
        bld.op(f"A{i}", _("attention on key/value block {i}").format(i=i), "gpu", c, "A")
    for i in range(1, n):
        bld.after(f"A{i - 1}", f"A{i}", _("the running softmax and output, block by block"))
        bld.after(f"R{i}", f"A{i}", _("block {i} received").format(i=i))
        if i > 1:
            bld.after(
                f"R{i - 1}",
                f"R{i}",
                _("block {value} passed on once it has arrived").format(value=i - 1),
            )
        if not overlap:
            bld.after(f"A{i - 1}", f"R{i}", _("no overlap: receive after computing"))
        elif i > 1:
            bld.after(
                f"A{i - 2}",
                f"R{i}",
                _("block {value}'s buffer freed (two buffers)").format(value=i - 2),
            )
    g = bld.graph(
        _("ring attention: cp = {n}, ").format(n=n) + ("overlapped" if overlap else _("no overlap"))
    )
    return _run("ring", overlap, g, {f"R{i}": i for i in range(1, n)})


def ring_attention_closed_form(
    cp: int = 4, compute: int = 2, transfer: int = 3, overlap: bool = True
) -> int:
    """The time of :func:`ring_attention`: ``cp c + (cp-1) t`` serial,
    ``c + (cp-1) max(c, t)`` overlapped."""
    if not overlap:
        return cp * compute + (cp - 1) * transfer
    return compute + (cp - 1) * max(compute, transfer)
