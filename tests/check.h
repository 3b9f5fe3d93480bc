/* check: the tests' harness. Each test is one program: exit 0 pass, 1 fail, 77 skip.
 *
 *   int main(void) {
 *       gpu_ctx *gpu = check_gpu();        // headless GL 4.5, or exit 77 (skip) saying why
 *       CHECK(x == 3, "x is %d", x);        // prints file:line and the message, counts a failure
 *       return check_done();                // 1 if any CHECK failed
 *   }
 */
#ifndef FLUID_CHECK_H
#define FLUID_CHECK_H
#include "core/util.h"
#include "gpu/gpu.h"
#include <stdio.h>
#include <stdlib.h>

static int check_failures;
static int check_count;

#define CHECK(cond, ...)                                                  \
    do {                                                                  \
        check_count++;                                                    \
        if (!(cond)) {                                                    \
            check_failures++;                                             \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                 \
            fputc('\n', stderr);                                          \
        }                                                                 \
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
    printf("GL: %s | %s | subgroup %s (%d) | timers %s\n", c->renderer, c->version, c->subgroup ? "yes" : "no",
           c->subgroup_size, c->timer_queries ? "yes" : "no");
    return gpu;
}

static inline int check_done(void) {
    printf("%s: %d checks, %d failed\n", check_failures ? "FAIL" : "PASS", check_count, check_failures);
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
