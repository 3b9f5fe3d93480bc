/* prof_test: the test-only header of prof.c. Not for the app: it uses prof.h. */
#ifndef FLUID_PROF_TEST_H
#define FLUID_PROF_TEST_H
#include "gpu/prof.h"

/* A finished frame with these stage times (us, one per stage) and timed stages (bit s: stage s),
 * as if measured: what prof_stats and prof_history read. */
void prof_test_push(gpu_prof *p, const double *us, uint32_t timed);

#endif
