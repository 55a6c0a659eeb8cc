"""``lecturekit assign``: regenerate the student notebooks in exercises/ from solutions/."""

from __future__ import annotations

from pathlib import Path

COURSE_HELP = (
    "the course folder (default: the nearest folder holding solutions/, from the working "
    "directory up)"
)


def chapter_number(text: str) -> str:
    """A chapter given by a one-digit number means the two-digit one the files start with
    (``4`` -> ``04``); anything else is kept as it is."""
    return f"0{text}" if len(text) == 1 and text.isdigit() else text


def add_course_arguments(p, exercises: bool) -> None:
    """``--course``, ``--solutions``, ``--build`` (and ``--exercises``): shared with grade."""
    p.add_argument("--course", type=Path, metavar="PATH", help=COURSE_HELP)
    p.add_argument(
        "--solutions",
        type=Path,
        metavar="SOLUTIONS",
        help="folder of master notebooks (default: COURSE/solutions)",
    )
    if exercises:
        p.add_argument(
            "--exercises",
            type=Path,
            metavar="EXERCISES",
            help="folder the student notebooks are written to (default: COURSE/exercises)",
        )
    p.add_argument(
        "--build",
        type=Path,
        metavar="BUILD",
        help="folder for otter's autograder material, not committed (default: COURSE/build/otter)",
    )


def course_paths(args) -> dict[str, Path]:
    """The course folder and every folder an option left at its default, resolved from it."""
    from ..grading import check_course, find_course

    course = check_course(args.course) if args.course else find_course()
    paths = {
        "course": course,
        "solutions": args.solutions or course / "solutions",
        "build": args.build or course / "build" / "otter",
    }
    if hasattr(args, "exercises"):
        paths["exercises"] = args.exercises or course / "exercises"
    return paths


def register(sub) -> None:
    p = sub.add_parser(
        "assign",
        help="make exercises/ (student notebooks) from solutions/ with otter assign",
        description="Run otter assign on every master notebook in SOLUTIONS (or only the "
        "chapters named) and write the student versions into EXERCISES; autograder material goes "
        "to BUILD (not committed). Works from any folder inside the course. Running it twice on "
        "unchanged solutions changes nothing.",
    )
    p.add_argument(
        "only",
        nargs="*",
        metavar="CHAPTER",
        type=chapter_number,
        help="only these problem sets: a number (04 or 4), a name (04_list_scheduling) or a path "
        "(default: all of them)",
    )
    add_course_arguments(p, exercises=True)
    p.set_defaults(func=run)


def run(args) -> int:
    from ..grading import assign_all, assign_one, find_master

    paths = course_paths(args)
    if args.only:
        made = [
            assign_one(find_master(c, paths["solutions"]), paths["exercises"], paths["build"])
            for c in args.only
        ]
    else:
        made = assign_all(paths["solutions"], paths["exercises"], paths["build"])
    for path in made:
        print(f"wrote {path}")
    return 0
