"""``lecturekit grade CHAPTER SUBMISSIONS...``: grade a folder of notebooks into a CSV."""

from __future__ import annotations

from pathlib import Path


def register(sub) -> None:
    p = sub.add_parser(
        "grade",
        help="grade submitted notebooks of one chapter into a CSV (no server, no Docker)",
        description="Grade every submitted notebook against the public and hidden tests of a "
        "chapter's problem set; one CSV row per submission, one column per question.",
    )
    p.add_argument(
        "chapter", metavar="CHAPTER", help="problem set: 04, 04_list_scheduling or a path"
    )
    p.add_argument(
        "submissions",
        nargs="+",
        type=Path,
        metavar="SUBMISSION",
        help="notebooks or folders of notebooks",
    )
    p.add_argument("--output", "-o", type=Path, default=Path("grades.csv"), help="CSV to write")
    p.add_argument("--solutions", default="solutions", type=Path)
    p.add_argument("--build", default="build/otter", type=Path)
    p.add_argument("--cell-timeout", type=float, default=30, help="seconds per cell (default 30)")
    p.add_argument(
        "--question-timeout",
        type=float,
        default=30,
        help="seconds to check one question (default 30)",
    )
    p.add_argument("--jobs", "-j", type=int, default=1, help="submissions graded at once")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..grading import grade_folder

    grades = grade_folder(
        args.chapter,
        args.submissions,
        args.output,
        solutions=args.solutions,
        build=args.build,
        cell_timeout=args.cell_timeout,
        question_timeout=args.question_timeout,
        jobs=args.jobs,
    )
    for g in grades:
        note = f"  ({'; '.join(g.notes)})" if g.notes else ""
        print(f"{g.submission}: {g.total:g}{note}")
    print(f"wrote {args.output} ({len(grades)} submissions)")
    return 0
