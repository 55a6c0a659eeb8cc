"""Machine presets, their latencies, and custom machine files with clear errors."""

import json

import pytest

from lecturekit import language
from lecturekit.errors import MachineError
from lecturekit.target.machine import (
    describe,
    get_machine,
    load_machine,
    preset,
    provenance_text,
)


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
        ('base = "lecture"\nissue_rules = "fast"', "issue_rules must be one of lecture, llvm-mca"),
        ('base = "lecture"\n[opcodes.frob]\nunit = "alu"', "opcodes.frob: not a RISC-V opcode"),
        ('base = "lecture"\n[opcodes."fadd.s"]\nbusy = { fpu = 2 }', "busy uses unit 'fpu'"),
        ('base = "lecture"\n[opcodes.add]\nbusy = {}', "a table of unit = cycles"),
        ('base = "lecture"\n[opcodes.add]\nexecute_cycles = 2', "'unit' (or 'busy') is required"),
        ('base = "lecture"\n[groups]\nab = ["alu"]', "must all be units"),
        ('base = "dual"\n[units]\nab = 3\nalu = 1\nmem = 1\nmul = 1\n[groups]\n'
         'ab = ["alu", "mem"]', "capacity is its number of members (2), got 3"),
    ],
)  # fmt: skip
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


# -- per-opcode tables, unit groups and issue rules (the real-core presets use all three) ------

PER_OPCODE = """
name = "tiny-rv"
stages = ["IS", "EX"]
read_stage = "IS"
execute_stage = "EX"
write_stage = "EX"
forwarding = true
same_cycle_read = true
issue_width = 2
issue_rules = "llvm-mca"

[units]
A = 1
B = 1
AB = 2
Div = 1

[groups]
AB = ["A", "B"]

[ops.alu]
execute_cycles = 1
busy = { AB = 1 }

[opcodes]
"add" = { execute_cycles = 1, busy = { AB = 1 } }
"mul" = { execute_cycles = 3, busy = { B = 1, AB = 1 } }
"ld" = { execute_cycles = 2, busy = { A = 1, AB = 1 } }
"div" = { execute_cycles = 10, busy = { Div = 9, B = 10, AB = 10 } }
"""


def test_per_opcode_table_from_a_file(tmp_path):
    from lecturekit.asm import parse

    path = tmp_path / "tiny.toml"
    path.write_text(PER_OPCODE)
    m = load_machine(path)
    assert m.issue_rules == "llvm-mca" and m.llvm_rules
    assert m.groups == {"AB": ("A", "B")}
    mul, divw, add = parse("mul a0, a1, a2\ndivw a3, a4, a5\nadd a6, a7, t0\n", notation="riscv")
    assert m.timing_key(mul) == "op:mul" and m.class_of("op:mul") == "mul"
    assert m.timing_key(divw) == "div"  # no entry for divw: its class's timing
    assert m.timing(m.timing_key(mul)).execute_cycles == 3
    assert m.reservations("op:div") == (("Div", 1, 9), ("B", 1, 10), ("AB", 1, 10))
    assert m.choices("op:add") == (("AB", 1),)  # holds the group, names no member
    assert m.choices("op:mul") == ()
    assert m.latency("RAW", "op:ld", "op:add") == 2
    assert m.latency("WAW", "op:mul", "op:add") == 2  # llvm-mca: may land in the same cycle
    lecture = m.with_options(issue_rules="lecture")
    assert lecture.latency("WAW", "op:mul", "op:add") == 3
    assert m.latency("RAW", "op:add", "op:ld", memory=True) == 0  # no memory ordering
    text = describe(m)
    assert "per-opcode timings for 4 opcodes" in text and "llvm-mca's" in text
    with pytest.raises(MachineError, match="no timing for opcode 'sub'"):
        m.timing("op:sub")
    with pytest.raises(MachineError, match="issue_rules must be one of"):
        m.with_options(issue_rules="fast")


@pytest.mark.parametrize("name", ["rocket-rv64", "sifive-7-rv64"])
def test_real_core_presets_are_per_opcode_and_say_where_from(name):
    m = preset(name)
    assert m.issue_rules == "lecture" and len(m.opcodes) > 250
    assert m.provenance["generator"] == "tools/llvm_presets.py"
    assert "LLVM version 14" in m.provenance["llvm"]
    assert "0 differ" in m.provenance["checked"] or "2 differ" in m.provenance["checked"]
    for cls in ("alu", "load", "store", "fadd", "fmul", "fdiv"):  # class = representative op
        assert m.timing(cls) in m.opcodes.values()


@pytest.mark.parametrize("name", ["rocket-rv64", "sifive-7-rv64"])
def test_a_presets_provenance_is_described_in_chinese(name):
    """The sentences tools/llvm_presets.py writes into [provenance] are the catalog's: in
    Chinese, describe() says them in Chinese, with the file's opcodes and counts in them."""
    m = preset(name)
    english = describe(m)
    with language.using("zh"):
        chinese = describe(m)
    for key in ("refused", "retimed", "checked"):
        value = m.provenance[key]
        assert value in english and value not in chinese
    with language.using("zh"):
        checked = provenance_text(m.provenance["checked"])
    assert checked != m.provenance["checked"] and "778" in checked and "differ" not in checked
    assert provenance_text("written by hand") == "written by hand"


def test_a_data_preset_is_read_once_per_version_of_its_file(monkeypatch):
    """rocket-rv64 and the other presets kept as files are parsed once (chapter 12 asks for one
    hundreds of times) and again when the file changes (its size or time stamp)."""
    from lecturekit.target import machine

    monkeypatch.setattr(machine, "_loaded_presets", {})
    first = machine.preset("rocket-rv64")
    assert machine.preset("rocket-rv64") is first
    assert machine.get_machine("rocket-rv64").with_options(issue_rules="llvm-mca") is not first
    ((path, (stamp, _cached)),) = machine._loaded_presets.items()
    machine._loaded_presets[path] = ((stamp[0], stamp[1] - 1), first)  # as if the file changed
    again = machine.preset("rocket-rv64")
    assert again is not first and again == first
