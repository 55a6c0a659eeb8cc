"""The converters of chapters 14 and 15 (problem sets 14 and 15): a loop nest's axes, schedule,
loops and bindings, a tensor graph, a fabric's ToRs, as plain data the graded function's
interpreter can receive, holding everything the course object says."""

import itertools

import numpy as np

from lecturekit.grading.plain import (
    plain_axes,
    plain_fabric,
    plain_nest,
    plain_schedule,
    plain_tensor_graph,
)
from lecturekit.grading.protocol import decode, encode
from lecturekit.llm.fabric import Fabric
from lecturekit.tensor import examples
from lecturekit.tensor.capture import from_ast
from lecturekit.tensor.graph import Node, TensorGraph
from lecturekit.tensor.loopnest import _eval, apply, conv2d, matmul, parse_schedule

SCHEDULE = """split i 4
tile j k 2 4   # a comment
reorder i_o j_o k_o i_i j_i k_i; fuse i_o j_o
vectorize k_i
parallel i_o_j_o"""


def test_plain_schedule_reads_every_kind_of_step_from_its_text():
    steps = plain_schedule(SCHEDULE)
    assert steps == [
        {"step": "split", "loop": "i", "factor": 4},
        {"step": "tile", "outer": "j", "inner": "k", "outer_factor": 2, "inner_factor": 4},
        {"step": "reorder", "order": ["i_o", "j_o", "k_o", "i_i", "j_i", "k_i"]},
        {"step": "fuse", "outer": "i_o", "inner": "j_o"},
        {"step": "vectorize", "loop": "k_i"},
        {"step": "parallel", "loop": "i_o_j_o"},
    ]
    assert plain_schedule(parse_schedule(SCHEDULE)) == steps
    assert plain_schedule(parse_schedule("unroll k")) == [{"step": "unroll", "loop": "k"}]
    assert decode(encode(steps)) == steps


def test_plain_nest_evaluates_to_the_nests_own_iteration_order():
    for comp, sched in [
        (
            matmul(4, 8, 6),
            "split i 2\nfuse i_i j\nsplit i_i_j 4\n"
            "reorder i_o k i_i_j_o i_i_j_i\nvectorize i_i_j_i",
        ),
        (conv2d(4, 6, 2, 3), "tile y x 2 3\nparallel y_o"),
        (matmul(2, 3, 4), ""),
    ]:
        nest = apply(comp, sched)
        plain = plain_nest(nest)
        assert decode(encode(plain)) == plain
        assert plain["loops"] == [(lp.name, lp.extent, lp.reduce, lp.kind) for lp in nest.loops]
        names = [lp[0] for lp in plain["loops"]]
        points = []
        for values in itertools.product(*(range(lp[1]) for lp in plain["loops"])):
            env = dict(zip(names, values, strict=True))
            points.append(tuple(_eval(plain["bindings"][a.name], env) for a in comp.axes))
        want = []
        for chunk in nest.chunks():
            want += list(zip(*(chunk[a.name].tolist() for a in comp.axes), strict=True))
        assert points == want and len(set(points)) == comp.points
    axes = plain_axes(matmul(2, 3, 4))
    assert axes == [
        {"name": "i", "extent": 2, "reduce": False},
        {"name": "j", "extent": 3, "reduce": False},
        {"name": "k", "extent": 4, "reduce": True},
    ]


def test_plain_tensor_graph_rebuilds_the_same_graph():
    for fn in (examples.baydin, examples.mlp_loss, examples.layer, examples.branchy):
        graph = from_ast(fn)
        plain = plain_tensor_graph(graph)
        assert decode(encode(plain)) == plain
        assert plain["inputs"] == graph.inputs and plain["outputs"] == graph.outputs
        assert [n["name"] for n in plain["nodes"]] == [n.name for n in graph.nodes]
        rebuilt = TensorGraph(
            [
                Node(
                    n["name"],
                    n["op"],
                    tuple(n["inputs"]),
                    {k: n[k] for k in ("value", "p") if k in n},
                )
                for n in plain["nodes"]
            ],
            plain["outputs"],
        )
        rng = np.random.default_rng(0)
        example = {"x1": 2.0, "x2": 5.0} if fn is examples.baydin else None
        if example is None:
            shapes = {"x": (3, 4), "w1": (4, 5), "w2": (5, 2), "w": (4, 6), "b": (6,), "y": (3, 4)}
            example = {i: rng.normal(size=shapes[i]) for i in graph.inputs}
        got, want = rebuilt.evaluate(example), graph.evaluate(example)
        assert all(np.array_equal(got[k], want[k]) for k in want)
    powered = plain_tensor_graph(from_ast(examples.mlp_loss))
    assert all(set(n) <= {"name", "op", "inputs", "value", "p"} for n in powered["nodes"])


def test_plain_fabric_names_each_nics_tor():
    for nodes, gpn, radix, rail in [(4, 4, 4, True), (6, 2, 6, False), (32, 8, 40, True)]:
        fab = Fabric.build(nodes, gpn, radix=radix, rail_optimized=rail)
        plain = plain_fabric(fab)
        assert decode(encode(plain)) == plain
        assert (plain["nodes"], plain["gpus_per_node"], plain["radix"]) == (nodes, gpn, radix)
        assert len(plain["tor"]) == nodes * gpn
        half = radix // 2
        for (n, c), t in plain["tor"].items():
            assert t == fab.tor_of(n, c)
            assert f"n{n}.nic{c}>tor{t}" in fab.links
            # the tree follows from the radix: ToR t's up-links go to the leaves of pod t // half
            assert all(f"tor{t}>leaf{t // half}.{i}" in fab.links for i in range(half))
