"""NCCL's algorithms on the fabric, scheduled by the core: costs against the α–β formulas,
collisions, SHARP's steps, PXN, and nccl-tests' bandwidths (chapter 15)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lecturekit.errors import ConfigError
from lecturekit.llm import busbw, comm, nccl
from lecturekit.llm.fabric import Fabric

NIC = 25e9  # HDR: every network link


# ---------------------------------------------------------------------------------------------
# nccl-tests' algorithm and bus bandwidth


def test_bus_factors_are_nccl_tests():
    assert busbw.bus_factor("all-reduce", 8) == 2 * 7 / 8
    for c in ("reduce-scatter", "all-gather", "all-to-all"):
        assert busbw.bus_factor(c, 8) == 7 / 8
    for c in ("broadcast", "reduce", "send-recv"):
        assert busbw.bus_factor(c, 8) == 1.0
    # S: count x typesize, times n where the count is per rank (nccl-tests' *GetBw)
    assert busbw.operation_bytes("all-reduce", 1000, 4, 8) == 4000
    assert busbw.operation_bytes("all-gather", 1000, 4, 8) == 32000
    assert busbw.operation_bytes("all-to-all", 1000, 2, 4) == 8000
    assert busbw.algbw(1e9, 0.5) == 2e9
    with pytest.raises(ConfigError, match="unknown collective"):
        busbw.bus_factor("gossip", 4)
    with pytest.raises(ConfigError, match="t"):
        busbw.algbw(1e9, 0)


def test_published_figures_convert():
    """The talk's 134 GB/s AllReduce algorithm bandwidth of an 8-GPU DGX A100 is a bus
    bandwidth of 234.5 GB/s (NCCL's maintainer: ~230 GB/s on A100); H100's NVLink SHARP
    algbw ~275 GB/s is a busbw of ~481 GB/s (the maintainer's "~480")."""
    assert busbw.busbw("all-reduce", 134e9, 8) == pytest.approx(234.5e9)
    assert busbw.busbw("all-reduce", 275e9, 8) == pytest.approx(481.25e9)


def test_nccl_tuning_ratio_is_the_inverse_of_the_bus_factor_for_rings():
    for n in (2, 3, 8, 64):
        assert busbw.nccl_alg_over_bus("ring", n) * busbw.bus_factor("all-reduce", n) == (
            pytest.approx(1.0)
        )
        assert busbw.nccl_alg_over_bus("tree", n) == 0.5
    with pytest.raises(ConfigError, match="unknown algorithm"):
        busbw.nccl_alg_over_bus("butterfly", 4)


# ---------------------------------------------------------------------------------------------
# the ring: the core against the α–β formula


@settings(max_examples=12, deadline=None)
@given(nodes=st.integers(2, 8), chunk_us=st.integers(1, 50), alpha_us=st.integers(0, 20))
def test_one_rail_ring_equals_the_alpha_beta_formula(nodes, chunk_us, alpha_us):
    """Equal links (all nodes below one ToR): the core's makespan is 2(p−1)(α + m/p·β)."""
    f = Fabric.build(nodes, 2, radix=16)
    m = nodes * chunk_us * 25e3  # a chunk takes chunk_us µs on a NIC
    run = nccl.rail_ring_all_reduce(f, m, 0, alpha_net=alpha_us * 1e-6, quantum=1e-6)
    formula = comm.collective_time("all-reduce", m, nodes, comm.Link(alpha_us * 1e-6, 1 / NIC))
    assert run.seconds == pytest.approx(formula, rel=1e-12)
    assert run.steps == 2 * (nodes - 1) and run.max_connections == 0


def test_one_rail_ring_across_pods_with_planned_paths():
    f = Fabric.build(8, 2, radix=4)  # 4 ToRs in 2 pods: the ring crosses leaves and spines
    m = 8e6
    run = nccl.rail_ring_all_reduce(f, m, 0, policy="source-port", quantum=1e-6)
    assert run.max_connections == 1
    formula = comm.collective_time("all-reduce", m, 8, comm.Link(nccl.ALPHA_NET, 1 / NIC))
    assert run.seconds == pytest.approx(formula, rel=1e-12)  # 756 µs


@settings(max_examples=6, deadline=None)
@given(nodes=st.integers(2, 4), gpn=st.sampled_from([2, 4]), x=st.integers(1, 8))
def test_rail_aligned_ring_runs_at_the_nics_bandwidth(nodes, gpn, x):
    """NCCL's ring, one channel per NIC, same NIC in and out: with α = 0 it takes
    2(p−1)/p · m/(R·B_nic), a bus bandwidth of R × 25 GB/s, whatever the routing."""
    f = Fabric.build(nodes, gpn, radix=8)
    p = nodes * gpn
    m = gpn * p * 25e3 * x  # a chunk: x µs on a NIC
    run = nccl.ring_all_reduce(f, m, alpha_net=0, alpha_nvlink=0)
    assert run.seconds == pytest.approx(2 * (p - 1) / p * m / (gpn * NIC), rel=1e-9)
    assert run.busbw == pytest.approx(gpn * NIC, rel=1e-9)
    assert len(run.run.messages) == gpn * 2 * (p - 1) * p
    assert run.max_connections <= 1


def test_cross_nic_collisions_cost_bandwidth_and_the_fixes_restore_it():
    f = Fabric.build(4, 4, radix=4)
    m = 64e6
    ecmp = nccl.ring_all_reduce(f, m, cross_nic=True, alpha_net=0, alpha_nvlink=0)
    assert ecmp.max_connections == 2
    assert ecmp.busbw < 100e9 / 2 + 1e6  # at most the busiest link's share: 100/2 GB/s
    for policy in ("source-port", "adaptive"):
        fixed = nccl.ring_all_reduce(
            f, m, cross_nic=True, policy=policy, alpha_net=0, alpha_nvlink=0
        )
        assert fixed.max_connections == 1 and fixed.busbw == pytest.approx(100e9)
    rail = nccl.ring_all_reduce(f, m, alpha_net=0, alpha_nvlink=0)
    assert rail.busbw == pytest.approx(100e9)
    spine = [k for k, v in rail.run.link_bytes().items() if f.links[k].kind == "leaf-spine"]
    assert spine == []  # rail-aligned: nothing climbs to the spines


def test_ring_orders():
    f = Fabric.build(2, 8, radix=16)
    assert [f.local_of(g) for g in nccl.ring_order(f, 0)[:8]] == [0, 2, 3, 4, 5, 6, 7, 1]
    assert [f.local_of(g) for g in nccl.ring_order(f, 3)[:8]] == [3, 4, 5, 6, 7, 0, 1, 2]
    assert [f.local_of(g) for g in nccl.ring_order(f, 3, cross_nic=True)[:8]] == [
        3,
        4,
        5,
        6,
        7,
        0,
        1,
        2,
    ]
    conns = nccl.ring_connections(f)
    assert all(c.src[1] == c.dst[1] == c.key for c in conns)  # same NIC in and out
    cross = nccl.ring_connections(f, cross_nic=True)
    assert all(c.src[1] != c.dst[1] for c in cross)


# ---------------------------------------------------------------------------------------------
# the double tree and SHARP


def test_double_tree_sends_at_most_2m_per_rank():
    f = Fabric.build(8, 1, radix=16)
    m = 8e6
    run = nccl.tree_all_reduce(f, m, 0, chunks=4, quantum=1e-6)
    sent = run.run.link_bytes()
    for node in range(8):
        out = sent.get(f"n{node}.nic0>tor0", 0)
        assert 0 < out <= 2 * m + 1
    # the α–β table runs the steps in lockstep, each as long as its busiest port; first come,
    # first served on the links (the tree's fixed chunk order), the same messages take longer
    sync = comm.collective_time(
        "all-reduce", m, 8, comm.Link(nccl.ALPHA_NET, 1 / NIC), "double-tree", chunks=4
    )
    assert run.seconds > sync


@pytest.mark.parametrize("nodes, radix, levels", [(2, 16, 1), (8, 8, 2), (8, 4, 3)])
@pytest.mark.parametrize("chunks", [1, 4, 16])
def test_sharp_time_and_steps(nodes, radix, levels, chunks):
    """Each chunk climbs the aggregation tree and comes down once: (k − 1 + 2L) chunk times plus
    the GPU's send and receive latency; each GPU sends and receives m once."""
    f = Fabric.build(nodes, 1, radix=radix)
    tree = nccl.sharp_tree(f)
    assert tree.levels == levels
    m = 4e6
    alpha = 10e-6
    run = nccl.sharp_all_reduce(f, m, chunks=chunks, alpha_net=alpha, quantum=1e-6)
    d = m / chunks / NIC
    assert run.seconds == pytest.approx((chunks - 1 + 2 * levels) * d + 2 * alpha, rel=1e-9)
    up = [x for x in run.run.messages if x.kind == "up" and x.src.startswith("n")]
    down = [x for x in run.run.messages if x.kind == "down" and x.dst.startswith("n")]
    assert len(up) == len(down) == nodes * chunks
    sent = run.run.link_bytes()
    for node in range(nodes):
        assert sent[f"n{node}.nic0>{f.tor_name(f.tor_of(node, 0))}"] == pytest.approx(m)
        assert sent[f"{f.tor_name(f.tor_of(node, 0))}>n{node}.nic0"] == pytest.approx(m)
    assert run.steps == 2


def test_sharp_beats_the_ring_by_up_to_2n_minus_1_over_n_and_busbw_passes_the_link():
    f = Fabric.build(8, 1, radix=16)
    m = 256e6
    sharp = nccl.sharp_all_reduce(f, m, chunks=256, alpha_net=0)
    ring = nccl.rail_ring_all_reduce(f, m, alpha_net=0)
    ratio = sharp.algbw / ring.algbw
    assert 1.6 < ratio <= 2 * 7 / 8 + 1e-9  # 1.75 in the limit of many chunks
    assert sharp.busbw > NIC  # nccl-tests' formula assumes point-to-point transfers
    assert ring.busbw == pytest.approx(NIC)


# ---------------------------------------------------------------------------------------------
# all-to-all with and without PXN


def test_pxn_keeps_the_network_on_its_rail():
    f = Fabric.build(4, 4, radix=4)
    m = 16e6
    pxn = nccl.all_to_all(f, m, pxn=True)
    direct = nccl.all_to_all(f, m, pxn=False)

    def kind_bytes(run, kind):
        return sum(v for k, v in run.run.link_bytes().items() if f.links[k].kind == kind)

    assert kind_bytes(pxn, "leaf-spine") == 0 and kind_bytes(direct, "leaf-spine") > 0
    assert kind_bytes(pxn, "nvlink") > kind_bytes(direct, "nvlink")
    assert pxn.seconds < direct.seconds
    p = f.gpus
    delivered = {}
    for msg in pxn.run.messages:
        delivered[msg.dst] = delivered.get(msg.dst, 0) + msg.nbytes
    assert all(v == pytest.approx(m * (p - 1) / p) for v in delivered.values())
    path = next(x.links for x in pxn.run.messages if x.name == "n0.g0>n1.g3")
    assert path[:2] == ("n0.g0>n0.nvs", "n0.nvs>n0.g3")  # GPU 0 hands its data to GPU 3 first


# ---------------------------------------------------------------------------------------------
# bad input


def test_bad_collective_input():
    f = Fabric.build(2, 2, radix=4)
    with pytest.raises(ConfigError, match="rail"):
        nccl.sharp_all_reduce(f, 1e6, rail=2)
    with pytest.raises(ConfigError, match="nbytes"):
        nccl.ring_all_reduce(f, -1)
    with pytest.raises(ConfigError, match="one node"):
        nccl.tree_all_reduce(Fabric.build(1, 2, radix=4), 1e6)
    with pytest.raises(ConfigError, match="Fabric"):
        nccl.ring_all_reduce("dgx", 1e6)
    with pytest.raises(ConfigError, match="unknown 'gossip'"):
        nccl.run("gossip", f, 1e6)
    with pytest.raises(ConfigError, match="unknown policy"):
        nccl.run("ring", f, 1e6, policy="random")
    with pytest.raises(ConfigError, match="cross_nic"):
        nccl.ring_all_reduce(f, 1e6, cross_nic="yes")


# ---------------------------------------------------------------------------------------------
# a ring whose links differ (problem set 15's reference)


@given(st.integers(2, 9), st.integers(1, 9), st.integers(0, 6), st.integers(1, 16))
@settings(max_examples=40, deadline=None)
def test_an_even_ring_is_the_alpha_beta_formula(p, d, alpha, steps):
    """Equal links: every step costs α + (one message on a link), chapter 10's formula."""
    run = nccl.uneven_ring([d] * p, alpha, steps)
    assert run.cycles == steps * (d + alpha)


@given(st.lists(st.integers(1, 12), min_size=2, max_size=8), st.integers(0, 6), st.integers(1, 14))
@settings(max_examples=60, deadline=None)
def test_an_uneven_ring_runs_at_the_pace_of_its_links(cycles, alpha, steps):
    """Bounds that hold whatever the order of the links: the slowest link carries ``steps``
    messages back to back, and one chain of forwarded messages crosses ``steps`` links, each
    at least as fast as the fastest; slowing a link never helps (verified by the core, too)."""
    run = nccl.uneven_ring(cycles, alpha, steps)
    assert run.cycles >= steps * max(cycles) + alpha
    assert run.cycles >= steps * (min(cycles) + alpha)
    assert run.cycles <= steps * (max(cycles) + alpha)
    slower = list(cycles)
    slower[steps % len(cycles)] += 3
    assert nccl.uneven_ring(slower, alpha, steps).cycles >= run.cycles
    assert len(run.messages) == steps * len(cycles)


def test_an_uneven_ring_by_hand():
    """Links of 1, 1 and 4 cycles, α = 1, two steps. Step 1: all start at 0; rank 2's message
    leaves its slow link at 4 and arrives at 5. Step 2: rank 0 forwards it at 5, its own link
    free since 1: done at 6, delivered 7; rank 1 forwards rank 0's (arrived 2) at 2; rank 2
    forwards rank 1's (arrived 2) but its link is busy until 4: leaves at 8, delivered 9."""
    run = nccl.uneven_ring([1, 1, 4], 1, 2)
    assert run.cycles == 9
    first = min(run.schedule.start)
    assert [s - first for s in run.schedule.start] == [0, 0, 0, 5, 2, 4]


def test_uneven_ring_input_is_checked():
    for bad, said in [
        (([3], 0, 2), "2 or more"),
        (([3, 0], 0, 2), r"link_cycles\[1\]"),
        (("33", 0, 2), "list"),
        (([3, 3], -1, 2), "alpha"),
        (([3, 3], 0, 0), "steps"),
    ]:
        with pytest.raises(ConfigError, match=said):
            nccl.uneven_ring(*bad)
