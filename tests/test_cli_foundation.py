"""``lecturekit deps`` and ``simulate``: human tables, the JSON contract, stdin, errors."""

import io
import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from conftest import FOUR_ADDS, SIX_BLOCK

from lecturekit.cli import main
from lecturekit.target.machine import PRESETS


@pytest.fixture
def block(tmp_path):
    path = tmp_path / "four.s"
    path.write_text(FOUR_ADDS)
    return str(path)


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_deps_json_contract(capsys, block):
    code, out, _ = run(capsys, "deps", block, "--json")
    data = json.loads(out)
    assert code == 0
    assert data["machine"] == {"name": "lecture", "issue_width": 1, "units": {"alu": 1}}
    assert data["instructions"][1] == {"index": 1, "text": "add $t4, $t3, $t2", "unit": "alu"}
    reg = {"alias": None, "via": None}  # fields added by issue 30 (memory: "must"/"may", a store)
    assert {"src": 0, "dst": 1, "kind": "RAW", "on": "t2", "latency": 3, **reg} in data["edges"]
    assert {"src": 0, "dst": 3, "kind": "WAR", "on": "t0", "latency": 0, **reg} in data["edges"]


def test_deps_human_table(capsys, block):
    code, out, _ = run(capsys, "deps", block)
    assert code == 0 and "RAW" in out and "critical path" in out


def test_simulate_json_contract(capsys, block):
    code, out, _ = run(capsys, "simulate", block, "--json")
    data = json.loads(out)
    assert set(data) == {"machine", "instructions", "edges", "schedule"}
    s = data["schedule"]
    assert s["algorithm"] == "program-order"
    assert (
        s["order"] == [0, 1, 2, 3] and s["issue"] == [2, 5, 6, 9] and s["finish"] == [4, 7, 8, 11]
    )
    assert s["cycles"] == 11 and len(s["stalls"]) == 4


def test_simulate_prints_the_lectures_figures(capsys, tmp_path):
    six = tmp_path / "six.txt"
    six.write_text(SIX_BLOCK)
    assert "12 cycles" in run(capsys, "simulate", str(six))[1]
    assert "15 cycles" in run(capsys, "simulate", str(six), "--order", "3,5,1,2,4,6")[1]
    assert "10 cycles" in run(capsys, "simulate", str(six), "--order", "1,3,6,2,5,4")[1]


def test_simulate_human_output(capsys, block):
    code, out, _ = run(capsys, "simulate", block)
    assert code == 0
    assert "11 cycles" in out and "RAW on $t2" in out and "ID" in out and "RR" in out


def test_stdin_and_machine_options(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("lw $t0, 0($s1)\nadd $t1, $t0, $t2\n"))
    code, out, _ = run(capsys, "simulate", "-", "--machine", "classic5", "--json")
    data = json.loads(out)
    assert code == 0 and data["machine"]["name"] == "classic5"
    assert data["schedule"]["stalls"][0]["cause"] == "RAW"
    monkeypatch.setattr(sys, "stdin", io.StringIO(FOUR_ADDS))
    _, out, _ = run(capsys, "simulate", "-", "--forwarding", "on", "--json")
    assert json.loads(out)["schedule"]["cycles"] == 7


def test_custom_machine_file(capsys, block):
    code, out, _ = run(
        capsys, "simulate", block, "--machine", "lecturekit/data/machines/example.toml", "--json"
    )
    assert code == 0 and json.loads(out)["machine"]["name"] == "example"


@pytest.mark.parametrize(
    "argv, words",
    [
        (["simulate", "missing.s"], "no such file: missing.s"),
        (["simulate", "BLOCK", "--machine", "cray"], "unknown machine 'cray'"),
        (["simulate", "BLOCK", "--order", "1,2"], "--order must list"),
        (["simulate", "BLOCK", "--order", "2,1,3,4"], "puts I2 before I1"),
        (["deps", "BAD"], "line 2, column 1: unknown opcode 'foo'"),
    ],
)
def test_errors_are_one_line_messages(capsys, block, tmp_path, argv, words):
    bad = tmp_path / "bad.s"
    bad.write_text("add $t0, $t1, $t2\nfoo $t1\n")
    argv = [block if a == "BLOCK" else str(bad) if a == "BAD" else a for a in argv]
    code, out, err = run(capsys, *argv)
    assert code == 2 and words in err and "Traceback" not in err


def test_console_script(block):
    result = subprocess.run(
        [sys.executable, "-m", "lecturekit.cli", "simulate", block, "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(result.stdout)["schedule"]["cycles"] == 11
    # the console script pip installed beside this Python (not whichever is first on PATH:
    # the README's commands run the environment's programs without activating it)
    script = Path(sysconfig.get_path("scripts")) / (
        "lecturekit.exe" if os.name == "nt" else "lecturekit"
    )
    entry = subprocess.run([str(script), "--help"], capture_output=True, text=True)
    assert entry.returncode == 0 and "simulate" in entry.stdout


@pytest.mark.parametrize("command", ["deps", "simulate", "schedule"])
def test_machine_help_names_every_preset(command, capsys):
    assert main([command, "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    for name in PRESETS:
        assert name in text, f"lecturekit {command} --help does not name the preset {name}"


def test_counts_are_singular_for_one(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("add $t2, $t0, $t1\nadd $t3, $t2, $t1\n"))
    assert main(["deps", "-"]) == 0
    out = capsys.readouterr().out
    assert "1 dependence;" in out and "1 dependences" not in out
