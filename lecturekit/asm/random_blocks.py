"""Random basic blocks and random legal orders, for property tests, benchmarks and notebooks.

Deterministic given a seed (``random.Random``), so notebooks that use them stay reproducible.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: networkx is not needed to build random blocks
    import networkx as nx

from .instruction import Program
from .notation import parse

OPS = ["add", "sub", "mul", "addi", "lw", "sw"]


def random_block(
    rng: random.Random | int,
    size: int = 8,
    registers: int = 6,
    opcodes: list[str] | None = None,
    notation: str = "mips",
) -> Program:
    """A block of ``size`` instructions over ``registers`` registers ($t0..). Loads and stores
    use base registers $s0/$s1 with small offsets, so some accesses alias and some do not."""
    rng = random.Random(rng) if isinstance(rng, int) else rng
    opcodes = opcodes or OPS
    regs = [f"t{i}" for i in range(registers)]
    lines = []
    for _ in range(size):
        op = rng.choice(opcodes)
        d, a, b = (rng.choice(regs) for _ in range(3))
        base = rng.choice(["s0", "s1"])
        off = 4 * rng.randrange(3)
        if notation == "tac":
            sym = {"add": "+", "sub": "-", "mul": "*", "div": "/"}
            if op in sym:
                lines.append(f"{d} = {a} {sym[op]} {b}")
            elif op == "addi":
                lines.append(f"{d} = {a} + {rng.randrange(1, 9)}")
            elif op == "lw":
                lines.append(f"{d} = mem[{base} + {off}]")
            elif op == "sw":
                lines.append(f"mem[{base} + {off}] = {a}")
            else:
                lines.append(f"{d} = {a} + {b}")
            continue
        if op in ("add", "sub", "mul", "div"):
            lines.append(f"{op} ${d}, ${a}, ${b}")
        elif op == "addi":
            lines.append(f"addi ${d}, ${a}, {rng.randrange(1, 9)}")
        elif op == "lw":
            lines.append(f"lw ${d}, {off}(${base})")
        elif op == "sw":
            lines.append(f"sw ${a}, {off}(${base})")
        else:
            lines.append(f"add ${d}, ${a}, ${b}")
    return parse("\n".join(lines))


def random_topological_order(graph: nx.DiGraph, rng: random.Random | int) -> list[int]:
    """A uniformly chosen ready node at each step (not uniform over all orders, but covers them)."""
    rng = random.Random(rng) if isinstance(rng, int) else rng
    indeg = {v: graph.in_degree(v) for v in graph.nodes}
    ready = sorted(v for v, d in indeg.items() if d == 0)
    order = []
    while ready:
        v = ready.pop(rng.randrange(len(ready)))
        order.append(v)
        for w in graph.successors(v):
            indeg[w] -= 1
            if indeg[w] == 0:
                ready.append(w)
        ready.sort()
    return order
