"""Grading one submission so that the score can be trusted.

Threat model: a submission is hostile Python. Inside one Python process nothing is secret and no
code is trustworthy once the student's code has run (it can patch ``otter``, ``lecturekit``,
builtins, the output stream, ...). So no score is ever computed where student code runs:

1. **Sandbox** (:mod:`lecturekit.grading.sandbox`, bubblewrap). A *worker* process executes the
   submission's code cells one by one (an in-process IPython shell: magics and ``get_ipython()``
   work, no Jupyter kernel, no sockets) and answers two kinds of requests over a pipe: "give the
   values of these names" and "call your function ``f`` with these arguments". It sees no
   solutions, no autograder, no other submission, and can write only its own scratch directory.
2. **Trusted driver** (one plain child process per submission, no student code ever runs in
   it). It reads the master notebook's setup code and the autograder's tests (public *and*
   hidden), prepared and validated by the parent before any submission runs, executes the setup
   cells itself, and runs otter's own test runner (``OKTestFile``) in a namespace where

   * every name the tests need from the *course* (``g``, ``heights``, ``list_schedule``,
     ``PRIORITIES``, ...) comes from the master's setup, so a submission that shadows them
     changes nothing, and hidden tests compute their expected values with trusted lecturekit;
   * every *answer value* (``q1_heights``) is a copy decoded from tagged plain data (JSON with
     exact types: ``int``, ``float``, ``str``, ``list``, ``tuple``, ``set``, ``dict``,
     ``Fraction``, numpy arrays/scalars of numeric dtype...). The sandbox refuses subclasses and
     other objects (``type(x) is int``, not ``isinstance``), so an ``int`` subclass with
     ``__eq__`` returning ``True`` is no answer at all;
   * every *answer function* (``height``) is a proxy: each call sends the (trusted) arguments
     into the sandbox (pickled; an object passed again is sent once and then named by a
     handle), and takes back only a plain-data result, decoded as above. Arguments that are
     plain containers (lists, dicts, sets, arrays) come back too, and are written into the
     trusted ones if the function changed them, so "must not modify its input" tests still see
     a modification.

   Record/replay (run the tests in the sandbox, replay the recorded calls in the trusted run)
   was the alternative; calling through the sandbox is simpler and exact: the trusted tests
   decide every argument, so nothing recorded can be forged or go stale.

   The driver prints one JSON document; the parent reads nothing else. Whatever the submission
   prints, forges or writes never reaches it, and no "score" comes out of the sandbox at all.
3. **The student's own work.** A master notebook may name, per code question, the library
   functions that would answer it (``forbidden`` in the ``# BEGIN QUESTION`` config, see
   CONTRIBUTING.md). Answer functions are then called in a second sandbox whose ``lecturekit``
   is a generated copy in which those functions' bodies raise "qN may not use ..." (see
   :func:`lecturekit.grading.sandbox.package_copy`): the code is not in that process, on disk or
   importable, so globals, aliases, module attributes, fresh imports and introspection all find
   only the stub. One copy serves all the code questions of a set, so a function one question
   forbids is unavailable to the others' functions too (every solution is graded against it, so
   a list that breaks a solution fails ``tests/test_grading.py``). Answer *values* are taken
   from the first, unrestricted run (a "by hand" answer may be checked with the library).
4. **Time limits that hold.** Each cell gets ``cell_timeout`` (a soft interrupt from inside,
   then the driver kills the sandbox's process group); a killed sandbox is restarted and the
   cells before the runaway one are run again, so answers given before it still count. Each
   question's calls into the sandbox share ``question_timeout``. The parent kills the driver's
   whole process group at the submission's limit; sandboxes die with their driver. Every
   temporary directory is removed in ``finally`` blocks (and the parent removes the job's
   directory whatever happened to the driver).

The code follows the processes: :mod:`.worker` is what runs in the sandbox, :mod:`.protocol` what
the two sides exchange, and this module the trusted driver (:func:`drive`, started as
``python -m lecturekit.grading.run _drive``) and the parent's :class:`Grader`.
"""

from __future__ import annotations

import ast
import base64
import json
import math
import os
import pickle
import select
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from ..errors import LectureKitError
from .protocol import (  # noqa: F401 - encode_or_none, receive_blocking: the old module's names
    FRAME_LIMIT,
    Unencodable,
    decode,
    encode,
    encode_or_none,
    receive_blocking,
    send,
)
from .worker import worker_main  # noqa: F401 - the old module's name

RESULT_LIMIT = 4 * 2**20  # bytes of the driver's result
MAX_RESTARTS = 3
GRACE = 3.0  # seconds between the soft interrupt and the kill


def _skipped(source: str) -> bool:
    """The init cell ``lecturekit assign`` writes (``grader = ...``): not run in the sandbox."""
    return source.lstrip().startswith("# Initialize Otter")


def _write_back(target, data) -> None:
    """Make the trusted argument ``target`` hold what the sandbox's copy holds after a call."""
    if encode_or_none(target) == data:
        return
    value = decode(data)
    if type(target) is list and type(value) is list:
        target[:] = value
    elif type(target) is dict and type(value) is dict:
        target.clear()
        target.update(value)
    elif type(target) is set and type(value) is set:
        target.clear()
        target.update(value)
    elif type(target).__name__ == "ndarray" and getattr(value, "shape", None) == target.shape:
        target[...] = value


# -- the driver: trusted, one per submission ---------------------------------------------------
class SandboxGone(Exception):
    """The sandbox did not answer in time, or ended."""


class Session:
    """One sandboxed worker running a submission's cells."""

    def __init__(self, bwrap: str, scratch: Path, package: Path, budget: float):
        from .sandbox import command, limiter

        self.proc = subprocess.Popen(
            [
                *command(bwrap, scratch, package),
                sys.executable,
                "-m",
                "lecturekit.grading.worker",
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=limiter(budget),
        )
        self.buffer = b""
        try:
            self.request({}, 120, send_it=False)  # wait for "ready"
        except BaseException:
            self.close()
            raise

    def request(self, message: dict, timeout: float, send_it: bool = True) -> dict:
        if send_it:
            try:
                send(self.proc.stdin.fileno(), message)
            except OSError as exc:
                raise SandboxGone("ended") from exc
        deadline = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        while True:
            if len(self.buffer) >= 4:
                (n,) = struct.unpack(">I", self.buffer[:4])
                if n > FRAME_LIMIT:
                    raise SandboxGone("sent an oversized message")
                if len(self.buffer) >= 4 + n:
                    frame, self.buffer = self.buffer[4 : 4 + n], self.buffer[4 + n :]
                    try:
                        reply = json.loads(frame)
                    except ValueError as exc:
                        raise SandboxGone("sent a malformed message") from exc
                    if not isinstance(reply, dict):
                        raise SandboxGone("sent a malformed message")
                    return reply
            left = deadline - time.monotonic()
            if left <= 0:
                raise SandboxGone("timed out")
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                chunk = os.read(fd, 1 << 20)
                if not chunk:
                    raise SandboxGone("ended")
                self.buffer += chunk

    def close(self) -> None:
        from .sandbox import stop

        for stream in (self.proc.stdin, self.proc.stdout):
            try:
                stream.close()
            except OSError:
                pass
        stop(self.proc, grace=0.5)


class Runner:
    """Runs a submission's cells in a sandbox, restarting it past cells that hang or kill it."""

    def __init__(self, job, package: Path, cells: list[tuple[int, str]], record: bool):
        self.job, self.package, self.cells, self.record = job, package, cells, record
        self.skip: set[int] = set()
        self.session: Session | None = None
        self.restarts = 0
        self.handles: dict[int, int] = {}
        self.keep: list = []

    def start(self) -> Session | None:
        """A session with every cell run (once); ``None`` if it cannot be made to run."""
        while self.session is None:
            if self.restarts > MAX_RESTARTS:
                return None
            scratch = Path(tempfile.mkdtemp(prefix="lk-sandbox-", dir=self.job.dir))
            for name in self.job.notebook_names:
                shutil.copyfile(self.job.submission, scratch / name)
            try:
                session = Session(self.job.bwrap, scratch, self.package, self.job.cpu_budget)
            except SandboxGone:
                self.job.note("the sandbox did not start")
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
                except SandboxGone as exc:
                    self.skip.add(index)
                    session.close()
                    self.session = None
                    self.restarts += 1
                    if self.record:
                        self.job.errors += 1
                        self.job.note(
                            f"cell {number} timed out after {t:g}s"
                            if str(exc) == "timed out"
                            else f"the submission's process ended in cell {number}"
                        )
                    break
                if self.record:
                    self.job.errors += not reply.get("ok")
                    if reply.get("timeout"):
                        self.job.note(f"cell {number} timed out after {t:g}s")
            else:
                self.record = False  # a restart (after a later failed call) stays quiet
        return self.session

    def pack(self, args: tuple, kwargs: dict) -> list:
        """Arguments for a call: simple ones pickled, others sent once and then named by handle
        (the same trusted graph passed 1000 times is pickled once per sandbox)."""
        packed = []
        for key, value in [*((None, a) for a in args), *kwargs.items()]:
            if type(value) in (int, float, str, bool, type(None)):
                packed.append([key, "v", value])
                continue
            handle = self.handles.get(id(value))
            if handle is None:
                handle = len(self.keep)
                self.keep.append(value)  # keeps id(value) unique while the handle is in use
                self.handles[id(value)] = handle
                data = base64.b64encode(pickle.dumps(value)).decode()
                packed.append([key, "new", handle, data])
            else:
                packed.append([key, "h", handle])
        return packed

    def drop(self) -> None:
        self.handles, self.keep = {}, []
        if self.session is not None:
            self.session.close()
            self.session = None
            self.restarts += 1


class Remote:
    """A trusted stand-in for a student's function: calls it in the sandbox, returns plain data."""

    def __init__(self, job, name: str):
        self.job, self.name = job, name
        self.__name__ = name

    def __call__(self, *args, **kwargs):
        job = self.job
        left = job.left
        if left <= 0:
            raise TimeoutError(f"{job.question} ran out of its {job.question_timeout:g}s")
        session = job.calls.start()
        if session is None:
            raise RuntimeError(f"{self.name} is not available: the submission did not run")
        try:
            payload = job.calls.pack(args, kwargs)
        except Exception as exc:  # noqa: BLE001
            raise TypeError(f"cannot pass these arguments to {self.name}: {exc}") from None
        began = time.monotonic()
        try:
            reply = session.request(
                {"op": "call", "name": self.name, "args": payload, "timeout": left}, left + GRACE
            )
        except SandboxGone:
            job.calls.drop()
            job.left = job.timed_out = 0
            raise TimeoutError(f"{job.question} ran out of its {job.question_timeout:g}s") from None
        job.left -= time.monotonic() - began
        if "raise" in reply:
            if reply.get("timeout"):
                job.left = job.timed_out = 0
            message = str(reply["raise"])[:2000]
            if " may not use " in message:
                job.forbidden_used.setdefault(job.question, message.split(": ", 1)[-1])
            raise AssertionError(f"{self.name} raised {message}")
        try:
            after = reply.get("after") if isinstance(reply.get("after"), dict) else {}
            passed = [*args, *kwargs.values()]
            for key, data in after.items():
                if key.isdigit() and int(key) < len(passed):
                    _write_back(passed[int(key)], data)
            return decode(reply.get("value"))
        except (ValueError, TypeError, OverflowError) as exc:
            raise AssertionError(f"{self.name} returned something that is not plain data") from exc


class Job:
    def __init__(self, plan: dict, submission: Path, job_dir: Path, packages: dict, bwrap: str):
        self.plan, self.submission, self.dir, self.bwrap = plan, submission, job_dir, bwrap
        self.packages = packages
        self.cell_timeout = float(plan["cell_timeout"])
        self.question_timeout = float(plan["question_timeout"])
        self.cpu_budget = float(plan["submission_timeout"]) + 30
        self.notebook_names = sorted({submission.name, plan["notebook_name"]})
        self.notes: list[str] = []
        self.errors = 0
        self.question = ""
        self.left = 0.0  # seconds the current question may still spend in the sandbox
        self.timed_out: int | None = None
        self.forbidden_used: dict[str, str] = {}

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
        raise ValueError("no list of cells")
    out = []
    for number, c in enumerate(cells, start=1):
        if not isinstance(c, dict) or c.get("cell_type") != "code":
            continue
        source = c.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        if not _skipped(source):
            out.append((number, source))
    return out


def drive(plan: dict, submission: Path, job_dir: Path, packages: dict, bwrap: str) -> dict:
    """Grade one submission; the returned scores come only from the trusted test run."""
    job = Job(plan, submission, job_dir, packages, bwrap)
    scores: dict[str, float] = {}
    try:
        cells = _code_cells(submission)
    except Exception as exc:  # noqa: BLE001 - an unreadable notebook scores 0
        return {"scores": {}, "notes": [f"unreadable notebook: {str(exc)[:200]}"], "errors": 0}
    value_names = [n for q in plan["questions"] for n in q["values"]]
    function_names = [n for q in plan["questions"] for n in q["functions"]]
    first = Runner(job, Path(packages["open"]), cells, record=True)
    values: dict[str, object] = {}
    try:
        session = first.start()
        if session is not None and value_names:
            try:
                reply = session.request({"op": "values", "names": value_names}, 60)
                got = reply.get("values") if isinstance(reply.get("values"), dict) else {}
            except SandboxGone:
                got = {}
            for name in value_names:
                item = got.get(name)
                if isinstance(item, dict) and "value" in item:
                    try:
                        values[name] = decode(item["value"])
                    except (ValueError, TypeError, OverflowError):
                        job.note(f"{name}: not plain data")
                elif isinstance(item, dict) and "bad" in item:
                    job.note(f"{name}: {str(item['bad'])[:200]}")
        if function_names and packages.get("closed"):
            first.drop()
            job.calls = Runner(job, Path(packages["closed"]), cells, record=False)
            job.calls.skip = set(first.skip)
        else:
            job.calls = first
        scores = _trusted_tests(plan, job, values, function_names)
    finally:
        first.drop()
        if getattr(job, "calls", None) is not None:
            job.calls.drop()
    for question, message in job.forbidden_used.items():
        job.note(f"{question}: {message}")
    return {"scores": scores, "notes": job.notes, "errors": job.errors}


def _trusted_tests(plan: dict, job: Job, values: dict, function_names: list[str]) -> dict:
    import contextlib
    import io

    setup: dict = {"__name__": "__main__"}
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        exec(compile(plan["setup"], "<master notebook setup>", "exec"), setup)  # noqa: S102
    remotes = {name: Remote(job, name) for name in function_names}
    scores = {}
    for q in plan["questions"]:
        env = dict(setup)
        env.update(values)
        env.update(remotes)
        job.question = q["name"]
        job.left, job.timed_out = job.question_timeout, None
        scores[q["name"]] = run_ok_test(q["tests"], env)
        if job.timed_out == 0:
            job.note(f"{q['name']} timed out after {job.question_timeout:g}s")
    return scores


def case_points(spec: dict) -> list[float]:
    """Each test case's points, resolved as otter-grader does (``resolve_test_file_points``)."""
    cases = spec["suites"][0]["cases"]
    total = spec.get("points")
    given = [c.get("points") for c in cases]
    if isinstance(total, list):
        given, total = list(total), None
    fixed = sum(p for p in given if p is not None)
    free = sum(p is None for p in given)
    if total is not None:
        each = (total - fixed) / free if free else 0.0
    elif fixed == 0:
        each = 1 / free if free else 0.0
    else:
        each = 0.0
    return [float(p) if p is not None else each for p in given]


def run_ok_test(spec: dict, env: dict) -> float:
    """Points earned on one otter OK-format question (doctest cases run in ``env``), computed
    as ``otter.test_files.OKTestFile`` does, without importing otter (seconds per process)."""
    import contextlib
    import doctest
    import io
    from textwrap import dedent

    points = case_points(spec)
    passed = []
    for i, case in enumerate(spec["suites"][0]["cases"]):
        name = f"{spec['name']} {i}"
        body = dedent(case["code"])
        examples = doctest.DocTestParser().parse(body, name)
        test = doctest.DocTest(
            [e for e in examples if isinstance(e, doctest.Example)], env, name, None, None, body
        )
        runner = doctest.DocTestRunner(verbose=False)
        sink = io.StringIO()
        with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
            result = runner.run(test, clear_globs=False)
        passed.append(result.failed == 0)
    if spec.get("all_or_nothing"):
        return sum(points) if all(passed) else 0.0
    return sum(p for p, ok in zip(points, passed, strict=True) if ok)


# -- the plan: what the parent reads from the master and the autograder before any run ---------
def _markers(cell) -> str:
    return cell.source.strip().split("\n", 1)[0].strip().upper() if cell.cell_type == "raw" else ""


def make_plan(master: Path, autograder: Path) -> dict:
    """Setup code, answer names, tests and forbidden functions of a problem set (validated)."""
    import nbformat
    import yaml

    nb = nbformat.read(str(master), as_version=4)
    tests = nbformat.read(str(autograder), as_version=4).metadata.get("otter", {}).get("tests", {})
    setup: list[str] = []
    questions: list[dict] = []
    current: dict | None = None
    state = None
    for cell in nb.cells:
        marker = _markers(cell)
        if marker.startswith("# BEGIN QUESTION"):
            text = cell.source.strip()
            config = yaml.safe_load(text.split("\n", 1)[1] if "\n" in text else "") or {}
            current = {
                "name": str(config.get("name")),
                "points": float(config.get("points", 1)),
                "manual": bool(config.get("manual")),
                "forbidden": [str(f) for f in config.get("forbidden") or []],
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
            raise LectureKitError(f"{autograder}: no tests for question {q['name']}")
        q["tests"] = tests[q["name"]]
        q["values"] = [v for v in q["values"] if v not in q["functions"]]
    forbidden: dict[str, list[str]] = {}
    for q in auto:
        for name in q["forbidden"]:
            forbidden.setdefault(name, []).append(q["name"])
    return {
        "notebook_name": master.name,
        "setup": "\n".join(setup),
        "questions": auto,
        "forbidden": {
            name: f"{' and '.join(qs)} may not use {name}" for name, qs in forbidden.items()
        },
    }


def _python_only(source: str) -> str:
    """A cell's source without IPython magics (the master's setup is run as plain Python)."""
    return "\n".join(
        "" if line.lstrip().startswith(("%", "!")) else line for line in source.splitlines()
    )


def driver_main(argv: list[str]) -> int:
    plan_path, submission, job_dir = argv
    plan = json.loads(Path(plan_path).read_text())

    result = drive(plan, Path(submission), Path(job_dir), plan["packages"], plan["bwrap"])
    sys.stdout.write(json.dumps(result))
    sys.stdout.flush()
    return 0


# -- the parent's side --------------------------------------------------------------------------
class Grader:
    """Grades submissions of one problem set; prepare once, then :meth:`grade` each notebook.

    The master and its autograder are read and validated here, before any submission runs, and
    the restricted package copy is generated once. Use as a context manager (removes its
    temporary directory on every path).
    """

    def __init__(
        self,
        master: Path,
        autograder: Path,
        cell_timeout: float = 30,
        question_timeout: float = 30,
        submission_timeout: float | None = None,
    ):
        from .sandbox import PACKAGE, bwrap, package_copy

        self.exe = bwrap()
        self.plan = make_plan(master, autograder)
        n = len(self.plan["questions"])
        self.limit = submission_timeout or (cell_timeout * 40 + question_timeout * (n + 2) + 60)
        self.points = {q["name"]: q["points"] for q in self.plan["questions"]}
        self.base = Path(tempfile.mkdtemp(prefix="lk-grading-"))
        try:
            packages = {"open": str(PACKAGE), "closed": None}
            if self.plan["forbidden"]:
                packages["closed"] = str(
                    package_copy(self.plan["forbidden"], self.base / "lecturekit")
                )
            self.plan.update(
                packages=packages,
                bwrap=self.exe,
                cell_timeout=cell_timeout,
                question_timeout=question_timeout,
                submission_timeout=self.limit,
            )
            self.plan_path = self.base / "plan.json"
            self.plan_path.write_text(json.dumps(self.plan))
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
        try:
            if submission.stat().st_size > 64 * 2**20:
                raise LectureKitError("larger than 64 MiB")
            proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "lecturekit.grading.run",
                    "_drive",
                    str(self.plan_path),
                    str(submission.resolve()),
                    str(job),
                ],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
                cwd=job,
            )
            try:
                out, err = proc.communicate(timeout=self.limit)
            except subprocess.TimeoutExpired:
                stop(proc)
                out, err = b"", b""
                notes.append(f"stopped after {self.limit:g}s")
            if proc.returncode not in (0, None) and not notes:
                last = err.decode(errors="replace").strip().splitlines()[-1:]
                notes.append(f"grader process failed: {last}")
            if out:
                data = json.loads(out[:RESULT_LIMIT])
        except (OSError, ValueError, LectureKitError) as exc:
            notes.append(f"could not grade: {exc}")
        finally:
            shutil.rmtree(job, ignore_errors=True)
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
