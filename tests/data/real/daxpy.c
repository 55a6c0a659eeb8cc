#define MAX 1000
double C[MAX], B[MAX];
void daxpy(double A) {
    for (int j = 0; j < MAX; j++) C[j] += A * B[j];
}
void daxpy_p(double *restrict C, const double *restrict B, double A, long n) {
    for (long j = 0; j < n; j++) C[j] += A * B[j];
}
