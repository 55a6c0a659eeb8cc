/* Dot products: one accumulator (a latency-bound chain), four accumulators, integer and
   single precision. */
double dot_f64(const double *a, const double *b, long n) {
    double s = 0.0;
    for (long i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

float dot_f32(const float *a, const float *b, long n) {
    float s = 0.0f;
    for (long i = 0; i < n; i++) s += a[i] * b[i];
    return s;
}

long dot_i32(const int *a, const int *b, long n) {
    long s = 0;
    for (long i = 0; i < n; i++) s += (long)a[i] * b[i];
    return s;
}

double dot4acc(const double *a, const double *b, long n) {
    double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    for (long i = 0; i + 3 < n; i += 4) {
        s0 += a[i] * b[i];
        s1 += a[i + 1] * b[i + 1];
        s2 += a[i + 2] * b[i + 2];
        s3 += a[i + 3] * b[i + 3];
    }
    return (s0 + s1) + (s2 + s3);
}
