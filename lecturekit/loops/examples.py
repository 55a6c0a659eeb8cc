"""The example loops shipped in ``lecturekit/data/examples`` and registers/memory to run them.

``saxpy_loop``  the lecture's ``for (j = 0; j < MAX; j++) C[j] += A * B[j];``
``running_sum`` ``s = s + B[j]``: a recurrence through a register
``prefix_product`` ``a[i] = a[i-1] * x``: a recurrence through memory
"""

from __future__ import annotations

import random
from importlib import resources

from ..errors import LectureKitError
from ..language import N_, _

EXAMPLES = ("saxpy_loop", "running_sum", "prefix_product")

B_BASE = 0x1000
C_BASE = 0x2000


#: the prose of the examples' comments (the code in them, ``C[j] += A * B[j]``, is read as it
#: is): :func:`example` gives it in the reader's language
COMMENTS = (
    N_("The lecture's loop (软件流水线):"),
    N_("(words are 4 bytes)"),
    N_("(pointer into B)"),
    N_("(pointer into C)"),
    N_("until j == MAX"),
    N_("A running sum (a recurrence through a register):"),
    N_("(needs the previous iteration's s)"),
    N_("A recurrence through memory:"),
    N_("what the previous iteration stored"),
)


def example(name: str) -> str:
    """The source text of example ``name`` (see :data:`EXAMPLES`), its comments' prose in the
    reader's language."""
    if name not in EXAMPLES:
        raise LectureKitError(
            _("unknown example {name!r}; examples: {join}").format(
                name=name, join=", ".join(EXAMPLES)
            )
        )
    text = resources.files("lecturekit").joinpath(f"data/examples/{name}.s").read_text("utf-8")
    for phrase in COMMENTS:
        text = text.replace(phrase, _(phrase))
    return text


def example_state(name: str, n: int, seed: int = 0) -> tuple[dict[str, int], dict[int, int]]:
    """Registers and memory for ``n`` iterations of example ``name`` (arrays filled with small
    pseudo-random numbers from ``seed``)."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise LectureKitError(
            _("the number of iterations must be a positive integer, got {n!r}").format(n=n)
        )
    rng = random.Random(seed)
    if name == "saxpy_loop":
        regs = {"s0": 3, "s1": B_BASE, "s2": C_BASE, "s3": B_BASE + 4 * n}
        mem = {B_BASE + 4 * j: rng.randrange(-9, 10) for j in range(n)}
        mem |= {C_BASE + 4 * j: rng.randrange(-99, 100) for j in range(n)}
        return regs, mem
    if name == "running_sum":
        regs = {"s1": B_BASE, "s3": B_BASE + 4 * n, "s4": 0}
        return regs, {B_BASE + 4 * j: rng.randrange(-9, 10) for j in range(n)}
    if name == "prefix_product":
        regs = {"s0": 2, "s1": B_BASE + 4, "s3": B_BASE + 4 * (n + 1)}
        mem = {B_BASE: 1} | {B_BASE + 4 * j: 0 for j in range(1, n + 1)}
        return regs, mem
    raise LectureKitError(
        _("unknown example {name!r}; examples: {join}").format(name=name, join=", ".join(EXAMPLES))
    )


__all__ = ["EXAMPLES", "example", "example_state"]
