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
        help="training memory per GPU: parameters, gradients, optimizer, activations",
        description="Training memory per GPU (the lecture's four consumers) for a preset or "
        "explicit model under mixed precision, ZeRO, tensor/sequence/pipeline parallelism, "
        "recomputation and flash attention. Every figure in GiB (2^30 B) and GB (10^9 B).",
    )
    m = p.add_argument_group("model (a preset, explicit shape, or --parameters)")
    m.add_argument("--preset", metavar="NAME", help=f"one of: {', '.join(PRESETS)} (default: none)")
    m.add_argument(
        "--list-presets", action="store_true", help="list the presets and exit (default: off)"
    )
    shape_help = {
        "hidden": ("h", "hidden size"),
        "layers": ("L", "number of layers"),
        "heads": ("a", "attention heads"),
        "seq": ("s", "sequence length"),
        "batch": ("b", "mini-batch size (sequences per step)"),
        "vocab": ("v", "vocabulary size"),
    }
    for name, (metavar, text) in shape_help.items():
        m.add_argument(
            f"--{name}",
            type=_dim(name),
            metavar=metavar,
            help=f"{text}, 1..{MAXIMA[name]:,} (default: the preset's; required without one)",
        )
    m.add_argument(
        "--ffn", type=_dim("ffn"), help="FFN inner size (default: the preset's, else 4h)"
    )
    m.add_argument(
        "--kv-heads",
        type=_dim("kv_heads"),
        help="key/value heads, grouped-query attention (default: the preset's, else = heads)",
    )
    m.add_argument(
        "--experts",
        type=_dim("experts"),
        help="mixture of experts: number of experts (default: the preset's, else 1)",
    )
    m.add_argument(
        "--top-k",
        type=_dim("top_k"),
        help="mixture of experts: experts per token (default: the preset's, else 1)",
    )
    m.add_argument(
        "--mlp", choices=["gelu", "swiglu"], help="MLP kind (default: the preset's, else gelu)"
    )
    m.add_argument(
        "--position",
        choices=["learned", "rotary"],
        help="position embedding (default: the preset's, else learned)",
    )
    m.add_argument(
        "--norm",
        choices=["layernorm", "rmsnorm"],
        help="normalization (default: the preset's, else layernorm)",
    )
    m.add_argument(
        "--untied", action="store_true", help="separate output layer weights (default: tied)"
    )
    m.add_argument(
        "--parameters",
        metavar="N",
        help=f"model states alone for N parameters (7e9, 7B, 350M; 1..{MAX_PARAMETERS:.0e}; "
        "default: none, use a model)",
    )
    s = p.add_argument_group("strategy")
    for name, text in (("dp", "data"), ("tp", "tensor"), ("pp", "pipeline")):
        s.add_argument(
            f"--{name}",
            type=_dim(name),
            default=1,
            help=f"{text}-parallel size, 1..{MAXIMA[name]:,} (default 1)",
        )
    s.add_argument(
        "--cp",
        type=validate.cli_int(1, MAXIMA["seq"]),
        default=1,
        help="context-parallel size: the sequence split over CP GPUs (ring attention or "
        "Ulysses), dividing the sequence; activations / CP (default 1)",
    )
    s.add_argument(
        "--ep",
        type=validate.cli_int(1, MAXIMA["experts"]),
        default=1,
        help="expert-parallel size: a MoE model's experts split over EP of the dp x cp GPUs; "
        "divides --experts and dp x cp (default 1)",
    )
    s.add_argument(
        "--micro-batches",
        type=_dim("micro_batches"),
        default=1,
        metavar="M",
        help="micro-batches per replica (default 1)",
    )
    s.add_argument(
        "--schedule",
        choices=["1f1b", "gpipe"],
        default="1f1b",
        help="pipeline schedule: micro-batches in flight per stage (default 1f1b)",
    )
    s.add_argument(
        "--zero",
        type=validate.cli_int(0, 3),
        default=0,
        help="ZeRO stage 0-3 over --dp (default 0)",
    )
    s.add_argument(
        "--offload",
        action="store_true",
        help="ZeRO-Offload: gradients and optimizer states in CPU memory (default: off)",
    )
    s.add_argument(
        "--sp", action="store_true", help="sequence parallelism, with --tp (default: off)"
    )
    s.add_argument(
        "--recompute",
        choices=["none", "selective", "full"],
        default="none",
        help="activation recomputation: none, selective (attention) or full (default none)",
    )
    s.add_argument(
        "--flash-attention",
        action="store_true",
        help="flash attention: no s x s attention matrix is kept (default: off)",
    )
    s.add_argument(
        "--precision",
        choices=["lecture", "bf16", "fp16", "fp32"],
        default="lecture",
        help="lecture (= bf16 mixed with Adam, default), bf16/fp16 mixed, or fp32",
    )
    s.add_argument(
        "--optimizer",
        choices=["adam", "adamw", "sgd", "adam8bit"],
        default="adam",
        help="optimizer, decides the optimizer states' bytes (default adam)",
    )
    s.add_argument(
        "--gpu",
        default="A100-80GB",
        help=f"one of: {', '.join(hardware.GPUS)} (default A100-80GB)",
    )
    p.add_argument(
        "--json", action="store_true", help="print JSON, a stable contract (default: text)"
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
            f"missing {', '.join(missing)}: give --preset NAME, or all of "
            f"{', '.join('--' + f for f in _SHAPE)}, or --parameters N"
        )
    return ModelConfig(name="custom", **explicit)


def _states_only(args, prec, gpu) -> int:
    if args.preset or any(getattr(args, f) is not None for f in _SHAPE + _VARIANTS):
        raise ConfigError("--parameters: give either a model (--preset/--hidden ...) or a count")
    if args.cp != 1 or args.ep != 1:
        raise ConfigError("--cp/--ep: need a model shape (--preset or --hidden ...), not a count")
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
                "note": "model states only; activations need a model shape",
            }
        )
        return 0
    print(f"parameters: Ψ = {n:,} ({per_gpu:,} per GPU over tp×pp = {par.tp * par.pp})")
    print(f"precision: {prec.name} ({prec.bytes_per_param} bytes per parameter)")
    print(f"strategy: dp={par.dp} tp={par.tp} pp={par.pp}, ZeRO-{par.zero}")
    print(f"{'per GPU':<24}{'GiB (2^30 B)':>16}{'GB (10^9 B)':>16}")
    for name in ("parameters", "gradients", "optimizer"):
        print(f"{name:<24}{st[name] / GIB:>16,.1f}{st[name] / GB:>16,.1f}")
    print(f"{'model states per GPU':<24}{total / GIB:>16,.1f}{total / GB:>16,.1f}")
    if st["cpu"]:
        print(f"{'(CPU: optimizer)':<24}{st['cpu'] / GIB:>16,.1f}{st['cpu'] / GB:>16,.1f}")
    print("activations: not included (give a model shape)")
    print(
        f"by memory alone (model states) the job needs >= "
        f"{hardware.gpus_needed(job, gpu):,} x {gpu.name}"
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
    print(f"model: {model.name}  {model.describe()}")
    print(
        f"parameters: Ψ = {report.parameter_count:,} ({report.peak.parameter_count:,} on the "
        f"peak GPU before ZeRO)"
    )
    print(
        f"strategy: dp={par.dp} tp={par.tp} pp={par.pp} micro-batches={par.micro_batches} "
        f"({par.schedule}), ZeRO-{par.zero}{' + CPU offload' if par.offload else ''}, "
        f"sp={'on' if par.sp else 'off'}, recompute={par.recompute}, "
        f"flash attention={'on' if par.flash else 'off'}"
        + (f", cp={args.cp}" if args.cp > 1 else "")
        + (f", ep={args.ep}" if args.ep > 1 else "")
    )
    print(f"precision: {prec.name} ({prec.bytes_per_param} bytes per parameter)")
    per_layer = report.activations_per_layer
    print(
        f"micro-batch: {report.micro_batch} sequence(s); one layer saves "
        f"{per_layer / GIB:,.2f} GiB ({per_layer / GB:,.2f} GB) per micro-batch; peak: stage "
        f"{report.peak.stage} with {report.peak.in_flight} micro-batch(es) in flight"
    )
    print()
    print(report.table(gpu))
    return 0
