/* env: the table of FLUID_* variables (see env.h). Keep docs/ENVIRONMENT.md in step: test_controls
 * compares them. */
#include "core/env.h"
#include "core/err.h"
#include <stdlib.h>

const env_info env_table[ENV_COUNT] = {
    [ENV_DATA_DIR] = {"FLUID_DATA_DIR", "DIR", "beside the binary, its parent, then the source tree", "src/core/util.c",
                      "the folder holding shaders/ and assets/ (--data DIR wins over it)"},
    [ENV_DUMP_PROGRAMS] = {"FLUID_DUMP_PROGRAMS", "DIR", "unset: nothing written", "src/gpu/shader.c",
                           "writes every linked program's driver binary to DIR/<file>-<n>.bin (profiling)"},
    [ENV_DT_MAX] = {"FLUID_DT_MAX", "SECONDS", "min(0.125 hs^2 / nu, 0.005 s)", "src/sim/dfsph/dfsph_params.c",
                    "the DFSPH solver's largest step (measuring)"},
    [ENV_SIM_LANES] = {"FLUID_SIM_LANES", "1, 2, 4, 8 or 16", "4 up to 262,144 particles, 1 above; 1 on llvmpipe",
                       "src/sim/particles.c", "threads that share one particle in the neighbour passes"},
    [ENV_DFSPH_SLACK] = {"FLUID_DFSPH_SLACK", "0..9", "1", "src/sim/dfsph/dfsph.c",
                         "empty (update, predict) pairs recorded past a DFSPH solve's cap (measuring)"},
    [ENV_RADIX_PATH] = {"FLUID_RADIX_PATH", "auto, onesweep or reduce-then-scan", "auto", "src/sort/sort_radix.c",
                        "forces the radix sort's path (auto: onesweep on known drivers up to 262,144 pairs)"},
    [ENV_RADIX_FUSED_TILES] = {"FLUID_RADIX_FUSED_TILES", "TILES", "16 (0: off)", "src/sort/sort_radix.c",
                               "the most tiles of 4,096 keys the fused reduce-then-scan path takes"},
    [ENV_RADIX_ONEGROUP_MAX] = {"FLUID_RADIX_ONEGROUP_MAX", "PAIRS", "0 (off)", "src/sort/sort_radix.c",
                                "the most pairs the one-work-group radix kernel takes (off by default)"},
    [ENV_RADIX_EMULATE_SUBGROUP] = {"FLUID_RADIX_EMULATE_SUBGROUP", "32, 64 or 128", "unset: the driver's subgroups, if any", "src/sort/sort_radix.c",
                                    "runs the radix subgroup code with the KHR operations emulated at that size (tests)"},
    [ENV_ONESWEEP_KPT] = {"FLUID_ONESWEEP_KPT", "N", "16", "src/sort/sort_radix.c",
                          "onesweep keys per invocation (large sorts)"},
    [ENV_ONESWEEP_SMALL_KPT] = {"FLUID_ONESWEEP_SMALL_KPT", "N", "8", "src/sort/sort_radix.c",
                                "onesweep keys per invocation up to FLUID_ONESWEEP_SMALL_MAX pairs"},
    [ENV_ONESWEEP_SMALL_MAX] = {"FLUID_ONESWEEP_SMALL_MAX", "PAIRS", "131,072", "src/sort/sort_radix.c",
                                "the most pairs that take the small keys-per-invocation"},
    [ENV_ONESWEEP_MAX] = {"FLUID_ONESWEEP_MAX", "PAIRS", "262,144 (auto); every n (forced)", "src/sort/sort_radix.c",
                          "the most pairs auto sends to onesweep"},
    [ENV_ONESWEEP_WINDOW] = {"FLUID_ONESWEEP_WINDOW", "1..32", "1", "src/sort/sort_radix.c",
                             "look-back words a onesweep step reads at once"},
    [ENV_ONESWEEP_TEST_AGG_ONLY] = {"FLUID_ONESWEEP_TEST_AGG_ONLY", "1", "unset", "src/sort/sort_radix.c",
                                    "test mode: no tile but the first publishes a PREFIX word"},
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
        return fail(err, "%s='%s' is not a whole number from %u to %u; fix or unset it", env_table[v].name, s, lo, hi);
    *out = (uint32_t)x;
    return true;
}

bool env_float(env_var v, double lo, double hi, float *out, char *err) {
    const char *s = env_str(v);
    double x;
    if (!s) return true;
    if (!parse_f64(s, lo, hi, &x))
        return fail(err, "%s='%s' is not a number from %g to %g; fix or unset it", env_table[v].name, s, lo, hi);
    *out = (float)x;
    return true;
}
