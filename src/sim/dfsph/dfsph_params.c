/* dfsph_params: the DFSPH solver's own parameters (see dfsph_params.h). */
#include "sim/dfsph/dfsph_params.h"
#include "core/env.h"
#include "core/util.h"
#include "sim/particles.h"
#include <math.h>
#include <stdio.h>

void dfsph_params_default(dfsph_params *dp, bool strict, float dt_max) {
    *dp = (dfsph_params){
        .cfl = 0.35,
        .dt_max = 0.005,
        .visc_safety = 0.125,
        .depth_safety = 7,
        .dt_min = 1e-5,
        .eta_density = strict ? 1e-4 : 5e-4, /* 0.01% / 0.05% (SPlisHSPlasH's default / its dam break) */
        .eta_divergence = 1e-3,              /* 0.1% a step */
        .min_it_density = 2,
        .min_it_divergence = 0, /* the divergence solve may stop at its first predict (session 20, docs/SPH.md) */
        .min_neighbours = 20,
        .dt_max_set = dt_max,
    };
}

void dfsph_params_apply(const dfsph_params *dp, double hs, double nu, double dx, bool rest, dfsph_gpu_params *out) {
    /* Up to twice the explicit viscosity's bound where the rest's rules hold, a step past it taking
     * the viscosity in half-steps (solve_fns.glsl); the depth bound holds a deep pool's steps
     * shorter at every count (it went restless past it, and erupted at 432,000 and 986,078 without
     * it: docs/SPH.md, "The depth bound"). */
    double dt_visc = dp->visc_safety * hs * hs / nu;
    double most = (rest ? 2 : 1) * dt_visc;
    out->dt_max = dp->dt_max_set > 0 ? dp->dt_max_set : (float)(most < dp->dt_max ? most : dp->dt_max);
    out->dt_visc = (float)dt_visc;
    out->dt_press = (float)sqrt(dp->depth_safety * dx * dx * dx); /* dt <= sqrt(K dx^3) / (sqrt(g) H) */
    out->dt_min = (float)dp->dt_min;
    out->cfl = (float)dp->cfl;
    out->eta_density = (float)dp->eta_density;
    out->eta_divergence = (float)dp->eta_divergence;
    out->min_it_density = dp->min_it_density;
    out->min_it_divergence = dp->min_it_divergence;
    out->min_neighbours = dp->min_neighbours;
}

bool dfsph_params_env(float *dt_max, char *err) { return env_float(ENV_DT_MAX, 1e-6, 0.1, dt_max, err); }

void dfsph_shader_defines(char *out, size_t len) {
    static const sim_define defs[] = {
#define DFSPH_DEFINE_ROW(glsl, c) {#glsl, c},
        DFSPH_SHADER_CONSTANTS(DFSPH_DEFINE_ROW)
#undef DFSPH_DEFINE_ROW
    };
    sim_defines_write(defs, ARRAY_LEN(defs), out, len);
}
