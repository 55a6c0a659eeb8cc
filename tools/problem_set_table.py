"""The table of problem sets in CONTRIBUTING.md: per set, points by kind and the no-effort score.

    python tools/problem_set_table.py                 # points from the masters; no-effort kept
    python tools/problem_set_table.py --measure 04 05 # and grade those sets' no-effort submissions
    python tools/problem_set_table.py --measure       # ... of every set (a few minutes)
    python tools/problem_set_table.py --check         # exit 1 if the file is not what it makes

A question's kind is its config's ``kind:``, else ``manual`` for a manual question, ``code`` when
its solution defines a function, else ``value`` (:func:`lecturekit.grading.assign.questions`).
The mix rule of issue 26: at least 70% of a set's auto-graded points in code questions and at
most 20% in value questions (``tests/test_problem_set_table.py``, one test per set).

The no-effort score is measured: the best total of the no-effort submissions
(:mod:`lecturekit.grading.noeffort`) graded against the set's public and hidden tests. Measuring
needs a grading run, so the plain run keeps the scores already in the table;
``tests/test_grading.py`` grades the same submissions in each set's one run and fails when the
table's score is not the one it measures.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FILE = ROOT / "CONTRIBUTING.md"
BEGIN = "<!-- problem-set-table: begin (written by tools/problem_set_table.py) -->"
END = "<!-- problem-set-table: end -->"
HEADER = (
    "| set | questions | code | value | manual | auto-graded | code share | value share "
    "| no-effort score |"
)
#: the mix rule of issue 26, as shares of a set's auto-graded points
MIN_CODE, MAX_VALUE = 0.70, 0.20
NOT_MEASURED = "not measured"


def masters() -> list[Path]:
    return sorted((ROOT / "solutions").glob("[0-9][0-9]_*.ipynb"))


def points_by_kind(master: Path) -> dict[str, float]:
    from lecturekit.grading import questions

    found = {"code": 0.0, "value": 0.0, "manual": 0.0, "questions": 0}
    for q in questions(master):
        found[q.kind] += q.points
        found["questions"] += 1
    return found


def share(part: float, whole: float) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "-"


def row(master: Path, no_effort: str) -> str:
    p = points_by_kind(master)
    auto = p["code"] + p["value"]
    cells = [
        master.stem.replace("_", " ", 1).replace("_", " "),
        f"{p['questions']:g}",
        f"{p['code']:g}",
        f"{p['value']:g}",
        f"{p['manual']:g}",
        f"{auto:g}",
        share(p["code"], auto),
        share(p["value"], auto),
        no_effort,
    ]
    return "| " + " | ".join(cells) + " |"


def table_in(text: str) -> str | None:
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        return None
    return text[start + len(BEGIN) : end].strip("\n")


def no_effort_scores(text: str) -> dict[str, str]:
    """The no-effort column of the table in ``text``, by set number (``"04"``)."""
    found = {}
    for line in (table_in(text) or "").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 9 and re.match(r"\d\d ", cells[0]):
            found[cells[0][:2]] = cells[-1]
    return found


def score_text(best: float, possible: float) -> str:
    return f"{best:g}" if best == 0 else f"{best:g} of {possible:g}"


def measure(master: Path, unsafe: bool = False) -> str:
    """Grade the set's no-effort submissions; the best total as the table shows it."""
    import nbformat

    from lecturekit.grading import autograder_notebook, grade_folder, noeffort, questions
    from lecturekit.i18n import problems_name

    exercise = ROOT / "exercises" / problems_name(master.stem)
    possible = sum(q.points for q in questions(master) if not q.manual)
    with tempfile.TemporaryDirectory(prefix="lk-no-effort-") as tmp:
        folder = Path(tmp)
        build = folder / "build"
        autograder = autograder_notebook(str(master), ROOT / "solutions", build)
        (folder / "in").mkdir()
        for k, nb in enumerate(noeffort.submissions(master, autograder, exercise)):
            nbformat.write(nb, str(folder / "in" / f"no-effort-{k}.ipynb"))
        grades = grade_folder(
            str(master),
            [folder / "in"],
            folder / "grades.csv",
            solutions=ROOT / "solutions",
            build=build,
            jobs=2,
            unsafe=unsafe,
        )
    return score_text(max(g.total for g in grades), possible)


def make(text: str, measured: dict[str, str]) -> str:
    """The table for the masters today: points from the masters, the no-effort score from
    ``measured`` or else the one already in ``text``."""
    kept = no_effort_scores(text)
    lines = [HEADER, "|" + " --- |" * 9]
    for master in masters():
        number = master.stem[:2]
        lines.append(row(master, measured.get(number) or kept.get(number) or NOT_MEASURED))
    return "\n".join(lines)


def written(text: str, table: str) -> str:
    if table_in(text) is None:
        raise SystemExit(f"{FILE.name} has no {BEGIN} ... {END} markers")
    start, end = text.find(BEGIN) + len(BEGIN), text.find(END)
    return text[:start] + "\n" + table + "\n" + text[end:]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--measure", nargs="*", metavar="NN", help="sets to grade (none: all)")
    parser.add_argument("--check", action="store_true", help="exit 1 if the table is stale")
    parser.add_argument("--unsafe", action="store_true", help="grade without the limits")
    args = parser.parse_args(argv)
    text = FILE.read_text(encoding="utf-8")
    measured = {}
    if args.measure is not None:
        wanted = {n.zfill(2) for n in args.measure}
        for master in masters():
            if not wanted or master.stem[:2] in wanted:
                measured[master.stem[:2]] = measure(master, args.unsafe)
                print(f"{master.stem}: no-effort score {measured[master.stem[:2]]}")
    new = written(text, make(text, measured))
    if args.check:
        if new != text:
            print(
                f"{FILE.name}: the table of problem sets is stale: run tools/problem_set_table.py"
            )
            return 1
        return 0
    if new != text:
        FILE.write_text(new, encoding="utf-8")
        print(f"wrote the table of problem sets into {FILE.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
