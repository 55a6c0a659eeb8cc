"""Agreement between lecturekit's real-core presets and llvm-mca on random RISC-V blocks.

For each core (rocket-rv64, sifive-7-rv64), N random straight-line RV64 integer blocks of 5 to 40
instructions (ALU, loads, stores, multiplies, divides; 9 registers, so there are many
dependences) are simulated by lecturekit on the preset and by llvm-mca on the same core, one
iteration. Printed: the share of blocks with equal cycles, the largest difference, the blocks
in the class where the two models are meant to coincide (lecturekit.target.real.coinciding), and a
count of the disagreeing blocks showing each named cause (lecturekit.target.real.MODEL_DIFFERENCES),
and how often lecturekit's latencies with llvm-mca's own in-order rules (real.llvm_inorder_issue)
reproduce llvm-mca's issue cycles exactly.

    python benchmarks/mca_agreement.py [N] [SEED]
"""

from __future__ import annotations

import sys
import time
from collections import Counter

from lecturekit.target import real


def main(n: int = 200, seed: int = 0) -> None:
    if not real.have("llvm-mca"):
        print("llvm-mca is not installed:", real.INSTALL_HELP)
        return
    for cpu in ("rocket-rv64", "sifive-7-rv64"):
        t0 = time.perf_counter()
        equal = 0
        worst = (0, None)
        causes: Counter[str] = Counter()
        in_class = equal_in_class = 0
        replica = replica_n = 0
        for k in range(n):
            block = real.random_block(seed * 100_003 + k)
            c = real.compare(block, cpu)
            lk, mca = c.cycles
            equal += lk == mca
            if abs(lk - mca) > worst[0]:
                worst = (abs(lk - mca), f"block {k}: lecturekit {lk}, llvm-mca {mca}")
            if real.coinciding(c):
                in_class += 1
                equal_in_class += lk == mca
            if all(r["mca_latency"] == r["lk_latency"] for r in c.rows()):
                replica_n += 1
                replica += real.llvm_inorder_issue(c.program, c.preset) == [
                    r["mca_issue"] for r in c.rows()
                ]
            if lk != mca:
                kinds = {d.kind for d in c.differences()}
                causes.update(kinds)
        dt = time.perf_counter() - t0
        print(f"== {cpu}: {n} random blocks (seed {seed}), {dt:.1f} s")
        print(
            f"equal cycles: {equal}/{n} = {equal / n:.0%}; largest difference {worst[0]}"
            f" ({worst[1]})"
        )
        print(f"coinciding class: {in_class}/{n} blocks, equal in {equal_in_class}/{in_class}")
        print(
            f"lecturekit's latencies + llvm-mca's in-order rules (real.llvm_inorder_issue): "
            f"llvm-mca's issue cycles exactly in {replica}/{replica_n} blocks with equal latencies"
        )
        for kind, count in causes.most_common():
            print(f"  {count:4d} disagreeing blocks show '{kind}'")


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    main(*args)
