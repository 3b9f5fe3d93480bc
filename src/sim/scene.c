#include "sim/scene.h"
#include "core/util.h"
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

const sim_scene sim_scenes[] = {
    {"dambreak",
     "a water column L wide, 2L high, L deep at the left end of a 4L x 3L x L tank",
     {4, 3, 1},
     1,
     {{{0, 0, 0}, {1, 2, 1}}},
     27648},
    {"drop",
     "a block L/2 on a side falling 0.75 L into a pool L/2 deep, in a 2L x 2L x L tank",
     {2, 2, 1},
     2,
     {{{0, 0, 0}, {2, 0.5, 1}}, {{0.75, 1.25, 0.25}, {0.5, 0.5, 0.5}}},
     27648},
    {"double-dambreak",
     "two columns L x 2L x L at both ends of a 4L x 3L x L tank, meeting in the middle",
     {4, 3, 1},
     2,
     {{{0, 0, 0}, {1, 2, 1}}, {{3, 0, 0}, {1, 2, 1}}},
     27648},
    {"pool", "still water L deep in an L x 1.5L x L tank (at rest; poke it)", {1, 1.5, 1}, 1, {{{0, 0, 0}, {1, 1, 1}}}, 27648},
};

const int sim_scene_count = (int)ARRAY_LEN(sim_scenes);

const sim_scene *sim_scene_find(const char *name) {
    for (size_t i = 0; name && i < ARRAY_LEN(sim_scenes); i++)
        if (strcmp(sim_scenes[i].name, name) == 0) return &sim_scenes[i];
    return NULL;
}

static uint64_t _scene_round(double x) { return x < 1.5 ? 1 : (uint64_t)llround(x); }

void sim_layout_plan(const sim_scene *sc, uint64_t target, sim_layout *out) {
    memset(out, 0, sizeof *out);
    out->scene = sc;
    out->L = SIM_SCENE_L;
    double volume = 0; /* in L^3 */
    for (int b = 0; b < sc->blocks; b++) volume += sc->block[b].size[0] * sc->block[b].size[1] * sc->block[b].size[2];
    if (!target) target = sc->default_particles;
    double k = cbrt((double)target / volume);
    out->k = k < 1.5 ? 1 : (int)lround(k);
    out->dx = out->L / out->k;
    for (int a = 0; a < 3; a++) {
        out->lo[a] = 0;
        out->hi[a] = sc->tank[a] * out->L;
    }
    for (int b = 0; b < sc->blocks; b++) {
        uint64_t c = 1;
        for (int a = 0; a < 3; a++) {
            out->n[b][a] = _scene_round(sc->block[b].size[a] * out->k);
            c *= out->n[b][a];
        }
        out->count += c;
        double top = sc->block[b].lo[1] * out->L + (double)out->n[b][1] * out->dx;
        if (top > out->top) out->top = top;
    }
}

void sim_layout_fill(const sim_layout *lay, double g_over_c2, float *pos4) {
    uint64_t i = 0;
    for (int b = 0; b < lay->scene->blocks; b++) {
        const sim_block *bl = &lay->scene->block[b];
        uint64_t ny = lay->n[b][1];
        double *ys = malloc(sizeof(double) * ny);
        /* Layer j is a slab of thickness dx / r, r the Tait density ratio at its depth below the
         * block's uncompressed top, so the block starts in hydrostatic balance. */
        double y = bl->lo[1] * lay->L, top = (double)ny * lay->dx;
        for (uint64_t j = 0; j < ny; j++) {
            double depth = top - ((double)j + 0.5) * lay->dx;
            double t = lay->dx / pow(1 + 7 * g_over_c2 * depth, 1.0 / 7);
            ys[j] = y + t / 2;
            y += t;
        }
        for (uint64_t z = 0; z < lay->n[b][2]; z++)
            for (uint64_t yi = 0; yi < ny; yi++)
                for (uint64_t x = 0; x < lay->n[b][0]; x++, i++) {
                    pos4[4 * i + 0] = (float)(bl->lo[0] * lay->L + ((double)x + 0.5) * lay->dx);
                    pos4[4 * i + 1] = (float)ys[yi];
                    pos4[4 * i + 2] = (float)(bl->lo[2] * lay->L + ((double)z + 0.5) * lay->dx);
                    pos4[4 * i + 3] = 0.0f; /* w: the solver's (particles.h) */
                }
        free(ys);
    }
}
