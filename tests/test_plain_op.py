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
