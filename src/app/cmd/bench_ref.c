/* bench_ref: the reference CSV of `fluid bench --reference` (see bench_ref.h). */
#include "app/cmd/bench_ref.h"
#include "core/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads --reference FILE: a header naming the columns, then rows; every error is one line. */
bool bench_ref_load(const char *path, bench_ref *ref, char *err) {
    FILE *f = fopen(path, "r");
    if (!f) return fail(err, "--reference %s: cannot read it; give a CSV from tools/cub-bench.cu or fluid bench --csv", path);
    char line[1024];
    int col_bits = -1, col_pairs = -1, col_med = -1, col_algo = -1, row = 0;
    bool ok = true;
    memset(ref, 0, sizeof *ref);
    while (ok && fgets(line, sizeof line, f)) {
        row++;
        line[strcspn(line, "\r\n")] = 0;
        if (!line[0]) continue;
        char *fields[32];
        int nf = 0;
        for (char *p = line; nf < 32;) {
            fields[nf++] = p;
            char *c = strchr(p, ',');
            if (!c) break;
            *c = 0;
            p = c + 1;
        }
        if (row == 1) {
            for (int i = 0; i < nf; i++) {
                if (!strcmp(fields[i], "bits")) col_bits = i;
                if (!strcmp(fields[i], "pairs")) col_pairs = i;
                if (!strcmp(fields[i], "median_us")) col_med = i;
                if (!strcmp(fields[i], "algorithm")) col_algo = i;
            }
            if (col_bits < 0 || col_pairs < 0 || col_med < 0)
                ok = fail(err, "--reference %s: its first line must name the columns bits, pairs and median_us", path);
            continue;
        }
        int need = col_bits > col_pairs ? col_bits : col_pairs;
        if (col_med > need) need = col_med;
        uint64_t b, n;
        char *end = NULL;
        double med = nf > need ? strtod(fields[col_med], &end) : 0.0;
        if (nf <= need || !parse_u64(fields[col_bits], 1, 32, &b) || !parse_u64(fields[col_pairs], 1, 1u << 28, &n) || !end ||
            *end || !(med > 0.0)) {
            ok = fail(err, "--reference %s: line %d is not a row of bits (1..32), pairs and a positive median_us; fix the file",
                      path, row);
            break;
        }
        if (ref->count == BENCH_REF_MAX) {
            ok = fail(err, "--reference %s: more than %d rows", path, BENCH_REF_MAX);
            break;
        }
        snprintf(ref->algo[ref->count], sizeof ref->algo[0], "%s", col_algo >= 0 && col_algo < nf ? fields[col_algo] : "ref");
        ref->bits[ref->count] = (uint32_t)b;
        ref->pairs[ref->count] = (uint32_t)n;
        ref->med[ref->count++] = med;
    }
    fclose(f);
    if (ok && row == 0) ok = fail(err, "--reference %s: the file is empty", path);
    return ok;
}

void bench_ref_against(bench_ref *ref, const char *const *algos, int count) {
    bool one = ref->count > 0, ours = false;
    for (int i = 1; i < ref->count; i++) one &= strcmp(ref->algo[i], ref->algo[0]) == 0;
    for (int a = 0; one && a < count; a++) ours |= strcmp(algos[a], ref->algo[0]) == 0;
    ref->outside = one && !ours;
}

int bench_ref_match(bench_ref *ref, const char *algo, uint32_t bits, uint32_t n) {
    for (int i = 0; ref && i < ref->count; i++)
        if (ref->bits[i] == bits && ref->pairs[i] == n && (ref->outside || strcmp(ref->algo[i], algo) == 0)) {
            ref->used[i] = true;
            return i;
        }
    return -1;
}

const char *bench_ref_mode(const bench_ref *ref) {
    static char mode[64];
    if (ref->outside) snprintf(mode, sizeof mode, "every row against its one algorithm, %s", ref->algo[0]);
    else snprintf(mode, sizeof mode, "rows matched by algorithm, bits and pairs");
    return mode;
}
