"""Textbook machines: latency by producer and consumer (``latency_pairs``), a branch resolved in
ID, MIPS FP opcodes, and the ``hp-fp`` preset reproducing Hennessy & Patterson's worked loop.

H&P (Computer Architecture: A Quantitative Approach, 5th ed., Section 3.2, Figure 3.2) count a
latency as the stall cycles between two instructions; lecturekit's latencies are issue
distances, one more."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lecturekit.asm import parse
from lecturekit.asm.random_blocks import random_topological_order
from lecturekit.core import evaluate, list_schedule, optimal_schedule, verify
from lecturekit.errors import MachineError, ParseError, ScheduleError
from lecturekit.target.deps import analyze
from lecturekit.target.machine import OP_CLASSES, load_machine, machine_from_dict, preset
from lecturekit.target.pipeline import simulate

# H&P's loop (x[i] = x[i] + s), in the lecture's MIPS notation: R1 -> $s1, R2 -> $s2
HP_LOOP = """Loop: l.d    $f0, 0($s1)
      add.d  $f4, $f0, $f2
      s.d    $f4, 0($s1)
      daddui $s1, $s1, -8
      bne    $s1, $s2, Loop
"""
# H&P's scheduled version: the pointer update moved up, the store's offset rewritten
HP_SCHEDULED = """Loop: l.d    $f0, 0($s1)
      daddui $s1, $s1, -8
      add.d  $f4, $f0, $f2
      s.d    $f4, 8($s1)
      bne    $s1, $s2, Loop
"""


def per_iteration(sim):
    """H&P's count: from the cycle the first instruction issues to the one the branch issues."""
    return max(sim.issue.values()) - min(sim.issue.values()) + 1


def agree(program, machine, order=None):
    dg = analyze(program, machine)
    order = list(range(len(dg.program))) if order is None else order
    ev = evaluate(dg.graph, order)
    verify(dg.graph, ev)
    sim = simulate(program, machine, order)
    n = len(dg.program)
    assert [sim.issue[k] for k in range(n)] == ev.start
    assert [sim.finish[k] for k in range(n)] == ev.finish
    assert sim.cycles == ev.length and len(sim.stalls) == ev.info["stalls"]
    return sim, ev


def test_hp_figure_3_2_latencies():
    m = preset("hp-fp")
    hp = {  # (producer, consumer): H&P's latency (stall cycles)
        ("fadd", "fadd"): 3,
        ("fadd", "store"): 2,
        ("load", "fadd"): 1,
        ("load", "store"): 0,
        ("alu", "branch"): 1,
        ("fmul", "fadd"): 6,
        ("fdiv", "fadd"): 24,
    }
    for (p, c), stalls in hp.items():
        assert m.latency("RAW", p, c) == stalls + 1, (p, c)
    # the integer pipeline is the classic one: ALU -> ALU back to back, load-use one stall
    assert m.latency("RAW", "alu", "alu") == 1 and m.latency("RAW", "load", "alu") == 2
    assert m.branch_resolves_in == "ID"


def test_hp_loop_nine_cycles_unscheduled_with_their_stalls():
    sim, _ev = agree(HP_LOOP, "hp-fp")
    assert per_iteration(sim) == 9
    first = min(sim.issue.values())
    # H&P's listing: L.D 1, stall, ADD.D 3, stall, stall, S.D 6, DADDUI 7, stall, BNE 9
    assert [sim.issue[k] - first + 1 for k in range(5)] == [1, 3, 6, 7, 9]
    assert [(s.cycle - first + 1, s.on) for s in sim.stalls] == [
        (2, "f0"),
        (4, "f4"),
        (5, "f4"),
        (8, "s1"),
    ]


def test_hp_loop_seven_cycles_scheduled():
    sim, _ev = agree(HP_SCHEDULED, "hp-fp")
    assert per_iteration(sim) == 7
    first = min(sim.issue.values())
    # L.D 1, DADDUI 2, ADD.D 3, stall, stall, S.D 6, BNE 7
    assert [sim.issue[k] - first + 1 for k in range(5)] == [1, 2, 3, 6, 7]
    assert [s.on for s in sim.stalls] == ["f4", "f4"]


def test_hp_loop_cannot_be_reordered_to_seven_without_rewriting_the_offset():
    # the store reads $s1 before daddui writes it (WAR): the best order of the code as written
    # is H&P's nine cycles; their seven need the offset rewritten (HP_SCHEDULED)
    dg = analyze(HP_LOOP, "hp-fp")
    best = optimal_schedule(dg.graph)
    verify(dg.graph, best)
    assert max(best.start) - min(best.start) + 1 == 9
    s = list_schedule(dg.graph)
    verify(dg.graph, s)
    dg7 = analyze(HP_SCHEDULED, "hp-fp")
    best7 = optimal_schedule(dg7.graph)
    verify(dg7.graph, best7)
    assert max(best7.start) - min(best7.start) + 1 == 7


def test_without_the_table_the_store_waits_for_the_add_to_finish():
    m = preset("hp-fp").with_options(latency_pairs={})
    assert m.latency("RAW", "fadd", "store") == 4  # no longer H&P's 2 stalls
    sim, _ev = agree(HP_LOOP, m)
    assert per_iteration(sim) == 10


def test_branch_resolves_in_id_costs_one_cycle_after_an_alu_op():
    src = "addu $t0, $t1, $t2\nbne $t0, $t3, out\nout: nop"
    c5 = preset("classic5")
    assert c5.latency("RAW", "alu", "branch") == 1
    early = c5.with_options(branch_resolves_in="ID")
    assert early.latency("RAW", "alu", "branch") == 2
    assert early.latency("RAW", "load", "branch") == 3  # H&P: load -> branch, two stalls
    assert early.latency("RAW", "alu", "alu") == 1  # other consumers unchanged
    sim, _ = agree(src, early)
    assert [(s.cause, s.on) for s in sim.stalls] == [("RAW", "t0")]
    assert agree(src, c5)[0].stalls == []


# H&P's earlier editions (3rd ed.) give MIPS a delayed branch: the same loop takes 10 cycles with
# a nop in the delay slot and 6 when the store fills the slot
HP_DELAYED = """Loop: l.d    $f0, 0($s1)
      daddui $s1, $s1, -8
      add.d  $f4, $f0, $f2
      bne    $s1, $s2, Loop
      s.d    $f4, 8($s1)
"""


def test_delay_slot_hp_loop_ten_then_six():
    m = preset("hp-fp").with_options(delay_slot=True)
    sim, _ = agree(HP_LOOP + "      nop\n", m)
    assert per_iteration(sim) == 10
    sim, _ = agree(HP_DELAYED, m)
    assert per_iteration(sim) == 6
    first = min(sim.issue.values())
    # L.D 1, DADDUI 2, ADD.D 3, BNE 4, stall, S.D 6 (in the delay slot)
    assert [sim.issue[k] - first + 1 for k in range(5)] == [1, 2, 3, 4, 6]
    ctrl = {(e.src, e.dst): e.on for e in analyze(HP_DELAYED, m).edges if e.kind == "CTRL"}
    assert ctrl[(3, 4)] == "delay slot"


def test_delay_slot_stays_after_its_branch():
    src = "bne $t0, $t1, out\nadd $t2, $t3, $t4\nsub $t5, $t6, $t7\nout: nop"
    plain = analyze(src, "classic5")
    slot = analyze(src, preset("classic5").with_options(delay_slot=True))
    # without a slot the two instructions after the branch may swap; with one, the add stays
    assert not any(e.src == 1 and e.dst == 2 for e in plain.edges)
    assert any(e.src == 1 and e.dst == 2 and e.on == "delay slot" for e in slot.edges)
    best = optimal_schedule(slot.graph)
    verify(slot.graph, best)
    assert best.start[1] <= best.start[2] and best.start[0] <= best.start[1]
    with pytest.raises(ScheduleError, match="puts I3 before I2"):
        simulate(src, slot.machine, [0, 2, 1, 3])
    simulate(src, "classic5", [0, 2, 1, 3])  # legal without the slot


def test_branch_in_a_delay_slot_refused():
    src = "bne $t0, $t1, out\nbeq $t2, $t3, out\nout: nop"
    with pytest.raises(
        ScheduleError, match="line 2: a branch .* delay slot of the branch on line 1"
    ):
        analyze(src, preset("dual").with_options(delay_slot=True))


def test_delay_slot_from_a_file(tmp_path):
    m = load_machine(write(tmp_path, 'base = "hp-fp"\ndelay_slot = true\n'))
    assert m.delay_slot
    with pytest.raises(MachineError, match="field 'delay_slot' must be a bool"):
        load_machine(write(tmp_path, 'base = "hp-fp"\ndelay_slot = "yes"\n'))


def test_existing_presets_have_no_table():
    for name in ("lecture", "classic5", "dual", "rocket-rv64", "sifive-7-rv64"):
        m = preset(name)
        assert m.latency_pairs == {} and m.branch_resolves_in is None and not m.delay_slot


def test_fp_opcodes_parse_in_mips_notation():
    p = parse(
        HP_LOOP + "mul.d $f6, $f4, $f8\ndiv.d $f10, $f6, $f2\nsub.d $f1, $f2, $f3\n"
        "addu $t0, $t1, $t2\naddiu $t0, $t0, 4\ndaddu $t1, $t0, $t0\n"
    )
    classes = [ins.op_class for ins in p]
    assert (
        classes == ["load", "fadd", "store", "alu", "branch", "fmul", "fdiv", "fadd"] + ["alu"] * 3
    )
    assert p[0].dests == ("f0",) and p[0].srcs == ("s1",) and str(p[0].mem) == "0($s1)"
    assert p[2].srcs == ("f4", "s1") and p[3].imm == -8


@pytest.mark.parametrize(
    "src, column, message",
    [
        ("add.d $f0, $f2, 4", 17, "register as its second source"),
        ("l.d $f0 0($s1)", 9, "expected ','"),
        ("s.d $f4, 0($s1", 15, r"'\)' closing"),
        ("daddui $s1, $s1, $t0", 18, "integer for the immediate"),
        ("add.q $f0, $f1, $f2", 1, "unknown opcode 'add.q'"),
    ],
)
def test_fp_parse_errors_keep_line_and_column(src, column, message):
    with pytest.raises(ParseError, match=message) as info:
        parse("nop\n" + src)
    assert (info.value.line, info.value.column) == (2, column)


def write(tmp_path, text, suffix=".toml"):
    path = tmp_path / f"m{suffix}"
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    "pairs, message",
    [
        ('[{producer = "fadd", consumer = "store"}]', r"latency_pairs\[0\]: missing field"),
        ('[{producer = "fpu", consumer = "store", latency = 2}]', r"\[0\]\.producer: unknown"),
        ('[{producer = "alu", consumer = "st", latency = 2}]', r"\[0\]\.consumer: unknown"),
        ('[{producer = "alu", consumer = "alu", latency = true}]', r"\.latency: must be a"),
        ('[{producer = "alu", consumer = "alu", latency = 0}]', "from 1 to 1000"),
        ('[{producer = "alu", consumer = "alu", latency = 5000}]', "from 1 to 1000"),
        ('[{producer = "alu", consumer = "alu", latency = 2, why = 1}]', "unknown field 'why'"),
        (
            '[{producer = "alu", consumer = "alu", latency = 2}, '
            '{producer = "alu", consumer = "alu", latency = 3}]',
            r"\[1\]: the pair alu -> alu",
        ),
        ("[3]", r"latency_pairs\[0\]: expected a table"),
        ('{producer = "alu"}', "field 'latency_pairs' must be a list"),
    ],
)
def test_bad_latency_pairs_name_file_and_field(tmp_path, pairs, message):
    path = write(tmp_path, f'base = "classic5"\nlatency_pairs = {pairs}\n')
    with pytest.raises(MachineError, match=message) as info:
        load_machine(path)
    assert str(path) in str(info.value)


def test_too_many_pairs_refused(tmp_path):
    entries = [{"producer": p, "consumer": c, "latency": 2} for p in OP_CLASSES for c in OP_CLASSES]
    entries.append(entries[0])
    path = write(tmp_path, json.dumps({"base": "classic5", "latency_pairs": entries}), ".json")
    with pytest.raises(MachineError, match="at most 100 entries"):
        load_machine(path)


@pytest.mark.parametrize(
    "stage, message", [("XX", "not one of the stages"), ("WB", "between the read stage")]
)
def test_bad_branch_stage(tmp_path, stage, message):
    path = write(tmp_path, f'base = "classic5"\nbranch_resolves_in = "{stage}"\n')
    with pytest.raises(MachineError, match=message) as info:
        load_machine(path)
    assert str(path) in str(info.value)


def test_pairs_in_json_and_toml_and_base_merge(tmp_path):
    toml = write(
        tmp_path,
        'base = "hp-fp"\nname = "mine"\n'
        '[[latency_pairs]]\nproducer = "fmul"\nconsumer = "fmul"\nlatency = 9\n',
    )
    m = load_machine(toml)
    assert m.latency("RAW", "fmul", "fmul") == 9
    assert m.latency("RAW", "fadd", "store") == 3  # the base's pairs stay
    data = {
        "base": "lecture",
        "latency_pairs": [{"producer": "mul", "consumer": "alu", "latency": 7}],
    }
    j = load_machine(write(tmp_path, json.dumps(data), ".json"))
    assert j.latency("RAW", "mul", "alu") == 7 and j.latency("RAW", "alu", "alu") == 3


FP_OPS = ["add.d", "mul.d", "div.d", "l.d", "s.d", "daddui", "addu", "lw", "sw", "mul", "add"]


def fp_block(rng, size):
    regs = ["t0", "t1", "t2", "f0", "f2", "s1"]
    lines = []
    for _ in range(size):
        op = rng.choice(FP_OPS)
        d, a, b = (rng.choice(regs) for _ in range(3))
        mem = f"{8 * rng.randrange(3)}(${rng.choice(['s0', 's1'])})"
        if op in ("l.d", "lw"):
            lines.append(f"{op} ${d}, {mem}")
        elif op in ("s.d", "sw"):
            lines.append(f"{op} ${a}, {mem}")
        elif op == "daddui":
            lines.append(f"daddui ${d}, ${a}, {rng.randrange(-8, 9)}")
        else:
            lines.append(f"{op} ${d}, ${a}, ${b}")
    if rng.random() < 0.4:
        lines.insert(rng.randrange(len(lines) + 1), f"bne ${rng.choice(regs)}, $t2, out")
    return parse("\n".join(lines) + "\nout: nop")


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    size=st.integers(1, 12),
    machine=st.sampled_from(["lecture", "classic5", "dual", "hp-fp"]),
    forwarding=st.sampled_from([None, True, False]),
    pairs=st.lists(
        st.tuples(st.sampled_from(OP_CLASSES), st.sampled_from(OP_CLASSES), st.integers(1, 12)),
        max_size=8,
    ),
    early_branch=st.booleans(),
    delay_slot=st.booleans(),
)
def test_simulation_equals_evaluation_with_pair_tables(
    seed, size, machine, forwarding, pairs, early_branch, delay_slot
):
    rng = random.Random(seed)
    m = preset(machine)
    table = dict(m.latency_pairs)
    table.update({(p, c): lat for p, c, lat in pairs})
    changes = {"latency_pairs": table, "delay_slot": delay_slot}
    if forwarding is not None:
        changes["forwarding"] = forwarding
    if early_branch and machine != "lecture":
        changes["branch_resolves_in"] = m.read_stage
    m = m.with_options(**changes)
    program = fp_block(rng, size)
    order = random_topological_order(analyze(program, m).to_networkx(), rng)
    agree(program, m, order)
    for (p, c), lat in table.items():
        assert m.latency("RAW", p, c) == lat


def test_machine_from_dict_pairs_checked_like_files():
    with pytest.raises(MachineError, match=r"here: latency_pairs\[0\]\.latency"):
        machine_from_dict(
            {
                "base": "dual",
                "latency_pairs": [{"producer": "alu", "consumer": "alu", "latency": "3"}],
            },
            source="here",
        )


def test_stall_explanation_names_the_table():
    from lecturekit.viz.text import stall_reason

    sim = simulate(HP_LOOP, "hp-fp")
    reasons = [stall_reason(sim, s) for s in sim.stalls]
    assert "fadd -> store 3 cycles apart, and I2 issued in cycle 4" in reasons[1]
    assert "forwarded" in reasons[0]  # load -> fadd comes from the stage positions
    assert "fadd -> store: 3 after I2" in stall_reason(sim, sim.stalls[1], short=True)
