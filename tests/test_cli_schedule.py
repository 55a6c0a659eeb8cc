"""``lecturekit schedule``: list and optimal, human table, the JSON contract, stdin, errors."""

import io
import json

import pytest
from conftest import SIX_BLOCK

from lecturekit.asm.random_blocks import random_block
from lecturekit.cli import main
from lecturekit.core import verify
from lecturekit.target.deps import analyze


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
    reg = {"alias": None, "via": None}  # fields added by issue 30
    assert {"src": 0, "dst": 1, "kind": "RAW", "on": "t0", "latency": 3, **reg} in data["edges"]
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


# Beyond the lecture's heuristics (issue 17): the witness blocks, each one cycle over the
# optimum with height, optimal with lookahead / the bottleneck-aware priority / improved.
WITNESS_LECTURE = (
    "add $t5,$t3,$t3\nadd $t6,$t6,$t4\nsub $t7,$t3,$t6\nmul $t4,$t1,$t9\nsub $t3,$t5,$t7\n"
)
WITNESS_DUAL = "add $t1,$t2,$t5\nsub $t4,$t5,$t9\nmul $t2,$t4,$t3\nmul $t9,$t4,$t1\n"


@pytest.fixture
def witness(tmp_path):
    path = tmp_path / "witness.s"
    path.write_text(WITNESS_LECTURE)
    return str(path)


def cycles(capsys, *argv):
    code, out, err = run(capsys, "schedule", *argv, "--json")
    assert code == 0, err
    s = json.loads(out)["schedule"]
    return s


def test_every_priority_is_offered(capsys, six):
    from lecturekit.core.list_sched import MORE_PRIORITIES, PRIORITIES

    for name in [*PRIORITIES, *MORE_PRIORITIES]:
        s = cycles(capsys, six, "-p", name)
        assert s["algorithm"] == f"list:{name}" and s["priority"] == name
        assert s["lookahead"] == 0
        verify(analyze(SIX_BLOCK, "lecture").graph, s["issue"])


def test_lookahead_closes_the_witness_gap_and_is_traced(capsys, witness):
    s = cycles(capsys, witness, "-a", "optimal")
    best = s["cycles"]
    assert cycles(capsys, witness)["cycles"] == best + 1  # height, non-delay
    s = cycles(capsys, witness, "--lookahead", "2")
    assert s["cycles"] == best and s["lookahead"] == 2
    assert s["algorithm"] == "list:height+lookahead2"
    code, out, _ = run(
        capsys, "schedule", witness, "-w", "2", "-p", "height_descendants", "--trace"
    )
    assert code == 0 and "lookahead 2 cycle(s)" in out
    assert "I4 (held back: would block I3 (height 5, 1 descendant(s)), ready in cycle 5)" in out
    assert "ready [I2:(8,3), I1:(5,1), I4:(4,0)]" in out


def test_improved_and_optsched(capsys, witness, tmp_path):
    opt = cycles(capsys, witness, "-a", "optimal", "--engine", "optsched")
    assert opt["engine"] == "optsched" and opt["proven_optimal"] is True
    assert cycles(capsys, witness, "-a", "optimal")["engine"] == "optsched"  # the default
    classic = cycles(capsys, witness, "-a", "optimal", "--engine", "classic")
    assert classic["engine"] == "classic" and classic["cycles"] == opt["cycles"]
    s = cycles(capsys, witness, "-a", "improved")
    assert s["algorithm"] == "list:improved" and s["cycles"] == opt["cycles"]
    assert s["candidates"]["height"] == opt["cycles"] + 1
    assert s["candidates"][s["from"]] == s["cycles"]
    verify(analyze(WITNESS_LECTURE, "lecture").graph, s["issue"])
    code, out, _ = run(capsys, "schedule", witness, "-a", "improved")
    assert code == 0 and "improved heuristic" in out and "candidates (cycles): height" in out
    dual = tmp_path / "dual.s"
    dual.write_text(WITNESS_DUAL)
    best = cycles(capsys, str(dual), "-M", "dual", "-a", "optimal")["cycles"]
    assert cycles(capsys, str(dual), "-M", "dual")["cycles"] == best + 1
    assert cycles(capsys, str(dual), "-M", "dual", "-p", "bottleneck")["cycles"] == best
    assert cycles(capsys, str(dual), "-M", "dual", "-a", "improved")["cycles"] == best


def test_bad_lookahead_and_engine(capsys, six):
    for bad in ("soon", "-1", "1.5", "9" * 50):
        code, _, err = run(capsys, "schedule", six, f"--lookahead={bad}")
        assert code == 2 and "--lookahead takes a whole number" in err, bad
    code, _, err = run(capsys, "schedule", six, "-a", "optimal", "--engine", "cpsat")
    assert code == 2 and "invalid choice" in err
