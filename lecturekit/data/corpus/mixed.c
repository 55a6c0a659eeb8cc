/* Mixed integer and floating point: conversions both ways, a norm through libm's sqrt, and
   divisions (integer and double). */
#include <math.h>

double weighted(const int *restrict k, const double *restrict w, long n) {
    double s = 0;
    for (long i = 0; i < n; i++) s += (double)k[i] * w[i];
    return s;
}

void quantize(int *restrict q, const float *restrict x, float scale, long n) {
    for (long i = 0; i < n; i++) q[i] = (int)(x[i] * scale);
}

double norm2(const double *x, long n) {
    double s = 0;
    for (long i = 0; i < n; i++) s += x[i] * x[i];
    return sqrt(s);
}

void ratios(double *restrict r, int *restrict qr, const double *restrict a,
            const double *restrict b, const int *restrict p, const int *restrict d, long n) {
    for (long i = 0; i < n; i++) {
        r[i] = a[i] / b[i];
        qr[i] = p[i] / d[i] + p[i] % d[i];
    }
}
