"""``lecturekit schedule``: list and optimal, human table, the JSON contract, stdin, errors."""

import io
import json

import pytest
from conftest import SIX_BLOCK

from lecturekit.cli import main
from lecturekit.core import verify
from lecturekit.deps import analyze
from lecturekit.randomblocks import random_block


@pytest.fixture
def six(tmp_path):
    path = tmp_path / "six.txt"
    path.write_text(SIX_BLOCK)
    return str(path)


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_list_human_output(capsys, six):
    code, out, err = run(capsys, "schedule", six)
    assert code == 0 and err == ""
    assert "priority height" in out
    lines = out.splitlines()
    rows = [line.split()[0] for line in lines if line.startswith("I")]
    assert rows == ["I1", "I3", "I6", "I2", "I5", "I4"]  # issue order t0 t3 t6 t1 t5 t0
    assert "10 cycles (lower bound 10; proven optimal)" in out
    assert "critical_path 10" in out


def test_list_trace(capsys, six):
    code, out, _ = run(capsys, "schedule", six, "--trace")
    assert code == 0
    assert "ready [I1:8, I3:5, I6:2]  cycle 2: issue I1 (highest height 8)" in out
    assert "nothing ready: stall" in out


def test_optimal_json_contract(capsys, six):
    code, out, _ = run(capsys, "schedule", six, "--algorithm", "optimal", "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"machine", "instructions", "edges", "schedule"}
    assert data["machine"] == {"name": "lecture", "issue_width": 1, "units": {"alu": 1}}
    assert data["instructions"][0] == {"index": 0, "text": "t0 = t1 + t2", "unit": "alu"}
    assert {"src": 0, "dst": 1, "kind": "RAW", "on": "t0", "latency": 3} in data["edges"]
    s = data["schedule"]
    for key in (
        "algorithm",
        "order",
        "issue",
        "finish",
        "cycles",
        "lower_bound",
        "proven_optimal",
        "nodes",
        "seconds",
    ):
        assert key in s
    assert s["algorithm"] == "optimal" and s["cycles"] == 10 and s["lower_bound"] == 10
    assert s["proven_optimal"] is True and isinstance(s["nodes"], int)
    g = analyze(SIX_BLOCK, "lecture").graph
    verify(g, s["issue"])
    assert s["finish"] == [t + 2 for t in s["issue"]]
    assert sorted(s["order"], key=lambda k: s["issue"][k]) == s["order"]


def test_list_json_names_the_priority(capsys, six):
    code, out, _ = run(capsys, "schedule", six, "-p", "successors", "--json", "-M", "dual")
    data = json.loads(out)
    assert code == 0
    assert data["machine"]["name"] == "dual" and data["machine"]["issue_width"] == 2
    assert data["schedule"]["algorithm"] == "list:successors"
    assert data["schedule"]["priority"] == "successors"
    assert data["schedule"]["nodes"] == 0


def test_stdin_and_time_limit(capsys, monkeypatch):
    block = "\n".join(
        random_block(4, size=30, registers=16).instructions[k].text for k in range(30)
    )
    monkeypatch.setattr("sys.stdin", io.StringIO(block))
    code, out, _ = run(capsys, "schedule", "-", "-a", "optimal", "-M", "dual", "-t", "0", "--json")
    assert code == 0
    s = json.loads(out)["schedule"]
    assert isinstance(s["proven_optimal"], bool) and s["cycles"] >= s["lower_bound"]
    verify(analyze(block, "dual").graph, s["issue"])


def test_parse_error_is_reported_with_line_and_column(capsys, tmp_path):
    bad = tmp_path / "bad.s"
    bad.write_text("add $t0, $t1, $t2\nadd $t3, $t4\n")
    code, out, err = run(capsys, "schedule", str(bad))
    assert code == 2 and out == ""
    assert "bad.s" in err and "line 2, column" in err
    assert "Traceback" not in err


def test_unknown_priority_and_bad_time_limit(capsys, six):
    code, _, err = run(capsys, "schedule", six, "--priority", "fastest")
    assert code == 2 and "unknown priority 'fastest'" in err and "height" in err
    code, _, err = run(capsys, "schedule", six, "-a", "optimal", "--time-limit", "soon")
    assert code == 2 and "--time-limit takes a number" in err
    code, _, err = run(capsys, "schedule", six, "-a", "optimal", "--time-limit=-3")
    assert code == 2 and "non-negative" in err
    code, _, err = run(capsys, "schedule", six, "--machine", "quantum")
    assert code == 2 and "unknown machine" in err


def test_missing_file(capsys, tmp_path):
    code, _, err = run(capsys, "schedule", str(tmp_path / "nope.s"))
    assert code == 2 and "no such file" in err
