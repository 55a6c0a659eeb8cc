"""``lecturekit grade CHAPTER SUBMISSIONS...``: grade a folder of notebooks into a CSV."""

from __future__ import annotations

from pathlib import Path

from ..language import _, ngettext
from .assign import add_course_arguments, chapter_number, course_paths


def register(sub) -> None:
    p = sub.add_parser(
        "grade",
        help=_("grade submitted notebooks of one chapter into a CSV (no server, no Docker)"),
        description=_(
            "Grade every submitted notebook against the public and hidden tests of a "
            "chapter's problem set; one CSV row per submission, one column per question, and "
            "the rubrics of the questions graded by hand beside it. Works from any folder "
            "inside the course (or give --course)."
        ),
    )
    p.add_argument(
        "chapter",
        metavar="CHAPTER",
        type=chapter_number,
        help=_(
            "problem set: 04 (or 4), a name (04_list_scheduling, or the name students submit: "
            "04_list_scheduling_problems, 04_列表调度_习题) or a path"
        ),
    )
    p.add_argument(
        "submissions",
        nargs="+",
        type=Path,
        metavar="SUBMISSION",
        help=_("notebooks or folders of notebooks (searched recursively for *.ipynb)"),
    )
    p.add_argument(
        "--output",
        "-o",
        type=Path,
        default=Path("grades.csv"),
        metavar="CSV",
        help=_("CSV to write (default: grades.csv in the working directory)"),
    )
    add_course_arguments(p, exercises=False)
    p.add_argument(
        "--cell-timeout",
        type=float,
        default=30,
        metavar="SECONDS",
        help=_("seconds per cell (default: 30)"),
    )
    p.add_argument(
        "--question-timeout",
        type=float,
        default=30,
        metavar="SECONDS",
        help=_("seconds to check one question (default: 30)"),
    )
    p.add_argument(
        "--jobs",
        "-j",
        type=int,
        default=1,
        metavar="N",
        help=_("submissions graded at once, each in its own process (default: 1)"),
    )
    p.add_argument(
        "--unsafe",
        action="store_true",
        help=_(
            "grade even if a per-submission limit (processes, memory of all processes "
            "together, disk) cannot be enforced on this machine (it is named first; default: "
            "refuse)"
        ),
    )
    p.set_defaults(func=run)


def run(args) -> int:
    from ..errors import LectureKitError
    from ..grading import grade_folder

    if args.jobs < 1:
        raise LectureKitError(_("--jobs {jobs}: give 1 or more").format(jobs=args.jobs))
    for name in ("cell_timeout", "question_timeout"):
        if not getattr(args, name) > 0:
            raise LectureKitError(
                _("--{option} {value}: give seconds > 0").format(
                    option=name.replace("_", "-"), value=getattr(args, name)
                )
            )
    from ..grading import autograder_notebook, find_master, limits, questions
    from ..grading.grade import printable, rubrics_path
    from ..grading.run import Grader
    from ..grading.sandbox import bwrap

    paths = course_paths(args)
    exe = bwrap()
    missing = limits.unenforced(exe)
    for what in missing:  # said up front, before any submission runs
        print(_("warning: cannot enforce the limit on {what}").format(what=what))
    if missing and not args.unsafe:
        raise LectureKitError(
            _(
                "refusing to grade: a submission could take this machine down (limits "
                "above). Grade as root or in a delegated cgroup v2 subtree, or give --unsafe"
            )
        )
    print(limits.how_enforced(exe))
    master = find_master(args.chapter, paths["solutions"])
    autograder = autograder_notebook(str(master), paths["solutions"], paths["build"])
    with Grader(
        master, autograder, args.cell_timeout, args.question_timeout, unsafe=args.unsafe
    ) as grader:
        grades = grade_folder(
            args.chapter,
            args.submissions,
            args.output,
            solutions=paths["solutions"],
            build=paths["build"],
            jobs=args.jobs,
            grader=grader,
        )
    for g in grades:  # file names and notes are already printable (escaped, capped)
        note = f"  ({printable('; '.join(g.notes), 600)})" if g.notes else ""
        print(f"{g.submission}: {g.total:g}{note}")
    print(
        ngettext(
            "wrote {output} ({n} submission)", "wrote {output} ({n} submissions)", len(grades)
        ).format(output=args.output, n=len(grades))
    )
    if any(q.manual for q in questions(master)):
        sheet = rubrics_path(args.output)
        print(_("wrote {sheet} (the rubrics of the questions graded by hand)").format(sheet=sheet))
    return 0
