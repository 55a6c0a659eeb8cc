/* Matrix-vector products, row by row: the inner loop is a dot product with a stride. */
void matvec_f64(double *restrict y, const double *restrict a, const double *restrict x,
                long rows, long cols) {
    for (long r = 0; r < rows; r++) {
        double s = 0;
        for (long c = 0; c < cols; c++) s += a[r * cols + c] * x[c];
        y[r] = s;
    }
}

void matvec_i32(int *restrict y, const int *restrict a, const int *restrict x, long rows,
                long cols) {
    for (long r = 0; r < rows; r++) {
        int s = 0;
        for (long c = 0; c < cols; c++) s += a[r * cols + c] * x[c];
        y[r] = s;
    }
}
