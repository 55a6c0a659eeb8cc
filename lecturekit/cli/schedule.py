"""``lecturekit schedule FILE``: a list schedule or the optimal schedule of a block.

Human output: issue and finish cycle per instruction (in issue order), the length, the lower
bound and whether the length is proven optimal. ``--json`` prints the ``deps`` contract
(``machine``, ``instructions``, ``edges``) plus ``schedule`` (``algorithm``, ``order``,
``issue``, ``finish``, ``cycles``, ``lower_bound``, ``proven_optimal``, ``nodes``,
``seconds``, ``bounds``; for list scheduling also ``priority``, ``lookahead`` and, with
``-a improved``, ``from`` and ``candidates``; for the optimal search also ``engine``).

Beyond the lecture's heuristics (issue 17): every priority of ``PRIORITIES`` and
``MORE_PRIORITIES``, ``--lookahead W`` (a list scheduler that may hold an operation back for a
more urgent one arriving within W cycles), ``-a improved`` (best of several list schedules,
forward-backward improvement and the pilot method) and ``--engine`` for ``-a optimal``
(``optsched``, the stronger search, by default since issue 30; ``classic``, chapter 05's).
"""

from __future__ import annotations

import math
import time

from ..core.bounds import bounds
from ..core.list_sched import MORE_PRIORITIES, PRIORITIES, improved_schedule, list_schedule_trace
from ..core.optimal import DEFAULT_ENGINE, ENGINES, optimal_search
from ..errors import LectureKitError
from ..language import _
from ..target.deps import analyze, instruction_label
from .common import add_block_arguments, format_table, load_block, print_json


def register(sub) -> None:
    p = sub.add_parser(
        "schedule",
        help=_("list scheduling or exhaustive optimal scheduling of a block"),
        description=_(
            "Schedule a block: list scheduling with a priority (the lecture's "
            "heuristics) or branch and bound to the proven optimum."
        ),
    )
    add_block_arguments(p)
    p.add_argument(
        "--algorithm",
        "-a",
        choices=["list", "improved", "optimal"],
        default="list",
        help=_(
            "list scheduling, the improved heuristic (best of several list schedules, "
            "forward-backward improvement, pilot method) or the exhaustive optimal search "
            "(default: list)"
        ),
    )
    p.add_argument(
        "--priority",
        "-p",
        default="height",
        metavar="NAME",
        help=_(
            "list-scheduling priority: the lecture's {lecture}, or beyond the lecture "
            "{more} (default: height)"
        ).format(lecture=", ".join(PRIORITIES), more=", ".join(MORE_PRIORITIES)),
    )
    p.add_argument(
        "--lookahead",
        "-w",
        default="0",
        metavar="W",
        help=_(
            "with --algorithm list: hold a ready operation back when it would block a "
            "higher-priority one whose operands arrive within W cycles (default: 0, the classic "
            "non-delay list scheduler)"
        ),
    )
    p.add_argument(
        "--engine",
        choices=list(ENGINES),
        default=DEFAULT_ENGINE,
        help=_(
            "with --algorithm optimal: the chapter's branch and bound (classic) or "
            "the OptSched-style search over the same tree (both use history "
            "domination) with stronger bounds: resource-constrained heads and "
            "tails, exact tails of small sub-blocks, a flow relaxation at the "
            "root, greedy descents and forward-backward improvement for the first "
            "schedule (default: {default_engine}, the stronger; classic is the one "
            "chapter 05 teaches)"
        ).format(default_engine=DEFAULT_ENGINE),
    )
    p.add_argument(
        "--time-limit",
        "-t",
        default="10",
        metavar="S",
        help=_("seconds the optimal search may take before returning its best (default: 10)"),
    )
    p.add_argument(
        "--trace",
        action="store_true",
        help=_(
            "with --algorithm list or improved: print the ready list and the choice of "
            "every cycle (default: off)"
        ),
    )
    p.set_defaults(func=run)


def _time_limit(text: str) -> float:
    if len(text) > 40:
        raise LectureKitError(
            _("--time-limit takes a number of seconds, got {text!r}...").format(text=text[:40])
        )
    try:
        value = float(text)
    except ValueError:
        raise LectureKitError(
            _("--time-limit takes a number of seconds, got {text!r}").format(text=text)
        ) from None
    if not math.isfinite(value) or value < 0:
        raise LectureKitError(
            _("--time-limit must be a non-negative number of seconds, got {text}").format(text=text)
        )
    return value


def _lookahead(text: str) -> int:
    if len(text) > 40 or not text.strip().isdigit():
        raise LectureKitError(
            _("--lookahead takes a whole number of cycles >= 0, got {text!r}").format(
                text=text[:40]
            )
        )
    return int(text)


def run(args) -> int:
    every = {**PRIORITIES, **MORE_PRIORITIES}
    if args.priority not in every:
        raise LectureKitError(
            _("unknown priority {priority!r}; choose one of {join}").format(
                priority=args.priority, join=", ".join(every)
            )
        )
    limit = _time_limit(args.time_limit)
    lookahead = _lookahead(args.lookahead)
    program, machine = load_block(args)
    dg = analyze(program, machine)
    graph = dg.graph
    named = bounds(graph)
    steps = []
    if args.algorithm == "list":
        t0 = time.perf_counter()
        sched, steps = list_schedule_trace(dg, args.priority, lookahead=lookahead)
        seconds = time.perf_counter() - t0
        nodes = 0
        if "delay_slot" in sched.info:  # the slot filled: the rewritten block is scheduled
            dg = sched.graph.source
            program = dg.program
            named = bounds(sched.graph)
    elif args.algorithm == "improved":
        t0 = time.perf_counter()
        sched, steps = improved_schedule(graph, trace=True)
        seconds = time.perf_counter() - t0
        nodes = 0
    else:
        sched, _events = optimal_search(graph, time_limit=limit, engine=args.engine)
        seconds = sched.info["seconds"]
        nodes = sched.info["nodes"]
    bound = sched.info["lower_bound"]
    proven = bool(sched.info.get("proven_optimal")) or sched.length <= bound
    if args.json:
        data = dg.to_dict()
        data["schedule"] = {
            "algorithm": sched.algorithm,
            "order": list(sched.order),
            "issue": list(sched.start),
            "finish": list(sched.finish),
            "cycles": sched.length,
            "lower_bound": bound,
            "proven_optimal": proven,
            "nodes": nodes,
            "seconds": round(seconds, 6),
            "bounds": named,
        }
        if "delay_slot" in sched.info:
            data["schedule"]["delay_slot"] = sched.info["delay_slot"]
        if args.algorithm in ("list", "improved"):
            data["schedule"]["priority"] = sched.info["priority"]
            data["schedule"]["lookahead"] = sched.info["lookahead"]
        if args.algorithm == "improved":
            data["schedule"]["from"] = sched.info["from"]
            data["schedule"]["candidates"] = dict(sched.info["candidates"])
        if args.algorithm == "optimal":
            data["schedule"]["engine"] = args.engine
        print_json(data)
        return 0
    print(
        _("machine: {name} ({description})").format(
            name=machine.name, description=_(machine.description)
        )
    )
    if args.algorithm == "list":
        how = _(every[args.priority].heuristic)
        ahead = (
            _(", lookahead {lookahead} cycle(s)").format(lookahead=lookahead) if lookahead else ""
        )
        print(
            _("algorithm: list scheduling, priority {priority}{ahead}: {how}").format(
                priority=args.priority, ahead=ahead, how=how
            )
        )
    elif args.algorithm == "improved":
        tried = ", ".join(f"{k} {v}" for k, v in sched.info["candidates"].items())
        print(
            _(
                "algorithm: improved heuristic (best of several list schedules, "
                "forward-backward improvement, pilot method); won by {info}"
            ).format(info=_(sched.info["from"]))
        )
        print(_("candidates (cycles): {tried}").format(tried=tried))
    else:
        how = (
            _("OptSched-style: history domination, resource-constrained heads and tails")
            if args.engine == "optsched"
            else _("branch and bound over instruction orders")
        )
        print(_("algorithm: exhaustive optimal search ({how})").format(how=how))
    if "delay_slot" in sched.info:
        print(sched.info["delay_slot"])
    if args.trace and steps:
        print()
        for step in steps:
            ready = ", ".join(f"{instruction_label(i)}:{_num(v)}" for i, v in step.ready)
            print(_("  ready [{ready}]  {message}").format(ready=ready, message=step.message))
    print()
    rows = [
        [instruction_label(k), program[k].text, sched.start[k], sched.finish[k]]
        for k in sched.order
    ]
    print(format_table([_("instr"), _("text"), _("issue"), _("finish")], rows))
    print()
    print(
        _("lower bounds: {bounds}").format(bounds=", ".join(f"{k} {v}" for k, v in named.items()))
    )
    stopped = args.algorithm == "optimal" and sched.info.get("timed_out")
    if sched.length <= bound:  # meeting a lower bound proves it, searched or not
        status = _("proven optimal by the lower bound") if stopped else _("proven optimal")
    elif args.algorithm != "optimal":
        status = _("not proven optimal")
    elif stopped:
        status = _(
            "best found, not proven optimal: search stopped at the time limit "
            "({limit:g} s) or the size limit"
        ).format(limit=limit)
    else:
        status = _("proven optimal by the search")
    extra = _("; {nodes} search nodes").format(nodes=nodes) if args.algorithm == "optimal" else ""
    print(
        _("{length} cycles (lower bound {bound}; {status}{extra})").format(
            length=sched.length, bound=bound, status=status, extra=extra
        )
    )
    return 0


def _num(v) -> str:
    if isinstance(v, tuple):  # a tie-broken priority: (height, descendants), ...
        return "(" + ",".join(_num(x) for x in v) + ")"
    return str(int(v)) if float(v).is_integer() else f"{v:g}"
