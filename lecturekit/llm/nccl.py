"""NCCL's algorithms on the two-level network, as messages for the scheduling core.

What NCCL (the NVIDIA Collective Communications Library, which none of the lecture material names)
runs, placed on a :class:`~lecturekit.llm.fabric.Fabric` and scheduled by
:func:`lecturekit.llm.network.schedule_messages`:

:func:`ring_all_reduce`
    NCCL's **ring**: one ring per *channel*, ``gpus_per_node`` channels, each carrying its share
    of the buffer. Inside a node a ring goes GPU to GPU over NVLink; between nodes it leaves
    through a NIC. NCCL's search (``src/graph/search.cc``) looks for rings "NET n → GPU a → GPU
    b → .. → GPU x → NET n (or m if crossNic)": with ``NCCL_CROSS_NIC=0`` a ring enters and
    leaves every node through the *same* NIC, so on a rail-optimized fabric its traffic between
    nodes never leaves its rail. Here channel ``c`` enters at GPU ``c`` and leaves from the GPU
    that shares ``c``'s PCIe switch, through NIC ``c`` (``cross_nic=False``). With
    ``cross_nic=True`` channel ``c`` enters at GPU ``c`` through NIC ``c`` but leaves from GPU
    ``c − 1`` through NIC ``c − 1``: every hop between nodes changes rail.
:func:`rail_ring_all_reduce`, :func:`tree_all_reduce`, :func:`sharp_all_reduce`
    One rail's part of an all-reduce between nodes (GPU ``rail`` of every node, one rank per
    node; the intra-node part is left out): the ring, NCCL's pipelined **double binary tree**
    (:mod:`lecturekit.llm.double_tree`), and **SHARP**'s reduction inside the switches: every GPU
    sends its chunks up the aggregation tree once, the switches add them on the way, and the
    root sends the sums down (Graham et al., "Scalable Hierarchical Aggregation Protocol (SHArP):
    a hardware architecture for efficient data reduction", COMHPC 2016; NCCL reaches it through
    its CollNet algorithm and the SHARP plugin).
:func:`all_to_all`
    Every GPU sends an equal share of its buffer to every GPU. With **PXN** (NCCL 2.12's "PCI ×
    NVLink": a GPU hands its data over NVLink to the GPU of the destination's rail, whose NIC
    sends it; NVIDIA, "Doubling all2all performance with NVIDIA Collective Communication Library
    2.12", 2022) all network traffic stays on its rail: the talk's rail-local All2All.

The ring and the trees come from :mod:`lecturekit.llm.collectives`' traces (the same steps the
chapter-10 stepper shows, on arrays): every recorded transfer becomes a message on the links of
its route, depending on the earlier messages that brought the data it forwards (for each chunk:
those since the sender last received a copy of it). Every result is a :class:`CollectiveRun`
with its time, algorithm and bus bandwidth (:mod:`lecturekit.llm.busbw`) and the load of every
link. Bad sizes, an unknown policy or a rail that does not exist raise
:class:`~lecturekit.errors.ConfigError`.

The latencies default to NCCL's own tuning constants for its Simple protocol
(:data:`NCCL_LATENCY_US`): 3.4 µs per ring step over NVLink, 14 µs per step over the network.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

import numpy as np

from .. import validate
from ..errors import ConfigError
from ..language import N_, _
from .busbw import bus_factor
from .collectives import double_tree_all_reduce_trace, ring_all_reduce_trace
from .fabric import SPECS, Fabric, FabricLink
from .network import Message, NetworkRun, schedule_messages
from .routing import Connection, Route, route

__all__ = [
    "ALGORITHMS",
    "NCCL_LATENCY_US",
    "CollectiveRun",
    "all_to_all",
    "rail_ring_all_reduce",
    "ring_all_reduce",
    "ring_connections",
    "ring_order",
    "run",
    "sharp_all_reduce",
    "sharp_tree",
    "tree_all_reduce",
    "uneven_ring",
]

#: NCCL 2.30.7, ``src/graph/tuning.cc``, Simple protocol, in µs: ``baseLatencies`` (once per
#: operation) and ``hwLatencies`` (per step: NVLink and network, ring and tree; CollNet once)
NCCL_LATENCY_US = {
    "base ring": 8.4,
    "base tree": 8.4,
    "nvlink ring step": 3.4,
    "nvlink tree step": 4.0,
    "net ring step": 14.0,
    "net tree step": 14.0,
    "net collnet chain": 30.0,
    "net collnet direct": 31.0,
}
ALPHA_NVLINK = NCCL_LATENCY_US["nvlink ring step"] * 1e-6
ALPHA_NET = NCCL_LATENCY_US["net ring step"] * 1e-6

#: the most ranks a trace is built for (a ring's trace holds every rank's buffer at every step)
MAX_RANKS = 256


@dataclass
class CollectiveRun:
    """One collective on the fabric: the core's run, and the figures nccl-tests would print."""

    collective: str  #: all-reduce, all-to-all
    algorithm: str  #: ring, double tree, SHARP, PXN, ...
    nbytes: float  #: S, the operation's size
    ranks: int  #: n, for the bus bandwidth
    run: NetworkRun
    routes: dict[Connection, Route] = field(default_factory=dict)
    policy: str = ""
    steps: int = 0  #: the algorithm's steps as a rank sees them (ring: 2(n−1))

    @property
    def seconds(self) -> float:
        return self.run.seconds

    @property
    def algbw(self) -> float:
        """``S / t`` (bytes/s)."""
        return self.run.algbw(self.nbytes)

    @property
    def busbw(self) -> float:
        """nccl-tests' bus bandwidth: ``algbw × factor(n)``."""
        return self.algbw * bus_factor(self.collective, self.ranks)

    def connection_load(self, kinds=("tor-leaf", "leaf-spine")) -> Counter:
        """Link -> how many connections' routes cross it (:func:`connection_load`)."""
        return connection_load(self.run.fabric, self.routes, kinds)

    @property
    def max_connections(self) -> int:
        """The most connections sharing one link between switches: 1 means no collision (the
        links the routing chooses among; a NIC's own cable carries what the algorithm sends)."""
        return max(self.connection_load().values(), default=0)

    def summary(self) -> str:
        text = _(
            "{algorithm} {collective} of {megabytes:,.3g} MB on {ranks} ranks: "
            "{us:,.1f} µs, algbw {algbw:,.1f} GB/s, busbw {busbw:,.1f} GB/s"
        ).format(
            algorithm=_(self.algorithm),
            collective=_(self.collective),
            megabytes=self.nbytes / 1e6,
            ranks=self.ranks,
            us=self.seconds * 1e6,
            algbw=self.algbw / 1e9,
            busbw=self.busbw / 1e9,
        )
        return text + (_(", {policy} routing").format(policy=self.policy) if self.policy else "")


def connection_load(
    fabric: Fabric, routes: dict[Connection, Route], kinds=("tor-leaf", "leaf-spine")
) -> Counter:
    """Link -> how many of the connections' routes cross it, for links of ``kinds``: by default
    those between two switches (ToR–leaf, leaf–spine), the links routing chooses among, where a
    count above 1 is a collision; ``kinds=("nic", "tor-leaf", "leaf-spine")`` adds the NICs'
    cables."""
    return Counter(
        link for r in routes.values() for link in r.links if fabric.links[link].kind in kinds
    )


# ----------------------------------------------------------------------------------------------
# checks
# ----------------------------------------------------------------------------------------------


def _check_fabric(fabric) -> Fabric:
    if not isinstance(fabric, Fabric):
        raise ConfigError(
            _("expected a Fabric (lecturekit.llm.fabric), got {name}").format(
                name=type(fabric).__name__
            )
        )
    return fabric


def _check_bytes(nbytes) -> float:
    return validate.number(nbytes, "nbytes", above=0.0, maximum=1e15)


def _check_rail(fabric: Fabric, rail) -> int:
    return validate.integer(
        rail,
        _("rail (a node has GPUs/NICs 0..{last})").format(last=fabric.gpus_per_node - 1),
        0,
        fabric.gpus_per_node - 1,
    )


def _check_alpha(value, name: str) -> float:
    return validate.number(value, name, 0.0, 1.0)


# ----------------------------------------------------------------------------------------------
# rings: the order of the GPUs
# ----------------------------------------------------------------------------------------------


def ring_order(fabric: Fabric, channel: int, cross_nic: bool = False) -> list[int]:
    """The GPUs of ``channel``'s ring, node by node (see the module docstring)."""
    r = fabric.gpus_per_node
    c = validate.integer(channel, _("channel (0..{last})").format(last=r - 1), 0, r - 1)
    if r == 1:
        local = [0]
    elif cross_nic:
        local = [(c + i) % r for i in range(r)]
    else:
        partner = c ^ 1
        local = [c] + [(c + i) % r for i in range(1, r) if (c + i) % r != partner] + [partner]
    return [fabric.gpu(n, x) for n in range(fabric.nodes) for x in local]


def _ring_hop(fabric: Fabric, a: int, b: int, channel: int, cross_nic: bool):
    """``(out NIC, in NIC)`` of the ring's hop from GPU ``a`` to GPU ``b``; None over NVLink."""
    if fabric.node_of(a) == fabric.node_of(b):
        return None
    if cross_nic:
        return fabric.local_of(a), fabric.local_of(b)
    return channel, channel


def ring_connections(fabric: Fabric, cross_nic: bool = False, rails=None) -> list[Connection]:
    """The connections between nodes of every channel's ring (``rails``: the channels; all)."""
    out = []
    for c in rails if rails is not None else range(fabric.gpus_per_node):
        order = ring_order(fabric, c, cross_nic)
        for a, b in zip(order, order[1:] + order[:1], strict=False):
            hop = _ring_hop(fabric, a, b, c, cross_nic)
            if hop:
                out.append(
                    Connection((fabric.node_of(a), hop[0]), (fabric.node_of(b), hop[1]), key=c)
                )
    return out


def uneven_ring(link_cycles, alpha: int, steps: int) -> NetworkRun:
    """A ring whose links differ, on the core, in cycles: ``p = len(link_cycles)`` ranks, rank
    ``r`` joined to rank ``(r + 1) mod p`` by a link of its own that carries one of its messages
    in ``link_cycles[r]`` cycles; a message is delivered ``alpha`` cycles after it leaves the
    link. In each of ``steps`` steps every rank sends one message (in step order: one stream a
    rank), and from the second step on each message forwards what the rank received in the step
    before (the ring all-reduce's steps, ``2(p − 1)`` of them, or an all-gather's ``p − 1``), so
    it depends on that message.

    The links are made for this ring alone (``r0>r1``, ``r1>r2``, ...: one byte a message, a
    bandwidth of ``1 / link_cycles[r]`` bytes a cycle, a cycle of one second): the returned run's
    ``cycles`` is the makespan, from the first message's start to the last delivery. With equal
    links it is chapter 10's ``steps · (α + m/p·β)``; with unequal ones the pace the slowest hop
    sets, which problem set 15 asks for."""
    if isinstance(link_cycles, (str, bytes)) or not hasattr(link_cycles, "__len__"):
        raise ConfigError(
            _("link_cycles: expected a list of whole numbers, got {value!r}").format(
                value=link_cycles
            )
        )
    cycles = [validate.integer(d, f"link_cycles[{r}]", 1) for r, d in enumerate(link_cycles)]
    p = len(cycles)
    if p < 2:
        raise ConfigError(_("uneven ring: a ring needs 2 or more ranks, got {p}").format(p=p))
    _check_ranks(p, _("uneven ring"))
    alpha = validate.integer(alpha, "alpha", 0)
    steps = validate.integer(steps, "steps", 1, 4 * MAX_RANKS)
    fabric = Fabric(p, 1, 4, True, SPECS["a100-hdr"])
    names = []
    for r, d in enumerate(cycles):
        a, b = f"r{r}", f"r{(r + 1) % p}"
        names.append(f"{a}>{b}")
        fabric.links[names[-1]] = FabricLink(names[-1], a, b, "nic", 1.0 / d)
    msgs = []
    for s in range(steps):
        for r in range(p):
            deps = () if s == 0 else ((s - 1) * p + (r - 1) % p,)
            msgs.append(
                Message(f"s{s + 1}:r{r}", (names[r],), 1.0, f"r{r}", deps, float(alpha), "step")
            )
    name = _("uneven ring of {p} ranks").format(p=p)
    return schedule_messages(fabric, msgs, quantum=1.0, name=name)


# ----------------------------------------------------------------------------------------------
# traces -> messages
# ----------------------------------------------------------------------------------------------


def _path(fabric, a, b, hop, routes, key, alpha_nvlink, alpha_net):
    """(links, alpha) of a transfer from GPU ``a`` to GPU ``b`` (``hop``: its NICs, or None)."""
    if hop is None:
        return fabric.nvlink_path(a, b), alpha_nvlink
    out_nic, in_nic = hop
    conn = Connection((fabric.node_of(a), out_nic), (fabric.node_of(b), in_nic), key=key)
    head = fabric.pcie_path(a, out_nic)
    tail = fabric.pcie_path(b, in_nic, outbound=False)
    return head + routes[conn].links + tail, alpha_net


def _trace_messages(
    fabric, trace, placement, nbytes, hop_of, routes, key, alpha_nvlink, alpha_net, tree_of=None
):
    """Messages for every transfer of ``trace`` (ranks placed on GPUs by ``placement``).

    A transfer depends, for every chunk it carries, on the transfers that brought that chunk to
    its sender since the sender last received a copy of it (adds accumulate, a copy replaces).
    A GPU sends what it reduces (adds) and what it passes on (copies) in two streams, as NCCL's
    tree kernel splits its threads between the two (``runTreeSplit``); ``tree_of(chunk)`` names
    a chunk's tree, each tree being a channel of its own."""
    scale = nbytes / trace.message_bytes
    msgs: list[Message] = []
    holding: dict[tuple[int, int], list[int]] = defaultdict(list)  # (rank, chunk) -> messages
    for step in trace.steps:
        first = len(msgs)
        for t in step.transfers:
            a, b = placement[t.src], placement[t.dst]
            links, alpha = _path(
                fabric, a, b, hop_of(t.src, t.dst), routes, key, alpha_nvlink, alpha_net
            )
            msgs.append(
                Message(
                    name=f"c{key}s{step.number}:{fabric.gpu_name(a)}>{fabric.gpu_name(b)}",
                    links=links,
                    nbytes=t.nbytes * scale,
                    stream=f"ch{key}{'' if tree_of is None else f'.{tree_of(t.chunks[0])}'}:"
                    f"{fabric.gpu_name(a)}:{'up' if t.combine == 'add' else 'down'}",
                    deps=tuple(sorted({x for c in t.chunks for x in holding[(t.src, c)]})),
                    alpha=alpha,
                    kind=step.phase,
                    src=fabric.gpu_name(a),
                    dst=fabric.gpu_name(b),
                )
            )
        for k, t in enumerate(step.transfers):  # after the step: messages carry earlier data
            for c in t.chunks:
                if t.combine == "copy":
                    holding[(t.dst, c)] = []
                holding[(t.dst, c)].append(first + k)
    return msgs


def _offset(msgs: list[Message], by: int) -> list[Message]:
    """The same messages with their dependences shifted by ``by`` (to append to a longer list)."""
    if by == 0:
        return msgs
    return [
        Message(
            m.name,
            m.links,
            m.nbytes,
            m.stream,
            tuple(d + by for d in m.deps),
            m.alpha,
            m.kind,
            m.src,
            m.dst,
        )
        for m in msgs
    ]


def _check_ranks(p: int, what: str) -> None:
    if p > MAX_RANKS:
        raise ConfigError(
            _(
                "{what}: {p} ranks is more than the {max_ranks} a trace is built for "
                "here; use fewer nodes or GPUs per node"
            ).format(what=what, p=p, max_ranks=MAX_RANKS)
        )


# ----------------------------------------------------------------------------------------------
# all-reduce
# ----------------------------------------------------------------------------------------------


def ring_all_reduce(
    fabric: Fabric,
    nbytes: float,
    *,
    cross_nic: bool = False,
    policy: str = "ecmp",
    seed: int = 0,
    alpha_nvlink: float = ALPHA_NVLINK,
    alpha_net: float = ALPHA_NET,
    quantum: float | None = None,
) -> CollectiveRun:
    """NCCL's ring all-reduce of ``nbytes`` over every GPU, one ring per channel (= per NIC),
    each channel carrying ``nbytes / gpus_per_node``; routed by ``policy`` (seeded queue pairs)."""
    fabric = _check_fabric(fabric)
    nbytes = _check_bytes(nbytes)
    if not isinstance(cross_nic, bool):
        raise ConfigError(
            _("cross_nic: expected True or False, got {cross_nic!r}").format(cross_nic=cross_nic)
        )
    alpha_nvlink, alpha_net = (
        _check_alpha(alpha_nvlink, "alpha_nvlink"),
        _check_alpha(alpha_net, "alpha_net"),
    )
    p, channels = fabric.gpus, fabric.gpus_per_node
    _check_ranks(p, _("ring all-reduce"))
    if p < 2:
        raise ConfigError(_("ring all-reduce: one GPU has nobody to reduce with; use 2 or more"))
    routes = route(fabric, ring_connections(fabric, cross_nic), policy, seed)
    trace = ring_all_reduce_trace([np.zeros(p, dtype=np.float32) for _rank in range(p)])
    msgs: list[Message] = []
    for c in range(channels):
        order = ring_order(fabric, c, cross_nic)

        def hop_of(s, d, order=order, c=c):
            return _ring_hop(fabric, order[s], order[d], c, cross_nic)

        part = _trace_messages(
            fabric, trace, order, nbytes / channels, hop_of, routes, c, alpha_nvlink, alpha_net
        )
        msgs += _offset(part, len(msgs))
    run = schedule_messages(
        fabric, msgs, quantum, name=_("ring all-reduce on {p} GPUs").format(p=p)
    )
    name = N_("ring (cross-NIC)") if cross_nic else N_("ring")
    return CollectiveRun(N_("all-reduce"), name, nbytes, p, run, routes, policy, len(trace.steps))


def _rail_setup(fabric, nbytes, rail, what):
    fabric = _check_fabric(fabric)
    nbytes = _check_bytes(nbytes)
    rail = _check_rail(fabric, rail)
    if fabric.nodes < 2:
        raise ConfigError(
            _("{what}: one node has no network to cross; use 2 or more nodes").format(what=what)
        )
    _check_ranks(fabric.nodes, what)
    return fabric, nbytes, rail


def rail_ring_all_reduce(
    fabric: Fabric,
    nbytes: float,
    rail: int = 0,
    *,
    policy: str = "ecmp",
    seed: int = 0,
    alpha_net: float = ALPHA_NET,
    quantum: float | None = None,
) -> CollectiveRun:
    """A ring all-reduce of ``nbytes`` over GPU ``rail`` of every node (one rank per node)."""
    fabric, nbytes, rail = _rail_setup(fabric, nbytes, rail, _("rail ring"))
    alpha_net = _check_alpha(alpha_net, "alpha_net")
    n = fabric.nodes
    placement = [fabric.gpu(node, rail) for node in range(n)]
    conns = [Connection((i, rail), ((i + 1) % n, rail), key=rail) for i in range(n)]
    routes = route(fabric, conns, policy, seed)
    trace = ring_all_reduce_trace([np.zeros(n, dtype=np.float32) for _rank in range(n)])
    msgs = _trace_messages(
        fabric, trace, placement, nbytes, lambda s, d: (rail, rail), routes, rail, 0.0, alpha_net
    )
    run = schedule_messages(
        fabric, msgs, quantum, name=_("ring over {n} nodes, rail {rail}").format(n=n, rail=rail)
    )
    return CollectiveRun(
        N_("all-reduce"), N_("ring"), nbytes, n, run, routes, policy, len(trace.steps)
    )


def tree_all_reduce(
    fabric: Fabric,
    nbytes: float,
    rail: int = 0,
    *,
    chunks: int = 4,
    policy: str = "ecmp",
    seed: int = 0,
    alpha_net: float = ALPHA_NET,
    quantum: float | None = None,
) -> CollectiveRun:
    """NCCL's pipelined double binary tree over the nodes (GPU ``rail`` of each), ``chunks``
    chunks per tree (:func:`lecturekit.llm.collectives.double_tree_all_reduce_trace`)."""
    fabric, nbytes, rail = _rail_setup(fabric, nbytes, rail, _("double tree"))
    alpha_net = _check_alpha(alpha_net, "alpha_net")
    chunks = validate.integer(chunks, _("chunks (per tree)"), 1, 64)
    n = fabric.nodes
    placement = [fabric.gpu(node, rail) for node in range(n)]
    trace = double_tree_all_reduce_trace(
        [np.zeros(2 * chunks, dtype=np.float32) for _rank in range(n)], chunks=chunks
    )
    pairs = {(t.src, t.dst) for s in trace.steps for t in s.transfers}
    conns = [Connection((a, rail), (b, rail), key=rail) for a, b in sorted(pairs)]
    routes = route(fabric, conns, policy, seed)
    msgs = _trace_messages(
        fabric,
        trace,
        placement,
        nbytes,
        lambda s, d: (rail, rail),
        routes,
        rail,
        0.0,
        alpha_net,
        tree_of=lambda c: c // chunks,
    )
    run = schedule_messages(
        fabric,
        msgs,
        quantum,
        name=_("double tree over {n} nodes, rail {rail}").format(n=n, rail=rail),
    )
    return CollectiveRun(
        N_("all-reduce"), N_("double tree"), nbytes, n, run, routes, policy, len(trace.steps)
    )


# ----------------------------------------------------------------------------------------------
# SHARP
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SharpTree:
    """SHARP's aggregation tree for GPU ``rail`` of every node: ``root`` (a switch), and each
    switch's children (switches, or GPUs as ``"n3.g0"``) by name; ``levels`` switch levels."""

    rail: int
    root: str
    children: dict[str, tuple[str, ...]]
    levels: int


def sharp_tree(fabric: Fabric, rail: int = 0) -> SharpTree:
    """The aggregation tree over the switches above GPU ``rail`` of every node: its ToRs, their
    pods' first leaf, and spine 0 of plane 0 when the GPUs span several pods (the switches a
    SHARP aggregation manager would pick among; any leaf and spine of the planes would do)."""
    fabric = _check_fabric(fabric)
    rail = _check_rail(fabric, rail)
    half = fabric.radix // 2
    tors: dict[int, list[str]] = defaultdict(list)
    for node in range(fabric.nodes):
        tors[fabric.tor_of(node, rail)].append(fabric.gpu_name(fabric.gpu(node, rail)))
    children: dict[str, tuple[str, ...]] = {
        fabric.tor_name(t): tuple(g) for t, g in sorted(tors.items())
    }
    pods = sorted({t // half for t in tors})
    if len(tors) == 1:
        root, levels = fabric.tor_name(next(iter(tors))), 1
    else:
        for pod in pods:
            children[fabric.leaf_name(pod, 0)] = tuple(
                fabric.tor_name(t) for t in sorted(tors) if t // half == pod
            )
        if len(pods) == 1:
            root, levels = fabric.leaf_name(pods[0], 0), 2
        else:
            root, levels = fabric.spine_name(0, 0), 3
            children[root] = tuple(fabric.leaf_name(pod, 0) for pod in pods)
    return SharpTree(rail, root, children, levels)


def sharp_all_reduce(
    fabric: Fabric,
    nbytes: float,
    rail: int = 0,
    *,
    chunks: int = 4,
    alpha_net: float = ALPHA_NET,
    alpha_switch: float = 0.0,
    quantum: float | None = None,
) -> CollectiveRun:
    """SHARP all-reduce of ``nbytes`` over GPU ``rail`` of every node, in ``chunks`` pipelined
    chunks: each GPU sends every chunk up once (``α_net``), each switch adds its children's
    chunks and passes the sum up (``α_switch``), the root sends it down the same tree, and each
    GPU receives the result once (``α_net``). Every link carries each chunk once each way."""
    fabric, nbytes, rail = _rail_setup(fabric, nbytes, rail, "SHARP")
    alpha_net = _check_alpha(alpha_net, "alpha_net")
    alpha_switch = _check_alpha(alpha_switch, "alpha_switch")
    chunks = validate.integer(chunks, "chunks", 1, 256)
    tree = sharp_tree(fabric, rail)
    parent = {c: s for s, kids in tree.children.items() for c in kids}
    gpu_ids = {
        fabric.gpu_name(fabric.gpu(node, rail)): fabric.gpu(node, rail)
        for node in range(fabric.nodes)
    }
    nic_tor = {
        g: f"{fabric.nic_name(fabric.node_of(i), rail)}>{parent[g]}" for g, i in gpu_ids.items()
    }
    size = nbytes / chunks
    msgs: list[Message] = []
    up_into: dict[tuple[str, int], list[int]] = defaultdict(list)

    def add(links, src, dst, deps, alpha, kind, j):
        msgs.append(
            Message(
                f"{kind}{j}:{src}>{dst}",
                links,
                size,
                f"sharp:{src}>{dst}",
                tuple(deps),
                alpha,
                kind,
                src,
                dst,
            )
        )
        return len(msgs) - 1

    # up: leaves first (GPUs), then switches level by level
    order = []  # switches bottom-up
    frontier = [s for s in tree.children if all(k in gpu_ids for k in tree.children[s])]
    seen = set()
    while frontier:
        order += frontier
        seen.update(frontier)
        frontier = sorted({parent[s] for s in frontier if s in parent} - seen)
    for j in range(chunks):
        for g, i in gpu_ids.items():
            links = fabric.pcie_path(i, rail) + (nic_tor[g],)
            up_into[(parent[g], j)].append(add(links, g, parent[g], (), alpha_net, "up", j))
        for s in order:
            if s == tree.root:
                continue
            up_into[(parent[s], j)].append(
                add((f"{s}>{parent[s]}",), s, parent[s], up_into[(s, j)], alpha_switch, "up", j)
            )
        down_from: dict[str, list[int]] = {tree.root: up_into[(tree.root, j)]}
        for s in reversed(order):
            for kid in tree.children[s]:
                if kid in gpu_ids:
                    links = (
                        f"{s}>{fabric.nic_name(fabric.node_of(gpu_ids[kid]), rail)}",
                    ) + fabric.pcie_path(gpu_ids[kid], rail, outbound=False)
                    add(links, s, kid, down_from[s], alpha_net, "down", j)
                else:
                    down_from[kid] = [
                        add((f"{s}>{kid}",), s, kid, down_from[s], alpha_switch, "down", j)
                    ]
    run = schedule_messages(
        fabric,
        msgs,
        quantum,
        name=_("SHARP over {nodes} nodes, rail {rail}").format(nodes=fabric.nodes, rail=rail),
    )
    return CollectiveRun(N_("all-reduce"), N_("SHARP"), nbytes, fabric.nodes, run, {}, "", 2)


# ----------------------------------------------------------------------------------------------
# all-to-all
# ----------------------------------------------------------------------------------------------


def all_to_all(
    fabric: Fabric,
    nbytes: float,
    *,
    pxn: bool = True,
    policy: str = "ecmp",
    seed: int = 0,
    alpha_nvlink: float = ALPHA_NVLINK,
    alpha_net: float = ALPHA_NET,
    quantum: float | None = None,
) -> CollectiveRun:
    """Every GPU sends ``nbytes / p`` to every GPU (``nbytes`` = one GPU's send buffer, nccl-tests'
    S). GPU ``g`` sends to ``g + 1, g + 2, ...`` in turn. Between nodes, with ``pxn`` the data goes
    over NVLink to the GPU on the destination's rail and out through that GPU's NIC; without,
    out through the sender's own NIC and across rails."""
    fabric = _check_fabric(fabric)
    nbytes = _check_bytes(nbytes)
    if not isinstance(pxn, bool):
        raise ConfigError(_("pxn: expected True or False, got {pxn!r}").format(pxn=pxn))
    alpha_nvlink, alpha_net = (
        _check_alpha(alpha_nvlink, "alpha_nvlink"),
        _check_alpha(alpha_net, "alpha_net"),
    )
    p = fabric.gpus
    if p < 2:
        raise ConfigError(_("all-to-all: one GPU has nobody to send to; use 2 or more"))
    if p * (p - 1) > 20_000:
        raise ConfigError(
            _("all-to-all: {p} GPUs make {value:,} messages; use at most 141 GPUs").format(
                p=p, value=p * (p - 1)
            )
        )

    def nics(a, b):
        return (
            (fabric.local_of(b), fabric.local_of(b))
            if pxn
            else (fabric.local_of(a), fabric.local_of(b))
        )

    pairs = [(a, (a + i) % p) for a in range(p) for i in range(1, p)]
    conns = {
        (a, b): Connection(
            (fabric.node_of(a), nics(a, b)[0]), (fabric.node_of(b), nics(a, b)[1]), key=a * p + b
        )
        for a, b in pairs
        if fabric.node_of(a) != fabric.node_of(b)
    }
    routes = route(fabric, list(conns.values()), policy, seed)
    msgs: list[Message] = []
    size = nbytes / p
    for a, b in pairs:
        src, dst = fabric.gpu_name(a), fabric.gpu_name(b)
        if (a, b) not in conns:
            links, alpha = fabric.nvlink_path(a, b), alpha_nvlink
        else:
            out_nic, in_nic = nics(a, b)
            proxy = fabric.gpu(fabric.node_of(a), out_nic)
            head = (fabric.nvlink_path(a, proxy) if proxy != a else ()) + fabric.pcie_path(
                proxy, out_nic
            )
            tail = fabric.pcie_path(b, in_nic, outbound=False)
            links, alpha = head + routes[conns[(a, b)]].links + tail, alpha_net
        msgs.append(
            Message(f"{src}>{dst}", links, size, f"a2a:{src}", (), alpha, "all-to-all", src, dst)
        )
    run = schedule_messages(fabric, msgs, quantum, name=_("all-to-all on {p} GPUs").format(p=p))
    name = N_("all-to-all (PXN)") if pxn else N_("all-to-all (direct)")
    return CollectiveRun(N_("all-to-all"), name, nbytes, p, run, routes, policy, p - 1)


# ----------------------------------------------------------------------------------------------
# by name (for the explorer)
# ----------------------------------------------------------------------------------------------

#: name -> what it runs
ALGORITHMS = {
    "ring": N_("NCCL's ring over every GPU, one channel per NIC, same NIC in and out"),
    "ring cross-NIC": N_("the same rings leaving each node through another NIC (cross-rail)"),
    "rail ring": N_("a ring over GPU 0 of every node (one rail)"),
    "double tree": N_("NCCL's pipelined double binary tree over GPU 0 of every node"),
    "SHARP": N_("SHARP: the switches above GPU 0 of every node add the chunks"),
    "all-to-all PXN": N_("all-to-all, network traffic kept on its rail via NVLink (PXN)"),
    "all-to-all direct": N_("all-to-all, each GPU sending through its own NIC"),
}


def run(
    algorithm: str, fabric: Fabric, nbytes: float, policy: str = "ecmp", seed: int = 0
) -> CollectiveRun:
    """Run :data:`ALGORITHMS` ``[algorithm]`` on ``fabric`` with the default latencies."""
    if algorithm not in ALGORITHMS:
        raise ConfigError(
            _("algorithm: unknown {algorithm!r}; choose one of {join}").format(
                algorithm=algorithm, join=", ".join(ALGORITHMS)
            )
        )
    if algorithm in ("ring", "ring cross-NIC"):
        return ring_all_reduce(
            fabric, nbytes, cross_nic=algorithm != "ring", policy=policy, seed=seed
        )
    if algorithm == "rail ring":
        return rail_ring_all_reduce(fabric, nbytes, policy=policy, seed=seed)
    if algorithm == "double tree":
        return tree_all_reduce(fabric, nbytes, policy=policy, seed=seed)
    if algorithm == "SHARP":
        return sharp_all_reduce(fabric, nbytes, chunks=16)
    return all_to_all(fabric, nbytes, pxn=algorithm.endswith("PXN"), policy=policy, seed=seed)
