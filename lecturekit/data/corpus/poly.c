/* Horner's rule: a polynomial at every point of an array (double and integer), and complex
   multiplication. */
void horner_f64(double *restrict y, const double *restrict x, long n) {
    for (long i = 0; i < n; i++) {
        double t = x[i];
        y[i] = (((0.5 * t + 1.25) * t - 2.0) * t + 3.5) * t - 0.75;
    }
}

void horner_i64(long *restrict y, const long *restrict x, long n) {
    for (long i = 0; i < n; i++) {
        long t = x[i];
        y[i] = (((3 * t + 5) * t - 7) * t + 11) * t - 13;
    }
}

void cmul(double *restrict re, double *restrict im, const double *restrict ar,
          const double *restrict ai, const double *restrict br, const double *restrict bi, long n) {
    for (long i = 0; i < n; i++) {
        re[i] = ar[i] * br[i] - ai[i] * bi[i];
        im[i] = ar[i] * bi[i] + ai[i] * br[i];
    }
}
