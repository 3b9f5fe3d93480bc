/* test_sort_ref: the sort tests' CPU reference, independent of the library (none of sort.c's
 * code): a merge sort of (key & mask, input index) words or a qsort of (key, value, index)
 * records, then the pairs gathered in that order. The index as the last field makes the order
 * total, so the result is the stable order whatever the sort's own algorithm is.
 *   ref_sort_stable(keys, vals, n, mask)  stable by key & mask (what radix and onesweep give)
 *   ref_sort_key_value(keys, vals, n)     by (key, value) (what bitonic and counting give)
 * Both sort keys[] and vals[] in place. Header-only, for tests/test_sort_*.c. */
#ifndef FLUID_TEST_SORT_REF_H
#define FLUID_TEST_SORT_REF_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct ref_rec {
    uint32_t key, val, index;
} ref_rec;

static int _ref_cmp_key_value(const void *a, const void *b) {
    const ref_rec *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    if (x->val != y->val) return x->val < y->val ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* A bottom-up merge sort of 64-bit words, ascending: (key & mask) << 32 | index orders the pairs
 * stably with no comparison callback (16,777,217 pairs in 1.1 s against qsort's 3.3, session 38). */
static void _ref_merge_sort_u64(uint64_t *a, size_t n) {
    uint64_t *b = malloc(8 * (n ? n : 1)), *src = a, *dst = b;
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n, i = lo, j = mid, o = lo;
            while (i < mid && j < hi) dst[o++] = src[j] < src[i] ? src[j++] : src[i++];
            while (i < mid) dst[o++] = src[i++];
            while (j < hi) dst[o++] = src[j++];
        }
        uint64_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != a) memcpy(a, src, 8 * n);
    free(b);
}

/* Stable by key & mask: the pairs gathered in the order of the sorted (key & mask, index) words. */
static inline void ref_sort_stable(uint32_t *keys, uint32_t *vals, uint32_t n, uint32_t mask) {
    uint64_t *w = malloc(8ull * n + 8);
    uint32_t *k = malloc(4ull * n + 4), *v = malloc(4ull * n + 4);
    memcpy(k, keys, 4ull * n);
    memcpy(v, vals, 4ull * n);
    for (uint32_t i = 0; i < n; i++) w[i] = (uint64_t)(keys[i] & mask) << 32 | i;
    _ref_merge_sort_u64(w, n);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t at = (uint32_t)w[i];
        keys[i] = k[at]; /* the whole key, bits above the mask included */
        vals[i] = v[at];
    }
    free(w);
    free(k);
    free(v);
}

/* By (key, value, index): a qsort of the records. */
static inline void ref_sort_key_value(uint32_t *keys, uint32_t *vals, uint32_t n) {
    ref_rec *r = malloc(sizeof *r * (n ? n : 1));
    for (uint32_t i = 0; i < n; i++) r[i] = (ref_rec){keys[i], vals[i], i};
    qsort(r, n, sizeof *r, _ref_cmp_key_value);
    for (uint32_t i = 0; i < n; i++) {
        keys[i] = r[i].key;
        vals[i] = r[i].val;
    }
    free(r);
}

#endif
