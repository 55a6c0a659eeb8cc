"""Helpers for tests/test_browser.py: a throw-away JupyterLab, Chromium, and what to look for.

Nothing here runs at import time except constants, so collecting the tests stays cheap and works
without Playwright or Chromium installed.

* :func:`widget_chapters` finds the chapters (``notebooks/NN_topic.ipynb``) with widgets.
* :class:`JupyterLab` runs ``python -m jupyter lab`` on a free loopback port, serving a temporary
  COPY of the notebooks (laid out like the course: index.ipynb, notebooks/, exercises/), with
  temporary config / runtime / data / settings / workspaces directories (the repository and the
  user's Jupyter setup are never touched), and shuts it down.
* :func:`find_chromium` and :data:`CHROMIUM_ARGS`: Debian's ``chromium`` (Playwright's own browser
  download does not work everywhere); the flags keep it off the network.
* The JavaScript snippets drive the lab through ``window.jupyterapp``, which the lab exposes
  because the server is started with ``--LabApp.expose_app_in_browser=True``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import nbformat
from course_files import numbered

REPO = Path(__file__).resolve().parent.parent
NOTEBOOKS = REPO / "notebooks"
EXERCISES = REPO / "exercises"
HOME = REPO / "index.ipynb"
GLOSSARY = REPO / "glossary.ipynb"  # 术语表, linked from the home page
SCREENSHOTS = REPO / "build" / "screenshots"
#: set to 1 to save a screenshot of every page the browser tests open (for a person to look
#: over; no test reads them): each costs 1-2 s of the browser's time, half a minute a run
SCREENSHOTS_ENV = "LECTUREKIT_SCREENSHOTS"

#: Headless Chromium, without a sandbox (containers, root) and without the background traffic
#: (component updates, sync, safe-browsing lists, QUIC probes) that floods a closed network.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]

# ---------------------------------------------------------------------------------------------
# which chapters


_WIDGET_IMPORT = re.compile(
    r"^\s*(from\s+lecturekit\.widgets\b|import\s+lecturekit\.widgets\b)", re.M
)
_WIDGET_WORD = re.compile(r"\b(widgets?|Stepper|explorer|ipywidgets|interact)\b", re.I)


def has_widgets(path: Path) -> bool:
    """Whether a notebook shows widgets: a code cell imports from ``lecturekit.widgets`` or
    ``ipywidgets``, or is marked ``# NBVAL_IGNORE_OUTPUT`` and mentions a widget/stepper/explorer.
    """
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        src = cell.source
        if _WIDGET_IMPORT.search(src) or re.search(r"^\s*(from|import)\s+ipywidgets\b", src, re.M):
            return True
        if src.lstrip().startswith("# NBVAL_IGNORE_OUTPUT") and _WIDGET_WORD.search(src):
            return True
    return False


def notebooks_dir() -> Path:
    """``notebooks/``, or ``$LECTUREKIT_BROWSER_NOTEBOOKS`` (to try the harness elsewhere)."""
    return Path(os.environ.get("LECTUREKIT_BROWSER_NOTEBOOKS") or NOTEBOOKS)


def widget_chapters(folder: Path | None = None) -> list[Path]:
    """The chapters ``NN_topic.ipynb`` in ``folder`` that have widgets, in order (in the
    course's folders only its own notebooks, not a student's copies: tools/course_files.py)."""
    folder = folder or notebooks_dir()
    inside = folder.resolve().is_relative_to(REPO)
    found = []
    listed = numbered(folder, REPO) if inside else sorted(folder.glob("[0-9][0-9]_*.ipynb"))
    for path in listed:
        try:
            if has_widgets(path):
                found.append(path)
        except Exception:  # a half-written notebook of another helper: the nbval run reports it
            continue
    return found


def served_files(chapters: list[Path]) -> list[tuple[Path, str]]:
    """The course as the README's command serves it, as (file, path under the server root):
    the home page and the glossary at the root, the chapters in notebooks/, the problem sets in
    exercises/, each with its Chinese edition in zh/ (the course's own files only), and any of
    ``chapters`` from elsewhere (``LECTUREKIT_BROWSER_NOTEBOOKS``) in notebooks/."""
    files = [(p, p.name) for p in (HOME, GLOSSARY) if p.exists()]
    for folder in (NOTEBOOKS, EXERCISES):
        for sub in (folder, folder / "zh"):
            rel = sub.relative_to(REPO).as_posix()
            files += [(p, f"{rel}/{p.name}") for p in numbered(sub, REPO)]
    for chapter in chapters:
        if (chapter, f"notebooks/{chapter.name}") not in files:
            files.append((chapter, f"notebooks/{chapter.name}"))
    return files


def screenshots_wanted() -> bool:
    """Whether this run saves screenshots (``LECTUREKIT_SCREENSHOTS=1``)."""
    return os.environ.get(SCREENSHOTS_ENV, "").strip().lower() in ("1", "true", "yes")


def screenshot_path(name: str) -> Path:
    """Where the screenshot of the served file ``name`` goes: build/screenshots/ mirrors the
    served folders (``notebooks/zh/04_列表调度.ipynb`` ->
    ``build/screenshots/notebooks/zh/04_列表调度.png``); a chapter, its problem set and their
    Chinese editions have four file names (lecturekit.i18n), so even a flat folder of screenshots
    would keep all four."""
    return SCREENSHOTS / Path(name).with_suffix(".png")


# ---------------------------------------------------------------------------------------------
# Chromium


def find_chromium() -> str | None:
    """The Chromium binary: ``$LECTUREKIT_CHROMIUM``, else ``chromium`` / ``chromium-browser``."""
    env = os.environ.get("LECTUREKIT_CHROMIUM")
    if env:
        return env if Path(env).exists() else None
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None


# ---------------------------------------------------------------------------------------------
# JupyterLab


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


#: User settings written into the temporary JUPYTERLAB_SETTINGS_DIR.
LAB_SETTINGS = {
    # no windowing: every cell stays in the DOM, so all widgets render and the screenshot
    # shows the whole chapter
    "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none"},
    # no news / update checks (no network here; and no toast over the notebook)
    "@jupyterlab/apputils-extension/notification": {"fetchNews": "false", "checkForUpdates": False},
    # no "what's new" / announcements dialogs; light theme for the screenshots
    "@jupyterlab/apputils-extension/themes": {"theme": "JupyterLab Light"},
}


def _die_with_parent() -> None:
    """In the child, before exec: on Linux, SIGTERM when the test process dies (pytest killed
    by a timeout or by hand skips the fixture's teardown; the server must not outlive it. Its
    kernels exit by themselves when the server goes). Elsewhere a no-op."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG = 1
    except Exception:
        pass


class JupyterLab:
    """``python -m jupyter lab`` on ``127.0.0.1:<free port>`` over a temporary copy of notebooks
    (laid out as in the course when given as ``(file, "notebooks/NN_topic.ipynb")`` pairs).

    Use as a context manager; :meth:`stop` always runs (shutdown request, SIGTERM, SIGKILL of the
    process group it started). ``root`` is the served directory, ``log`` the server's output.
    """

    def __init__(
        self, notebooks: list[Path | tuple[Path, str]], workdir: Path, *, start_timeout: float = 180
    ):
        self.workdir = Path(workdir)
        self.root = self.workdir / "root"
        self.root.mkdir(parents=True)
        for item in notebooks:  # a file (served at the root) or (file, path under the root)
            source, name = item if isinstance(item, tuple) else (item, item.name)
            (self.root / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, self.root / name)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = self.workdir / "jupyterlab.log"
        self.start_timeout = start_timeout
        self.proc: subprocess.Popen | None = None

    # -- environment ------------------------------------------------------------------------
    def _env(self) -> dict:
        env = dict(os.environ)
        dirs = {
            "JUPYTER_CONFIG_DIR": "config",
            "JUPYTER_RUNTIME_DIR": "runtime",
            "JUPYTER_DATA_DIR": "data",  # user-level data only; the env's lab extensions stay
            "JUPYTERLAB_SETTINGS_DIR": "settings",
            "JUPYTERLAB_WORKSPACES_DIR": "workspaces",
            "IPYTHONDIR": "ipython",
        }
        for var, sub in dirs.items():
            path = self.workdir / sub
            path.mkdir(exist_ok=True)
            env[var] = str(path)
        for plugin, values in LAB_SETTINGS.items():
            target = self.workdir / "settings" / (plugin + ".jupyterlab-settings")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(json.dumps(values))
        # the kernel runs in this Python (where lecturekit is installed), whatever other
        # "python3" kernelspecs say: the user data dir comes first in Jupyter's search path
        spec = self.workdir / "data" / "kernels" / "python3"
        spec.mkdir(parents=True, exist_ok=True)
        argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
        kernel = {"argv": argv, "display_name": "Python 3 (ipykernel)", "language": "python"}
        (spec / "kernel.json").write_text(json.dumps(kernel))
        env["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"
        env.pop("JUPYTER_TOKEN", None)
        env["PYTHONUNBUFFERED"] = "1"
        return env

    def command(self) -> list[str]:
        # the server refuses to run as root (containers, CI) without --allow-root
        root_flag = ["--allow-root"] if hasattr(os, "geteuid") and os.geteuid() == 0 else []
        return [
            sys.executable,
            "-m",
            "jupyter",
            "lab",
            "--no-browser",
            f"--ServerApp.root_dir={self.root}",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={self.port}",
            "--ServerApp.port_retries=0",
            "--ServerApp.open_browser=False",
            "--IdentityProvider.token=",
            "--ServerApp.password=",
            "--ServerApp.disable_check_xsrf=True",
            "--ServerApp.allow_remote_access=False",
            "--LabApp.expose_app_in_browser=True",
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            "--LabApp.extension_manager=readonly",
            "--LabApp.collaborative=False",
            "--KernelSpecManager.ensure_native_kernel=True",
            *root_flag,
        ]

    # -- life cycle -------------------------------------------------------------------------
    def start(self) -> JupyterLab:
        self._logfile = open(self.log, "wb")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            self.command(),
            cwd=self.root,
            env=self._env(),
            stdin=subprocess.DEVNULL,
            stdout=self._logfile,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: kernels can be stopped with it
            preexec_fn=_die_with_parent,
        )
        deadline = time.monotonic() + self.start_timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"JupyterLab exited with code {self.proc.returncode}:\n{self.log_tail()}"
                )
            try:
                with urllib.request.urlopen(self.url + "/api", timeout=5) as r:
                    if r.status == 200 and "version" in json.loads(r.read()):
                        return self
            except (OSError, ValueError):
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"JupyterLab did not answer on {self.url}/api within {self.start_timeout:.0f}"
                    f" s:\n{self.log_tail()}"
                )
            time.sleep(0.5)

    def api(self, method: str, path: str, timeout: float = 30):
        req = urllib.request.Request(
            self.url + path, method=method, data=b"" if method != "GET" else None
        )
        with urllib.request.urlopen(req, timeout=timeout) as r:
            body = r.read()
        return json.loads(body) if body else None

    def shutdown_kernels(self) -> None:
        """Stop every session's kernel (between chapters: two cores, keep them free)."""
        for session in self.api("GET", "/api/sessions"):
            try:
                self.api("DELETE", f"/api/sessions/{session['id']}")
            except (OSError, urllib.error.HTTPError):
                pass

    def stop(self, timeout: float = 30) -> None:
        proc = self.proc
        if proc is None:
            return
        try:
            if proc.poll() is None:
                try:  # the clean way: the server stops its kernels, then itself
                    self.api("POST", "/api/shutdown", timeout=10)
                except (OSError, urllib.error.HTTPError):
                    proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(timeout=timeout)
                except subprocess.TimeoutExpired:
                    proc.terminate()
                    try:
                        proc.wait(timeout=timeout)
                    except subprocess.TimeoutExpired:
                        proc.kill()
                        proc.wait(timeout=timeout)
        finally:
            # whatever is left of the group this server started (orphaned kernels)
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            self._logfile.close()
            self.proc = None

    def log_tail(self, n: int = 60) -> str:
        try:
            lines = self.log.read_text(errors="replace").splitlines()
        except OSError:
            return "(no log)"
        return "\n".join(lines[-n:])

    def __enter__(self) -> JupyterLab:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, *exc) -> None:
        self.stop()


# ---------------------------------------------------------------------------------------------
# what the page shows

#: Harmless console noise, each with why it is harmless. Matched with ``re.search`` against the
#: message text; everything else at level "error" fails the test.
CONSOLE_ALLOW = [
    # the browser asks for /favicon.ico before the lab sets its own icon link
    r"favicon\.ico",
    # the lab's debugger asks a notebook's kernel for its state when the notebook opens; a test
    # that closes the notebook and stops its kernel right after its checks cancels that request,
    # and JupyterLab logs the cancellation (the harness's own teardown, not the course: seen
    # once in CI, on the Chinese problem set, after screenshots stopped delaying the close)
    r"Could not restore the debugger state: Canceled future for debug_request message before "
    r"replies were done",
]

#: Texts in an output area meaning a widget did not display.
WIDGET_FAILURE_TEXTS = ["Error displaying widget", "Model not found", "model not found"]
WIDGET_LOADING_TEXT = "Loading widget..."

#: CSS for lecturekit's own error areas: lecturekit.widgets.common.error_html is a span coloured
#: #c00000 starting "Error:"; the memory explorer's error line a div coloured #b00 starting "⚠".
#: (#b00 is also used for emphasis, e.g. "does not fit", hence the text check below.)
LECTUREKIT_ERROR_CSS = (
    '.jp-OutputArea-output .widget-html-content [style*="c00000"], '
    '.jp-OutputArea-output .widget-html-content div[style*="b00"]'
)
LECTUREKIT_ERROR_TEXT = re.compile(r"^\s*(Error:|⚠)|unexpected error|internal error", re.I)

#: The step control of a lecturekit Stepper (lecturekit/widgets/common.py): an ipywidgets Button
#: with the CSS class ``lecturekit-step`` (``STEP_BUTTON_CLASS``; its label is "step ▶" in English,
#: translated in the Chinese edition). Other steppers may be
#: labelled "next", "▶|" or "step"; those are found by their text (see JS_FIND_STEPPERS).
STEP_BUTTON_CSS = "button.jupyter-button"


JS_WAIT_NOTEBOOK = """(name) => {
  const app = window.jupyterapp;
  if (!app || !app.shell) return false;
  const w = app.shell.currentWidget;
  return !!(w && w.context && w.context.path === name && w.content && w.sessionContext);
}"""

# JupyterLab is loaded and nothing (a dialog) waits for an answer
JS_LAB_USABLE = """() => {
  const app = window.jupyterapp;
  return !!(app && app.shell && app.commands) && !document.querySelector('.jp-Dialog');
}"""

# close every document in the main area without asking (dispose: no "save changes?" dialog)
JS_CLOSE_ALL = """() => {
  const app = window.jupyterapp;
  for (const w of Array.from(app.shell.widgets('main'))) { w.dispose(); }
  return true;
}"""

# in the running lab: close what is open, open the notebook at path ``name``
JS_OPEN_IN_LAB = """async (name) => {
  const app = window.jupyterapp;
  for (const w of Array.from(app.shell.widgets('main'))) { w.dispose(); }
  await app.commands.execute('docmanager:open', {path: name, factory: 'Notebook'});
  return true;
}"""

JS_KERNEL_IDLE = """() => {
  const w = window.jupyterapp.shell.currentWidget;
  const k = w.sessionContext.session && w.sessionContext.session.kernel;
  return !!(k && k.status === 'idle' && !w.sessionContext.isRestarting);
}"""

# run all cells without awaiting in evaluate(): the result lands in window.__lkRun
JS_RUN_ALL = """async () => {
  const app = window.jupyterapp;
  const w = app.shell.currentWidget;
  await w.sessionContext.ready;
  window.__lkRun = undefined;
  app.commands.execute('notebook:run-all-cells').then(
    (ok) => { window.__lkRun = {ok: ok === undefined ? true : !!ok}; },
    (err) => { window.__lkRun = {ok: false, error: String(err)}; });
  return true;
}"""

JS_CELLS = """() => {
  const w = window.jupyterapp.shell.currentWidget;
  const cells = [];
  w.content.widgets.forEach((cell, index) => {
    if (cell.model.type !== 'code') return;
    const outputs = cell.model.outputs.toJSON();
    cells.push({
      index,
      source: cell.model.sharedModel.getSource().slice(0, 200),
      executionCount: cell.model.executionCount,
      errors: outputs.filter((o) => o.output_type === 'error')
        .map((o) => o.ename + ': ' + o.evalue),
      stderr: outputs.filter((o) => o.output_type === 'stream' && o.name === 'stderr')
        .map((o) => Array.isArray(o.text) ? o.text.join('') : o.text),
      widgetViews: outputs.filter((o) => o.data &&
        o.data['application/vnd.jupyter.widget-view+json']).length,
    });
  });
  return cells;
}"""

# the state of the widget outputs in the DOM. The widget renderer is itself the output node
# (class jp-OutputArea-output, no data-mime-type attribute, unlike every other renderer): it shows
# "Loading widget..." as text, then the widget's view as a child with class jupyter-widgets.
JS_WIDGET_STATE = """() => {
  const outs = Array.from(document.querySelectorAll('.jp-OutputArea-output')).filter((o) =>
    !o.hasAttribute('data-mime-type') || o.querySelector(':scope > .jupyter-widgets'));
  return outs.map((o) => ({
    text: (o.innerText || '').slice(0, 300),
    views: o.querySelectorAll('.jupyter-widgets').length,
    height: o.getBoundingClientRect().height,
  }));
}"""

# every step control of a stepper, with the stepper's root (the box around its controls row)
JS_FIND_STEPPERS = r"""() => {
  const buttons = Array.from(document.querySelectorAll(
    '.jp-OutputArea-output button.jupyter-button'));
  const isStep = (b) => {
    if (b.classList.contains('lecturekit-step')) return true;  // a lecturekit Stepper, any language
    const title = (b.getAttribute('title') || '').trim().toLowerCase();
    const text = (b.innerText || '').trim().toLowerCase();
    return title.startsWith('next') || /^step\b|\bstep\s*▶|▶\||^next\b|⏭/.test(text);
  };
  window.__lkSteppers = [];
  buttons.filter(isStep).forEach((b) => {
    const row = b.closest('.widget-hbox') || b.parentElement;
    const root = (row && row.parentElement && row.parentElement.closest('.widget-vbox')) ||
      b.closest('.jp-OutputArea-output');
    window.__lkSteppers.push({button: b, root});
  });
  return window.__lkSteppers.map((s) => ({
    text: s.button.innerText.trim(), title: s.button.getAttribute('title'),
    disabled: s.button.disabled}));
}"""

# what stepper i shows: position label, caption/html texts, slider value, images
JS_STEPPER_STATE = r"""(i) => {
  const s = window.__lkSteppers[i];
  const root = s.root;
  const q = (css) => Array.from(root.querySelectorAll(css));
  const handle = root.querySelector('.noUi-handle, .slider-container [aria-valuenow]');
  const readout = root.querySelector('.widget-readout');
  return {
    labels: q('.widget-label').map((e) => e.innerText.trim()),
    html: q('.widget-html-content').map((e) => e.innerHTML),
    slider: handle ? handle.getAttribute('aria-valuenow') : (readout ? readout.innerText : null),
    images: q('img').map((e) => e.getAttribute('src') || '').map((src) =>
      src.length + ':' + src.slice(-64)),
    outputText: q('.widget-output').map((e) => e.innerText).join('\n').slice(0, 500),
    disabled: s.button.disabled,
    connected: s.button.isConnected,
  };
}"""

# the links of the rendered Markdown in the current notebook. The lab's link handler turns a
# local link's href into the file's download URL (".../files/<path>?..."); a click opens the file
JS_MARKDOWN_LINKS = """() => {
  const w = window.jupyterapp.shell.currentWidget;
  return Array.from(w.node.querySelectorAll('.jp-RenderedMarkdown a')).map((a) => {
    const href = a.getAttribute('href') || '';
    const m = /\\/files\\/([^?#]*)/.exec(new URL(href, document.baseURI).pathname);
    return {path: m ? decodeURIComponent(m[1]) : null, href, text: a.innerText};
  });
}"""

# the text shown by each code cell whose source starts with the given prefix, in order
JS_OUTPUT_TEXTS = """(prefix) => {
  const w = window.jupyterapp.shell.currentWidget;
  const texts = [];
  w.content.widgets.forEach((cell) => {
    if (cell.model.type !== 'code') return;
    if (!cell.model.sharedModel.getSource().trim().startsWith(prefix)) return;
    const outs = Array.from(cell.node.querySelectorAll('.jp-OutputArea-output'));
    texts.push(outs.map((o) => o.innerText).join('\\n'));
  });
  return texts;
}"""
