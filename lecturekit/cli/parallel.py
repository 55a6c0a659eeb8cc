"""``lecturekit parallel``: pipeline-parallel schedules and 3D-parallel plans.

Examples::

    lecturekit parallel pipeline --schedule 1f1b -p 4 -m 8            # timeline as text
    lecturekit parallel pipeline --schedule interleaved -p 4 -m 8 --v 2 --tf 2 --tb 2 --tw 2
    lecturekit parallel pipeline --schedule zb-h1 -p 4 -m 8 --json
    lecturekit parallel pipeline --compare -p 4 -m 8                  # every schedule, a table
    lecturekit parallel plan --preset gpt3 --gpus 1024 --tokens 300e9
    lecturekit parallel plan --preset gpt3 --batch 1536 --gpus 1024 --json
    lecturekit parallel plan --preset mixtral-8x7b --gpus 64 --ep 1,2,4,8
    lecturekit parallel plan --preset llama3-8b --seq 2000000 --batch 1 --gpus 64 --cp 1,8,64
    lecturekit parallel layout --dp 2 --pp 4 --tp 4                   # the lecture's 32 GPUs
    lecturekit parallel layout --dp 4 --pp 1 --tp 2 --cp 2 --ep 4 --gpus-per-node 8   # 5D
    lecturekit parallel estimate --days 34                            # utilisation for 34 days

``pipeline --json`` prints ``schedule``, ``p``, ``m``, ``v``, ``makespan``, ``bubble_fraction``,
``peak_in_flight`` (per device), ``devices`` (per device: ``busy``, ``idle`` and ``ops`` with
``op``, ``kind``, ``micro``, ``stage``, ``chunk``, ``start``, ``finish``) and more; ``plan --json``
prints ``plans`` (``dp``, ``tp``, ``pp``, ``cp``, ``ep``, ``zero``, ``micro_batches``,
``recompute``, ``memory_gib``, ``fits``, ``seconds`` (with ``cp`` and ``ep``), ``mfu``).
Fields are only ever added.
Durations are whole time units (``--tf``, ``--tb``, ``--tw``, ``--comm``).
"""

from __future__ import annotations

from .. import validate
from ..errors import ConfigError
from ..language import N_, _, ljust, rjust
from ..llm.config import MAXIMA, PRESETS
from ..llm.planner import MAX_GPUS, MAX_GPUS_PER_NODE, MAX_LAYOUT_GPUS

_SCHEDULE_HELP = N_(
    "naive, gpipe, pipedream, 1f1b (= dapple), 1f1b-eager (the 2023 slide's figure), "
    "interleaved, zb-h1, zb-h2, looped-bfs, interleaved-zb, zb-v, v-half, v-min, dualpipev "
    "(V placement), "
    "dualpipe (two directions: p even, m even >= 2p)"
)


#: the longest pass duration (time units); p, m and the number of passes are checked by
#: lecturekit.llm.pipeline_parallel
MAX_DURATION = 10**6


#: widest text timeline printed (columns = time units)
TIMELINE_COLUMNS = 400


def _positive(text: str, name: str) -> float:
    """A finite number > 0 written as 300e9, 300B, 2.5e11, ... (at most 10^30)."""
    value = validate.parse_count(text, name, 0, 1e30)
    if value <= 0:
        raise ConfigError(
            _("{name}: must be greater than 0, got {text!r}").format(name=name, text=text)
        )
    return value


def _int(minimum, maximum):
    return validate.cli_int(minimum, maximum)


def register(sub) -> None:
    par = sub.add_parser(
        "parallel",
        help=_("pipeline-parallel schedules (GPipe, 1F1B, zero bubble, ...) and 3D-parallel plans"),
        description=_(
            "Parallel training of large models: pipeline schedules evaluated on the "
            "same scheduling core as instruction orders, DP x TP x PP plans, rank layouts."
        ),
    )
    psub = par.add_subparsers(dest="parallel_command", metavar="WHAT")
    psub.required = True

    pp = psub.add_parser(
        "pipeline",
        help=_("one pipeline schedule: timeline, makespan, bubble, activations in flight"),
        description=_(
            "Build the F/B(/W) passes of one training step, run a schedule's per-device "
            "op lists on the scheduling core, verify it, and print the timeline and figures. "
            "Durations are whole time units."
        ),
    )
    pp.add_argument(
        "--schedule",
        default="1f1b",
        metavar="NAME",
        help=_("{schedules} (default 1f1b)").format(schedules=_(_SCHEDULE_HELP)),
    )
    pp.add_argument(
        "-p",
        type=_int(None, None),
        default=4,
        help=_("pipeline stages = devices, 1..64 (default 4)"),
    )
    pp.add_argument(
        "-m",
        type=_int(None, None),
        default=8,
        help=_("micro-batches per step (default 8)"),
    )
    pp.add_argument(
        "--v",
        type=_int(1, 64),
        default=None,
        help=_(
            "model chunks per device, interleaved, interleaved-zb and looped-bfs only, 1..64 "
            "(default 2 for them; zb-v and dualpipev always place 2 per device in a V)"
        ),
    )
    dur = _int(0, MAX_DURATION)
    pp.add_argument(
        "--tf",
        type=dur,
        help=_(
            "forward time T_F (default 1; v for interleaved, interleaved-zb, looped-bfs and 2 for "
            "the V "
            "placements: zb-v, v-half, v-min, dualpipev)"
        ),
    )
    pp.add_argument(
        "--tb", type=dur, help=_("backward (input-gradient) time T_B (default: as T_F)")
    )
    pp.add_argument("--tw", type=dur, help=_("weight-gradient time T_W (default: as T_F)"))
    pp.add_argument("--comm", type=dur, default=0, help=_("latency between devices (default 0)"))
    pp.add_argument(
        "--gpipe-backward",
        choices=("newest", "oldest"),
        default="newest",
        help=_(
            "GPipe's backward order: newest micro-batch first as in the GPipe figure, or "
            "oldest first as PyTorch's ScheduleGPipe (default newest)"
        ),
    )
    pp.add_argument(
        "--all-forwards-first",
        action="store_true",
        help=_(
            "interleaved with m = p: every forward first, as Megatron-LM before late 2024 "
            "(default: off, interleave from the start as current Megatron-LM and PyTorch)"
        ),
    )
    pp.add_argument(
        "--calls",
        action="store_true",
        help=_(
            "dualpipe, dualpipev: run the reference implementation's calls as units (a full "
            "backward sends its gradient after the weight gradient; a paired forward and backward "
            "waits for both inputs and sends both outputs at its end) (default: off)"
        ),
    )
    pp.add_argument(
        "--paired",
        type=_int(1, 3 * MAX_DURATION),
        default=None,
        metavar="F&B",
        help=_(
            "dualpipe, dualpipev with --calls: the time of a forward paired with a full "
            "backward when their computation and communication overlap (DeepSeek-V3's F&B; "
            "between T_B + T_W + 1 and T_F + T_B + T_W) (default: T_F + T_B + T_W, no overlap)"
        ),
    )
    pp.add_argument(
        "--import",
        dest="import_file",
        metavar="FILE",
        default=None,
        help=_(
            "evaluate an order in PyTorch's pipelining notation instead of --schedule: one "
            "rank a line (0F0 0F1 1I0 0W2 ...), PyTorch's CSV or its printed grid; p, m, stages "
            "and placement come from the file; durations default to the stages per rank "
            "(default: none)"
        ),
    )
    pp.add_argument(
        "--compare", action="store_true", help=_("run every schedule, print a table (default: off)")
    )
    pp.add_argument(
        "--json", action="store_true", help=_("print JSON, a stable contract (default: text)")
    )
    pp.set_defaults(func=run_pipeline)

    pl = psub.add_parser(
        "plan",
        help=_("DP x TP x PP (x ZeRO) layouts that fit, with an estimated step time"),
        description=_(
            "List the 3D-parallel layouts of a model on a cluster that fit in GPU "
            "memory, fastest first, with the step time split into compute, pipeline bubble and "
            "tensor/pipeline/data-parallel communication."
        ),
    )
    pl.add_argument(
        "--preset",
        default="gpt3",
        help=_("model: one of {presets} (default gpt3)").format(presets=", ".join(PRESETS)),
    )
    pl.add_argument(
        "--batch",
        type=_int(1, MAXIMA["batch"]),
        help=_("sequences per step (default: the preset's)"),
    )
    pl.add_argument(
        "--seq", type=_int(1, MAXIMA["seq"]), help=_("sequence length (default: the preset's)")
    )
    pl.add_argument(
        "--gpus",
        type=_int(1, MAX_GPUS),
        default=1024,
        help=_("GPUs, 1..{max_gpus:,} (default 1024)").format(max_gpus=MAX_GPUS),
    )
    pl.add_argument(
        "--gpus-per-node",
        type=_int(1, MAX_GPUS_PER_NODE),
        default=8,
        help=_("GPUs per node (default 8)"),
    )
    pl.add_argument(
        "--gpu", default="A100-80GB", help=_("GPU type, memory and peak FLOP/s (default A100-80GB)")
    )
    pl.add_argument(
        "--intra-bw", default="300e9", help=_("bytes/s per GPU inside a node (default 300e9)")
    )
    pl.add_argument(
        "--inter-bw", default="25e9", help=_("bytes/s per GPU between nodes (default 25e9)")
    )
    pl.add_argument(
        "--efficiency",
        type=validate.cli_float(0, 1),
        default=0.5,
        help=_("fraction of peak FLOP/s, in (0, 1] (default 0.5)"),
    )
    pl.add_argument(
        "--dp-overlap",
        type=validate.cli_float(0, 1),
        default=0.0,
        help=_("fraction of DP communication hidden, 0..1 (default 0)"),
    )
    pl.add_argument(
        "--cp",
        default="1",
        metavar="LIST",
        help=_(
            "context-parallel degrees to try, comma-separated, each dividing the sequence "
            "(e.g. 1,2,4,8; default 1: no context parallelism)"
        ),
    )
    pl.add_argument(
        "--cp-kind",
        choices=("ring", "ulysses"),
        default="ring",
        help=_("context parallelism by ring attention or Ulysses all-to-all (default ring)"),
    )
    pl.add_argument(
        "--ep",
        default=None,
        metavar="LIST",
        help=_(
            "expert-parallel degrees to try, comma-separated, each dividing the experts and "
            "dp x cp (default: every divisor of a MoE model's experts; 1 for a dense model)"
        ),
    )
    pl.add_argument(
        "--experts",
        type=_int(1, MAXIMA["experts"]),
        help=_("mixture of experts: experts per layer (default: the preset's)"),
    )
    pl.add_argument(
        "--top-k",
        type=_int(1, MAXIMA["top_k"]),
        help=_("mixture of experts: experts per token (default: the preset's)"),
    )
    pl.add_argument(
        "--tokens", default=None, help=_("training tokens, for days (e.g. 300e9; default: none)")
    )
    pl.add_argument(
        "--limit", type=_int(0, 10**6), default=12, help=_("rows to print, 0 = all (default 12)")
    )
    pl.add_argument(
        "--all", action="store_true", help=_("also layouts that do not fit (default: off)")
    )
    pl.add_argument(
        "--json", action="store_true", help=_("print JSON, a stable contract (default: text)")
    )
    pl.set_defaults(func=run_plan)

    lay = psub.add_parser(
        "layout",
        help=_("which GPU is which data replica / pipeline stage / tensor partition"),
        description=_(
            "The rank grid of a 3D-parallel job (tensor ranks fastest, then data, "
            "then pipeline), or a 5D one with --cp and --ep (Megatron-LM's order "
            "tp-cp-ep-dp-pp). Default: the lecture's 2 x 4 x 4 on 8 nodes of 4 "
            "GPUs. At most {max_layout_gpus:,} GPUs."
        ).format(max_layout_gpus=MAX_LAYOUT_GPUS),
    )
    lay.add_argument(
        "--dp", type=_int(1, MAX_LAYOUT_GPUS), default=2, help=_("data-parallel size (default 2)")
    )
    lay.add_argument(
        "--pp", type=_int(1, MAX_LAYOUT_GPUS), default=4, help=_("pipeline stages (default 4)")
    )
    lay.add_argument(
        "--tp", type=_int(1, MAX_LAYOUT_GPUS), default=4, help=_("tensor-parallel size (default 4)")
    )
    lay.add_argument(
        "--gpus-per-node",
        type=_int(1, MAX_GPUS_PER_NODE),
        default=4,
        help=_("GPUs per node (default 4)"),
    )
    lay.add_argument(
        "--cp",
        type=_int(1, MAX_LAYOUT_GPUS),
        default=1,
        help=_("context-parallel size (default 1; Megatron-LM's order tp-cp-ep-dp-pp)"),
    )
    lay.add_argument(
        "--ep",
        type=_int(1, MAX_LAYOUT_GPUS),
        default=1,
        help=_("expert-parallel size, dividing dp x cp (default 1)"),
    )
    lay.add_argument(
        "--json", action="store_true", help=_("print JSON, a stable contract (default: text)")
    )
    lay.set_defaults(func=run_layout)

    est = psub.add_parser(
        "estimate",
        help=_("training days from C = 6ΨD, or the utilisation that gives a number of days"),
        description=_(
            "Days to train = 6ΨD / (GPUs x peak x utilisation). Default: the slide's "
            "GPT-3 175B on 300B tokens with 1024 A100."
        ),
    )
    est.add_argument(
        "--parameters",
        default="175e9",
        help=_("model parameters Ψ, e.g. 175e9 or 175B (default 175e9)"),
    )
    est.add_argument(
        "--tokens", default="300e9", help=_("training tokens D, e.g. 300e9 (default 300e9)")
    )
    est.add_argument(
        "--gpus", type=_int(1, MAX_GPUS), default=1024, help=_("number of GPUs (default 1024)")
    )
    est.add_argument(
        "--gpu", default="A100-80GB", help=_("GPU type, its peak FLOP/s (default A100-80GB)")
    )
    est.add_argument(
        "--utilisation",
        type=validate.cli_float(0, 1),
        default=None,
        help=_("fraction of peak FLOP/s, in (0, 1] (default 0.5 unless --days)"),
    )
    est.add_argument(
        "--days",
        type=validate.cli_float(0, 1e9),
        default=None,
        help=_("solve for the utilisation that trains in this many days (default: none)"),
    )
    est.add_argument(
        "--recompute", action="store_true", help=_("8ΨD, forward recomputed (default: off, 6ΨD)")
    )
    est.add_argument(
        "--json", action="store_true", help=_("print JSON, a stable contract (default: text)")
    )
    est.set_defaults(func=run_estimate)


def _print_json(data) -> None:
    from .common import print_json

    print_json(data)


def _default_durations(args) -> None:
    """Unset durations default to 1, or to v when an interleaved schedule runs (each of the v
    chunks then takes one time unit)."""
    from ..llm.pipeline_parallel import resolve_schedule

    chunked = args.compare or resolve_schedule(args.schedule) in (
        "interleaved",
        "looped-bfs",
        "interleaved-zb",
        "zb-v",
        "v-half",
        "v-min",
        "dualpipev",
    )
    unit = (args.v or 2) if chunked else 1
    for k in ("tf", "tb", "tw"):
        if getattr(args, k) is None:
            setattr(args, k, unit)


def _timeline(run) -> str:
    """The text timeline, or, when it is wider than the text view allows (p = 32, m = 256),
    one line saying so: the figures that follow it do not depend on it."""
    from ..viz.timeline import timeline_text

    width = run.last - run.first + 1  # as viz.timeline.grid lays it out
    if width > TIMELINE_COLUMNS:
        return _(
            "(timeline not shown: {width} time units, more than the text view's "
            "{timeline_columns} columns; --json gives every pass's start)"
        ).format(width=width, timeline_columns=TIMELINE_COLUMNS)
    return timeline_text(run, max_width=TIMELINE_COLUMNS)


def run_pipeline(args) -> int:
    from ..llm.pipeline_parallel import compare_schedules, deepseek_bubble, pipeline_schedule

    if getattr(args, "import_file", None):
        run = _imported(args)
        if args.json:
            _print_json(run.to_dict())
            return 0
        print(_timeline(run))
        print(
            _("makespan {makespan} (lower bounds: {lower_bounds}), ideal {ideal}").format(
                makespan=run.makespan, lower_bounds=run.lower_bounds, ideal=run.ideal
            )
        )
        print(
            _("peak micro-batches in flight per device: {peaks}").format(
                peaks=", ".join(str(x) for x in run.summary()["peak_in_flight"])
            )
        )
        return 0
    _default_durations(args)

    if args.compare:
        _check_compare(args)
        runs = compare_schedules(args.p, args.m, args.v or 2, args.tf, args.tb, args.tw, args.comm)
        if args.json:
            _print_json({"schedules": [r.summary() for r in runs]})
            return 0
        print(
            _("p={p} m={m}; T_F={tf} T_B={tb} T_W={tw} comm={comm} (interleaved: v={v})").format(
                p=args.p,
                m=args.m,
                tf=args.tf,
                tb=args.tb,
                tw=args.tw,
                comm=args.comm,
                v=args.v or 2,
            )
        )
        print(
            ljust(_("schedule"), 12)
            + rjust(_("makespan"), 9)
            + rjust(_("bubble"), 8)
            + rjust(_("peak in flight per device"), 28)
        )
        for r in runs:
            peaks = " ".join(str(x) for x in r.summary()["peak_in_flight"])
            print(f"{r.name:<12}{r.makespan:>9}{r.bubble_fraction:>8.1%}   {peaks}")
        return 0
    run = pipeline_schedule(
        args.schedule,
        args.p,
        args.m,
        args.v,
        args.tf,
        args.tb,
        args.tw,
        args.comm,
        gpipe_backward=args.gpipe_backward,
        all_forwards_first=args.all_forwards_first,
        calls=args.calls,
        paired=args.paired,
    )
    if args.json:
        _print_json(run.to_dict())
        return 0
    print(_timeline(run))
    print(
        _("makespan {makespan} (lower bounds: {lower_bounds}), ideal {ideal}").format(
            makespan=run.makespan, lower_bounds=run.lower_bounds, ideal=run.ideal
        )
    )
    print(
        _(
            "bubble {bubble_fraction:.1%} of p x makespan; bubble / ideal = {bubble_over_ideal:.3f}"
        ).format(bubble_fraction=run.bubble_fraction, bubble_over_ideal=run.bubble_over_ideal)
    )
    print(
        _("peak micro-batches in flight per device: {peaks}").format(
            peaks=", ".join(str(x) for x in run.summary()["peak_in_flight"])
        )
    )
    if run.pg.split:
        print(
            _("kept until W per device: {held}").format(
                held=", ".join(str(x) for x in run.summary()["peak_held"])
            )
        )
    ours = max(run.idle(d) for d in range(run.p))
    theirs = deepseek_bubble(run.name, run.p, run.timing) if run.pg.calls else None
    if theirs is not None:
        print(
            _(
                "most idle device: {ours} time units; DeepSeek-V3's (PP/2 - 1)(F&B + B "
                "- 3W) = {fraction}"
            ).format(ours=ours, fraction=_fraction(theirs))
        )
    if run.note:
        print(_("note: {note}").format(note=run.note))
    return 0


def _fraction(x) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{float(x):g}"


def _imported(args):
    """``--import FILE``: PyTorch's action notation, evaluated on the core."""
    from ..errors import ScheduleError
    from ..llm.pipeline_parallel import Timing
    from ..llm.pipeline_parallel.torch_interchange import import_torch, read_torch_file

    if args.compare:
        raise ScheduleError(_("--import evaluates one order: it cannot be combined with --compare"))
    order = read_torch_file(args.import_file)
    timing = None
    if args.tf is not None or args.tb is not None or args.tw is not None:
        tf = args.tf if args.tf is not None else (args.tb or args.tw)
        tb = args.tb if args.tb is not None else tf
        tw = args.tw if args.tw is not None else tf
        timing = Timing(tf, tb, tw, args.comm)
    return import_torch(order, timing, name=f"import {args.import_file}", comm=args.comm)


def _check_compare(args) -> None:
    from ..errors import ScheduleError

    v = args.v or 2
    for name, d in (("--tf", args.tf), ("--tb + --tw", args.tb + args.tw)):  # i18n: as is
        if d % v:
            raise ScheduleError(
                _(
                    "--compare runs the interleaved schedule with v={v}: {name} = {d} must "
                    "be divisible by {v} (e.g. --tf {v} --tb {v} --tw {v})"
                ).format(v=v, name=name, d=d)
            )


def _degrees(text: str, flag: str) -> list[int]:
    """``1,2,4`` -> [1, 2, 4]: parallel degrees, each a whole number 1..MAX_GPUS."""
    out = []
    for part in text.split(","):
        part = part.strip()
        if not part.isdigit() or not 1 <= int(part) <= MAX_GPUS:
            raise ConfigError(
                _(
                    "{flag}: {part!r} is not a degree; give whole numbers 1..{max_gpus:,} "
                    "separated by commas, e.g. 1,2,4"
                ).format(flag=flag, part=part, max_gpus=MAX_GPUS)
            )
        out.append(int(part))
    return out


def run_plan(args) -> int:
    from ..llm.config import preset
    from ..llm.planner import Cluster, plan, plan_table

    model = preset(args.preset)
    keys = ("batch", "seq", "experts", "top_k")
    changes = {k: getattr(args, k) for k in keys if getattr(args, k) is not None}
    if changes:
        model = model.with_(**changes)
    cps = _degrees(args.cp, "--cp")
    eps = _degrees(args.ep, "--ep") if args.ep is not None else None
    cluster = Cluster(
        gpus=args.gpus,
        gpus_per_node=args.gpus_per_node,
        gpu=args.gpu,
        intra_bandwidth=_positive(args.intra_bw, "--intra-bw"),
        inter_bandwidth=_positive(args.inter_bw, "--inter-bw"),
    )
    plans = plan(
        model,
        cluster,
        efficiency=args.efficiency,
        dp_overlap=args.dp_overlap,
        cp_options=cps,
        ep_options=eps,
        cp_kind=args.cp_kind,
        all_layouts=args.all,
    )
    tokens = _positive(args.tokens, "--tokens") if args.tokens is not None else None
    if args.json:
        rows = []
        for p in plans[: args.limit or None]:
            d = p.as_dict()
            if tokens:
                d["days"] = p.days(tokens)
            rows.append(d)
        _print_json(
            {
                "model": model.name,
                "batch": model.batch,
                "seq": model.seq,
                "gpus": cluster.gpus,
                "gpus_per_node": cluster.gpus_per_node,
                "gpu": cluster.gpu,
                "efficiency": args.efficiency,
                "tokens": tokens,
                "cp_kind": args.cp_kind,
                "plans": rows,
            }
        )
        return 0
    print(
        _(
            "{name} ({describe}) on {gpus} x {gpu}, {gpus_per_node} per node; "
            "compute at {efficiency:.0%} of peak"
        ).format(
            name=model.name,
            describe=model.describe(),
            gpus=cluster.gpus,
            gpu=cluster.gpu,
            gpus_per_node=cluster.gpus_per_node,
            efficiency=args.efficiency,
        )
    )
    if not plans:
        kw = {"cp_options": cps, "ep_options": eps, "cp_kind": args.cp_kind}
        if args.all or not plan(model, cluster, efficiency=args.efficiency, all_layouts=True, **kw):
            print(
                _(
                    "no dp x tp x pp split of {gpus} GPUs matches the model: tp must "
                    "divide --gpus-per-node ({gpus_per_node}) and the heads ({heads}), pp "
                    "the layers ({layers}), dp the batch ({batch}); try a GPU count like "
                    "8, 64 or 1024"
                ).format(
                    gpus=cluster.gpus,
                    gpus_per_node=cluster.gpus_per_node,
                    heads=model.heads,
                    layers=model.layers,
                    batch=model.batch,
                )
            )
        else:
            print(_("no layout fits in memory (try more GPUs, --all to see why)"))
        return 0
    print(plan_table(plans, tokens, args.limit))
    return 0


def run_layout(args) -> int:
    from ..llm.planner import rank_layout

    lay = rank_layout(args.dp, args.pp, args.tp, args.gpus_per_node, args.cp, args.ep)
    five = lay.cp > 1 or lay.ep > 1
    if args.json:
        _print_json(
            {
                "dp": lay.dp,
                "pp": lay.pp,
                "tp": lay.tp,
                "gpus_per_node": lay.gpus_per_node,
                "cp": lay.cp,
                "ep": lay.ep,
                "ranks": [
                    {"rank": r, "dp": d, "pp": s, "tp": t, "node": n}
                    | ({"cp": lay.context_of(r), "ep": lay.expert_of(r)} if five else {})
                    for r, (d, s, t, n) in enumerate(lay.ranks)
                ],
                "groups": lay.all_groups()
                if five
                else {k: lay.groups(k) for k in ("tensor", "pipeline", "data")},
                "tensor_groups_in_one_node": lay.tensor_groups_in_one_node(),
            }
        )
        return 0
    cp = f" x cp={lay.cp}" if five else ""
    ep = f", ep={lay.ep}" if lay.ep > 1 else ""
    print(
        _(
            "dp={dp} x pp={pp} x tp={tp}{cp} = {world_size} GPUs{ep}, {gpus_per_node} per node"
        ).format(
            dp=lay.dp,
            pp=lay.pp,
            tp=lay.tp,
            cp=cp,
            world_size=lay.world_size,
            ep=ep,
            gpus_per_node=lay.gpus_per_node,
        )
    )
    print(lay.text())
    if lay.tensor_groups_in_one_node():
        print(_("tensor-parallel groups are inside one node"))
    else:
        print(_("tensor-parallel groups are ACROSS nodes"))
    return 0


def run_estimate(args) -> int:
    from ..llm.planner import days_to_train, utilisation_for_days

    psi = _positive(args.parameters, "--parameters")
    tokens = _positive(args.tokens, "--tokens")
    if args.days is not None and args.utilisation is not None:
        raise ConfigError(_("give --days or --utilisation, not both"))
    flops = (8 if args.recompute else 6) * psi * tokens
    if args.days is not None:
        u = utilisation_for_days(
            args.days, psi, tokens, args.gpus, gpu=args.gpu, recompute=args.recompute
        )
        days = args.days
    else:
        u = args.utilisation if args.utilisation is not None else 0.5
        days = days_to_train(psi, tokens, args.gpus, u, gpu=args.gpu, recompute=args.recompute)
    from ..llm.hardware import gpu

    peak = gpu(args.gpu).peak_fp16_flops
    if args.json:
        _print_json(
            {
                "parameters": psi,
                "tokens": tokens,
                "flops": flops,
                "gpus": args.gpus,
                "gpu": args.gpu,
                "peak_flops": peak,
                "utilisation": u,
                "achieved_flops_per_gpu": u * peak,
                "days": days,
            }
        )
        return 0
    c = "8ΨD" if args.recompute else "6ΨD"
    print(
        _("C = {c} = {flops:.3e} FLOPs; {gpus} x {gpu} at {peak:.1f} TFLOP/s").format(
            c=c, flops=flops, gpus=args.gpus, gpu=args.gpu, peak=peak / 1e12
        )
    )
    print(
        _("utilisation {u:.1%} ({achieved:.1f} TFLOP/s per GPU) -> {days:.1f} days").format(
            u=u, achieved=u * peak / 1e12, days=days
        )
    )
    return 0
