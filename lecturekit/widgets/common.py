"""Pieces every widget shares: a stepper over a trace, and callbacks that cannot crash.

A *trace* is a list of steps an algorithm recorded (the cycles of a pipeline simulation, the
decisions of a list scheduler, ...). :class:`Stepper` walks through one with play / back / step
buttons and a slider, and calls your ``render(i)`` for step ``i``::

    from lecturekit.widgets.common import Stepper

    def render(i):
        fig = draw_something(trace[i])           # a matplotlib Figure
        return fig, f"step {i + 1}: {trace[i]}"  # shown in the output, and as the caption

    stepper = Stepper(len(trace), render, title="My algorithm")
    stepper                                      # displays itself in a notebook

What ``render`` returns is shown: a ``str`` becomes the caption (HTML), a matplotlib ``Figure``
is shown as a PNG in ``stepper.output`` (and closed), a tuple does both. What it prints is shown
in the output too (above the figures). When it returns no figure and prints nothing, the
output is left as ``render`` set it (e.g. with :func:`show_figure` or :func:`show_text`), so a
render may also manage ``stepper.output`` itself.
Any exception it raises is shown in red in ``stepper.error`` and never reaches the kernel; the
same protection is available for any callback via :func:`safe`.

ipywidgets, IPython and matplotlib are imported inside the functions, so importing this module
is cheap.
"""

from __future__ import annotations

import functools
import html
import io
from collections.abc import Callable

from ..language import _

#: Default dots per inch of figures shown inside widgets (CONTRIBUTING: at most 100).
WIDGET_DPI = 80


#: CSS class of every Stepper's step control, whatever language its label is in
STEP_BUTTON_CLASS = "lecturekit-step"


def error_html(exc: BaseException | str) -> str:
    """The red HTML a widget shows for an error.

    A :class:`~lecturekit.errors.LectureKitError` shows its own message (for a parse error:
    ``line 2, column 9: ...`` and the offending line with a caret); any other exception shows its
    type and message, marked as unexpected. Never a traceback.
    """
    from ..errors import LectureKitError

    if isinstance(exc, str):
        head, rest = exc, ""
    else:
        text = str(exc) or type(exc).__name__
        if not isinstance(exc, LectureKitError):
            text = _("unexpected error ({name}): {text}").format(name=type(exc).__name__, text=text)
        head, _unused, rest = text.partition("\n")
    error = _("Error:")
    out = f'<span style="color:#c00000"><b>{error}</b> {html.escape(head)}</span>'
    if rest:
        out += (
            f'<pre style="color:#c00000;margin:2px 0 0 0;line-height:1.2">{html.escape(rest)}</pre>'
        )
    return out


def as_program(value, what: str | None = None):
    """``value`` as a parsed Program: text is parsed; anything but text or a Program (None, a
    number, bytes) is a LectureKitError naming what was given, for the widget to show."""
    from ..asm import Program, parse
    from ..errors import LectureKitError

    if isinstance(value, Program):
        return value
    if isinstance(value, str):
        return parse(value)
    raise LectureKitError(
        _("{what}: expected program text (a string) or a parsed Program, got {name}").format(
            what=what or _("the block"), name=type(value).__name__
        )
    )


def as_text(value, what: str | None = None) -> tuple[str, str | None]:
    """(text for a text box, error message or None): a widget's text box cannot hold None, a
    number or bytes, so it starts empty and the error says what was given instead."""
    if isinstance(value, str):
        return value, None
    return "", (
        _(
            "{what}: expected program text (a string), got {name}; type the code into the box"
        ).format(what=what or _("the block"), name=type(value).__name__)
    )


def choice_problem(name: str, value, options) -> str | None:
    """None if ``value`` is one of ``options``, else a message naming the value and the options
    (for a control that can only show those: the value is refused, never replaced)."""
    try:
        ok = not isinstance(value, bool) and value in list(options)
    except TypeError:
        ok = False
    if ok:
        return None
    shown = ", ".join(map(str, options))
    return _("{name}: this control offers {shown}; got {value!r}").format(
        name=name, shown=shown, value=value
    )


def range_problem(name: str, value, lo: int, hi: int) -> str | None:
    """None if ``value`` is an int in ``[lo, hi]`` (a slider's range), else a message."""
    if isinstance(value, bool) or not isinstance(value, int):
        return _("{name}: expected a whole number from {lo} to {hi}, got {value!r}").format(
            name=name, lo=lo, hi=hi, value=value
        )
    if not lo <= value <= hi:
        digits = int(abs(value).bit_length() * 0.30103) + 1  # no str() of a huge int
        shown = (
            f"{value:,}"
            if abs(value) < 10**30
            else _("a number of about {digits} digits").format(digits=digits)
        )
        return _("{name}: this control goes from {lo} to {hi}; got {shown}").format(
            name=name, lo=lo, hi=hi, shown=shown
        )
    return None


def safe(callback: Callable, error_widget, *, clear: bool = True) -> Callable:
    """Wrap ``callback`` so an exception is shown in ``error_widget`` instead of propagating.

    ``error_widget`` is an ``ipywidgets.HTML`` (anything with a ``.value``). On an exception its
    value becomes :func:`error_html` of it and the wrapper returns ``None``. With ``clear``, a
    call that succeeds empties the error area (the user fixed the problem).
    """

    @functools.wraps(callback)
    def wrapper(*args, **kwargs):
        try:
            result = callback(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - the whole point: nothing reaches the kernel
            error_widget.value = error_html(exc)
            return None
        if clear and error_widget.value:
            error_widget.value = ""
        return result

    return wrapper


def follow(controls, update: Callable[[], None], error_widget) -> None:
    """Run ``update`` now and again whenever one of ``controls`` changes value: a bad starting
    value shows in ``error_widget`` as the first view (never an exception out of the
    constructor), a failed change there too (:func:`safe`)."""
    from ..errors import LectureKitError

    try:
        update()
    except LectureKitError as exc:
        error_widget.value = error_html(exc)
    for control in controls:
        control.observe(safe(lambda _change: update(), error_widget), names="value")


def figure_png(fig, dpi: int = WIDGET_DPI, *, close: bool = True) -> bytes:
    """PNG bytes of a matplotlib figure (closed afterwards unless ``close=False``)."""
    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight")
    if close:
        plt.close(fig)
    return buf.getvalue()


def show_figure(output, fig, *, dpi: int = WIDGET_DPI, close: bool = True) -> None:
    """Make ``output`` (an ``ipywidgets.Output``) show exactly ``fig`` as a PNG.

    It sets the Output's ``outputs`` directly, so it works with or without a running kernel
    (and is what the tests inspect).
    """
    output.outputs = (_png_output(fig, dpi, close=close),)


def _png_output(fig, dpi: int = WIDGET_DPI, *, close: bool = True) -> dict:
    import base64

    png = figure_png(fig, dpi, close=close)
    return {
        "output_type": "display_data",
        "data": {"image/png": base64.b64encode(png).decode("ascii"), "text/plain": "<Figure>"},
        "metadata": {},
    }


def show_text(output, text: str, *, html_text: str | None = None) -> None:
    """Make ``output`` show ``text`` (monospace), or ``html_text`` when given, and nothing else."""
    data = {"text/plain": text}
    if html_text is not None:
        data["text/html"] = html_text
    else:
        data["text/html"] = f"<pre style='line-height:1.25'>{html.escape(text)}</pre>"
    output.outputs = ({"output_type": "display_data", "data": data, "metadata": {}},)


def clear(output) -> None:
    """Empty an ``ipywidgets.Output`` (works without a kernel too)."""
    output.outputs = ()


def _with_plain_text(bundle, text: str):
    """A widget's display bundle with a readable ``text/plain`` (what a page without the widget
    state, e.g. GitHub, shows instead of ``VBox(children=...)``)."""
    if isinstance(bundle, tuple):
        return (_with_plain_text(bundle[0], text), *bundle[1:])
    if isinstance(bundle, dict):
        bundle = dict(bundle)
        bundle["text/plain"] = text
    return bundle


def plain_text_note(what: str) -> str:
    """``[interactive widget: ...; run the notebook to use it]``."""
    return _("[interactive widget: {what}; run the notebook to use it]").format(what=what)


def control_panel(controls: dict, below: list, on_change: Callable[[], None], *, column: int = 4):
    """An explorer's layout: ``controls`` (name -> widget) in two columns (the first ``column``
    on the left), then the ``below`` widgets (error line, summary, figure...), in a VBox.
    ``on_change()`` runs whenever any control's value changes."""
    import ipywidgets as w

    widgets = list(controls.values())
    for control in widgets:
        control.observe(lambda _change: on_change(), names="value")
    columns = w.HBox([w.VBox(widgets[:column]), w.VBox(widgets[column:])])
    return w.VBox([columns, *below])


class Stepper:
    """Play / back / step / slider over ``n_steps`` steps, calling ``render(i)`` for step ``i``.

    Attributes (all ipywidgets): ``widget`` (the whole thing, a VBox), ``output`` (where
    ``render`` draws), ``caption`` (HTML under the controls), ``error`` (HTML, red, empty when all
    is well), ``play``, ``slider``, ``back_button``, ``step_button``, ``title_html``.

    ``index`` (0-based) reads and sets the current step; :meth:`step` and :meth:`back` move by
    one; :meth:`reset` starts over with a new number of steps (e.g. after an option changed).
    ``render`` is called once at construction (for step 0) and on every change of step; what it
    returns is shown (a caption ``str``, a matplotlib ``Figure``, a tuple of both, or ``None``:
    see the module docstring).
    ``interval`` is the play speed in milliseconds per step.
    """

    def __init__(
        self,
        n_steps: int,
        render: Callable[[int], object],
        title: str = "",
        *,
        interval: int = 900,
        step_name: str | None = None,
    ):
        import ipywidgets as w

        self.render = render
        step_name = step_name or _("step")
        self.step_name = step_name
        self.n_steps = max(1, int(n_steps))
        self.title_html = w.HTML(f"<b>{html.escape(title)}</b>" if title else "")
        self.play = w.Play(
            value=0, min=0, max=self.n_steps - 1, step=1, interval=interval, description=_("play")
        )
        self.slider = w.IntSlider(
            value=0,
            min=0,
            max=self.n_steps - 1,
            description=step_name,
            readout=False,
            continuous_update=True,
            layout=w.Layout(width="320px"),
        )
        self.position = w.Label(self._position_text(0))
        self.back_button = w.Button(
            description=_("◀ back"),
            tooltip=_("previous {step}").format(step=step_name),
            layout=w.Layout(width="80px"),
        )
        self.step_button = w.Button(
            description=_("step ▶"),
            tooltip=_("next {step}").format(step=step_name),
            layout=w.Layout(width="80px"),
        )
        # a class the page can find in either language (the browser test clicks it)
        self.step_button.add_class(STEP_BUTTON_CLASS)
        self.caption = w.HTML("")
        self.error = w.HTML("")
        self.output = w.Output()
        # play and slider stay in step through the kernel (no jslink: one source of truth)
        self.play.observe(self._on_play, names="value")
        self.slider.observe(self._on_slider, names="value")
        self.back_button.on_click(safe(lambda _b: self.back(), self.error, clear=False))
        self.step_button.on_click(safe(lambda _b: self.step(), self.error, clear=False))
        controls = w.HBox(
            [self.play, self.back_button, self.step_button, self.slider, self.position]
        )
        self.widget = w.VBox([self.title_html, controls, self.caption, self.error, self.output])
        self._draw(0)

    # -- navigation ------------------------------------------------------------------------
    @property
    def index(self) -> int:
        """The current step, 0-based."""
        return self.slider.value

    @index.setter
    def index(self, value: int) -> None:
        value = max(0, min(int(value), self.n_steps - 1))
        self.slider.value = value  # observers draw

    def step(self) -> None:
        """Go one step forward (stays on the last step)."""
        self.index = self.index + 1

    def back(self) -> None:
        """Go one step back (stays on the first step)."""
        self.index = self.index - 1

    def reset(self, n_steps: int, index: int = 0) -> None:
        """Start over with ``n_steps`` steps at ``index`` and draw it."""
        self.n_steps = max(1, int(n_steps))
        index = max(0, min(int(index), self.n_steps - 1))
        self._syncing = True
        try:
            self.play.value = min(self.play.value, self.n_steps - 1)
            self.slider.value = min(self.slider.value, self.n_steps - 1)
            self.play.max = self.n_steps - 1
            self.slider.max = self.n_steps - 1
            self.slider.value = index
            self.play.value = index
        finally:
            self._syncing = False
        self._draw(index)

    def redraw(self) -> None:
        """Draw the current step again (after the data behind it changed)."""
        self._draw(self.index)

    # -- internals -------------------------------------------------------------------------
    _syncing = False

    def _plain_text(self) -> str:
        title = self.title_html.value.replace("<b>", "").replace("</b>", "")
        what = html.unescape(title) or _("stepper")
        return plain_text_note(_("{what}, {n} steps").format(what=what, n=self.n_steps))

    def _position_text(self, i: int) -> str:
        return f"{self.step_name} {i + 1} / {self.n_steps}"

    def _on_play(self, change) -> None:
        if self.slider.value != change["new"]:
            self.slider.value = change["new"]

    def _on_slider(self, change) -> None:
        if self.play.value != change["new"]:
            self.play.value = change["new"]
        if not self._syncing:
            self._draw(change["new"])

    def _draw(self, i: int) -> None:
        self.position.value = self._position_text(i)
        self.back_button.disabled = i <= 0
        self.step_button.disabled = i >= self.n_steps - 1
        safe(self._render_into_output, self.error)(i)

    def _render_into_output(self, i: int) -> None:
        import contextlib

        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            result = self.render(i)
        figures = self._apply_result(result)
        outputs = []
        if printed.getvalue():
            outputs.append({"output_type": "stream", "name": "stdout", "text": printed.getvalue()})
        outputs.extend(_png_output(fig) for fig in figures)
        if outputs:  # otherwise render managed the output itself (or shows nothing new)
            self.output.outputs = tuple(outputs)

    def _apply_result(self, result) -> list:
        """Set the caption from ``result``; return the figures it holds, in order."""
        if result is None:
            return []
        if isinstance(result, tuple):
            return [fig for part in result for fig in self._apply_result(part)]
        if isinstance(result, str):
            self.caption.value = result
            return []
        if hasattr(result, "savefig"):
            return [result]
        raise TypeError(
            _(
                "render() returned a {name}; return None, a caption string, a "
                "matplotlib Figure, or a tuple of those"
            ).format(name=type(result).__name__)
        )

    def _repr_mimebundle_(self, **kwargs):
        return _with_plain_text(self.widget._repr_mimebundle_(**kwargs), self._plain_text())


__all__ = [
    "Stepper",
    "control_panel",
    "plain_text_note",
    "WIDGET_DPI",
    "clear",
    "error_html",
    "figure_png",
    "follow",
    "safe",
    "show_figure",
    "show_text",
]
