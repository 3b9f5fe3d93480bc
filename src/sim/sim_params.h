/* sim_params: the physics every solver shares (no solver's own parameters: each solver keeps its
 * own block, DFSPH's in src/sim/dfsph/dfsph_layout.h), as one std140 uniform block, and the
 * work-group size and binding points of the sim shaders.
 *
 * The defines below are the single source: SIM_SHADER_CONSTANTS lists those the shaders read, and
 * sim_shader_defines() (particles.c) hands them to every sim shader as #defines (B_* in GLSL for
 * SIM_B_*), so no shader keeps a copy. The struct is mirrored by
 * `SimParams` in shaders/sim/sim_common.glsl member for member (std140: the vec4s first, then
 * 4-byte scalars, padded to 16 bytes); the _Static_asserts check what C can see and the layout
 * test reads every member's offset back through GL reflection.
 */
#ifndef FLUID_SIM_PARAMS_H
#define FLUID_SIM_PARAMS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SIM_WG 128 /* threads per work group of every sim dispatch; twin: SIM_WG in sim_common.glsl */

/* Binding points; twins: B_* in sim_common.glsl. The shared ones, then a range each solver owns
 * (its own uniform block at SIM_UBO_SOLVER and its buffers at SIM_B_SOLVER + 0 .. SIM_B_SOLVER_COUNT
 * - 1, given to its shaders by its own defines: DFSPH's in src/sim/dfsph/dfsph_layout.h). */
#define SIM_UBO_PARAMS 0
#define SIM_UBO_SOLVER 1 /* the solver's own parameters (its uniform block) */
#define SIM_B_POS_IN 0
#define SIM_B_VEL_IN 1
#define SIM_B_POS_OUT 2
#define SIM_B_VEL_OUT 3
#define SIM_B_KEYS 4
#define SIM_B_VALS 5
#define SIM_B_RANGES 6 /* the cell table: uint start per cell, then n (search.h) */
#define SIM_B_DENS 7
#define SIM_B_DENS_PREV 8 /* the last step's densities in the current order: the reorder's carry (sim_particles.carry_dens) */
#define SIM_B_ACCEL 9
#define SIM_B_ID_IN 10
#define SIM_B_ID_OUT 11
#define SIM_B_CELL_KEYS 12
#define SIM_B_SORT_FUSED 13 /* hash: the sort's fused first count (sort.h) */
#define SIM_B_SOLVER 14     /* the first of the solver's own buffers */
#define SIM_B_SOLVER_COUNT 8

/* What the sim shaders are given, as X(GLSL name, C constant): a binding added above is read by
 * a shader only once it has its line here (docs/DESIGN.md, "Shaders"). */
/* clang-format off */
#define SIM_SHADER_CONSTANTS(X)                                                                \
    X(SIM_WG, SIM_WG) X(SIM_UBO_PARAMS, SIM_UBO_PARAMS) X(UBO_SOLVER, SIM_UBO_SOLVER)          \
    X(B_POS_IN, SIM_B_POS_IN) X(B_VEL_IN, SIM_B_VEL_IN) X(B_POS_OUT, SIM_B_POS_OUT)            \
    X(B_VEL_OUT, SIM_B_VEL_OUT) X(B_KEYS, SIM_B_KEYS) X(B_VALS, SIM_B_VALS)                    \
    X(B_RANGES, SIM_B_RANGES) X(B_DENS, SIM_B_DENS) X(B_DENS_PREV, SIM_B_DENS_PREV)             \
    X(B_ACCEL, SIM_B_ACCEL) X(B_ID_IN, SIM_B_ID_IN) X(B_ID_OUT, SIM_B_ID_OUT)                  \
    X(B_CELL_KEYS, SIM_B_CELL_KEYS)
/* clang-format on */

typedef struct sim_params {
    float lo[4];         /* domain (tank) min corner, metres; w unused */
    float hi[4];         /* domain max corner */
    uint32_t dims[4];    /* grid cells per axis; w = the cells' keys (the cells, padded to whole bricks) */
    float gravity[4];    /* m/s^2 */
    float poke[4];       /* mouse: xyz point, w radius (0: none) */
    uint32_t brick[4];   /* the cell order's bricks: log2 of their cells along x, y, z (sim_cell_key; all 0:
                          * rows in x, y, z order); w 0 (padding) */
    uint32_t n;          /* particles */
    float h;             /* kernel support radius, metres */
    float cell;          /* grid cell size (h or h/2, times SIM_CELL_MARGIN) */
    float inv_cell;      /* 1 / cell */
    float hs;            /* smoothing length of the cubic spline, h / 2 */
    float mass;          /* kg per particle */
    float rho0;          /* rest density, kg/m^3 */
    float tait_b;        /* Tait stiffness rho0 c0^2 / 7, Pa */
    float c0;            /* speed of sound, m/s */
    float alpha;         /* artificial viscosity */
    float dt;            /* seconds per step */
    float margin;        /* hard clamp: centres stay this far inside the walls, metres */
    float restitution;   /* normal velocity kept (reversed) by the clamp */
    float poke_strength; /* m/s^2 at the poke centre */
    float wall_friction; /* viscosity coefficient of the walls (same alpha form as particles) */
    float dx;            /* particle spacing at the start, metres (the walls' ghost planes) */
} sim_params;

_Static_assert(sizeof(sim_params) == 6 * 16 + 16 * 4, "sim_params must match SimParams in sim_common.glsl");
_Static_assert(sizeof(sim_params) % 16 == 0, "a std140 block is a whole number of vec4s");
_Static_assert(offsetof(sim_params, n) == 96, "scalars start after the six vec4s");

/* Grid cells are this much larger than h, so float rounding of a position on a cell border can
 * never put two particles closer than h into cells two apart. */
#define SIM_CELL_MARGIN 1.0001f

/* The cells each side of a particle's own that hold all its neighbours (neighbours.glsl walks
 * them): 1 where cells are h wide (FLUID_SIM_CELL=1), 2 where they are h/2 (FLUID_SIM_CELL=2). */
static inline uint32_t sim_cell_reach(const sim_params *p) { return p->cell < 0.75f * p->h ? 2u : 1u; }
/* Whether the grid's cells are in bricks (grid.glsl), else rows: the walks' runs follow it. */
static inline bool sim_bricked(const sim_params *p) { return p->brick[0] | p->brick[1] | p->brick[2]; }

#endif
