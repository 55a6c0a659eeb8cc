"""``lecturekit assign``: regenerate the student notebooks in exercises/ from solutions/."""

from __future__ import annotations

from pathlib import Path


def register(sub) -> None:
    p = sub.add_parser(
        "assign",
        help="make exercises/ (student notebooks) from solutions/ with otter assign",
        description="Run otter assign on every master notebook in SOLUTIONS and copy the student "
        "versions into EXERCISES; autograder material goes to BUILD (not committed).",
    )
    p.add_argument("--solutions", default="solutions", type=Path, metavar="SOLUTIONS")
    p.add_argument("--exercises", default="exercises", type=Path, metavar="EXERCISES")
    p.add_argument("--build", default="build/otter", type=Path, metavar="BUILD")
    p.add_argument("only", nargs="*", metavar="CHAPTER", help="only these (e.g. 04 or a path)")
    p.set_defaults(func=run)


def run(args) -> int:
    from ..grading import assign_all, assign_one, find_master

    if args.only:
        made = [
            assign_one(find_master(c, args.solutions), args.exercises, args.build)
            for c in args.only
        ]
    else:
        made = assign_all(args.solutions, args.exercises, args.build)
    for path in made:
        print(f"wrote {path}")
    return 0
