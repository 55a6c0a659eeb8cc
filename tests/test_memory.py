"""Training memory (chapter 8): the lecture's GPT-3 tables, parameter counts, activations, ZeRO."""

import math
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lecturekit.errors import ConfigError
from lecturekit.llm import hardware
from lecturekit.llm.activations import (
    korthikanti_layer_bytes,
    layer_activation_bytes,
    layer_saved_tensors,
    lecture_activation_bytes,
)
from lecturekit.llm.config import (
    PRECISIONS,
    PRESETS,
    ModelConfig,
    ParallelConfig,
    precision,
    preset,
)
from lecturekit.llm.memory import (
    GB,
    GIB,
    LECTURE_SLIDE,
    format_bytes,
    lecture_table,
    memory_report,
    model_state_bytes,
    technique_effects,
)
from lecturekit.llm.params import (
    active_parameter_count,
    lecture_parameter_count,
    parameter_breakdown,
    parameter_count,
    stage_parameters,
)

GPT3 = PRESETS["gpt3"]
LECTURE = PRECISIONS["lecture"]


# --- the lecture's GPT-3 table --------------------------------------------------------------


def test_gpt3_preset_is_the_lectures_table():
    assert (GPT3.h, GPT3.s, GPT3.L, GPT3.a, GPT3.b, GPT3.v) == (12288, 2048, 96, 96, 128, 50000)


def test_gpt3_parameters_exact():
    assert lecture_parameter_count(GPT3) == 174_601_089_024
    assert parameter_count(GPT3) == 174_601_089_024


def test_gpt3_lecture_table_figures():
    rows = {r["consumer"]: r for r in lecture_table("gpt3")}
    assert round(rows["params+grads"]["GiB"], 1) == 650.4
    assert round(rows["optimizer"]["GiB"], 1) == 1951.3
    assert round(rows["activations"]["GiB"], 1) == 32895.8
    assert round(rows["total"]["GiB"], 1) == 35497.6
    # the slide's "GB" are GiB: in GB (10^9) the figures would be 698 / 2095 / 35322
    assert round(rows["params+grads"]["GB"]) == 698
    assert rows["activations"]["slide"] == LECTURE_SLIDE["activations"] == 32895


def test_gpt3_gpus_by_memory_alone():
    report = memory_report("gpt3")
    assert report.gpus_needed("A100-80GB") == 444
    assert report.gpus_needed("A100-40GB") == 888
    # the slide's 440/880 rounds 443.7 / 887.4 down, although it says "at least"
    assert report.job_bytes / (80 * GIB) == pytest.approx(443.72, abs=0.01)


def test_calculator_reproduces_the_slide_formulas():
    """The general calculator with the lecture's precision gives the slide's bytes exactly."""
    report = memory_report("gpt3", ParallelConfig(), LECTURE)
    psi = lecture_parameter_count(GPT3)
    assert report.parameters + report.gradients == 4 * psi  # 2 + 2 bytes (16-bit)
    assert report.optimizer == 12 * psi  # fp32 master 4 + Adam m 4 + v 4
    assert report.activations == lecture_activation_bytes(GPT3)
    assert report.total == sum(r["bytes"] for r in lecture_table()[:3])


def test_slide_times_4b_would_be_four_times_too_big():
    with_4b = 4 * lecture_activation_bytes(GPT3)
    assert round(with_4b / GIB, 1) == 131583.3
    assert round(lecture_activation_bytes(GPT3) / GIB) == 32896  # slide: 32895 (truncated)


# --- parameter counts -----------------------------------------------------------------------

gpt_configs = st.builds(
    lambda d, a, s, L, v, b: ModelConfig(
        hidden=d * a, seq=s, layers=L, heads=a, batch=b, vocab=v, final_norm_bias=False
    ),
    d=st.integers(1, 64),
    a=st.integers(1, 16),
    s=st.integers(1, 4096),
    L=st.integers(1, 100),
    v=st.integers(1, 100_000),
    b=st.integers(1, 64),
)


@given(gpt_configs)
@settings(max_examples=200, deadline=None)
def test_general_count_reduces_to_closed_form(model):
    assert model.is_lecture_gpt
    assert parameter_count(model) == lecture_parameter_count(model)
    # a real GPT-2 final LayerNorm has a bias too: h more than the lecture's formula
    assert parameter_count(model.with_(final_norm_bias=True)) == lecture_parameter_count(model) + (
        model.hidden
    )


#: exact counts of the released checkpoints (Hugging Face configs); tolerance: exact
PUBLISHED = {
    "gpt2": 124_439_808,
    "gpt2-xl": 1_557_611_200,
    "llama2-7b": 6_738_415_616,
    "llama2-70b": 68_976_648_192,
    "llama3-8b": 8_030_261_248,
    "llama3-70b": 70_553_706_496,
    "mixtral-8x7b": 46_702_792_704,
}


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_published_parameter_counts(name):
    assert parameter_count(PRESETS[name]) == PUBLISHED[name]


def test_headline_sizes_within_two_percent():
    headline = {"llama2-7b": 6.7e9, "llama3-8b": 8.0e9, "llama3-70b": 70.6e9, "gpt2-xl": 1.5e9}
    for name, n in headline.items():
        assert parameter_count(PRESETS[name]) == pytest.approx(n, rel=0.04)
    # Mixtral: "46.7B total, 12.9B active" (Jiang et al. 2024)
    assert active_parameter_count(PRESETS["mixtral-8x7b"]) == pytest.approx(12.9e9, rel=0.01)


def test_variants_change_the_count_as_expected():
    base = ModelConfig(1024, 512, 4, 16, 1, 1000, bias=False)
    gqa = base.with_(kv_heads=4)
    # K and V shrink from h x h to h x h/4 in every layer
    assert parameter_count(base) - parameter_count(gqa) == 4 * 2 * (1024 * 1024 - 1024 * 256)
    untied = base.with_(tied_embeddings=False)
    assert parameter_count(untied) - parameter_count(base) == 1000 * 1024
    rotary = base.with_(position="rotary")
    assert parameter_count(base) - parameter_count(rotary) == 512 * 1024
    moe = base.with_(experts=8, top_k=2)
    mlp = parameter_breakdown(base)["mlp"]
    assert parameter_breakdown(moe)["mlp"] == 8 * mlp
    assert parameter_breakdown(moe)["router"] == 4 * 1024 * 8
    assert active_parameter_count(moe) == parameter_count(moe) - 6 * mlp


def test_stage_parameters_sum_to_the_model():
    model = PRESETS["llama2-7b"]
    par = ParallelConfig(pp=4)
    assert sum(stage_parameters(model, par, i) for i in range(4)) == parameter_count(model)
    # tied embeddings and pp > 1: the last stage keeps a copy of the word embeddings
    par = ParallelConfig(pp=8)
    total = sum(stage_parameters(GPT3, par, i) for i in range(8))
    assert total == parameter_count(GPT3) + GPT3.vocab * GPT3.hidden


def test_tensor_parallel_shards_weights_and_replicates_norms():
    model = PRESETS["gpt2"]
    h, L, v, s = model.hidden, model.layers, model.vocab, model.seq
    four = stage_parameters(model, ParallelConfig(tp=4))
    # per layer: weights and Q/K/V/fc1 biases sharded (12h^2 + 7h), output/fc2 biases and two
    # LayerNorms replicated (6h); vocabulary padded as Megatron pads it, to a multiple of 128 x 4
    # (50,257 -> 50,688), and split into 12,672 rows; positions and final norm copied
    assert four == L * ((12 * h * h + 7 * h) // 4 + 6 * h) + 50688 // 4 * h + s * h + 2 * h
    assert 50688 % (128 * 4) == 0 and 50688 - 128 * 4 < v <= 50688
    assert stage_parameters(model, ParallelConfig(tp=1)) == parameter_count(model)


# --- activations -----------------------------------------------------------------------------


def named_tensors_gpt(s, b, h, a, t=1, sp=False):
    """The test's own list of what a GPT layer saves (Korthikanti et al. 2022, sec. 4.1)."""
    r = t if sp else 1  # outside the tensor-parallel region
    return {
        "ln1 in": 2 * s * b * h // r,
        "qkv in": 2 * s * b * h // r,
        "q": 2 * s * b * h // t,
        "k": 2 * s * b * h // t,
        "softmax": 2 * a * s * s * b // t,
        "softmax dropout mask": a * s * s * b // t,
        "softmax dropout out": 2 * a * s * s * b // t,
        "v": 2 * s * b * h // t,
        "proj in": 2 * s * b * h // t,
        "attn dropout mask": s * b * h // r,
        "ln2 in": 2 * s * b * h // r,
        "fc1 in": 2 * s * b * h // r,
        "gelu in": 8 * s * b * h // t,
        "fc2 in": 8 * s * b * h // t,
        "mlp dropout mask": s * b * h // r,
    }


def test_named_tensors_equal_34_plus_5as_over_h():
    s, b, h, a = 2048, 1, 12288, 96
    assert sum(named_tensors_gpt(s, b, h, a).values()) == s * b * h * 34 + 5 * a * s * s * b


tp_configs = st.tuples(
    st.integers(1, 8),  # head dim
    st.sampled_from([1, 2, 4, 8]),  # t
    st.integers(1, 4),  # heads per GPU
    st.integers(1, 512),  # s
    st.integers(1, 8),  # b
    st.booleans(),  # sp
)


@given(tp_configs)
@settings(max_examples=200, deadline=None)
def test_activations_three_ways_agree(cfg):
    d, t, ha, s, b, sp = cfg
    a = t * ha
    h = a * d
    model = ModelConfig(h, s, 2, a, b, 100)
    par = ParallelConfig(tp=t, sp=sp)
    ours = layer_activation_bytes(model, par, LECTURE)
    assert ours == sum(named_tensors_gpt(s, b, h, a, t, sp).values())
    assert ours == korthikanti_layer_bytes(s, b, h, a, t, sp)


@given(gpt_configs)
@settings(max_examples=100, deadline=None)
def test_whole_model_activations_match_slide_formula(model):
    assert memory_report(model).activations == lecture_activation_bytes(model)


def test_reduction_factors_from_the_paper():
    s, b, h, a, t = 2048, 1, 12288, 96, 8
    model = GPT3.with_(batch=b)
    sbh = s * b * h

    def layer(**kw):
        return layer_activation_bytes(model, ParallelConfig(**kw), LECTURE)

    base = layer()
    assert base == sbh * 34 + 5 * a * s * s * b
    assert layer(tp=t) * t == sbh * (10 * t + 24) + 5 * a * s * s * b
    assert layer(tp=t, sp=True) * t == base  # sequence parallel: exactly 1/t
    assert layer(recompute="selective") == 34 * sbh  # drops 5as^2b
    assert layer(tp=t, sp=True, recompute="selective") * t == 34 * sbh
    assert layer(recompute="full") == 2 * sbh
    assert layer(tp=t, sp=True, recompute="full") * t == 2 * sbh
    # flash attention: no s^2 term; keeps the fp32 log-sum-exp per head and token
    assert layer(flash=True) == 34 * sbh + 4 * a * s * b
    assert korthikanti_layer_bytes(s, b, h, a, t, sp=True, recompute="selective") * t == 34 * sbh


def test_variants_in_the_saved_tensor_list():
    llama = PRESETS["llama3-8b"].with_(batch=1, seq=1024)
    names = [x.name for x in layer_saved_tensors(llama)]
    assert "SiLU output" in names and not any("dropout" in n for n in names)
    k = next(x for x in layer_saved_tensors(llama) if x.name == "K")
    assert k.bytes == 2 * 1024 * 1024  # 8 KV heads x 128 dims = 1024 wide, 2 bytes
    moe = PRESETS["mixtral-8x7b"].with_(batch=1, seq=1024)
    dense = moe.with_(experts=1, top_k=1)
    assert layer_activation_bytes(moe) > layer_activation_bytes(dense)


def test_fp32_activations_double_all_but_masks_and_logits():
    tiny = PRESETS["tiny"]
    lect = memory_report(tiny, precision="lecture").activations
    fp32 = memory_report(tiny, precision=precision("fp32")).activations
    assert lect < fp32 < 2 * lect


# --- ZeRO, offload, data / pipeline parallel --------------------------------------------------


@pytest.mark.parametrize("nd", [1, 2, 8, 64, 1024])
@pytest.mark.parametrize("prec", ["lecture", "fp32"])
def test_zero3_is_bytes_per_param_over_nd(nd, prec):
    p = PRECISIONS[prec]
    psi = 7_000_000_000 // 1024 * 1024
    st3 = model_state_bytes(psi, p, zero=3, dp=nd)
    assert (
        st3["parameters"] + st3["gradients"] + st3["optimizer"]
        == (p.param_bytes + p.grad_bytes + p.K) * psi // nd
    )
    if prec == "lecture":
        assert st3["optimizer"] == 12 * psi // nd  # K = 12 in the ZeRO paper
    # the ZeRO paper's stage 1 and 2 rows
    st1 = model_state_bytes(psi, p, zero=1, dp=nd)
    st2 = model_state_bytes(psi, p, zero=2, dp=nd)
    assert sum(st1.values()) == (p.param_bytes + p.grad_bytes) * psi + p.K * psi // nd
    assert sum(st2.values()) == p.param_bytes * psi + (p.grad_bytes + p.K) * psi // nd


@given(st.integers(1, 10**12), st.integers(1, 4096))
@settings(max_examples=200, deadline=None)
def test_zero_stages_monotone_and_dp1_is_no_zero(psi, nd):
    totals = [sum(model_state_bytes(psi, LECTURE, z, nd).values()) for z in range(4)]
    assert totals == sorted(totals, reverse=True)
    one = [model_state_bytes(psi, LECTURE, z, 1) for z in range(4)]
    assert all(x == one[0] for x in one)


def test_offload_moves_optimizer_and_gradient_partition_to_cpu():
    on = memory_report("gpt2", ParallelConfig(dp=8, zero=1, offload=True))
    off = memory_report("gpt2", ParallelConfig(dp=8, zero=1))
    z2 = memory_report("gpt2", ParallelConfig(dp=8, zero=2))
    assert on.optimizer == 0 and on.gradients == 0
    assert on.cpu == off.optimizer + z2.gradients  # the ZeRO-2 partition of the gradients
    assert on.total == off.total - off.optimizer - off.gradients
    # ZeRO-Offload is built on ZeRO-2: asking for stage 2 (or 3) offloads the same partition once
    for z in (2, 3):
        again = memory_report("gpt2", ParallelConfig(dp=8, zero=z, offload=True))
        assert again.cpu == on.cpu and again.gradients == again.optimizer == 0


def test_data_parallel_splits_batch_and_zero_does_not_touch_activations():
    base = memory_report("gpt3")
    dp = memory_report("gpt3", ParallelConfig(dp=64))
    z3 = memory_report("gpt3", ParallelConfig(dp=64, zero=3))
    assert dp.activations * 64 == base.activations
    assert z3.activations == dp.activations
    assert z3.total < dp.total


def test_pipeline_first_stage_holds_p_micro_batches():
    model = PRESETS["gpt2"].with_(batch=64)
    p, m = 4, 16
    rep = memory_report(model, ParallelConfig(pp=p, micro_batches=m))
    assert [s.in_flight for s in rep.stages] == [4, 3, 2, 1]
    assert rep.peak.stage == 0
    # Korthikanti: the first stage stores L/p layers x p micro-batches = L layers' worth
    per_layer = layer_activation_bytes(model, micro_batch=64 // m)
    assert rep.stages[0].activations == model.layers * per_layer + 4 * model.seq * 4 * model.hidden
    gpipe = memory_report(model, ParallelConfig(pp=p, micro_batches=m, schedule="gpipe"))
    assert all(s.in_flight == m for s in gpipe.stages)
    assert gpipe.stages[0].activations == (m // p) * rep.stages[0].activations
    assert gpipe.peak.stage == p - 1  # m micro-batches of fp32 logits


def test_technique_effects_all_save_memory_except_fp32():
    rows = technique_effects("gpt3")
    base = dict(rows)["lecture: 16-bit mixed precision"]
    for label, rep in rows:
        if label.startswith("fp32"):
            assert rep.total > base.total
        elif not label.startswith("lecture"):
            assert rep.total < base.total, label


# --- validation ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make, field",
    [
        (lambda: ModelConfig(100, 8, 2, 3, 1, 10), "heads"),
        (lambda: ModelConfig(96, 8, 2, 12, 1, 10, kv_heads=5), "kv_heads"),
        (lambda: ModelConfig(96, 8, 2, 12, 1, 10, experts=4, top_k=5), "top_k"),
        (lambda: ModelConfig(0, 8, 2, 12, 1, 10), "hidden"),
        (lambda: ModelConfig(96, -8, 2, 12, 1, 10), "seq"),
        (lambda: ModelConfig(96, 8, 2.5, 12, 1, 10), "layers"),
        (lambda: ModelConfig(96, 8, 2, 12, True, 10), "batch"),
        (lambda: ModelConfig(96, 8, 2, 12, 1, 10, mlp="relu"), "mlp"),
        (lambda: GPT3.with_(color="red"), "color"),
        (lambda: ParallelConfig(zero=4), "zero"),
        (lambda: ParallelConfig(dp=0), "dp"),
        (lambda: ParallelConfig(recompute="some"), "recompute"),
        (lambda: memory_report("gpt3", ParallelConfig(tp=5)), "tp"),
        (lambda: memory_report("llama3-8b", ParallelConfig(tp=16)), "tp"),
        (lambda: memory_report("gpt3", ParallelConfig(pp=5)), "pp"),
        (lambda: memory_report("gpt3", ParallelConfig(dp=3)), "dp"),
        (lambda: memory_report("gpt3", ParallelConfig(dp=2, micro_batches=3)), "micro_batches"),
        (lambda: memory_report("gpt3", precision="int4"), "precision"),
        (lambda: precision("bf16", "lion"), "optimizer"),
        (lambda: precision("lecture", "sgd"), "optimizer"),
        (lambda: preset("gpt5"), "preset"),
        (lambda: hardware.gpu("B200"), "gpu"),
        (lambda: model_state_bytes(-1, LECTURE), "parameters"),
        (lambda: format_bytes(1, "KB"), "unit"),
    ],
)
def test_errors_name_the_field(make, field):
    with pytest.raises(ConfigError) as info:
        make()
    assert str(info.value).startswith(field + ":") or f" {field}" in str(info.value)


def test_tp_error_lists_valid_sizes():
    with pytest.raises(ConfigError, match=r"tp: .*96.*Divisors of 96: 1, 2, 3, 4, 6, 8"):
        memory_report("gpt3", ParallelConfig(tp=5))


# --- units and hardware -------------------------------------------------------------------


def test_units_are_labelled_and_distinct():
    assert format_bytes(2**30) == "1.0 GiB"
    assert format_bytes(2**30, "GB", 3) == "1.074 GB"
    text = memory_report("gpt3").table()
    assert "GiB (2^30 B)" in text and "GB (10^9 B)" in text
    assert "35,497.6" in text and "38,115.2" in text and ">= 444 x A100-80GB" in text
    assert GIB != GB


def test_gpu_table_matches_the_lecture():
    g = hardware.GPUS
    # the slide says 2023; the H100 launched in 2022 (announced March, shipping from autumn)
    assert (g["H100-80GB"].year, g["H100-80GB"].price_usd) == (2022, 36550)
    assert (g["A100-40GB"].year, g["A100-40GB"].price_usd) == (2020, 9745)
    assert g["A100-80GB"].price_usd is None
    assert (g["V100-16GB"].year, g["V100-16GB"].price_usd) == (2017, 4392)
    assert (g["P100-16GB"].year, g["P100-16GB"].price_usd) == (2016, 557)
    assert g["A100-80GB"].memory_bytes == 80 * GIB
    for gpu in g.values():
        assert gpu.peak_fp16_flops > gpu.peak_fp32_flops > 0
        assert gpu.mem_bandwidth_bytes_per_s > 0
    assert hardware.gpu("h100") is g["H100-80GB"]
    with pytest.raises(ConfigError, match="A100-40GB, A100-80GB"):
        hardware.gpu("A100")


def test_gpu_cost():
    assert hardware.gpu_cost_usd(memory_report("gpt3").job_bytes, "A100-40GB") == 888 * 9745
    assert hardware.gpu_cost_usd(1, "A100-80GB") is None


def test_importing_the_calculator_stays_light():
    code = (
        "import sys, lecturekit.llm.memory, lecturekit.viz.memory, lecturekit.widgets.memory;"
        "print('matplotlib' in sys.modules, 'ipywidgets' in sys.modules, 'torch' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False", "False"]


def test_vocabulary_is_padded_as_megatron_pads_it():
    from lecturekit.llm.params import padded_vocab

    # Megatron-LM's _vocab_size_with_padding: a multiple of make_vocab_size_divisible_by (128) x tp
    assert padded_vocab(50257) == 50304  # the GPT-2/3 vocabulary in Megatron's logs
    assert padded_vocab(50257, 8) == 51200  # 6,400 rows per GPU, not ceil(50257/8) = 6,283
    assert padded_vocab(51200, 8) == 51200
    for v in (1, 127, 128, 129, 32000, 50257, 250880):
        for t in (1, 2, 4, 8, 16):
            pv = padded_vocab(v, t)
            assert pv % (128 * t) == 0 and v <= pv < v + 128 * t
    with pytest.raises(ConfigError, match="tp"):
        padded_vocab(50257, 0)
    # tp = 1 keeps the model's own vocabulary (the lecture's formula counts hv)
    gpt3 = PRESETS["gpt3"]
    assert stage_parameters(gpt3, ParallelConfig()) == parameter_count(gpt3)


def test_zero_offload_moves_gradients_and_optimizer_to_cpu():
    from lecturekit.llm.config import PRECISIONS

    lec = PRECISIONS["lecture"]
    psi = 10**9
    # one GPU: only the 16-bit weights stay; 2 + 12 bytes per parameter go to the host
    one = model_state_bytes(psi, lec, offload=True)
    assert one == {"parameters": 2 * psi, "gradients": 0, "optimizer": 0, "cpu": 14 * psi}
    # ZeRO-Offload on 64 ranks (built on ZeRO-2): each host holds its partition of both
    part = model_state_bytes(psi, lec, zero=1, dp=64, offload=True)
    assert part["gradients"] == part["optimizer"] == 0
    assert part["cpu"] == -(-2 * psi // 64) + -(-12 * psi // 64)
    # GPT-3 on 64 replicas: 325 GiB of gradients no longer on the GPU
    on = memory_report("gpt3", ParallelConfig(dp=64, zero=1, offload=True))
    off = memory_report("gpt3", ParallelConfig(dp=64, zero=1))
    assert round(off.gradients / GIB) == 325 and on.gradients == 0
    assert on.total == off.total - off.gradients - off.optimizer


def test_technique_figure_on_a_log_axis_shows_the_a100_line():
    # chapter 08's figure of the techniques: from 63,158 GiB down to 555 GiB on a linear axis the
    # A100's 80 GiB line is invisible; on the chapter's log axis it sits inside the plot
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from lecturekit.llm.memory import technique_effects
    from lecturekit.viz.memory import plot_memory

    rows = technique_effects("gpt3", dp=64, tp=8, pp=8)
    ax = plot_memory(rows, gpu="A100-80GB", log=True)
    ax.set_xlim(1, 2e5)
    assert ax.get_xscale() == "log"
    lines = [ln for ln in ax.get_lines() if ln.get_linestyle() == "--"]
    assert len(lines) == 1 and lines[0].get_xdata()[0] == 80  # the A100-80GB, in GiB
    lo, hi = ax.get_xlim()
    # on a log axis 80 GiB sits a third of the way across, not at 0.1% of it
    frac = (math.log10(80) - math.log10(lo)) / (math.log10(hi) - math.log10(lo))
    assert 0.2 < frac < 0.6
    assert max(r.total for _, r in rows) / GIB > 60_000 and 80 / 70_000 < 0.002
    plt.close(ax.figure)
