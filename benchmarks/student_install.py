"""Benchmark of the student side: what installing lecturekit brings, and a problem set's first cell.

1. Makes a fresh virtual environment and installs the course into it as a student's machine gets
   it (``pip install <course>``, pip's download cache allowed), then prints its size on disk and
   its package count, the largest packages, and which packages only otter-grader brings in
   (reachable from lecturekit's requirements only through otter-grader): what a student-only
   install without the instructor's tooling would leave out.
2. Starts a kernel of that environment in the course's ``exercises/`` folder, as JupyterLab does
   for a problem set, and times the problem set's first cell (``grader = Grader("NN_topic")``)
   from the moment the kernel is ready; median of several fresh kernels. Then lists the slowest
   imports that cell makes (``python -X importtime``).

Issue 28's targets: a light student install (count and size printed here) and the first cell
under 1 s after the kernel starts.

Usage::

    python benchmarks/student_install.py [--runs 5] [--set 04_list_scheduling] [--keep DIR]

``--keep DIR`` keeps (or reuses) the environment in DIR. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: run inside the new environment: every distribution's size and requirements, per extra
INVENTORY = r"""
import json, sys
from importlib import metadata
from packaging.requirements import Requirement
canon = lambda n: n.lower().replace("_", "-").replace(".", "-")
out = {}
for dist in metadata.distributions():
    size = 0
    for f in dist.files or []:
        try:
            size += f.locate().stat().st_size
        except OSError:
            pass
    extras = [""] + [canon(e) for e in dist.metadata.get_all("Provides-Extra") or []]
    needs = {e: [] for e in extras}
    for text in dist.requires or []:
        req = Requirement(text)
        for e in extras:
            if req.marker is None or req.marker.evaluate({"extra": e}):
                if e and req.marker is None:
                    continue  # an unconditional requirement belongs to "" only
                needs[e].append([canon(req.name), sorted(canon(x) for x in req.extras)])
    out[canon(dist.metadata["Name"])] = {"size": size, "requires": needs}
json.dump(out, sys.stdout)
"""

#: run inside the new environment: a kernel in exercises/, the first cell timed from ready
FIRST_CELL = r"""
import json, sys, time
from jupyter_client.manager import start_new_kernel
cwd, source = sys.argv[1], sys.argv[2]
t0 = time.perf_counter()
km, kc = start_new_kernel(kernel_name="python3", cwd=cwd)
ready = time.perf_counter()
reply = kc.execute_interactive(source, timeout=300)
done = time.perf_counter()
kc.stop_channels()
km.shutdown_kernel(now=True)
result = {"start": ready - t0, "cell": done - ready, "status": reply["content"]["status"]}
print("RESULT", json.dumps(result))
"""


def result_of(done: subprocess.CompletedProcess) -> dict:
    """The timings FIRST_CELL printed (the cell's own output may come before them)."""
    line = next(ln for ln in done.stdout.splitlines() if ln.startswith("RESULT "))
    return json.loads(line[len("RESULT ") :])


def run(cmd: list[str], **kw) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, check=True, **kw)


def make_env(where: Path) -> tuple[Path, float]:
    """A venv at ``where`` with the course installed (seconds the install took)."""
    python = where / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    if python.exists():
        return python, 0.0
    run([sys.executable, "-m", "venv", str(where)])
    # built from a copy of the sources, so that setuptools' build/ folder stays out of the course
    source = where.parent / "source"
    shutil.copytree(
        ROOT / "lecturekit", source / "lecturekit", ignore=shutil.ignore_patterns("__py*")
    )
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    t0 = time.perf_counter()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    run([str(python), "-m", "pip", "install", "-q", str(source)], env=env)
    return python, time.perf_counter() - t0


def folder_size(path: Path) -> int:
    total = 0
    for dirpath, _dirs, files in os.walk(path):
        for f in files:
            p = Path(dirpath) / f
            if not p.is_symlink():
                total += p.stat().st_size
    return total


def reachable(inventory: dict, roots: list, skip: str | None = None) -> set[str]:
    """Distributions reachable from ``roots`` ([name, extras] pairs) through requirements,
    extras included (``nbconvert[webpdf]`` brings what nbconvert's webpdf extra needs), never
    through ``skip``."""
    seen: set[tuple[str, str]] = set()
    todo = [(name, extra) for name, extras in roots for extra in ["", *extras]]
    while todo:
        name, extra = todo.pop()
        if name == skip or (name, extra) in seen or name not in inventory:
            continue
        seen.add((name, extra))
        for dep, extras in inventory[name]["requires"].get(extra, []):
            todo += [(dep, e) for e in ["", *extras]]
    return {name for name, _extra in seen}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="fresh kernels timed (default 5)")
    parser.add_argument("--set", default="04_list_scheduling", help="the problem set")
    parser.add_argument("--keep", type=Path, help="keep (or reuse) the environment here")
    args = parser.parse_args()
    where = (args.keep or Path(tempfile.mkdtemp(prefix="lk-student-")) / "venv").resolve()
    try:
        python, seconds = make_env(where)
        print(f"environment: {where} (install took {seconds:.0f} s; 0 = reused)")
        inventory = json.loads(run([str(python), "-c", INVENTORY]).stdout)
        mib = 2**20
        print(
            f"student install: {len(inventory)} packages, {folder_size(where) / mib:.0f} MiB "
            f"on disk ({sum(d['size'] for d in inventory.values()) / mib:.0f} MiB in packages)"
        )
        largest = sorted(inventory.items(), key=lambda kv: -kv[1]["size"])[:12]
        print("largest:", ", ".join(f"{n} {d['size'] / mib:.0f}" for n, d in largest), "(MiB)")
        roots = inventory["lecturekit"]["requires"][""]
        everything = reachable(inventory, roots)
        without = reachable(inventory, roots, skip="otter-grader")
        only_otter = sorted(everything - without)
        size = sum(inventory[n]["size"] for n in only_otter) / mib
        print(
            f"only through otter-grader: {len(only_otter)} packages, {size:.0f} MiB: "
            + ", ".join(only_otter)
        )

        from lecturekit.i18n import problems_name

        name = problems_name(args.set)  # exercises/04_list_scheduling_problems.ipynb
        nb = json.loads((ROOT / "exercises" / name).read_text(encoding="utf-8"))
        first = "".join(nb["cells"][0]["source"])
        cwd = str(ROOT / "exercises")
        times = []
        # as on a student's machine: compiled modules are cached
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        for _ in range(args.runs + 1):  # the first run warms the disk cache, not counted
            out = run([str(python), "-c", FIRST_CELL, cwd, first], cwd=cwd, env=env)
            times.append(result_of(out))
        assert all(t["status"] == "ok" for t in times), times
        times = times[1:]
        cells = [t["cell"] for t in times]
        starts = [t["start"] for t in times]
        print(
            f"first cell of {args.set} after the kernel is ready: "
            f"median {statistics.median(cells):.2f} s "
            f"(min {min(cells):.2f}, max {max(cells):.2f}, {args.runs} fresh kernels); "
            f"kernel start median {statistics.median(starts):.2f} s; target 1 s"
        )
        # what an otter-free Grader would do in that cell (the plan for issue 28): import the
        # checker and read the notebook's public tests; an estimate of the floor, not a Grader
        floor = (
            "import json, lecturekit.grading.check\n"
            f"nb = json.load(open({name!r}, encoding='utf-8'))\n"
            "tests = nb['metadata']['otter']['tests']"
        )
        lows = []
        for _ in range(args.runs):
            out = run([str(python), "-c", FIRST_CELL, cwd, floor], cwd=cwd, env=env)
            lows.append(result_of(out)["cell"])
        print(
            f"the same cell without importing otter (import the checker, read the tests; "
            f"an estimate): median {statistics.median(lows):.2f} s"
        )
        cell = where.parent / "first_cell.py"
        cell.write_text(first, encoding="utf-8")
        imports = run([str(python), "-X", "importtime", str(cell)], cwd=cwd, env=env).stderr
        rows = []
        for line in imports.splitlines():
            parts = (
                line[len("import time:") :].split("|") if line.startswith("import time:") else []
            )
            if len(parts) == 3 and parts[1].strip().isdigit():
                rows.append((int(parts[1]), parts[2].rstrip()))
        print("slowest imports of the first cell (cumulative ms, nesting shown by indent):")
        for micros, name in sorted(rows, reverse=True)[:15]:
            print(f"  {micros / 1000:8.0f} {name}")
    finally:
        if not args.keep:
            shutil.rmtree(where.parent, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
