"""Context parallelism (ring attention, Ulysses), expert parallelism (MoE) and FSDP working
memory: hand-derived formulas, published figures, the lecture's long-context table."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lecturekit.errors import ConfigError, LectureKitError
from lecturekit.llm.activations import korthikanti_layer_bytes
from lecturekit.llm.config import preset
from lecturekit.llm.context_parallel import (
    LONG_CONTEXT,
    context_parallel_layer,
    long_context_table,
    min_cp_for_budget,
)
from lecturekit.llm.moe import all_to_all_elements, expert_parallel, fsdp_working_bytes
from lecturekit.llm.params import layer_parameters, parameter_count

# -- context parallelism ---------------------------------------------------------------------------


def test_lecture_long_context_table_is_the_slides():
    seeds = sorted(Path("/work/shared/seeds").glob("000_*.txt"))
    if seeds:  # the lecture's slides as text, where this machine has them
        text = seeds[0].read_text(encoding="utf-8")
        assert "Kimi\t200万" in text and "通义千问\t1000万" in text
    assert LONG_CONTEXT["Kimi"] == LONG_CONTEXT["Gemini 1.5 Pro"] == 200 * 10_000
    assert LONG_CONTEXT["通义千问"] == 1000 * 10_000 and LONG_CONTEXT["DeepSeek"] == 128_000


def test_kimi_two_million_tokens_on_llama3_8b_by_hand():
    rows = {r["model"]: r for r in long_context_table("llama3-8b", cps=(1, 8, 64))}
    kimi = rows["Kimi"]
    s, h, kv = 2_000_000, 4096, 8 * 128
    # 34 s b h bytes per layer (Korthikanti, 16-bit, scores recomputed): 278.5 GB for 200万 tokens
    assert kimi["activation_bytes_cp1"] == 34 * s * h == 278_528_000_000
    assert kimi["activation_bytes_cp64"] == 34 * s * h // 64
    # ring: cp - 1 blocks of K and V of s/cp tokens each, 2 bytes an element
    assert kimi["ring_bytes_cp8"] == 2 * 7 * (s // 8) * kv * 2 == 7_168_000_000
    # Ulysses: (cp-1)/cp of Q, K, V and the output
    assert kimi["ulysses_bytes_cp8"] == 7 * (s // 8) * (2 * h + 2 * kv) * 2 // 8 == 4_480_000_000
    # Ulysses cannot split 8 key/value heads 64 ways
    assert kimi["ulysses_bytes_cp64"] is None
    # 40 GiB for all 32 layers' activations needs cp = 250 (the first divisor of 2,000,000
    # with 32 x 278.5 GB / cp <= 40 GiB, i.e. cp >= 207.6)
    assert min_cp_for_budget("llama3-8b", s, 40 * 2**30) == 250


@pytest.mark.parametrize("cp", [1, 2, 4, 8, 16])
def test_cp_divides_the_layer_as_korthikanti_counts_it(cp):
    m = preset("gpt3")
    lay = context_parallel_layer(m, cp, "ring", save_scores=True)
    full = korthikanti_layer_bytes(m.seq, m.batch, m.hidden, m.heads) // m.batch
    assert lay.activation_bytes * cp == full


def test_ulysses_volume_is_the_papers_4nh_over_p_for_large_p():
    m = preset("gpt3")  # plain attention: h_kv = h, 96 heads
    for cp in (2, 4, 8, 16, 32):
        lay = context_parallel_layer(m, cp, "ulysses")
        n = m.seq
        assert lay.forward_elements == 4 * n * m.hidden * (cp - 1) // cp**2
        assert lay.backward_elements == lay.forward_elements
    # ring's volume per device does not shrink with cp, Ulysses' does
    r8, r32 = (context_parallel_layer(m, c, "ring").forward_bytes for c in (8, 32))
    u8, u32 = (context_parallel_layer(m, c, "ulysses").forward_bytes for c in (8, 32))
    assert r32 > r8 and u32 < u8
    assert context_parallel_layer(m, 8, "ring").backward_bytes == 2 * r8


@settings(max_examples=50, deadline=None)
@given(st.sampled_from([1, 2, 4, 8]), st.integers(1, 64), st.sampled_from(["ring", "ulysses"]))
def test_cp_memory_is_one_over_cp(cp, k, kind):
    m = preset("llama3-8b")
    seq = 1024 * k
    one = context_parallel_layer(m, 1, kind, seq)
    lay = context_parallel_layer(m, cp, kind, seq)
    assert lay.activation_bytes * cp == one.activation_bytes
    assert (lay.step_bytes == 0) == (cp == 1)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"cp": 0}, "cp"),
        ({"cp": 3}, "does not divide the sequence"),
        ({"cp": 16, "kind": "ulysses"}, "heads"),
        ({"cp": 2, "kind": "zigzag"}, "not a context-parallel method"),
        ({"cp": 2, "seq": -5}, "seq"),
    ],
)
def test_bad_cp_input_is_explained(kwargs, message):
    with pytest.raises(ConfigError, match=message):
        context_parallel_layer("llama3-8b", **kwargs)


# -- expert parallelism ----------------------------------------------------------------------------


def test_mixtral_published_parameter_counts():
    d = expert_parallel("mixtral-8x7b", ep=8)
    # Jiang et al. 2024: 46.7B parameters, 12.9B active per token (top-2 of 8)
    assert round(d.total_parameters / 1e9, 1) == 46.7
    assert round(d.active_parameters / 1e9, 1) == 12.9
    assert d.total_parameters == parameter_count(preset("mixtral-8x7b"))


def test_mixtral_expert_sharding_by_hand():
    m = preset("mixtral-8x7b")
    per_expert_layer = 3 * 4096 * 14336  # SwiGLU: gate, up, down
    assert layer_parameters(m)["mlp"].total == 8 * per_expert_layer
    experts = 32 * 8 * per_expert_layer
    rest = parameter_count(m) - experts
    for ep in (1, 2, 4, 8):
        d = expert_parallel(m, ep=ep)
        assert d.expert_parameters == experts
        assert d.local_parameters == rest + experts // ep
        assert d.model_state_bytes == 16 * d.local_parameters
    # with ep = 8 one expert per device: about 7.2B parameters, 116 GB of model states
    assert expert_parallel(m, 8).local_parameters == 7_242_780_672


def test_all_to_all_volume():
    # 4096 tokens, top-2, h = 4096, ep = 8: 7/8 of 2 x 4096 routed copies leave the device
    assert all_to_all_elements(4096, 4096, 2, 8) == 4096 * 2 * 4096 * 7 // 8
    assert all_to_all_elements(4096, 4096, 2, 1) == 0
    d = expert_parallel("mixtral-8x7b", ep=8, tokens=4096)
    assert d.all_to_all_bytes == 2 * 4096 * 2 * 4096 * 7 // 8
    assert d.layer_step_bytes == 4 * d.all_to_all_bytes


@pytest.mark.parametrize(
    "kwargs, message",
    [({"ep": 3}, "does not divide the 8 experts"), ({"ep": 0}, "ep"), ({"tokens": 0}, "tokens")],
)
def test_bad_ep_input_is_explained(kwargs, message):
    with pytest.raises(LectureKitError, match=message):
        expert_parallel("mixtral-8x7b", **kwargs)


# -- FSDP / ZeRO-3 working memory ------------------------------------------------------------------


def test_fsdp_working_memory_with_and_without_prefetch():
    m = preset("llama2-7b")
    layer = sum(p.total for p in layer_parameters(m).values())
    with_pf = fsdp_working_bytes(m, 8)
    without = fsdp_working_bytes(m, 8, prefetch=False)
    assert with_pf["sharded"] == -(-16 * parameter_count(m) // 8)
    assert with_pf["gathered"] == 2 * 2 * layer == 2 * without["gathered"]
    assert with_pf["total"] - without["total"] == 2 * layer
    # the working copy is small next to the shards: a layer of 32 is ~3% of the model
    assert with_pf["gathered"] < 0.1 * with_pf["sharded"]


# -- memory_report with cp and ep (chapter 08's calculator) ---------------------------------------


def test_memory_report_mixtral_experts_sharded_by_hand():
    from lecturekit.llm.config import ParallelConfig
    from lecturekit.llm.memory import memory_report

    experts = 32 * 8 * 3 * 4096 * 14336  # L x E x (gate, up, down) x h x ffn
    assert experts == 45_097_156_608
    dense = 46_702_792_704 - experts  # attention, norms, routers, embeddings
    local = dense + experts // 8
    assert local == expert_parallel("mixtral-8x7b", 8).local_parameters == 7_242_780_672
    r = memory_report("mixtral-8x7b", ParallelConfig(dp=8), cp=1, ep=8)
    assert r.peak.parameter_count == local
    assert (r.parameters, r.gradients, r.optimizer) == (2 * local, 2 * local, 12 * local)
    # ZeRO-1: dense optimizer states over dp x cp = 8 ranks, expert states over dp cp / ep = 1
    z = memory_report("mixtral-8x7b", ParallelConfig(dp=8, zero=1), ep=8)
    assert z.optimizer == 12 * dense // 8 + 12 * (experts // 8)
    # without ep every GPU holds all 46.7B
    assert memory_report("mixtral-8x7b", ParallelConfig(dp=8)).parameters == 2 * 46_702_792_704
    assert r.as_dict()["parallel"]["ep"] == 8


@pytest.mark.parametrize("cp", [2, 4, 8])
def test_memory_report_cp_divides_activations(cp):
    from lecturekit.llm.config import ParallelConfig
    from lecturekit.llm.memory import memory_report

    par = ParallelConfig(dp=2, tp=2, sp=True)
    one = memory_report("llama3-8b", par)
    split = memory_report("llama3-8b", par, cp=cp)
    assert split.activations * cp == one.activations  # each GPU keeps 1/cp of every tensor
    assert split.activations_per_layer * cp == one.activations_per_layer
    assert split.parameters == one.parameters and split.optimizer == one.optimizer
    big = preset("llama3-8b").with_(batch=64)
    z1 = memory_report(big, ParallelConfig(dp=2, zero=1), cp=cp)
    z2 = memory_report(big, ParallelConfig(dp=2 * cp, zero=1))
    assert z1.optimizer == z2.optimizer  # ZeRO shards over dp x cp ranks (Megatron-LM)
    assert split.job_bytes == sum(st.total for st in split.stages) * 2 * 2 * cp
    assert split.as_dict()["world_size"] == 4 * cp


@pytest.mark.parametrize(
    "model,kw,message",
    [
        ("llama3-8b", {"ep": 2}, "llama3-8b is dense"),
        ("mixtral-8x7b", {"ep": 3}, "does not divide the 8 experts"),
        ("mixtral-8x7b", {"ep": 8}, "must divide dp x cp = 2"),
        ("llama3-8b", {"cp": 3}, "does not divide the sequence length 8192"),
        ("llama3-8b", {"cp": 0}, "cp .*integer >= 1"),
    ],
)
def test_memory_report_bad_cp_ep(model, kw, message):
    from lecturekit.llm.config import ParallelConfig
    from lecturekit.llm.memory import memory_report

    with pytest.raises(ConfigError, match=message):
        memory_report(model, ParallelConfig(dp=2), **kw)
