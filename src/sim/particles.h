/* particles: what every stage of a step shares: the particles' state in GL buffers (positions,
 * velocities and original ids in ping-pong pairs, densities), the uniform block of constants, and
 * the helpers that build a sim shader and dispatch it.
 *
 *   sim_particles p;
 *   sim_particles_make(&p, capacity, 1, 0, true, &params, caps, err);
 *   GLuint prog = sim_program_make("sim/wcsph/density.comp", NULL, "sim.wcsph.density", err);
 *   sim_particles_bind(&p);              // params at SIM_UBO_PARAMS, current pos/vel, density
 *   sim_dispatch(prog, p.n);             // one thread a particle, then a shader-storage barrier
 *   sim_particles_destroy(&p);
 *
 * The search (search.h) reorders the particles every step into cell order and flips `cur`;
 * solvers read and write the current pair in place. Positions and velocities are vec4: xyz are
 * metres and m/s; w belongs to the solver (dfsph keeps its pressure solve's running total, the next
 * step's warm start, in vel.w, so that the reorder carries it along, and, where its lists hold
 * indices, the values k of a solve under way in pos.w, gathered with the positions); wcsph writes 0. It does NOT know the physics.
 */
#ifndef FLUID_SIM_PARTICLES_H
#define FLUID_SIM_PARTICLES_H
#include "gpu/gpu.h"
#include "sim/sim_params.h"
#include <stdbool.h>
#include <stddef.h>

typedef struct sim_particles {
    GLuint params;                /* UBO: sim_params */
    GLuint pos[2], vel[2], id[2]; /* ping-pong; [cur] holds the current particle order */
    int cur;
    GLuint dens; /* float per particle, current order: kg/m^3 */
    /* The densities the last step left, moved into the current order by the search's reorder where
     * carry_dens (set by the solver's prime; kg/m^3, rho0 where none was made yet) */
    GLuint dens_prev;
    bool carry_dens;
    uint32_t n, capacity;
    uint32_t lanes; /* threads a particle in the neighbour passes (neighbours.glsl) */
    uint32_t reach; /* cells each side a neighbour pass walks: 1 (cells h wide) or 2 (h/2) */
    bool fast;      /* the neighbour passes' kernels with precomputed reciprocals (FLUID_SIM_FAST) */
    /* "#define SIM_LANES k\n#define SIM_CELL_REACH r\n#define SIM_FAST f\n#define SIM_BRICKS b\n", for the
     * solvers' programs */
    char pass_defines[320];
} sim_particles;

/* lanes: 1, 2, 4, 8 or 16 (sim_lanes_resolve, then sim_lanes_for where it left 0). fast_asked: 1 on, -1 off, 0 FLUID_SIM_FAST
 * else fast_default (the solver's). */
bool sim_particles_make(sim_particles *p, uint32_t capacity, uint32_t lanes, int fast_asked, bool fast_default,
                        const sim_params *params, const gpu_caps *caps, char *err);
/* The default threads a particle for the neighbour passes: 1 on a software renderer (where threads
 * are not free); else 4 up to lanes4_upto particles, 2 up to lanes2_upto, 1 above (the solver's
 * figures, sim_solver); sim_desc.lanes or FLUID_SIM_LANES (read by sim_make) override. */
uint32_t sim_lanes_for(uint32_t capacity, uint32_t lanes4_upto, uint32_t lanes2_upto, const gpu_caps *caps);
/* The lanes asked for (0: FLUID_SIM_LANES, else 0: sim_lanes_for picks), checked: 1, 2, 4, 8 or 16;
 * false with err naming the variable or the value. */
bool sim_lanes_resolve(uint32_t asked, uint32_t *lanes, char *err);
/* Each lane's neighbour list holds this many, in both solvers (the lanes of a particle share its
 * neighbours, about 33 at rest and 50 where the fluid is squeezed): DFSPH_LIST_CAP and
 * WCSPH_LIST_CAP in the shaders. */
static inline uint32_t sim_list_cap(uint32_t lanes) { return 48 / lanes + 8; }
/* A neighbour pass: p->n * p->lanes threads, then a shader-storage barrier. */
void sim_dispatch_neighbours(const sim_particles *p, GLuint program);
void sim_particles_destroy(sim_particles *p);
/* Binds the uniform block and the current positions (SIM_B_POS_IN), velocities (SIM_B_VEL_IN)
 * and densities (SIM_B_DENS). */
void sim_particles_bind(const sim_particles *p);

/* A compute program from shaders/PATH with the sim's constants (sim_params.h) as #defines, then
 * `defines` (may be NULL); labelled `label`. 0 with err on failure. */
GLuint sim_program_make(const char *path, const char *defines, const char *label, char *err);
/* One dispatch of ceil(threads / SIM_WG) groups and a shader-storage barrier; nothing for 0. */
void sim_dispatch(GLuint program, uint32_t threads);
/* One indirect dispatch of program with the arguments at `offset` of the bound
 * GL_DISPATCH_INDIRECT_BUFFER (no barrier: the caller places its own). */
void sim_dispatch_indirect(GLuint program, GLintptr offset);

/* The dispatches the simulation has recorded (sim_dispatch, sim_dispatch_indirect and the sort's,
 * counted through its trace; an indirect dispatch counts whether or not the GPU finds groups to run
 * in it), since the program started: a count the program keeps, the same on every driver. */
uint64_t sim_dispatch_count(void);
void sim_dispatch_count_add(uint32_t k);
/* The #define lines every sim shader gets (SIM_WG, B_*). */
void sim_shader_defines(char *out, size_t len);
/* A table of shader constants as "#define NAME VALUE" lines into out (what sim_shader_defines and a
 * solver's own defines write). */
typedef struct sim_define {
    const char *name;
    int value;
} sim_define;
void sim_defines_write(const sim_define *defs, size_t count, char *out, size_t len);

#endif
