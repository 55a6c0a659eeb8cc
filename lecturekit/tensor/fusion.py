"""Operator fusion on a graph: which operators share a kernel, and the memory traffic it saves.

The notes' rule (the heterogeneous-platform talk): "计算密集型+访存密集型算子，
访存密集型算子之间可以进行融合" -- fuse a memory-bound operator into the compute-bound one before it
(its epilogue) and memory-bound operators with each other; the gain is
"去掉kernel launch时间，提升计算密度，减少额外访存".

- :func:`graph_ops` turns each computing node of a :class:`~lecturekit.tensor.graph.TensorGraph`
  into chapter 11's :class:`lecturekit.llm.roofline.Op` (FLOPs, and the bytes of each tensor it
  reads and writes, from the shapes of an example run).
- :func:`fusion_groups` applies the rule greedily in topological order; any partition (or
  overlapping groups: an operator in two kernels is computed twice) can be given by hand.
- :func:`kernels` makes one fused :class:`~lecturekit.llm.roofline.Op` per group with
  :func:`lecturekit.llm.roofline.fuse`: a tensor produced and consumed inside a kernel never
  reaches DRAM, unless another kernel or the caller reads it.
- :func:`kernel_schedule` runs the kernels on a device as the scheduling core sees it: a CPU
  stream that launches each kernel (``launch`` seconds each) and a GPU stream that runs them
  in order, asynchronously (:func:`lecturekit.core.evaluate`, checked by
  :func:`lecturekit.core.verify`). The talk's formula, 子图执行时间 = 算子求和(kernel launch时间 +
  访存时间 + 计算时间), is the time when nothing overlaps; with asynchronous launches a launch
  hides behind the kernel before it, and only short kernels leave the GPU waiting for the CPU.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..core import Edge, Graph, Operation, Reservation, evaluate, verify
from ..errors import ConfigError
from ..language import N_, _
from ..llm import roofline
from .graph import TensorGraph

#: operations that are element-wise (memory-bound in practice); matmul is compute-bound
ELEMENTWISE = {
    "add", "sub", "mul", "div", "neg", "exp", "log", "tanh", "sin", "cos", "relu", "step", "gt",
    "where", "pow", "broadcast_to", "sum_to",
}  # fmt: skip
REDUCTIONS = {"sum"}


def graph_ops(
    graph: TensorGraph, example: Mapping[str, object], element_bytes: int = 4
) -> dict[str, roofline.Op]:
    """One roofline Op per computing node: FLOPs (one per output element for an element-wise
    operation or a sum, ``2mkn`` for a matmul, none for a transpose) and the bytes of every
    tensor read (inputs and constants of more than one element) and written."""
    if isinstance(element_bytes, bool) or not isinstance(element_bytes, int) or element_bytes < 1:
        raise ConfigError(
            _("element_bytes must be a whole number >= 1, got {element_bytes!r}").format(
                element_bytes=element_bytes
            )
        )
    env = graph.evaluate(example)
    nodes = {n.name: n for n in graph.nodes}
    ops = {}
    for n in graph.compute_nodes():
        out = env[n.name]
        if n.op == "matmul":
            a, b = env[n.inputs[0]], env[n.inputs[1]]
            flops = 2.0 * np.size(out) * np.shape(a)[-1]
            del b
        elif n.op in ELEMENTWISE:
            flops = float(np.size(out))
        elif n.op in REDUCTIONS:
            flops = float(np.size(env[n.inputs[0]]))
        else:
            flops = 0.0
        reads = {}
        for a in n.inputs:
            if nodes[a].op == "const" and np.size(env[a]) == 1:
                continue  # a scalar constant is an immediate in the kernel
            if n.op in ("sum_to", "broadcast_to") and a == n.inputs[1]:
                continue  # only its shape is read
            reads[a] = np.size(env[a]) * element_bytes
        ops[n.name] = roofline.Op(n.name, flops, reads, {n.name: np.size(out) * element_bytes})
    return ops


def kind(op_name: str) -> str:
    if op_name == "matmul":
        return "compute"
    if op_name in REDUCTIONS:
        return "reduction"
    return "memory"


def fusion_groups(graph: TensorGraph) -> list[list[str]]:
    """The notes' rule, greedily: each node joins the kernel of one of its producers when that
    kernel does not end in a reduction, and either the node is element-wise (an epilogue of a
    matmul or a chain of element-wise operations) or it is a reduction of an element-wise kernel;
    a matmul starts a kernel of its own. Joining never makes two kernels wait on each other."""
    nodes = {n.name: n for n in graph.nodes}
    group_of: dict[str, int] = {}
    groups: list[list[str]] = []

    def deps_of_group(g: int) -> set[int]:
        """Groups that group g reads from (directly)."""
        found = set()
        for name in groups[g]:
            for a in nodes[name].inputs:
                if a in group_of and group_of[a] != g:
                    found.add(group_of[a])
        return found

    def reaches(src: int, dst: int) -> bool:
        """Does group dst depend (transitively) on group src?"""
        todo, seen = [dst], set()
        while todo:
            g = todo.pop()
            for d in deps_of_group(g):
                if d == src:
                    return True
                if d not in seen:
                    seen.add(d)
                    todo.append(d)
        return False

    for n in graph.compute_nodes():
        chosen = None
        k = kind(n.op)
        if k != "compute":
            for a in n.inputs:
                if a not in group_of:
                    continue
                g = group_of[a]
                last = nodes[groups[g][-1]]
                if kind(last.op) == "reduction":
                    continue
                if k == "reduction" and any(kind(nodes[x].op) == "compute" for x in groups[g]):
                    continue  # keep a matmul's epilogue element-wise
                others = [group_of[b] for b in n.inputs if b in group_of and group_of[b] != g]
                if any(reaches(g, o) for o in others):
                    continue  # joining g would make g and o wait on each other
                chosen = g
                break
        if chosen is None:
            groups.append([n.name])
            group_of[n.name] = len(groups) - 1
        else:
            groups[chosen].append(n.name)
            group_of[n.name] = chosen
    return groups


def unfused(graph: TensorGraph) -> list[list[str]]:
    """One kernel per operation."""
    return [[n.name] for n in graph.compute_nodes()]


def kernels(
    graph: TensorGraph,
    groups: Sequence[Sequence[str]],
    example: Mapping[str, object],
    element_bytes: int = 4,
) -> list[roofline.Op]:
    """One fused Op per group (in the order given). A node may be in several groups (it is
    then computed in each); every computing node must be in one. A tensor a group produces is
    written to DRAM when the graph returns it or a node of another group that does not compute
    it itself reads it."""
    ops = graph_ops(graph, example, element_bytes)
    order = [n.name for n in graph.compute_nodes()]
    covered = {x for g in groups for x in g}
    unknown = sorted(covered - set(order))
    if unknown:
        raise ConfigError(
            _("fusion groups name {join}, not operations of the graph").format(
                join=", ".join(unknown)
            )
        )
    missing = [x for x in order if x not in covered]
    if missing:
        raise ConfigError(_("fusion groups leave out {join}").format(join=", ".join(missing)))
    nodes = {n.name: n for n in graph.nodes}
    result = []
    for k, g in enumerate(groups):
        if not g:
            raise ConfigError(_("fusion group {k} is empty").format(k=k))
        members = [x for x in order if x in set(g)]  # topological order inside the kernel
        keep = []
        for x in members:
            if x in graph.outputs:
                keep.append(x)
                continue
            for other in groups:
                if set(other) == set(g) or x in other:
                    continue
                if any(x in nodes[y].inputs for y in other):
                    keep.append(x)
                    break
        name = "+".join(members)
        result.append(roofline.fuse([ops[x] for x in members], name=name, keep=keep))
    return result


@dataclass
class KernelRun:
    """Kernels on a device: their roofline times, and the CPU/GPU schedule of the core."""

    kernels: list[roofline.Op]
    times: list[float]  #: each kernel's roofline time (s), without the launch
    launch: float
    tick: float  #: seconds per time unit of the core graph
    graph: Graph
    schedule: object  #: lecturekit.core.Schedule

    @property
    def bytes(self) -> float:
        return sum(k.bytes_moved for k in self.kernels)

    @property
    def seconds(self) -> float:
        """From the first launch to the end of the last kernel (asynchronous launches)."""
        return (self.schedule.length - self.graph.earliest + 1) * self.tick

    @property
    def serial_seconds(self) -> float:
        """The talk's sum: every launch, memory and compute time one after another."""
        return sum(self.times) + self.launch * len(self.kernels)

    @property
    def gpu_idle(self) -> float:
        """Seconds the GPU waits between its first and last kernel (for the CPU to launch)."""
        busy = sum(math.ceil(t / self.tick) for t in self.times) * self.tick
        first = min(self.schedule.start[1::2], default=self.graph.earliest)
        return (self.schedule.length - first + 1) * self.tick - busy


def kernel_schedule(
    kernels_: Sequence[roofline.Op],
    roof: roofline.Roof,
    launch: float = 5e-6,
    tick: float = 1e-8,
) -> KernelRun:
    """Launch the kernels in order from a CPU stream and run them in order on a GPU stream.

    Each kernel is two operations of a core graph: its launch on unit ``cpu`` (``launch``
    seconds) and its run on unit ``gpu`` (its roofline time on ``roof``), the run after its
    launch and after the kernel before it (a data dependence in a chain). Times are rounded up
    to ``tick`` seconds, the core's unit."""
    for name, v in (("launch", launch), ("tick", tick)):
        if (
            isinstance(v, bool)
            or not isinstance(v, (int, float))
            or v < 0
            or (name == "tick" and v == 0)
        ):
            raise ConfigError(
                _("kernel_schedule: {name} must be a number >= 0, got {v!r}").format(name=name, v=v)
            )
    if not kernels_:
        raise ConfigError(_("kernel_schedule: no kernels"))
    times = [roofline.op_time(k, roof.peak_flops, roof.bandwidth) for k in kernels_]
    launch_ticks = max(1, math.ceil(launch / tick)) if launch > 0 else 1
    ops, edges = [], []
    for k, (kern, t) in enumerate(zip(kernels_, times, strict=True)):
        run_ticks = max(1, math.ceil(t / tick))
        ops.append(
            Operation(
                f"L{k + 1}", f"launch {kern.name}", (Reservation("cpu", 0, launch_ticks),),
                launch_ticks - 1, "launch", "cpu",
            )
        )  # fmt: skip
        ops.append(
            Operation(
                f"K{k + 1}", kern.name, (Reservation("gpu", 0, run_ticks),), run_ticks - 1,
                "kernel", "gpu",
            )
        )  # fmt: skip
        edges.append(Edge(2 * k, 2 * k + 1, launch_ticks, "launch"))
        if k:
            prev_run = max(1, math.ceil(times[k - 1] / tick))
            edges.append(Edge(2 * k - 1, 2 * k + 1, prev_run, "data"))
    graph = Graph(ops, edges, {"cpu": 1, "gpu": 1}, name=_("kernels on a device"))
    order = {"cpu": list(range(0, len(ops), 2)), "gpu": list(range(1, len(ops), 2))}
    sched = evaluate(graph, order, N_("asynchronous launches"))
    verify(graph, sched)
    return KernelRun(list(kernels_), times, launch, tick, graph, sched)
