"""ZeRO-3 alone: communication vs compute, the batch cap, the gathered layer's working memory."""

import pytest

from lecturekit.errors import ConfigError
from lecturekit.llm import comm
from lecturekit.llm.config import PRESETS, ParallelConfig
from lecturekit.llm.memory import GIB, memory_report
from lecturekit.llm.params import parameter_count
from lecturekit.llm.zero3 import gathered_layer_bytes, zero3_limits


def test_gathered_layer_of_gpt3_by_hand():
    h = 12288
    layer = 12 * h * h + 13 * h  # the lecture's per-layer count (GPT-3 has biases, LayerNorms)
    got = gathered_layer_bytes("gpt3")
    assert got["layer_parameters"] == layer
    assert got["forward"] == 2 * layer * 2  # this layer's and the prefetched next one's weights
    assert got["backward"] == 3 * layer * 2  # ... plus this layer's full 16-bit gradient
    assert got["peak"] == got["backward"]
    one = gathered_layer_bytes("gpt3", prefetch=False)
    assert one["forward"] * 2 == got["forward"]
    assert round(got["peak"] / GIB, 1) == 10.1
    # with tensor parallelism each rank gathers only its tp shard of the layer
    assert gathered_layer_bytes("gpt3", tp=8)["layer_parameters"] < layer // 8 + 7 * h


@pytest.mark.parametrize("name", ["gpt2", "gpt3", "llama2-7b"])
def test_gathered_layer_scales_with_the_layer(name):
    model = PRESETS[name]
    g = gathered_layer_bytes(model)
    assert g["forward"] == 4 * g["layer_parameters"]
    assert g["layer_parameters"] * model.layers < parameter_count(model)


def test_zero3_alone_on_gpt3_is_communication_bound():
    psi = parameter_count(PRESETS["gpt3"])
    z = zero3_limits("gpt3", dp=64)
    # 3 Psi elements of 2 bytes per GPU per step, (p-1)/p of it with a ring of 64
    assert z.comm_bytes_per_gpu == pytest.approx(3 * psi * 2 * 63 / 64)
    link = comm.Link.from_bandwidth(10e-6, 25e9)
    # three ring collectives of p - 1 = 63 steps, each step alpha + (Psi x 2 / 64) beta
    assert z.comm_seconds == pytest.approx(3 * 63 * (10e-6 + psi * 2 / 64 / 25e9))
    # compute: 2 of the 128 sequences per GPU, 8 Psi per token (full recomputation), 50% of 312 TF
    assert z.compute_seconds == pytest.approx(8 * psi * 2 * 2048 / (0.5 * 312e12))
    assert z.comm_over_compute > 1  # communication-bound already at 64 GPUs
    # it fits in memory: the table's 51 GiB plus the gathered layers
    rep = memory_report("gpt3", ParallelConfig(dp=64, zero=3, recompute="full"))
    assert z.model_states_bytes + z.activation_bytes == rep.total
    assert z.fits and z.total_bytes == rep.total + gathered_layer_bytes("gpt3")["peak"]
    # more GPUs: the compute per GPU halves, the communication does not
    z128 = zero3_limits("gpt3", dp=128)
    assert z128.compute_seconds == pytest.approx(z.compute_seconds / 2)
    assert z128.comm_seconds > z.comm_seconds
    assert z128.comm_over_compute > 2
    assert link.bandwidth == 25e9


def test_batch_caps_data_parallelism():
    assert zero3_limits("gpt3", dp=128).max_dp == 128
    with pytest.raises(ConfigError, match="dp <= 128"):
        zero3_limits("gpt3", dp=256)
    with pytest.raises(ConfigError):
        gathered_layer_bytes("gpt3", prefetch="yes")
