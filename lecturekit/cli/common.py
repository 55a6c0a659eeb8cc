"""Pieces every subcommand shares: reading FILE (or ``-`` for stdin), ``--machine``, ``--json``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ..errors import LectureKitError
from ..isa import Program, parse
from ..machine import Machine, get_machine


def add_block_arguments(parser) -> None:
    parser.add_argument("file", metavar="FILE", help="a block of code; '-' reads standard input")
    parser.add_argument(
        "--machine",
        "-M",
        default="lecture",
        metavar="NAME|PATH",
        help="preset (lecture, classic5, dual) or a .toml/.json machine file (default: lecture)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON (a stable contract)")


def read_source(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LectureKitError(f"no such file: {path}") from None
    except IsADirectoryError:
        raise LectureKitError(f"{path} is a directory, not a file of code") from None
    except UnicodeDecodeError:
        raise LectureKitError(f"{path} is not UTF-8 text") from None
    except OSError as exc:
        raise LectureKitError(f"cannot read {path}: {exc.strerror}") from None


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
        raise LectureKitError(f"{args.file}: no instructions found")
    return program, machine


def print_json(data) -> None:
    json.dump(data, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")


def format_table(headers: list[str], rows: list[list]) -> str:
    """A plain aligned text table."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)
