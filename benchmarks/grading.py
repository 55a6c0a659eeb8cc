"""Grading throughput: seconds per submission and submissions per minute per core.

Builds a folder of 40 submissions of one problem set (default 04, the set whose code questions
make the most calls): a third the solution (the master notebook), a third the untouched exercise,
a third partial (the exercise with every other answer cell taken from the solution), and grades
it with ``grade_folder`` (``--jobs 1``: one submission at a time, so the wall time is one core's),
``--runs`` times. Prints, per run and as the median over runs, the seconds per submission and
the submissions per minute per core. Issue 25's target: at or below about 2 s per submission per
core (what grading took before code questions moved to plain data and per-submission limits).

Usage::

    python benchmarks/grading.py [--set 04] [--submissions 40] [--runs 3] [--jobs 1]

Prints figures; asserts nothing (timings do not belong in tests). Needs bubblewrap.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import nbformat

from lecturekit.grading import autograder_notebook, find_master, grade_folder
from lecturekit.i18n import problems_name

ROOT = Path(__file__).resolve().parents[1]


def partial(master: Path, exercise: Path):
    """The exercise with every other cell that differs from the master's taken from the master
    (cells keep the master's ids through ``lecturekit assign``)."""
    solved = {c.get("id"): c.source for c in nbformat.read(str(master), as_version=4).cells}
    nb = nbformat.read(str(exercise), as_version=4)
    differing = [
        c for c in nb.cells if c.cell_type == "code" and c.get("id") in solved and "..." in c.source
    ]
    for cell in differing[::2]:
        cell.source = solved[cell["id"]]
    return nb


def make_folder(master: Path, folder: Path, count: int) -> dict[str, int]:
    exercise = ROOT / "exercises" / problems_name(master.stem)
    kinds = {"solution": 0, "empty": 0, "partial": 0}
    half = partial(master, exercise)
    for k in range(count):
        kind = ("solution", "empty", "partial")[k % 3]
        target = folder / f"{k:02d}_{kind}.ipynb"
        if kind == "solution":
            shutil.copy(master, target)
        elif kind == "empty":
            shutil.copy(exercise, target)
        else:
            nbformat.write(half, str(target))
        kinds[kind] += 1
    return kinds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", default="04", help="problem set (default 04)")
    parser.add_argument("--submissions", type=int, default=40)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    solutions = ROOT / "solutions"
    master = find_master(args.set, solutions)
    with tempfile.TemporaryDirectory(prefix="lk-bench-grading-") as tmp:
        base = Path(tmp)
        build = base / "build"
        autograder_notebook(str(master), solutions, build)  # otter assign: not timed
        folder = base / "submissions"
        folder.mkdir()
        kinds = make_folder(master, folder, args.submissions)
        print(
            f"problem set {master.stem}: {args.submissions} submissions "
            f"({', '.join(f'{n} {k}' for k, n in kinds.items())}), --jobs {args.jobs}"
        )
        per: list[float] = []
        for run in range(args.runs):
            began = time.perf_counter()
            grades = grade_folder(
                str(master),
                [folder],
                base / f"grades-{run}.csv",
                solutions=solutions,
                build=build,
                jobs=args.jobs,
            )
            wall = time.perf_counter() - began
            core_seconds = wall * args.jobs / len(grades)
            per.append(core_seconds)
            totals = sorted({g.total for g in grades})
            print(
                f"run {run + 1}: {wall:.1f} s wall, {core_seconds:.2f} s/submission/core, "
                f"{60 / core_seconds:.1f} submissions/minute/core (totals seen: {totals})"
            )
        med = statistics.median(per)
        print(
            f"median over {len(per)} runs: {med:.2f} s per submission per core, "
            f"{60 / med:.1f} submissions per minute per core"
        )


if __name__ == "__main__":
    main()
