"""The training-memory explorer and stepper, headless: build them, move controls or step, read
what they show."""

import matplotlib
import pytest

pytest.importorskip("ipywidgets")
matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from lecturekit.errors import ConfigError  # noqa: E402
from lecturekit.llm import hardware  # noqa: E402
from lecturekit.llm.config import PRECISIONS, PRESETS, ParallelConfig, precision  # noqa: E402
from lecturekit.llm.memory import CONSUMERS, GIB, memory_report, technique_effects  # noqa: E402
from lecturekit.widgets import memory as widget_module  # noqa: E402
from lecturekit.widgets import memory_ladder as ladder_module  # noqa: E402
from lecturekit.widgets.memory import memory_explorer  # noqa: E402
from lecturekit.widgets.memory_ladder import (  # noqa: E402
    gib,
    ladder_degrees,
    memory_ladder,
    memory_stepper,
)


def test_starts_with_the_lectures_gpt3_numbers():
    ex = memory_explorer("gpt3")
    assert ex.error.value == ""
    assert "174,601,089,024" in ex.summary.value
    assert "35,497.6" in ex.summary.value and "444 × A100-80GB" in ex.summary.value
    assert ex.image.value[:4] == b"\x89PNG"


def test_controls_update_everything():
    ex = memory_explorer("gpt3")
    before_png, before_total = ex.image.value, ex.report.total
    ex.controls["tp"].value = 8
    ex.controls["sp"].value = True
    assert ex.report.parallel.tp == 8 and ex.report.parallel.sp
    assert ex.report.total < before_total
    assert ex.image.value != before_png
    ex.controls["seq"].value = 8192
    ex.controls["dp"].value = 64
    ex.controls["zero"].value = 3
    ex.controls["recompute"].value = "selective"
    ex.controls["flash"].value = True
    assert ex.report.model.seq == 8192 and ex.report.parallel.zero == 3
    assert f"{ex.report.total / 2**30:,.1f}" in ex.summary.value
    ex.controls["gpu"].value = "H100-80GB"
    assert "H100-80GB" in ex.summary.value and "$" in ex.summary.value


def test_preset_switch_takes_its_shape():
    ex = memory_explorer("gpt3")
    ex.controls["preset"].value = "llama3-8b"
    assert ex.report.model.name == "llama3-8b" and ex.report.model.seq == 8192
    assert ex.controls["seq"].value == 8192


def test_bad_combination_is_explained_not_raised():
    ex = memory_explorer("llama3-8b")
    good = ex.report
    ex.controls["tp"].value = 3  # 32 heads
    assert "tp: tensor-parallel size 3 does not divide heads (32)" in ex.error.value
    assert ex.report is good  # figures stay those of the last valid settings
    ex.controls["tp"].value = 4
    assert ex.error.value == "" and ex.report.parallel.tp == 4
    ex.controls["dp"].value = 1024  # batch 8
    assert "dp: data-parallel size 1024 does not divide batch" in ex.error.value


def test_unexpected_failure_stays_inside_the_widget(monkeypatch):
    ex = memory_explorer("gpt2")

    def boom(*args, **kwargs):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(widget_module, "memory_report", boom)
    ex.controls["batch"].value = 16
    assert "internal error (ZeroDivisionError)" in ex.error.value


# -- the memory stepper: the chapter's ladder, one technique per step ---------------------------

CHAPTER_SEQUENCE = [
    "fp32 Adam, 1 GPU",
    "+ mixed precision",
    "+ data parallel ×64",
    "+ ZeRO-1",
    "+ ZeRO-2",
    "+ ZeRO-3",
    "+ tensor parallel ×8",
    "+ sequence parallel",
    "+ selective recompute",
    "+ flash attention",
    "full recompute",
    "+ pipeline ×8 (m=2)",
    "+ CPU offload",
]


@pytest.fixture(scope="module")
def gpt3_stepper():
    return memory_stepper("gpt3", gpu="A100-80GB")


def test_default_ladder_is_the_chapters_sequence_cumulatively():
    ladder = memory_ladder("gpt3")
    assert [s.label for s in ladder] == CHAPTER_SEQUENCE
    assert ladder_degrees("gpt3") == {"dp": 64, "tp": 8, "pp": 8, "micro_batches": 2}
    assert ladder[0].precision == PRECISIONS["fp32"]
    assert all(s.precision == PRECISIONS["lecture"] for s in ladder[1:])
    last = ladder[-1].parallel
    assert (last.dp, last.tp, last.pp, last.micro_batches) == (64, 8, 8, 2)
    assert (last.zero, last.sp, last.recompute, last.flash, last.offload) == (
        3,
        True,
        "full",
        True,
        True,
    )
    # each step keeps what the step before added (recomputation: full replaces selective)
    for before, after in zip(ladder, ladder[1:], strict=False):
        b, a = before.parallel, after.parallel
        assert a.dp >= b.dp and a.tp >= b.tp and a.pp >= b.pp and a.zero >= b.zero
        assert (a.sp, a.flash, a.offload) >= (b.sp, b.flash, b.offload)


def test_every_step_is_memory_report_of_its_config():
    for step in memory_ladder("gpt3"):
        assert step.report == memory_report("gpt3", step.parallel, step.precision)
    # the steps that are one technique away from the lecture's baseline are the chapter's table
    ladder = {s.label: s.report for s in memory_ladder("gpt3")}
    table = dict(technique_effects("gpt3", dp=64))
    pairs = [
        ("fp32 Adam, 1 GPU", "fp32 (no mixed precision)"),
        ("+ mixed precision", "lecture: 16-bit mixed precision"),
        ("+ data parallel ×64", "data parallel dp=64"),
        ("+ ZeRO-1", "ZeRO-1, dp=64"),
        ("+ ZeRO-2", "ZeRO-2, dp=64"),
        ("+ ZeRO-3", "ZeRO-3, dp=64"),
    ]
    for ours, theirs in pairs:
        assert ladder[ours].bytes == table[theirs].bytes, ours


def test_captions_agree_with_memory_report(gpt3_stepper):
    s = gpt3_stepper
    ladder = memory_ladder("gpt3")
    assert s.stepper.n_steps == len(ladder) == 13
    a100 = hardware.gpu("A100-80GB")
    for i, step in enumerate(ladder):
        s.index = i
        caption = s.caption.value
        assert s.error.value == ""
        r = memory_report("gpt3", step.parallel, step.precision)  # computed again, independently
        assert caption.startswith(f"<b>step {i + 1} / 13: {step.label}</b>")
        assert f"per GPU: <b>{gib(r.total)} GiB</b>" in caption
        if i:
            prev = ladder[i - 1].report
            assert f"(was {gib(prev.total)} GiB)" in caption
            saved = prev.total - r.total
            assert (f"saves {gib(saved)} GiB" if saved else "no change") in caption
            for name in CONSUMERS:
                if getattr(prev, name) != getattr(r, name):
                    assert f"{name} {gib(getattr(prev, name))} → {gib(getattr(r, name))}" in caption
        else:
            for name in CONSUMERS:
                assert f"{name} {gib(getattr(r, name))}" in caption
        assert ("fits</b> in one A100-80GB" in caption) == (r.total <= a100.memory_bytes)
        assert ("does not fit" in caption) == (not r.fits(a100))
        assert f"{r.parallel.world_size:,} GPU(s)" in caption
        png = [o for o in s.output.outputs if "image/png" in o.get("data", {})]
        assert len(png) == 1
    assert plt.get_fignums() == []  # figures are built without pyplot


def test_the_lectures_numbers_in_the_captions(gpt3_stepper):
    s = gpt3_stepper
    s.index = 1
    assert "<b>35,497.6 GiB</b>" in s.caption.value  # the slide's 650 + 1950 + 32895 (GiB)
    assert "optimizer 1,300.9 → 1,951.3" in s.caption.value  # the fp32 master copy: 12Ψ
    s.index = 3
    assert "<b>1,194.9 GiB</b> (was 3,115.8 GiB): <b>saves 1,920.8 GiB</b>" in s.caption.value
    s.index = 7
    assert "fits</b> in one A100-80GB" in s.caption.value  # the first step that fits
    s.index = 12
    assert "GiB of gradients and optimizer states in CPU memory" in s.caption.value
    assert "cost: gradients out, weights back over PCIe" in s.caption.value
    s.index = 11
    assert "cost: 1F1B bubble 78% = (p-1)/(m+p-1) = 7/9" in s.caption.value
    assert "do the work of 910" in s.caption.value


def test_totals_never_increase_but_a_part_may():
    ladder = memory_ladder("gpt3")
    totals = [s.report.total for s in ladder]
    assert all(b <= a for a, b in zip(totals, totals[1:], strict=False))
    assert totals[0] > 60_000 * GIB and totals[-1] < 1 * GIB
    # mixed precision lowers the total but *adds* the fp32 master weights to the optimizer
    fp32, mixed = ladder[0].report, ladder[1].report
    assert mixed.optimizer > fp32.optimizer and mixed.total < fp32.total
    # after selective recomputation, flash attention has nothing left to save in memory
    assert ladder[9].label == "+ flash attention"
    assert ladder[9].report.total == ladder[8].report.total
    # it fits in one A100-80GB from sequence parallelism on, and not before
    fits = [s.report.fits("A100-80GB") for s in ladder]
    assert fits == [False] * 7 + [True] * 6


def _degrees(model, field, limit):
    """The values of ``field`` up to ``limit`` that the model's shape allows."""
    ok = []
    for d in range(1, limit + 1):
        try:
            ParallelConfig(**{field: d}).check(model)
        except ConfigError:
            continue
        ok.append(d)
    return ok


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_totals_never_increase_for_any_preset_and_degrees(data):
    name = data.draw(st.sampled_from(sorted(PRESETS)), label="preset")
    model = PRESETS[name]
    dp = data.draw(st.sampled_from(_degrees(model, "dp", 64)), label="dp")
    tp = data.draw(st.sampled_from(_degrees(model, "tp", 8)), label="tp")
    pp = data.draw(st.sampled_from(_degrees(model, "pp", 8)), label="pp")
    ladder = memory_ladder(name, dp=dp, tp=tp, pp=pp)
    totals = [s.report.total for s in ladder]
    assert all(b <= a for a, b in zip(totals, totals[1:], strict=False))
    for step in ladder:
        assert step.report == memory_report(model, step.parallel, step.precision)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_gets_a_ladder_that_fits_its_shape(name):
    deg = ladder_degrees(name)
    model = PRESETS[name]
    assert model.batch % deg["dp"] == 0 and model.layers % deg["pp"] == 0
    assert model.heads % deg["tp"] == 0
    s = memory_stepper(name, gpu="H100")
    assert s.error.value == "" and s.stepper.n_steps == len(s.steps) >= 11
    assert "H100-80GB" in s.caption.value


def test_gpt2_xl_takes_the_degrees_its_shape_allows():
    assert ladder_degrees("gpt2-xl") == {"dp": 8, "tp": 5, "pp": 8, "micro_batches": 1}  # 25 heads
    assert ladder_degrees("gpt2")["pp"] == 6  # 12 layers


def test_step_changes_the_caption_and_the_figure():
    s = memory_stepper("gpt3")
    first_caption, first_png = s.caption.value, s.output.outputs
    assert s.index == 0 and s.stepper.back_button.disabled
    s.step()
    assert s.index == 1
    assert s.caption.value != first_caption and s.output.outputs != first_png
    s.stepper.step_button.click()  # the "step ▶" button does the same
    assert s.index == 2 and "data parallel" in s.caption.value
    s.back()
    assert s.index == 1 and "mixed precision" in s.caption.value
    s.index = 99
    assert s.index == 12 and s.stepper.step_button.disabled
    s.step()  # stays on the last step
    assert s.index == 12 and s.error.value == ""
    bundle = s._repr_mimebundle_()
    text = bundle[0]["text/plain"] if isinstance(bundle, tuple) else bundle["text/plain"]
    assert text.startswith("[interactive widget: memory stepper, gpt3, 13 steps")


def test_a_custom_ladder():
    bf16_sgd = precision("bf16", "sgd")
    steps = [
        ("fp32, one GPU", "fp32"),  # (label, precision): no parallelism
        ("bf16 + SGD", ParallelConfig(), bf16_sgd),
        ("+ ZeRO-3 over 8", {"dp": 8, "zero": 3}, bf16_sgd),
        ("+ full recompute", ParallelConfig(dp=8, zero=3, recompute="full"), "bf16"),
    ]
    s = memory_stepper("llama3-8b", gpu="A100-40GB", steps=steps)
    assert s.error.value == "" and s.stepper.n_steps == 4
    assert [st_.label for st_ in s.steps] == [label for label, *_ in steps]
    expected = [
        memory_report("llama3-8b", ParallelConfig(), PRECISIONS["fp32"]),
        memory_report("llama3-8b", ParallelConfig(), bf16_sgd),
        memory_report("llama3-8b", ParallelConfig(dp=8, zero=3), bf16_sgd),
        memory_report("llama3-8b", ParallelConfig(dp=8, zero=3, recompute="full"), "bf16"),
    ]
    assert [st_.report for st_ in s.steps] == expected
    captions = []
    for i, r in enumerate(expected):
        s.index = i
        captions.append(s.caption.value)
        assert f"<b>{gib(r.total)} GiB</b>" in s.caption.value
        assert "A100-40GB (40 GiB)" in s.caption.value
    assert len(set(captions)) == 4
    # a dict of labels works too; a step may add memory, and says so
    up = memory_stepper("gpt2", steps={"bf16": ParallelConfig(), "fp32": "fp32"})
    assert up.error.value == ""
    up.step()
    assert "<b>adds " in up.caption.value


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"preset": "gpt-5"}, "preset: unknown model 'gpt-5'; known: gpt3"),
        ({"gpu": "A100"}, "gpu: unknown GPU 'A100' ('A100' comes as A100-40GB, A100-80GB)"),
        ({"gpu": "TPU"}, "gpu: unknown GPU 'TPU'"),
        (
            {"steps": [("base", ParallelConfig()), ("tp 7", ParallelConfig(tp=7))]},
            "steps[1] ('tp 7'): tp: tensor-parallel size 7 does not divide heads (96)",
        ),
        ({"steps": []}, "steps: the list is empty"),
        ({"steps": "dp=8"}, "steps: expected a list of (label, ParallelConfig) pairs, got str"),
        ({"steps": [ParallelConfig()]}, "steps[0]: expected (label, ParallelConfig)"),
        ({"steps": [("", ParallelConfig())]}, "steps[0]: the label must be a non-empty string"),
        ({"steps": [("x", {"zeros": 3})]}, "steps[0] ('x'): unknown ParallelConfig field(s) zeros"),
        ({"steps": [("x", {"zero": 4})]}, "steps[0] ('x'): zero: ZeRO stage must be 0, 1, 2 or 3"),
        ({"steps": [("x", None, "fp8")]}, "steps[0] ('x'): precision must be one of lecture"),
        ({"steps": [("x", 8)]}, "steps[0] ('x'): expected a ParallelConfig"),
        ({"dp": 3}, "step 3 ('+ data parallel ×3'): dp: data-parallel size 3 does not divide"),
        ({"tp": 0}, "tp: must be a positive integer, got 0"),
        ({"steps": [("x", None)], "dp": 8}, "dp, tp, pp: they shape the default ladder"),
    ],
)
def test_bad_input_is_shown_not_raised(kwargs, message):
    s = memory_stepper(**kwargs)  # never raises
    assert message in s.error.value.replace("&#x27;", "'")
    assert "color:#c00000" in s.error.value  # the Stepper's red error area
    assert s.steps == [] and s.stepper.n_steps == 1
    s.step()  # nothing to step to; still no exception
    assert s.index == 0


def test_memory_ladder_raises_config_error_for_scripts():
    with pytest.raises(ConfigError, match=r"steps\[0\] \('x'\): tp: tensor-parallel size 5"):
        memory_ladder("gpt3", [("x", ParallelConfig(tp=5))])
    with pytest.raises(ConfigError, match="preset: unknown model"):
        memory_ladder("nope")


def test_unexpected_failure_in_the_stepper_stays_inside(monkeypatch):
    def boom(*args, **kwargs):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(ladder_module, "memory_report", boom)
    s = memory_stepper("gpt2")
    assert "unexpected error (ZeroDivisionError)" in s.error.value
    assert s.steps == []
