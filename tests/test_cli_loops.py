"""``lecturekit unroll`` and ``lecturekit modulo``: human output, the JSON contract, errors."""

import io
import json

import pytest

from lecturekit.cli import main
from lecturekit.core import verify
from lecturekit.loops.examples import example, example_state
from lecturekit.loops.interp import compare
from lecturekit.loops.model import analyze_loop


@pytest.fixture
def saxpy(tmp_path):
    path = tmp_path / "saxpy.s"
    path.write_text(example("saxpy_loop"))
    return str(path)


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_unroll_human_output(capsys, saxpy):
    code, out, err = run(capsys, "unroll", saxpy, "-k", "4")
    assert code == 0 and err == ""
    assert "loop_x4:" in out and "addi  $s1, $s1, 16" in out
    assert "23 instructions per pass; 31 cycles per pass in the steady state = 7.75 cycles" in out
    assert "original loop: 17 cycles per iteration as written, 13 scheduled" in out
    _code, out, _err = run(capsys, "unroll", saxpy, "-k", "4", "--no-move-induction")
    assert "original loop: 17 cycles per iteration as written, 14 scheduled" in out


def test_unroll_compare_table(capsys, saxpy):
    code, out, _ = run(capsys, "unroll", saxpy, "-k", "2", "-M", "dual", "--compare")
    assert code == 0
    table = [line.split() for line in out.splitlines() if line[:2] in ("1 ", "2 ", "4 ", "8 ")]
    assert [(row[0], row[3]) for row in table] == [
        ("1", "7.00"), ("2", "4.00"), ("4", "3.00"), ("8", "3.00")
    ]  # fmt: skip


def test_unroll_json(capsys, saxpy):
    code, out, _ = run(capsys, "unroll", saxpy, "-k", "8", "--json", "--compare")
    data = json.loads(out)
    assert code == 0
    assert data["k"] == 8 and data["cycles_per_iteration"] == 7.375
    assert data["machine"] == {"name": "lecture", "issue_width": 1, "units": {"alu": 1}}
    assert data["original"] == {"as_written": 17.0, "scheduled": 13.0}  # the update moved
    assert [r["k"] for r in data["compare"]] == [1, 2, 4, 8]
    assert data["body"][0] == "loop_x8:" and data["instructions_per_pass"] == 43
    for n in (1, 7, 8, 9, 17):  # the printed code runs
        assert compare(example("saxpy_loop"), data["code"], *example_state("saxpy_loop", n)) == []


def test_modulo_human_output(capsys, saxpy):
    code, out, err = run(capsys, "modulo", saxpy, "--machine", "dual", "--trace")
    assert code == 0 and err == ""
    assert "ResMII = 4, RecMII = 1, MII = 4; II found = 4, 3 stage(s)" in out
    assert "8 instructions issued / 2 per cycle -> II >= 4" in out
    assert "row  issue (×2)" in out and "prologue:" in out and "loop_kernel:" in out
    assert "scheduler steps:" in out and "schedule found at II = 4" in out


def test_modulo_code_option(capsys, saxpy):
    code, out, _ = run(capsys, "modulo", saxpy, "--code")
    assert code == 0 and "loop_orig:" in out and "# prologue" in out and "loop_exit:" in out


def test_modulo_json_contract(capsys, saxpy):
    code, out, _ = run(capsys, "modulo", saxpy, "-M", "lecture", "--json")
    d = json.loads(out)
    assert code == 0
    assert d["machine"] == {"name": "lecture", "issue_width": 1, "units": {"alu": 1}}
    assert d["instructions"][1] == {"index": 1, "text": "mul   $t1, $t0, $s0", "unit": "alu"}
    assert (d["res_mii"], d["rec_mii"], d["mii"], d["ii"], d["stage_count"]) == (10, 3, 10, 10, 2)
    assert all(set(e) == {"src", "dst", "kind", "on", "latency", "distance"} for e in d["edges"])
    assert {"src": 5, "dst": 0, "kind": "RAW", "on": "s1", "latency": 3, "distance": 1} in d[
        "edges"
    ]
    assert [op["index"] for op in d["ops"]] == list(range(8))
    assert all(op["stage"] == (op["cycle"] - 2) // d["ii"] for op in d["ops"])
    for part in ("prologue", "kernel", "epilogue"):
        assert isinstance(d[part], list) and all(isinstance(x, str) for x in d[part])
    assert d["kernel"][0] == "loop_kernel:"
    assert d["table"]["columns"] == ["issue", "alu"] and len(d["table"]["rows"]) == 10
    # the schedule in the JSON is legal for the edges in the JSON
    loop = analyze_loop(example("saxpy_loop"), "lecture")
    g = loop.graph()
    g.edges = [type(g.edges[0])(e["src"], e["dst"], e["latency"], e["kind"], e["on"],
                                e["distance"]) for e in d["edges"]]  # fmt: skip
    verify(g, [op["cycle"] for op in d["ops"]], ii=d["ii"])
    for n in (1, 2, 3, 4, 11):
        assert compare(example("saxpy_loop"), d["code"], *example_state("saxpy_loop", n)) == []


def test_may_alias_adds_memory_dependences(capsys, saxpy):
    _, out, _ = run(capsys, "modulo", saxpy, "--json")
    _, out2, _ = run(capsys, "modulo", saxpy, "--json", "--may-alias")
    plain, alias = json.loads(out), json.loads(out2)
    assert not any("~" in e["on"] for e in plain["edges"])
    assert any(e["on"] == "mem 0($s2)~0($s1)" and e["distance"] == 1 for e in alias["edges"])


def test_stdin(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO(example("running_sum")))
    code, out, _ = run(capsys, "modulo", "-", "--json")
    assert code == 0 and json.loads(out)["ii"] == 4


@pytest.mark.parametrize("command", ["unroll", "modulo"])
def test_not_a_loop(capsys, tmp_path, command):
    path = tmp_path / "block.s"
    path.write_text("add $t0, $t1, $t2\nsub $t3, $t0, $t1\n")
    code, out, err = run(capsys, command, str(path))
    assert code == 2 and out == ""
    assert "expected a loop: a label and a backward branch to it" in err
    assert str(path) in err and "line 2" in err and "Traceback" not in err


def test_errors(capsys, tmp_path, saxpy):
    code, _, err = run(capsys, "modulo", str(tmp_path / "missing.s"))
    assert code == 2 and "no such file" in err
    bad = tmp_path / "bad.s"
    bad.write_text("loop: lw $t0, 0($s1\nbne $s1, $s3, loop\n")
    code, _, err = run(capsys, "unroll", str(bad))
    assert code == 2 and "line 1" in err and "')'" in err
    code, _, err = run(capsys, "unroll", saxpy, "-k", "0")
    assert code == 2 and "-k must be a positive integer" in err
    code, _, err = run(capsys, "modulo", saxpy, "-M", "nonesuch")
    assert code == 2 and "unknown machine" in err
    data = tmp_path / "count.s"
    data.write_text("loop: lw $t0, 0($s1)\naddi $s1, $s1, 4\nbnez $t0, loop\n")
    code, _, err = run(capsys, "unroll", str(data), "-k", "2")
    assert code == 2 and "trip count is unknown" in err
    code, out, _ = run(capsys, "modulo", str(data), "--code")
    assert code == 0 and "no runnable code" in out
