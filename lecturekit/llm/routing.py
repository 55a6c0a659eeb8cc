"""Which equal-cost path a flow takes: ECMP's hash, the talk's source ports, adaptive routing.

Between two NICs under different ToRs a fat tree (:mod:`lecturekit.llm.fabric`) offers k/2 paths
within a pod and (k/2)² across pods. Who picks one, and how, is the routing policy
(:data:`ROUTING`):

``"ecmp"``
    Equal-cost multi-path, what Ethernet switches do (the heterogeneous-platform talk's
    交换机哈希冲突 slides). Each switch hashes the packet's five-tuple (source IP, destination
    IP, source port, destination port, protocol) and takes up-port ``hash mod (up-ports)``. For
    RoCEv2 the protocol is UDP and the destination port always 4791 (``ROCE_V2_UDP_DPORT`` in
    Linux's ``include/rdma/ib_verbs.h``); the only entropy is the UDP *source port*, which the
    driver derives from the two queue-pair numbers (Linux's ``rdma_calc_flow_label`` and
    ``rdma_flow_label_to_udp_sport``, reproduced in :func:`udp_source_port`). A connection keeps
    its path for its whole life, so two heavy connections that hash onto one uplink share it
    while another uplink idles: a *hash collision*. The hash here is BLAKE2b of the five-tuple,
    keyed by the switch's name: a stand-in for the vendor's seeded hash that is the same on every
    machine, so every figure is reproducible. (Were every switch to use one linear CRC, the
    choices of the ToR and of the leaf would be correlated, and some paths never taken: the
    *hash polarization* switch vendors avoid with per-switch seeds and functions.)
``"source-port"``
    The talk's fix (哈希选路四元组中源端口可调, 在建连前静态分配物理链路): knowing every
    connection in advance, give each one the least-loaded path (counted in connections per link,
    in order), then pick the UDP source port whose hash lands on exactly that path (rdma-core's
    ``mlx5dv_modify_qp_udp_sport`` sets a queue pair's source port for this purpose). Meta's
    training fabric pinned paths in the same spirit (Gangidi et al., "RDMA over Ethernet for
    Distributed Training at Meta Scale", SIGCOMM 2024).
``"adaptive"``
    InfiniBand adaptive routing (the talk: 在 IB 协议中, 也可以使用 Adaptive Routing): a switch
    sends traffic to its least-loaded up-port instead of a hashed one. NVIDIA's switches decide
    per packet; with long flows of equal size that settles where every up-port carries the same
    number of flows, which is modelled per flow: each switch on the way up sends a new
    connection to the up-port that carries the fewest connections so far (ties: the lowest
    port). A switch sees only its own ports, so two flows can still meet on a link further down.

Routing works on *connections* (a queue pair between two NICs); the collective's messages reuse
their connection's route. Unknown policies raise :class:`~lecturekit.errors.ConfigError`.
"""

from __future__ import annotations

import hashlib
import itertools
import random
import struct
from dataclasses import dataclass

from .. import validate
from ..errors import ConfigError
from ..language import N_, _
from .fabric import Fabric

__all__ = [
    "ROCE_V2_UDP_DPORT",
    "ROUTING",
    "Connection",
    "Route",
    "ecmp_choice",
    "flow_label",
    "nic_ip",
    "route",
    "udp_source_port",
]

#: policy -> what it does
ROUTING = {
    "ecmp": N_("each switch hashes the five-tuple: a connection keeps one path, collisions happen"),
    "source-port": N_("paths planned before connecting, realised by choosing each UDP source port"),
    "adaptive": N_("every packet to the least-loaded port: a message spreads over all paths"),
}

ROCE_V2_UDP_DPORT = 4791  #: RoCEv2's UDP destination port (IANA; Linux ib_verbs.h)
_UDP = 17
_SPORT_MIN = 0xC000  #: Linux IB_ROCE_UDP_ENCAP_VALID_PORT_MIN


def flow_label(lqpn: int, rqpn: int) -> int:
    """Linux's ``rdma_calc_flow_label``: a 20-bit flow label from the local and remote QP
    numbers (``v = lqpn·rqpn; v ^= v >> 20; v ^= v >> 40``, low 20 bits)."""
    v = (lqpn * rqpn) & (2**64 - 1)
    v ^= v >> 20
    v ^= v >> 40
    return v & 0xFFFFF


def udp_source_port(lqpn: int, rqpn: int) -> int:
    """Linux's ``rdma_get_udp_sport`` without a flow label: the flow label folded into 14 bits
    and placed in 0xC000..0xFFFF (``rdma_flow_label_to_udp_sport``)."""
    fl = flow_label(lqpn, rqpn)
    low, high = fl & 0x3FFF, fl & 0xFC000
    return ((low ^ (high >> 14)) & 0x3FFF) | _SPORT_MIN


def nic_ip(node: int, nic: int) -> bytes:
    """The IPv4 address of a NIC, 10.rail.node/256.node%256 (4 bytes)."""
    return bytes((10, nic & 255, (node >> 8) & 255, node & 255))


def ecmp_choice(
    switch: str, src: tuple[int, int], dst: tuple[int, int], sport: int, ways: int
) -> int:
    """The up-port (0..ways-1) ``switch`` gives the five-tuple of a RoCEv2 packet from NIC
    ``src`` to NIC ``dst`` with UDP source port ``sport``: a 32-bit BLAKE2b hash keyed by the
    switch's name."""
    five = nic_ip(*src) + nic_ip(*dst) + struct.pack(">HHB", sport, ROCE_V2_UDP_DPORT, _UDP)
    digest = hashlib.blake2b(five, digest_size=4, key=switch.encode()[:64]).digest()
    return int.from_bytes(digest, "big") % ways


@dataclass(frozen=True)
class Connection:
    """A queue pair from NIC ``src`` = (node, nic) to NIC ``dst``; ``key`` tells apart several
    connections between the same NICs (NCCL opens one per channel)."""

    src: tuple[int, int]
    dst: tuple[int, int]
    key: int = 0


@dataclass(frozen=True)
class Route:
    """Where a connection's bytes go: ``links`` from NIC to NIC, the up-port ``choice`` at each
    switch that had one, and the UDP source port (None under adaptive routing, where the port
    does not decide)."""

    connection: Connection
    links: tuple[str, ...]
    choice: tuple[int, ...]
    sport: int | None


def _ecmp(fabric: Fabric, c: Connection, sport: int) -> tuple[int, ...]:
    ways = fabric.path_choices(c.src, c.dst)
    if not ways:
        return ()
    half = fabric.radix // 2
    ts = fabric.tor_of(*c.src)
    first = ecmp_choice(fabric.tor_name(ts), c.src, c.dst, sport, ways[0])
    if len(ways) == 1:
        return (first,)
    leaf = fabric.leaf_name(ts // half, first)
    return (first, ecmp_choice(leaf, c.src, c.dst, sport, ways[1]))


def _adaptive(fabric: Fabric, c: Connection, load: dict[str, int]) -> tuple[int, ...]:
    """Hop by hop: the ToR, then (across pods) the leaf, each takes its least-loaded up-port."""
    ways = fabric.path_choices(c.src, c.dst)
    half = fabric.radix // 2
    tor = fabric.tor_name(fabric.tor_of(*c.src))
    pod = fabric.tor_of(*c.src) // half
    choice = []
    if ways:
        i = min(range(ways[0]), key=lambda i: (load.get(f"{tor}>{fabric.leaf_name(pod, i)}", 0), i))
        choice.append(i)
        if len(ways) == 2:
            leaf = fabric.leaf_name(pod, i)
            j = min(
                range(ways[1]), key=lambda j: (load.get(f"{leaf}>{fabric.spine_name(i, j)}", 0), j)
            )
            choice.append(j)
    return tuple(choice)


def route(
    fabric: Fabric, connections, policy: str = "ecmp", seed: int = 0
) -> dict[Connection, Route]:
    """A :class:`Route` for every connection, by ``policy`` (:data:`ROUTING`), in order.

    ``seed`` draws the queue-pair numbers (as a new job would get new ones), hence the source
    ports and, under ECMP, the paths: a different seed is a different run of the same job (the
    talk's "32 节点 30 次 AllReduce 测试")."""
    if policy not in ROUTING:
        raise ConfigError(
            _("routing: unknown policy {policy!r}; choose one of {join}").format(
                policy=policy, join=", ".join(ROUTING)
            )
        )
    seed = validate.integer(seed, "seed", 0, 2**32 - 1)
    rng = random.Random(seed)
    out: dict[Connection, Route] = {}
    load: dict[str, int] = {}
    for c in connections:
        if not isinstance(c, Connection):
            raise ConfigError(
                _("routing: expected Connection objects, got {name}").format(name=type(c).__name__)
            )
        if c in out:
            continue
        sport: int | None = udp_source_port(rng.randrange(1, 2**24), rng.randrange(1, 2**24))
        ways = fabric.path_choices(c.src, c.dst)
        if policy == "adaptive":
            choice, sport = _adaptive(fabric, c, load), None
        elif policy == "source-port" and ways:
            choice = _least_loaded(fabric, c, ways, load)
            sport = _port_for(fabric, c, choice)
        else:
            choice = _ecmp(fabric, c, sport)
        links = fabric.network_path(c.src, c.dst, choice)
        for link in links:
            load[link] = load.get(link, 0) + 1
        out[c] = Route(c, links, choice, sport)
    return out


def _least_loaded(fabric: Fabric, c: Connection, ways, load: dict[str, int]) -> tuple[int, ...]:
    """The path whose busiest link carries the fewest connections so far (then the fewest in
    all, then the lowest ports): only the links between switches differ from path to path."""
    half = fabric.radix // 2
    ts, td = fabric.tor_of(*c.src), fabric.tor_of(*c.dst)
    tor_s, tor_d = fabric.tor_name(ts), fabric.tor_name(td)

    def cost(choice):
        i = choice[0]
        leaf_s = fabric.leaf_name(ts // half, i)
        names = [f"{tor_s}>{leaf_s}"]
        if len(choice) == 2:
            spine, leaf_d = fabric.spine_name(i, choice[1]), fabric.leaf_name(td // half, i)
            names += [f"{leaf_s}>{spine}", f"{spine}>{leaf_d}", f"{leaf_d}>{tor_d}"]
        else:
            names.append(f"{leaf_s}>{tor_d}")
        used = [load.get(name, 0) for name in names]
        return (max(used), sum(used), choice)

    return min(itertools.product(*(range(w) for w in ways)), key=cost)


def _port_for(fabric: Fabric, c: Connection, choice: tuple[int, ...]) -> int:
    for sport in range(_SPORT_MIN, 0x10000):
        if _ecmp(fabric, c, sport) == choice:
            return sport
    raise ConfigError(  # 16,384 ports and at most a few hundred paths: not expected to happen
        _("source-port: no UDP source port makes the hash choose path {choice} for {c}").format(
            choice=choice, c=c
        )
    )
