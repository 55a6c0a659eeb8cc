"""Machine presets, their latencies, and custom machine files with clear errors."""

import json

import pytest

from lecturekit.errors import MachineError
from lecturekit.target.machine import describe, get_machine, load_machine, preset


def test_lecture_latencies_match_design():
    m = preset("lecture")
    assert m.stages == ("ID", "RR", "ALU", "RW")
    assert (m.latency("RAW", "alu", "alu"), m.latency("WAR", "alu", "alu")) == (3, 0)
    assert m.latency("WAW", "alu", "alu") == 1
    assert m.first_issue == 2 and m.tail("alu") == 2 and m.issue_width == 1
    assert not m.forwarding


def test_forwarding_shortens_raw():
    m = preset("lecture").with_options(forwarding=True)
    # the result leaves ALU at the end of the cycle the next instruction reads in RR: back to back
    assert m.latency("RAW", "alu", "alu") == 1
    c5 = preset("classic5")
    assert c5.latency("RAW", "alu", "alu") == 1
    assert c5.latency("RAW", "load", "alu") == 2  # the load-use stall
    assert c5.with_options(forwarding=False).latency("RAW", "alu", "alu") == 3


def test_dual_has_units_and_slow_multiply():
    d = preset("dual")
    assert d.issue_width == 2 and d.units == {"alu": 1, "mem": 1, "mul": 1}
    assert d.latency("RAW", "mul", "alu") == 3
    assert d.latency("WAW", "alu", "mul") == 0  # the slower write may issue alongside
    assert d.latency("WAW", "mul", "alu") == 3
    assert "mul" in describe(d)


def test_unknown_preset_lists_presets():
    with pytest.raises(MachineError, match="lecture, classic5, dual"):
        preset("pentium")


def test_example_file_loads(tmp_path):
    m = get_machine("lecturekit/data/machines/example.toml")
    assert m.name == "example" and m.timing("mul").execute_cycles == 4
    assert m.latency("RAW", "mul", "alu") == 6


def test_json_file_with_base(tmp_path):
    path = tmp_path / "wide.json"
    path.write_text(json.dumps({"base": "dual", "name": "wide", "issue_width": 4}))
    m = load_machine(path)
    assert m.issue_width == 4 and m.units == preset("dual").units


@pytest.mark.parametrize(
    "content, words",
    [
        ('name = "x"\nstages = ["A","B"]', "missing field(s) read_stage"),
        ('base = "lecture"\nissue_width = 0', "issue_width must be at least 1"),
        ('base = "lecture"\nwidth = 2', "unknown field 'width'"),
        ('base = "lecture"\nread_stage = "XX"', "read_stage 'XX' is not one of the stages"),
        ('base = "lecture"\n[ops.alu]\nunit = "fpu"', "uses unit 'fpu'"),
        ('base = "lecture"\n[ops.mul]\nexecute_cycles = 0', "execute_cycles must be at least 1"),
        ('base = "lecture"\n[ops.vector]\nunit = "alu"', "ops.vector: unknown operation class"),
        ('base = "lecture"\nissue_width = "2"', "'issue_width' must be a int"),
        ("base = [", "invalid TOML"),
        ('base = "lecture"\nread_stage = "RW"\nwrite_stage = "RR"', "must come in the order"),
    ],
)
def test_bad_files_name_the_problem(tmp_path, content, words):
    path = tmp_path / "bad.toml"
    path.write_text(content)
    with pytest.raises(MachineError) as info:
        load_machine(path)
    assert words in str(info.value)
    assert "bad.toml" in str(info.value) or "machine" in str(info.value)


def test_missing_file():
    with pytest.raises(MachineError, match="cannot read machine file"):
        get_machine("no/such/file.toml")
