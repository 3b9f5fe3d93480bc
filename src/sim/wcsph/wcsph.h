/* wcsph: the weakly compressible solver (wcsph.c), registered in src/sim/solvers.c. It has no desc
 * of its own: its step is bound by the shared physics (sim_params.dt). */
#ifndef FLUID_WCSPH_H
#define FLUID_WCSPH_H
#include "sim/solver.h"

extern const sim_solver sim_solver_wcsph;

#endif
