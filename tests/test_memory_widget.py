"""The training-memory explorer, headless: build it, move controls, read what it shows."""

import pytest

pytest.importorskip("ipywidgets")

from lecturekit.widgets import memory as widget_module  # noqa: E402
from lecturekit.widgets.memory import memory_explorer  # noqa: E402


def test_starts_with_the_lectures_gpt3_numbers():
    ex = memory_explorer("gpt3")
    assert ex.error.value == ""
    assert "174,601,089,024" in ex.summary.value
    assert "35,497.6" in ex.summary.value and "444 × A100-80GB" in ex.summary.value
    assert ex.image.value[:4] == b"\x89PNG"


def test_controls_update_everything():
    ex = memory_explorer("gpt3")
    before_png, before_total = ex.image.value, ex.report.total
    ex.controls["tp"].value = 8
    ex.controls["sp"].value = True
    assert ex.report.parallel.tp == 8 and ex.report.parallel.sp
    assert ex.report.total < before_total
    assert ex.image.value != before_png
    ex.controls["seq"].value = 8192
    ex.controls["dp"].value = 64
    ex.controls["zero"].value = 3
    ex.controls["recompute"].value = "selective"
    ex.controls["flash"].value = True
    assert ex.report.model.seq == 8192 and ex.report.parallel.zero == 3
    assert f"{ex.report.total / 2**30:,.1f}" in ex.summary.value
    ex.controls["gpu"].value = "H100-80GB"
    assert "H100-80GB" in ex.summary.value and "$" in ex.summary.value


def test_preset_switch_takes_its_shape():
    ex = memory_explorer("gpt3")
    ex.controls["preset"].value = "llama3-8b"
    assert ex.report.model.name == "llama3-8b" and ex.report.model.seq == 8192
    assert ex.controls["seq"].value == 8192


def test_bad_combination_is_explained_not_raised():
    ex = memory_explorer("llama3-8b")
    good = ex.report
    ex.controls["tp"].value = 3  # 32 heads
    assert "tp: tensor-parallel size 3 does not divide heads (32)" in ex.error.value
    assert ex.report is good  # figures stay those of the last valid settings
    ex.controls["tp"].value = 4
    assert ex.error.value == "" and ex.report.parallel.tp == 4
    ex.controls["dp"].value = 1024  # batch 8
    assert "dp: data-parallel size 1024 does not divide batch" in ex.error.value


def test_unexpected_failure_stays_inside_the_widget(monkeypatch):
    ex = memory_explorer("gpt2")

    def boom(*args, **kwargs):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(widget_module, "memory_report", boom)
    ex.controls["batch"].value = 16
    assert "internal error (ZeroDivisionError)" in ex.error.value
