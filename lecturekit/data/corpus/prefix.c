/* Prefix sums (a loop-carried chain through a register) and a histogram (stores that may
   alias later loads). */
void prefix_i64(long *restrict out, const long *restrict in, long n) {
    long s = 0;
    for (long i = 0; i < n; i++) { s += in[i]; out[i] = s; }
}

void prefix_f64(double *restrict out, const double *restrict in, long n) {
    double s = 0;
    for (long i = 0; i < n; i++) { s += in[i]; out[i] = s; }
}

void histogram(unsigned *count, const unsigned char *p, long n) {
    for (long i = 0; i < n; i++) count[p[i]]++;
}
