/* scene: the initial layouts of the fluid: blocks of particles on a cubic lattice in a tank.
 *
 *   const sim_scene *sc = sim_scene_find("dambreak");
 *   sim_layout lay;
 *   sim_layout_plan(sc, 27648, &lay);        // counts only: cheap, so limits can be checked first
 *   float *pos4 = malloc(16 * lay.count);
 *   sim_layout_fill(&lay, g / (c0 * c0), pos4);
 *
 * Sizes are in units of the scene length L (SIM_SCENE_L metres, the column width of Koshizuka &
 * Oka's dam break). A particle count N sets the spacing: dx = L / k with k = round(L / cbrt(V/N)),
 * V the fluid volume, so the physical scene stays the same at every N and only the resolution
 * changes; each block holds round(size / dx) particles per axis (at least 1), so the count is
 * about N (exactly 2 k^3 for the dam break: 27,648 = 2 * 24^3). It does NOT simulate anything.
 */
#ifndef FLUID_SIM_SCENE_H
#define FLUID_SIM_SCENE_H
#include <stdbool.h>
#include <stdint.h>

#define SIM_SCENE_L 0.146 /* metres */
#define SIM_SCENE_MAX_BLOCKS 2

typedef struct sim_block {
    double lo[3], size[3]; /* in L */
} sim_block;

typedef struct sim_scene {
    const char *name;
    const char *summary;
    double tank[3]; /* in L; the tank's min corner is the origin, y is up */
    int blocks;
    sim_block block[SIM_SCENE_MAX_BLOCKS];
    uint32_t default_particles;
} sim_scene;

typedef struct sim_layout {
    const sim_scene *scene;
    double L, dx;                        /* metres */
    int k;                               /* particles across L */
    double lo[3], hi[3];                 /* the tank, metres */
    uint64_t n[SIM_SCENE_MAX_BLOCKS][3]; /* particles per axis per block */
    uint64_t count;                      /* all particles */
    double top;                          /* highest particle centre + dx/2, metres */
} sim_layout;

/* The registry: every scene, the default first; names, help and messages are read from it. */
extern const sim_scene sim_scenes[];
extern const int sim_scene_count;
const sim_scene *sim_scene_find(const char *name); /* NULL if unknown */
void sim_layout_plan(const sim_scene *sc, uint64_t target, sim_layout *out);
/* lay->count vec4s, w = 0. Each block's layers are compressed to hydrostatic balance under the
 * Tait equation (g_over_c2 = g / c0^2; 0: a plain lattice): the pressure is right from the start,
 * so no pressure wave rings through the fluid. */
void sim_layout_fill(const sim_layout *lay, double g_over_c2, float *pos4);

#endif
