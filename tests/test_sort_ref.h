/* test_sort_ref: the sort tests' CPU reference, independent of the library (none of sort.c's
 * code): a qsort of (key & mask, input index) or (key, value, index) records, then the pairs
 * gathered in that order. The index as the last field makes every comparison total, so the
 * result is the stable order whatever qsort's own algorithm is.
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

static int _ref_cmp_stable(const void *a, const void *b) {
    const ref_rec *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

static int _ref_cmp_key_value(const void *a, const void *b) {
    const ref_rec *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    if (x->val != y->val) return x->val < y->val ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* by_value 0: (key & mask, index); 1: (key & mask, value, index). */
static void _ref_sort(uint32_t *keys, uint32_t *vals, uint32_t n, uint32_t mask, int by_value) {
    ref_rec *r = malloc(sizeof *r * (n ? n : 1));
    uint32_t *k = malloc(4ull * n + 4);
    memcpy(k, keys, 4ull * n);
    for (uint32_t i = 0; i < n; i++) r[i] = (ref_rec){keys[i] & mask, vals[i], i};
    qsort(r, n, sizeof *r, by_value ? _ref_cmp_key_value : _ref_cmp_stable);
    for (uint32_t i = 0; i < n; i++) {
        keys[i] = k[r[i].index]; /* the whole key, bits above the mask included */
        vals[i] = r[i].val;
    }
    free(k);
    free(r);
}

static inline void ref_sort_stable(uint32_t *keys, uint32_t *vals, uint32_t n, uint32_t mask) {
    _ref_sort(keys, vals, n, mask, 0);
}
static inline void ref_sort_key_value(uint32_t *keys, uint32_t *vals, uint32_t n) { _ref_sort(keys, vals, n, 0xFFFFFFFFu, 1); }

#endif
