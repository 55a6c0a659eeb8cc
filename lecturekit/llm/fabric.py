"""The training network as resources of the scheduling core: the node and the fabric between nodes.

Chapter 15 schedules collectives on links the way chapter 04 schedules instructions on functional
units. This module builds the links: every one is *directed* (a full-duplex cable is two links,
one per direction), has a bandwidth in bytes per second per direction, and is named ``"a>b"``;
that name is the unit the core reserves (:mod:`lecturekit.llm.network`).

**The node** (the heterogeneous-platform talk's 单机硬件选型, an NVIDIA DGX A100):
``gpus_per_node`` GPUs, each with its NVLink bundle to the node's NVSwitch fabric (a DGX A100
has six NVSwitch chips; together they are one non-blocking crossbar, drawn here as one switch
``n0.nvs``), a PCIe switch for every pair of GPUs that also holds the pair's two NICs (so a GPU
reaches its own NIC, and its neighbour's, without crossing the CPU), one NIC per GPU, and the
host (CPUs and their memory, ``n0.cpu``) above the PCIe switches.

**The fabric**: a three-tier folded Clos network, the fat tree of Al-Fares, Loukissas & Vahdat
("A scalable, commodity data center network architecture", SIGCOMM 2008), built from switches
with ``radix`` = k ports. A ToR (edge) switch uses k/2 ports down and k/2 up; a *pod* is k/2 ToRs
and k/2 leaf (aggregation) switches, every ToR wired to every leaf of its pod; leaf ``i`` of every
pod is wired to the k/2 spines of *plane* ``i`` (k²/4 spines in all, each with one port per pod).
Such a tree connects up to k³/4 endpoints, and every layer has as much bandwidth up as down
(无收敛比: no oversubscription).

- **Rail-optimized** (the talk's 8导轨优化的三层 CLOS; NCCL's ``NCCL_CROSS_NIC`` documentation:
  "each NIC on a node connects to a different network switch (network rail)"): NIC ``r`` of every
  node is plugged into a ToR of rail ``r``. A *unit* of k/2 nodes has one ToR per rail (the
  talk's 20台机器为一组, 8台TOR: k = 40), and the ToRs of one rail fill pods of their own, so
  the same-index GPUs (同号卡) of up to (k/2)² = 400 nodes meet below the leaves, and only traffic
  between different rails (异号卡) climbs to the spines.
- **Node-aligned** (``rail_optimized=False``): the NICs are plugged in node order, a node's NICs
  side by side on one ToR, as in a general-purpose data centre.

:func:`clos_size` gives the talk's figures from the radix alone (k = 40: 20 nodes a unit, 400
same-rail GPUs a pod, 16,000 GPUs at most). Bad sizes raise
:class:`~lecturekit.errors.ConfigError` naming what does not fit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .. import validate
from ..errors import ConfigError
from ..language import N_, _

__all__ = [
    "SPECS",
    "ClosSize",
    "Fabric",
    "FabricLink",
    "HardwareSpec",
    "clos_size",
    "pcie_bandwidth",
]


def pcie_bandwidth(gigatransfers: float, lanes: int) -> float:
    """Bytes per second per direction of a PCIe link: ``GT/s × lanes × 128/130 / 8`` (PCIe 3.0 to
    5.0 encode 128 bits in 130). Gen4 x16: 16 GT/s × 16 lanes → 31.5 GB/s."""
    return gigatransfers * 1e9 * lanes * 128 / 130 / 8


@dataclass(frozen=True)
class HardwareSpec:
    """Bandwidths per direction (bytes/s) of one node and its network, and the switches' radix."""

    name: str
    nvlink: float  #: one GPU's NVLink bundle to the NVSwitch fabric
    pcie: float  #: one PCIe link (GPU or NIC to its PCIe switch, PCIe switch to the host)
    nic: float  #: one NIC port, and every switch-to-switch cable
    radix: int  #: ports per network switch
    source: str = ""


#: two generations: the talk's DGX A100 on HDR InfiniBand, and DGX H100 on NDR
SPECS: dict[str, HardwareSpec] = {
    "a100-hdr": HardwareSpec(
        "DGX A100, HDR InfiniBand",
        nvlink=12 * 25e9,  # 12 NVLink 3 links x 25 GB/s per direction
        pcie=pcie_bandwidth(16, 16),  # PCIe 4.0 x16
        nic=200e9 / 8,  # ConnectX-6 HDR, 200 Gb/s
        radix=40,  # Quantum HDR switch: 40 ports of 200 Gb/s
        source=N_(
            "NVIDIA DGX A100 (600 GB/s NVLink per GPU, both directions; 8 single-port "
            "ConnectX-6 200 Gb/s HDR InfiniBand NICs); NVIDIA Quantum HDR switches (40 ports)"
        ),
    ),
    "h100-ndr": HardwareSpec(
        "DGX H100, NDR InfiniBand",
        nvlink=18 * 25e9,  # 18 NVLink 4 links x 25 GB/s per direction
        pcie=pcie_bandwidth(32, 16),  # PCIe 5.0 x16
        nic=400e9 / 8,  # ConnectX-7 NDR, 400 Gb/s
        radix=64,  # Quantum-2 NDR switch: 64 ports of 400 Gb/s
        source=N_(
            "NVIDIA DGX H100 (900 GB/s NVLink per GPU, both directions; 8 ConnectX-7 400 Gb/s "
            "NDR NICs); NVIDIA Quantum-2 NDR switches (64 ports)"
        ),
    ),
}

#: what kind of link, from the node outwards
LINK_KINDS = ("nvlink", "pcie", "nic", "tor-leaf", "leaf-spine")


@dataclass(frozen=True)
class FabricLink:
    """One direction of one cable: ``src`` sends to ``dst`` at ``bandwidth`` bytes/s."""

    name: str
    src: str
    dst: str
    kind: str
    bandwidth: float

    @property
    def network(self) -> bool:
        """Whether the link is outside the nodes (NIC to ToR and switch to switch)."""
        return self.kind in ("nic", "tor-leaf", "leaf-spine")


@dataclass(frozen=True)
class ClosSize:
    """What a three-tier fat tree of radix ``k`` holds, and how far apart its endpoints are."""

    radix: int
    nodes_per_unit: int  #: k/2: the nodes below one ToR of each rail (one unit)
    gpus_per_pod: int  #: (k/2)²: the endpoints below one pod's leaves (one rail's, rail-optimized)
    max_gpus: int  #: k³/4 endpoints
    pods: int  #: k
    spines: int  #: k²/4
    hops_same_tor: int = 1  #: switches between two NICs on one ToR
    hops_same_pod: int = 3  #: ToR, leaf, ToR
    hops_across_pods: int = 5  #: ToR, leaf, spine, leaf, ToR


def clos_size(radix: int) -> ClosSize:
    """The talk's three figures from the radix: ``k/2`` nodes a unit, ``(k/2)²`` same-rail GPUs
    below the leaves, ``k³/4`` GPUs in all (k = 40: 20, 400, 16,000)."""
    k = _check_radix(radix)
    return ClosSize(
        radix=k,
        nodes_per_unit=k // 2,
        gpus_per_pod=(k // 2) ** 2,
        max_gpus=k**3 // 4,
        pods=k,
        spines=(k // 2) ** 2,
    )


def _check_radix(radix) -> int:
    k = validate.integer(radix, "radix", 4, 256)
    if k % 2:
        raise ConfigError(
            _("radix: a fat tree needs an even number of switch ports, got {k}").format(k=k)
        )
    return k


def _check_gpus_per_node(gpus) -> int:
    r = validate.integer(gpus, "gpus_per_node", 1, 16)
    if r > 1 and r % 2:
        raise ConfigError(
            _(
                "gpus_per_node: GPUs share PCIe switches in pairs (as on a DGX), so a "
                "node holds 1 or an even number of GPUs, got {r}"
            ).format(r=r)
        )
    return r


@dataclass
class Fabric:
    """``nodes`` nodes of ``gpus_per_node`` GPUs on a fat tree of ``radix``-port switches.

    ``links`` maps each link's name to its :class:`FabricLink`. GPUs are numbered globally,
    ``g = node × gpus_per_node + local``; :meth:`gpu_name` gives ``"n2.g5"``. Build one with
    :meth:`build`."""

    nodes: int
    gpus_per_node: int
    radix: int
    rail_optimized: bool
    spec: HardwareSpec
    links: dict[str, FabricLink] = field(default_factory=dict)
    #: (node, nic) -> (ToR index, its down port)
    attach: dict[tuple[int, int], tuple[int, int]] = field(default_factory=dict)
    tors: int = 0
    pods: int = 0

    # -- construction ------------------------------------------------------------------------
    @classmethod
    def build(
        cls,
        nodes: int,
        gpus_per_node: int = 8,
        radix: int | None = None,
        rail_optimized: bool = True,
        spec: str | HardwareSpec = "a100-hdr",
    ) -> Fabric:
        """The node and the fat tree, every link named and given its bandwidth.

        ``radix`` defaults to the spec's switch (40 for HDR). Raises ConfigError when the GPUs do
        not fit the tree (too many pods for the radix) or a size is not whole."""
        if isinstance(spec, str):
            if spec not in SPECS:
                raise ConfigError(
                    _("spec: unknown hardware {spec!r}; choose one of {join}").format(
                        spec=spec, join=", ".join(SPECS)
                    )
                )
            spec = SPECS[spec]
        if not isinstance(spec, HardwareSpec):
            raise ConfigError(
                _("spec: expected a name or a HardwareSpec, got {name}").format(
                    name=type(spec).__name__
                )
            )
        if not isinstance(rail_optimized, bool):
            raise ConfigError(
                _("rail_optimized: expected True or False, got {rail_optimized!r}").format(
                    rail_optimized=rail_optimized
                )
            )
        n = validate.integer(nodes, "nodes", 1, 4096)
        r = _check_gpus_per_node(gpus_per_node)
        k = _check_radix(spec.radix if radix is None else radix)
        fab = cls(n, r, k, rail_optimized, spec)
        fab._attach_nics()
        fab._build_links()
        return fab

    def _attach_nics(self) -> None:
        n, r, half = self.nodes, self.gpus_per_node, self.radix // 2
        if self.rail_optimized:
            units = math.ceil(n / half)
            pods_per_rail = math.ceil(units / half)
            pods = r * pods_per_rail
            for node in range(n):
                unit = node // half
                for rail in range(r):
                    # a rail's ToRs fill pods of their own
                    tor = (rail * pods_per_rail + unit // half) * half + unit % half
                    self.attach[(node, rail)] = (tor, node % half)
        else:
            pods = math.ceil(n * r / half / half)
            for node in range(n):
                for nic in range(r):
                    g = node * r + nic
                    self.attach[(node, nic)] = (g // half, g % half)
        if pods > self.radix:
            kind = (
                _("rail-optimized: one set of pods per rail")
                if self.rail_optimized
                else _("node-aligned")
            )
            raise ConfigError(
                _(
                    "nodes: {n} nodes of {r} GPUs need {pods} pods of a radix-{radix} fat "
                    "tree ({kind}), but its spines reach only {radix}; use fewer nodes or "
                    "a larger radix (at most {most:,} GPUs)"
                ).format(n=n, r=r, pods=pods, radix=self.radix, kind=kind, most=self.radix**3 // 4)
            )
        self.pods = pods
        self.tors = max(t for t, _slot in self.attach.values()) + 1

    def _add(self, a: str, b: str, kind: str, bandwidth: float) -> None:
        for s, d in ((a, b), (b, a)):
            name = f"{s}>{d}"
            self.links[name] = FabricLink(name, s, d, kind, bandwidth)

    def _build_links(self) -> None:
        sp, half = self.spec, self.radix // 2
        for node in range(self.nodes):
            for i in range(self.gpus_per_node):
                g, pci, nic = (
                    self.gpu_name(self.gpu(node, i)),
                    self.pcie_switch(node, i),
                    self.nic_name(node, i),
                )
                self._add(g, f"n{node}.nvs", "nvlink", sp.nvlink)
                self._add(g, pci, "pcie", sp.pcie)
                self._add(nic, pci, "pcie", sp.pcie)
                tor, _port = self.attach[(node, i)]
                self._add(nic, self.tor_name(tor), "nic", sp.nic)
            for s in range((self.gpus_per_node + 1) // 2):
                self._add(f"n{node}.pci{s}", f"n{node}.cpu", "pcie", sp.pcie)
        used_pods = sorted({t // half for t in range(self.tors) if self._tor_used(t)})
        for t in range(self.tors):
            if self._tor_used(t):
                for i in range(half):
                    self._add(self.tor_name(t), self.leaf_name(t // half, i), "tor-leaf", sp.nic)
        if len(used_pods) > 1:
            for pod in used_pods:
                for i in range(half):
                    for j in range(half):
                        self._add(
                            self.leaf_name(pod, i), self.spine_name(i, j), "leaf-spine", sp.nic
                        )

    def _tor_used(self, t: int) -> bool:
        return any(tor == t for tor, _ in self.attach.values())

    # -- names -------------------------------------------------------------------------------
    @property
    def gpus(self) -> int:
        return self.nodes * self.gpus_per_node

    def gpu(self, node: int, local: int) -> int:
        """The global number of GPU ``local`` of ``node``."""
        return node * self.gpus_per_node + local

    def node_of(self, g: int) -> int:
        return g // self.gpus_per_node

    def local_of(self, g: int) -> int:
        return g % self.gpus_per_node

    def gpu_name(self, g: int) -> str:
        return f"n{self.node_of(g)}.g{self.local_of(g)}"

    def nic_name(self, node: int, nic: int) -> str:
        return f"n{node}.nic{nic}"

    @staticmethod
    def pcie_switch(node: int, local: int) -> str:
        return f"n{node}.pci{local // 2}"

    @staticmethod
    def tor_name(t: int) -> str:
        return f"tor{t}"

    @staticmethod
    def leaf_name(pod: int, i: int) -> str:
        return f"leaf{pod}.{i}"

    @staticmethod
    def spine_name(plane: int, j: int) -> str:
        return f"spine{plane}.{j}"

    def tor_of(self, node: int, nic: int) -> int:
        return self.attach[(node, nic)][0]

    def pod_of(self, node: int, nic: int) -> int:
        return self.tor_of(node, nic) // (self.radix // 2)

    def rail_of_tor(self, t: int) -> int | None:
        """The rail a ToR serves (rail-optimized), or None (node-aligned: it mixes NICs)."""
        nics = {nic for (_n, nic), (tor, _p) in self.attach.items() if tor == t}
        return nics.pop() if self.rail_optimized and len(nics) == 1 else None

    def check_gpu(self, g, what: str = "gpu") -> int:
        return validate.integer(g, what, 0, self.gpus - 1)

    # -- paths -------------------------------------------------------------------------------
    def nvlink_path(self, a: int, b: int) -> tuple[str, ...]:
        """GPU ``a`` to GPU ``b`` of the same node through the NVSwitch."""
        if self.node_of(a) != self.node_of(b):
            raise ConfigError(
                _("nvlink: GPUs {gpu_name} and {gpu_name2} are on different nodes").format(
                    gpu_name=self.gpu_name(a), gpu_name2=self.gpu_name(b)
                )
            )
        nvs = f"n{self.node_of(a)}.nvs"
        return (f"{self.gpu_name(a)}>{nvs}", f"{nvs}>{self.gpu_name(b)}")

    def pcie_path(self, g: int, nic: int, outbound: bool = True) -> tuple[str, ...]:
        """GPU ``g`` to NIC ``nic`` of its node (``outbound=False``: NIC to GPU): through their
        PCIe switch when they share one (GPUDirect RDMA), else up through the host."""
        node, local = self.node_of(g), self.local_of(g)
        gpu, nic_n = self.gpu_name(g), self.nic_name(node, nic)
        sg, sn = self.pcie_switch(node, local), self.pcie_switch(node, nic)
        if sg == sn:
            hops = [gpu, sg, nic_n]
        else:
            hops = [gpu, sg, f"n{node}.cpu", sn, nic_n]
        if not outbound:
            hops.reverse()
        return tuple(f"{a}>{b}" for a, b in zip(hops, hops[1:], strict=False))

    def path_choices(self, src: tuple[int, int], dst: tuple[int, int]) -> tuple[int, ...]:
        """How many equal-cost ways a flow from NIC ``src`` = (node, nic) to NIC ``dst`` may take
        at each switch on the way up: ``()`` below one ToR, ``(k/2,)`` within a pod (which leaf),
        ``(k/2, k/2)`` across pods (which leaf, then which spine of that leaf's plane)."""
        ts, td = self.tor_of(*src), self.tor_of(*dst)
        half = self.radix // 2
        if ts == td:
            return ()
        if ts // half == td // half:
            return (half,)
        return (half, half)

    def network_path(
        self, src: tuple[int, int], dst: tuple[int, int], choice: tuple[int, ...] = ()
    ) -> tuple[str, ...]:
        """The links from NIC ``src`` to NIC ``dst`` (both ``(node, nic)``) for one ``choice`` of
        up-ports (:meth:`path_choices`): up to the lowest common switch, then down."""
        need = self.path_choices(src, dst)
        if len(choice) != len(need) or any(
            not 0 <= c < n for c, n in zip(choice, need, strict=False)
        ):
            raise ConfigError(
                _("path choice {choice} does not fit the {n_need} choice(s) {need}").format(
                    choice=choice, n_need=len(need), need=need
                )
            )
        half = self.radix // 2
        ts, td = self.tor_of(*src), self.tor_of(*dst)
        hops = [self.nic_name(*src), self.tor_name(ts)]
        if need:
            i = choice[0]
            hops.append(self.leaf_name(ts // half, i))
            if len(need) == 2:
                hops += [self.spine_name(i, choice[1]), self.leaf_name(td // half, i)]
            hops.append(self.tor_name(td))
        hops.append(self.nic_name(*dst))
        return tuple(f"{a}>{b}" for a, b in zip(hops, hops[1:], strict=False))

    def switch_hops(self, src: tuple[int, int], dst: tuple[int, int]) -> int:
        """Switches a flow from NIC ``src`` to NIC ``dst`` crosses: 1, 3 or 5."""
        return 2 * len(self.path_choices(src, dst)) + 1

    def describe(self) -> str:
        """One line: what the fabric is."""
        kind = _("rail-optimized") if self.rail_optimized else _("node-aligned")
        spines = len({link.dst for link in self.links.values() if link.dst.startswith("spine")})
        leaves = len({link.dst for link in self.links.values() if link.dst.startswith("leaf")})
        return _(
            "{nodes} nodes × {gpus_per_node} GPUs on a {kind} fat tree of radix "
            "{radix}: {tors} ToRs, {leaves} leaves, {spines} spines, {n_links} "
            "directed links ({name})"
        ).format(
            nodes=self.nodes,
            gpus_per_node=self.gpus_per_node,
            kind=kind,
            radix=self.radix,
            tors=len({t for t, _slot in self.attach.values()}),
            leaves=leaves,
            spines=spines,
            n_links=len(self.links),
            name=self.spec.name,
        )
