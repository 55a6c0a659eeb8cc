"""``lecturekit parallel``: pipeline schedules, plans, layouts, estimates; JSON and errors."""

import json

import pytest

from lecturekit.cli import main


def run(capsys, *args):
    code = main(["parallel", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_pipeline_text(capsys):
    code, out, _ = run(capsys, "pipeline", "--schedule", "1f1b", "-p", "4", "-m", "8")
    assert code == 0
    assert "device 0  F1 F2 F3 F4 .  .  .  .  .  .  B1 B1 F5" in out
    assert "makespan 33" in out and "27.3%" in out
    assert "peak micro-batches in flight per device: 4, 3, 2, 1" in out


def test_a_timeline_too_wide_for_text_still_prints_the_figures(capsys):
    """p = 32, m = 256 (issue 17's size): no text timeline, one line saying why, and the same
    figures as the JSON."""
    assert main(["parallel", "pipeline", "--schedule", "1f1b", "-p", "32", "-m", "256"]) == 0
    out = capsys.readouterr().out
    first, *rest = out.splitlines()
    assert first.startswith("(timeline not shown: 861 time units") and "400 columns" in first
    assert rest[0].startswith("makespan 861 ")
    assert (
        main(["parallel", "pipeline", "--schedule", "1f1b", "-p", "32", "-m", "256", "--json"]) == 0
    )
    assert json.loads(capsys.readouterr().out)["makespan"] == 861


def test_pipeline_json_contract(capsys):
    code, out, _ = run(capsys, "pipeline", "--schedule", "zb-h1", "-p", "4", "-m", "8", "--json")
    assert code == 0
    d = json.loads(out)
    assert d["schedule"] == "zb-h1" and d["p"] == 4 and d["m"] == 8
    assert d["makespan"] == 27
    assert d["bubble_fraction"] == pytest.approx(1 / 9)
    assert d["peak_in_flight"] == [4, 3, 2, 1]
    assert len(d["devices"]) == 4
    first = d["devices"][0]["ops"][0]
    assert {"op", "kind", "micro", "stage", "start", "finish"} <= set(first)


def test_interleaved_defaults_to_durations_divisible_by_v(capsys):
    code, out, _ = run(capsys, "pipeline", "--schedule", "interleaved", "--json")
    d = json.loads(out)
    assert code == 0 and d["v"] == 2 and d["timing"]["F"] == 2 and d["makespan"] == 57


def test_compare(capsys):
    code, out, _ = run(capsys, "pipeline", "--compare", "-p", "4", "-m", "8")
    assert code == 0
    for name in ("gpipe", "1f1b", "interleaved", "zb-h1", "zb-h2"):
        assert name in out
    code, out, _ = run(capsys, "pipeline", "--compare", "--json")
    names = [s["schedule"] for s in json.loads(out)["schedules"]]
    assert names[:2] == ["naive", "gpipe"] and "zb-h2" in names


@pytest.mark.parametrize(
    "args,message",
    [
        (["pipeline", "--schedule", "nope"], "unknown pipeline schedule"),
        (["pipeline", "--schedule", "interleaved", "-m", "6"], "not a multiple of p = 4"),
        (["pipeline", "--schedule", "interleaved", "--tf", "3"], "not divisible by v = 2"),
        (["pipeline", "--schedule", "1f1b", "--v", "2"], "only applies to the interleaved"),
        (["pipeline", "-p", "0"], "must be between 1 and 64"),
        (["pipeline", "--compare", "--tf", "1"], "must be divisible by 2"),
        (["plan", "--preset", "nope"], "unknown model"),
        (["plan", "--gpus", "0"], "gpus: must be a positive integer"),
        (["plan", "--tokens", "lots"], "not a number"),
        (["estimate", "--days", "34", "--utilisation", "0.3"], "not both"),
        (["layout", "--dp", "0"], "dp: must be a positive integer"),
    ],
)
def test_errors_exit_2_without_traceback(capsys, args, message):
    code, out, err = run(capsys, *args)
    assert code == 2
    assert message in err and "Traceback" not in err


def test_plan(capsys):
    code, out, _ = run(capsys, "plan", "--preset", "gpt3", "--gpus", "1024", "--tokens", "300B")
    assert code == 0 and "dp x tp x pp" in out and "days" in out
    code, out, _ = run(
        capsys, "plan", "--batch", "1536", "--json", "--tokens", "300e9", "--limit", "2"
    )
    d = json.loads(out)
    assert d["batch"] == 1536 and len(d["plans"]) == 2
    assert {"dp", "tp", "pp", "zero", "memory_gib", "fits", "seconds", "mfu", "days"} <= set(
        d["plans"][0]
    )
    code, out, _ = run(capsys, "plan", "--gpus", "32")
    assert code == 0 and "no layout fits" in out


def test_layout_and_estimate(capsys):
    code, out, _ = run(capsys, "layout")
    assert code == 0 and "2 x pp=4 x tp=4 = 32 GPUs" in out and "inside one node" in out
    code, out, _ = run(capsys, "layout", "--json")
    d = json.loads(out)
    assert len(d["ranks"]) == 32 and d["groups"]["tensor"][0] == [0, 1, 2, 3]
    code, out, _ = run(capsys, "estimate", "--days", "34", "--json")
    assert json.loads(out)["utilisation"] == pytest.approx(0.3357, abs=1e-3)
    code, out, _ = run(capsys, "estimate", "--utilisation", "0.4487", "--recompute")
    assert "33.9 days" in out
