"""The example loops shipped in ``lecturekit/data/examples`` and registers/memory to run them.

``saxpy_loop``  the lecture's ``for (j = 0; j < MAX; j++) C[j] += A * B[j];``
``running_sum`` ``s = s + B[j]``: a recurrence through a register
``prefix_product`` ``a[i] = a[i-1] * x``: a recurrence through memory

A program's comments are text a person reads: :func:`example` gives them in the language
spoken (:data:`COMMENTS`, through the catalog); the instructions are the same in every language.
"""

from __future__ import annotations

import random
from importlib import resources

from ..errors import LectureKitError
from ..language import N_, _

EXAMPLES = ("saxpy_loop", "running_sum", "prefix_product")
#: the comments of the example programs that are prose, as written in their files (a comment
#: that is code, ``# B[j]``, reads the same in every language)
COMMENTS = (
    N_("The lecture's loop (软件流水线):  for (j = 0; j < MAX; j++) C[j] += A * B[j];"),
    N_("$s0 = A,  $s1 = &B[j],  $s2 = &C[j],  $s3 = &B[MAX]  (words are 4 bytes)"),
    N_("j++ (pointer into B)"),
    N_("j++ (pointer into C)"),
    N_("until j == MAX"),
    N_("A running sum (a recurrence through a register):  for (j = 0; j < MAX; j++) s = s + B[j];"),
    N_("s = s + B[j]   (needs the previous iteration's s)"),
    N_("A recurrence through memory:  for (i = 1; i < MAX; i++) a[i] = a[i-1] * x;"),
    N_("a[i-1]: what the previous iteration stored"),
)

B_BASE = 0x1000
C_BASE = 0x2000


def example(name: str) -> str:
    """The source text of example ``name`` (see :data:`EXAMPLES`)."""
    if name not in EXAMPLES:
        raise LectureKitError(
            _("unknown example {name!r}; examples: {join}").format(
                name=name, join=", ".join(EXAMPLES)
            )
        )
    text = resources.files("lecturekit").joinpath(f"data/examples/{name}.s").read_text("utf-8")
    return "".join(_comment_in_language(line) for line in text.splitlines(keepends=True))


def _comment_in_language(line: str) -> str:
    """``line`` with its comment (after ``#``) in the language spoken when it is one of
    :data:`COMMENTS`; the code before it and the spacing are kept."""
    code, sep, comment = line.partition("#")
    text = comment.strip()
    if not sep or text not in COMMENTS:
        return line
    return code + sep + comment.replace(text, _(text), 1)


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
