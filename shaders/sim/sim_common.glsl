// Definitions shared by every simulation shader.
// C twin: src/sim/sim_params.h (struct sim_params == SimParams below, SIM_WG, SIM_B_* == B_*).
#ifndef FLUID_SIM_COMMON_GLSL
#define FLUID_SIM_COMMON_GLSL
#include "common.glsl"

#define SIM_WG 128

#define B_POS_IN 0
#define B_VEL_IN 1
#define B_POS_OUT 2
#define B_VEL_OUT 3
#define B_KEYS 4
#define B_VALS 5
#define B_RANGES 6
#define B_DENS 7
#define B_PTERM 8
#define B_ACCEL 9
#define B_ID_IN 10
#define B_ID_OUT 11
#define B_CELL_KEYS 12

layout(std140, binding = 0) uniform SimParams {
    vec4 lo;
    vec4 hi;
    uvec4 dims;
    vec4 gravity;
    vec4 poke;
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
// Twin: sim_cell_of() in src/sim/sim.c.
ivec3 sim_cell_of(vec3 p) {
    ivec3 c = ivec3(floor((p - P.lo.xyz) * P.inv_cell));
    return clamp(c, ivec3(0), ivec3(P.dims.xyz) - 1);
}

uint sim_cell_key(ivec3 c) { return uint(c.x) + P.dims.x * (uint(c.y) + P.dims.y * uint(c.z)); }

#endif
