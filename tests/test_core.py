"""The scheduling core: the one verifier, and evaluation of fixed orders (one or many streams)."""

import pytest

from lecturekit.core import Edge, Graph, Operation, Reservation, evaluate, verify, violations
from lecturekit.errors import DeadlockError, ScheduleError
from lecturekit.language import using


def ops(n, unit="u", cycles=1):
    return [Operation(f"o{i}", reservations=(Reservation(unit, 0, cycles),)) for i in range(n)]


def test_verifier_names_the_violated_edge():
    g = Graph(ops(2), [Edge(0, 1, 3, "RAW", "t0")], units={"u": 1})
    assert violations(g, [1, 4]) == []
    (msg,) = violations(g, [1, 3])
    assert "RAW on t0" in msg and "o1" in msg and "3 cycle(s) after o0" in msg
    with pytest.raises(ScheduleError, match="illegal schedule"):
        verify(g, [1, 3])


def test_verifier_names_overfull_cycles():
    g = Graph(ops(3), [], units={"u": 2}, issue_width=2)
    problems = violations(g, [1, 1, 1])
    assert any("issue width is 2" in p for p in problems)
    assert any("unit u is used by 3" in p for p in problems)
    assert violations(g, [1, 1, 2]) == []


def test_verifier_modulo_rows_and_distances():
    g = Graph(ops(2), [Edge(1, 0, 4, "RAW", "s", distance=1)], units={"u": 1})
    assert violations(g, [0, 1], ii=5) == []  # 0 - 1 >= 4 - 5
    assert violations(g, [0, 1], ii=4) != []
    assert any("distance" in p for p in violations(g, [1, 2]))
    assert any("row 0" in p for p in violations(g, [0, 2], ii=2))  # both in row 0 of the MRT
    assert any("must wait 4 - 3×1" in p for p in violations(g, [0, 1], ii=3))


def test_violations_say_their_kind_in_every_language():
    """Code tests a violation's kind, never its words: the kinds are the same in Chinese, the
    sentences are not (loops.modulo.explain_ii keeps the dependence ones this way)."""
    g = Graph(ops(3), [Edge(0, 1, 3, "RAW", "t0")], units={"u": 1}, issue_width=1)
    found = violations(g, [0, 2, 0], ii=4, kinds=True)
    assert [k for k, _text in found] == ["dependence", "issue", "unit"]
    assert [text for _k, text in found] == violations(g, [0, 2, 0], ii=4)
    assert found[1][1].startswith("row 0: 2 operations start")
    with using("zh"):
        zh = violations(g, [0, 2, 0], ii=4, kinds=True)
    assert [k for k, _text in zh] == ["dependence", "issue", "unit"]
    assert zh[0][1].startswith("t0 上的 RAW：o1") and zh[1][1].startswith("第 0 行：")


def test_verifier_rejects_garbage():
    g = Graph(ops(2), [], units={"u": 1})
    assert "2 operations" in violations(g, [1])[0]
    assert "not a whole cycle" in violations(g, [1, 2.5])[0]
    assert "before cycle 1" in violations(g, [0, 1])[0]


def test_graph_rejects_bad_structure():
    with pytest.raises(ScheduleError, match="does not exist"):
        Graph(ops(1), [Edge(0, 5, 1)], units={"u": 1})
    with pytest.raises(ScheduleError, match="no capacity"):
        Graph(ops(1), [], units={})
    g = Graph(ops(2), [Edge(0, 1, 1), Edge(1, 0, 1)], units={"u": 1})
    with pytest.raises(ScheduleError, match="cycle"):
        g.topological_order()


def test_evaluate_in_order_with_unit_busy():
    g = Graph(ops(3, cycles=2), [], units={"u": 1}, issue_width=1)
    s = evaluate(g, [0, 1, 2])
    assert s.start == [1, 3, 5] and s.info["stalls"] == 2
    assert "unit u busy" in s.reasons[1]


def test_evaluate_rejects_an_order_that_breaks_a_dependence():
    g = Graph(ops(2), [Edge(0, 1, 1, "RAW", "t0")], units={"u": 1})
    with pytest.raises(ScheduleError, match="puts o1 before o0"):
        evaluate(g, [1, 0])
    with pytest.raises(ScheduleError, match="leaves out"):
        evaluate(g, [0])
    with pytest.raises(ScheduleError, match="more than once"):
        evaluate(g, [0, 0, 1])


def test_streams_run_in_parallel_and_deadlock_is_named():
    # two devices; a on dev0 feeds b on dev1 and c on dev1 feeds d on dev0
    g = Graph(
        [
            Operation("a", reservations=(Reservation("d0", 0, 2),), tail=1),
            Operation("b", reservations=(Reservation("d1", 0, 2),), tail=1),
            Operation("c", reservations=(Reservation("d1", 0, 2),), tail=1),
            Operation("d", reservations=(Reservation("d0", 0, 2),), tail=1),
        ],
        [Edge(0, 1, 2), Edge(2, 3, 2)],
        units={"d0": 1, "d1": 1},
    )
    s = evaluate(g, {"dev0": [0, 3], "dev1": [2, 1]})
    verify(g, s)
    assert s.start == [1, 3, 1, 3] and s.length == 4
    with pytest.raises(DeadlockError, match="dev0 is stuck at d, waiting for c"):
        evaluate(g, {"dev0": [3, 0], "dev1": [1, 2]})


def test_schedule_to_dict_is_json_ready():
    import json

    from lecturekit.target.deps import analyze

    s = evaluate(analyze("add $t0, $t1, $t2\nadd $t3, $t0, $t0").graph, [0, 1])
    d = json.loads(json.dumps(s.to_dict()))
    assert d["issue"] == [2, 5] and d["waits"][1]["cause"] == "RAW"
