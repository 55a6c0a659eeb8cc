"""``lecturekit memory``: JSON contract, human table, errors without tracebacks."""

import json
import os
import subprocess
import sysconfig
from pathlib import Path

import pytest

from lecturekit.cli import main
from lecturekit.llm.memory import memory_report
from lecturekit.llm.params import parameter_count


def run_json(capsys, *argv):
    assert main(["memory", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_contract_gpt3(capsys):
    data = run_json(capsys, "--preset", "gpt3")
    assert data["parameters"] == 174_601_089_024
    b = data["bytes"]
    for field in ("parameters", "gradients", "optimizer", "activations", "activations_per_layer"):
        assert isinstance(b[field], int)
    assert b["total"] == b["parameters"] + b["gradients"] + b["optimizer"] + b["activations"]
    assert b["parameters"] + b["gradients"] == 4 * 174_601_089_024
    assert b["optimizer"] == 12 * 174_601_089_024
    assert round(b["activations"] / 2**30, 1) == 32895.8
    assert data["gpu"]["needed_by_memory"] == 444


def test_explicit_shape_overrides_preset(capsys):
    data = run_json(
        capsys,
        "--preset",
        "gpt3",
        "--seq",
        "8192",
        "--tp",
        "8",
        "--sp",
        "--dp",
        "64",
        "--zero",
        "3",
        "--recompute",
        "selective",
        "--flash-attention",
    )
    rep = data["bytes"]
    assert data["config"]["seq"] == 8192 and data["parallel"]["zero"] == 3
    assert data["world_size"] == 512
    assert rep["total"] < 100 * 2**30


def test_explicit_model_without_preset(capsys):
    argv = [
        "--hidden",
        "768",
        "--layers",
        "12",
        "--heads",
        "12",
        "--seq",
        "1024",
        "--batch",
        "8",
        "--vocab",
        "50257",
    ]
    data = run_json(capsys, *argv)
    assert data["bytes"] == memory_report("gpt2").bytes
    data = run_json(capsys, *argv, "--kv-heads", "4", "--mlp", "swiglu", "--untied")
    assert data["parameters"] < parameter_count(memory_report("gpt2").model) * 2


def test_parameters_alone(capsys):
    data = run_json(capsys, "--parameters", "7b", "--dp", "8", "--zero", "3")
    assert data["parameters"] == 7_000_000_000
    assert data["bytes"]["total"] == 16 * 7_000_000_000 // 8
    assert data["bytes"]["activations"] is None


def test_human_table_labels_units(capsys):
    assert main(["memory", "--preset", "gpt3"]) == 0
    out = capsys.readouterr().out
    assert "GiB (2^30 B)" in out and "GB (10^9 B)" in out
    assert "174,601,089,024" in out and "32,895.8" in out and "444 x A100-80GB" in out


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--preset", "gpt3", "--tp", "5"], "tp: tensor-parallel size 5 does not divide heads"),
        (["--preset", "gpt3", "--pp", "7"], "pp: pipeline size 7"),
        (["--preset", "nope"], "preset: unknown model"),
        (["--hidden", "768"], "missing --layers"),
        (["--preset", "gpt3", "--heads", "7"], "heads: 7 does not divide hidden"),
        (["--preset", "gpt3", "--zero", "5"], "zero:"),
        (["--preset", "gpt3", "--gpu", "TPU"], "gpu: unknown GPU"),
        (["--parameters", "lots"], "--parameters: not a number"),
        (["--parameters", "7b", "--preset", "gpt3"], "--parameters: give either"),
        (["--preset", "gpt3", "--batch", "0"], "batch: must be a positive integer"),
    ],
)
def test_bad_input_exits_2_with_message(capsys, argv, words):
    assert main(["memory", *argv]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_list_presets(capsys):
    assert main(["memory", "--list-presets"]) == 0
    out = capsys.readouterr().out
    assert "gpt3" in out and "mixtral-8x7b" in out


def test_console_script():
    # the console script pip installed beside this Python, not whichever is first on PATH
    name = "lecturekit.exe" if os.name == "nt" else "lecturekit"
    cmd = [str(Path(sysconfig.get_path("scripts")) / name)]
    ok = subprocess.run(
        [*cmd, "memory", "--preset", "gpt3", "--json"], capture_output=True, text=True, timeout=120
    )
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["parameters"] == 174_601_089_024
    bad = subprocess.run(
        [*cmd, "memory", "--preset", "gpt3", "--tp", "7"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode == 2 and "tp:" in bad.stderr and "Traceback" not in bad.stderr


def test_cp_and_ep_flags(capsys):
    """--cp and --ep reach memory_report: Mixtral's experts over 8 GPUs (7,242,780,672
    parameters each: 1.6B dense + 45.1B / 8 of experts), Kimi's 200万 tokens over cp = 8."""
    from lecturekit.llm.config import ParallelConfig

    data = run_json(capsys, "--preset", "mixtral-8x7b", "--dp", "8", "--ep", "8", "--zero", "1")
    assert data["parameters_per_gpu"] == 7_242_780_672
    assert data["parallel"]["ep"] == 8 and data["parallel"]["cp"] == 1
    ref = memory_report("mixtral-8x7b", ParallelConfig(dp=8, zero=1), ep=8)
    assert data["bytes"]["total"] == ref.total
    # experts top-k from the command line: a custom MoE with 16 experts, top-4
    data = run_json(capsys, "--preset", "mixtral-8x7b", "--experts", "16", "--top-k", "4",
                    "--batch", "16", "--dp", "16", "--ep", "16")  # fmt: skip
    assert data["parallel"]["ep"] == 16
    experts = 32 * 16 * 3 * 4096 * 14336  # 16 experts of (gate, up, down) in 32 layers
    assert data["parameters_per_gpu"] == 46_702_792_704 + 32 * 8 * 4096 - experts // 2 + (
        experts // 16
    )  # 8 more router columns a layer; each GPU one expert of 16
    long = ["--preset", "llama3-8b", "--seq", "2000000", "--batch", "1", "--tp", "8", "--sp"]
    one = run_json(capsys, *long, "--recompute", "full")
    eight = run_json(capsys, *long, "--recompute", "full", "--cp", "8")
    assert one["bytes"]["activations"] == 8 * eight["bytes"]["activations"]
    assert eight["world_size"] == 64
    assert main(["memory", "--preset", "gpt3", "--ep", "2"]) != 0
    assert "gpt3 is dense" in capsys.readouterr().err
    assert main(["memory", "--preset", "gpt3", "--cp", "7"]) != 0
    assert "does not divide the sequence length" in capsys.readouterr().err
