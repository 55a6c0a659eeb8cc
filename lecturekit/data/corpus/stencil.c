/* Stencils: a three-point average in double, a five-point integer blur, and the lecture's
   loop C[j] += A * B[j]. */
void stencil3(double *restrict out, const double *restrict in, long n) {
    for (long i = 1; i + 1 < n; i++) out[i] = (in[i - 1] + in[i] + in[i + 1]) * (1.0 / 3.0);
}

void blur5(int *restrict out, const int *restrict in, long n) {
    for (long i = 2; i + 2 < n; i++)
        out[i] = (in[i - 2] + 4 * in[i - 1] + 6 * in[i] + 4 * in[i + 1] + in[i + 2]) >> 4;
}

void daxpy(double *restrict c, const double *restrict b, double a, long n) {
    for (long j = 0; j < n; j++) c[j] += a * b[j];
}
