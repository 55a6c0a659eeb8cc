"""3D-parallel planning: the lecture's 2 x 4 x 4 layout, the 34-day estimate, the layout search."""

import pytest

from lecturekit.errors import ConfigError
from lecturekit.llm.config import ParallelConfig, preset
from lecturekit.llm.memory import memory_report
from lecturekit.llm.params import parameter_count
from lecturekit.llm.pipeline_parallel import pipeline_schedule
from lecturekit.llm.planner import (
    GPT3_ESTIMATE,
    Cluster,
    days_to_train,
    plan,
    plan_table,
    rank_layout,
    training_flops,
    utilisation_for_days,
)


def test_lecture_3d_layout_2x4x4():
    lay = rank_layout(2, 4, 4, gpus_per_node=4)
    assert lay.world_size == 32 and len(lay.ranks) == 32
    assert lay.tensor_groups_in_one_node()
    for kind, count, size in (("tensor", 8, 4), ("pipeline", 8, 4), ("data", 16, 2)):
        groups = lay.groups(kind)
        assert len(groups) == count and all(len(g) == size for g in groups)
        assert sorted(r for g in groups for r in g) == list(range(32))  # a partition
    assert lay.groups("tensor")[0] == [0, 1, 2, 3]
    assert lay.groups("pipeline")[0] == [0, 8, 16, 24]
    assert lay.groups("data")[0] == [0, 4]
    for r, (d, s, t, node) in enumerate(lay.ranks):
        assert lay.rank(d, s, t) == r and node == r // 4
    assert "stage 3   GPU 28 (n7)" in lay.text()
    # tensor parallelism across nodes is what the planner avoids
    assert not rank_layout(2, 4, 8, gpus_per_node=4).tensor_groups_in_one_node()


def test_34_days():
    psi, tokens, n = GPT3_ESTIMATE["parameters"], GPT3_ESTIMATE["tokens"], GPT3_ESTIMATE["gpus"]
    assert training_flops(psi, tokens) == pytest.approx(3.15e23)
    assert days_to_train(psi, tokens, n, 1.0) == pytest.approx(11.41, abs=0.01)
    u = utilisation_for_days(34, psi, tokens, n)
    assert u == pytest.approx(0.3357, abs=1e-3)  # 6ΨD needs a third of the A100's 312 TFLOP/s
    assert days_to_train(psi, tokens, n, u) == pytest.approx(34)
    # Narayanan et al. 2021: 8TP/(nX) with X = 140 TFLOP/s -> 33.9 days
    x = GPT3_ESTIMATE["megatron_achieved_flops"]
    assert days_to_train(psi, tokens, n, x / 312e12, recompute=True) == pytest.approx(
        33.9, abs=0.05
    )
    # the lecture's own parameter count gives the same within a percent
    exact = parameter_count(preset("gpt3"))
    assert utilisation_for_days(34, exact, tokens, n) == pytest.approx(u, rel=0.01)


def test_plans_fit_and_are_sorted():
    cluster = Cluster(1024)
    plans = plan("gpt3", cluster)
    assert plans
    times = [p.step_time for p in plans]
    assert times == sorted(times)
    for pl in plans:
        assert pl.fits and pl.memory_bytes <= cluster.memory
        assert pl.dp * pl.tp * pl.pp == 1024
        assert 8 % pl.tp == 0  # tensor parallelism inside a node
        assert pl.micro_batches * pl.dp == 128
        par = ParallelConfig(
            dp=pl.dp,
            tp=pl.tp,
            pp=pl.pp,
            micro_batches=pl.micro_batches,
            zero=pl.zero,
            sp=pl.tp > 1,
            recompute=pl.recompute,
        )
        assert memory_report("gpt3", par).total == pl.memory_bytes
        assert pl.bubble == pytest.approx(pl.compute * (pl.pp - 1) / pl.micro_batches)
        assert 0 < pl.mfu < 0.5


def test_bubble_term_matches_the_simulator():
    # the planner uses the 1F1B closed form; the simulator agrees
    for p, m in ((4, 8), (8, 16), (3, 7)):
        run = pipeline_schedule("1f1b", p, m, tf=1, tb=2, tw=0)
        assert run.bubble_over_ideal == pytest.approx((p - 1) / m)


def test_all_layouts_show_what_does_not_fit():
    small = Cluster(32)
    assert plan("gpt3", small) == []
    everything = plan("gpt3", small, all_layouts=True)
    assert everything and not any(p.fits for p in everything)
    assert "(does not fit)" in plan_table(everything)


def test_table_and_dict():
    plans = plan(preset("gpt3").with_(batch=1536), Cluster(1024))
    text = plan_table(plans, tokens=300e9, limit=3)
    assert len(text.splitlines()) == 4 and "days" in text.splitlines()[0]
    d = plans[0].as_dict()
    assert set(d["seconds"]) == {"compute", "bubble", "tp", "pp", "dp", "step"}
    assert 20 < plans[0].days(300e9) < 40


@pytest.mark.parametrize(
    "call,message",
    [
        (lambda: Cluster(gpus=0), "gpus: must be a positive integer"),
        (lambda: Cluster(gpu="B200"), "unknown GPU"),
        (lambda: plan("gpt3", Cluster(1024), efficiency=0), "efficiency"),
        (lambda: plan("gpt3", Cluster(1024), recompute=("some",)), "recompute"),
        (lambda: plan("nope"), "unknown model"),
        (lambda: days_to_train(1e9, 1e9, 8, 1.5), "utilisation"),
        (lambda: utilisation_for_days(0, 1e9, 1e9, 8), "days"),
        (lambda: rank_layout(0, 4, 4), "dp: must be a positive integer"),
        (lambda: rank_layout().groups("model"), "kind"),
    ],
)
def test_bad_input(call, message):
    with pytest.raises(ConfigError) as exc:
        call()
    assert message in str(exc.value)


def test_planner_widget_headless():
    pytest.importorskip("ipywidgets")
    from lecturekit.widgets.planner import planner_explorer

    ex = planner_explorer("gpt3", 1024, batch=1536)
    assert ex.error.value == "" and ex.plans
    assert "layouts fit" in ex.headline.value and "days" in ex.headline.value
    ex.controls["gpus"].value = 32
    assert "No layout" in ex.headline.value and ex.plans == []
    ex.controls["preset"].value = "gpt2-xl"
    ex.controls["batch"].value = 8
    assert ex.plans and ex.error.value == ""
    ex.controls["batch"].value = 1536  # gpt2-xl has 25 heads: fine; 1536 / dp must be whole
    assert ex.error.value == ""


def test_mfu_and_hfu_of_megatrons_gpt3_estimate():
    from lecturekit.llm.planner import (
        GPT3_ESTIMATE,
        days_to_train,
        model_flops,
        utilisation_for_days,
    )

    x = GPT3_ESTIMATE["megatron_achieved_flops"]  # 140 TFLOP/s, counted with recomputation
    assert model_flops(x) == pytest.approx(105e12)  # 6/8 of it: the model's FLOPs
    assert model_flops(x, recompute=False) == x
    hfu, mfu = x / 312e12, model_flops(x) / 312e12
    assert round(hfu, 3) == 0.449 and round(mfu, 3) == 0.337
    # the two ways to the 34 days agree: 8 Psi D at the HFU, 6 Psi D at the MFU
    psi, d, n = GPT3_ESTIMATE["parameters"], GPT3_ESTIMATE["tokens"], GPT3_ESTIMATE["gpus"]
    assert days_to_train(psi, d, n, hfu, recompute=True) == pytest.approx(
        days_to_train(psi, d, n, mfu)
    )
    assert utilisation_for_days(34, psi, d, n) == pytest.approx(mfu, rel=0.01)
