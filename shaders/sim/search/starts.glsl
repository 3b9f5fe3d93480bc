// The cell table's entry for cell c: the first sorted index whose key is not below c (n past the
// last key). Two threads of the work group binary-search all n keys for the group's first cell and
// for the cell one past its last; every thread then searches only between those two answers. With
// h/2 cells (FLUID_SIM_CELL=2: 5.9M cells for 986,078 particles) a group's 256 cells hold a few
// dozen particles, so a thread reads ~6 keys instead of log2 n ~ 20 (the whole search, one thread
// a cell, took 115 us there on the H100 against 45 us with h cells). Needs `keys` (the sorted
// keys) bound; call from uniform control flow (a barrier).
#ifndef FLUID_SIM_STARTS_GLSL
#define FLUID_SIM_STARTS_GLSL

shared uint s_starts_bounds[2];

uint _sim_first_not_below(uint c, uint lo, uint hi) { // the answer is in [lo, hi]
    while (lo < hi) {
        uint mid = (lo + hi) >> 1u;
        if (keys[mid] < c) lo = mid + 1u;
        else hi = mid;
    }
    return lo;
}

uint sim_cell_start(uint c) {
    uint lid = gl_LocalInvocationID.x, c0 = gl_WorkGroupID.x * gl_WorkGroupSize.x;
    if (lid < 2u) s_starts_bounds[lid] = _sim_first_not_below(c0 + lid * gl_WorkGroupSize.x, 0u, P.n);
    barrier();
    return _sim_first_not_below(c, s_starts_bounds[0], s_starts_bounds[1]);
}

#endif
