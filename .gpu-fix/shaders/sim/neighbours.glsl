// The neighbour walk every neighbour pass uses: for the 3 x 3 rows of cells around a particle, the
// three cells of a row have consecutive keys, so their particles are one contiguous run of the
// sorted order: [starts[first cell], starts[last cell + 1]). 9 runs, not 27 cells.
// Needs the cell table bound as `ranges` (uint starts per cell and one past the last: ranges.comp,
// or the counting sort's own).
//
//   SIM_NEIGHBOURS_BEGIN(xi, j)       // j: the index of each candidate in the sorted order
//       vec3 d = xi - pos[j].xyz; ...  // candidates include i itself and particles beyond h
//   SIM_NEIGHBOURS_END
#ifndef FLUID_SIM_NEIGHBOURS_GLSL
#define FLUID_SIM_NEIGHBOURS_GLSL
#include "sim/lanes.glsl"

// The sorted-order run of the row (cx-1 .. cx+1, y, z): start in .x, end in .y (empty: x >= y).
uvec2 sim_row_run(ivec3 c, int y, int z) {
    int x0 = max(c.x - 1, 0), x1 = min(c.x + 1, int(P.dims.x) - 1);
    return uvec2(ranges[sim_cell_key(ivec3(x0, y, z))], ranges[sim_cell_key(ivec3(x1, y, z)) + 1u]);
}

#define SIM_NEIGHBOURS_BEGIN(xi, j)                                                          \
    {                                                                                        \
        ivec3 c_ = sim_cell_of(xi);                                                          \
        uint seen_ = 0u;                                                                     \
        for (int z_ = max(c_.z - 1, 0); z_ <= min(c_.z + 1, int(P.dims.z) - 1); z_++)        \
            for (int y_ = max(c_.y - 1, 0); y_ <= min(c_.y + 1, int(P.dims.y) - 1); y_++) {  \
                uvec2 run_ = sim_row_run(c_, y_, z_);                                        \
                if (run_.y <= run_.x) continue;                                              \
                uint first_ = run_.x + (SIM_LANE + uint(SIM_LANES) - seen_ % uint(SIM_LANES)) % uint(SIM_LANES); \
                seen_ += run_.y - run_.x;                                                    \
                for (uint j = first_; j < run_.y; j += uint(SIM_LANES)) {
#define SIM_NEIGHBOURS_END \
                }          \
            }              \
    }

#endif
