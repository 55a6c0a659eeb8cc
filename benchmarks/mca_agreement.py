"""Agreement between lecturekit's real-core presets and llvm-mca 14, on compiled code.

The blocks are lecturekit's own corpus (``lecturekit.target.corpus``): small C kernels (dot
products, stencils, Horner, hashes, prefix sums, matrix-vector, min/max, mixed int/FP, atomics,
a jump table) compiled by clang 14 ``-O2``, clang 14 ``-O3 -funroll-loops`` (tuned for the U74)
and GCC 12 ``-O2`` for rv64gc, cut into every innermost loop (and the body of each function
without a loop) that llvm-mca can time. Each block is simulated by lecturekit on both presets,
under the lecture's issue rules and under llvm-mca's (``issue_rules = "llvm-mca"``), and
compared with llvm-mca's one-iteration Total Cycles on the same core (lecturekit declares the
two equal: both count to the cycle the last result is ready).

Printed, per core and rule set: blocks within 10% of llvm-mca, exactly equal, and the median
ratio lecturekit / llvm-mca; then the same split by integer / floating-point blocks and for
clang's unrolled loops; the named cause of every difference under the lecture's rules
(``lecturekit.target.real.MODEL_DIFFERENCES``); and the same comparison on random straight-line
blocks (integer and floating point).

llvm-mca runs live when installed; otherwise its saved timelines
(``lecturekit/data/corpus/mca.json``, made with llvm-mca 14.0.6) are used, and the random blocks
are skipped.

    python benchmarks/mca_agreement.py [N_RANDOM] [SEED]
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import Counter

from lecturekit.target import corpus, real

RULES = ("lecture", "llvm-mca")


def row(pairs: list[tuple[int, int]]) -> str:
    """within 10%, exact, median ratio for (lecturekit, llvm-mca) cycle pairs."""
    if not pairs:
        return "-"
    within = sum(abs(lk - mca) <= 0.1 * mca for lk, mca in pairs)
    exact = sum(lk == mca for lk, mca in pairs)
    median = statistics.median(lk / mca for lk, mca in pairs)
    return f"{within}/{len(pairs)} | {exact} | {median:.2f}"


def corpus_table(live: bool) -> None:
    blocks = corpus.blocks()
    results = {}  # (block name, core, rules) -> (lk, mca, comparison)
    t0 = time.perf_counter()
    for block in blocks:
        for cpu in corpus.CORES:
            mca = real.run_mca(block.body, cpu) if live else corpus.saved_mca(block, cpu)
            for rules in RULES:
                c = real.compare(block.body, cpu, mca=mca, rules=rules)
                results[block.name, cpu, rules] = (*c.cycles, c)
    dt = time.perf_counter() - t0
    source = "llvm-mca run now" if live else "llvm-mca's saved timelines (lecturekit/data/corpus)"
    print(f"corpus: {len(blocks)} blocks from {len(corpus.sources())} C files x "
          f"{len(corpus.BUILDS)} builds, 2 cores; {source}; {dt:.1f} s")  # fmt: skip
    print()
    print("| core | rules | within 10% | exact | median ratio |")
    print("|---|---|---|---|---|")
    for cpu in corpus.CORES:
        for rules in RULES:
            pairs = [results[b.name, cpu, rules][:2] for b in blocks]
            print(f"| {cpu} | {rules} | {row(pairs)} |")
    print()
    groups = {
        "integer blocks": [b for b in blocks if not b.floating_point],
        "floating-point blocks": [b for b in blocks if b.floating_point],
        "clang -O3 -funroll-loops": [b for b in blocks if b.build == "clang-O3-unroll"],
    }
    print("| blocks (x 2 cores) | lecture: within 10% | exact | median | "
          "llvm-mca: within 10% | exact | median |")  # fmt: skip
    print("|---|---|---|---|---|---|---|")
    for name, group in groups.items():
        cells = []
        for rules in RULES:
            pairs = [results[b.name, cpu, rules][:2] for b in group for cpu in corpus.CORES]
            cells.append(row(pairs))
        print(f"| {name} ({len(group)}) | {cells[0]} | {cells[1]} |")
    print()
    for rules in RULES:
        causes: Counter[str] = Counter()
        unnamed = in_class = in_class_exact = 0
        for block in blocks:
            for cpu in corpus.CORES:
                lk, mca, c = results[block.name, cpu, rules]
                kinds = {d.kind for d in c.differences()}
                causes.update(kinds)
                unnamed += lk != mca and (not kinds or "other" in kinds)
                if real.coinciding(c):
                    in_class += 1
                    in_class_exact += lk == mca
        named = ", ".join(f"{k} {n}" for k, n in causes.most_common()) or "none"
        print(f"{rules} rules: (block, core) pairs showing each named difference: {named}; "
              f"differences without a name: {unnamed}; where the rules coincide "
              f"(real.coinciding): {in_class_exact}/{in_class} exact")  # fmt: skip


def random_table(n: int, seed: int) -> None:
    print()
    print(f"random straight-line blocks, {n} integer + {n} with floating point, seed {seed}:")
    print("| core | rules | within 10% | exact | median ratio |")
    print("|---|---|---|---|---|")
    blocks = [real.random_block(seed * 100_003 + k, fp=k >= n) for k in range(2 * n)]
    for cpu in corpus.CORES:
        mcas = [real.run_mca(b, cpu) for b in blocks]
        for rules in RULES:
            pairs = [
                real.compare(b, cpu, mca=m, rules=rules).cycles
                for b, m in zip(blocks, mcas, strict=True)
            ]
            print(f"| {cpu} | {rules} | {row(pairs)} |")


def main(n: int = 100, seed: int = 0) -> None:
    live = real.have("llvm-mca")
    corpus_table(live)
    if live:
        random_table(n, seed)
    else:
        print("llvm-mca is not installed: random blocks skipped;", real.INSTALL_HELP)


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    main(*args)
