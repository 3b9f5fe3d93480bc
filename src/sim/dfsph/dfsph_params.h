/* dfsph_params: the DFSPH solver's own parameters (SPlisHSPlasH keeps each method's inside the
 * method: m_maxErrorV in TimeStepDFSPH.cpp), out of sim.c.
 *
 *   dfsph_params dp;  dfsph_params_default(&dp, strict);   // the tolerances below, written once
 *   dfsph_params_apply(&dp, hs, nu, params, err);           // into the shaders' block
 *
 * Where they live on the GPU: for now still the "dfsph only" corner of the shared sim_params
 * uniform block, which the DFSPH shaders read (shaders/sim/sim_common.glsl); dfsph_params_apply
 * writes that corner and nothing else. When the solver takes a block of its own, only this file
 * and the shaders change. Errors: apply fails on a bad FLUID_DT_MAX (core/env.h).
 */
#ifndef FLUID_DFSPH_PARAMS_H
#define FLUID_DFSPH_PARAMS_H
#include "sim/sim_params.h"
#include <stdbool.h>
#include <stdint.h>

typedef struct dfsph_params {
    double cfl;                                 /* dt = cfl * dx / v_max, so that the speeds after the pressure solve keep
                                v dt <= 0.4 dx (SPlisHSPlasH's bound) */
    double dt_max;                              /* the largest step (SPlisHSPlasH's), seconds ... */
    double visc_safety;                         /* ... and at most this * hs^2 / nu (explicit viscosity) */
    double dt_min;                              /* the smallest step, seconds */
    double eta_density;                         /* mean density error allowed, relative */
    double eta_divergence;                      /* mean density change over one step from the divergence, relative */
    uint32_t min_it_density, min_it_divergence; /* at least this many iterations a solve */
    uint32_t min_neighbours;                    /* fewer: the divergence solve leaves a particle be (free surface) */
} dfsph_params;

/* strict: mean density error 0.01% (SPlisHSPlasH's default) instead of 0.05% (its dam break). */
void dfsph_params_default(dfsph_params *dp, bool strict);
/* Writes the dfsph corner of p: hs the smoothing length, nu the kinematic viscosity (m^2/s) that
 * bounds an explicit step; FLUID_DT_MAX replaces the largest step. */
bool dfsph_params_apply(const dfsph_params *dp, double hs, double nu, sim_params *p, char *err);

#endif
