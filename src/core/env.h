/* env: the one table of every FLUID_* environment variable the program reads: its name, what it
 * does, its default, and which module reads it. docs/ENVIRONMENT.md lists the same rows (a test,
 * tests/test_controls.c, checks the two agree and that no source file reads a FLUID_* variable
 * that is not in the table).
 *
 *   uint32_t lanes = 0;
 *   if (!env_u32(ENV_SIM_LANES, 1, 16, &lanes, err)) return false;   // unset: lanes stays 0
 *
 * Values are parsed with the shared number parsers (parse_u64, parse_f64 in core/err.h): a set
 * variable that is not a number in range is an error naming the variable, the value and the range
 * ("FLUID_DT_MAX='fast' is not a number from 1e-06 to 0.1; fix or unset it"). An empty variable
 * counts as unset.
 * It does NOT cache: every call reads the environment again.
 */
#ifndef FLUID_ENV_H
#define FLUID_ENV_H
#include <stdbool.h>
#include <stdint.h>

typedef enum env_var {
    ENV_DATA_DIR,
    ENV_DUMP_PROGRAMS,
    ENV_DT_MAX,
    ENV_SIM_LANES,
    ENV_SIM_CELL,
    ENV_SIM_BRICK,
    ENV_SIM_FAST,
    ENV_DFSPH_SLACK,
    ENV_DFSPH_HISTORY,
    ENV_DFSPH_RECORDS,
    ENV_DFSPH_PERSISTENT,
    ENV_DFSPH_WARM_SPH,
    ENV_DFSPH_GRID_FORM,
    ENV_DFSPH_PREFETCH,
    ENV_DFSPH_FUSED,
    ENV_DFSPH_MOMENTUM,
    ENV_DFSPH_COARSE,
    ENV_DFSPH_TAIL,
    ENV_DFSPH_SPARE,
    ENV_DFSPH_DEBT_SHARE,
    ENV_SEARCH_RANGE_CELLS,
    ENV_RADIX_PATH,
    ENV_RADIX_COUNT_AHEAD_TILES,
    ENV_RADIX_ONEGROUP_MAX,
    ENV_RADIX_EMULATE_SUBGROUP,
    ENV_ONESWEEP_KPT,
    ENV_ONESWEEP_SMALL_KPT,
    ENV_ONESWEEP_SMALL_MAX,
    ENV_ONESWEEP_MAX,
    ENV_ONESWEEP_WINDOW,
    ENV_ONESWEEP_LOOKBACK,
    ENV_ONESWEEP_SPIN,
    ENV_ONESWEEP_TEST_AGG_ONLY,
    ENV_COUNT
} env_var;

typedef struct env_info {
    const char *name;    /* "FLUID_SIM_LANES" */
    const char *value;   /* what it takes: "N", "DIR", "auto, onesweep or reduce-then-scan" */
    const char *def;     /* the default when unset, in words */
    const char *reader;  /* the source file that reads it */
    const char *meaning; /* one line */
} env_info;

extern const env_info env_table[ENV_COUNT];

/* The variable's value, or NULL when it is unset or empty. */
const char *env_str(env_var v);
/* Unset: true, *out untouched. Set: true with *out = the value when it is a whole number in
 * [lo, hi] (k/M suffixes as parse_u64), else false with err. */
bool env_u32(env_var v, uint32_t lo, uint32_t hi, uint32_t *out, char *err);
/* The same for a real number in [lo, hi]. */
bool env_float(env_var v, double lo, double hi, float *out, char *err);
/* Unset: true, *out untouched. Set: true with *out = i where the value is names[i] (count names),
 * else false with err listing them ("FLUID_RADIX_PATH='up' is not auto, onesweep or
 * reduce-then-scan; fix or unset it"). */
bool env_choice(env_var v, const char *const *names, int count, int *out, char *err);

#endif
