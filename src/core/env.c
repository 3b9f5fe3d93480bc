/* env: the table of FLUID_* variables (see env.h). Keep docs/ENVIRONMENT.md in step: test_controls
 * compares them. */
#include "core/env.h"
#include "core/err.h"
#include <stdlib.h>
#include <string.h>

const env_info env_table[ENV_COUNT] = {
    [ENV_DATA_DIR] = {"FLUID_DATA_DIR", "DIR", "beside the binary, its parent, then the source tree", "src/core/util.c",
                      "the folder holding shaders/ and assets/ (--data DIR wins over it)"},
    [ENV_DUMP_PROGRAMS] = {"FLUID_DUMP_PROGRAMS", "DIR", "unset: nothing written", "src/gpu/shader.c",
                           "writes every linked program's driver binary to DIR/<file>-<n>.bin (profiling)"},
    [ENV_DT_MAX] = {"FLUID_DT_MAX", "SECONDS",
                    "min(2 x 0.125 hs^2 / nu, 0.005 s); past 262,144 particles min(0.125 hs^2 / nu, 0.005 s)",
                    "src/sim/dfsph/dfsph_params.c", "the DFSPH solver's largest step (measuring)"},
    [ENV_SIM_LANES] =
        {"FLUID_SIM_LANES", "1, 2, 4, 8 or 16",
         "dfsph: 2 up to 262,144 particles, 1 above; wcsph: 4 up to 49,152, 2 up to 262,144, 1 above; 1 on llvmpipe",
         "src/sim/particles.c", "threads that share one particle in the neighbour passes"},
    [ENV_SIM_CELL] = {"FLUID_SIM_CELL", "1 or 2", "wcsph: 2 above 262,144 particles; else 1", "src/sim/sim.c",
                      "grid cells h wide (1: 3 x 3 rows of 3 cells walked) or h/2 (2: 5 x 5 rows of 5)"},
    [ENV_SIM_BRICK] = {"FLUID_SIM_BRICK", "off, 2x2x2, 4x2x2, 4x4x2, 4x4x4, 8x4x4, 8x8x4 or 8x8x8",
                       "dfsph: 4x2x2 above 655,360 particles; else off", "src/sim/sim.c",
                       "the cell order: bricks of that many cells (x by y by z), or rows (off) (measuring)"},
    [ENV_SIM_FAST] = {"FLUID_SIM_FAST", "0 or 1", "1 with wcsph, 0 with dfsph", "src/sim/particles.c",
                      "1: the neighbour passes' kernels with precomputed reciprocals and inversesqrt (measuring)"},
    [ENV_DFSPH_SLACK] = {"FLUID_DFSPH_SLACK", "0..99", "1", "src/sim/dfsph/dfsph.c",
                         "empty (update, predict) pairs recorded past a DFSPH solve's cap (measuring)"},
    [ENV_DFSPH_HISTORY] = {"FLUID_DFSPH_HISTORY", "1..4", "4", "src/sim/dfsph/dfsph.c",
                           "frames of iteration records a DFSPH solve's cap looks at (measuring)"},
    [ENV_DFSPH_RECORDS] = {"FLUID_DFSPH_RECORDS", "0 or 1", "1 where the lists fit 40 MB, else 0", "src/sim/dfsph/dfsph.c",
                           "DFSPH neighbour lists of 16-byte {m grad W, j} records (1) or indices (0) (measuring)"},
    [ENV_DFSPH_PERSISTENT] =
        {"FLUID_DFSPH_PERSISTENT", "0..65535",
         "4 an SM on NVIDIA where the lists hold records, or indices up to 262,144 particles (the tail), else 0",
         "src/sim/dfsph/dfsph.c",
         "groups of DFSPH's persistent solve (one dispatch a solve); 0: the indirect path (tests, measuring)"},
    [ENV_DFSPH_WARM_SPH] = {"FLUID_DFSPH_WARM_SPH", "0 or 1", "0", "src/sim/dfsph/dfsph.c",
                            "1: SPlisHSPlasH's pressure warm start (k dt^2 stored, 0 where not compressed) (measuring)"},
    [ENV_DFSPH_GRID_FORM] = {"FLUID_DFSPH_GRID_FORM", "0 or 1", "1", "src/sim/dfsph/dfsph.c",
                             "the persistent solve's grid barrier: 1 one word, polled with loads; 0 the first form (measuring)"},
    [ENV_DFSPH_PREFETCH] =
        {"FLUID_DFSPH_PREFETCH", "0..8",
         "with index lists: 8 in the non-pressure pass and 1 elsewhere at 1 lane a particle, 1 at more; 0 with records",
         "src/sim/dfsph/dfsph.c",
         "1: DFSPH's neighbour walks load the next list entry before using this one; 2..8: that many "
         "entries at a time (measuring)"},
    [ENV_DFSPH_FUSED] = {"FLUID_DFSPH_FUSED", "0..2", "1", "src/sim/dfsph/dfsph.c",
                         "where the persistent solve runs: 1 the whole DFSPH step as one dispatch, 0 each solve alone, "
                         "2 the fused step reading positions coherent (measuring)"},
    [ENV_DFSPH_MOMENTUM] = {"FLUID_DFSPH_MOMENTUM", "0 or 1", "1 up to 262,144 particles, 0 above", "src/sim/dfsph/dfsph.c",
                            "1: DFSPH's pressure iterations take momentum (half the last value again while compressed: "
                            "fewer iterations, docs/SPH.md); 0: plain iterations (measuring)"},
    [ENV_DFSPH_COARSE] = {"FLUID_DFSPH_COARSE", "0 or 1", "1 where momentum is on", "src/sim/dfsph/dfsph.c",
                          "1: DFSPH's pressure solve corrects the pool's depth-long mode once after its first predict "
                          "(the coarse level, docs/SPH.md); 0: not (measuring)"},
    [ENV_DFSPH_TAIL] =
        {"FLUID_DFSPH_TAIL", "0..99",
         "the pairs all but 1 in 8 recent solves needed, on NVIDIA where the lists hold indices up to 262,144 particles",
         "src/sim/dfsph/dfsph.c",
         "(update, predict) pairs a DFSPH solve records before a persistent dispatch runs its rest (its "
         "tail); 0: every iteration there; set, the tail runs wherever the persistent grid does (measuring)"},
    [ENV_DFSPH_SPARE] = {"FLUID_DFSPH_SPARE", "0..8", "1", "src/sim/dfsph/dfsph.c",
                         "spare step slots a DFSPH frame issues past its CFL estimate while the flow moves (measuring)"},
    [ENV_DFSPH_DEBT_SHARE] = {"FLUID_DFSPH_DEBT_SHARE", "1..64", "16 above 589,824 particles, else 1", "src/sim/dfsph/dfsph.c",
                              "a DFSPH frame's budget: its own 1/60 s and 1/N of the time earlier frames could not "
                              "finish (1: all of it at once) (tests, measuring)"},
    [ENV_SEARCH_RANGE_CELLS] = {"FLUID_SEARCH_RANGE_CELLS", "1..32", "1 up to 262,144 particles, 2 past it", "src/sim/search.c",
                                "cell-table entries a thread of the search's ranges pass makes (tests, measuring)"},
    [ENV_RADIX_PATH] = {"FLUID_RADIX_PATH", "auto, onesweep or reduce-then-scan", "auto", "src/sort/sort_radix.c",
                        "forces the radix sort's path (auto: onesweep up to FLUID_ONESWEEP_MAX pairs)"},
    [ENV_RADIX_COUNT_AHEAD_TILES] =
        {"FLUID_RADIX_COUNT_AHEAD_TILES", "0..512", "16 (0: off)", "src/sort/sort_radix.c",
         "the most tiles of 4,096 keys the count-ahead path takes (reduce-then-scan whose scatters count the next pass)"},
    [ENV_RADIX_ONEGROUP_MAX] = {"FLUID_RADIX_ONEGROUP_MAX", "0..32768", "0 (off)", "src/sort/sort_radix.c",
                                "the most pairs the one-work-group radix kernel takes (off by default)"},
    [ENV_RADIX_EMULATE_SUBGROUP] = {"FLUID_RADIX_EMULATE_SUBGROUP", "32, 64 or 128", "unset: the driver's subgroups, if any",
                                    "src/sort/sort_radix.c",
                                    "runs the radix subgroup code with the KHR operations emulated at that size (tests)"},
    [ENV_ONESWEEP_KPT] = {"FLUID_ONESWEEP_KPT", "1..24", "12", "src/sort/sort_radix.c",
                          "onesweep keys per invocation (large sorts)"},
    [ENV_ONESWEEP_SMALL_KPT] = {"FLUID_ONESWEEP_SMALL_KPT", "1..24", "4", "src/sort/sort_radix.c",
                                "onesweep keys per invocation up to FLUID_ONESWEEP_SMALL_MAX pairs"},
    [ENV_ONESWEEP_SMALL_MAX] = {"FLUID_ONESWEEP_SMALL_MAX", "0..1073741824", "131,072", "src/sort/sort_radix.c",
                                "the most pairs that take the small keys-per-invocation"},
    [ENV_ONESWEEP_MAX] = {"FLUID_ONESWEEP_MAX", "0..1073741824", "every n", "src/sort/sort_radix.c",
                          "the most pairs auto sends to onesweep (reduce-then-scan past it)"},
    [ENV_ONESWEEP_WINDOW] = {"FLUID_ONESWEEP_WINDOW", "1..32", "1", "src/sort/sort_radix.c",
                             "look-back words a onesweep step reads at once (waiting look-back)"},
    [ENV_ONESWEEP_LOOKBACK] = {"FLUID_ONESWEEP_LOOKBACK", "wait or fallback", "wait on NVIDIA, AMD, Intel; fallback elsewhere",
                               "src/sort/sort_radix.c",
                               "onesweep's look-back: wait without bound, or wait a while then count the late tile"},
    [ENV_ONESWEEP_SPIN] = {"FLUID_ONESWEEP_SPIN", "1..256", "64", "src/sort/sort_radix.c",
                           "reads of an unpublished look-back word before the fallback counts that tile itself"},
    [ENV_ONESWEEP_TEST_AGG_ONLY] = {"FLUID_ONESWEEP_TEST_AGG_ONLY", "1..2", "unset", "src/sort/sort_radix.c",
                                    "test mode: 1, no tile but the first publishes a PREFIX word; 2, no tile posts at all"},
};

const char *env_str(env_var v) {
    const char *s = getenv(env_table[v].name);
    return s && *s ? s : NULL;
}

bool env_u32(env_var v, uint32_t lo, uint32_t hi, uint32_t *out, char *err) {
    const char *s = env_str(v);
    uint64_t x;
    if (!s) return true;
    if (!parse_u64(s, lo, hi, &x))
        return fail(err, "%s='%s' is not a whole number from %u to %u; fix or unset it", env_table[v].name, err_esc(s), lo, hi);
    *out = (uint32_t)x;
    return true;
}

bool env_float(env_var v, double lo, double hi, float *out, char *err) {
    const char *s = env_str(v);
    double x;
    if (!s) return true;
    if (!parse_f64(s, lo, hi, &x))
        return fail(err, "%s='%s' is not a number from %g to %g; fix or unset it", env_table[v].name, err_esc(s), lo, hi);
    *out = (float)x;
    return true;
}

bool env_choice(env_var v, const char *const *names, int count, int *out, char *err) {
    const char *s = env_str(v);
    if (!s) return true;
    for (int i = 0; i < count; i++)
        if (strcmp(s, names[i]) == 0) {
            *out = i;
            return true;
        }
    char list[256];
    names_join(list, sizeof list, names, 0, count, ", ", " or ");
    return fail(err, "%s='%s' is not %s; fix or unset it", env_table[v].name, err_esc(s), list);
}
