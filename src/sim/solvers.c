/* solvers: the registry of SPH solvers (solver.h), one line a solver. A solver's folder defines
 * `const sim_solver sim_solver_NAME`; its line here is all the rest of the program needs (the
 * command line, the key that cycles solvers, the tests and the benchmarks read this list). */
#include "core/util.h"
#include "sim/solver.h"
#include <string.h>

/* The tests build this file again with a solver of their own added (tests/solver_euler/). */
#ifndef SIM_SOLVERS_EXTRA
#define SIM_SOLVERS_EXTRA(X)
#endif

/* clang-format off */
#define SIM_SOLVERS(X)                                                                             \
    X(sim_solver_dfsph) /* src/sim/dfsph/: the first is the default */                             \
    X(sim_solver_wcsph) /* src/sim/wcsph/ */                                                       \
    SIM_SOLVERS_EXTRA(X)
/* clang-format on */

#define SIM_SOLVER_EXTERN(name) extern const sim_solver name;
#define SIM_SOLVER_ENTRY(name) &name,
SIM_SOLVERS(SIM_SOLVER_EXTERN)
const sim_solver *const sim_solvers[] = {SIM_SOLVERS(SIM_SOLVER_ENTRY) NULL};

const sim_solver *sim_solver_find(const char *name) {
    for (int i = 0; name && sim_solvers[i]; i++)
        if (!strcmp(sim_solvers[i]->name, name)) return sim_solvers[i];
    return NULL;
}

int sim_solver_index(const sim_solver *solver) {
    for (int i = 0; sim_solvers[i]; i++)
        if (sim_solvers[i] == solver) return i;
    return -1;
}

const char *sim_solver_names(void) {
    static char list[256];
    const char *names[32];
    int n = 0;
    while (sim_solvers[n] && n < 32) {
        names[n] = sim_solvers[n]->name;
        n++;
    }
    names_join(list, sizeof list, names, 0, n, ", ", NULL);
    return list;
}
