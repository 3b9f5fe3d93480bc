/* PLACEHOLDER: replaced by the real bitonic sort (issue 2). */
#include "core/util.h"
#include "sort/sort.h"
#include <stdio.h>
static void *_make(const sort_desc *d, const gpu_caps *c, char *err) { fail(err, "bitonic sort is not built yet"); return NULL; }
static void _destroy(void *p) {}
static sort_pairs _run(void *p, sort_pairs io, uint32_t n, uint32_t bits, const sort_trace *t) { return io; }
static void _describe(void *p, uint32_t n, uint32_t bits, char *out, size_t len) { snprintf(out, len, "bitonic"); }
const sort_algo sort_algo_bitonic = {"bitonic", "bitonic", _make, _destroy, _run, _describe};
