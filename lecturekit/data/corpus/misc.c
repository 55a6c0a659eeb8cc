/* What else compiled C prints: atomics (amoadd, lr/sc, fence), a switch through a jump table,
   globals, large constants, calls into libm and tail calls, and quiet floating-point compares
   (GCC reads and restores the FP flags around them). */
#include <math.h>
#include <stdatomic.h>

long table[64];
static const double weights[4] = {0.125, 0.25, 0.5, 0.125};

long count_hits(_Atomic long *hits, const long *v, long n, long key) {
    long local = 0;
    for (long i = 0; i < n; i++)
        if (v[i] == key) local += atomic_fetch_add_explicit(hits, 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst);
    return local;
}

int cas_max(_Atomic int *p, int v) {
    int old = atomic_load_explicit(p, memory_order_relaxed);
    while (old < v && !atomic_compare_exchange_weak(p, &old, v)) {
    }
    return old;
}

long dispatch(int op, long a, long b) {
    switch (op) {
    case 0: return a + b;
    case 1: return a - b;
    case 2: return a * b;
    case 3: return a / (b | 1);
    case 4: return a << (b & 63);
    case 5: return a ^ 0x5851f42d4c957f2dl;
    default: return table[op & 63];
    }
}

double smooth(const double *x, long n) {
    double s = 0;
    for (long i = 0; i + 3 < n; i++)
        s += weights[0] * x[i] + weights[1] * x[i + 1] + weights[2] * x[i + 2] + weights[3] * x[i + 3];
    return s;
}

int count_less(const double *a, const double *b, long n) {
    int k = 0;
    for (long i = 0; i < n; i++) k += isless(a[i], b[i]);
    return k;
}

double hypot_sum(const double *x, const double *y, long n) {
    double s = 0;
    for (long i = 0; i < n; i++) s += hypot(x[i], y[i]);
    return s;
}

double scaled_exp(double x) { return exp(x * 0.5); }

unsigned long mask_bits(unsigned long x) { return (x & 0xffffffff00000000ul) | 0x0f0f0f0ful; }
