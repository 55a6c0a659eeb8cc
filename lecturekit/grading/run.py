"""Grading one submission so that the score can be trusted.

Threat model: a submission is hostile Python. Inside one Python process nothing is secret and no
code is trustworthy once the student's code has run (it can patch ``otter``, ``lecturekit``,
builtins, the output stream, ...). So no score is ever computed where student code runs:

1. **The cells' sandbox** (:mod:`lecturekit.grading.sandbox`, bubblewrap). A *worker* process
   executes the submission's code cells one by one (an in-process IPython shell: magics and
   ``get_ipython()`` work, no Jupyter kernel, no sockets), with lecturekit there for exploring as
   in the student's notebook, and answers two requests over a pipe: "give the values of these
   names" (plain data) and "give the recipes of these functions" (:mod:`.portable`: code and
   what it refers to). It sees no solutions, no autograder, no other submission.
2. **The functions' sandbox.** A code question's function is re-created from its recipe in an
   interpreter with the standard library only (``python -I -S``, site-packages hidden; numpy
   where the question's ``packages:`` allows it), and called there (:mod:`.calls`,
   :mod:`.callee`). The library cannot answer for the student because it is not there: no ban
   list to keep complete. A function that needs lecturekit, networkx or a notebook object fails
   with a one-line reason, noted in the CSV.
3. **Trusted driver** (one plain child process per submission, no student code ever runs in
   it). It executes the master notebook's setup cells itself and runs otter's own test runner
   (``OKTestFile``'s rules) on the autograder's tests (public *and* hidden), in a namespace where

   * every name the tests need from the *course* comes from the master's setup, so a submission
     that shadows them changes nothing, and hidden tests compute expected values with lecturekit;
   * every *answer value* is a copy decoded from tagged plain data with exact types (an ``int``
     subclass whose ``__eq__`` returns ``True`` is no answer); a value that cannot be decoded
     scores 0 for that answer only, with a note;
   * every *answer function* is a :class:`lecturekit.grading.calls.Remote`: each call sends
     fresh plain-data copies of its (trusted) arguments, so an expected value computed after
     the call comes from pristine inputs, and a test about mutation compares against its own
     copy (:func:`lecturekit.grading.plain.inputs_after_call`).

   The driver prints one JSON document; the parent reads nothing else.
4. **Limits per submission** (:mod:`.limits`): its sandboxes join one control group (processes,
   and memory of all of them together, tmpfs included) and write only size-capped tmpfs mounts,
   so one submission cannot take the machine or its neighbours' marks. Each cell gets
   ``cell_timeout`` (a soft interrupt from inside, then the kill); a killed cells' sandbox is
   restarted past the runaway cell, so answers given before it still count; each question's
   calls share ``question_timeout``; the parent kills the driver's process group at the
   submission's limit. Every temporary directory and group is removed in ``finally`` blocks.
5. **The submission file** is read by the parent with ``lstat`` and ``O_NOFOLLOW``, only if it
   is a regular file, in bounded chunks up to a size cap; the driver reads that copy. A symlink,
   FIFO or device gets a row with a note instead.

The code follows the processes: :mod:`.worker` runs the cells, :mod:`.callee` the functions,
:mod:`.protocol` is what they exchange, and this module is the trusted driver (:func:`drive`,
started as ``python -m lecturekit.grading.run _drive``) and the parent's :class:`Grader`.
"""

from __future__ import annotations

import ast
import json
import math
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

from ..errors import LectureKitError
from ..language import _, get_language
from .calls import CalleeGone, Channel, Functions, Remote
from .messages import shown
from .oktests import case_points, run_question, score  # noqa: F401 - case_points: its old place
from .portable import NOT_DEFINED
from .protocol import (  # noqa: F401 - FRAME_LIMIT ... send: the names this module had before
    FRAME_LIMIT,
    Unencodable,
    decode,
    encode,
    encode_or_none,
    receive_blocking,
    send,
)
from .worker import worker_main  # noqa: F401 - the old module's name

SandboxGone = CalleeGone  # the old name of "the sandbox did not answer in time, or ended"

RESULT_LIMIT = 4 * 2**20  # bytes of the driver's result
SUBMISSION_BYTES = 64 * 2**20  # a submitted notebook larger than this is not graded
MAX_RESTARTS = 3
GRACE = 3.0  # seconds between the soft interrupt and the kill
#: site-packages a code question may allow its function to import (``packages:`` in its config)
ALLOWED = ("numpy",)


def _skipped(source: str) -> bool:
    """The init cell ``lecturekit assign`` writes (``grader = ...``): not run in the sandbox."""
    return source.lstrip().startswith("# Initialize Otter")


# -- the driver: trusted, one per submission ---------------------------------------------------
class Session:
    """One sandboxed worker running a submission's cells."""

    def __init__(self, job: Job, package: Path):
        from .sandbox import command, limiter

        notebooks = [(job.notebook, name) for name in job.notebook_names]
        proc = subprocess.Popen(
            [
                *command(job.bwrap, package, notebooks),
                sys.executable,
                "-m",
                "lecturekit.grading.worker",
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=limiter(job.cpu_budget, job.group),
        )
        self.channel = Channel(proc)
        try:
            self.channel.receive(120)  # "ready"
        except BaseException:
            self.close()
            raise

    def request(self, message: dict, timeout: float) -> dict:
        self.channel.send(message)
        return self.channel.receive(timeout)

    def close(self) -> None:
        self.channel.close()


class Runner:
    """Runs a submission's cells in a sandbox, restarting it past cells that hang or kill it."""

    def __init__(self, job: Job, package: Path, cells: list[tuple[int, str]]):
        self.job, self.package, self.cells = job, package, cells
        self.skip: set[int] = set()
        self.session: Session | None = None
        self.restarts = 0

    def start(self) -> Session | None:
        """A session with every cell run (once); ``None`` if it cannot be made to run."""
        while self.session is None:
            if self.restarts > MAX_RESTARTS:
                return None
            try:
                session = Session(self.job, self.package)
            except CalleeGone:
                self.job.note(_("the sandbox did not start"))
                return None
            self.session = session
            for index, (number, source) in enumerate(self.cells):
                if index in self.skip:
                    continue
                t = self.job.cell_timeout
                try:
                    reply = session.request(
                        {"op": "cell", "source": source, "timeout": t}, t + GRACE
                    )
                except CalleeGone as exc:
                    self.skip.add(index)
                    self.drop()
                    self.job.errors += 1
                    self.job.note(
                        _("cell {number} timed out after {seconds} s").format(
                            number=number, seconds=f"{t:g}"
                        )
                        if str(exc) == "timed out"
                        else _("the submission's process ended in cell {number}").format(
                            number=number
                        )
                    )
                    break
                self.job.errors += not reply.get("ok")
                if reply.get("timeout"):
                    self.job.note(
                        _("cell {number} timed out after {seconds} s").format(
                            number=number, seconds=f"{t:g}"
                        )
                    )
        return self.session

    def drop(self) -> None:
        if self.session is not None:
            self.session.close()
            self.session = None
            self.restarts += 1


class Job:
    def __init__(self, plan: dict, notebook: Path, name: str, job_dir: Path, group):
        self.plan, self.notebook, self.dir, self.group = plan, notebook, job_dir, group
        self.bwrap = plan["bwrap"]
        self.cell_timeout = float(plan["cell_timeout"])
        self.question_timeout = float(plan["question_timeout"])
        self.cpu_budget = float(plan["submission_timeout"]) + 30
        self.notebook_names = sorted({name, plan["notebook_name"]})
        self.notes: list[str] = []
        self.errors = 0

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)


def _code_cells(path: Path) -> list[tuple[int, str]]:
    """The submission's code cells (1-based numbers). Read as JSON: importing nbformat pulls in
    jsonschema's format checkers, seconds per driver process; a notebook not in format 4 goes
    through nbformat's conversion."""
    with path.open(encoding="utf-8") as fh:
        nb = json.load(fh)
    if not isinstance(nb, dict) or nb.get("nbformat") != 4:
        import nbformat

        nb = nbformat.read(str(path), as_version=4)
    cells = nb.get("cells")
    if not isinstance(cells, list):
        raise ValueError("no list of cells")  # i18n: not shown (said as "unreadable")
    out = []
    for number, c in enumerate(cells, start=1):
        if not isinstance(c, dict) or c.get("cell_type") != "code":
            continue
        source = c.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        if not _skipped(source):
            out.append((number, source))
    return out


def drive(plan: dict, notebook: Path, name: str, job_dir: Path, group=None) -> dict:
    """Grade one submission; the returned scores come only from the trusted test run."""
    from .sandbox import PACKAGE

    job = Job(plan, notebook, name, job_dir, group)
    try:
        cells = _code_cells(notebook)
    except Exception as exc:  # noqa: BLE001 - an unreadable notebook scores 0
        note = _("unreadable notebook: {error}").format(error=str(exc)[:200])
        return {"scores": {}, "notes": [note], "errors": 0}
    value_names = [n for q in plan["questions"] for n in q["values"]]
    function_names = [n for q in plan["questions"] for n in q["functions"]]
    runner = Runner(job, PACKAGE, cells)
    values: dict[str, object] = {}
    recipes: dict = {}
    try:
        session = runner.start()
        if session is not None:
            values = _values(session, value_names, job)
            if function_names:
                try:
                    reply = session.request({"op": "recipes", "names": function_names}, 60)
                    got = reply.get("recipes")
                    recipes = got if isinstance(got, dict) else {}
                except CalleeGone:
                    job.note(_("the submission's functions could not be read"))
    finally:
        runner.drop()
    calls = _functions(plan, job, recipes)
    try:
        scores = _trusted_tests(plan, job, values, calls)
    finally:
        for functions in calls.values():
            functions.drop()
    return {"scores": scores, "notes": job.notes, "errors": job.errors}


def _values(session: Session, names: list[str], job: Job) -> dict:
    """The answer values, decoded one by one: a value that cannot be decoded scores 0 for that
    answer only, with a note."""
    if not names:
        return {}
    try:
        reply = session.request({"op": "values", "names": names}, 60)
        got = reply.get("values") if isinstance(reply.get("values"), dict) else {}
    except CalleeGone:
        got = {}
    values = {}
    for name in names:
        item = got.get(name)
        if isinstance(item, dict) and "value" in item:
            try:
                values[name] = decode(item["value"])
            except ValueError as exc:
                job.note(
                    _("{name}: not plain data ({error})").format(name=name, error=shown(str(exc)))
                )
        elif isinstance(item, dict) and "bad" in item:
            job.note(f"{name}: {shown(str(item['bad']))[:200]}")
    return values


def _functions(plan: dict, job: Job, recipes: dict) -> dict[str, Functions]:
    """Per question, the library-free process its functions are called in: one per set of
    allowed packages (most sets: one, the standard library only)."""
    from .sandbox import call_command, limiter

    by_packages: dict[tuple, dict] = {}
    for q in plan["questions"]:
        key = tuple(q.get("packages") or ())
        wanted = by_packages.setdefault(key, {})
        for name in q["functions"]:
            wanted[name] = recipes.get(name, {"error": NOT_DEFINED.format(name=name)})
    made: dict[tuple, Functions] = {}
    for key, subset in by_packages.items():
        command = call_command(job.bwrap, list(key))

        def start(command=command):
            return subprocess.Popen(
                command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
                preexec_fn=limiter(job.cpu_budget, job.group),
            )

        made[key] = Functions(start, subset, job.question_timeout)
    return {q["name"]: made[tuple(q.get("packages") or ())] for q in plan["questions"]}


def _trusted_tests(plan: dict, job: Job, values: dict, calls: dict[str, Functions]) -> dict:
    import contextlib
    import io

    setup: dict = {"__name__": "__main__"}
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        exec(compile(plan["setup"], "<master notebook setup>", "exec"), setup)  # noqa: S102
    scores = {}
    for q in plan["questions"]:
        functions = calls[q["name"]]
        env = dict(setup)
        env.update(values)
        env.update({name: Remote(functions, name) for name in q["functions"]})
        functions.start_question(q["name"])
        scores[q["name"]] = run_ok_test(q["tests"], env)
        if functions.timed_out:
            job.note(
                _("{q} timed out after {seconds} s").format(
                    q=q["name"], seconds=f"{job.question_timeout:g}"
                )
            )
        if q["name"] in functions.unusable:
            job.note(f"{q['name']}: {shown(functions.unusable[q['name']])}")
    return scores


def run_ok_test(spec: dict, env: dict) -> float:
    """Points earned on one otter OK-format question (doctest cases run in ``env``), computed
    as ``otter.test_files.OKTestFile`` does, without importing otter (seconds per process)."""
    return score(spec, run_question(spec, env))


# -- the plan: what the parent reads from the master and the autograder before any run ---------
def _markers(cell) -> str:
    return cell.source.strip().split("\n", 1)[0].strip().upper() if cell.cell_type == "raw" else ""


def make_plan(master: Path, autograder: Path) -> dict:
    """Setup code, answer names, tests and allowed packages of a problem set (validated)."""
    import nbformat

    from .assign import question_config

    nb = nbformat.read(str(master), as_version=4)
    tests = nbformat.read(str(autograder), as_version=4).metadata.get("otter", {}).get("tests", {})
    setup: list[str] = []
    questions: list[dict] = []
    current: dict | None = None
    state = None
    for cell in nb.cells:
        marker = _markers(cell)
        if marker.startswith("# BEGIN QUESTION"):
            config = question_config(master, cell.source.strip())
            if "forbidden" in config:
                raise LectureKitError(
                    _(
                        "{master}: question {name}: `forbidden:` is gone (a code question's "
                        "function runs without lecturekit); remove it, and name the "
                        "site-packages it may import under `packages:` (numpy) if any"
                    ).format(master=master, name=config.get("name"))
                )
            packages = config.get("packages") or []
            if not isinstance(packages, list) or not all(p in ALLOWED for p in packages):
                raise LectureKitError(
                    _(
                        "{master}: question {name}: `packages:` may list only {allowed}, got "
                        "{packages!r}"
                    ).format(
                        master=master,
                        name=config.get("name"),
                        allowed=", ".join(ALLOWED),
                        packages=packages,
                    )
                )
            current = {
                "name": str(config.get("name")),
                "points": float(config.get("points", 1)),
                "manual": bool(config.get("manual")),
                "packages": sorted(str(p) for p in packages),
                "values": [],
                "functions": [],
            }
            questions.append(current)
            continue
        if marker.startswith("# END QUESTION"):
            current = None
            continue
        if marker.startswith("# BEGIN SOLUTION"):
            state = "solution"
            continue
        if marker.startswith("# BEGIN TESTS"):
            state = "tests"
            continue
        if marker.startswith("# END SOLUTION") or marker.startswith("# END TESTS"):
            state = None
            continue
        if cell.cell_type != "code":
            continue
        if state == "solution" and current is not None:
            tree = ast.parse(_python_only(cell.source))
            for node in tree.body:
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    current["functions"].append(node.name)
                elif isinstance(node, (ast.Import, ast.ImportFrom)):
                    setup.append(ast.unparse(node))
                elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    for target in targets:
                        for name in ast.walk(target):
                            if isinstance(name, ast.Name) and name.id not in current["values"]:
                                current["values"].append(name.id)
        elif state is None:
            setup.append(_python_only(cell.source))
    auto = [q for q in questions if not q["manual"]]
    for q in auto:
        if q["name"] not in tests:
            raise LectureKitError(
                _("{autograder}: no tests for question {q}").format(
                    autograder=autograder, q=q["name"]
                )
            )
        q["tests"] = tests[q["name"]]
        if not any(p > 0 for p in case_points(q["tests"])):
            raise LectureKitError(
                _(
                    "{master}: question {q}: no test case carries points (each is "
                    "`points: 0`): points come from the tests of correctness"
                ).format(master=master, q=q["name"])
            )
        q["values"] = [v for v in q["values"] if v not in q["functions"]]
    return {"notebook_name": master.name, "setup": "\n".join(setup), "questions": auto}


def _python_only(source: str) -> str:
    """A cell's source without IPython magics (the master's setup is run as plain Python)."""
    return "\n".join(
        "" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines()
    )


def driver_main(argv: list[str]) -> int:
    plan_path, notebook, name, job_dir, group_paths = argv
    plan = json.loads(Path(plan_path).read_text(encoding="utf-8"))
    from .limits import JobGroup

    group = JobGroup.adopt(json.loads(group_paths))
    result = drive(plan, Path(notebook), name, Path(job_dir), group)
    sys.stdout.write(json.dumps(result))
    sys.stdout.flush()
    return 0


# -- the parent's side --------------------------------------------------------------------------
class NotGradable(LectureKitError):
    """A submission that is not a regular file, or too large (the row says which)."""


def read_submission(path: Path, limit: int = SUBMISSION_BYTES) -> bytes:
    """The bytes of a submitted notebook: only a regular file (``lstat``: no symlink followed),
    opened with ``O_NOFOLLOW | O_NONBLOCK`` (a FIFO swapped in cannot block), checked again on
    the open file, and read in bounded chunks up to ``limit`` bytes (a file that grows while it
    is read cannot make this process grow)."""
    try:
        info = os.lstat(path)
    except OSError as exc:
        raise NotGradable(_("cannot be read ({reason})").format(reason=exc.strerror)) from None
    if not stat.S_ISREG(info.st_mode):
        raise NotGradable(
            _("not a regular file ({kind}): not graded").format(kind=_kind(info.st_mode))
        )
    if info.st_size > limit:
        raise NotGradable(_("larger than {mib} MiB: not graded").format(mib=limit >> 20))
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as exc:
        raise NotGradable(_("cannot be read ({reason})").format(reason=exc.strerror)) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotGradable(_("not a regular file: not graded"))
        chunks, size = [], 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            size += len(chunk)
            if size > limit:
                raise NotGradable(_("larger than {mib} MiB: not graded").format(mib=limit >> 20))
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISLNK, _("a symbolic link")),
        (stat.S_ISFIFO, _("a FIFO")),
        (stat.S_ISCHR, _("a character device")),
        (stat.S_ISBLK, _("a block device")),
        (stat.S_ISSOCK, _("a socket")),
        (stat.S_ISDIR, _("a folder")),
    ):
        if test(mode):
            return name
    return _("not a file")


class Grader:
    """Grades submissions of one problem set; prepare once, then :meth:`grade` each notebook.

    The master and its autograder are read and validated here, before any submission runs, and
    the limits are checked: if one cannot be enforced on this machine (:func:`.limits.unenforced`)
    this raises unless ``unsafe`` (then :attr:`unenforced` lists them). Use as a context manager
    (removes its temporary directory on every path).
    """

    def __init__(
        self,
        master: Path,
        autograder: Path,
        cell_timeout: float = 30,
        question_timeout: float = 30,
        submission_timeout: float | None = None,
        *,
        unsafe: bool = False,
    ):
        from . import limits
        from .sandbox import bwrap, package_folders

        self.exe = bwrap()
        self.unenforced = limits.unenforced(self.exe)
        if self.unenforced and not unsafe:
            raise LectureKitError(
                _(
                    "these per-submission limits cannot be enforced on this machine: {limits}. "
                    "Grade as root or in a delegated cgroup v2 subtree (README, 'What grading "
                    "defends against'), or give --unsafe to grade without them"
                ).format(limits="; ".join(self.unenforced))
            )
        self.mechanism = limits.mechanism()
        self.plan = make_plan(master, autograder)
        for q in self.plan["questions"]:
            package_folders(q["packages"])  # each allowed package is installed
        n = len(self.plan["questions"])
        self.limit = submission_timeout or (cell_timeout * 40 + question_timeout * (n + 2) + 60)
        self.points = {q["name"]: q["points"] for q in self.plan["questions"]}
        self.base = Path(tempfile.mkdtemp(prefix="lk-grading-"))
        self.count = 0
        try:
            self.plan.update(
                bwrap=self.exe,
                cell_timeout=cell_timeout,
                question_timeout=question_timeout,
                submission_timeout=self.limit,
            )
            self.plan_path = self.base / "plan.json"
            self.plan_path.write_text(json.dumps(self.plan), encoding="utf-8")
        except BaseException:
            shutil.rmtree(self.base, ignore_errors=True)
            raise

    def __enter__(self) -> Grader:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        shutil.rmtree(self.base, ignore_errors=True)

    def grade(self, submission: Path) -> dict:
        """``{"scores": {question: points}, "notes": [...], "errors": n}``; never raises for
        anything the submission does. Scores are capped at each question's points."""
        from .sandbox import stop

        notes: list[str] = []
        data: dict = {}
        job = Path(tempfile.mkdtemp(prefix="lk-job-", dir=self.base))
        group = None
        try:
            notebook = job / "submission.ipynb"
            notebook.write_bytes(read_submission(submission))
            os.chmod(notebook, 0o444)
            if self.mechanism is not None:
                self.count += 1
                group = self.mechanism.new_job(f"lecturekit-{os.getpid()}-{self.count}-{job.name}")
            proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "lecturekit.grading.run",
                    "_drive",
                    str(self.plan_path),
                    str(notebook),
                    submission.name,
                    str(job),
                    json.dumps([str(p) for p in group.paths] if group else []),
                ],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
                cwd=job,
                # its notes in the language spoken here (the CLI's --lang included)
                env={**os.environ, "LECTUREKIT_LANG": get_language()},
            )
            try:
                out, err = proc.communicate(timeout=self.limit)
            except subprocess.TimeoutExpired:
                stop(proc)
                out, err = b"", b""
                notes.append(_("stopped after {seconds} s").format(seconds=f"{self.limit:g}"))
            if proc.returncode not in (0, None) and not notes:
                last = err.decode(errors="replace").strip().splitlines()[-1:]
                notes.append(_("grader process failed: {error}").format(error=last))
            if out:
                data = json.loads(out[:RESULT_LIMIT])
        except NotGradable as exc:
            notes.append(str(exc))
        except (OSError, ValueError, LectureKitError) as exc:
            notes.append(_("could not grade: {error}").format(error=exc))
        finally:
            if group is not None:
                group.close()
            shutil.rmtree(job, ignore_errors=True)
        data = data if isinstance(data, dict) else {}
        scores = data.get("scores") if isinstance(data.get("scores"), dict) else {}
        capped = {}
        for name, points in self.points.items():
            try:
                value = float(scores.get(name, 0.0))
            except (TypeError, ValueError):
                value = 0.0
            capped[name] = min(max(value, 0.0), points) if math.isfinite(value) else 0.0
        found = data.get("notes") if isinstance(data.get("notes"), list) else []
        errors = data.get("errors") if type(data.get("errors")) is int else 0
        return {"scores": capped, "notes": [str(n) for n in found] + notes, "errors": errors}


if __name__ == "__main__":
    if sys.argv[1:2] == ["_drive"]:
        sys.exit(driver_main(sys.argv[2:]))
    sys.exit(2)
