"""Roofline: attainable FLOP/s, ridge points, operator intensities, fusion, the plot."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lecturekit.errors import ConfigError
from lecturekit.llm import hardware
from lecturekit.llm import roofline as R

A100 = R.Roof.from_gpu("A100-80GB")


def test_roof_from_the_gpu_table():
    g = hardware.gpu("A100-80GB")
    assert A100.peak_flops == g.peak_fp16_flops == 312e12
    assert A100.bandwidth == g.mem_bandwidth_bytes_per_s
    assert A100.ridge == pytest.approx(312e12 / 2.039e12)  # about 153 FLOP/byte
    assert R.Roof.from_gpu("A100-80GB", "fp32").peak_flops == 19.5e12
    for name in hardware.GPUS:
        roof = R.Roof.from_gpu(name)
        assert roof.attainable(roof.ridge) == pytest.approx(roof.peak_flops)


@given(st.floats(0, 1e6), st.floats(1e9, 1e16), st.floats(1e9, 1e13))
@settings(max_examples=200, deadline=None)
def test_attainable_is_min_of_the_two_roofs(intensity, peak, bw):
    got = R.attainable_flops(intensity, peak, bw)
    assert got == min(peak, bw * intensity)
    ridge = R.ridge_point(peak, bw)
    if intensity < ridge:
        assert got < peak and R.classify(intensity, peak, bw) == "memory-bound"
    else:
        assert got == peak and R.classify(intensity, peak, bw) == "compute-bound"


def test_gemm_intensity():
    op = R.gemm(1024, 1024, 1024, bytes_per_element=2)
    assert op.flops == 2 * 1024**3
    assert op.bytes_moved == 3 * 1024**2 * 2
    assert op.intensity == pytest.approx(2 * 1024 / (3 * 2))  # 2n/3b
    n_star = R.square_gemm_ridge_size(A100.peak_flops, A100.bandwidth, 2)
    assert R.gemm(math.ceil(n_star), math.ceil(n_star), math.ceil(n_star)).intensity >= A100.ridge
    n = math.floor(n_star) - 1
    assert R.gemm(n, n, n).intensity < A100.ridge
    # a GPT-3 MLP GEMM (2048 tokens, h = 12288 -> 4h) is compute-bound; one token (decoding) is not
    assert R.classify(R.gemm(2048, 12288, 4 * 12288), 312e12, 2.039e12) == "compute-bound"
    assert R.classify(R.gemm(1, 12288, 4 * 12288), 312e12, 2.039e12) == "memory-bound"
    # matrix-vector: intensity about 1 FLOP/byte in fp16
    assert R.gemm(1, 4096, 4096).intensity == pytest.approx(1.0, rel=1e-3)


def test_elementwise_ops_are_memory_bound():
    n = 8 * 2048 * 4 * 12288
    add = R.elementwise("add", n, inputs=("x", "r"))
    assert add.flops == n and add.bytes_moved == 3 * n * 2
    gelu = R.elementwise("gelu", n)
    assert gelu.intensity == pytest.approx(9 / 4)
    ln = R.layer_norm(8 * 2048, 12288)
    assert ln.flops == 8 * 8 * 2048 * 12288
    for op in (add, gelu, ln, R.bias_add(100, 10), R.dropout(100)):
        assert R.classify(op, A100.peak_flops, A100.bandwidth) == "memory-bound"
    assert R.elementwise("mine", 10, flops_per_element=3).flops == 30


def test_fusion_of_bias_gelu_dropout():
    rows, cols = 2048, 4 * 1024
    n = rows * cols
    chain = [
        R.bias_add(rows, cols, x="u", y="v"),
        R.elementwise("gelu", n, inputs=("v",), output="w"),
        R.dropout(n, x="w", y="out"),
    ]
    fused = R.fuse(chain)
    separate_bytes = sum(op.bytes_moved for op in chain)
    # separate: u read, bias read, v written+read, w written+read, out and mask written
    assert separate_bytes == 2 * n * 6 + cols * 2 + n
    # fused: read u and the bias, write out and the mask; v and w stay on chip
    assert set(fused.reads) == {"u", "bias"} and set(fused.writes) == {"out", "dropout mask"}
    assert fused.bytes_moved == 2 * n * 2 + cols * 2 + n
    assert fused.flops == sum(op.flops for op in chain)
    assert fused.intensity > max(op.intensity for op in chain)
    # keeping the GeLU input for the backward pass costs one more write
    kept = R.fuse(chain, keep=("v",))
    assert kept.bytes_moved == fused.bytes_moved + 2 * n
    # time: fused is faster under both models, and launches count once
    peak, bw = A100.peak_flops, A100.bandwidth
    t_sep = sum(R.op_time(op, peak, bw, launch_s=5e-6) for op in chain)
    t_fused = R.op_time(fused, peak, bw, launch_s=5e-6)
    assert t_fused < t_sep
    assert t_sep / t_fused == pytest.approx(
        (3 * 5e-6 + separate_bytes / bw) / (5e-6 + fused.bytes_moved / bw)
    )


def test_op_time_models():
    op = R.Op("x", flops=100.0, reads={"a": 10}, writes={"b": 10})
    assert R.op_time(op, 10.0, 2.0) == 10.0  # max(100/10, 20/2)
    assert R.op_time(op, 10.0, 2.0, overlap=False) == 20.0  # 10 + 10
    assert R.op_time(op, 10.0, 2.0, launch_s=1.0) == 11.0
    assert R.Op("empty", 0.0).intensity == math.inf


def test_the_notes_figures():
    # notes 003: a CPU at 2000 GFLOP/s FP64 fed at 200 GB/s must use each value 80 times
    assert R.balance_point(2000e9, 200e9, 8) == 80
    # ... an A100's FP64 19.5 TFLOP/s fed from L1 at 19400 GB/s: about 8; from PCIe 25 GB/s: 6240
    assert round(R.balance_point(19.5e12, 19400e9, 8)) == 8
    assert R.balance_point(19.5e12, 25e9, 8) == 6240
    # Little's law: 131 GB/s × 89 ns = 11659 bytes in flight
    assert round(R.bytes_in_flight(131e9, 89e-9)) == 11659


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: R.attainable_flops(-1, 1, 1), "intensity must be"),
        (lambda: R.ridge_point(0, 1), "peak_flops must be"),
        (lambda: R.Roof("x", 1, 0), "bandwidth must be"),
        (lambda: R.Roof.from_gpu("B200"), "unknown GPU"),
        (lambda: R.Roof.from_gpu("A100-80GB", "fp8"), "precision must be"),
        (lambda: R.gemm(0, 1, 1), "m must be"),
        (lambda: R.elementwise("cosh", 10), "unknown kind"),
        (lambda: R.elementwise("add", 10, inputs=()), "at least one input"),
        (lambda: R.fuse([]), "nothing to fuse"),
        (lambda: R.op_time(R.gemm(1, 1, 1), 1, 1, launch_s=-1), "launch_s"),
    ],
)
def test_bad_input(call, words):
    with pytest.raises(ConfigError) as info:
        call()
    assert words in str(info.value)


def test_roofline_plot_places_ops():
    import matplotlib.pyplot as plt

    from lecturekit.viz.roofline import plot_roofline

    ops = [R.gemm(4096, 4096, 4096), R.elementwise("gelu", 1000), ("custom", 50.0)]
    roofs = [A100, R.Roof.from_gpu("H100")]
    ax = plot_roofline(roofs, ops)
    assert len(ax.get_lines()) == 2 * 2 + 3  # roof + ridge marker per GPU, one per op
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    plt.close(ax.figure)
    with pytest.raises(ConfigError):
        plot_roofline([])
