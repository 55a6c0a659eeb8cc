"""Pieces every subcommand shares: reading FILE (or ``-`` for stdin), ``--machine``, ``--json``."""

from __future__ import annotations

import json
import sys

from ..asm import Program, parse
from ..errors import LectureKitError
from ..language import _, display_width, ljust
from ..target.machine import PRESETS, Machine, get_machine


def add_block_arguments(parser) -> None:
    parser.add_argument("file", metavar="FILE", help=_("a block of code; '-' reads standard input"))
    parser.add_argument(
        "--machine",
        "-M",
        default="lecture",
        metavar="NAME|PATH",
        help=_("preset ({presets}) or a .toml/.json machine file (default: lecture)").format(
            presets=", ".join(PRESETS)
        ),
    )
    parser.add_argument(
        "--json", action="store_true", help=_("print JSON, a stable contract (default: text)")
    )


#: the largest block of code read (bytes); a 50,000-instruction block is about 1 MB
MAX_SOURCE_BYTES = 16 * 2**20


def _decode(data: bytes, name: str) -> str:
    if len(data) > MAX_SOURCE_BYTES:
        raise LectureKitError(
            _("{name} is too large (more than {max_source_bytes:,} bytes)").format(
                name=name, max_source_bytes=MAX_SOURCE_BYTES
            )
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise LectureKitError(
            _("{name} is not UTF-8 text (byte {data:#04x} at offset {start}, line {line})").format(
                name=name, data=data[exc.start], start=exc.start, line=line
            )
        ) from None


def read_source(path: str) -> str:
    if path == "-":
        buffer = getattr(sys.stdin, "buffer", None)
        if buffer is not None:
            return _decode(buffer.read(MAX_SOURCE_BYTES + 1), _("standard input"))
        try:
            text = sys.stdin.read(MAX_SOURCE_BYTES + 1)
        except UnicodeDecodeError:
            raise LectureKitError(_("standard input is not UTF-8 text")) from None
        if len(text) > MAX_SOURCE_BYTES:
            raise LectureKitError(
                _("standard input is too large (more than {max_source_bytes:,})").format(
                    max_source_bytes=MAX_SOURCE_BYTES
                )
            )
        return text
    try:
        with open(path, "rb") as fh:
            return _decode(fh.read(MAX_SOURCE_BYTES + 1), path)
    except FileNotFoundError:
        raise LectureKitError(_("no such file: {path}").format(path=path)) from None
    except IsADirectoryError:
        raise LectureKitError(
            _("{path} is a directory, not a file of code").format(path=path)
        ) from None
    except OSError as exc:
        raise LectureKitError(
            _("cannot read {path}: {strerror}").format(path=path, strerror=exc.strerror)
        ) from None


def load_block(args) -> tuple[Program, Machine]:
    """Parse FILE and resolve --machine; a parse error names FILE, line and column."""
    source = read_source(args.file)
    machine = get_machine(args.machine)
    try:
        program = parse(source)
    except LectureKitError as exc:
        name = "<stdin>" if args.file == "-" else args.file
        raise LectureKitError(f"{name}: {exc}") from None
    if len(program) == 0:
        raise LectureKitError(_("{file}: no instructions found").format(file=args.file))
    return program, machine


def print_json(data) -> None:
    """Valid JSON only: a NaN or infinity (which JSON cannot hold) is an error, never printed."""
    try:
        text = json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False)
    except ValueError:
        raise LectureKitError(
            _("a figure is not a finite number, so there is no valid JSON for it")
        ) from None
    sys.stdout.write(text + "\n")


def format_table(headers: list[str], rows: list[list]) -> str:
    """A plain aligned text table (widths in display columns: a Chinese character takes two)."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(display_width(r[i]) for r in cells) for i in range(len(headers))]
    lines = ["  ".join(ljust(c, w) for c, w in zip(r, widths, strict=True)).rstrip() for r in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)
