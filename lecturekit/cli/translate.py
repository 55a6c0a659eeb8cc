"""``lecturekit translate status|sync|build``: keep the Chinese edition in step with the English."""

from __future__ import annotations

from pathlib import Path

from ..errors import LectureKitError
from ..language import _, ngettext


def register(sub) -> None:
    p = sub.add_parser(
        "translate",
        help=_("the Chinese (中文) edition: report stale translations, prepare files, build them"),
        description=_(
            "status: list every markdown cell whose translation is missing or stale. "
            "sync: add entries for new cells to translations/zh/... and mark changed ones stale. "
            "build: write notebooks/zh/ and exercises/zh/ from the English notebooks and their "
            "translations (refuses while any translation is missing or stale), then run them "
            "in the edition's language so that their outputs are in it too."
        ),
    )
    p.add_argument("action", choices=["status", "sync", "build"], help=_("what to do"))
    p.add_argument(
        "only",
        nargs="*",
        metavar="NOTEBOOK",
        help=_(
            "English notebooks to act on, by path or name prefix (e.g. 04 or "
            "exercises/04_list_scheduling_problems.ipynb; the path of a Chinese edition, "
            "notebooks/zh/04_列表调度.ipynb, stands for its English notebook); default: every "
            "chapter and problem set that "
            "has a translation file (status, build) or every one (sync)"
        ),
    )
    p.add_argument(
        "--course",
        type=Path,
        default=None,
        help=_(
            "the course folder (default: the nearest folder above the current directory that "
            "holds notebooks/ and translations/ or solutions/)"
        ),
    )
    p.add_argument(
        "--edition", default="zh", choices=["zh"], help=_("edition language (default zh)")
    )
    p.add_argument(
        "--no-run",
        action="store_true",
        help=_(
            "build: write the notebooks without running them (their outputs stay the English "
            "edition's until they are run; default: run them)"
        ),
    )
    p.add_argument(
        "--jobs",
        "-j",
        type=int,
        default=None,
        metavar="N",
        help=_("build: notebooks run at once (default: the number of cores)"),
    )
    p.set_defaults(func=run)


def course_root(start: Path | None) -> Path:
    """The course folder, absolute (``--course ..`` and a notebook's path given relative to the
    current folder must meet in one absolute path)."""
    if start is not None:
        if not (start / "notebooks").is_dir():
            raise LectureKitError(
                _("{path}: not a course folder (no notebooks/ in it)").format(path=start)
            )
        return start.resolve()
    here = Path.cwd().resolve()
    for folder in [here, *here.parents]:
        if (folder / "notebooks").is_dir() and (
            (folder / "translations").is_dir() or (folder / "solutions").is_dir()
        ):
            return folder
    raise LectureKitError(
        _(
            "no course folder found in {path} or above (looked for notebooks/ beside "
            "translations/ or solutions/); pass --course PATH"
        ).format(path=here)
    )


def _selected(root: Path, only: list[str], lang: str, every: bool) -> list[Path]:
    from .. import i18n

    sources = i18n.english_sources(root)
    if only:
        chosen = []
        for item in only:
            path = Path(item)
            if path.suffix == ".ipynb" and path.exists():
                # an edition (notebooks/zh/04_列表调度.ipynb) stands for its English notebook
                hits = [i18n.english_source(root, path) or path.resolve()]
                if hits[0] not in sources:
                    raise LectureKitError(
                        _(
                            "{path}: not an English chapter or problem set of the course {root} "
                            "(those in notebooks/ and exercises/)"
                        ).format(path=item, root=root)
                    )
            else:
                hits = [s for s in sources if s.name.startswith(item)]
            if not hits:
                raise LectureKitError(
                    _("{name!r} matches no notebook in notebooks/ or exercises/").format(name=item)
                )
            chosen.extend(hits)
        return chosen
    if every:
        return sources
    return [s for s in sources if i18n.translation_path(root, s, lang).exists()]


def run(args) -> int:
    from .. import i18n

    root = course_root(args.course)
    lang = args.edition
    sources = _selected(root, args.only, lang, every=args.action == "sync")
    if args.action == "sync":
        for s in sources:
            rel = s.relative_to(root).as_posix()
            counts = i18n.sync(s, i18n.translation_path(root, s, lang), rel)
            shown = ", ".join(_(i18n.COUNTS[k]).format(count=v) for k, v in counts.items() if v)
            print(f"{rel}: {shown}")
        return 0
    if args.action == "status":
        problems = []
        for s in sources:
            rel = s.relative_to(root).as_posix()
            translation = i18n.translation_path(root, s, lang)
            found = i18n.check_one(s, translation, rel)
            if not found:  # translated: is the built notebook what `build` makes today?
                edition = i18n.edition_path(root, s, lang)
                found = i18n.edition_problems(s, translation, edition, lang, root=root)
            problems += found
        for p in problems:
            print(p)
        notebooks = ngettext("{n} notebook", "{n} notebooks", len(sources)).format(n=len(sources))
        cells = ngettext("{n} cell", "{n} cells", len(problems)).format(n=len(problems))
        print(
            _("{notebooks}, {cells} to translate or update").format(
                notebooks=notebooks, cells=cells
            )
        )
        return 1 if problems else 0
    built = []
    for s in sources:
        target = i18n.build_one(
            s, i18n.translation_path(root, s, lang), i18n.edition_path(root, s, lang)
        )
        built.append(target)
        print(_("wrote {path}").format(path=target.relative_to(root).as_posix()))
    if not args.no_run:
        for target, seconds in i18n.run_editions(built, jobs=args.jobs):
            if seconds is not None:
                print(
                    _("ran {path} in {language} ({seconds:.0f} s)").format(
                        path=target.relative_to(root).as_posix(), language=lang, seconds=seconds
                    )
                )
    return 0
