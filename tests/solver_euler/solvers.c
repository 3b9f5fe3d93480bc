/* The registry (src/sim/solvers.c) with the tests' third solver on its one line. */
#define SIM_SOLVERS_EXTRA(X) X(sim_solver_euler) /* tests/solver_euler/ */
#include "../../src/sim/solvers.c"
