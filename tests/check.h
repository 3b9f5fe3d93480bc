/* check: the tests' harness. Each test is one program: exit 0 pass, 1 fail, 77 skip.
 *
 *   int main(void) {
 *       gpu_ctx *gpu = check_gpu();        // headless GL 4.5, or exit 77 (skip) saying why
 *       CHECK(x == 3, "x is %d", x);        // prints file:line and the message, counts a failure
 *       image_write_png(check_path("a.png"), ...);  // pictures go to a temporary folder
 *       return check_done();                // 1 if any CHECK failed, or if none ran
 *   }
 *
 * A program that ran no CHECK fails: a test that checked nothing has not passed. Files a test
 * writes (check_path) go to $FLUID_TEST_OUT when it is set (kept there), otherwise to a fresh
 * folder under $TMPDIR (or /tmp) that check_done removes when every check passed and keeps, saying
 * where, when one failed. Never to the working directory.
 */
#ifndef FLUID_CHECK_H
#define FLUID_CHECK_H
#include "core/util.h"
#include "gpu/gpu.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int check_failures;
static int check_count;

#define CHECK(cond, ...)                                                                                                         \
    do {                                                                                                                         \
        check_count++;                                                                                                           \
        if (!(cond)) {                                                                                                           \
            check_failures++;                                                                                                    \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                                                      \
            fprintf(stderr, __VA_ARGS__);                                                                                        \
            fputc('\n', stderr);                                                                                                 \
        }                                                                                                                        \
    } while (0)

static inline gpu_ctx *check_gpu(void) {
    char err[ERR_LEN];
    if (!data_dir_init(NULL, err)) {
        fprintf(stderr, "FAIL: %s\n", err);
        exit(1);
    }
    gpu_ctx *gpu = gpu_make(&(gpu_desc){.headless = true, .debug = true}, err);
    if (!gpu) {
        printf("SKIP: %s\n", err);
        exit(77);
    }
    const gpu_caps *c = gpu_get_caps(gpu);
    printf("GL: %s | %s | subgroup %s (%d) | timers %s\n", c->renderer, c->version, c->subgroup ? "yes" : "no", c->subgroup_size,
           c->timer_queries ? "yes" : "no");
    return gpu;
}

static char check_out[4096]; /* the output folder, once made */
static bool check_out_temp;  /* made here: check_done removes it when the test passed */

/* The folder for the test's files: $FLUID_TEST_OUT, or a temporary one made on the first call. */
static inline const char *check_out_dir(void) {
    if (check_out[0]) return check_out;
    const char *env = getenv("FLUID_TEST_OUT"), *tmp = getenv("TMPDIR");
    if (env && env[0]) {
        snprintf(check_out, sizeof check_out, "%s", env);
        return check_out;
    }
    snprintf(check_out, sizeof check_out, "%s/fluid-test-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    if (!mkdtemp(check_out)) {
        fprintf(stderr, "FAIL: cannot make a temporary folder %s; set TMPDIR or FLUID_TEST_OUT to a writable folder\n",
                check_out);
        exit(1);
    }
    check_out_temp = true;
    return check_out;
}

/* dir/name in one of four static buffers in turn: valid until the fourth call after (so one
 * call may take a few, rename(check_join(d, a), check_join(d, b))). */
static inline const char *check_join(const char *dir, const char *name) {
    static char ring[4][4096 + 256];
    static int k;
    char *p = ring[k++ & 3];
    snprintf(p, sizeof ring[0], "%s/%s", dir, name);
    return p;
}

/* A path in the output folder (check_join's buffers). */
static inline const char *check_path(const char *name) { return check_join(check_out_dir(), name); }

static inline void _check_out_remove(void) {
    DIR *d = opendir(check_out);
    struct dirent *e;
    char path[4096 + 256];
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(path, sizeof path, "%s/%s", check_out, e->d_name);
            unlink(path);
        }
    if (d) closedir(d);
    rmdir(check_out);
}

static inline int check_done(void) {
    if (check_count == 0) {
        printf("FAIL: no checks ran (a test that checked nothing has not passed)\n");
        return 1;
    }
    printf("%s: %d checks, %d failed\n", check_failures ? "FAIL" : "PASS", check_count, check_failures);
    if (check_out_temp && !check_failures) _check_out_remove();
    else if (check_out[0]) printf("the test's files are in %s\n", check_out);
    return check_failures ? 1 : 0;
}

/* A small, seeded, repeatable random generator (xorshift32). */
static inline uint32_t check_rand(uint32_t *state) {
    uint32_t x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *state = x;
}

#endif
