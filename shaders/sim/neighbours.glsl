// The neighbour walk every neighbour pass uses. Cells are h / SIM_CELL_REACH wide (h or h/2,
// FLUID_SIM_CELL), so a particle's neighbours lie in the (2R+1)^3 cells around its own, R =
// SIM_CELL_REACH. The 2R+1 cells of a row have consecutive keys, so their particles are one
// contiguous run of the sorted order: [starts[first cell], starts[last cell + 1]): 9 runs for h
// cells, 25 for h/2 cells. In a brick order (FLUID_SIM_BRICK, grid.glsl; SIM_BRICKS 1) a row's
// cells are consecutive only within a brick, and each cell is a run of its own. A row whose slab
// (in y and z) lies h or more from the particle holds no neighbour and is skipped (with h/2 cells
// about 3 of the 25 rows, with h cells about 1 of 9), and a row's run is clipped in x to the
// cells the sphere of radius h crosses at the row's gap g:
// x within sqrt(R^2 - g^2) cells of the particle's. For particles spread evenly that walks 20.6
// cells of 24.4 with h cells (165 candidates of 195 for 33 neighbours) and 84 of 108 with h/2.
// Needs the cell table bound as `ranges` (uint starts per cell and one past the last: ranges.comp,
// or the counting sort's own).
//
//   SIM_NEIGHBOURS_BEGIN(xi, j)       // j: the index of each candidate in the sorted order
//       vec3 d = xi - SIM_NBR_X.xyz; ... // its position; candidates include i itself and particles beyond h
//   SIM_NEIGHBOURS_END
// SIM_NBR_X is the candidate's position, from SIM_NEIGHBOURS_POS (default pos).
// SIM_NEIGHBOURS_BATCH N > 1: a run's candidates are taken N at a time, their positions loaded
// first, the N loads at once with no branch between them, then the N candidates in order: the
// same sums in the same order.
#ifndef FLUID_SIM_NEIGHBOURS_GLSL
#define FLUID_SIM_NEIGHBOURS_GLSL
#include "sim/lanes.glsl"
#ifndef SIM_CELL_REACH
#define SIM_CELL_REACH 1
#endif
#ifndef SIM_NEIGHBOURS_BATCH
#define SIM_NEIGHBOURS_BATCH 1
#endif
#ifndef SIM_NEIGHBOURS_POS
#define SIM_NEIGHBOURS_POS pos
#endif

// The cells of the row (y, z) at gap g2 (squared, in cells) from the particle at ux (in cells from
// lo, not clamped; its cell cx) that the walk visits: cells cx-R .. cx+R clipped to those within
// sqrt(R^2 - g2) of ux, with the cells' margin (SIM_CELL_MARGIN: h = R / 1.0001 cells) and 1e-3
// more for float rounding. The edge cells reach on past the box (sim_cell_of clamps into them), so
// the clip's ends are clamped the same way; the span always holds cell cx. First cell in .x, last
// in .y. Their particles are one run of the sorted order where the cells are rows, else a run a
// cell (SIM_NB_RUNS_BEGIN_ below).
ivec2 sim_row_span(int cx, float ux, float g2) {
    float w = sqrt(max(float(SIM_CELL_REACH * SIM_CELL_REACH) - g2, 0.0)) + 1e-3;
    int last = int(P.dims.x) - 1;
    return ivec2(max(cx - SIM_CELL_REACH, clamp(int(floor(ux - w)), 0, last)),
                 min(cx + SIM_CELL_REACH, clamp(int(floor(ux + w)), 0, last)));
}

// The gap, in cells, between u (a coordinate in cells from lo, not clamped) and the slab of cell
// row k of `dims`. The first and last rows reach on past the box, since sim_cell_of clamps the
// particles beyond it into them. A neighbour is closer than h = R / SIM_CELL_MARGIN cells, so a
// row whose gaps in y and z give gy^2 + gz^2 >= R^2 holds none, float rounding of u included.
float sim_row_gap(float u, int k, int dims) {
    float lo = k == 0 ? -1e30 : float(k), hi = k == dims - 1 ? 1e30 : float(k + 1);
    return max(max(lo - u, u - hi), 0.0);
}

#define SIM_NEIGHBOURS_BEGIN(xi, j)                                                                          \
    {                                                                                                        \
        ivec3 c_ = sim_cell_of(xi);                                                                          \
        vec3 u_ = (xi - P.lo.xyz) * P.inv_cell;                                                              \
        uint seen_ = 0u;                                                                                     \
        for (int z_ = max(c_.z - SIM_CELL_REACH, 0); z_ <= min(c_.z + SIM_CELL_REACH, int(P.dims.z) - 1); z_++) { \
            float gz_ = sim_row_gap(u_.z, z_, int(P.dims.z));                                                \
            for (int y_ = max(c_.y - SIM_CELL_REACH, 0); y_ <= min(c_.y + SIM_CELL_REACH, int(P.dims.y) - 1); y_++) { \
                float gy_ = sim_row_gap(u_.y, y_, int(P.dims.y));                                            \
                float g2_ = gy_ * gy_ + gz_ * gz_;                                                           \
                if (g2_ >= float(SIM_CELL_REACH * SIM_CELL_REACH)) continue;                                 \
                ivec2 span_ = sim_row_span(c_.x, u_.x, g2_);                                                 \
                SIM_NB_RUNS_BEGIN_                                                                           \
                if (run_.y <= run_.x) continue;                                                              \
                uint first_ = run_.x + (SIM_LANE + uint(SIM_LANES) - seen_ % uint(SIM_LANES)) % uint(SIM_LANES); \
                seen_ += run_.y - run_.x;                                                                    \
                SIM_NB_LOOP_
#define SIM_NEIGHBOURS_END \
                }          \
                SIM_NB_RUNS_END_ \
            }              \
        }                  \
        SIM_NB_LOOP_END_   \
    }
// A row's span as runs: one where the cells are rows (SIM_BRICKS 0), else a run a cell (grid.glsl).
#if defined(SIM_BRICKS) && SIM_BRICKS == 0
#define SIM_NB_RUNS_BEGIN_ \
    { uvec2 run_ = uvec2(ranges[sim_cell_key(ivec3(span_.x, y_, z_))], ranges[sim_cell_key(ivec3(span_.y, y_, z_)) + 1u]);
#else
#define SIM_NB_RUNS_BEGIN_                                                                                     \
    for (int xs_ = span_.x, xe_; xs_ <= span_.y; xs_ = xe_ + 1) {                                              \
        xe_ = sim_run_end(xs_, span_.y);                                                                       \
        uvec2 run_ = uvec2(ranges[sim_cell_key(ivec3(xs_, y_, z_))], ranges[sim_cell_key(ivec3(xe_, y_, z_)) + 1u]);
#endif
#define SIM_NB_RUNS_END_ }
#if SIM_NEIGHBOURS_BATCH > 1
#define SIM_NB_LOOP_                                                                                  \
    for (uint jb_ = first_; jb_ < run_.y; jb_ += uint(SIM_LANES * SIM_NEIGHBOURS_BATCH)) {           \
        vec4 xb_[SIM_NEIGHBOURS_BATCH];                                                              \
        for (uint u_ = 0u; u_ < uint(SIM_NEIGHBOURS_BATCH); u_++) {                                  \
            uint jc_ = min(jb_ + u_ * uint(SIM_LANES), run_.y - 1u); /* past the run: its last again */ \
            xb_[u_] = SIM_NEIGHBOURS_POS[jc_];                                                       \
        }                                                                                            \
        for (uint u_ = 0u; u_ < uint(SIM_NEIGHBOURS_BATCH); u_++) {                                  \
            uint j = jb_ + u_ * uint(SIM_LANES);                                                     \
            if (j >= run_.y) break;
#define SIM_NB_LOOP_END_ }
#define SIM_NBR_X xb_[u_]
#else
#define SIM_NB_LOOP_ for (uint j = first_; j < run_.y; j += uint(SIM_LANES)) {
#define SIM_NB_LOOP_END_
#define SIM_NBR_X SIM_NEIGHBOURS_POS[j]
#endif

#endif
