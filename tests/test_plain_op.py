"""plain_op: an operator of the roofline model as the plain data a code question receives
(problem set 11): the same figures as the Op, and data the graded function's interpreter can
receive."""

from lecturekit.grading.plain import plain_op
from lecturekit.grading.protocol import decode, encode
from lecturekit.llm import roofline as R


def test_plain_op_keeps_flops_and_every_tensor():
    chain = [
        R.bias_add(2048, 49152, x="fc1 out", y="fc1 biased"),
        R.elementwise("gelu", 2048 * 49152, inputs=("fc1 biased",), output="gelu out"),
        R.dropout(1000, x="a", y="b"),
        R.layer_norm(3, 5),
        R.gemm(7, 11, 13, 4),
    ]
    for op in chain + [R.fuse(chain[:2])]:
        plain = plain_op(op)
        assert plain["flops"] == op.flops
        assert plain["reads"] == op.reads and plain["writes"] == op.writes
        assert sum(plain["reads"].values()) + sum(plain["writes"].values()) == op.bytes_moved
        assert all(type(b) is int for b in [*plain["reads"].values(), *plain["writes"].values()])
        assert decode(encode(plain)) == plain


def test_plain_timed_program_gives_each_opcode_its_latency_and_units():
    from lecturekit.asm import parse
    from lecturekit.grading.plain import plain_program, plain_timed_program
    from lecturekit.target.machine import preset
    from lecturekit.target.pipeline import simulate

    block = "fld ft0, 0(a1)\nfdiv.d ft1, ft0, ft2\ndiv a0, a1, a2\nadd a3, zero, a0\n"
    program = parse(block, notation="riscv")
    for name in ("rocket-rv64", "sifive-7-rv64"):
        m = preset(name)
        timed = plain_timed_program(program, m)
        assert [{k: v for k, v in d.items() if k not in ("latency", "holds")} for d in timed] == (
            plain_program(program)
        )
        sim = simulate(program, m)
        # the latency is what a reader waits for: the simulator's result cycle minus the issue
        assert [d["latency"] for d in timed] == [
            sim.finish[k] - sim.issue[k] for k in range(len(program))
        ]
        assert decode(encode(timed)) == timed
    rocket = plain_timed_program(program, preset("rocket-rv64"))
    assert rocket[1]["holds"] == [("FPDivSqrt", 20)] and rocket[2]["holds"] == [("IDiv", 33)]
