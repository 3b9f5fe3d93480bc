/* diffuse: spray, foam and bubbles as a by-product of the fluid (Ihmsen, Akinci, Akinci and
 * Teschner, "Unified spray, foam and bubbles for particle-based fluids", The Visual Computer 2012).
 * The fluid's state is never written: two runs with and without them simulate the same fluid.
 *
 *   sim_desc d = {..., .diffuse = {.on = true}};    // capacity 0: the default (sim_diffuse_capacity)
 *   each frame: sim_frame(...) ends with sim_diffuse_update (sim.c), once, over the frame's seconds
 *   draw:  sim_diffuse_view v; sim_get_diffuse(s, &v);  // v.particles, v.state (the renderer's; sim.h)
 *   count: sim_diffuse_counts c; sim_read_diffuse(s, &c, false);  // the newest finished, no wait (sim.h)
 *
 * Once a frame (not a step), over the cell table of the frame's last search (no search of its own),
 * in five dispatches and one buffer clear (shaders/sim/diffuse/):
 *   1. normals     each fluid particle's surface normal (the colour field's gradient);
 *   2. potentials  each fluid particle's trapped air I_ta = sum |v_ij| (1 - v^_ij . x^_ij) W(x_ij),
 *                  wave crest I_wc = sum (1 - n^_i . n^_j) W(x_ij) over the neighbours below its
 *                  surface, where it moves along its normal (v^_i . n^_i >= 0.6), and kinetic
 *                  energy a kilogram I_k = |v_i|^2 / 2; each clamped into [0, 1] between two
 *                  thresholds (Phi); it spawns n = I_k (k_ta I_ta + k_wc I_wc) dt diffuse particles
 *                  (the fraction by a hash of its id and the frame: no random state), at most
 *                  DIFFUSE_MAX_SPAWN;
 *   3. advect      each diffuse particle classified by its fluid neighbours within h: fewer than
 *                  DIFFUSE_SPRAY_BELOW spray (ballistic: gravity), more than DIFFUSE_BUBBLE_ABOVE
 *                  bubbles (buoyancy against gravity and drag towards the fluid's velocity,
 *                  integrated exactly over the frame: the same motion at any frame rate), else
 *                  foam (carried by the kernel-weighted mean of its neighbours' velocities); every
 *                  one ages and dies at the end of its lifetime or outside the tank, spray that
 *                  lands on a dry wall or floor (no fluid neighbour) within DIFFUSE_WALL_LIFE;
 *   4. scan        the survivors' and the new ones' counts, a work group's sum each, scanned in
 *                  one work group: each gets a fixed slot (survivors first, then the spawns in the
 *                  fluid's order), so the result never depends on the order threads run in;
 *   5. scatter     the survivors compacted and the new ones written into the other buffer of a
 *                  ping-pong pair; a slot past the capacity is not written: dropped, and counted.
 *
 * Errors: sim_make fails (sim_diffuse_make's err) where the buffers do not fit or a shader does
 * not build. It does NOT change the fluid, draw anything (render_surface.c does) or read input.
 */
#ifndef FLUID_SIM_DIFFUSE_H
#define FLUID_SIM_DIFFUSE_H
#include "gpu/gpu.h"
#include "sim/particles.h" /* sim_particles, sim_params */
#include <stdbool.h>
#include <stdint.h>

/* In sim_desc.diffuse (zero: off). */
typedef struct sim_diffuse_desc {
    bool on;
    uint32_t capacity; /* the most diffuse particles alive at once; 0: sim_diffuse_capacity(particles) */
    float lifetime;    /* the longest lifetime, seconds (a new one's is 0.4 to 1 of it); 0: SIM_DIFFUSE_LIFETIME */
} sim_diffuse_desc;

#define SIM_DIFFUSE_LIFETIME 2.5

/* The default capacity for a fluid of n particles: n / 2, at least 4096, at most 1 << 20. */
uint32_t sim_diffuse_capacity(uint32_t n);

/* What the renderer reads (0s where the sim has none). */
typedef struct sim_diffuse_view {
    GLuint particles; /* 2 vec4 a slot: xyz metres and the lifetime left (s); xyz m/s and the kind (DIFFUSE_KIND_*) */
    GLuint state;     /* the counts (sim_diffuse_state_layout): draw by indirect dispatch at offset 0, 64 threads a group */
    uint32_t capacity;
    bool shown; /* false while switched off (sim_set_diffuse_shown) */
} sim_diffuse_view;

/* The kinds (the particle's second vec4's w). */
#define DIFFUSE_KIND_SPRAY 0
#define DIFFUSE_KIND_FOAM 1
#define DIFFUSE_KIND_BUBBLE 2

typedef struct sim_diffuse_counts {
    bool known;                   /* false: none read yet (or the sim has none) */
    uint32_t spray, foam, bubble; /* alive after the frame's advection, by kind (the newly spawned not yet classified) */
    uint32_t alive;               /* every slot in use after the frame, the new ones included */
    uint32_t spawned;             /* new ones written in the frame */
    uint32_t dropped;             /* new ones the frame had no slot for */
    uint64_t dropped_total;       /* since sim_make (or a reset) */
    uint32_t frames;              /* frames updated */
    uint32_t capacity;
} sim_diffuse_counts;
/* ---- the object, owned by the sim (sim.c; sim.h's sim_get_diffuse, sim_read_diffuse and
 * sim_set_diffuse_shown, sim_read.c, call these; d may be NULL: none) ---- */
typedef struct sim_diffuse sim_diffuse;
sim_diffuse *sim_diffuse_make(const sim_diffuse_desc *desc, uint32_t fluid_particles, char *err);
void sim_diffuse_destroy(sim_diffuse *d);
/* After the frame's last step: p in the order of the last search, ranges its cell table. */
void sim_diffuse_update(sim_diffuse *d, const sim_particles *p, GLuint ranges, const sim_params *params, double seconds);
void sim_diffuse_clear(sim_diffuse *d); /* none alive, counts zero */
void sim_diffuse_get_view(const sim_diffuse *d, sim_diffuse_view *out);
/* wait: the last frame's (waits for the GPU); else the newest frame the GPU has finished (no
 * wait; known false before the first). False (known false) where d is NULL. */
bool sim_diffuse_read(sim_diffuse *d, sim_diffuse_counts *out, bool wait);
/* Switched off: not simulated, not drawn, none alive (the next switch on starts from none). */
void sim_diffuse_show(sim_diffuse *d, bool on);
/* Tests: the ping-pong pair of particle buffers (2 vec4 a slot) and their slots (the capacity
 * rounded up). */
void sim_diffuse_buffers(const sim_diffuse *d, GLuint out[2], uint32_t *slots);
/* Tests: the normals and potentials passes on p as it is, by original index (p's ids), 4 floats
 * each: I_ta, I_wc, I_k (unclamped) and the spawn count n before rounding, over dt. */
bool sim_diffuse_potentials(sim_diffuse *d, const sim_particles *p, GLuint ranges, const sim_params *params, float dt,
                            float *out4, char *err);
/* Tests: the advection pass alone over dt (classified, moved, aged in place; none removed), on p
 * as it is. */
void sim_diffuse_advect(sim_diffuse *d, const sim_particles *p, GLuint ranges, const sim_params *params, float dt);

#endif
