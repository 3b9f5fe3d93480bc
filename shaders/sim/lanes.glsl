// Lanes: SIM_LANES threads share a particle in a neighbour pass (the solvers set it from the
// particle count, src/sim/particles.c). Lane l takes every SIM_LANES-th neighbour candidate, so a
// particle's walk is SIM_LANES times shorter and the GPU holds SIM_LANES times more threads; the
// lanes' sums are added up with sim_lanes_sum (every lane gets the total; call it from uniform
// control flow, so passes do not return early). The order of the additions is fixed, so results
// do not depend on the sort.
#ifndef FLUID_SIM_LANES_GLSL
#define FLUID_SIM_LANES_GLSL
#ifndef SIM_LANES
#define SIM_LANES 1
#endif
// SIM_GID: the thread's index in the pass; the persistent solve (solve.comp) sets it per virtual group.
#ifndef SIM_GID
#define SIM_GID gl_GlobalInvocationID.x
#endif
#define SIM_PARTICLE (SIM_GID / uint(SIM_LANES))
#define SIM_LANE (gl_LocalInvocationID.x % uint(SIM_LANES))

#if SIM_LANES > 1 && defined(SIM_LANES_SHUFFLE)
// Where a particle's lanes share a subgroup (src/sim/particles.c: the subgroup size a multiple of
// SIM_LANES, the group's size of the subgroup's; the invocations of a subgroup consecutive, as on
// NVIDIA), each lane reads the others' values by shuffles, in lane order, so the sum is the
// shared-memory one's bit for bit, without its two group barriers.
vec4 sim_lanes_sum(vec4 v) {
    uint base = gl_SubgroupInvocationID - gl_LocalInvocationID.x % uint(SIM_LANES);
    vec4 t = vec4(0.0);
    for (uint k = 0u; k < uint(SIM_LANES); k++) t += subgroupShuffle(v, base + k);
    return t;
}
#elif SIM_LANES > 1
shared vec4 s_lanes[SIM_WG];
// The sum of v over the lanes of this thread's particle, in lane order.
vec4 sim_lanes_sum(vec4 v) {
    uint lid = gl_LocalInvocationID.x, base = lid - lid % uint(SIM_LANES);
    barrier();
    s_lanes[lid] = v;
    barrier();
    vec4 t = vec4(0.0);
    for (uint k = 0u; k < uint(SIM_LANES); k++) t += s_lanes[base + k];
    return t;
}
#else
vec4 sim_lanes_sum(vec4 v) { return v; }
#endif


#endif
