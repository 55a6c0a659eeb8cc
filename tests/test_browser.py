"""The course in a real browser: each chapter with widgets, run in JupyterLab in headless Chromium.

For every chapter ``notebooks/NN_topic.ipynb`` that shows widgets (found at collection time, see
:func:`browser_support.widget_chapters`), plus a small built-in notebook that checks the harness
itself (``00_browser_harness``), this test

1. opens the notebook in a throw-away JupyterLab (a temporary copy of the notebooks, temporary
   Jupyter directories, loopback only; ``browser_support.JupyterLab``),
2. runs all cells through the lab's own command ``notebook:run-all-cells`` (``window.jupyterapp``
   is exposed by ``--LabApp.expose_app_in_browser``) and waits for the kernel to be idle,
3. fails on a cell error (an ``error`` output, or "Traceback" on stderr), a cell left unexecuted,
   a widget that shows "Error displaying widget" / "Model not found" / lecturekit's red error
   area, or is still "Loading widget..." after a timeout,
4. clicks the step control of every stepper (lecturekit's ``Stepper``: the button with tooltip
   "next <step>" and label "step ▶"; also buttons labelled "next", "▶|", "⏭") and checks that
   the position moved on by one and the caption, the figure (``img`` src) or the output changed;
   a chapter without a stepper fails; then the first dropdown of the chapter, if any, is changed
   and the widget around it must change,
5. fails on any JavaScript console error or uncaught page error (allow-list in
   ``browser_support.CONSOLE_ALLOW``) and on any request off the loopback interface,
6. with ``LECTUREKIT_SCREENSHOTS=1``, saves a screenshot of the whole chapter to
   ``build/screenshots/notebooks/NN_topic.png`` (the folders mirror the course's,
   ``browser_support.screenshot_path``); they are for a person to look over, no test reads
   them, and they cost half a minute a run, so a plain run takes none.

The Chinese edition (中文版) is served too (``notebooks/zh/``, ``exercises/zh/``, the glossary): a
Chinese chapter with its stepper (``ZH_CHAPTERS``) goes through the same checks, and
:func:`test_course_home_leads_to_a_chinese_problem_set` follows the home page's 习题（中文）
link, runs the Chinese problem set and reads the Chinese feedback of ``grader.check``
("q1 尚未作答…"). ``-k zh`` selects these.

A second built-in notebook (``00_browser_planted_failures``) goes wrong on purpose (a cell raising,
a traceback on stderr, a widget showing lecturekit's red error) and
:func:`test_harness_catches_planted_failures` checks that every one of those, and a console error,
a page error and a request off loopback, is reported: the checks above can fail.

Deselect with ``-m "not browser"``. Without Chromium or Playwright it skips locally (saying how to
install them) and fails under CI (``CI`` set). Try the harness on other notebooks with
``LECTUREKIT_BROWSER_NOTEBOOKS=/some/dir``.
"""

from __future__ import annotations

import json
import re
import time
import warnings
from pathlib import Path
from urllib.parse import quote, urlparse

import nbformat
import pytest
from browser_support import (
    CHROMIUM_ARGS,
    CONSOLE_ALLOW,
    HOME,
    JS_CELLS,
    JS_CLOSE_ALL,
    JS_FIND_STEPPERS,
    JS_KERNEL_IDLE,
    JS_LAB_USABLE,
    JS_MARKDOWN_LINKS,
    JS_OPEN_IN_LAB,
    JS_OUTPUT_TEXTS,
    JS_RUN_ALL,
    JS_STEPPER_STATE,
    JS_WAIT_NOTEBOOK,
    JS_WIDGET_STATE,
    LECTUREKIT_ERROR_CSS,
    LECTUREKIT_ERROR_TEXT,
    NOTEBOOKS,
    WIDGET_FAILURE_TEXTS,
    WIDGET_LOADING_TEXT,
    JupyterLab,
    find_chromium,
    screenshot_path,
    screenshots_wanted,
    served_files,
    widget_chapters,
)
from system_tools import require

from lecturekit import i18n

pytestmark = pytest.mark.browser

# Timeouts (ms for Playwright, s for Python). Two slow cores run the lab, Chromium and a kernel.
LOAD_TIMEOUT = 180_000  # page and notebook panel
KERNEL_TIMEOUT = 180_000  # kernel started and idle
RUN_TIMEOUT = 420_000  # all cells (a chapter runs "well under a minute" with nbconvert)
WIDGET_TIMEOUT = 120_000  # every widget view rendered
VIEWPORT = {"width": 1400, "height": 1000}
STEP_TIMEOUT = 60.0  # one click of a step control, until the display settles
MAX_STEPPERS = 6  # steppers clicked per chapter (each costs a kernel round trip)

HARNESS = "00_browser_harness.ipynb"
PLANTED = "00_browser_planted_failures.ipynb"
KERNELSPEC = {"name": "python3", "display_name": "Python 3", "language": "python"}
CHAPTERS = widget_chapters()
#: Chinese chapters opened in the browser (the same checks as the English ones; one is enough
#: to show the edition renders and its steppers work, each costs a minute on two cores)
ZH_04 = i18n.edition_path(NOTEBOOKS.parent, NOTEBOOKS / "04_list_scheduling.ipynb")
ZH_CHAPTERS = [p for p in widget_chapters(NOTEBOOKS / "zh") if p.name == ZH_04.name]


def link_to(path: str) -> str:
    """The selector of a home-page link to ``path``: JupyterLab writes the href percent-encoded
    (a Chinese file name, ``04_列表调度_习题.ipynb``), as written or encoded either way."""
    return ", ".join(
        f'.jp-RenderedMarkdown a[href*="/files/{p}"]' for p in dict.fromkeys([path, quote(path)])
    )


def _harness_notebook(path: Path) -> None:
    """A notebook with a lecturekit Stepper (figure + caption) and a plain ipywidgets stepper:
    the harness must find, click and see both change (independent of the chapters)."""
    stepper = (
        "# NBVAL_IGNORE_OUTPUT\n"
        "from matplotlib.figure import Figure\n"
        "from lecturekit.widgets.common import Stepper\n\n"
        "def render(i):\n"
        "    fig = Figure(figsize=(3, 1.5))\n"
        "    fig.subplots().bar(range(i + 1), range(1, i + 2))\n"
        "    return fig, f'<i>{i + 1} bar(s)</i>'\n\n"
        "Stepper(4, render, title='harness: lecturekit Stepper')"
    )
    plain = (
        "# NBVAL_IGNORE_OUTPUT\n"
        "import ipywidgets as w\n\n"
        "pos = w.IntSlider(value=0, min=0, max=3, description='step')\n"
        "label = w.Label('value 0')\n"
        "button = w.Button(description='next ▶', tooltip='next step')\n"
        "button.on_click(lambda _b: setattr(pos, 'value', pos.value + 1))\n"
        "pos.observe(lambda c: setattr(label, 'value', f\"value {c['new']}\"), names='value')\n"
        "w.VBox([w.HBox([button, pos]), label])"
    )
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("# Browser harness self-check (generated by the test)"),
        nbformat.v4.new_code_cell(stepper),
        nbformat.v4.new_code_cell(plain),
    ]
    nb.metadata["kernelspec"] = KERNELSPEC
    nbformat.write(nb, path)


def _planted_failures_notebook(path: Path) -> None:
    """A notebook that goes wrong in each way the chapter test must catch: a widget showing
    lecturekit's red error, a traceback on stderr, and (last, as "run all" stops there) a cell
    raising. :func:`test_harness_catches_planted_failures` checks each one is reported."""
    cells = [
        "# NBVAL_IGNORE_OUTPUT\n"
        "import ipywidgets as w\n"
        "from lecturekit.widgets.common import error_html\n\n"
        "w.HTML(error_html(ValueError('planted widget failure')))",
        "import sys\n\n"
        "print('Traceback (most recent call last):\\n  planted traceback', file=sys.stderr)",
        "raise ValueError('planted cell error')",
    ]
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(c) for c in cells]
    nb.metadata["kernelspec"] = KERNELSPEC
    nbformat.write(nb, path)


@pytest.fixture(scope="session")
def chromium():
    """Headless Debian Chromium driven by Playwright (one browser for all chapters); without
    them every browser test skips saying what to install (fails under CI: system_tools.py)."""
    require("chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=find_chromium(), args=CHROMIUM_ARGS, headless=True, timeout=120_000
        )
        try:
            yield browser
        finally:
            browser.close()


def course_files() -> list[tuple[Path, str]]:
    """The course as the README's command serves it (``browser_support.served_files``)."""
    return served_files(CHAPTERS)


@pytest.fixture(scope="session")
def lab(tmp_path_factory, chromium):
    """One JupyterLab for the session, serving a temporary copy of the course (and, at its root,
    the two harness notebooks)."""
    workdir = tmp_path_factory.mktemp("jupyterlab")
    harness, planted = workdir / HARNESS, workdir / PLANTED
    _harness_notebook(harness)
    _planted_failures_notebook(planted)
    with JupyterLab([harness, planted, *course_files()], workdir / "lab") as server:
        yield server


# ---------------------------------------------------------------------------------------------


class Problems(list):
    """What went wrong in the page (console errors, page errors, blocked requests)."""

    def add(self, kind: str, text: str) -> None:
        if kind == "console error" and any(re.search(p, text) for p in CONSOLE_ALLOW):
            return
        self.append(f"{kind}: {text}")


def _watch(page, report) -> None:
    """``report(kind, text)`` every console error and uncaught page error."""

    def on_console(msg):
        if msg.type == "error":
            loc = msg.location or {}
            where = f" ({loc.get('url', '')}:{loc.get('lineNumber', '')})" if loc else ""
            report("console error", msg.text + where)

    page.on("console", on_console)
    page.on("pageerror", lambda exc: report("page error", str(exc)))


def _loopback_only(page, report) -> None:
    """Abort (and ``report``) any request that would leave the machine."""

    def route(r):
        host = urlparse(r.request.url).hostname or ""
        if r.request.url.startswith(("data:", "blob:")) or host in ("127.0.0.1", "localhost"):
            r.continue_()
        else:
            report("request off loopback", r.request.url)
            r.abort()

    page.route("**/*", route)


def _wait_kernel_idle(page) -> None:
    page.wait_for_function(JS_KERNEL_IDLE, timeout=KERNEL_TIMEOUT, polling=250)


def _check_cells(page, name: str, run: dict) -> int:
    """Every code cell executed, no error output, no traceback; the number of widget views."""
    cells = page.evaluate(JS_CELLS)
    bad = []
    for c in cells:
        head = c["source"].splitlines()[0] if c["source"] else ""
        if c["errors"]:
            bad.append(f"cell {c['index']} ({head!r}) raised {'; '.join(c['errors'])}")
        for text in c["stderr"]:
            if "Traceback" in text:
                bad.append(f"cell {c['index']} ({head!r}) printed a traceback:\n{text[-800:]}")
        if c["executionCount"] is None and c["source"].strip():
            bad.append(f"cell {c['index']} ({head!r}) was not executed")
    if not run.get("ok"):
        bad.append(f"run all cells did not succeed: {run}")
    # the rendered side: error outputs are shown with the stderr MIME type
    dom = page.locator(
        '.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]'
    ).all_inner_texts()
    bad += [f"stderr output with a traceback: {t[-500:]}" for t in dom if "Traceback" in t]
    assert not bad, f"{name}: " + "\n".join(bad)
    return sum(c["widgetViews"] for c in cells)


def _wait_widgets(page, name: str, expected: int) -> None:
    """All ``expected`` widget views rendered: none loading, none failed."""
    loading = json.dumps(WIDGET_LOADING_TEXT)
    js = f"""() => {{
      const s = ({JS_WIDGET_STATE})();
      return s.length >= {expected} && s.every((o) => !o.text.includes({loading}) && o.views > 0);
    }}"""
    try:
        page.wait_for_function(js, timeout=WIDGET_TIMEOUT, polling=500)
    except Exception:
        state = page.evaluate(JS_WIDGET_STATE)
        pytest.fail(
            f"{name}: widgets did not render within {WIDGET_TIMEOUT / 1000:.0f} s "
            f"(expected {expected} views): {json.dumps(state, ensure_ascii=False)[:2000]}",
            pytrace=False,
        )
    _check_widget_errors(page, name)


def _check_widget_errors(page, name: str) -> None:
    outputs = page.locator(".jp-OutputArea-output").all_inner_texts()
    failed = [t for t in outputs if any(s in t for s in WIDGET_FAILURE_TEXTS)]
    assert not failed, f"{name}: a widget failed to display: {failed[:3]}"
    red = page.locator(LECTUREKIT_ERROR_CSS).all_inner_texts()
    red = [t for t in red if LECTUREKIT_ERROR_TEXT.search(t)]
    assert not red, f"{name}: a widget shows an error: {red[:3]}"


_POSITION = re.compile(r"(\d+)\s*/\s*(\d+)")


def _settle(page, before: dict, read, timeout: float = STEP_TIMEOUT) -> dict:
    """Poll ``read()`` until it differs from ``before`` and holds still for a moment while the
    kernel is idle (a step arrives as several comm messages)."""
    deadline = time.monotonic() + timeout
    last, stable_since = None, None
    while time.monotonic() < deadline:
        now = read()
        if now != before and page.evaluate(JS_KERNEL_IDLE):
            if now == last:
                if time.monotonic() - stable_since > 0.5:
                    return now
            else:
                last, stable_since = now, time.monotonic()
        page.wait_for_timeout(150)
    return read()


def _step_steppers(page, name: str) -> int:
    """Click every stepper's step control once; check that the display moved on. Returns how
    many were stepped."""
    steppers = page.evaluate(JS_FIND_STEPPERS)
    stepped = 0
    for i, info in enumerate(steppers[:MAX_STEPPERS]):
        if info["disabled"]:  # already on its last step (e.g. a one-step trace)
            continue
        before = page.evaluate(JS_STEPPER_STATE, i)
        button = page.evaluate_handle("(i) => window.__lkSteppers[i].button", i).as_element()
        button.scroll_into_view_if_needed(timeout=10_000)
        button.click(timeout=10_000)
        after = _settle(page, before, lambda i=i: page.evaluate(JS_STEPPER_STATE, i))
        what = f"{name}: stepper {i} ({info['text']!r}, {info['title']!r})"
        assert after != before, f"{what}: nothing changed after a click on step"
        # the position moved on by one: the "k / n" label, or else the slider's value
        pos_before = [m.groups() for t in before["labels"] if (m := _POSITION.search(t))]
        pos_after = [m.groups() for t in after["labels"] if (m := _POSITION.search(t))]
        if pos_before and pos_after:
            k0, k1 = int(pos_before[0][0]), int(pos_after[0][0])
            assert k1 == k0 + 1, f"{what}: position {pos_before[0]} -> {pos_after[0]}"
        elif before["slider"] is not None and after["slider"] is not None:
            s0, s1 = float(before["slider"]), float(after["slider"])
            assert s1 > s0, f"{what}: slider {s0} -> {s1}"

        # and what it shows changed: caption / HTML, figure, output, or a label other than
        # the position ("step k / n" alone moving on is not enough)
        def shown(state):
            labels = [t for t in state["labels"] if not _POSITION.search(t)]
            return state["html"], state["images"], state["outputText"], labels

        assert shown(before) != shown(after), f"{what}: only the position changed: {after}"
        stepped += 1
    return stepped


def _change_a_dropdown(page, name: str) -> bool:
    """Pick another option in the first dropdown of a widget (an explorer's menu, say),
    and check that the widget around it changed. False if there is no dropdown."""
    selects = page.locator(".jp-OutputArea-output .widget-dropdown select")
    if selects.count() == 0:
        return False
    select = selects.first
    root = select.locator("xpath=ancestor::div[contains(@class,'jp-OutputArea-output')][1]")

    def read():
        return root.evaluate(
            "(o) => [o.innerText, ...Array.from(o.querySelectorAll('img')).map((i) => i.src)]"
            ".join('\\n')"
        )

    before = read()
    options = select.evaluate("(s) => Array.from(s.options).map((o) => o.value)")
    current = select.input_value()
    other = next((v for v in options if v != current), None)
    if other is None:
        return False
    select.scroll_into_view_if_needed(timeout=10_000)
    select.select_option(other, timeout=10_000)
    after = _settle(page, before, read)
    assert after != before, f"{name}: changing a dropdown to {other!r} changed nothing"
    return True


def _screenshot(page, name: str) -> Path | None:
    """The whole chapter from the top: sidebar collapsed, the viewport grown to the notebook's
    height (at most 16000 px; Chromium's limit for one capture is 16384). Only when asked for
    (``LECTUREKIT_SCREENSHOTS=1``, :func:`browser_support.screenshots_wanted`): None otherwise."""
    if not screenshots_wanted():
        return None
    path = screenshot_path(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    js_scroll_top = """() => {
      const app = window.jupyterapp;
      const w = app.shell.currentWidget;
      const outer = w.node.querySelector('.jp-WindowedPanel-outer') || w.content.node;
      outer.scrollTop = 0;
      return outer.scrollHeight;
    }"""
    page.evaluate("() => window.jupyterapp.shell.collapseLeft()")
    page.wait_for_timeout(300)
    height = page.evaluate(js_scroll_top) + 160
    page.set_viewport_size({"width": 1400, "height": max(800, min(int(height), 16000))})
    page.wait_for_timeout(600)
    page.evaluate(js_scroll_top)
    page.wait_for_timeout(200)
    page.screenshot(path=str(path), timeout=60_000)
    return path


def _open(page, lab: JupyterLab, name: str) -> None:
    """Open ``name`` and wait for its panel: in the JupyterLab already running in the page (the
    previous test's notebooks closed and its kernels shut down by :func:`_leave`), else by
    loading JupyterLab in a fresh workspace (the first test, or after a test left a dialog or
    a broken page behind)."""
    if page.url.startswith(f"{lab.url}/lab/") and page.evaluate(JS_LAB_USABLE):
        try:
            page.evaluate(JS_OPEN_IN_LAB, name)
            page.wait_for_function(JS_WAIT_NOTEBOOK, arg=name, timeout=LOAD_TIMEOUT, polling=250)
            return
        except Exception:  # load JupyterLab afresh below
            pass
    # a workspace of its own, reset: no tab (and no kernel) of an earlier chapter is restored
    workspace = "lk-" + re.sub(r"[^A-Za-z0-9_-]", "-", Path(name).stem)
    url = f"{lab.url}/lab/workspaces/{workspace}/tree/{quote(name)}?reset"
    page.goto(url, wait_until="domcontentloaded")
    page.wait_for_function(JS_WAIT_NOTEBOOK, arg=name, timeout=LOAD_TIMEOUT, polling=500)


def _leave(page, lab: JupyterLab) -> None:
    """After a test: the page back to its size, its notebooks closed (before their kernels
    go, so no "kernel died" reaches the next test), every kernel shut down."""
    try:
        page.set_viewport_size(VIEWPORT)
        page.evaluate(JS_CLOSE_ALL)
    except Exception:  # the next _open finds the page unusable and reloads it
        pass
    lab.shutdown_kernels()


def _open_and_run_all(page, lab: JupyterLab, name: str) -> dict:
    """Open ``name`` in a fresh workspace, run all its cells and wait for the kernel to be idle;
    the outcome of "run all" (``{"ok": ...}``)."""
    _open(page, lab, name)
    return _run_all(page, name)


def _run_all(page, name: str) -> dict:
    """Run all cells of the current notebook ``name``; wait until the kernel is idle again."""
    _wait_kernel_idle(page)
    page.evaluate(JS_RUN_ALL)
    try:
        page.wait_for_function("() => window.__lkRun !== undefined", timeout=RUN_TIMEOUT)
    except Exception:
        pytest.fail(f"{name}: run all cells did not finish in {RUN_TIMEOUT / 1000:.0f} s")
    run = page.evaluate("() => window.__lkRun")
    _wait_kernel_idle(page)
    return run


def _check_chapter(page, lab: JupyterLab, name: str, problems: Problems) -> None:
    t0 = time.monotonic()
    _open(page, lab, name)
    t1 = time.monotonic()
    run = _run_all(page, name)
    t2 = time.monotonic()
    views = _check_cells(page, name, run)
    assert views > 0, f"{name}: looks like a chapter with widgets, but displayed no widget"
    _wait_widgets(page, name, views)
    t3 = time.monotonic()

    stepped = _step_steppers(page, name)
    t4 = time.monotonic()
    print(
        f"{name}: open {t1 - t0:.1f} s, run all {t2 - t1:.1f} s, widgets {t3 - t2:.1f} s, "
        f"steps {t4 - t3:.1f} s"
    )
    assert stepped >= 1, (
        f"{name}: shows widgets but has no stepper whose step control could be clicked "
        "(every chapter with widgets has at least one lecturekit Stepper)"
    )
    changed = _change_a_dropdown(page, name)  # an explorer's menu too, where there is one
    # shown with -s (or -rP): what was checked in this chapter
    print(
        f"{name}: {views} widget view(s), {stepped} stepper(s) stepped, dropdown changed: {changed}"
    )
    if name == HARNESS:
        assert stepped == 2, f"the harness should have stepped 2 steppers, stepped {stepped}"
    _check_widget_errors(page, name)
    _check_cells(page, name, run)


class Tab:
    """The session's one browser page. JupyterLab loads in it once, and each test opens its
    notebook in that running lab (:func:`_open`), so a chapter does not pay for loading
    JupyterLab again (3-6 s each on two loaded cores); :meth:`start` gives each test its own
    record of console errors, page errors and requests off loopback."""

    def __init__(self, context):
        self.page = context.new_page()
        self.problems = Problems()
        _watch(self.page, lambda kind, text: self.problems.add(kind, text))
        _loopback_only(self.page, lambda kind, text: self.problems.add(kind, text))

    def start(self):
        self.problems = Problems()
        return self.page, self.problems


@pytest.fixture(scope="session")
def tab(chromium):
    context = chromium.new_context(viewport=VIEWPORT)
    context.set_default_timeout(60_000)
    try:
        yield Tab(context)
    finally:
        context.close()


@pytest.mark.timeout(900)
@pytest.mark.parametrize(
    "name",
    [HARNESS]
    + [f"notebooks/{p.name}" for p in CHAPTERS]
    + [f"notebooks/zh/{p.name}" for p in ZH_CHAPTERS],
    ids=lambda n: ("zh-" if "/zh/" in n else "") + Path(n).stem,
)
def test_chapter_in_browser(name, lab, tab):
    page, problems = tab.start()
    try:
        _check_chapter(page, lab, name, problems)
    finally:
        t = time.monotonic()
        try:
            _screenshot(page, name)
        except Exception as exc:  # a screenshot is for people; its failure is not the test's
            warnings.warn(f"{name}: no screenshot ({exc})", stacklevel=1)
        t5 = time.monotonic()
        _leave(page, lab)
        print(f"{name}: screenshot {t5 - t:.1f} s, close {time.monotonic() - t5:.1f} s")
    assert not problems, f"{name}: errors in the page:\n" + "\n".join(problems)


@pytest.mark.timeout(600)
def test_harness_catches_planted_failures(lab, tab):
    """The checks above can fail: each planted failure is reported, naming what went wrong."""
    page, problems = tab.start()
    try:
        run = _open_and_run_all(page, lab, PLANTED)
        assert not run.get("ok"), f"run all should report the raising cell: {run}"
        with pytest.raises(AssertionError) as cell_failure:
            _check_cells(page, PLANTED, run)
        report = str(cell_failure.value)
        assert "ValueError: planted cell error" in report
        assert "planted traceback" in report
        with pytest.raises(AssertionError, match="planted widget failure"):
            _check_widget_errors(page, PLANTED)

        page.evaluate("() => console.error('planted console error')")
        page.evaluate("() => { setTimeout(() => { throw new Error('planted page error'); }); }")
        page.evaluate("() => fetch('http://example.invalid/').catch(() => null)")
        page.wait_for_timeout(1000)
        assert any(p.startswith("console error: planted console error") for p in problems)
        assert any("page error" in p and "planted page error" in p for p in problems)
        assert any(p == "request off loopback: http://example.invalid/" for p in problems)
    finally:
        _leave(page, lab)


@pytest.mark.timeout(900)
def test_course_home_leads_to_a_problem_set(lab, tab):
    """The README's command opens index.ipynb with the repository root as the server root: the
    page links every chapter and problem set served, and following the link of a problem set
    opens it; it runs top to bottom and its first check says the question is not answered yet."""
    if not HOME.exists():
        pytest.fail("index.ipynb (the course home) is missing: run `python tools/course_home.py`")
    page, problems = tab.start()
    shown = "index.ipynb"  # the page on screen, for the screenshot
    try:
        _open(page, lab, "index.ipynb")
        page.wait_for_selector(
            ".jp-RenderedMarkdown a[href*='/files/']",
            state="attached",
            timeout=LOAD_TIMEOUT,
        )
        linked = {a["path"] for a in page.evaluate(JS_MARKDOWN_LINKS) if a["path"]}
        served = {name for _source, name in course_files() if "/" in name}
        assert served and not served - linked, f"index.ipynb does not link {served - linked}"
        sets = sorted(n for n in served if n.startswith("exercises/") and "/zh/" not in n)
        target = f"exercises/{i18n.problems_name('04_list_scheduling')}"
        target = target if target in sets else sets[0]
        link = page.locator(link_to(target))
        link.first.scroll_into_view_if_needed(timeout=10_000)
        link.first.click(timeout=10_000)
        page.wait_for_function(JS_WAIT_NOTEBOOK, arg=target, timeout=LOAD_TIMEOUT, polling=500)
        shown = target
        run = _run_all(page, target)
        _check_cells(page, target, run)
        checks = page.evaluate(JS_OUTPUT_TEXTS, "grader.check(")
        assert checks, f"{target}: no grader.check output"
        first = checks[0].strip()
        assert "not answered yet" in first, f"{target}: the first check says {first!r}"
        assert all(1 <= len(t.strip().splitlines()) <= 2 for t in checks), checks
        print(f"home: {len(linked)} links; {target}: {len(checks)} checks, first: {first}")
    finally:
        try:  # the page shown at the end: the problem set the home page led to
            _screenshot(page, shown)
        except Exception as exc:
            warnings.warn(f"home: no screenshot ({exc})", stacklevel=1)
        _leave(page, lab)
    assert not problems, "course home: errors in the page:\n" + "\n".join(problems)


@pytest.mark.timeout(900)
def test_course_home_leads_to_a_chinese_problem_set(lab, tab):
    """中文版: the home page links the Chinese chapters, problem sets and the glossary (术语表);
    its 习题（中文） link opens a Chinese problem set, which runs top to bottom in a kernel
    started in exercises/zh/, and ``grader.check`` answers in Chinese ("q1 尚未作答…")."""
    served = {name for _source, name in course_files()}
    zh_sets = sorted(n for n in served if n.startswith("exercises/zh/"))
    if not zh_sets:
        pytest.skip("no Chinese problem set (exercises/zh/) exists yet")
    target = f"exercises/zh/{i18n.problems_name('04_list_scheduling', 'zh')}"
    target = target if target in zh_sets else zh_sets[0]
    page, problems = tab.start()
    try:
        _open(page, lab, "index.ipynb")
        page.wait_for_selector(
            ".jp-RenderedMarkdown a[href*='/files/']", state="attached", timeout=LOAD_TIMEOUT
        )
        links = page.evaluate(JS_MARKDOWN_LINKS)
        linked = {a["path"] for a in links if a["path"]}
        zh = {n for n in served if "/zh/" in n} | {"glossary.ipynb"}
        assert not zh - linked, f"index.ipynb does not link {zh - linked}"
        assert any(a["path"] == "glossary.ipynb" and "术语表" in a["text"] for a in links), links
        chosen = next(a for a in links if a["path"] == target)
        assert chosen["text"].startswith("习题"), chosen
        link = page.locator(link_to(target))
        link.first.scroll_into_view_if_needed(timeout=10_000)
        link.first.click(timeout=10_000)
        page.wait_for_function(JS_WAIT_NOTEBOOK, arg=target, timeout=LOAD_TIMEOUT, polling=500)
        run = _run_all(page, target)
        _check_cells(page, target, run)
        checks = [t.strip() for t in page.evaluate(JS_OUTPUT_TEXTS, "grader.check(")]
        assert checks, f"{target}: no grader.check output"
        assert "尚未作答" in checks[0], f"{target}: the first check says {checks[0]!r}"
        assert all(1 <= len(t.splitlines()) <= 2 for t in checks), checks
        english = ("not answered", "public test", "should be", "Not yet")
        assert not any(e in t for t in checks for e in english), checks
        print(f"zh home: {target}: {len(checks)} checks, first: {checks[0]}")
    finally:
        try:
            _screenshot(page, target)
        except Exception as exc:
            warnings.warn(f"zh problem set: no screenshot ({exc})", stacklevel=1)
        _leave(page, lab)
    assert not problems, "Chinese problem set: errors in the page:\n" + "\n".join(problems)
