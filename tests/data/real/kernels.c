/* Small kernels whose clang output exercises the RISC-V parser (tests/test_real.py). */
long dot(const int *a, const int *b, long n) {
    long s = 0;
    for (long i = 0; i < n; i++) s += (long)a[i] * b[i];
    return s;
}
int divide(int x, int y, int *out) {
    *out = x % y;
    return x / y + (x << 3);
}
double poly(double x, const double *c) {
    return ((c[3] * x + c[2]) * x + c[1]) * x + c[0];
}
unsigned char bytes(unsigned char *p, long i) {
    p[i + 1] = p[i] ^ 0x5a;
    return p[i + 2];
}
