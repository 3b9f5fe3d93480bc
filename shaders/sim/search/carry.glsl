// The reorder's carry of the last step's densities (sim_particles.carry_dens, asked by the solver:
// DFSPH, whose density pass sums the viscosity with them where it folds the non-pressure walk in,
// density_pass.glsl): dens_prev[i] = dens[j], i the particle's sorted place and j its place
// before. The first carry is the search after the solver's prime, whose density pass made dens,
// so dens always holds densities here (dens_prev holds rho0 until then: sim_particles_make).
// u_carry_dens 0: nothing.
// The includer declares nothing for it; include once, after sim_common.glsl.
#ifndef FLUID_SIM_SEARCH_CARRY_GLSL
#define FLUID_SIM_SEARCH_CARRY_GLSL
layout(location = 0) uniform uint u_carry_dens;
layout(std430, binding = B_DENS) readonly buffer DensLast { float dens_last[]; };
layout(std430, binding = B_DENS_PREV) writeonly buffer DensPrev { float dens_prev[]; };
void sim_carry_dens(uint i, uint j) {
    if (u_carry_dens != 0u) dens_prev[i] = dens_last[j];
}
#endif
