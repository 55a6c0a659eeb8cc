"""The out-of-order core against Hennessy & Patterson's Tomasulo example.

The code (H&P, *Computer Architecture: A Quantitative Approach*, 5th ed., §3.5 and §3.6)::

    L.D F6,32(R2); L.D F2,44(R3); MUL.D F0,F2,F4; SUB.D F8,F2,F6; DIV.D F10,F0,F6; ADD.D F6,F8,F2

1. The cycle-by-cycle animation of this example in Patterson's and Kubiatowicz's CS252
   lectures (UC Berkeley; load 2, add 2, multiply 10, divide 40 cycles; one instruction issued
   per cycle; a result written in cycle c is used from cycle c + 1) ends with the table
   issue / execution complete / write result = LD 1/3/4, LD 2/4/5, MULTD 3/15/16, SUBD 4/7/8,
   DIVD 5/56/57, ADDD 6/10/11: reproduced here, every number.
2. H&P 5th ed. Figure 3.8 (latencies load 1, add 2, multiply 6, divide 12): the status tables
   "when the MUL.D is ready to write its result" — multiply and divide are the only instructions
   not finished, the DIV.D waits in its reservation station for the MUL.D's result (Qj), the
   register status names the MUL.D for F0 and the DIV.D for F10; and the ADD.D has written F6
   although the DIV.D, issued before it, still needs the old F6: renaming removed the WAR.
3. H&P 5th ed. Figure 3.12 (the same code with a reorder buffer): when the MUL.D is ready to
   commit, only the two L.D's have committed; SUB.D and ADD.D have completed but wait for the
   MUL.D; the DIV.D is executing.

H&P call *issue* what lecturekit calls *dispatch* (entering the stations): ``dispatch`` below.
"""

from dataclasses import replace

from lecturekit.target.machine import preset
from lecturekit.target.ooo import simulate_ooo

HP = """l.d   $f6, 32($r2)
l.d   $f2, 44($r3)
mul.d $f0, $f2, $f4
sub.d $f8, $f2, $f6
div.d $f10, $f0, $f6
add.d $f6, $f8, $f2
"""
LD1, LD2, MUL, SUB, DIV, ADD = range(6)


def cs252_machine():
    m = preset("hp-tomasulo")
    ops = dict(m.ops)
    ops["load"] = replace(ops["load"], execute_cycles=2)
    ops["fmul"] = replace(ops["fmul"], execute_cycles=10)
    ops["fdiv"] = replace(ops["fdiv"], execute_cycles=40)
    return m.with_options(ops=ops, name="hp-tomasulo-cs252")


def test_the_cs252_cycle_table():
    r = simulate_ooo(HP, cs252_machine(), window=None, width=1)
    table = [(row["dispatch"], row["complete"], row["write"]) for row in r.table()]
    assert table == [(1, 3, 4), (2, 4, 5), (3, 15, 16), (4, 7, 8), (5, 56, 57), (6, 10, 11)]
    # execution starts the cycle after the operands are written (MULTD: F2 in cycle 5)
    assert r.issue == [2, 3, 6, 6, 17, 9]


def test_figure_3_8_when_the_multiply_is_ready_to_write():
    r = simulate_ooo(HP, "hp-tomasulo", window=None, width=1)
    ready = r.complete[MUL]  # the multiply has executed; it writes in the next cycle
    assert r.write[MUL] == ready + 1
    done = [k for k in range(6) if r.write[k] <= ready]
    assert done == [LD1, LD2, SUB, ADD]  # multiply and divide are the only ones not finished
    assert r.dispatch[DIV] <= ready < r.issue[DIV]
    state = r.state(ready)
    assert state["stations"] == [(DIV, [MUL])]  # DIV.D waits for the MUL.D: Qj = Mult1
    # register status: F0 from the MUL.D, F10 from the DIV.D (F6 and F8 are written already)
    assert {reg: k for reg, k in state["renamed"].items() if r.write[k] > ready} == {
        "f0": MUL,
        "f10": DIV,
    }
    # the WAR on F6 (DIV.D reads it, ADD.D writes it) did not hold the ADD.D back
    assert r.write[ADD] < r.issue[DIV]
    assert any(e.kind == "WAR" and e.on == "f6" for e in r.removed)


def test_figure_3_12_when_the_multiply_is_ready_to_commit():
    r = simulate_ooo(HP, "hp-tomasulo", window=None, width=1)
    head = r.commit[MUL] - 1  # the cycle before it commits: the MUL.D heads the reorder buffer
    state = r.state(head)
    assert [k for k in range(6) if r.commit[k] <= head] == [LD1, LD2]
    assert state["rob"][0] == (MUL, "written")
    status = dict(state["rob"])
    assert status[SUB] == status[ADD] == "written"  # completed, waiting to commit
    assert r.issue[DIV] <= head + 1 <= r.complete[DIV]  # in execution
    assert r.commit == sorted(r.commit)


def test_a_small_window_stalls_dispatch():
    """With one station the DIV.D, waiting for the multiply, holds the window: the ADD.D
    enters in cycle 12 instead of 6 (H&P's structural stall when no station is free); two
    stations are enough for this code."""
    free = simulate_ooo(HP, "hp-tomasulo", window=None, width=1)
    assert simulate_ooo(HP, "hp-tomasulo", window=2, width=1).issue == free.issue
    tight = simulate_ooo(HP, "hp-tomasulo", window=1, width=1)
    assert (free.dispatch[ADD], tight.dispatch[ADD]) == (6, 12)
    assert "window" in tight.held.values()
