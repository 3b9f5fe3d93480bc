/* The window's one action table (app_bindings, src/app/window/app_actions.c) against itself and against
 * the documents: every action has exactly one entry, a unique --script name and a key; no key does
 * two things; the help overlay has a line per row; the F row names every render style; and the
 * key tables of README.md and docs/CONTROLS.md have exactly the table's rows, in its order: the
 * key column equal, the action column the help text (CONTROLS.md may say more after it).
 * No GL needed. */
#include "check.h"
#include "app/window/app_actions.h"
#include "app/session/registry.h"
#include "core/args.h"
#include "core/env.h"
#include "sim/scene.h"
#include "sort/sort.h"
#include "render/render_style.h"
#include <dirent.h>
#include <stddef.h>
#include <sys/stat.h>
#include <string.h>

/* The rows of the first Markdown table under a line starting "| Key", in order. */
static int _controls_rows(const char *path, char rows[][256], int max) {
    char err[ERR_LEN];
    char *text = file_read(path, NULL, err);
    CHECK(text, "%s", err);
    if (!text) return 0;
    int n = 0;
    const char *p = strstr(text, "\n| Key");
    CHECK(p, "%s has no key table (a line starting '| Key')", path);
    if (p) {
        p = strchr(p + 1, '\n');            /* the header */
        p = p ? strchr(p + 1, '\n') : NULL; /* the |---| line */
        while (p && p[1] == '|' && n < max) {
            const char *eol = strchr(p + 1, '\n');
            size_t len = eol ? (size_t)(eol - p - 1) : strlen(p + 1);
            snprintf(rows[n++], 256, "%.*s", (int)len, p + 1);
            p = eol;
        }
    }
    free(text);
    return n;
}

static void _controls_doc(const char *name, bool exact) {
    char path[1024], rows[64][256];
    snprintf(path, sizeof path, "%s/%s", FLUID_SOURCE_DIR, name);
    int n = _controls_rows(path, rows, 64);
    CHECK(n == app_binding_count, "%s lists %d keys, the table %d", name, n, app_binding_count);
    for (int r = 0; r < app_binding_count && r < n; r++) {
        char want[256];
        snprintf(want, sizeof want, "| %s | %s%s", app_bindings[r].keys, app_bindings[r].help, exact ? " |" : "");
        CHECK(strncmp(rows[r], want, strlen(want)) == 0 && (!exact || strlen(rows[r]) == strlen(want)),
              "%s row %d is\n    %s\n  the table (src/app/window/app_actions.c) has\n    %s%s", name, r + 1, rows[r], want,
              exact ? "" : " ...");
    }
}

/* Files that still read a FLUID_* variable with a raw getenv, each to go through core/env's table
 * (issue 22 item 3) on another branch. The list must end empty: a file here that no longer reads
 * one is an error too, so an entry goes as soon as its file is fixed. */

/* Every string literal starting "FLUID_NAME (a variable read, a knobs table's name, a message about
 * one) in the .c files under dir must name a row of env_table. Include guards and CMake names are
 * not string literals. No file but src/core/env.c reads one with getenv: the others go through
 * env_str, env_u32, env_float or env_choice, so that every read is checked against its range. */
static void _env_scan(const char *dir) {
    DIR *d = opendir(dir);
    CHECK(d, "cannot open %s", dir);
    if (!d) return;
    struct dirent *e;
    while ((e = readdir(d))) {
        char path[2048];
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len = strlen(e->d_name);
        struct stat st;
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            _env_scan(path);
            continue;
        }
        if (len < 2 || strcmp(e->d_name + len - 2, ".c")) continue;
        char err[ERR_LEN];
        char *text = file_read(path, NULL, err);
        CHECK(text, "%s", err);
        for (const char *p = text; p && (p = strstr(p, "\"FLUID_")); p++) {
            const char *end = p + 1;
            while ((*end >= 'A' && *end <= 'Z') || (*end >= '0' && *end <= '9') || *end == '_') end++;
            char name[128];
            snprintf(name, sizeof name, "%.*s", (int)(end - p - 1), p + 1);
            bool known = false;
            for (int v = 0; v < ENV_COUNT; v++) known |= strcmp(env_table[v].name, name) == 0;
            CHECK(known, "%s reads %s, which is not in env_table (src/core/env.c) and docs/ENVIRONMENT.md", path, name);
        }
        const char *rel = path + strlen(FLUID_SOURCE_DIR) + 1;
        if (text && strcmp(rel, "src/core/env.c") != 0) {
            bool raw = false;
            for (const char *p = text; (p = strstr(p, "getenv(")); p++) {
                const char *q = p + 7;
                while (*q == ' ') q++;
                raw |= strncmp(q, "\"FLUID_", 7) == 0;
            }
            CHECK(!raw, "%s reads a FLUID_* variable with getenv: use core/env.h (env_str, env_u32, ...)", rel);
        }
        free(text);
    }
    closedir(d);
}

/* docs/ENVIRONMENT.md's table has env_table's rows, in its order. */
static void _env_doc(void) {
    char path[1024], err[ERR_LEN];
    snprintf(path, sizeof path, "%s/docs/ENVIRONMENT.md", FLUID_SOURCE_DIR);
    char *text = file_read(path, NULL, err);
    CHECK(text, "%s", err);
    if (!text) return;
    const char *p = strstr(text, "\n| Variable");
    CHECK(p, "%s has no table (a line starting '| Variable')", path);
    p = p ? strchr(p + 1, '\n') : NULL;
    p = p ? strchr(p + 1, '\n') : NULL; /* the |---| line */
    int n = 0;
    while (p && p[1] == '|') {
        const char *eol = strchr(p + 1, '\n');
        char row[1024], want[1024];
        snprintf(row, sizeof row, "%.*s", (int)(eol ? eol - p - 1 : (long)strlen(p + 1)), p + 1);
        if (n < ENV_COUNT) {
            const env_info *v = &env_table[n];
            snprintf(want, sizeof want, "| `%s` | %s | %s | `%s` | %s |", v->name, v->value, v->def, v->reader, v->meaning);
            CHECK(strcmp(row, want) == 0, "%s row %d is\n    %s\n  env_table (src/core/env.c) has\n    %s", path, n + 1, row,
                  want);
        }
        n++;
        p = eol;
    }
    CHECK(n == ENV_COUNT, "%s lists %d variables, env_table %d", path, n, ENV_COUNT);
    /* Every FLUID_ name in the page above "Not read by the program" is a row of the table; below
     * it (the tests' and the build's variables) none is, so none is read by src/ (_env_scan); and
     * every row says what it takes (a range or the words) and its default. */
    const char *not_read = strstr(text, "Not read by the program");
    CHECK(not_read, "%s has no 'Not read by the program' list", path);
    for (const char *q = text; (q = strstr(q, "FLUID_")); q++) {
        const char *end = q + 6;
        while ((*end >= 'A' && *end <= 'Z') || (*end >= '0' && *end <= '9') || *end == '_') end++;
        if (end == q + 6) continue; /* "FLUID_*" */
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(end - q), q);
        bool known = false;
        for (int v = 0; v < ENV_COUNT; v++) known |= strcmp(env_table[v].name, name) == 0;
        if (!not_read || q < not_read) CHECK(known, "%s names %s, which is not in env_table (src/core/env.c)", path, name);
        else CHECK(!known, "%s lists %s as not read by the program, but env_table has it", path, name);
    }
    for (int v = 0; v < ENV_COUNT; v++)
        CHECK(env_table[v].value[0] && env_table[v].def[0] && env_table[v].meaning[0] && env_table[v].reader[0],
              "env_table's %s lacks what it takes, its default, its reader or its meaning", env_table[v].name);
    free(text);
}

/* core/err's names_join against lists written out by hand. */
static void _names_join(void) {
    static const char *const abc[] = {"a", "bb", "c"};
    char out[64];
    CHECK(names_join(out, sizeof out, abc, 0, 3, ", ", " or ") == 10 && strcmp(out, "a, bb or c") == 0, "got '%s'", out);
    CHECK(names_join(out, sizeof out, abc, 0, 2, "|", NULL) == 4 && strcmp(out, "a|bb") == 0, "got '%s'", out);
    CHECK(names_join(out, sizeof out, abc, 0, 1, ", ", " or ") == 1 && strcmp(out, "a") == 0, "got '%s'", out);
    CHECK(names_join(out, sizeof out, abc, 0, 0, ", ", " or ") == 0 && out[0] == 0, "got '%s'", out);
    CHECK(names_join(out, 5, abc, 0, 3, ", ", " or ") == 10 && strcmp(out, "a, b") == 0, "truncated: got '%s'", out);
    static const struct {
        int id;
        const char *name;
    } rows[] = {{1, "x"}, {2, "y"}, {3, "z"}};
    CHECK(names_join(out, sizeof out, &rows[0].name, sizeof rows[0], 3, ", ", " and ") == 10 && strcmp(out, "x, y and z") == 0,
          "a registry of structs: got '%s'", out);
    CHECK(strcmp(sort_algo_names(), "radix, onesweep, counting, bitonic or cpu") == 0, "sort_algo_names() is '%s'",
          sort_algo_names());
}

/* Hostile text: err_printable / err_esc against escapes written out by hand, and the messages of
 * core/env and core/args keep a value's control characters off the terminal (issue 25). */
static void _hostile_text(void) {
    char out[64], err[ERR_LEN];
    CHECK(strcmp(err_printable("a\nb\tc\\d\x1b[31me\x7f", out, sizeof out), "a\\nb\\tc\\\\d\\x1b[31me\\x7f") == 0, "got '%s'",
          out);
    CHECK(strcmp(err_printable("abc\x01", out, 8), "abc...") == 0, "cut short before an escape, and said: got '%s'", out);
    CHECK(strcmp(err_esc("x\ny"), "x\\ny") == 0 && strcmp(err_esc(NULL), "") == 0, "err_esc");
    setenv("FLUID_ONESWEEP_KPT", "9\n\x1b[2J", 1);
    uint32_t v = 0;
    bool ok = env_u32(ENV_ONESWEEP_KPT, 1, 24, &v, err);
    unsetenv("FLUID_ONESWEEP_KPT");
    CHECK(!ok && !strchr(err, '\n') && !strchr(err, 0x1b) && strstr(err, "9\\n\\x1b[2J"), "env: '%s'", err);
    typedef struct {
        uint32_t n;
    } args_t;
    static const args_opt opts[] = {{"--n", "N", offsetof(args_t, n), args_u32, 1, 9, "a number"}};
    char *argvs[][3] = {{"t", "--n", "4\x1b]0;x\x07"}, {"t", "--x\x1b[1m", NULL}, {"t", "stray\nline", NULL}};
    for (int i = 0; i < 3; i++) {
        args_t got = {0};
        bool help = false;
        err[0] = 0;
        ok = args_parse("t", opts, 1, &got, argvs[i][2] ? 3 : 2, argvs[i], &help, err);
        CHECK(!ok && err[0] && !strchr(err, '\n') && !strchr(err, 0x1b) && !strchr(err, 0x07), "args %d: '%s'", i, err);
    }
}

int main(void) {
    char src[1024];
    snprintf(src, sizeof src, "%s/src", FLUID_SOURCE_DIR);
    _env_scan(src);
    _env_doc();
    _names_join();
    _hostile_text();

    /* Each action: one entry, a unique name, at least one key. */
    for (int act = 0; act < APP_ACTION_COUNT; act++) {
        int entries = 0, keys = 0;
        for (int r = 0; r < app_binding_count; r++)
            for (int k = 0; k < APP_BINDING_ACTS && app_bindings[r].acts[k].name; k++)
                if ((int)app_bindings[r].acts[k].action == act) {
                    entries++;
                    for (int i = 0; i < APP_BINDING_KEYS; i++) keys += app_bindings[r].acts[k].keys[i] != 0;
                }
        CHECK(entries == 1, "action %d has %d entries in app_bindings (one each)", act, entries);
        CHECK(keys > 0, "action %d (%s) has no key", act, app_action_name((app_action)act));
        app_action back;
        CHECK(app_action_by_name(app_action_name((app_action)act), &back) && (int)back == act,
              "the script name %s does not give back action %d", app_action_name((app_action)act), act);
    }
    /* No key bound twice. */
    for (int r = 0; r < app_binding_count; r++)
        for (int k = 0; k < APP_BINDING_ACTS && app_bindings[r].acts[k].name; k++)
            for (int i = 0; i < APP_BINDING_KEYS && app_bindings[r].acts[k].keys[i]; i++) {
                app_action got;
                unsigned flags;
                CHECK(app_key_action(app_bindings[r].acts[k].keys[i], &got, &flags) && got == app_bindings[r].acts[k].action,
                      "key %d of %s is bound to another action first", app_bindings[r].acts[k].keys[i],
                      app_bindings[r].acts[k].name);
            }
    /* The help overlay: a title and a line per row, each with its row's text. */
    const char *const *help = app_help_lines();
    int lines = 0;
    while (help[lines]) lines++;
    CHECK(lines == app_binding_count + 1, "the help has %d lines for %d rows", lines, app_binding_count);
    for (int r = 0; r < app_binding_count && r + 1 < lines; r++)
        CHECK(strstr(help[r + 1], app_bindings[r].help), "help line '%s' lacks '%s'", help[r + 1], app_bindings[r].help);
    /* The style key cycles every style: its help names them all. */
    app_action style;
    for (int r = 0; r < app_binding_count; r++)
        if (app_bindings[r].acts[0].name && app_action_by_name(app_bindings[r].acts[0].name, &style) && style == APP_STYLE)
            for (int k = 0; k < RENDER_STYLE_COUNT; k++)
                CHECK(strstr(app_bindings[r].help, render_styles[k]->name), "the style key's help '%s' does not name '%s'",
                      app_bindings[r].help, render_styles[k]->name);
    /* One source per list: the rows that switch a family name its registry's entries, in order. */
    for (int r = 0; r < app_binding_count; r++) {
        app_action act;
        if (!app_bindings[r].acts[0].name || !app_action_by_name(app_bindings[r].acts[0].name, &act)) continue;
        if (act == APP_SORT_NEXT)
            CHECK(strstr(app_bindings[r].help, registry_cycle(REGISTRY_SORTS)),
                  "the Tab row '%s' does not cycle sort_algos[]: %s", app_bindings[r].help, registry_cycle(REGISTRY_SORTS));
        if (act == APP_SOLVER_NEXT)
            CHECK(strstr(app_bindings[r].help, registry_cycle(REGISTRY_SOLVERS)),
                  "the M row '%s' does not cycle sim_solvers[]: %s", app_bindings[r].help, registry_cycle(REGISTRY_SOLVERS));
        if (act == APP_SCENE_1) {
            char want[256] = "scene: ";
            int keys = 0;
            while (keys < APP_BINDING_ACTS && app_bindings[r].acts[keys].name) keys++;
            CHECK(keys <= sim_scene_count, "%d scene keys for %d scenes", keys, sim_scene_count);
            for (int k = 0; k < keys && k < sim_scene_count; k++)
                snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s", k ? ", " : "", sim_scenes[k].name);
            CHECK(strcmp(app_bindings[r].help, want) == 0, "the scene row '%s' is not the first scenes of sim_scenes[]: '%s'",
                  app_bindings[r].help, want);
        }
    }
    /* The app's lists read the registries: every entry found by its name, and named in the list. */
    for (int f = 0; f < REGISTRY_COUNT; f++) {
        CHECK(registry_count((registry_family)f) > 0, "family %d is empty", f);
        for (int i = 0; i < registry_count((registry_family)f); i++) {
            const char *name = registry_name((registry_family)f, i);
            CHECK(registry_find((registry_family)f, name) == i, "family %d: %s found at %d, not %d", f, name,
                  registry_find((registry_family)f, name), i);
            CHECK(strstr(registry_list((registry_family)f), name), "family %d's list '%s' lacks %s", f,
                  registry_list((registry_family)f), name);
        }
        CHECK(registry_find((registry_family)f, "no-such-name") == -1, "family %d finds a name it does not have", f);
        /* The joined names (usage lines, default lists) hold every name once, in order. */
        char joined[512], want[512] = "";
        for (int i = 0; i < registry_count((registry_family)f); i++) {
            snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s", i ? "|" : "", registry_name((registry_family)f, i));
            CHECK(registry_summary((registry_family)f, i)[0], "family %d: %s has no summary for the help", f,
                  registry_name((registry_family)f, i));
        }
        CHECK(!strcmp(registry_join((registry_family)f, "|", joined, sizeof joined), want), "family %d joined: %s", f, joined);
    }
    CHECK(registry_count(REGISTRY_SORTS) == sort_algo_count, "sorts: %d, sort_algos[] has %d", registry_count(REGISTRY_SORTS),
          sort_algo_count);
    for (int i = 0; i < sort_algo_count; i++) /* the sort library's own error message lists them too */
        CHECK(strstr(sort_algo_names(), sort_algos[i]->name), "sort_algo_names() '%s' lacks %s", sort_algo_names(),
              sort_algos[i]->name);
    CHECK(registry_count(REGISTRY_SCENES) == sim_scene_count, "scenes: %d, sim_scenes[] has %d", registry_count(REGISTRY_SCENES),
          sim_scene_count);
    _controls_doc("README.md", true);
    _controls_doc("docs/CONTROLS.md", false);
    return check_done();
}
