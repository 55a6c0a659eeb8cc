"""``lecturekit unroll FILE -k N``: unroll a loop with register renaming, schedule it, measure it.

Human output: the runnable code (trip count, remainder loop, the scheduled unrolled loop), then
cycles per pass and per original iteration (steady state on in-order hardware), registers and
code size; ``--compare`` adds the table for k = 1, 2, 4, 8. ``--json`` prints ``machine``,
``k``, ``scheduler``, ``body`` (lines of the unrolled loop), ``code``, ``instructions_per_pass``,
``cycles_per_pass``, ``cycles_per_iteration``, ``schedule_length``, ``registers``, ``code_size``,
``notes``, ``motion`` (per moved induction update: ``register``, ``step``, ``rewritten``
accesses as ``[before, after]``), ``original`` (``cycles_per_iteration`` as written and
scheduled) and, with ``--compare``, ``compare`` (one row per factor).
"""

from __future__ import annotations

import argparse

from .. import validate
from ..asm import parse
from ..errors import LectureKitError
from ..language import _
from ..loops.model import analyze_loop
from ..loops.unroll import compare_unrolling, program_order_cycles, unroll
from ..target.machine import get_machine
from .common import add_block_arguments, format_table, print_json, read_source


def add_loop_arguments(p) -> None:
    add_block_arguments(p)
    p.add_argument(
        "--may-alias",
        action="store_true",
        help=_(
            "assume accesses through different base registers may overlap (default: each "
            "base register points into its own array)"
        ),
    )


def load_loop(args):
    """Parse FILE as a loop on --machine; errors name the file."""
    source = read_source(args.file)
    machine = get_machine(args.machine)
    name = "<stdin>" if args.file == "-" else args.file
    try:
        return analyze_loop(parse(source), machine, restrict=not args.may_alias)
    except LectureKitError as exc:
        raise LectureKitError(f"{name}: {exc}") from None


def register(sub) -> None:
    p = sub.add_parser(
        "unroll",
        help=_("unroll a loop k times with register renaming, schedule it, cycles per iteration"),
        description=_(
            "Unroll a loop (a label and a backward branch to it) k times with register "
            "renaming, schedule the unrolled body and measure cycles per original iteration."
        ),
    )
    add_loop_arguments(p)
    p.add_argument(
        "-k",
        type=validate.cli_int(),
        default=2,
        metavar="N",
        help=_("unroll factor, 1..64 (default: 2)"),
    )
    p.add_argument(
        "--scheduler",
        choices=["auto", "list", "optimal"],
        default="auto",
        help=_(
            "list scheduling, exhaustive optimal, or auto: optimal for small bodies (default auto)"
        ),
    )
    p.add_argument(
        "--compare",
        action="store_true",
        help=_("also print the table for k = 1, 2, 4, 8 (default: off)"),
    )
    p.add_argument(
        "--move-induction",
        action=argparse.BooleanOptionalAction,
        default=True,
        help=_(
            "let the induction update move above the loads and stores that use it, rewriting "
            "their offsets (kept when faster; the notes say what moved) (default: on; "
            "--no-move-induction keeps every update after the accesses, the lecture's slide form)"
        ),
    )
    p.set_defaults(func=run)


def run(args) -> int:
    loop = load_loop(args)
    if args.k < 1:
        raise LectureKitError(_("-k must be a positive integer, got {k}").format(k=args.k))
    if args.k > 64:
        raise LectureKitError(_("-k {k} is too large (at most 64)").format(k=args.k))
    opts = {
        "restrict": loop.restrict,
        "scheduler": args.scheduler,
        "move_induction": args.move_induction,
    }
    u = unroll(loop, args.k, loop.machine, **opts)
    base = unroll(loop, 1, loop.machine, **opts)
    written = program_order_cycles(loop, loop.machine, restrict=loop.restrict)
    rows = compare_unrolling(loop, loop.machine, **opts) if args.compare else None
    if args.json:
        data = u.to_dict()
        data["machine"] = {
            "name": loop.machine.name,
            "issue_width": loop.machine.issue_width,
            "units": dict(loop.machine.units),
        }
        data["original"] = {
            "as_written": written,
            "scheduled": base.cycles_per_iteration,
        }
        if rows is not None:
            data["compare"] = rows
        print_json(data)
        return 0
    print(
        _("machine: {name} ({description})").format(
            name=loop.machine.name, description=_(loop.machine.description)
        )
    )
    print(
        _("unrolled {k}x, scheduled with {scheduler} scheduling:").format(
            k=u.k, scheduler=u.scheduler
        )
    )
    print()
    print(u.code.rstrip())
    print()
    print(
        _(
            "{n} instructions per pass; {cycles_per_pass:g} cycles per pass "
            "in the steady state = {cycles_per_iteration:.2f} cycles per original "
            "iteration"
        ).format(
            n=len(u.loop),
            cycles_per_pass=u.cycles_per_pass,
            cycles_per_iteration=u.cycles_per_iteration,
        )
    )
    print(
        _(
            "original loop: {written:g} cycles per iteration as written, "
            "{cycles_per_iteration:g} scheduled"
        ).format(written=written, cycles_per_iteration=base.cycles_per_iteration)
    )
    print(
        _(
            "registers in the unrolled body: {registers}; code size: {code_size} instructions"
        ).format(registers=u.registers, code_size=u.code_size)
    )
    for note in u.notes:
        print(_("note: {note}").format(note=note))
    if rows is not None:
        print()
        print(
            format_table(
                [
                    "k",
                    _("instructions"),
                    _("cycles/pass"),
                    _("cycles/iteration"),
                    _("registers"),
                    _("code size"),
                ],
                [
                    [
                        r["k"],
                        r["instructions"],
                        f"{r['cycles_per_pass']:g}",
                        f"{r['cycles_per_iteration']:.2f}",
                        r["registers"],
                        r["code_size"],
                    ]
                    for r in rows
                ],
            )  # fmt: skip
        )
    return 0
