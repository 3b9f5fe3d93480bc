// Definitions shared by every simulation shader.
// SIM_WG and the binding points B_* come from src/sim/sim_params.h as #defines (sim_program_make);
// SimParams below mirrors struct sim_params there member for member (the layout test checks it):
// the physics every solver shares; a solver's own parameters are its own block (DFSPH's: DfsphParams
// in sim/dfsph/dfsph_common.glsl, at binding UBO_SOLVER).
#ifndef FLUID_SIM_COMMON_GLSL
#define FLUID_SIM_COMMON_GLSL
#include "common.glsl"
#include "grid.glsl"

layout(std140, binding = SIM_UBO_PARAMS) uniform SimParams {
    vec4 lo;
    vec4 hi;
    uvec4 dims;
    vec4 gravity;
    vec4 poke;
    uvec4 brick;
    uint n;
    float h;
    float cell;
    float inv_cell;
    float hs;
    float mass;
    float rho0;
    float tait_b;
    float c0;
    float alpha;
    float dt;
    float margin;
    float restitution;
    float poke_strength;
    float wall_friction;
    float dx;
} P;

// The grid cell holding p (clamped into the grid, so a particle on the far wall has a cell).
// Twin: sim_cell_of() in src/sim/sim.c (the tests' CPU search uses it).
ivec3 sim_cell_of(vec3 p) {
    ivec3 c = ivec3(floor((p - P.lo.xyz) * P.inv_cell));
    return clamp(c, ivec3(0), ivec3(P.dims.xyz) - 1);
}

// A cell's key and the runs of a row (grid.glsl), in this simulation's grid. SIM_BRICKS 0 (the
// solvers' programs in a grid of rows, particles.c): the rows' key alone, the walks' fewer
// instructions and registers (the generic key cost WCSPH's step at 986,078 9%, session 31).
#if defined(SIM_BRICKS) && SIM_BRICKS == 0
uint sim_cell_key(ivec3 c) { return uint(c.x) + P.dims.x * (uint(c.y) + P.dims.y * uint(c.z)); }
#else
uint sim_cell_key(ivec3 c) { return grid_cell_key(c, P.dims.xyz, P.brick.xyz); }
#endif
int sim_run_end(int x0, int x1) { return grid_run_end(x0, x1, P.brick.xyz); }

// The hard walls, after x += v dt: a centre closer than `margin` to a wall is put back at margin,
// and its velocity into that wall is reversed and scaled by the restitution (both solvers).
void sim_hard_walls(inout vec3 x, inout vec3 v) {
    vec3 lo = P.lo.xyz + P.margin, hi = P.hi.xyz - P.margin;
    for (int a = 0; a < 3; a++) {
        if (x[a] < lo[a]) { x[a] = lo[a]; if (v[a] < 0.0) v[a] *= -P.restitution; }
        if (x[a] > hi[a]) { x[a] = hi[a]; if (v[a] > 0.0) v[a] *= -P.restitution; }
    }
}

#endif
