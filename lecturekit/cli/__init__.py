"""The ``lecturekit`` command: one subcommand module per topic.

Each module in :data:`SUBCOMMANDS` defines ``register(subparsers)``, which adds its parser and
sets ``func`` (taking the parsed arguments and returning an exit code). Any
:class:`~lecturekit.errors.LectureKitError` becomes a one-line message on stderr and exit code 2,
never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from ..errors import LectureKitError

#: subcommand modules, in the order ``lecturekit --help`` lists them
SUBCOMMANDS = [
    "deps",
    "simulate",
    "schedule",
    "unroll",
    "modulo",
    "memory",
    "parallel",
    "compile",
    "mca",
    "assign",
    "grade",
    "translate",
]


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (``lecturekit X: error: ...``) and exit code 2."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {one_line(message)} (see {self.prog} --help)\n")


def one_line(message: str) -> str:
    """A message as one printable line: a parse error's source line and caret are dropped (the
    message names line and column), other line breaks become '; ', control characters escaped."""
    lines = str(message).split("\n")
    if len(lines) >= 3 and lines[-1].strip() == "^":
        lines = lines[:-2]
    text = "; ".join(line.strip() for line in lines if line.strip())
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return text if len(text) <= 2000 else text[:2000] + "..."


def _invoked(argv: list[str] | None) -> str | None:
    """The subcommand named on the command line (the first word that is not an option), when
    it is one of :data:`SUBCOMMANDS`; None otherwise (``--help``, a typo)."""
    words = sys.argv[1:] if argv is None else argv
    for word in words:
        if word.startswith("-"):
            return None  # an option before the subcommand: --help lists every subcommand
        return word if word in SUBCOMMANDS else None
    return None


def build_parser(argv: list[str] | None = None, *, lazy: bool = False) -> argparse.ArgumentParser:
    """The full parser; with ``lazy=True`` and a subcommand in ``argv``, only that subcommand's
    module is imported and only its parser is built, so one command starts quickly.
    ``lecturekit --help`` imports them all, to list each with its help."""
    only = _invoked(argv) if lazy else None
    parser = _Parser(
        prog="lecturekit",
        description="Instruction scheduling and parallel training, computed: dependence graphs, "
        "pipeline tables, schedules, loops, training memory.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in SUBCOMMANDS:
        if only is not None and name != only:
            continue  # not invoked: neither imported nor given a parser
        try:
            module = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"{__name__}.{name}":
                continue  # not built yet
            raise
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser(argv, lazy=True)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, or a usage error already printed as one line
        return exc.code if isinstance(exc.code, int) else 2
    try:
        return int(args.func(args) or 0)
    except LectureKitError as exc:
        print(f"lecturekit {args.command}: error: {one_line(exc)}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
