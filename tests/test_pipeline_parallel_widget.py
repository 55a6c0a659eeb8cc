"""The pipeline-schedule explorer and stepper, headless: move controls, read what they show."""

import pytest

pytest.importorskip("ipywidgets")

from lecturekit.widgets import pipeline_parallel as widget_module  # noqa: E402
from lecturekit.widgets.pipeline_parallel import (  # noqa: E402
    pipeline_explorer,
    pipeline_stepper,
    step_caption,
)


def test_starts_with_1f1b_p4_m8():
    ex = pipeline_explorer()
    assert ex.error.value == ""
    assert ex.run.name == "1f1b" and ex.run.makespan == 66  # T_F = T_B = T_W = 2
    assert "27.3%" in ex.summary.value and "4, 3, 2, 1" in ex.summary.value
    assert ex.image.value[:4] == b"\x89PNG"
    assert ex.controls["v"].disabled


def test_controls_update_everything():
    ex = pipeline_explorer()
    before = ex.image.value
    ex.controls["schedule"].value = "zb-h1"
    assert ex.run.name == "zb-h1" and ex.run.makespan == 54
    assert "kept until W" in ex.summary.value
    assert ex.image.value != before
    ex.controls["schedule"].value = "interleaved"
    assert not ex.controls["v"].disabled and ex.run.v == 2 and ex.run.makespan == 57
    ex.controls["m"].value = 12
    assert ex.run.m == 12 and "closed form" in ex.summary.value
    ex.controls["schedule"].value = "pipedream"
    assert "steady period (none)" in ex.summary.value


def test_bad_combinations_are_explained_not_raised():
    ex = pipeline_explorer("interleaved")
    good = ex.run
    ex.controls["m"].value = 6
    assert "not a multiple of p = 4" in ex.error.value
    assert ex.run is good  # figures stay those of the last valid settings
    ex.controls["m"].value = 8
    assert ex.error.value == ""
    ex.controls["tf"].value = 3
    assert "not divisible by v = 2" in ex.error.value
    ex.controls["schedule"].value = "zb-h2"
    ex.controls["tw"].value = 0
    assert "weight-gradient pass" in ex.error.value


def test_unexpected_failure_stays_inside_the_widget(monkeypatch):
    ex = pipeline_explorer()

    def boom(*args, **kwargs):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(widget_module, "pipeline_schedule", boom)
    ex.controls["m"].value = 5
    assert "unexpected error (ZeroDivisionError)" in ex.error.value


def test_stepper_walks_through_time():
    run = pipeline_explorer().run
    st = pipeline_stepper(run)
    assert st.n_steps == run.makespan + 1
    st.index = 5
    assert st.caption.value.startswith("time 5:") and st.error.value == ""
    assert "device 0: <b>F3</b>" in st.caption.value
    assert step_caption(run, 0).startswith("before the step")


def test_second_edition_schedules_show_their_placement():
    ex = pipeline_explorer()
    options = list(ex.controls["schedule"].options)
    assert {"looped-bfs", "zb-v", "dualpipev"} <= set(options)
    ex.controls["schedule"].value = "zb-v"
    # T_F = T_B = T_W = 2 (one chunk's pass = 1): m(T_F+T_B+T_W) + (p-1) T_F / 2 = 48 + 3
    assert ex.error.value == "" and ex.run.makespan == 51 and ex.run.v == 2
    assert ex.controls["v"].disabled  # a V always has two stages per device
    assert "51 ✓" in ex.summary.value
    assert "v: 0: 0, 7; 1: 1, 6; 2: 2, 5; 3: 3, 4" in ex.summary.value
    ex.controls["schedule"].value = "dualpipev"
    assert ex.run.name == "dualpipev" and ex.run.makespan == 51
    assert "0: 0, 7;" in ex.summary.value
    ex.controls["schedule"].value = "looped-bfs"
    assert not ex.controls["v"].disabled and ex.run.makespan == 57  # interleaved's time
    assert "loop: 0: 0, 4; 1: 1, 5" in ex.summary.value
    for k in ("tf", "tb", "tw"):
        ex.controls[k].value = 3
    ex.controls["v"].value = 3
    assert ex.error.value == "" and ex.run.v == 3 and "0: 0, 4, 8;" in ex.summary.value
    assert ex.run.makespan == 8 * 9 + 3 * 9 // 3  # m(T_F+T_B+T_W) + (p-1)(T_F+T_B+T_W)/v
    ex.controls["schedule"].value = "1f1b"
    assert "stages per device" not in ex.summary.value


def test_v_schedule_errors_stay_in_the_widget():
    ex = pipeline_explorer("zb-v")
    good = ex.run
    ex.controls["tf"].value = 3  # a chunk's forward would be 3/2 time units
    assert "not divisible by v = 2" in ex.error.value
    assert ex.run is good


def test_stepper_says_which_stages_a_device_holds():
    run = pipeline_explorer("zb-v").run
    st = pipeline_stepper(run)
    st.index = 5
    assert st.error.value == ""
    assert "device 0 (stages 0, 7): <b>F5</b>" in st.caption.value
    assert "device 3 (stages 3, 4): <b>F1.1</b>" in st.caption.value  # stage 4 = chunk 1
