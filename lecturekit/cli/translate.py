"""``lecturekit translate status|sync|build``: keep the Chinese edition in step with the English."""

from __future__ import annotations

from pathlib import Path

from ..errors import LectureKitError


def register(sub) -> None:
    p = sub.add_parser(
        "translate",
        help="the Chinese (中文) edition: report stale translations, prepare files, build them",
        description="status: list every markdown cell whose translation is missing or stale. "
        "sync: add entries for new cells to translations/zh/... and mark changed ones stale. "
        "build: write notebooks/zh/ and exercises/zh/ from the English notebooks and their "
        "translations (refuses while any translation is missing or stale).",
    )
    p.add_argument("action", choices=["status", "sync", "build"], help="what to do")
    p.add_argument(
        "only",
        nargs="*",
        metavar="NOTEBOOK",
        help="English notebooks to act on, by path or name prefix (e.g. 04 or "
        "exercises/04_list_scheduling.ipynb); default: every chapter and problem set that has a "
        "translation file (status, build) or every one (sync)",
    )
    p.add_argument(
        "--course",
        type=Path,
        default=None,
        help="the course folder (default: the nearest folder above the current directory that "
        "holds notebooks/ and translations/ or solutions/)",
    )
    p.add_argument("--lang", default="zh", choices=["zh"], help="edition language (default zh)")
    p.set_defaults(func=run)


def course_root(start: Path | None) -> Path:
    if start is not None:
        if not (start / "notebooks").is_dir():
            raise LectureKitError(f"{start}: not a course folder (no notebooks/ in it)")
        return start
    here = Path.cwd().resolve()
    for folder in [here, *here.parents]:
        if (folder / "notebooks").is_dir() and (
            (folder / "translations").is_dir() or (folder / "solutions").is_dir()
        ):
            return folder
    raise LectureKitError(
        f"no course folder found in {here} or above (looked for notebooks/ beside "
        "translations/ or solutions/); pass --course PATH"
    )


def _selected(root: Path, only: list[str], lang: str, every: bool) -> list[Path]:
    from .. import i18n

    sources = i18n.english_sources(root)
    if only:
        chosen = []
        for item in only:
            path = Path(item)
            hits = (
                [path.resolve()]
                if path.suffix == ".ipynb" and path.exists()
                else [s for s in sources if s.name.startswith(item)]
            )
            if not hits:
                raise LectureKitError(f"{item!r} matches no notebook in notebooks/ or exercises/")
            chosen.extend(hits)
        return chosen
    if every:
        return sources
    return [s for s in sources if i18n.translation_path(root, s, lang).exists()]


def run(args) -> int:
    from .. import i18n

    root = course_root(args.course)
    sources = _selected(root, args.only, args.lang, every=args.action == "sync")
    if args.action == "sync":
        for s in sources:
            rel = str(s.relative_to(root))
            counts = i18n.sync(s, i18n.translation_path(root, s, args.lang), rel)
            print(f"{rel}: " + ", ".join(f"{v} {k}" for k, v in counts.items() if v))
        return 0
    if args.action == "status":
        problems = []
        for s in sources:
            rel = str(s.relative_to(root))
            problems += i18n.check_one(s, i18n.translation_path(root, s, args.lang), rel)
        for p in problems:
            print(p)
        notebooks = "notebook" if len(sources) == 1 else "notebooks"
        cells = "cell" if len(problems) == 1 else "cells"
        print(f"{len(sources)} {notebooks}, {len(problems)} {cells} to translate or update")
        return 1 if problems else 0
    for s in sources:
        target = i18n.build_one(
            s, i18n.translation_path(root, s, args.lang), i18n.edition_path(root, s, args.lang)
        )
        print(f"wrote {target.relative_to(root)}")
    return 0
