/* The radix sort's tuning from the environment (sort_radix_desc_from_env): each FLUID_RADIX_* and
 * FLUID_ONESWEEP_* variable lands in its sort_radix_desc field, and a bad value of each is a
 * one-line error naming the variable and the range that docs/ENVIRONMENT.md and env_table give
 * for it ("LO..HI", or the list of words). The expected fields and values are written out here by
 * hand, not taken from sort_radix.c's own table. The only test that sets FLUID_* variables: the
 * sort tests set desc fields. No GL. */
#include "check.h"
#include "core/env.h"
#include "sort/sort.h"
#include <inttypes.h>
#include <stddef.h>

typedef struct env_case {
    const char *var;
    const char *good; /* a valid value */
    size_t at;        /* its field (a uint32_t), or SIZE_MAX for the two enums (checked apart) */
    uint32_t want;    /* the field after `good` */
    const char *bad;  /* a value refused besides the ones made from the range (NULL: none) */
} env_case;

#define AT(field) offsetof(sort_radix_desc, field)
static const env_case cases[] = {
    {"FLUID_RADIX_PATH", "reduce-then-scan", SIZE_MAX, 0, "fast"},
    {"FLUID_RADIX_COUNT_AHEAD_TILES", "3", AT(count_ahead_tiles), 3, NULL},
    {"FLUID_RADIX_ONEGROUP_MAX", "32768", AT(onegroup_max), 32768, NULL},
    {"FLUID_RADIX_EMULATE_SUBGROUP", "64", AT(emulate_subgroup), 64, "48"},
    {"FLUID_ONESWEEP_KPT", "8", AT(os_kpt), 8, NULL},
    {"FLUID_ONESWEEP_SMALL_KPT", "6", AT(os_small_kpt), 6, NULL},
    {"FLUID_ONESWEEP_SMALL_MAX", "0", AT(os_small_max), SORT_RADIX_NONE, NULL}, /* a real 0 */
    {"FLUID_ONESWEEP_MAX", "1M", AT(os_max), 1048576, NULL},
    {"FLUID_ONESWEEP_WINDOW", "7", AT(os_window), 7, NULL},
    {"FLUID_ONESWEEP_LOOKBACK", "wait", SIZE_MAX, 0, "hope"},
    {"FLUID_ONESWEEP_SPIN", "9", AT(os_spin), 9, NULL},
    {"FLUID_ONESWEEP_TEST_AGG_ONLY", "2", AT(test_agg_only), 2, "0"}, /* once ignored silently */
};

static const env_info *_row(const char *var) {
    for (int v = 0; v < ENV_COUNT; v++)
        if (strcmp(env_table[v].name, var) == 0) return &env_table[v];
    return NULL;
}

/* One bad value: refused, err one line naming the variable and `range`. */
static void _refused(const char *var, const char *value, const char *range) {
    char err[ERR_LEN] = "";
    sort_radix_desc d;
    setenv(var, value, 1);
    bool ok = sort_radix_desc_from_env(&d, err);
    unsetenv(var);
    CHECK(!ok, "%s='%s' was taken", var, value);
    CHECK(strstr(err, var) && strstr(err, range) && !strchr(err, '\n'),
          "%s='%s': the error '%s' does not name the variable and '%s' on one line", var, value, err, range);
    printf("  %s='%s': %s\n", var, value, err);
}

int main(void) {
    char err[ERR_LEN] = "";
    for (size_t i = 0; i < ARRAY_LEN(cases); i++) unsetenv(cases[i].var);
    sort_radix_desc d, zero;
    memset(&zero, 0, sizeof zero);
    memset(&d, 0xAB, sizeof d);
    CHECK(sort_radix_desc_from_env(&d, err), "nothing set: %s", err);
    for (size_t i = 0; i < ARRAY_LEN(cases); i++)
        if (cases[i].at != SIZE_MAX)
            CHECK(*(uint32_t *)((char *)&d + cases[i].at) == 0, "nothing set: %s's field is not 0", cases[i].var);
    CHECK(!d.force_path && d.lookback == SORT_LOOKBACK_AUTO, "nothing set: a path or a look-back is set");

    /* Every row read in src/sort is a case here. */
    for (int v = 0; v < ENV_COUNT; v++) {
        if (!strstr(env_table[v].reader, "src/sort/")) continue;
        bool found = false;
        for (size_t i = 0; i < ARRAY_LEN(cases); i++) found |= strcmp(cases[i].var, env_table[v].name) == 0;
        CHECK(found, "%s is read in %s but has no case in tests/test_sort_env.c", env_table[v].name, env_table[v].reader);
    }

    for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
        const env_case *c = &cases[i];
        const env_info *row = _row(c->var);
        CHECK(row != NULL, "%s is not in env_table", c->var);
        if (!row) continue;
        /* The mapping: this variable set, every other unset. */
        setenv(c->var, c->good, 1);
        memset(&d, 0, sizeof d);
        bool ok = sort_radix_desc_from_env(&d, err);
        unsetenv(c->var);
        CHECK(ok, "%s='%s': %s", c->var, c->good, err);
        if (c->at != SIZE_MAX) {
            uint32_t got = *(uint32_t *)((char *)&d + c->at);
            CHECK(got == c->want, "%s='%s' gave %u, not %u", c->var, c->good, got, c->want);
            for (size_t j = 0; j < ARRAY_LEN(cases); j++)
                if (j != i && cases[j].at != SIZE_MAX)
                    CHECK(*(uint32_t *)((char *)&d + cases[j].at) == 0, "%s also set %s's field", c->var, cases[j].var);
        } else if (strcmp(c->var, "FLUID_RADIX_PATH") == 0) {
            CHECK(d.force_path && d.path == SORT_RADIX_REDUCE_THEN_SCAN, "%s='%s' gave force %d path %d", c->var, c->good,
                  d.force_path, (int)d.path);
        } else {
            CHECK(d.lookback == SORT_LOOKBACK_WAIT, "%s='%s' gave look-back %d", c->var, c->good, (int)d.lookback);
        }
        /* The range, as the table (and so docs/ENVIRONMENT.md) writes it: "LO..HI" or the words. */
        char range[128];
        snprintf(range, sizeof range, "%s", row->value);
        const char *dots = strstr(row->value, "..");
        if (dots) {
            uint64_t lo = 0, hi = 0;
            char a[32], b[32];
            snprintf(a, sizeof a, "%.*s", (int)(dots - row->value), row->value);
            snprintf(b, sizeof b, "%s", dots + 2);
            CHECK(parse_u64(a, 0, UINT32_MAX, &lo) && parse_u64(b, lo, UINT32_MAX, &hi),
                  "%s: env_table's range '%s' is not LO..HI", c->var, row->value);
            snprintf(range, sizeof range, "from %" PRIu64 " to %" PRIu64, lo, hi);
            char edge[32];
            snprintf(edge, sizeof edge, "%" PRIu64, hi + 1);
            _refused(c->var, edge, range);
            if (lo > 0) {
                snprintf(edge, sizeof edge, "%" PRIu64, lo - 1);
                _refused(c->var, edge, range);
            }
        }
        _refused(c->var, "many", range);
        if (c->bad) _refused(c->var, c->bad, range);
    }
    return check_done();
}
