/* Hashes over bytes and words: FNV-1a, djb2 and a multiply-xorshift mix. */
unsigned fnv1a(const unsigned char *p, long n) {
    unsigned h = 2166136261u;
    for (long i = 0; i < n; i++) h = (h ^ p[i]) * 16777619u;
    return h;
}

unsigned long djb2(const unsigned char *p, long n) {
    unsigned long h = 5381;
    for (long i = 0; i < n; i++) h = (h << 5) + h + p[i];
    return h;
}

unsigned long mix64(const unsigned long *w, long n) {
    unsigned long h = 0x9e3779b97f4a7c15ul;
    for (long i = 0; i < n; i++) {
        h ^= w[i];
        h ^= h >> 33;
        h *= 0xff51afd7ed558ccdul;
        h ^= h >> 29;
    }
    return h;
}
