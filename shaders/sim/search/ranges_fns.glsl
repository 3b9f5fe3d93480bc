// The cell table's entries: starts[c] = the first sorted index whose key is not below c, for every
// cell and one past the last (starts[cells] = n), so cell c holds [starts[c], starts[c + 1]) and an
// empty cell starts where the next one does. A thread makes SIM_RANGE_CELLS consecutive entries
// (src/sim/search.c sets it: 4, measured against 1, 2, 8 and 32): one binary search of the sorted
// keys for its first cell, then for each next cell a gallop on from the last start (1, 2, 4, ...
// keys, then a binary search inside), so a thread reads about log2 n + its cells' keys' log, and a
// cell full of particles costs its log, not its count. One thread a cell searching the whole array, as before, cost log2 n dependent reads a
// cell: ranges+reorder took 114 µs a step at 986,078 particles on h/2 cells (5.9 M) on the H100, 65
// with 4 cells a thread. A thread a key filling the gaps before its cell serially would leave a long
// run of empty cells (most of the tank) to one thread. Needs `keys` (readonly) and `starts`
// (writeonly) declared.
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

// Thread t's entries: cells t K .. t K + K - 1 (K = SIM_RANGE_CELLS), those up to P.dims.w.
void sim_ranges_write(uint t) {
    uint c0 = t * uint(SIM_RANGE_CELLS);
    if (c0 > P.dims.w) return;
    uint s = sim_keys_lower_bound(0u, P.n, c0);
    starts[c0] = s;
    uint c1 = min(c0 + uint(SIM_RANGE_CELLS), P.dims.w + 1u);
    for (uint c = c0 + 1u; c < c1; c++) {
        uint hi = s, step = 1u; // gallop: keys before s are below c-1 < c
        while (hi < P.n && keys[hi] < c) {
            s = hi + 1u;
            hi = min(hi + step, P.n);
            step <<= 1u;
        }
        s = sim_keys_lower_bound(s, hi, c);
        starts[c] = s;
    }
}
#endif
