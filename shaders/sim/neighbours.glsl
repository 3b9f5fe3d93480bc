// The neighbour walk shared by density and forces: for the 3 x 3 rows of cells around a particle,
// the three cells of a row have consecutive keys, so their particles are one contiguous run of the
// sorted order: [first non-empty start, last non-empty end).
// Needs the Ranges buffer bound as `ranges` (uvec2 per cell).
#ifndef FLUID_SIM_NEIGHBOURS_GLSL
#define FLUID_SIM_NEIGHBOURS_GLSL

// The sorted-order run of the row (cx-1 .. cx+1, y, z): start in .x, end in .y (empty: x >= y).
uvec2 sim_row_run(ivec3 c, int y, int z) {
    int x0 = max(c.x - 1, 0), x1 = min(c.x + 1, int(P.dims.x) - 1);
    uint s = UINT_MAX, e = 0u;
    for (int x = x0; x <= x1; x++) {
        uvec2 r = ranges[sim_cell_key(ivec3(x, y, z))];
        if (r.y > r.x) { s = min(s, r.x); e = max(e, r.y); }
    }
    return uvec2(s, e);
}

#endif
