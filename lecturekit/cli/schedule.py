"""``lecturekit schedule FILE``: a list schedule or the optimal schedule of a block.

Human output: issue and finish cycle per instruction (in issue order), the length, the lower
bound and whether the length is proven optimal. ``--json`` prints the ``deps`` contract
(``machine``, ``instructions``, ``edges``) plus ``schedule`` (``algorithm``, ``order``,
``issue``, ``finish``, ``cycles``, ``lower_bound``, ``proven_optimal``, ``nodes``,
``seconds``, ``bounds``; for list scheduling also ``priority``).
"""

from __future__ import annotations

import math
import time

from ..core.bounds import bounds
from ..core.list_sched import PRIORITIES, list_schedule_trace
from ..core.optimal import optimal_search
from ..deps import analyze, instruction_label
from ..errors import LectureKitError
from .common import add_block_arguments, format_table, load_block, print_json


def register(sub) -> None:
    p = sub.add_parser(
        "schedule",
        help="list scheduling or exhaustive optimal scheduling of a block",
        description="Schedule a block: list scheduling with a priority (the lecture's "
        "heuristics) or branch and bound to the proven optimum.",
    )
    add_block_arguments(p)
    p.add_argument(
        "--algorithm",
        "-a",
        choices=["list", "optimal"],
        default="list",
        help="list scheduling or the exhaustive optimal search (default list)",
    )
    p.add_argument(
        "--priority",
        "-p",
        default="height",
        metavar="NAME",
        help=f"list-scheduling priority: {', '.join(PRIORITIES)} (default: height)",
    )
    p.add_argument(
        "--time-limit",
        "-t",
        default="10",
        metavar="S",
        help="seconds the optimal search may take before returning its best (default: 10)",
    )
    p.add_argument(
        "--trace",
        action="store_true",
        help="with --algorithm list: print the ready list and the choice of every cycle "
        "(default: off)",
    )
    p.set_defaults(func=run)


def _time_limit(text: str) -> float:
    if len(text) > 40:
        raise LectureKitError(f"--time-limit takes a number of seconds, got {text[:40]!r}...")
    try:
        value = float(text)
    except ValueError:
        raise LectureKitError(f"--time-limit takes a number of seconds, got {text!r}") from None
    if not math.isfinite(value) or value < 0:
        raise LectureKitError(f"--time-limit must be a non-negative number of seconds, got {text}")
    return value


def run(args) -> int:
    if args.priority not in PRIORITIES:
        raise LectureKitError(
            f"unknown priority {args.priority!r}; choose one of {', '.join(PRIORITIES)}"
        )
    limit = _time_limit(args.time_limit)
    program, machine = load_block(args)
    dg = analyze(program, machine)
    graph = dg.graph
    named = bounds(graph)
    steps = []
    if args.algorithm == "list":
        t0 = time.perf_counter()
        sched, steps = list_schedule_trace(graph, args.priority)
        seconds = time.perf_counter() - t0
        nodes = 0
    else:
        sched, _events = optimal_search(graph, time_limit=limit)
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
        if args.algorithm == "list":
            data["schedule"]["priority"] = sched.info["priority"]
        print_json(data)
        return 0
    print(f"machine: {machine.name} ({machine.description})")
    if args.algorithm == "list":
        how = PRIORITIES[args.priority].heuristic
        print(f"algorithm: list scheduling, priority {args.priority}: {how}")
    else:
        print("algorithm: exhaustive optimal search (branch and bound over instruction orders)")
    if args.trace and steps:
        print()
        for step in steps:
            ready = ", ".join(f"{instruction_label(i)}:{_num(v)}" for i, v in step.ready)
            print(f"  ready [{ready}]  {step.message}")
    print()
    rows = [
        [instruction_label(k), program[k].text, sched.start[k], sched.finish[k]]
        for k in sched.order
    ]
    print(format_table(["instr", "text", "issue", "finish"], rows))
    print()
    print("lower bounds: " + ", ".join(f"{k} {v}" for k, v in named.items()))
    stopped = args.algorithm == "optimal" and sched.info.get("timed_out")
    if sched.length <= bound:  # meeting a lower bound proves it, searched or not
        status = "proven optimal" + (" by the lower bound" if stopped else "")
    elif args.algorithm == "list":
        status = "not proven optimal"
    elif stopped:
        status = (
            f"best found, not proven optimal: search stopped at the time limit ({limit:g} s) "
            "or the size limit"
        )
    else:
        status = "proven optimal by the search"
    extra = f"; {nodes} search nodes" if args.algorithm == "optimal" else ""
    print(f"{sched.length} cycles (lower bound {bound}; {status}{extra})")
    return 0


def _num(v) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"
