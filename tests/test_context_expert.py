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
    CONTEXT_WINDOWS,
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


def test_each_row_says_what_its_figure_counts():
    assert list(CONTEXT_WINDOWS) == list(LONG_CONTEXT)
    assert all(w.slide == LONG_CONTEXT[name] for name, w in CONTEXT_WINDOWS.items())
    characters = {name for name, w in CONTEXT_WINDOWS.items() if w.unit == "characters"}
    assert characters == {"Kimi", "通义千问"}  # 200万字 and 1000万字, read by the slide as tokens
    assert all(w.unit in ("tokens", "characters") and w.source for w in CONTEXT_WINDOWS.values())
    # a figure in tokens is the window; Kimi's 200万字 are about 1M tokens (chapter 08)
    assert all(w.tokens == w.slide for w in CONTEXT_WINDOWS.values() if w.unit == "tokens")
    assert CONTEXT_WINDOWS["Kimi"].tokens == 1_000_000
    rows = {r["model"]: r for r in long_context_table("llama3-8b", cps=(1,))}
    assert rows["Kimi"]["tokens"] == 1_000_000 and rows["Kimi"]["unit"] == "characters"
    assert rows["Kimi"]["slide"] == 2_000_000
    assert rows["Kimi"]["activation_bytes_cp1"] == 34 * 1_000_000 * 4096


def test_two_million_tokens_on_llama3_8b_by_hand():
    rows = {r["model"]: r for r in long_context_table("llama3-8b", cps=(1, 8, 64))}
    gemini = rows["Gemini 1.5 Pro"]
    s, h, kv = 2_000_000, 4096, 8 * 128
    # 34 s b h bytes per layer (Korthikanti, 16-bit, scores recomputed): 278.5 GB for 2M tokens
    assert gemini["tokens"] == s and gemini["unit"] == "tokens"
    assert gemini["activation_bytes_cp1"] == 34 * s * h == 278_528_000_000
    assert gemini["activation_bytes_cp64"] == 34 * s * h // 64
    # ring: cp - 1 blocks of K and V of s/cp tokens each, 2 bytes an element
    assert gemini["ring_bytes_cp8"] == 2 * 7 * (s // 8) * kv * 2 == 7_168_000_000
    # Ulysses: (cp-1)/cp of Q, K, V and the output
    assert gemini["ulysses_bytes_cp8"] == 7 * (s // 8) * (2 * h + 2 * kv) * 2 // 8 == 4_480_000_000
    # Ulysses cannot split 8 key/value heads 64 ways
    assert gemini["ulysses_bytes_cp64"] is None
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


# -- ring attention's time: the s^2 FLOPs and the overlap on the scheduling core ------------------


def test_attention_flops_by_hand_and_megatrons_formula():
    from lecturekit.llm.context_parallel import attention_flops

    # s = 4 tokens, h = 2, b = 1: Q K^T is (4 x 2)(2 x 4): 4 x 4 x 2 multiply-adds = 64 FLOPs,
    # P V the same; a causal mask skips half
    assert attention_flops(4, 2, causal=False) == 128 and attention_flops(4, 2) == 64
    # Narayanan et al. 2021: training = 72 B s l h^2 (1 + s/6h + ...): the s/6h term is
    # 12 B s^2 l h = 3 (forward + backward) x 4 B s^2 h x l, without a mask
    b, s, h, layers = 8, 2048, 12288, 96
    megatron = 72 * b * s * layers * h**2 * s // (6 * h)
    assert megatron == 3 * attention_flops(s, h, b, causal=False) * layers


def test_ring_attention_schedule_by_hand():
    from lecturekit.llm.priority_comm import ring_attention, ring_attention_closed_form

    # cp = 4, a block's attention 2 units, a block's transfer 3: the link is the bottleneck;
    # A0 runs on the local block while R1 arrives, then every step waits 3 for the next block
    run = ring_attention(4, compute=2, transfer=3)
    assert run.step_time == 2 + 3 * 3 == 11 == ring_attention_closed_form(4, 2, 3)
    assert run.timeline().splitlines()[0].split()[:4] == ["gpu", "A0", "A0", "."]
    assert [run.start_of(f"R{i}") for i in (1, 2, 3)] == [1, 4, 7]
    assert run.exposed_comm() == 3  # (cp-1)(t - c)
    serial = ring_attention(4, 2, 3, overlap=False)
    assert serial.step_time == 4 * 2 + 3 * 3 == 17
    # compute 3 >= transfer 2: the transfers are hidden, the time is the GPU's 4 x 3
    hid = ring_attention(4, compute=3, transfer=2)
    assert hid.step_time == 12 and hid.exposed_comm() == 0
    assert ring_attention(1, 5, 9).step_time == 5  # one device: no ring


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.integers(1, 6))
def test_ring_attention_overlap_between_its_bounds(cp, c, t):
    from lecturekit.llm.priority_comm import ring_attention, ring_attention_closed_form

    over = ring_attention(cp, c, t).step_time
    serial = ring_attention(cp, c, t, overlap=False).step_time
    assert over == ring_attention_closed_form(cp, c, t)
    assert serial == ring_attention_closed_form(cp, c, t, overlap=False) == cp * c + (cp - 1) * t
    assert max(cp * c, (cp - 1) * t) <= over <= serial
    assert (over == cp * c) == (c >= t or cp == 1)  # hidden exactly when c >= t


def test_liu_et_al_block_size_condition():
    from lecturekit.llm.comm import Link
    from lecturekit.llm.context_parallel import min_hidden_block

    a100, nvlink = 312e12, Link(0.0, 1 / 300e9)
    # Liu et al. 2023: 4 d c^2 / F >= 4 c d / B, i.e. c >= F / B = 1040 tokens (A100, NVLink);
    # their setting: K, V as wide as Q (GPT-3: no GQA), 16-bit, no mask, no latency
    assert min_hidden_block("gpt3", nvlink, a100, causal=False) == 1040
    # Llama 3: h_kv = h / 4 sends a quarter, the causal mask halves the compute: F / 2B
    assert min_hidden_block("llama3-8b", nvlink, a100) == 520
    # tensor parallelism divides both sides by tp; the latency α adds to the transfer
    assert min_hidden_block("llama3-8b", nvlink, a100, tp=8) == 520
    slow = Link(10e-6, 1 / 25e9)
    n = min_hidden_block("llama3-8b", slow, a100 * 0.5)
    a, k = 4 * 4096 * 0.5 / (a100 * 0.5), 2 * 1024 * 2 / 25e9
    assert a * n * n >= 10e-6 + k * n  # hidden at n tokens, and n is the smallest such
    assert a * (n - 1) ** 2 < 10e-6 + k * (n - 1)


def test_ring_attention_time_agrees_with_the_planner_and_the_core():
    from lecturekit.llm.context_parallel import ring_attention_time
    from lecturekit.llm.planner import Cluster, cp_step_seconds

    m = preset("llama3-8b").with_(seq=131_072)
    c = Cluster(64)
    for tp, cp in ((1, 8), (8, 8), (2, 32), (1, 64)):
        link = c.intra if tp * cp <= 8 else c.inter
        r = ring_attention_time(m, cp, link, c.flops * 0.5, tp=tp)
        # the link's time, hidden or not, is the planner's CP traffic (the same bytes, α)
        assert r.step_traffic == pytest.approx(cp_step_seconds(m, c, tp, cp))
        # each block: half of 4 (s/cp)^2 (h/tp) FLOPs (causal, load-balanced)
        assert r.compute == pytest.approx(2 * (131_072 // cp) ** 2 * 4096 / tp / (c.flops * 0.5))
        assert r.lower_bound <= r.forward <= r.serial
        assert r.hidden == (r.exposed_forward == 0)
        if cp <= 8:  # the forward on the core, c and t in whole units (small rings: cheap)
            run = r.schedule(units=10)
            cu = max(r.compute, r.transfer) / 10
            c_u, t_u = max(1, round(r.compute / cu)), max(1, round(r.transfer / cu))
            assert run.step_time == c_u + (cp - 1) * max(c_u, t_u)
    # 128K over cp = 64 across nodes: blocks of 2048 tokens are too small to hide the ring
    slow = ring_attention_time(m, 64, c.inter, c.flops * 0.5)
    assert not slow.hidden and slow.step_exposed > 0
    assert slow.step_exposed == pytest.approx(3 * 63 * (slow.transfer - slow.compute))


def test_planner_cp_term_is_the_exposed_ring():
    from lecturekit.llm.planner import Cluster, cp_step_seconds, plan

    m = preset("llama3-8b")  # 8192 tokens: small blocks; cp x tp > 8 crosses InfiniBand
    c = Cluster(64)
    plans = plan(m, c, cp_options=(2, 8), tp_options=[4, 8], pp_options=[1], zero_stages=(1,))
    assert {p.cp for p in plans} == {2, 8}
    exposed = 0
    for p in plans:
        full = cp_step_seconds(m, c, p.tp, p.cp) * m.layers * p.micro_batches
        assert p.cp_comm + p.cp_hidden == pytest.approx(full)  # exposed + hidden = traffic
        assert p.cp_comm < full
        exposed += p.cp_comm > 0
    assert exposed  # tp 8 x cp 8: 1024-token blocks over InfiniBand are not hidden
    uly = plan(m, c, cp_options=(2,), cp_kind="ulysses", tp_options=[4], pp_options=[1])
    for p in uly:  # Ulysses' all-to-alls are waited for: all exposed
        assert p.cp_hidden == 0
        assert p.cp_comm == pytest.approx(
            cp_step_seconds(m, c, 4, 2, "ulysses") * m.layers * p.micro_batches
        )


# -- the rank layout's text view in 5D (Megatron-LM's tp-cp-ep-dp-pp) -----------------------------


def test_rank_layout_text_5d_sixteen_gpus_by_hand():
    """tp = 2, cp = 2, dp = 4, pp = 1, ep = 4 on two nodes of 8: rank = (2 d + c) 2 + t; the
    expert groups take one GPU of each (data, context) pair in order: [0, 2, 4, 6], ..."""
    from lecturekit.llm.planner import megatron_groups, rank_layout

    lay = rank_layout(dp=4, pp=1, tp=2, gpus_per_node=8, cp=2, ep=4)
    assert lay.world_size == 16
    assert [lay.context_of(r) for r in range(8)] == [0, 0, 1, 1, 0, 0, 1, 1]
    assert [lay.expert_of(r) for r in (0, 2, 4, 6, 1, 9, 15)] == [0, 1, 2, 3, 0, 0, 3]
    assert lay.all_groups() == megatron_groups(tp=2, cp=2, dp=4, pp=1, ep=4)
    for other in (lay, rank_layout(2, 2, 2, 4, cp=3, ep=6), rank_layout(4, 1, 1, 8, cp=2, ep=2)):
        for g in other.groups("expert"):  # the closed form agrees with Megatron-LM's groups
            assert [other.expert_of(r) for r in g] == list(range(other.ep))
        for g in other.groups("context"):
            assert [other.context_of(r) for r in g] == list(range(other.cp))
    block = (
        "data-parallel replica {d}:\n"
        "          context 0                       context 1\n"
        "          tensor 0        tensor 1        tensor 0        tensor 1\n"
        "stage 0   GPU {a:>2} (n{n}) e{e}  GPU {b:>2} (n{n}) e{e}  "
        "GPU {c:>2} (n{n}) e{f}  GPU {g:>2} (n{n}) e{f}"
    )
    want = [
        block.format(d=0, a=0, b=1, c=2, g=3, n=0, e=0, f=1),
        block.format(d=1, a=4, b=5, c=6, g=7, n=0, e=2, f=3),
        block.format(d=2, a=8, b=9, c=10, g=11, n=1, e=0, f=1),
        block.format(d=3, a=12, b=13, c=14, g=15, n=1, e=2, f=3),
        "expert-parallel groups (ep = 4): [0, 2, 4, 6] [1, 3, 5, 7] [8, 10, 12, 14] "
        "[9, 11, 13, 15]",
        "e<i>: the i-th 1/4 of every MoE layer's experts; expert data-parallel size "
        "dp x cp / ep = 2",
    ]
    assert lay.text() == "\n".join(want)
    # context parallelism alone: no expert column, the context header over the tensor columns
    cp_only = rank_layout(dp=1, pp=2, tp=2, gpus_per_node=4, cp=2).text().splitlines()
    assert cp_only[1].split() == ["context", "0", "context", "1"]
    assert cp_only[3].split()[:5] == ["stage", "0", "GPU", "0", "(n0)"]
    assert cp_only[4].split()[-2:] == ["7", "(n1)"] and " e" not in "\n".join(cp_only)


def test_rank_layout_3d_text_unchanged_and_bad_5d_input():
    from lecturekit.llm.planner import rank_layout

    lay = rank_layout(2, 4, 4, gpus_per_node=4, cp=1, ep=1)
    assert lay.text() == rank_layout(2, 4, 4, gpus_per_node=4).text()
    assert lay.text().splitlines()[:3] == [
        "data-parallel replica 0:",
        "          tensor 0      tensor 1      tensor 2      tensor 3",
        "stage 0   GPU  0 (n0)   GPU  1 (n0)   GPU  2 (n0)   GPU  3 (n0)",
    ]
    with pytest.raises(ConfigError, match="ep: 3 must divide dp x cp = 4"):
        rank_layout(dp=2, pp=1, tp=2, cp=2, ep=3)
    with pytest.raises(ConfigError, match="cp: must be a positive integer"):
        rank_layout(cp=0)
    with pytest.raises(ConfigError, match="kind: must be one of tensor, context"):
        rank_layout().groups("model")
    with pytest.raises(ConfigError, match="rank: 99"):
        rank_layout(dp=2, pp=1, tp=1, ep=2).expert_of(99)


def test_layout_cli_takes_cp_and_ep(capsys):
    import json

    from lecturekit.cli import main

    args = ["parallel", "layout", "--dp", "4", "--pp", "1", "--tp", "2", "--gpus-per-node", "8"]
    assert main([*args, "--cp", "2", "--ep", "4"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("dp=4 x pp=1 x tp=2 x cp=2 = 16 GPUs, ep=4, 8 per node")
    assert "GPU  6 (n0) e3" in out and "expert-parallel groups (ep = 4)" in out
    assert main([*args, "--cp", "2", "--ep", "4", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert (d["cp"], d["ep"]) == (2, 4) and d["groups"]["expert"][0] == [0, 2, 4, 6]
    assert d["ranks"][6] == {"rank": 6, "dp": 1, "pp": 0, "tp": 0, "node": 0, "cp": 1, "ep": 3}
    assert main([*args, "--cp", "2", "--ep", "3"]) != 0
    assert "ep: 3 must divide dp x cp = 8" in capsys.readouterr().err
