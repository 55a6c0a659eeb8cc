"""The ``lecturekit`` command: one subcommand module per topic.

Each module in :data:`SUBCOMMANDS` defines ``register(subparsers)``, which adds its parser and
sets ``func`` (taking the parsed arguments and returning an exit code). Any
:class:`~lecturekit.errors.LectureKitError` becomes a one-line message on stderr and exit code 2,
never a traceback.

``--lang en|zh`` (before or after the subcommand) chooses the language of everything the command
prints, its help included; without it, ``LECTUREKIT_LANG`` or the locale (``LANGUAGE``,
``LC_ALL``, ``LC_MESSAGES``, ``LANG``) does (:mod:`lecturekit.language`). The language is chosen
before the parser is built, so the help text is looked up in it; argparse's own words (usage,
"the following arguments are required") come from the same catalog
(:mod:`~lecturekit.cli.argparse_messages`).
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import re
import sys

from .. import language
from ..errors import LectureKitError
from ..language import _

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


#: characters that may not begin a line of Chinese text (they stay at the end of the one before)
_NO_LINE_START = "，。、；：？！）」』》】,.;:?!)"
#: and those that may not end one (they move to the next)
_NO_LINE_END = "（「『《【("


def wrap_by_width(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` display columns (a Chinese character takes two),
    broken between words and between Chinese characters; whitespace runs become one space, as
    argparse's own wrapping does."""
    tokens = re.findall(r"\s+|[\u2e80-\uffff]|[^\s\u2e80-\uffff]+", " ".join(text.split()))
    lines: list[str] = []
    line = ""
    for tok in tokens:
        if tok.isspace():
            line += " " if line else ""
            continue
        if (
            line.strip(_NO_LINE_END + " ")  # a line of opening marks only: nowhere to break
            and language.display_width(line.rstrip() + tok) > width
            and tok not in _NO_LINE_START
        ):
            line = line.rstrip()
            carry = ""
            while len(line) > 1 and line[-1] in _NO_LINE_END:
                line, carry = line[:-1].rstrip(), line[-1] + carry
            lines.append(line)
            line = carry
        line += tok
    if line.strip():
        lines.append(line.rstrip())
    return lines


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's help, wrapped by display width when the text holds wide characters (Chinese):
    argparse counts characters, so a line of Chinese would run twice as wide as the terminal.
    English is wrapped by argparse itself, unchanged."""

    def _split_lines(self, text, width):
        if language.display_width(text) == len(text):
            return super()._split_lines(text, width)
        return wrap_by_width(text, width)

    def _fill_text(self, text, width, indent):
        if language.display_width(text) == len(text):
            return super()._fill_text(text, width, indent)
        return "\n".join(indent + line for line in wrap_by_width(text, width - len(indent)))


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (``lecturekit X: error: ...``) and exit code 2,
    and help is wrapped by display width (:class:`_HelpFormatter`)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("formatter_class", _HelpFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message):
        text = _("{prog}: error: {message} (see {prog} --help)").format(
            prog=self.prog, message=one_line(message)
        )
        self.exit(2, text + "\n")


LANG_OPTION = "--lang"


def _language_type(value: str) -> str:
    found = language.normalize(value)
    if found is None:
        raise argparse.ArgumentTypeError(
            _("no catalog for language {language!r}; lecturekit speaks {known}").format(
                language=value, known=", ".join(language.LANGUAGES)
            )
        )
    return found


def _add_lang(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        LANG_OPTION,
        type=_language_type,
        default=None,
        metavar="en|zh",
        help=_(
            "the language of what this command prints (default: LECTUREKIT_LANG, else the "
            "locale, else English)"
        ),
    )


def requested_language(argv: list[str]) -> str | None:
    """The language ``--lang X`` / ``--lang=X`` asks for on the command line (None: not given,
    or not a language lecturekit speaks: the parser then says so)."""
    for k, word in enumerate(argv):
        if word == "--":
            break
        if word == LANG_OPTION and k + 1 < len(argv):
            return language.normalize(argv[k + 1])
        if word.startswith(LANG_OPTION + "="):
            return language.normalize(word.partition("=")[2])
    return None


@contextlib.contextmanager
def _argparse_speaks():
    """argparse's own messages (``usage:``, ``the following arguments are required``) from
    lecturekit's catalog while a parser runs; unchanged in English."""
    if language.get_language() == "en":
        yield
        return
    before = argparse._, argparse.ngettext
    argparse._, argparse.ngettext = language.gettext, language.ngettext
    try:
        yield
    finally:
        argparse._, argparse.ngettext = before


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
    words = list(sys.argv[1:] if argv is None else argv)
    while words:
        word = words.pop(0)
        if word == LANG_OPTION:
            words[:1] = []  # its value
            continue
        if word.startswith(LANG_OPTION + "="):
            continue
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
        description=_(
            "Instruction scheduling and parallel training, computed: dependence graphs, "
            "pipeline tables, schedules, loops, training memory."
        ),
    )
    _add_lang(parser)
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
    for subparser in sub.choices.values():
        if not any(LANG_OPTION in a.option_strings for a in subparser._actions):
            _add_lang(subparser)
    return parser


def main(argv: list[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    asked = requested_language(words)
    chosen = language.using(asked) if asked else contextlib.nullcontext()
    with chosen, _argparse_speaks():
        return _run(words)


def _run(argv: list[str]) -> int:
    parser = build_parser(argv, lazy=True)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, or a usage error already printed as one line
        return exc.code if isinstance(exc.code, int) else 2
    try:
        return int(args.func(args) or 0)
    except LectureKitError as exc:
        message = _("lecturekit {command}: error: {message}").format(
            command=args.command, message=one_line(exc)
        )
        print(message, file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
