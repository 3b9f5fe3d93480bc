/* PLACEHOLDER: replaced by the real radix sort (issue 2). */
#include "core/util.h"
#include "sort/sort.h"
#include <stdio.h>
static void *_make(const sort_desc *d, const gpu_caps *c, char *err) { fail(err, "radix sort is not built yet"); return NULL; }
static void _destroy(void *p) {}
static sort_pairs _run(void *p, sort_pairs io, uint32_t n, uint32_t bits, const sort_trace *t) { return io; }
static void _describe(void *p, uint32_t n, uint32_t bits, char *out, size_t len) { snprintf(out, len, "radix"); }
const sort_algo sort_algo_radix = {"radix", "radix", _make, _destroy, _run, _describe};
