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
    assert set(d["seconds"]) == {"compute", "bubble", "tp", "pp", "dp", "cp", "ep", "step"}
    assert d["cp"] == 1 and d["ep"] == 1
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


# -- five dimensions: context and expert parallelism ----------------------------------------------


def test_cp_step_seconds_by_hand():
    from lecturekit.llm.planner import cp_step_seconds

    m = preset("llama3-8b")  # s = 8192, h_kv = 8 heads x 128 = 1024
    c = Cluster(64)  # NVLink: 5 µs, 300 GB/s
    # ring, cp = 4: forward receives 3 K/V blocks of 2048 x 1024 elements each (K and V), 2 B;
    # backward twice that; 3 (cp-1) = 9 messages
    fwd = 2 * 3 * 2048 * 1024 * 2
    assert cp_step_seconds(m, c, 1, 4) == pytest.approx(9 * 5e-6 + 3 * fwd / 300e9)
    # tensor parallelism splits the heads: bytes / tp; tp x cp = 16 > 8 per node: InfiniBand
    assert cp_step_seconds(m, c, 4, 4) == pytest.approx(9 * 10e-6 + 3 * fwd / 4 / 25e9)
    # Ulysses, cp = 4: 4 all-to-alls forward of 3/4 of (2048 tokens x (2h + 2 h_kv)), same back
    uly = 2048 * (2 * 4096 + 2 * 1024) * 3 // 4 * 2
    assert cp_step_seconds(m, c, 1, 4, "ulysses") == pytest.approx(8 * 3 * 5e-6 + 2 * uly / 300e9)
    assert cp_step_seconds(m, c, 8, 1) == 0.0


def test_ep_step_seconds_by_hand():
    from lecturekit.llm.planner import ep_step_seconds

    m = preset("mixtral-8x7b")  # s = 4096, h = 4096, top-2 of 8 experts
    c = Cluster(64)
    # one all-to-all: 4096 tokens x 2 copies x 4096 x 7/8 elements, 2 bytes; 4 of them a layer
    nbytes = 4096 * 2 * 4096 * 7 // 8 * 2
    assert ep_step_seconds(m, c, 1, 1, 8) == pytest.approx(4 * (7 * 5e-6 + nbytes / 300e9))
    # with cp = 2 and tp = 2 a GPU holds 4096 / 4 tokens; tp x ep = 16 GPUs span two nodes
    nb = 1024 * 2 * 4096 * 7 // 8 * 2
    assert ep_step_seconds(m, c, 2, 2, 8) == pytest.approx(4 * (7 * 10e-6 + nb / 25e9))


def test_mixtral_plans_are_megatron_grids():
    """Every plan: dp x tp x pp x cp GPUs, ep dividing the experts and dp x cp (Megatron-LM's
    expert data-parallel size dp cp / ep), memory = memory_report with cp and ep, step = sum."""
    from lecturekit.llm.moe import expert_parallel
    from lecturekit.llm.planner import ep_step_seconds

    model = preset("mixtral-8x7b")
    cluster = Cluster(64)
    plans = plan(model, cluster, cp_options=(1, 2), all_layouts=True)
    assert {p.ep for p in plans} == {1, 2, 4, 8} and {p.cp for p in plans} == {1, 2}
    for p in plans:
        assert p.dp * p.tp * p.pp * p.cp == 64
        assert 8 % p.ep == 0 and (p.dp * p.cp) % p.ep == 0
        par = ParallelConfig(
            dp=p.dp, tp=p.tp, pp=p.pp, micro_batches=p.micro_batches, zero=p.zero,
            sp=p.tp > 1, recompute=p.recompute,
        )  # fmt: skip
        assert p.memory_bytes == memory_report(model, par, cp=p.cp, ep=p.ep).total
        parts = p.as_dict()["seconds"]
        assert parts["step"] == pytest.approx(sum(v for k, v in parts.items() if k != "step"))
        layers = 32 // p.pp
        assert p.ep_comm == pytest.approx(
            ep_step_seconds(model, cluster, p.tp, p.cp, p.ep) * layers * p.micro_batches
        )
    # compute counts the 12.9B active parameters, not the 46.7B (Jiang et al. 2024)
    best = plans[0]
    assert best.fits and best.ep > 1  # sharding experts is what makes the states small
    active = expert_parallel(model, 8).active_parameters
    assert round(active / 1e9, 1) == 12.9
    # plus attention's s^2 FLOPs: causal 2 b s^2 h a layer's forward, x3 with the backward
    attention = 3 * 2 * model.batch * model.seq**2 * model.hidden * model.layers
    assert best.attention_flops == attention == 105_553_116_266_496
    assert best.flops_per_step == 6 * active * model.batch * model.seq + attention
    # the same split without expert parallelism needs more memory per GPU
    same = [p for p in plans if (p.dp, p.tp, p.pp, p.cp, p.zero) == (8, 8, 1, 1, 0)]
    by_ep = {p.ep: p.memory_bytes for p in same}
    assert by_ep[1] > by_ep[2] > by_ep[4] > by_ep[8]


def test_dense_plans_unchanged_by_five_dimensions():
    plans = plan("gpt3", Cluster(1024))
    assert plans and all(p.cp == 1 and p.ep == 1 and p.cp_comm == p.ep_comm == 0 for p in plans)
    assert "x cp" not in plan_table(plans)


def test_two_million_tokens_need_context_parallelism():
    """The lecture's long-context table: Kimi's 200万 tokens on Llama 3 8B, 64 A100s. Without
    CP no layout fits; ring attention fits with cp = 8 (tp = 8), and Ulysses cannot get there:
    its cp divides the 8 key/value heads left after tp."""
    model = preset("llama3-8b").with_(seq=2_000_000, batch=1)
    cluster = Cluster(64)
    cps = (1, 2, 4, 8, 16, 32, 64)
    assert plan(model, cluster) == []
    ring = plan(model, cluster, cp_options=cps)
    assert ring and all(p.cp > 1 for p in ring)
    best = ring[0]
    # attention's s^2 FLOPs dominate: causal 2 s^2 h a layer's forward, 4 passes (recomputed)
    attention = 4 * 2 * 2_000_000**2 * 4096 * 32
    assert best.recompute == "full" and best.attention_flops == attention
    assert attention > 30 * (best.flops_per_step - attention)  # 8 Ψ s is the small part
    # every ring block (s / cp >= 31,250 tokens) computes longer than the next one takes to
    # arrive, even over InfiniBand: the traffic is all hidden, and TP's all-reduces decide
    assert all(p.cp_comm == 0 and p.cp_hidden > 0 for p in ring)
    assert (best.tp, best.cp) == (2, 32)
    assert plan(model, cluster, cp_options=cps, cp_kind="ulysses") == []
    everything = plan(model, cluster, cp_options=cps, cp_kind="ulysses", all_layouts=True)
    assert everything and all((8 // p.tp) % p.cp == 0 for p in everything)


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"model": "gpt3", "ep_options": (2,)}, "gpt3 is dense"),
        ({"model": "mixtral-8x7b", "ep_options": (3,)}, "does not divide the experts"),
        ({"model": "gpt3", "cp_options": (0,)}, "cp_options"),
        ({"model": "gpt3", "cp_kind": "star"}, "cp_kind"),
    ],
)
def test_bad_cp_ep_plan_input_is_explained(kwargs, message):
    with pytest.raises(ConfigError, match=message):
        plan(cluster=Cluster(64), **kwargs)


def test_plan_cli_takes_cp_and_ep(capsys):
    import json

    from lecturekit.cli import main

    main(["parallel", "plan", "--preset", "mixtral-8x7b", "--gpus", "64", "--ep", "2,8",
          "--cp", "1,2", "--json", "--limit", "0"])  # fmt: skip
    out = json.loads(capsys.readouterr().out)
    assert out["cp_kind"] == "ring" and out["plans"]
    assert {p["ep"] for p in out["plans"]} <= {2, 8} and {p["cp"] for p in out["plans"]} <= {1, 2}
    assert {"cp", "ep"} <= set(out["plans"][0]["seconds"])
    main(["parallel", "plan", "--preset", "llama3-8b", "--seq", "2000000", "--batch", "1",
          "--gpus", "64", "--cp", "1,8,64", "--limit", "2"])  # fmt: skip
    text = capsys.readouterr().out
    assert "x cp" in text and "1x1x1x64" in text  # the ring is hidden: no TP traffic wins
    assert main(["parallel", "plan", "--cp", "1,x"]) != 0
    assert "--cp: 'x' is not a degree" in capsys.readouterr().err


def test_planner_widget_context_and_expert_parallelism():
    pytest.importorskip("ipywidgets")
    from lecturekit.widgets.planner import planner_explorer

    ex = planner_explorer("mixtral-8x7b", 64, batch=8)
    assert ex.error.value == "" and ex.plans
    assert ex.plans[0].ep > 1 and "dp × tp × pp × cp" in ex.headline.value
    assert {p.cp for p in ex.plans} == {1}
    ex.controls["max_cp"].value = 4
    assert ex.error.value == "" and {p.cp for p in ex.plans} > {1}
    assert all(p.cp in (1, 2, 4) for p in ex.plans) and " CP " in ex.table.value
    ex.controls["cp_kind"].value = "ulysses"  # 8 key/value heads: cp x tp must divide them
    assert ex.error.value == "" and all((8 // p.tp) % p.cp == 0 for p in ex.plans)


def test_megatron_groups_docstring_example_and_3d_layout():
    """Megatron-LM's parallel_state docstring: 16 GPUs, tp = 2, pp = 4 (dp = 2): tensor groups
    [g0, g1], [g2, g3], ...; data groups [g0, g2], [g1, g3], ...; pipeline groups
    [g0, g4, g8, g12], [g1, g5, g9, g13], [g2, g6, g10, g14], [g3, g7, g11, g15]."""
    from lecturekit.llm.planner import megatron_groups

    g = megatron_groups(tp=2, dp=2, pp=4)
    assert g["tensor"][:2] == [[0, 1], [2, 3]] and len(g["tensor"]) == 8
    assert g["data"][:2] == [[0, 2], [1, 3]] and len(g["data"]) == 8
    assert g["pipeline"] == [[0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15]]
    lay = rank_layout(dp=2, pp=4, tp=2)  # the 3D layout numbers ranks the same way
    for kind in ("tensor", "data", "pipeline"):
        assert sorted(g[kind]) == sorted(lay.groups(kind))


def test_megatron_groups_5d_by_hand():
    """tp = 2, cp = 2, dp = 4 on 16 GPUs, ep = 4: EP regroups the dp x cp ranks (Megatron-LM's
    order tp-cp-ep-dp-pp; expert data-parallel size dp cp / ep = 2)."""
    from lecturekit.llm.planner import megatron_groups

    g = megatron_groups(tp=2, cp=2, dp=4, ep=4)
    assert g["context"][:3] == [[0, 2], [1, 3], [4, 6]]
    assert g["data"][:2] == [[0, 4, 8, 12], [1, 5, 9, 13]]
    assert g["data_context"] == [list(range(0, 16, 2)), list(range(1, 16, 2))]
    assert g["expert"] == [[0, 2, 4, 6], [1, 3, 5, 7], [8, 10, 12, 14], [9, 11, 13, 15]]
    assert g["expert_data"][:2] == [[0, 8], [1, 9]]
    for kind, groups in g.items():  # every kind partitions the 16 ranks
        assert sorted(r for grp in groups for r in grp) == list(range(16)), kind
    # an expert group lies inside one data_context group: EP uses no extra GPUs
    for grp in g["expert"]:
        assert any(set(grp) <= set(dc) for dc in g["data_context"])
    with pytest.raises(ConfigError, match="must divide dp x cp = 8"):
        megatron_groups(tp=2, cp=2, dp=4, ep=16)
