"""GPUs: the lecture's table (year, memory, price) plus peak throughput from NVIDIA's spec sheets.

The lecture's slide lists

=====  ====  ========  ================
GPU    year  memory    price
=====  ====  ========  ================
H100   2023  80GB      $36550
A100   2020  40/80GB   $9745 (40GB)
V100   2017  16/32 GB  $4392 (16GB)
P100   2016  16GB      $557
=====  ====  ========  ================

``year`` is the year NVIDIA announced each GPU. For the H100 that is 2022 (GTC, March 2022; in
full production in September 2022, first partner systems in October, DGX H100 in the first
quarter of 2023: AnandTech, 20 September 2022); the slide's 2023 is when it became widely
available, a different date rather than a wrong one.

Each memory size becomes its own entry (``A100-40GB``, ``A100-80GB``, ...); the price is only known
for the size the slide names (``None`` otherwise).

**Memory.** The "80GB" on the box is 80 GiB of HBM (``nvidia-smi`` reports 81920 MiB for an
A100-80GB), so ``memory_bytes = 80 * 2**30``. The lecture's "440/880 A100" (our 444/888) divides the
GPT-3 total in GiB by 80 and 40, which is the same convention.

**Throughput** (the SXM form factor throughout, dense, i.e. without 2:4 sparsity; FLOP/s and
bytes/s, decimal as on the sheets):

- H100 SXM5: NVIDIA H100 Tensor Core GPU datasheet (2023): FP16/BF16 tensor 1,979 TFLOPS *with
  sparsity* -> 989.5 TFLOPS dense; FP32 67 TFLOPS; HBM3 3.35 TB/s.
- A100 SXM4: NVIDIA A100 Tensor Core GPU datasheet (2021): FP16/BF16 tensor 312 TFLOPS; FP32
  19.5 TFLOPS; HBM2 1,555 GB/s (40GB), HBM2e 2,039 GB/s (80GB).
- V100 SXM2: NVIDIA Tesla V100 datasheet (2017/2018): FP16 tensor 125 TFLOPS (no BF16); FP32 15.7
  TFLOPS; HBM2 900 GB/s (16GB and 32GB).
- P100 SXM2: NVIDIA Tesla P100 datasheet (2016): FP16 21.2 TFLOPS (no tensor cores, no BF16); FP32
  10.6 TFLOPS; HBM2 732 GB/s.

The roofline chapter reads ``peak_fp16_flops`` and ``mem_bandwidth_bytes_per_s`` from here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .. import validate
from ..errors import ConfigError
from ..language import _

GIB = 2**30
GIGA = 10**9


@dataclass(frozen=True)
class GPU:
    """One accelerator: what the lecture's table says plus peak rates from the spec sheet."""

    name: str
    year: int
    memory_bytes: int
    price_usd: float | None
    peak_fp16_flops: float  #: dense FP16 (= BF16 where supported) tensor-core FLOP/s
    peak_fp32_flops: float  #: FP32 (non-tensor) FLOP/s
    mem_bandwidth_bytes_per_s: float
    bf16: bool = True  #: whether the GPU supports bfloat16 natively
    source: str = ""  #: which spec sheet the rates come from

    @property
    def memory_gib(self) -> float:
        return self.memory_bytes / GIB

    @property
    def memory_gb(self) -> float:
        return self.memory_bytes / GIGA


_H100 = "NVIDIA H100 Tensor Core GPU datasheet (SXM5)"  # i18n: as is
_A100 = "NVIDIA A100 Tensor Core GPU datasheet (SXM4)"  # i18n: as is
_V100 = "NVIDIA Tesla V100 GPU datasheet (SXM2)"  # i18n: as is
_P100 = "NVIDIA Tesla P100 datasheet (SXM2)"  # i18n: as is

#: name -> GPU; the lecture's table, one entry per memory size
GPUS: dict[str, GPU] = {
    g.name: g
    for g in [
        GPU("H100-80GB", 2022, 80 * GIB, 36550, 989.5e12, 67e12, 3.35e12, True, _H100),
        GPU("A100-40GB", 2020, 40 * GIB, 9745, 312e12, 19.5e12, 1.555e12, True, _A100),
        GPU("A100-80GB", 2020, 80 * GIB, None, 312e12, 19.5e12, 2.039e12, True, _A100),
        GPU("V100-16GB", 2017, 16 * GIB, 4392, 125e12, 15.7e12, 0.9e12, False, _V100),
        GPU("V100-32GB", 2017, 32 * GIB, None, 125e12, 15.7e12, 0.9e12, False, _V100),
        GPU("P100-16GB", 2016, 16 * GIB, 557, 21.2e12, 10.6e12, 0.732e12, False, _P100),
    ]
}

#: short names that are unambiguous
_ALIASES = {"H100": "H100-80GB", "P100": "P100-16GB"}


def gpu(name: str) -> GPU:
    """Look up a GPU by name (case-insensitive; ``H100`` and ``P100`` also work).

    Raises :class:`~lecturekit.errors.ConfigError` listing the known names otherwise.
    """
    if isinstance(name, GPU):
        return name
    key = str(name).strip().upper().replace(" ", "-").replace("_", "-")
    key = _ALIASES.get(key, key)
    for known in GPUS:
        if known.upper() == key:
            return GPUS[known]
    sizes = [n for n in GPUS if n.upper().startswith(key + "-")]
    hint = (
        _(" ({name!r} comes as {join})").format(name=name, join=", ".join(sizes)) if sizes else ""
    )
    raise ConfigError(
        _("gpu: unknown GPU {name!r}{hint}; known: {join}").format(
            name=name, hint=hint, join=", ".join(GPUS)
        )
    )


def gpus_needed(total_bytes: int | float, name: str | GPU) -> int:
    """How many GPUs of this kind hold ``total_bytes`` by memory alone (ceiling, at least 1).

    "By memory alone": the bytes are assumed perfectly divisible over the GPUs; no framework
    overhead, fragmentation or communication buffers. A lower bound, as on the lecture's slide.
    """
    g = gpu(name)
    validate.number(total_bytes, "total_bytes", 0, 1e30)
    return max(1, math.ceil(total_bytes / g.memory_bytes))


def gpu_cost_usd(total_bytes: int | float, name: str | GPU) -> float | None:
    """Purchase cost of :func:`gpus_needed` GPUs at the lecture's price (``None`` if unknown)."""
    g = gpu(name)
    if g.price_usd is None:
        return None
    return gpus_needed(total_bytes, g) * g.price_usd
