/* dfsph_params: the DFSPH solver's own parameters (SPlisHSPlasH keeps each method's inside the
 * method: m_maxErrorV in TimeStepDFSPH.cpp), written into its own uniform block (dfsph_gpu_params,
 * dfsph_layout.h; DfsphParams in shaders/sim/dfsph/dfsph_common.glsl, at SIM_UBO_SOLVER).
 *
 *   dfsph_params dp;  dfsph_params_default(&dp, strict, dt_max);   // the tolerances below, written once
 *   dfsph_gpu_params g;  dfsph_params_apply(&dp, hs, nu, &g);  // into the shaders' block
 *
 * It reads FLUID_DT_MAX only when asked (dfsph_params_env, from dfsph_desc's resolve); the rest
 * comes from dfsph_desc (dfsph.h) through dfsph.c.
 */
#ifndef FLUID_DFSPH_PARAMS_H
#define FLUID_DFSPH_PARAMS_H
#include "sim/dfsph/dfsph_layout.h"
#include <stdbool.h>
#include <stdint.h>

typedef struct dfsph_params {
    double cfl;                                 /* dt = cfl * dx / v_max, so that the speeds after the pressure solve keep
                                v dt <= 0.4 dx (SPlisHSPlasH's bound) */
    double dt_max;                              /* the largest step (SPlisHSPlasH's), seconds ... */
    double visc_safety;                         /* ... and at most twice this * hs^2 / nu (the explicit viscosity's
                                                 * bound; a step past it takes the viscosity in half-steps) */
    double depth_safety;                        /* K: dt <= sqrt(K dx^3 / g) / H, H the water's depth (docs/SPH.md,
                                                 * "The depth bound") */
    double dt_min;                              /* the smallest step, seconds */
    double eta_density;                         /* mean density error allowed, relative */
    double eta_divergence;                      /* mean density change over one step from the divergence, relative */
    uint32_t min_it_density, min_it_divergence; /* at least this many iterations a solve */
    uint32_t min_neighbours;                    /* fewer: the divergence solve leaves a particle be (free surface) */
    float dt_max_set;                           /* the desc's dt_max (0: the bound above) */
} dfsph_params;

/* FLUID_DT_MAX into *dt_max where set; false with err on a bad value. */
bool dfsph_params_env(float *dt_max, char *err);
/* strict: mean density error 0.01% (SPlisHSPlasH's default) instead of 0.05% (its dam break);
 * dt_max > 0 replaces the largest step (dfsph_desc, dfsph.h). */
void dfsph_params_default(dfsph_params *dp, bool strict, float dt_max);
/* Fills the block: hs the smoothing length, nu the kinematic viscosity (m^2/s) that bounds an
 * explicit step, dx the particles' spacing (the depth bound, at every count); rest: the rest's step
 * rule (dt_max up to twice the viscosity's bound), else dt_max within the bound. */
void dfsph_params_apply(const dfsph_params *dp, double hs, double nu, double dx, bool rest, dfsph_gpu_params *out);

#endif
