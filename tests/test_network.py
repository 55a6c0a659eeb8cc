"""The training network as resources of the core: fabric, routing, messages on links (ch. 15)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lecturekit.core import verify
from lecturekit.errors import ConfigError
from lecturekit.llm import nccl, routing
from lecturekit.llm.fabric import SPECS, Fabric, clos_size, pcie_bandwidth
from lecturekit.llm.network import Message, link_loads, schedule_messages
from lecturekit.llm.routing import ecmp_choice, route, udp_source_port

# ---------------------------------------------------------------------------------------------
# the fabric


def test_the_talks_three_figures_follow_from_the_radix():
    """8导轨优化的三层 CLOS with 40-port HDR switches: 20 machines a unit, 400 same-rail GPUs
    below the leaves, 16,000 GPUs at most."""
    size = clos_size(40)
    assert (size.nodes_per_unit, size.gpus_per_pod, size.max_gpus) == (20, 400, 16_000)
    assert (size.hops_same_tor, size.hops_same_pod, size.hops_across_pods) == (1, 3, 5)
    ndr = clos_size(64)  # Quantum-2: DGX H100 SuperPOD's scalable units of 32 systems
    assert (ndr.nodes_per_unit, ndr.gpus_per_pod, ndr.max_gpus) == (32, 1024, 65_536)


def test_bandwidths_of_the_specs():
    a100 = SPECS["a100-hdr"]
    assert a100.nvlink == 300e9 and a100.nic == 25e9 and a100.radix == 40
    assert pcie_bandwidth(16, 16) == pytest.approx(31.5e9, rel=1e-3)  # PCIe 4.0 x16
    assert SPECS["h100-ndr"].nvlink == 450e9 and SPECS["h100-ndr"].nic == 50e9


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"nodes": 8, "gpus_per_node": 4, "radix": 4}, ["8 pods", "radix-4", "at most 16"]),
        ({"nodes": 2, "gpus_per_node": 3, "radix": 4}, ["gpus_per_node", "pairs"]),
        ({"nodes": 2, "gpus_per_node": 2, "radix": 5}, ["radix", "even"]),
        ({"nodes": 0, "gpus_per_node": 2, "radix": 4}, ["nodes"]),
        ({"nodes": 2, "gpus_per_node": 2, "radix": 4, "spec": "b200"}, ["spec", "a100-hdr"]),
    ],
)
def test_sizes_that_do_not_fit_are_explained(kwargs, words):
    with pytest.raises(ConfigError) as err:
        Fabric.build(**kwargs)
    for word in words:
        assert word in str(err.value)


def _check_path(fabric, links, start, end):
    assert links[0].split(">")[0] == start and links[-1].split(">")[1] == end
    for a, b in itertools.pairwise(links):
        assert a.split(">")[1] == b.split(">")[0], (a, b)
    assert all(link in fabric.links for link in links)


@settings(max_examples=25, deadline=None)
@given(
    nodes=st.integers(1, 12),
    gpn=st.sampled_from([1, 2, 4, 8]),
    radix=st.sampled_from([4, 6, 8, 16]),
    rail=st.booleans(),
)
def test_fabric_structure_on_random_sizes(nodes, gpn, radix, rail):
    try:
        f = Fabric.build(nodes, gpn, radix=radix, rail_optimized=rail)
    except ConfigError as err:
        assert "pods" in str(err)
        return
    half = radix // 2
    per_tor: dict[int, list] = {}
    for (node, nic), (tor, port) in f.attach.items():
        per_tor.setdefault(tor, []).append((node, nic, port))
    for tor, members in per_tor.items():
        assert len(members) <= half and len({p for *_, p in members}) == len(members)
        if rail:  # a rail-optimized ToR serves one rail
            assert len({nic for _, nic, _ in members}) == 1
            assert f.rail_of_tor(tor) == members[0][1]
    for link in f.links.values():  # every cable both ways, same bandwidth
        back = f.links[f"{link.dst}>{link.src}"]
        assert back.bandwidth == link.bandwidth and back.kind == link.kind
    nics = list(f.attach)
    for src, dst in itertools.islice(itertools.product(nics, nics), 200):
        if src == dst:
            continue
        ways = f.path_choices(src, dst)
        paths = {
            f.network_path(src, dst, ch) for ch in itertools.product(*(range(w) for w in ways))
        }
        assert len(paths) == max(1, len(list(itertools.product(*(range(w) for w in ways)))))
        for links in paths:
            _check_path(f, links, f.nic_name(*src), f.nic_name(*dst))
            assert len(links) == f.switch_hops(src, dst) + 1


def test_gpu_to_nic_paths_stay_below_the_cpu_when_they_share_a_pcie_switch():
    f = Fabric.build(1, 8, radix=16)
    assert f.pcie_path(f.gpu(0, 3), 2) == ("n0.g3>n0.pci1", "n0.pci1>n0.nic2")
    assert "n0.pci0>n0.cpu" in f.pcie_path(f.gpu(0, 0), 7)  # far NIC: through the host
    assert f.pcie_path(f.gpu(0, 3), 3, outbound=False) == ("n0.nic3>n0.pci1", "n0.pci1>n0.g3")
    assert f.nvlink_path(0, 5) == ("n0.g0>n0.nvs", "n0.nvs>n0.g5")
    with pytest.raises(ConfigError, match="different nodes"):
        Fabric.build(2, 2, radix=4).nvlink_path(0, 2)


# ---------------------------------------------------------------------------------------------
# routing


def test_roce_source_port_follows_linux():
    # rdma_calc_flow_label(1, 1) = 1; folded into 14 bits and placed in 0xC000..0xFFFF
    assert udp_source_port(1, 1) == 0xC001
    lq, rq = 0x123456, 0x654321
    v = lq * rq
    v ^= v >> 20
    v ^= v >> 40
    fl = v & 0xFFFFF
    assert udp_source_port(lq, rq) == ((fl & 0x3FFF) ^ ((fl & 0xFC000) >> 14)) | 0xC000
    for a, b in [(7, 9), (2**24 - 1, 2**24 - 3), (12345, 1)]:
        assert 0xC000 <= udp_source_port(a, b) <= 0xFFFF


def test_ecmp_is_deterministic_and_the_seed_is_a_new_run():
    f = Fabric.build(4, 4, radix=4)
    conns = nccl.ring_connections(f, cross_nic=True)
    a, b = route(f, conns, "ecmp", seed=3), route(f, conns, "ecmp", seed=3)
    assert {c: r.links for c, r in a.items()} == {c: r.links for c, r in b.items()}
    others = [route(f, conns, "ecmp", seed=s) for s in range(1, 6)]
    assert any(
        {c: r.links for c, r in o.items()} != {c: r.links for c, r in a.items()} for o in others
    )
    assert ecmp_choice("tor0", (0, 0), (1, 1), 0xC123, 20) == ecmp_choice(
        "tor0", (0, 0), (1, 1), 0xC123, 20
    )


def test_ecmp_collision_reproduced_and_removed():
    """A known hash and seed put two connections of the cross-NIC ring on one uplink; the
    rail-aligned ring (NCCL_CROSS_NIC=0) has no connection between switches to collide; the
    talk's source ports and adaptive routing spread the cross-NIC ring over separate links."""
    f = Fabric.build(4, 4, radix=4)
    cross = nccl.ring_connections(f, cross_nic=True)
    ecmp = nccl.connection_load(f, route(f, cross, "ecmp", seed=0))
    assert max(ecmp.values()) == 2
    shared = [link for link, n in ecmp.items() if n == 2]
    assert shared and all(f.links[link].kind in ("tor-leaf", "leaf-spine") for link in shared)
    for policy in ("source-port", "adaptive"):
        assert max(nccl.connection_load(f, route(f, cross, policy)).values()) == 1
    rail = nccl.ring_connections(f, cross_nic=False)
    for seed in range(10):
        assert max(nccl.connection_load(f, route(f, rail, "ecmp", seed)).values(), default=0) <= 1


def test_source_ports_realise_the_planned_paths():
    f = Fabric.build(8, 4, radix=8)
    routes = route(f, nccl.ring_connections(f, cross_nic=True), "source-port")
    for c, r in routes.items():
        if r.choice:
            assert routing._ecmp(f, c, r.sport) == r.choice  # the hash lands where planned
            assert 0xC000 <= r.sport <= 0xFFFF


@settings(max_examples=15, deadline=None)
@given(nodes=st.integers(2, 10), gpn=st.sampled_from([2, 4]), seed=st.integers(0, 1000))
def test_rail_aligned_rings_never_collide(nodes, gpn, seed):
    try:
        f = Fabric.build(nodes, gpn, radix=8)
    except ConfigError:
        return
    load = nccl.connection_load(f, route(f, nccl.ring_connections(f), "ecmp", seed))
    assert max(load.values(), default=0) <= 1


def test_adaptive_sees_only_its_own_ports():
    """Hop-by-hop least-loaded choice: the cross-NIC ring on 6 nodes of 2 GPUs still meets on a
    link further down; the planned source ports avoid it."""
    f = Fabric.build(6, 2, radix=4)
    conns = nccl.ring_connections(f, cross_nic=True)
    assert max(nccl.connection_load(f, route(f, conns, "adaptive")).values()) == 2
    assert max(nccl.connection_load(f, route(f, conns, "source-port")).values()) == 1


def test_bad_routing_input():
    f = Fabric.build(2, 2, radix=4)
    with pytest.raises(ConfigError, match="unknown policy 'random'"):
        route(f, [], "random")
    with pytest.raises(ConfigError, match="Connection"):
        route(f, [("a", "b")], "ecmp")
    with pytest.raises(ConfigError, match="seed"):
        route(f, [], "ecmp", seed=-1)


# ---------------------------------------------------------------------------------------------
# messages on links: the core schedules them


def test_two_messages_on_one_link_take_turns():
    f = Fabric.build(2, 2, radix=4)
    path = f.pcie_path(0, 0) + f.network_path((0, 0), (1, 0)) + f.pcie_path(2, 0, outbound=False)
    one = Message("a", path, 25e6, "s0")  # 1 ms on a 25 GB/s NIC
    run = schedule_messages(f, [one], quantum=1e-6)
    assert run.cycles == 1000 and run.seconds == pytest.approx(1e-3)
    both = schedule_messages(f, [one, Message("b", path, 25e6, "s1")], quantum=1e-6)
    assert both.cycles == 2000  # contention: the second waits for the NIC
    assert both.schedule.reasons[1].startswith("1000 stall(s): unit")
    other = f.pcie_path(1, 1) + f.network_path((0, 1), (1, 1)) + f.pcie_path(3, 1, outbound=False)
    apart = schedule_messages(f, [one, Message("c", other, 25e6, "s1")], quantum=1e-6)
    assert apart.cycles == 1000  # another rail: no shared link
    verify(both.graph, both.schedule)
    assert both.link_bytes()[path[2]] == 50e6
    assert link_loads([one, one], f)[path[2]] == pytest.approx(2e-3)


def test_a_forwarded_message_waits_for_the_one_it_forwards():
    f = Fabric.build(1, 2, radix=4)
    a = Message("a", f.nvlink_path(0, 1), 300e6, "g0", alpha=5e-6)  # 1 ms on NVLink
    b = Message("b", f.nvlink_path(1, 0), 300e6, "g1", deps=(0,))
    run = schedule_messages(f, [a, b], quantum=1e-6)
    assert run.schedule.start[1] - run.schedule.start[0] == 1005
    assert run.cycles == 2005


def test_bad_messages():
    f = Fabric.build(1, 2, radix=4)
    with pytest.raises(ConfigError, match="no messages"):
        schedule_messages(f, [])
    with pytest.raises(ConfigError, match="lacks"):
        schedule_messages(f, [Message("x", ("n0.g0>tor9",), 1e6, "s")])
    with pytest.raises(ConfigError, match="not an earlier message"):
        schedule_messages(f, [Message("x", f.nvlink_path(0, 1), 1e6, "s", deps=(0,))])
    with pytest.raises(ConfigError, match="twice"):
        schedule_messages(f, [Message("x", f.nvlink_path(0, 1) * 2, 1e6, "s")])
    with pytest.raises(ConfigError, match="quantum"):
        schedule_messages(f, [Message("x", f.nvlink_path(0, 1), 1e6, "s")], quantum=0)
