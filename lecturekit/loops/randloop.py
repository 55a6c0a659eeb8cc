"""Random loops for property tests, benchmarks and notebooks (deterministic given a seed).

:func:`random_loop` writes a loop body of a chosen size from a safe set of operations: loads and
stores through one or two induction pointers (each into its own array), a global scalar through a
loop-invariant pointer, ALU operations and multiplies on temporaries, sometimes a running sum (a
register recurrence) or a value stored and loaded back one iteration later (a memory recurrence),
the pointer updates at random places, and an exit test (``bne``, ``blt``/``bgt`` or a count-down
``bnez``). :meth:`RandomLoop.state` gives registers and memory for ``n`` iterations, so the
original and any transformed code can be run side by side by :mod:`lecturekit.loops.interp`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

ALU = ["add", "sub", "and", "or", "xor", "slt"]
TEMPS = [f"t{i}" for i in range(6)]
POINTERS = ["s1", "s2"]
ARRAY_BASE = {"s1": 0x1000, "s2": 0x3000}
SCALAR = "s5"
SCALAR_BASE = 0x5000
SUM = "s4"


@dataclass
class RandomLoop:
    """A generated loop: its ``source`` and what :meth:`state` needs to run it."""

    source: str
    steps: dict[str, int]
    exit: str
    seed: int
    overlap: bool = False
    registers: list[str] = field(default_factory=list)

    def state(self, n: int, seed: int = 0) -> tuple[dict[str, int], dict[int, int]]:
        """Registers and memory for a run of ``n`` iterations (``n >= 1``)."""
        rng = random.Random(seed * 7919 + n)
        regs = {r: rng.randrange(-9, 10) for r in self.registers}
        regs["s0"] = rng.randrange(2, 7)
        regs[SUM] = rng.randrange(0, 5)
        regs[SCALAR] = SCALAR_BASE
        mem: dict[int, int] = {}
        for p, step in self.steps.items():
            base = ARRAY_BASE["s1"] + 8 if (self.overlap and p == "s2") else ARRAY_BASE[p]
            if step < 0:
                base += -step * (n + 4)
            regs[p] = base
            lo = min(base, base + step * (n + 1)) - 16
            hi = max(base, base + step * (n + 1)) + 16
            for a in range(lo - lo % 4, hi + 1, 4):
                mem.setdefault(a, rng.randrange(-20, 21))
        mem[SCALAR_BASE] = rng.randrange(-5, 6)
        p0 = "s1"
        c = self.steps[p0]
        if self.exit == "bne":
            regs["s3"] = regs[p0] + n * c
        elif self.exit == "blt":
            regs["s3"] = regs[p0] + (n - 1) * c + rng.randrange(1, c + 1)
        elif self.exit == "bgt":
            regs["s3"] = regs[p0] + (n - 1) * c - rng.randrange(1, -c + 1)
        else:  # count-down
            regs["s7"] = n
        return regs, mem


def random_loop(
    rng: random.Random | int,
    size: int = 8,
    *,
    pointers: int | None = None,
    recurrence: bool | None = None,
    overlap: bool = False,
) -> RandomLoop:
    """A random loop with ``size`` operations besides pointer updates and the exit test.

    ``pointers``: 1 or 2 induction pointers (default random). ``recurrence``: force a running sum
    and a store-then-load-next-iteration pair in (``True``) or out (``False``); by default each
    appears at random. ``overlap=True`` points the second pointer into the first one's array (8
    bytes ahead), to exercise the conservative analysis with ``restrict=False``.
    """
    seed = rng if isinstance(rng, int) else rng.randrange(2**31)
    rng = random.Random(seed)
    npointers = pointers or rng.choice([1, 2])
    ptrs = POINTERS[:npointers]
    steps = {}
    for p in ptrs:
        steps[p] = rng.choice([4, 4, 4, 8, -4]) if p == "s1" else rng.choice([4, 4, -4])
    if overlap and "s2" in steps:
        steps["s2"] = steps["s1"]
    exit_kind = rng.choice(["bne", "bne", "count", "blt" if steps["s1"] > 0 else "bgt"])
    with_sum = rng.random() < 0.4 if recurrence is None else recurrence
    with_memrec = rng.random() < 0.3 if recurrence is None else recurrence
    lines: list[str] = []
    defined: list[str] = []

    def src() -> str:
        pool = defined if defined and rng.random() < 0.75 else TEMPS
        return rng.choice(pool)

    def dst() -> str:
        d = rng.choice(TEMPS)
        defined.append(d)
        return d

    def offset() -> int:
        return 4 * rng.randrange(-2, 3)

    for _ in range(size):
        kind = rng.choices(
            ["load", "store", "alu", "mul", "addi", "scalar"], weights=[4, 3, 4, 1, 1, 1]
        )[0]
        p = rng.choice(ptrs)
        if kind == "load":
            lines.append(f"lw   ${dst()}, {offset()}(${p})")
        elif kind == "store":
            lines.append(f"sw   ${src()}, {offset()}(${p})")
        elif kind == "alu":
            a, b = src(), src()
            lines.append(f"{rng.choice(ALU)}  ${dst()}, ${a}, ${b}")
        elif kind == "mul":
            a, b = src(), rng.choice([src(), "s0"])
            lines.append(f"mul  ${dst()}, ${a}, ${b}")
        elif kind == "addi":
            a = src()
            lines.append(f"addi ${dst()}, ${a}, {rng.randrange(-5, 6) or 1}")
        else:
            if rng.random() < 0.5:
                lines.append(f"lw   ${dst()}, 0(${SCALAR})")
            else:
                lines.append(f"sw   ${src()}, 0(${SCALAR})")
    if with_sum:
        at = rng.randrange(len(lines) + 1)
        lines.insert(at, f"add  ${SUM}, ${SUM}, ${rng.choice(TEMPS)}")
    if with_memrec:
        c = steps["s1"]
        t = rng.choice(TEMPS)
        at = rng.randrange(len(lines) + 1)
        lines.insert(at, f"lw   ${t}, {-c}($s1)")
        lines.insert(at + 1, f"mul  ${t}, ${t}, $s0")
        lines.insert(rng.randrange(at + 2, len(lines) + 1), f"sw   ${t}, 0($s1)")
    for p in ptrs:
        lines.insert(rng.randrange(len(lines) + 1), f"addi ${p}, ${p}, {steps[p]}")
    if exit_kind == "count":
        lines.insert(rng.randrange(len(lines) + 1), "addi $s7, $s7, -1")
        lines.append("bnez $s7, loop")  # i18n: not shown (code)
    else:
        lines.append(f"{exit_kind}  $s1, $s3, loop")
    lines[0] = "loop: " + lines[0]
    source = "\n".join(lines) + "\n"
    return RandomLoop(source, steps, exit_kind, seed, overlap, registers=list(TEMPS))


__all__ = ["RandomLoop", "random_loop"]
