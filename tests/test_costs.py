"""What each memory-saving technique costs (chapter 08's ladder): FLOPs, communication, bubble."""

import pytest

from lecturekit.llm import comm
from lecturekit.llm.config import PRESETS, ParallelConfig
from lecturekit.llm.costs import recompute_overhead, technique_cost
from lecturekit.llm.params import parameter_count
from lecturekit.llm.pipeline_parallel import pipeline_schedule
from lecturekit.widgets.memory_ladder import memory_ladder

GPT3 = PRESETS["gpt3"]


def layer_forward_flops(model, b=1):
    s, h = model.seq, model.hidden
    return 24 * b * s * h * h + 4 * b * s * s * h  # Korthikanti et al. 2022, section 5


def test_recompute_overheads_by_flop_count():
    fwd = layer_forward_flops(GPT3)
    step = 3 * fwd  # backward = 2 x forward
    assert recompute_overhead(GPT3, "full") == pytest.approx(fwd / step) == pytest.approx(1 / 3)
    scores = 4 * GPT3.seq * GPT3.seq * GPT3.hidden  # Q K^T and (softmax) V, one sequence
    assert recompute_overhead(GPT3, "selective") == pytest.approx(scores / step)
    assert 0.008 < recompute_overhead(GPT3, "selective") < 0.01  # "a few percent" at most
    assert recompute_overhead(GPT3, "none") == 0
    # longer sequences make the selective part dearer: s/(3(6h + s)) grows with s
    long = GPT3.with_(seq=32768)
    assert recompute_overhead(long, "selective") > 10 * recompute_overhead(GPT3, "selective")


def test_the_ladders_costs():
    ladder = memory_ladder("gpt3")
    by = {st.label: st.cost for st in ladder}
    assert by["full recompute"].flops == pytest.approx(1 / 3)
    assert "+33% FLOPs" in by["full recompute"].text
    assert "+0.9% FLOPs" in by["+ selective recompute"].text
    # flash attention after selective recomputation: no memory left to save, no cost either
    assert "saves no memory once recomputation" in by["+ flash attention"].text
    pp = by["+ pipeline ×8 (m=2)"]
    sim = pipeline_schedule("1f1b", 8, 2)
    assert pp.bubble == sim.bubble_fraction == pytest.approx(7 / 9)
    assert round(pp.bubble, 2) == 0.78
    assert pp.effective_gpus == pytest.approx(4096 * 2 / 9)  # 910 GPUs' worth of work
    # data parallelism: DDP, ZeRO-1 and -2 send 2 Psi, ZeRO-3 3 Psi (16-bit, ring over 64)
    psi = parameter_count(GPT3)
    ddp = by["+ data parallel ×64"].comm_bytes
    assert ddp == pytest.approx(comm.data_parallel_comm(psi, "ddp").bytes_per_rank(64))
    assert by["+ ZeRO-1"].comm_bytes == pytest.approx(ddp)
    assert by["+ ZeRO-3"].comm_bytes == pytest.approx(1.5 * ddp)
    assert by["+ mixed precision"].text == "no extra cost"


def test_offload_cost_is_the_pcie_traffic_of_the_shard():
    cur = ParallelConfig(dp=64, zero=1, offload=True)
    c = technique_cost(GPT3, cur, ParallelConfig(dp=64, zero=1))
    shard = -(-parameter_count(GPT3) // 64)
    assert c.pcie_bytes == 4 * shard  # 2 B of gradient out, 2 B of weight back per parameter
