/* dfsph_layout: the DFSPH buffers that C and GLSL both read, in their own header so that
 * tests/test_layout.c can hold them against the shaders through GL reflection.
 *
 *   dfsph_ctl     twin of the std430 block Ctl in shaders/sim/dfsph/dfsph_common.glsl
 *   dfsph_record  twin of struct Record in shaders/sim/dfsph/integrate.comp (std430, stride 40)
 *   dfsph_nbr_rec twin of struct NbrRec in shaders/sim/dfsph/dfsph_common.glsl: one entry of a
 *                 neighbour list when the lists hold records (DFSPH_REC 1; dfsph.c sizes them 16)
 *
 * A member added on one side only, or two swapped, fails test_layout: add it to both structs and
 * as one MEMBER(...) line of the matching table in tests/test_layout.c.
 */
#ifndef FLUID_DFSPH_LAYOUT_H
#define FLUID_DFSPH_LAYOUT_H
#include <stddef.h>
#include <stdint.h>

/* The GPU's control block: indirect arguments, the step size, the reductions. */
typedef struct dfsph_ctl {
    uint32_t args_div[4], args_dens[4];
    float t_rem;
    uint32_t steps_left;
    float dt, dt_cfl;
    uint32_t done, iter, it_div, it_dens;
    float err_div, err_dens;
    uint32_t capped, step, cap_div, cap_dens;
    float v_post;
    uint32_t dropped, limited;
    uint32_t bar_count, bar_gen, stalled; /* the persistent solve's grid barrier (solve.comp) */
    /* float partial[]: one per work group */
} dfsph_ctl;
_Static_assert(offsetof(dfsph_ctl, args_dens) == 16 && offsetof(dfsph_ctl, t_rem) == 32, "Ctl's indirect arguments");
_Static_assert(offsetof(dfsph_ctl, done) == 48 && offsetof(dfsph_ctl, cap_div) == 80, "Ctl's scalars");
_Static_assert(sizeof(dfsph_ctl) == 112, "Ctl's partial[] starts at 112");

/* One finished step, as integrate writes it into the ring. */
typedef struct dfsph_record {
    float dt, dt_cfl, cfl, err_div, err_dens;
    uint32_t it_div, it_dens, capped, dropped, limited;
} dfsph_record;
_Static_assert(sizeof(dfsph_record) == 40, "Record is 10 scalars (std430: stride 40)");

/* A neighbour-list record: m grad W_ij and j, so the solve passes evaluate no kernel. */
typedef struct dfsph_nbr_rec {
    float grad[3];
    uint32_t idx;
} dfsph_nbr_rec;
_Static_assert(sizeof(dfsph_nbr_rec) == 16, "NbrRec is a vec3 and a uint (std430: stride 16)");

#endif
