"""Grading you can trust (issues 14 and 25): every attack a hostile submission tried scores exactly
what it deserves, a correct submission graded beside it (``--jobs 2``) keeps full marks, and the
instructor's files are byte-identical afterwards.

The attack submissions are generated here from the committed exercise notebook (bounded: the
runaway cells meet short timeouts) and graded in one ``grade_folder`` run. Issue 25's classes:
the library answering a code question (the function runs without it: here, and for every code
question of every set in tests/test_grading.py), mutated arguments (PS10 q5), what the folder
holds besides regular files (a symlink to the master, a FIFO, a link to /dev/zero), escapes in
what reaches the CSV, a value that cannot be decoded, and the per-submission limits
(processes, tmpfs writes, memory of all processes together, a full scratch beside solutions),
each proved on the sandbox itself and beside graded solutions. The limits need control groups:
where this machine has none the limit tests skip with the reason, except under ``CI=true``,
where they fail (README promises them on a machine like CI's).
"""

from __future__ import annotations

import csv
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from grading_support import demo_course, exercise_with

from lecturekit.grading import grade_folder, limits, questions, sandbox
from lecturekit.grading.protocol import decode, encode

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    """A course holding the demo problem set (tests/data/problem_set/99_demo.ipynb), assigned."""
    return demo_course(tmp_path_factory.mktemp("demo-course"))


@pytest.fixture(scope="module")
def build(demo):
    return demo["build"]


def fingerprint(*places: Path) -> dict[str, str]:
    files = [p for place in places for p in ([place] if place.is_file() else place.rglob("*"))]
    return {
        str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(files) if p.is_file()
    }


def points(master):
    return {q.name: q.points for q in questions(master) if not q.manual}


def grade(master, folder, build, tmp_path, **kw):
    out = tmp_path / "grades.csv"
    grades = grade_folder(str(master), [folder], out, solutions=master.parent, build=build, **kw)
    rows = {Path(r["submission"]).name: r for r in csv.DictReader(out.open(encoding="utf-8-sig"))}
    return {g.submission: g for g in grades}, rows


# -- the attacks of issue 14 on the demo problem set -------------------------------------------
GOOD_Q1 = "q1_heights = [8, 5, 5, 2, 2, 2]"


def attacks(demo: dict) -> dict[str, tuple[object, dict[str, float]]]:
    """name -> (notebook, deserved scores of the questions not listed: 0)."""
    master, build = demo["master"], demo["build"]
    solution_path = str(master)
    autograder = str(demo["autograder"])

    def ex(answers, extra):
        return exercise_with(master, answers, extra, demo["exercise"])

    wrong: dict[str, str] = {}  # the exercise's own `...`: deserves 0
    out = {}
    out["a_check_patched"] = (
        ex(
            wrong,
            [
                (
                    "",
                    "import otter\nR = type('R', (), {'score': 1e6, 'possible': 1})\n"
                    "otter.Notebook.check = lambda s, *a, **k: R()\n"
                    "import lecturekit.grading.check as lc\n"
                    "lc.Grader.check = lambda s, *a, **k: R()",
                )
            ],
        ),
        {},
    )
    out["b_printed_marker"] = (
        ex(
            wrong,
            [
                (
                    "",
                    "get_ipython().events.register('pre_run_cell', lambda *a: print("
                    '\'__LECTUREKIT_GRADE__{"score": 3.0, "possible": 1.0}\'))\n'
                    "import sys\nfor fd in range(3, 40):\n"
                    "    try:\n"
                    "        import os\n"
                    '        os.write(fd, b\'\\x00\\x00\\x00\\x14{"scores": {"q1": 9}}\')\n'
                    "    except OSError:\n"
                    "        pass",
                )
            ],
        ),
        {},
    )
    out["c_int_subclass"] = (
        ex(
            {
                "q1_heights": "class I(int):\n    __eq__ = lambda s, o: True\n"
                "    __hash__ = int.__hash__\n"
                "class L(list):\n    __eq__ = lambda s, o: True\n"
                "q1_heights = L([I(0)] * 6)",
                "q3_start": "q3_start = [I(k) for k in range(5)]",
                "q4_length": "q4_length = I(1)",
                "height": "def height(graph, i):\n    return I(0)",
                "descendants": "def descendants(graph, i):\n    return I(0)",
            },
            [],
        ),
        {},
    )
    out["d_shadowing"] = (
        ex(
            {
                "height": "def height(graph, i):\n    return None",
                "descendants": "def descendants(graph, i):\n    return None",
            },
            [
                (
                    "descendants",
                    "import types\n"
                    "heights = lambda graph, **k: [0] * len(graph.ops)\n"
                    "list_schedule = lambda *a, **k: types.SimpleNamespace("
                    "start=q3_start, length=q4_length)\n"
                    "lower_bound = lambda g: 0\n"
                    "PRIORITIES = {'descendants': types.SimpleNamespace("
                    "compute=lambda g: [0] * len(g.ops))}\n"
                    "import lecturekit.core.bounds as B, lecturekit.core.list_sched as LS\n"
                    "B.heights = heights; LS.list_schedule = list_schedule",
                )
            ],
        ),
        {},
    )
    reader = (
        "import glob, json, os\n"
        f"paths = [{solution_path!r}]\n"
        "for cmd in glob.glob('/proc/*/cmdline'):\n"
        "    try:\n"
        "        paths += open(cmd, 'rb').read().decode(errors='replace').split('\\0')\n"
        "    except OSError:\n"
        "        pass\n"
        "for root, dirs, files in os.walk('/'):\n"
        "    if root.startswith(('/proc', '/sys', '/usr', '/root', '/dev')):\n"
        "        dirs[:] = []\n"
        "    paths += [os.path.join(root, f) for f in files if f == "
        f"{master.name!r}]\n"
        "for p in paths:\n"
        "    try:\n"
        "        nb = json.load(open(p))\n"
        "    except Exception:\n"
        "        continue\n"
        "    for c in nb.get('cells', []):\n"
        "        if c['cell_type'] == 'code' and 'SOLUTION' in ''.join(c['source']):\n"
        "            try:\n"
        "                exec(''.join(c['source']), globals())\n"
        "            except Exception:\n"
        "                pass"
    )
    out["e_reads_solutions"] = (ex({}, [("descendants", reader)]), {})
    out["f_forges_and_kills"] = (
        ex(
            wrong,
            [
                (
                    "",
                    "import glob, json, os, signal\n"
                    "for cmd in glob.glob('/proc/*/cmdline'):\n"
                    "    for arg in open(cmd, 'rb').read().decode(errors='replace').split('\\0'):\n"
                    "        if arg.endswith('.json'):\n"
                    "            try:\n"
                    "                open(arg, 'w').write(json.dumps({'scores': {'q1': 99}}))\n"
                    "            except OSError:\n"
                    "                pass\n"
                    "for pid in [os.getppid(), 1]:\n"
                    "    try:\n"
                    "        os.kill(pid, signal.SIGKILL)\n"
                    "    except OSError:\n"
                    "        pass",
                )
            ],
        ),
        {},
    )
    out["g_tampers_with_files"] = (
        ex(
            wrong,
            [
                (
                    "",
                    "import json, os, shutil\n"
                    f"for path in [{autograder!r}, {str(demo['exercise'])!r}]:\n"
                    "    try:\n"
                    "        nb = json.load(open(path))\n"
                    "        for t in nb['metadata']['otter']['tests'].values():\n"
                    "            for c in t['suites'][0]['cases']:\n"
                    "                c['code'] = '>>> assert True\\n'\n"
                    "        json.dump(nb, open(path, 'w'))\n"
                    "    except Exception:\n"
                    "        pass\n"
                    f"for path in [{solution_path!r}, {str(build)!r}]:\n"
                    "    try:\n"
                    "        os.remove(path)\n"
                    "    except Exception:\n"
                    "        shutil.rmtree(path, ignore_errors=True)\n"
                    "import glob, tempfile\n"
                    "tmp = tempfile.gettempdir()\n"
                    "for d in glob.glob('/tmp/lk-*') + glob.glob(tmp + '/lk-*'):\n"
                    "    shutil.rmtree(d, ignore_errors=True)",
                )
            ],
        ),
        {},
    )
    out["h_runaway_after_q1"] = (
        ex(
            {"q1_heights": GOOD_Q1},
            [
                (
                    "q1_heights",
                    "import signal\nfor s in (signal.SIGINT, signal.SIGALRM, signal.SIGTERM):\n"
                    "    signal.signal(s, signal.SIG_IGN)\nwhile True:\n    pass",
                )
            ],
        ),
        {"q1": 2},
    )
    out["i_deletes_its_dirs"] = (
        ex(
            {"q1_heights": GOOD_Q1},
            [
                (
                    "q1_heights",
                    "import os, shutil\nhere = os.getcwd()\n"
                    "shutil.rmtree(here, ignore_errors=True)\n"
                    "shutil.rmtree(os.path.dirname(here), ignore_errors=True)",
                )
            ],
        ),
        {"q1": 2},
    )
    wrappers = (
        "import gc, importlib, importlib.util, lecturekit\n"
        "from lecturekit.core.bounds import heights as _h\n"
        "def _fresh(name):\n"
        "    path = lecturekit.__path__[0] + '/core/bounds.py'\n"
        "    spec = importlib.util.spec_from_file_location('lecturekit.core._b', path)\n"
        "    mod = importlib.util.module_from_spec(spec)\n"
        "    spec.loader.exec_module(mod)\n"
        "    return getattr(mod, name)\n"
        "def height(graph, i, _keep=heights):\n"
        "    found = [o for o in gc.get_objects() if getattr(o, '__name__', '') == 'heights']\n"
        "    fresh = importlib.import_module('lecturekit.core.bounds').heights\n"
        "    for f in (_keep, _h, fresh, *found):\n"
        "        try:\n"
        "            return f(graph)[i]\n"
        "        except Exception:\n"
        "            pass\n"
        "    return _fresh('heights')(graph)[i]\n"
        "def descendants(graph, i):\n"
        "    return PRIORITIES['descendants'].compute(graph)[i]"
    )
    out["j_wraps_the_library"] = (
        ex({}, [("descendants", wrappers)]),
        {},
    )
    # plain misbehaviour, each breaking only itself: a cell that raises, one that never ends,
    # one that deletes every file it can reach from its directory
    deletes = (
        "import os, shutil\n"
        "for name in os.listdir('..'):\n"
        "    shutil.rmtree(os.path.join('..', name), ignore_errors=True)\n"
        "for name in os.listdir('.'):\n"
        "    os.remove(name)"
    )
    out["k_raises"] = (ex({}, [("", "raise RuntimeError('boom')")]), {})
    out["l_loops"] = (ex({}, [("", "while True:\n    pass")]), {})
    out["m_deletes"] = (ex({}, [("", deletes)]), {})
    out["q_escapes\x1b[2K"] = (
        ex(
            {"q1_heights": "q1_heights = type('\\x1b]52;c;ZXZpbA==\\x07\\x1b[1A14/14', (), {})()"},
            [],
        ),
        {},
    )
    # the worker is the student's process: patching its encoder forges Fraction(1, 0)
    forge = (
        "import gc\n"
        "for _g in gc.get_objects():\n"
        "    if isinstance(_g, dict) and 'worker_main' in _g and 'encode' in _g:\n"
        "        _real = _g['encode']\n"
        "        _g['encode'] = lambda v, *a, _r=_real: (\n"
        "            ['frac', '1', '0'] if v == 'forged' else _r(v, *a)\n"
        "        )"
    )
    out["r_forged_value"] = (
        ex({"q1_heights": GOOD_Q1, "q4_length": "q4_length = 'forged'"}, [("", forge)]),
        {"q1": 2},
    )
    return out


@pytest.mark.needs("bwrap")
def test_attacks_score_what_they_deserve_and_touch_nothing(demo, build, tmp_path):
    master = demo["master"]
    folder = tmp_path / "submissions"
    folder.mkdir()
    shutil.copy(master, folder / "z_good.ipynb")
    cases = attacks(demo)
    for name, (nb, _) in cases.items():
        nbformat.write(nb, str(folder / f"{name}.ipynb"))
    (folder / "n_symlink.ipynb").symlink_to(master)  # what unzip makes of `zip --symlinks`
    os.mkfifo(folder / "o_fifo.ipynb")
    (folder / "p_zero.ipynb").symlink_to("/dev/zero")
    keep = tmp_path / "instructor_file.txt"  # beside the submissions' folder
    keep.write_text("do not delete")
    # the files the attacks go for (other problem sets may be edited by others while this runs)
    watched = [master, demo["exercise"], build, keep]
    before = fingerprint(*watched)
    grades, rows = grade(
        master, folder, build, tmp_path, cell_timeout=5, question_timeout=10, jobs=2
    )
    assert fingerprint(*watched) == before, "the run changed an instructor file"
    full = points(master)
    assert grades["z_good.ipynb"].scores == pytest.approx(full), grades["z_good.ipynb"].notes
    assert float(rows["z_good.ipynb"]["total"]) == sum(full.values())
    for name, (_, deserved) in cases.items():
        shown = name.replace("\x1b", "\\x1b")
        g = grades[f"{shown}.ipynb"]
        want = {q: float(deserved.get(q, 0)) for q in full}
        assert g.scores == pytest.approx(want), (name, g.notes)
        row = next(r for n, r in rows.items() if n == f"{shown}.ipynb")
        assert float(row["total"]) == pytest.approx(sum(want.values()))
    assert any("timed out" in n for n in grades["h_runaway_after_q1.ipynb"].notes)
    assert any("timed out" in n for n in grades["l_loops.ipynb"].notes)
    assert grades["k_raises.ipynb"].errors >= 1
    assert len(rows) == len(cases) + 4
    wraps = grades["j_wraps_the_library.ipynb"].notes
    assert any(n.startswith("q2: height uses lecturekit") for n in wraps), wraps
    assert any(n.startswith("q5: descendants uses PRIORITIES (a dict") for n in wraps), wraps
    # issue 25: what the folder holds besides regular files gets a row and a note
    for name, kind in (
        ("n_symlink", "a symbolic link"),
        ("o_fifo", "a FIFO"),
        ("p_zero", "a symbolic link"),
    ):
        g = grades[f"{name}.ipynb"]
        assert g.total == 0 and g.notes == [f"not a regular file ({kind}): not graded"], g.notes
    # escapes: the file name and the notes reach the CSV and the terminal escaped
    escaped = next(g for n, g in grades.items() if n.startswith("q_escapes"))
    assert "\\x1b" in escaped.submission and "\x1b" not in escaped.submission
    assert any("\\x1b]52;c;" in n for n in escaped.notes), escaped.notes
    text = (tmp_path / "grades.csv").read_text(encoding="utf-8-sig")
    assert not any(ord(c) < 32 and c not in "\r\n" or 0x7F <= ord(c) <= 0x9F for c in text)
    # a value that cannot be decoded costs that answer only
    forged = grades["r_forged_value.ipynb"]
    assert any(n.startswith("q4_length: not plain data") for n in forged.notes), forged.notes


# -- the pieces ------------------------------------------------------------------------------------
def test_plain_data_keeps_exact_types_and_refuses_subclasses():
    from fractions import Fraction

    import numpy as np

    from lecturekit.grading.protocol import Unencodable

    value = {"a": [1, 2.5, (3, "x")], 4: {5, 6}, "f": Fraction(1, 3), "n": None, "e": ...}
    assert decode(encode(value)) == value
    arr = np.arange(6, dtype=np.int32).reshape(2, 3)
    back = decode(encode([arr, np.float64(1.5)]))
    assert back[0].dtype == np.int32 and (back[0] == arr).all() and type(back[1]) is np.float64

    class Liar(int):
        def __eq__(self, other):
            return True

        __hash__ = int.__hash__

    for bad in (Liar(1), [Liar(1)], type("L", (list,), {})(), object(), lambda: 1):
        with pytest.raises(Unencodable):
            encode(bad)
    for malformed in ([], ["int"], ["list", "x"], ["ndarray", "O", [1], ["list", []]], "x"):
        with pytest.raises((ValueError, TypeError)):
            decode(malformed)


def test_plain_data_that_cannot_be_decoded_is_a_value_error_only():
    """A forged value costs one answer (the driver catches ValueError), never the row."""
    for forged in (
        ["frac", "1", "0"],
        ["dict", [[["list", []], ["int", "1"]]]],
        ["ndarray", "q", [1], ["list", []]],
    ):
        with pytest.raises(ValueError):
            decode(forged)


@pytest.mark.needs("bwrap")
def test_a_course_under_tmp_is_visible_in_the_sandbox(tmp_path, monkeypatch):
    """The sandbox's private /tmp must not hide the package when the course itself lives under
    /tmp (a fresh clone there): binds go on top of the tmpfs."""
    exe = sandbox.bwrap()
    site = Path("/tmp") / f"lk-site-{tmp_path.name}"
    try:
        copy = site / "copy" / "lecturekit"
        shutil.copytree(sandbox.PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
        monkeypatch.setattr(sandbox, "PACKAGE", site / "lecturekit")
        code = (
            f"import sys; sys.path.insert(0, {str(site)!r}); import lecturekit.errors; print('ok')"
        )
        cmd = [*sandbox.command(exe, copy), sys.executable, "-I", "-c", code]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
    finally:
        shutil.rmtree(site, ignore_errors=True)


def test_missing_bubblewrap_is_a_clear_error(monkeypatch):
    from lecturekit.errors import LectureKitError
    from lecturekit.grading import sandbox

    monkeypatch.setattr(sandbox.shutil, "which", lambda name: None)
    with pytest.raises(LectureKitError, match="apt-get install bubblewrap"):
        sandbox.bwrap()


def test_grading_elsewhere_than_linux_is_a_clear_error(monkeypatch):
    """On Windows or macOS ``lecturekit grade`` says that grading needs Linux (the sandbox
    module imports there: ``resource`` only when a sandbox is made)."""
    import platform

    from lecturekit.errors import LectureKitError
    from lecturekit.grading import sandbox

    monkeypatch.setattr(sandbox.sys, "platform", "win32")
    monkeypatch.setattr(platform, "system", lambda: "Windows")
    with pytest.raises(LectureKitError, match="needs Linux, not Windows"):
        sandbox.bwrap()


def test_stop_kills_the_whole_process_group_even_if_it_ignores_sigterm():
    import subprocess
    import sys
    import time

    from lecturekit.grading.sandbox import stop

    code = (
        "import os, signal, subprocess, sys, time\n"
        "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
        "child = subprocess.Popen([sys.executable, '-c', "
        "'import signal, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(60)'])\n"
        "print(child.pid, flush=True)\n"
        "time.sleep(60)"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, start_new_session=True, text=True
    )
    child = int(proc.stdout.readline())
    began = time.monotonic()
    stop(proc, grace=0.5)
    assert proc.returncode is not None and time.monotonic() - began < 10

    def alive(pid: int) -> bool:  # a zombie (killed, not reaped yet) counts as dead
        try:
            status = open(f"/proc/{pid}/status").read()
        except OSError:
            return False
        return "\nState:\tZ" not in status

    for _ in range(100):  # the grandchild is gone too
        if not alive(child):
            break
        time.sleep(0.05)
    else:
        raise AssertionError("the child survived")


# -- issue 25: the library-free functions' sandbox ---------------------------------------------
def test_the_call_sandbox_has_the_standard_library_only():
    """No lecturekit, networkx, numpy or IPython, and the site-packages folders are empty even
    to a function that puts them back on ``sys.path``; numpy only where allowed."""
    exe = sandbox.bwrap()
    code = (
        "import sys\n"
        f"sys.path += {sandbox.site_folders()!r}\n"
        "got = []\n"
        "for name in ('lecturekit', 'networkx', 'numpy', 'IPython', 'otter'):\n"
        "    try:\n"
        "        __import__(name)\n"
        "        got.append(name)\n"
        "    except ImportError:\n"
        "        pass\n"
        "print(got)"
    )
    for packages, allowed in (([], "[]"), (["numpy"], "['numpy']")):
        cmd = [*sandbox.call_sandbox(exe, packages), sandbox.base_python(), "-I", "-S", "-c"]
        site = f"import sys\nsys.path.append({sandbox.SITE_DIR!r})\n" if packages else ""
        done = subprocess.run([*cmd, site + code], capture_output=True, text=True, timeout=60)
        assert done.stdout.strip() == allowed, done.stderr


def mutating_submission(demo: dict):
    """The attack of PS10 q5 on the demo's q5: empty the graph in place, return 0."""
    return exercise_with(
        demo["master"],
        {
            "descendants": "def descendants(graph, i):\n"
            "    for edges in graph['succs']:\n"
            "        edges.clear()\n"
            "    return 0"
        },
        [],
        demo["exercise"],
    )


def test_mutated_arguments_never_reach_the_expected_value(demo, build, tmp_path):
    """Every call gets fresh copies: emptying the graph it is given and returning 0 scores 0 on
    the demo's q5, whose hidden test computes the expected value from the same plain data after
    the calls (PS10 q5 scored full marks this way when mutated arguments were copied back)."""
    master = demo["master"]
    folder = tmp_path / "submissions"
    folder.mkdir()
    shutil.copy(master, folder / "good.ipynb")
    nbformat.write(mutating_submission(demo), str(folder / "zeroes.ipynb"))
    grades, _ = grade(master, folder, build, tmp_path, cell_timeout=10, question_timeout=20)
    assert grades["good.ipynb"].scores == pytest.approx(points(master)), grades["good.ipynb"].notes
    assert grades["zeroes.ipynb"].scores["q5"] == 0


def test_a_test_about_mutation_sees_the_functions_own_copies(check_calls, tmp_path):
    """``inputs_after_call`` hands a test the callee's copies after the call; the caller's
    objects stay as they were (on POSIX's way and on the portable way Windows takes)."""
    from lecturekit.grading import inputs_after_call, local_callee
    from lecturekit.grading.calls import Functions, Remote
    from lecturekit.grading.portable import recipe

    ns = {"__name__": "__main__"}
    exec("def clear(xs):\n    xs.clear()\n    return len(xs)", ns)
    functions = Functions(
        lambda: local_callee.start(local_callee.command([]), tmp_path),
        {"clear": recipe(ns, "clear")},
        10,
        portable=check_calls == "portable",
    )
    try:
        functions.start_question("q")
        mine = [1, 2, 3]
        value, (after,) = inputs_after_call(Remote(functions, "clear"), mine)
        assert (value, after, mine) == (0, [], [1, 2, 3])
    finally:
        functions.drop()


# -- issue 25: limits per submission ------------------------------------------------------------
def need_groups():
    if limits.mechanism() is None:
        reason = "no control groups here (not root, no delegated cgroup v2 subtree)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must prove the per-submission limits the README promises: {reason}")
        pytest.skip(reason)


def sandboxed(code: str, tmp_path: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    """``code`` in a cells' sandbox inside a fresh job group, as a submission's cell runs."""
    need_groups()
    exe = sandbox.bwrap()
    group = limits.mechanism().new_job(f"lecturekit-test-{os.getpid()}-{tmp_path.name}")
    try:
        return subprocess.run(
            [*sandbox.command(exe, sandbox.PACKAGE), sys.executable, "-c", code],
            capture_output=True,
            text=True,
            timeout=timeout,
            preexec_fn=sandbox.limiter(120, group),
            start_new_session=True,
        )
    finally:
        group.close()


def test_300_processes_are_refused_past_the_limit(tmp_path):
    code = (
        "import os, time\n"
        "made = 0\n"
        "for _ in range(300):\n"
        "    try:\n"
        "        pid = os.fork()\n"
        "    except OSError:\n"
        "        break\n"
        "    if pid == 0:\n"
        "        time.sleep(20)\n"
        "        os._exit(0)\n"
        "    made += 1\n"
        "print(made, flush=True)\n"
        "os._exit(0)"
    )
    done = sandboxed(code, tmp_path)
    made = int(done.stdout.split()[0])
    assert 5 <= made < limits.PROCESSES, done.stdout


def test_1_gib_of_tmpfs_writes_stops_at_the_caps(tmp_path):
    """/tmp, /dev/shm and the scratch directory are capped; / and /dev are read-only."""
    code = (
        "import os\n"
        "block = b'x' * (1 << 20)\n"
        "for place in ('/tmp', '/dev/shm', '/sub', '/', '/dev'):\n"
        "    written = 0\n"
        "    try:\n"
        "        with open(os.path.join(place, 'fill'), 'wb') as fh:\n"
        "            while written < 1024:\n"
        "                fh.write(block)\n"
        "                fh.flush()\n"
        "                written += 1\n"
        "    except OSError:\n"
        "        pass\n"
        "    print(place, written, flush=True)"
    )
    done = sandboxed(code, tmp_path)
    written = dict(line.split() for line in done.stdout.splitlines())
    assert int(written["/tmp"]) <= limits.TMP_BYTES >> 20, done.stdout
    assert int(written["/dev/shm"]) <= limits.SHM_BYTES >> 20, done.stdout
    assert int(written["/sub"]) <= limits.SCRATCH_BYTES >> 20, done.stdout
    assert written["/"] == written["/dev"] == "0", done.stdout


def test_memory_counts_all_processes_together(tmp_path):
    """Three children of 600 MiB each (1.8 GiB, each one under the per-process cap) cannot all
    live in one submission's 1 GiB."""
    code = (
        "import os, time\n"
        "kids = []\n"
        "for _ in range(3):\n"
        "    pid = os.fork()\n"
        "    if pid == 0:\n"
        "        block = bytearray(600 << 20)\n"
        "        for k in range(0, len(block), 4096):\n"
        "            block[k] = 1\n"
        "        time.sleep(3)\n"
        "        os._exit(0)\n"
        "    kids.append(pid)\n"
        "alive = sum(os.waitpid(pid, 0)[1] == 0 for pid in kids)\n"
        "print(alive, flush=True)"
    )
    done = sandboxed(code, tmp_path)
    assert done.stdout.strip() in ("0", "1"), (done.stdout, done.returncode)


def test_a_full_scratch_and_a_fork_bomb_beside_solutions_take_nothing_from_them(
    demo, build, tmp_path
):
    """Submissions that fill every writable place and then sleep, hold their processes or fill
    memory, graded with --jobs 2 between copies of the solution: the solutions keep full marks."""
    need_groups()
    master = demo["master"]
    folder = tmp_path / "submissions"
    folder.mkdir()
    fill = (
        "import os, time\n"
        "for place in ('/sub', '/tmp', '/dev/shm'):\n"
        "    try:\n"
        "        with open(os.path.join(place, 'fill'), 'wb') as fh:\n"
        "            while True:\n"
        "                fh.write(b'x' * (1 << 20))\n"
        "    except OSError:\n"
        "        pass\n"
        "time.sleep(4)"
    )
    bomb = (
        "import os, time\n"
        "for _ in range(300):\n"
        "    try:\n"
        "        if os.fork() == 0:\n"
        "            time.sleep(30)\n"
        "    except OSError:\n"
        "        break\n"
        "time.sleep(4)"
    )
    hog = "blocks = []\nwhile True:\n    blocks.append(bytearray(64 << 20))"
    attackers = {"a_fill": fill, "c_bomb": bomb, "e_hog": hog}
    for name, source in attackers.items():
        submission = exercise_with(master, {}, [("", source)], demo["exercise"])
        nbformat.write(submission, str(folder / f"{name}.ipynb"))
    for name in ("b_good", "d_good", "f_good"):
        shutil.copy(master, folder / f"{name}.ipynb")
    grades, _ = grade(master, folder, build, tmp_path, cell_timeout=8, question_timeout=20, jobs=2)
    for name in ("b_good", "d_good", "f_good"):
        g = grades[f"{name}.ipynb"]
        assert g.scores == pytest.approx(points(master)) and g.errors == 0, (name, g.notes)
    for name in attackers:
        assert grades[f"{name}.ipynb"].total == 0


def test_an_unenforceable_limit_refuses_unless_unsafe(demo, monkeypatch):
    from lecturekit.errors import LectureKitError
    from lecturekit.grading.run import Grader

    master, autograder = demo["master"], demo["autograder"]
    monkeypatch.setattr(limits, "unenforced", lambda exe: ["memory of all processes together"])
    with pytest.raises(LectureKitError, match="--unsafe"):
        Grader(master, autograder)
    with Grader(master, autograder, unsafe=True) as grader:
        assert grader.unenforced == ["memory of all processes together"]
