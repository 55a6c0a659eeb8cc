/* Minimum and maximum: integer (compares and selects), single precision (fmin.s/fmax.s), and
   clamping to a range. */
long minmax_i32(const int *a, long n, int *lo) {
    int mn = a[0], mx = a[0];
    for (long i = 1; i < n; i++) {
        int v = a[i];
        mn = v < mn ? v : mn;
        mx = v > mx ? v : mx;
    }
    *lo = mn;
    return mx;
}

float range_f32(const float *a, long n) {
    float mn = a[0], mx = a[0];
    for (long i = 1; i < n; i++) {
        mn = __builtin_fminf(mn, a[i]);
        mx = __builtin_fmaxf(mx, a[i]);
    }
    return mx - mn;
}

void clamp_i32(int *restrict out, const int *restrict in, long n, int lo, int hi) {
    for (long i = 0; i < n; i++) {
        int v = in[i];
        out[i] = v < lo ? lo : (v > hi ? hi : v);
    }
}
