"""The shared widget pieces: Stepper and safe(), headless (no browser, no kernel)."""

import subprocess
import sys

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402

from lecturekit.asm import parse  # noqa: E402
from lecturekit.errors import LectureKitError, ParseError  # noqa: E402
from lecturekit.widgets.common import (  # noqa: E402
    Stepper,
    clear,
    error_html,
    follow,
    safe,
    show_figure,
    show_text,
)


class Recorder:
    def __init__(self, fail_at=(), result="caption"):
        self.calls = []
        self.fail_at = set(fail_at)
        self.result = result

    def __call__(self, i):
        self.calls.append(i)
        if i in self.fail_at:
            raise ValueError(f"cannot draw step {i}")
        if self.result == "caption":
            return f"showing step {i}"
        if self.result == "figure":
            fig, ax = plt.subplots(figsize=(2, 1))
            ax.plot([0, i])
            return fig, f"figure {i}"
        return self.result


def test_stepper_draws_first_step_and_moves():
    r = Recorder()
    s = Stepper(4, r, title="demo")
    assert r.calls == [0]
    assert s.index == 0 and s.caption.value == "showing step 0"
    assert "demo" in s.title_html.value
    s.step()
    assert s.index == 1 and s.caption.value == "showing step 1"
    s.step_button.click()
    assert s.index == 2
    s.back_button.click()
    s.back()
    assert s.index == 0
    assert r.calls == [0, 1, 2, 1, 0]
    assert s.position.value == "step 1 / 4"


def test_stepper_clamps_and_disables_buttons_at_the_ends():
    r = Recorder()
    s = Stepper(3, r)
    assert s.back_button.disabled and not s.step_button.disabled
    s.back()
    assert s.index == 0 and r.calls == [0]  # no redraw when nothing changes
    s.index = 99
    assert s.index == 2 and s.step_button.disabled
    s.step()
    assert s.index == 2
    s.index = -5
    assert s.index == 0


def test_slider_and_play_stay_in_step():
    r = Recorder()
    s = Stepper(6, r)
    s.slider.value = 3
    assert s.play.value == 3 and s.caption.value == "showing step 3"
    s.play.value = 5  # what the Play widget does while playing
    assert s.slider.value == 5 and s.index == 5
    assert r.calls == [0, 3, 5]
    assert s.play.max == s.slider.max == 5


def test_reset_changes_the_number_of_steps_without_spurious_draws():
    r = Recorder()
    s = Stepper(10, r)
    s.index = 8
    s.reset(3, index=1)
    assert s.n_steps == 3 and s.slider.max == 2 and s.play.max == 2
    assert s.index == 1
    assert r.calls == [0, 8, 1]
    s.redraw()
    assert r.calls[-1] == 1


def test_a_failing_render_is_shown_in_the_widget_and_does_not_raise():
    r = Recorder(fail_at={2})
    s = Stepper(4, r)
    s.step()
    s.step()  # raises inside render: must not propagate
    assert s.index == 2
    assert "cannot draw step 2" in s.error.value
    assert "color:#c00000" in s.error.value
    assert "Traceback" not in s.error.value
    s.step()  # a good step clears the error
    assert s.error.value == ""


def test_render_can_return_a_figure_and_the_output_changes():
    r = Recorder(result="figure")
    s = Stepper(3, r)
    first = s.output.outputs
    assert len(first) == 1 and "image/png" in first[0]["data"]
    s.step()
    assert s.output.outputs != first
    assert s.caption.value == "figure 1"
    assert plt.get_fignums() == []  # figures are closed once shown


def test_render_returning_something_odd_is_reported():
    s = Stepper(2, Recorder(result=42))
    assert "render() returned a int" in s.error.value


def test_safe_passes_results_and_catches_errors():
    from ipywidgets import HTML

    err = HTML("")
    assert safe(lambda x: x + 1, err)(1) == 2

    def bad():
        raise ParseError("expected a register", 2, 7, "add $t0, 5")

    assert safe(bad, err)() is None
    assert "line 2, column 7" in err.value
    assert "unexpected" not in err.value
    assert "<pre" in err.value  # the source line with its caret
    safe(lambda: None, err)()
    assert err.value == ""
    err.value = "old"
    safe(lambda: None, err, clear=False)()
    assert err.value == "old"


def test_error_html_escapes_and_labels_unexpected_errors():
    assert "&lt;b&gt;" in error_html(LectureKitError("<b> is no register"))
    text = error_html(KeyError("x"))
    assert "unexpected error (KeyError)" in text
    assert "Error:" in error_html("plain message")


def test_a_real_parse_error_message():
    with pytest.raises(ParseError) as info:
        parse("add $t0, $t1, $t2\nadd $t0, $t1,, $t2")
    assert "line 2, column 14" in error_html(info.value)


def test_show_helpers_set_outputs_directly():
    from ipywidgets import Output

    out = Output()
    show_text(out, "a < b")
    assert out.outputs[0]["data"]["text/plain"] == "a < b"
    assert "a &lt; b" in out.outputs[0]["data"]["text/html"]
    fig, _ax = plt.subplots()
    show_figure(out, fig)
    assert list(out.outputs[0]["data"]) == ["image/png", "text/plain"]
    clear(out)
    assert out.outputs == ()


def test_importing_viz_and_widgets_does_not_load_matplotlib_or_ipywidgets():
    code = (
        "import sys\n"
        "import lecturekit.widgets.common, lecturekit.widgets.pipeline, "
        "lecturekit.widgets.explorer\n"
        "import lecturekit.viz.graph, lecturekit.viz.pipeline, lecturekit.viz.text, "
        "lecturekit.viz.style\n"
        "print('matplotlib' in sys.modules, 'ipywidgets' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_what_render_prints_is_shown_and_replaced_on_the_next_step():
    def render(i):
        print(f"state {i}")

    s = Stepper(3, render)
    assert s.output.outputs[0]["text"] == "state 0\n"
    s.step()
    assert [o["text"] for o in s.output.outputs] == ["state 1\n"]


def test_render_may_manage_the_output_itself():
    holder = {}

    def render(i):
        if "s" in holder:
            show_text(holder["s"].output, f"table {i}")
        return f"caption {i}"

    holder["s"] = s = Stepper(3, render)
    s.step()
    assert s.output.outputs[0]["data"]["text/plain"] == "table 1"
    assert s.caption.value == "caption 1"


def test_follow_shows_a_bad_start_and_reruns_on_every_change():
    import ipywidgets as w

    err, box, runs = w.HTML(""), w.IntText(1), []

    def update():
        runs.append(box.value)
        if box.value < 0:
            raise LectureKitError("negative")

    box.value = -1
    follow([box], update, err)  # no exception out of the constructor
    assert runs == [-1] and "negative" in err.value
    box.value = 2
    assert runs == [-1, 2] and err.value == ""
