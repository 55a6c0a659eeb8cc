"""Grading you can trust (issue 14): every attack a hostile submission tried scores exactly what it
deserves, a correct submission graded beside it (``--jobs 2``) keeps full marks, and the
instructor's files are byte-identical afterwards.

The attack submissions are generated here from the committed exercise notebook (bounded: the
runaway cells meet short timeouts) and graded in one ``grade_folder`` run. That a submission
wrapping the library function which answers a code question scores 0 on it, for every code
question of every set, is checked in each set's one grading run (tests/test_grading.py).
"""

from __future__ import annotations

import csv
import hashlib
import shutil
from pathlib import Path

import nbformat
import pytest
from grading_support import exercise_with

from lecturekit.grading import autograder_notebook, grade_folder, questions
from lecturekit.grading.protocol import decode, encode
from lecturekit.grading.sandbox import package_copy

ROOT = Path(__file__).resolve().parents[1]
PS04 = ROOT / "solutions" / "04_list_scheduling.ipynb"


@pytest.fixture(scope="module")
def build(tmp_path_factory):
    return tmp_path_factory.mktemp("otter-build")


def fingerprint(*places: Path) -> dict[str, str]:
    files = [p for place in places for p in ([place] if place.is_file() else place.rglob("*"))]
    return {
        str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(files) if p.is_file()
    }


def points(master):
    return {q.name: q.points for q in questions(master) if not q.manual}


def grade(master, folder, build, tmp_path, **kw):
    out = tmp_path / "grades.csv"
    grades = grade_folder(
        str(master), [folder], out, solutions=ROOT / "solutions", build=build, **kw
    )
    rows = {Path(r["submission"]).name: r for r in csv.DictReader(out.open())}
    return {g.submission: g for g in grades}, rows


# -- the attacks of issue 14 on problem set 04 ------------------------------------------------
GOOD_Q1 = "q1_heights = [8, 5, 5, 2, 2, 2]"


def attacks(build: Path) -> dict[str, tuple[object, dict[str, float]]]:
    """name -> (notebook, deserved scores of the questions not listed: 0)."""
    solution_path = str(PS04)
    autograder = str(build / PS04.stem / "autograder" / PS04.name)
    wrong: dict[str, str] = {}  # the exercise's own `...`: deserves 0
    out = {}
    out["a_check_patched"] = (
        exercise_with(
            PS04,
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
        exercise_with(
            PS04,
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
        exercise_with(
            PS04,
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
        exercise_with(
            PS04,
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
        f"{PS04.name!r}]\n"
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
    out["e_reads_solutions"] = (exercise_with(PS04, {}, [("descendants", reader)]), {})
    out["f_forges_and_kills"] = (
        exercise_with(
            PS04,
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
        exercise_with(
            PS04,
            wrong,
            [
                (
                    "",
                    "import json, os, shutil\n"
                    f"for path in [{autograder!r}, {str(ROOT / 'exercises' / PS04.name)!r}]:\n"
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
        exercise_with(
            PS04,
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
        exercise_with(
            PS04,
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
        exercise_with(PS04, {}, [("descendants", wrappers)]),
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
    out["k_raises"] = (exercise_with(PS04, {}, [("", "raise RuntimeError('boom')")]), {})
    out["l_loops"] = (exercise_with(PS04, {}, [("", "while True:\n    pass")]), {})
    out["m_deletes"] = (exercise_with(PS04, {}, [("", deletes)]), {})
    return out


@pytest.mark.needs("bwrap")
def test_attacks_score_what_they_deserve_and_touch_nothing(build, tmp_path):
    autograder_notebook(str(PS04), ROOT / "solutions", build)  # made before the run
    folder = tmp_path / "submissions"
    folder.mkdir()
    shutil.copy(PS04, folder / "z_good.ipynb")
    cases = attacks(build)
    for name, (nb, _) in cases.items():
        nbformat.write(nb, str(folder / f"{name}.ipynb"))
    keep = tmp_path / "instructor_file.txt"  # beside the submissions' folder
    keep.write_text("do not delete")
    # the files the attacks go for (other problem sets may be edited by others while this runs)
    watched = [PS04, ROOT / "exercises" / PS04.name, build, keep]
    before = fingerprint(*watched)
    grades, rows = grade(PS04, folder, build, tmp_path, cell_timeout=5, question_timeout=10, jobs=2)
    assert fingerprint(*watched) == before, "the run changed an instructor file"
    full = points(PS04)
    assert grades["z_good.ipynb"].scores == pytest.approx(full), grades["z_good.ipynb"].notes
    assert float(rows["z_good.ipynb"]["total"]) == sum(full.values())
    for name, (_, deserved) in cases.items():
        g = grades[f"{name}.ipynb"]
        want = {q: float(deserved.get(q, 0)) for q in full}
        assert g.scores == pytest.approx(want), (name, g.notes)
        assert float(rows[f"{name}.ipynb"]["total"]) == pytest.approx(sum(want.values()))
    assert any("timed out" in n for n in grades["h_runaway_after_q1.ipynb"].notes)
    assert any("timed out" in n for n in grades["l_loops.ipynb"].notes)
    assert grades["k_raises.ipynb"].errors >= 1
    assert len(rows) == len(cases) + 1
    wraps = grades["j_wraps_the_library.ipynb"].notes
    assert any("q2 may not use lecturekit.core.bounds.heights" in n for n in wraps), wraps
    assert any("q5 may not use lecturekit.core.priorities._descendant_counts" in n for n in wraps)


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


def test_forbidden_functions_are_gone_from_the_package_copy(tmp_path):
    copy = package_copy(
        {"lecturekit.core.bounds.heights": "q2 may not use lecturekit.core.bounds.heights"},
        tmp_path / "lecturekit",
    )
    text = (copy / "core" / "bounds.py").read_text()
    assert "q2 may not use lecturekit.core.bounds.heights" in text
    assert not (copy / "core" / "__pycache__").exists()
    from lecturekit.errors import LectureKitError

    with pytest.raises(LectureKitError, match="not found"):
        package_copy({"lecturekit.nope.f": "x"}, tmp_path / "other")


@pytest.mark.needs("bwrap")
def test_a_course_under_tmp_is_visible_in_the_sandbox(tmp_path, monkeypatch):
    """The sandbox's private /tmp must not hide the package when the course itself lives under
    /tmp (a fresh clone there): binds go on top of the tmpfs."""
    import subprocess
    import sys

    from lecturekit.grading import sandbox

    exe = sandbox.bwrap()
    site = Path("/tmp") / f"lk-site-{tmp_path.name}"
    try:
        copy = package_copy({}, site / "copy" / "lecturekit")
        monkeypatch.setattr(sandbox, "PACKAGE", site / "lecturekit")
        scratch = tmp_path / "scratch"
        scratch.mkdir()
        code = (
            f"import sys; sys.path.insert(0, {str(site)!r}); import lecturekit.errors; print('ok')"
        )
        cmd = [*sandbox.command(exe, scratch, copy), sys.executable, "-I", "-c", code]
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
