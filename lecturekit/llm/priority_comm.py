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
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import validate
from ..core import Edge, Graph, Operation, Reservation, Schedule, evaluate, list_schedule, verify
from ..errors import ScheduleError

__all__ = ["POLICIES", "PriorityRun", "build_graph", "compare", "priority_schedule"]

#: policy -> what it means
POLICIES = {
    "fifo": "chunks take the link in the order they are produced (last layer first)",
    "priority": "chunks of the layer the next forward needs first take the link first",
}


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
        add(("B", layer), f"B{layer}", f"backward of layer {layer}", "gpu", sh.backward, "B")
        for c in range(1, sh.chunks + 1):
            add(
                ("G", layer, c),
                f"G{layer}.{c}",
                f"gradient chunk {c}/{sh.chunks} of layer {layer}",
                "link",
                sh.chunk_time,
                "G",
            )
    for layer in range(1, L + 1):
        add(
            ("F", layer),
            f"F{layer}",
            f"next iteration's forward of layer {layer}",
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
                f"gradient of layer {layer - 1}'s output",
            )
        )
    for layer in range(1, L):
        edges.append(
            Edge(
                idx["F", layer],
                idx["F", layer + 1],
                sh.forward,
                "ACT",
                f"activations of layer {layer}",
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
                    f"chunk {c} of layer {layer}'s gradient computed",
                )
            )
            edges.append(
                Edge(
                    idx["G", layer, c],
                    idx["F", layer],
                    sh.chunk_time,
                    "SYNC",
                    f"chunk {c} of layer {layer}'s gradient synchronised",
                )
            )
    g = Graph(
        ops,
        edges,
        units={"gpu": 1, "link": 1},
        issue_width=None,
        earliest=1,
        name=f"priority scheduling: {L} layers, {sh.chunks} chunks per gradient",
    )
    g.source = (sh, idx)
    return g


def _priority(policy: str):
    if policy not in POLICIES:
        raise ScheduleError(f"policy: unknown {policy!r}; choose one of {', '.join(POLICIES)}")

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
        raise ScheduleError(f"no operation named {name!r}")

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
        out: dict[str, list[int]] = {"gpu": [], "link": []}
        for i in sorted(range(len(self.graph.ops)), key=lambda i: (self.schedule.start[i], i)):
            out[self.graph.ops[i].stream].append(i)
        return out

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
        raise ScheduleError("internal: evaluate's replay differs from the list schedule")
    return run


def compare(**shape) -> dict[str, PriorityRun]:
    """Both policies on the same graph: ``{"fifo": run, "priority": run}``."""
    return {p: priority_schedule(p, **shape) for p in POLICIES}
