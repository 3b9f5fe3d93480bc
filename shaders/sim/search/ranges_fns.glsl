// The cell table's entries: starts[c] = the first sorted index whose key is not below c, for every
// cell and one past the last (starts[cells] = n), so cell c holds [starts[c], starts[c + 1]) and an
// empty cell starts where the next one does. A thread makes SIM_RANGE_CELLS consecutive entries
// (src/sim/search.c sets it by the particle count, as measured): its first by a search from the
// entry the table already holds (the last search's: the particles moved a little since, so it is a
// few keys off), each next one by a gallop on from the one before (1, 2, 4, ... keys, then a binary
// search inside), so a cell full of particles costs its log, not its count. These passes are
// latency-bound: a thread's chain of dependent reads is what they cost. A binary search of the whole
// array for the first entry (log2 n reads) took the ranges+reorder pass 13.0 µs a step at 27,648 on
// the H100, the search from the guess 9.6 (s30); one thread a cell, each a binary search, 114 µs at
// 986,078 on h/2 cells, 4 cells a thread 65 (s18). A thread a key filling the gaps before its cell
// serially would leave a long run of empty cells (most of the tank) to one thread.
// Needs `keys` (readonly) and `starts` (read and written: each entry by its own thread only) declared.
#ifndef FLUID_SIM_RANGES_FNS_GLSL
#define FLUID_SIM_RANGES_FNS_GLSL

// The first index in [lo, hi] whose key is not below c, given that every key before lo is below c
// and keys[hi] (hi < n) is not.
uint sim_keys_lower_bound(uint lo, uint hi, uint c) {
    while (lo < hi) {
        uint mid = (lo + hi) >> 1u;
        if (keys[mid] < c) lo = mid + 1u;
        else hi = mid;
    }
    return lo;
}

// The first index whose key is not below c, given that every key before s is below c: a gallop
// on from s (1, 2, 4, ... keys) brackets it, a binary search inside finds it.
uint sim_keys_gallop_up(uint s, uint c) {
    uint hi = s, step = 1u;
    while (hi < P.n && keys[hi] < c) {
        s = hi + 1u;
        hi = min(hi + step, P.n);
        step <<= 1u;
    }
    return sim_keys_lower_bound(s, hi, c);
}

// The first index whose key is not below c, searched from a guess g in [0, n]: the key just below g
// says on which side it lies; a gallop from g that way brackets it, and a binary search inside
// finds it. A guess k keys off costs about 2 log2 k dependent reads; a right one
// costs two (keys[g - 1] and keys[g]).
uint sim_keys_lower_bound_from(uint g, uint c) {
    if (g > 0u && keys[g - 1u] >= c) { // it lies below g: gallop down
        uint hi = g - 1u, step = 1u; // keys[hi] is not below c
        while (hi > 0u) {
            uint m = hi > step ? hi - step : 0u;
            if (keys[m] < c) return sim_keys_lower_bound(m + 1u, hi, c);
            hi = m;
            step <<= 1u;
        }
        return 0u;
    }
    return sim_keys_gallop_up(g, c); // keys before g are below c
}

// Thread t's entries: cells t K .. t K + K - 1 (K = SIM_RANGE_CELLS), those up to P.dims.w. The first
// is searched from the guess the table holds (the last search's entry: the particles moved a little
// since, so it is a few keys off, or any value after the particles were set anew: the search is
// exact from any guess), each next one by a gallop on from the last.
void sim_ranges_write(uint t) {
    uint c0 = t * uint(SIM_RANGE_CELLS);
    if (c0 > P.dims.w) return;
    uint s = sim_keys_lower_bound_from(min(starts[c0], P.n), c0);
    starts[c0] = s;
    uint c1 = min(c0 + uint(SIM_RANGE_CELLS), P.dims.w + 1u);
    for (uint c = c0 + 1u; c < c1; c++) {
        s = sim_keys_gallop_up(s, c); // keys before s are below c - 1 < c
        starts[c] = s;
    }
}
#endif
