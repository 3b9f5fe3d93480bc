/* dfsph_params: the DFSPH solver's own parameters (see dfsph_params.h). */
#include "sim/dfsph/dfsph_params.h"
#include "core/env.h"

void dfsph_params_default(dfsph_params *dp, bool strict) {
    *dp = (dfsph_params){
        .cfl = 0.35,
        .dt_max = 0.005,
        .visc_safety = 0.125,
        .dt_min = 1e-5,
        .eta_density = strict ? 1e-4 : 5e-4, /* 0.01% / 0.05% (SPlisHSPlasH's default / its dam break) */
        .eta_divergence = 1e-3,              /* 0.1% a step */
        .min_it_density = 2,
        .min_it_divergence = 1,
        .min_neighbours = 20,
    };
}

bool dfsph_params_apply(const dfsph_params *dp, double hs, double nu, sim_params *p, char *err) {
    double dt_visc = dp->visc_safety * hs * hs / nu;
    p->dt_max = (float)(dt_visc < dp->dt_max ? dt_visc : dp->dt_max);
    if (!env_float(ENV_DT_MAX, 1e-6, 0.1, &p->dt_max, err)) return false;
    p->dt_min = (float)dp->dt_min;
    p->cfl = (float)dp->cfl;
    p->eta_density = (float)dp->eta_density;
    p->eta_divergence = (float)dp->eta_divergence;
    p->min_it_density = dp->min_it_density;
    p->min_it_divergence = dp->min_it_divergence;
    p->min_neighbours = dp->min_neighbours;
    return true;
}
