"""``lecturekit memory``: training memory per GPU for any model and strategy.

Examples::

    lecturekit memory --preset gpt3                      # the lecture's table
    lecturekit memory --preset gpt3 --seq 8192 --tp 8 --sp --dp 64 --zero 3 \\
        --recompute selective --flash-attention
    lecturekit memory --hidden 4096 --layers 32 --heads 32 --seq 4096 --batch 8 --vocab 32000
    lecturekit memory --parameters 7e9 --dp 8 --zero 2  # model states alone
    lecturekit memory --preset llama3-8b --json
    lecturekit memory --preset mixtral-8x7b --dp 8 --ep 8 --zero 1      # experts sharded
    lecturekit memory --preset llama3-8b --seq 2000000 --batch 1 --tp 8 --sp --cp 8 \\
        --recompute full                                                # 200万 tokens

``--json`` prints ``parameters`` (count) and ``bytes`` (per GPU: ``parameters``, ``gradients``,
``optimizer``, ``activations``, ``activations_per_layer`` (one layer, one micro-batch), ``total``,
``cpu_offload``), plus the inputs; fields are only ever added. With ``--parameters`` the activation
fields are ``null``.
"""

from __future__ import annotations

from .. import validate
from ..errors import ConfigError
from ..language import _, ljust, pgettext
from ..llm import hardware
from ..llm.config import MAXIMA, PRESETS, ModelConfig, ParallelConfig, precision, preset
from ..llm.memory import GB, GIB, memory_report, model_state_bytes

_SHAPE = ("hidden", "layers", "heads", "seq", "batch", "vocab")
_VARIANTS = ("ffn", "kv_heads", "experts", "top_k", "mlp", "position", "norm")


def _count(text: str) -> int:
    """A parameter count: ``175000000000``, ``1.75e11`` or ``175B`` / ``7b`` / ``350M``."""
    return validate.parse_whole_count(text, "--parameters", 1, MAX_PARAMETERS)


#: the largest --parameters count (10^16: far beyond any model; keeps every figure exact)
MAX_PARAMETERS = 10**16


def _dim(name: str):
    return validate.cli_int(1, MAXIMA[name])


def register(sub) -> None:
    p = sub.add_parser(
        "memory",
        help=_("training memory per GPU: parameters, gradients, optimizer, activations"),
        description=_(
            "Training memory per GPU (the lecture's four consumers) for a preset or "
            "explicit model under mixed precision, ZeRO, tensor/sequence/pipeline parallelism, "
            "recomputation and flash attention. Every figure in GiB (2^30 B) and GB (10^9 B)."
        ),
    )
    m = p.add_argument_group(_("model (a preset, explicit shape, or --parameters)"))
    m.add_argument(
        "--preset",
        metavar="NAME",
        help=_("one of: {join} (default: none)").format(join=", ".join(PRESETS)),
    )
    m.add_argument(
        "--list-presets", action="store_true", help=_("list the presets and exit (default: off)")
    )
    shape_help = {
        "hidden": ("h", _("hidden size")),
        "layers": ("L", _("number of layers")),
        "heads": ("a", _("attention heads")),
        "seq": ("s", _("sequence length")),
        "batch": ("b", _("mini-batch size (sequences per step)")),
        "vocab": ("v", _("vocabulary size")),
    }
    for name, (metavar, text) in shape_help.items():
        m.add_argument(
            f"--{name}",
            type=_dim(name),
            metavar=metavar,
            help=_("{text}, 1..{maxima:,} (default: the preset's; required without one)").format(
                text=text, maxima=MAXIMA[name]
            ),
        )
    m.add_argument(
        "--ffn", type=_dim("ffn"), help=_("FFN inner size (default: the preset's, else 4h)")
    )
    m.add_argument(
        "--kv-heads",
        type=_dim("kv_heads"),
        help=_("key/value heads, grouped-query attention (default: the preset's, else = heads)"),
    )
    m.add_argument(
        "--experts",
        type=_dim("experts"),
        help=_("mixture of experts: number of experts (default: the preset's, else 1)"),
    )
    m.add_argument(
        "--top-k",
        type=_dim("top_k"),
        help=_("mixture of experts: experts per token (default: the preset's, else 1)"),
    )
    m.add_argument(
        "--mlp", choices=["gelu", "swiglu"], help=_("MLP kind (default: the preset's, else gelu)")
    )
    m.add_argument(
        "--position",
        choices=["learned", "rotary"],
        help=_("position embedding (default: the preset's, else learned)"),
    )
    m.add_argument(
        "--norm",
        choices=["layernorm", "rmsnorm"],
        help=_("normalization (default: the preset's, else layernorm)"),
    )
    m.add_argument(
        "--untied", action="store_true", help=_("separate output layer weights (default: tied)")
    )
    m.add_argument(
        "--parameters",
        metavar="N",
        help=_(
            "model states alone for N parameters (7e9, 7B, 350M; "
            "1..{max_parameters:.0e}; default: none, use a model)"
        ).format(max_parameters=MAX_PARAMETERS),
    )
    s = p.add_argument_group(_("strategy"))
    for name, text in (("dp", "data"), ("tp", "tensor"), ("pp", "pipeline")):
        s.add_argument(
            f"--{name}",
            type=_dim(name),
            default=1,
            help=_("{text}-parallel size, 1..{maxima:,} (default 1)").format(
                text=text, maxima=MAXIMA[name]
            ),
        )
    s.add_argument(
        "--cp",
        type=validate.cli_int(1, MAXIMA["seq"]),
        default=1,
        help=_(
            "context-parallel size: the sequence split over CP GPUs (ring attention or "
            "Ulysses), dividing the sequence; activations / CP (default 1)"
        ),
    )
    s.add_argument(
        "--ep",
        type=validate.cli_int(1, MAXIMA["experts"]),
        default=1,
        help=_(
            "expert-parallel size: a MoE model's experts split over EP of the dp x cp GPUs; "
            "divides --experts and dp x cp (default 1)"
        ),
    )
    s.add_argument(
        "--micro-batches",
        type=_dim("micro_batches"),
        default=1,
        metavar="M",
        help=_("micro-batches per replica (default 1)"),
    )
    s.add_argument(
        "--schedule",
        choices=["1f1b", "gpipe"],
        default="1f1b",
        help=_("pipeline schedule: micro-batches in flight per stage (default 1f1b)"),
    )
    s.add_argument(
        "--zero",
        type=validate.cli_int(0, 3),
        default=0,
        help=_("ZeRO stage 0-3 over --dp (default 0)"),
    )
    s.add_argument(
        "--offload",
        action="store_true",
        help=_("ZeRO-Offload: gradients and optimizer states in CPU memory (default: off)"),
    )
    s.add_argument(
        "--sp", action="store_true", help=_("sequence parallelism, with --tp (default: off)")
    )
    s.add_argument(
        "--recompute",
        choices=["none", "selective", "full"],
        default="none",
        help=_("activation recomputation: none, selective (attention) or full (default none)"),
    )
    s.add_argument(
        "--flash-attention",
        action="store_true",
        help=_("flash attention: no s x s attention matrix is kept (default: off)"),
    )
    s.add_argument(
        "--precision",
        choices=["lecture", "bf16", "fp16", "fp32"],
        default="lecture",
        help=_("lecture (= bf16 mixed with Adam, default), bf16/fp16 mixed, or fp32"),
    )
    s.add_argument(
        "--optimizer",
        choices=["adam", "adamw", "sgd", "adam8bit"],
        default="adam",
        help=_("optimizer, decides the optimizer states' bytes (default adam)"),
    )
    s.add_argument(
        "--gpu",
        default="A100-80GB",
        help=_("one of: {join} (default A100-80GB)").format(join=", ".join(hardware.GPUS)),
    )
    p.add_argument(
        "--json", action="store_true", help=_("print JSON, a stable contract (default: text)")
    )
    p.set_defaults(func=run)


def _model(args) -> ModelConfig:
    explicit = {f: getattr(args, f) for f in _SHAPE + _VARIANTS if getattr(args, f) is not None}
    if args.untied:
        explicit["tied_embeddings"] = False
    if args.preset is not None:
        return preset(args.preset).with_(**explicit)
    missing = [f"--{f}" for f in _SHAPE if f not in explicit]
    if missing:
        raise ConfigError(
            _("missing {join}: give --preset NAME, or all of {join2}, or --parameters N").format(
                join=", ".join(missing), join2=", ".join("--" + f for f in _SHAPE)
            )
        )
    return ModelConfig(name="custom", **explicit)


def _states_only(args, prec, gpu) -> int:
    if args.preset or any(getattr(args, f) is not None for f in _SHAPE + _VARIANTS):
        raise ConfigError(_("--parameters: give either a model (--preset/--hidden ...) or a count"))
    if args.cp != 1 or args.ep != 1:
        raise ConfigError(
            _("--cp/--ep: need a model shape (--preset or --hidden ...), not a count")
        )
    par = ParallelConfig(dp=args.dp, tp=args.tp, pp=args.pp, zero=args.zero, offload=args.offload)
    n = _count(args.parameters)
    per_gpu = -(-n // (par.tp * par.pp))  # assumes an even split over tp x pp
    st = model_state_bytes(per_gpu, prec, par.zero, par.dp, par.offload)
    total = st["parameters"] + st["gradients"] + st["optimizer"]
    job = total * par.world_size
    if args.json:
        _print_json(
            {
                "model": None,
                "parameters": n,
                "parameters_per_gpu": per_gpu,
                "precision": prec.name,
                "parallel": {"dp": par.dp, "tp": par.tp, "pp": par.pp, "zero": par.zero},
                "bytes": {
                    "parameters": st["parameters"],
                    "gradients": st["gradients"],
                    "optimizer": st["optimizer"],
                    "activations": None,
                    "activations_per_layer": None,
                    "total": total,
                    "cpu_offload": st["cpu"],
                },
                "job_bytes": job,
                "world_size": par.world_size,
                "note": _("model states only; activations need a model shape"),
            }
        )
        return 0
    print(
        _("parameters: Ψ = {n:,} ({per_gpu:,} per GPU over tp×pp = {value})").format(
            n=n, per_gpu=per_gpu, value=par.tp * par.pp
        )
    )
    print(
        _("precision: {name} ({bytes_per_param} bytes per parameter)").format(
            name=prec.name, bytes_per_param=prec.bytes_per_param
        )
    )
    print(
        _("strategy: dp={dp} tp={tp} pp={pp}, ZeRO-{zero}").format(
            dp=par.dp, tp=par.tp, pp=par.pp, zero=par.zero
        )
    )
    from ..llm.memory import consumer_label

    print(ljust(_("per GPU"), 24) + f"{'GiB (2^30 B)':>16}{'GB (10^9 B)':>16}")
    for name in ("parameters", "gradients", "optimizer"):
        label = ljust(consumer_label(name), 24)
        print(label + f"{st[name] / GIB:>16,.1f}{st[name] / GB:>16,.1f}")
    print(ljust(_("model states per GPU"), 24) + f"{total / GIB:>16,.1f}{total / GB:>16,.1f}")
    if st["cpu"]:
        cpu = ljust(_("(CPU: optimizer)"), 24)
        print(cpu + f"{st['cpu'] / GIB:>16,.1f}{st['cpu'] / GB:>16,.1f}")
    print(_("activations: not included (give a model shape)"))
    print(
        _("by memory alone (model states) the job needs >= {gpus_needed:,} x {name}").format(
            gpus_needed=hardware.gpus_needed(job, gpu), name=gpu.name
        )
    )
    return 0


def _print_json(data) -> None:
    from .common import print_json

    print_json(data)


def run(args) -> int:
    if args.list_presets:
        for name, m in PRESETS.items():
            print(f"{name:<14}{m.describe()}")
        return 0
    prec = precision(args.precision, args.optimizer)
    gpu = hardware.gpu(args.gpu)
    if args.parameters is not None:
        return _states_only(args, prec, gpu)
    model = _model(args)
    parallel = ParallelConfig(
        dp=args.dp,
        tp=args.tp,
        pp=args.pp,
        micro_batches=args.micro_batches,
        schedule=args.schedule,
        zero=args.zero,
        offload=args.offload,
        sp=args.sp,
        recompute=args.recompute,
        flash=args.flash_attention,
    )
    report = memory_report(model, parallel, prec, cp=args.cp, ep=args.ep)
    if args.json:
        data = report.as_dict()
        data["gpu"] = {
            "name": gpu.name,
            "memory_bytes": gpu.memory_bytes,
            "fits": report.fits(gpu),
            "needed_by_memory": report.gpus_needed(gpu),
        }
        _print_json(data)
        return 0
    par = parallel
    print(_("model: {name}  {describe}").format(name=model.name, describe=model.describe()))
    print(
        _(
            "parameters: Ψ = {parameter_count:,} ({parameter_count2:,} on the peak GPU before ZeRO)"
        ).format(
            parameter_count=report.parameter_count, parameter_count2=report.peak.parameter_count
        )
    )
    print(
        _(
            "strategy: dp={dp} tp={tp} pp={pp} micro-batches={micro_batches} "
            "({schedule}), ZeRO-{zero}{value}, sp={value2}, recompute={recompute}, "
            "flash attention={value3}"
        ).format(
            dp=par.dp,
            tp=par.tp,
            pp=par.pp,
            micro_batches=par.micro_batches,
            schedule=par.schedule,
            zero=par.zero,
            value=_(" + CPU offload") if par.offload else "",
            value2=pgettext("switch", "on") if par.sp else pgettext("switch", "off"),
            recompute=par.recompute,
            value3=pgettext("switch", "on") if par.flash else pgettext("switch", "off"),
        )
        + (f", cp={args.cp}" if args.cp > 1 else "")
        + (f", ep={args.ep}" if args.ep > 1 else "")
    )
    print(
        _("precision: {name} ({bytes_per_param} bytes per parameter)").format(
            name=prec.name, bytes_per_param=prec.bytes_per_param
        )
    )
    per_layer = report.activations_per_layer
    print(
        _(
            "micro-batch: {micro_batch} sequence(s); one layer saves {value:,.2f} "
            "GiB ({value2:,.2f} GB) per micro-batch; peak: stage {stage} with "
            "{in_flight} micro-batch(es) in flight"
        ).format(
            micro_batch=report.micro_batch,
            value=per_layer / GIB,
            value2=per_layer / GB,
            stage=report.peak.stage,
            in_flight=report.peak.in_flight,
        )
    )
    print()
    print(report.table(gpu))
    return 0
