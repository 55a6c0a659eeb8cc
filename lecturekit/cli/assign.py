"""``lecturekit assign``: regenerate the student notebooks in exercises/ from solutions/."""

from __future__ import annotations

from pathlib import Path

from ..language import N_, _

COURSE_HELP = N_(
    "the course folder (default: the nearest folder holding solutions/, from the working "
    "directory up)"
)


def add_course_arguments(p, exercises: bool) -> None:
    """``--course``, ``--solutions``, ``--build`` (and ``--exercises``): shared with grade."""
    p.add_argument("--course", type=Path, metavar="PATH", help=_(COURSE_HELP))
    p.add_argument(
        "--solutions",
        type=Path,
        metavar="SOLUTIONS",
        help=_("folder of master notebooks (default: COURSE/solutions)"),
    )
    if exercises:
        p.add_argument(
            "--exercises",
            type=Path,
            metavar="EXERCISES",
            help=_("folder the student notebooks are written to (default: COURSE/exercises)"),
        )
    p.add_argument(
        "--build",
        type=Path,
        metavar="BUILD",
        help=_(
            "folder for otter's autograder material, not committed (default: COURSE/build/otter)"
        ),
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
        help=_("make exercises/ (student notebooks) from solutions/ with otter assign"),
        description=_(
            "Run otter assign on every master notebook in SOLUTIONS (or only the chapters "
            "named) and write the student versions into EXERCISES, and the Chinese edition of "
            "each into EXERCISES/zh from its translation; autograder material goes to BUILD "
            "(not committed). Works from any folder inside the course. Running it twice on "
            "unchanged solutions changes nothing."
        ),
    )
    p.add_argument(
        "only",
        nargs="*",
        metavar="CHAPTER",
        help=_(
            "only these problem sets: a number (04), a name (04_list_scheduling) or a path "
            "(default: all of them)"
        ),
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
        print(_("wrote {path}").format(path=path))
        edition = build_edition(paths["course"], path)
        if edition is not None:
            print(edition)
    return 0


def build_edition(course: Path, exercise: Path, lang: str = "zh") -> str | None:
    """Rebuild the ``lang`` edition of a student notebook in the course's ``exercises/`` from its
    translation (a problem set is not run); what happened, or None where it has none."""
    from .. import i18n

    try:
        translation = i18n.translation_path(course, exercise, lang)
        target = i18n.edition_path(course, exercise, lang)
    except ValueError:  # written outside the course (--exercises): no edition of it
        return None
    if not translation.exists():
        return None
    try:
        i18n.build_one(exercise, translation, target, lang)
    except i18n.TranslationError:
        return _(
            "not rebuilt: {target} (its translation is behind the English: run `lecturekit "
            "translate sync`, translate the cells it marks, then `lecturekit translate build "
            "{notebook}`)"
        ).format(target=target, notebook=exercise.stem[:2])
    return _("wrote {path}").format(path=target)
