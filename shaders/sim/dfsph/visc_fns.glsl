// The non-pressure accelerations' parts that the non-pressure pass (nonpressure_pass.glsl) and the
// viscosity's second half-step (the pressure solve's first predict, solve_fns.glsl) share:
// Monaghan's artificial viscosity of a pair, and what a particle feels alone: the no-slip walls
// (which depend on its velocity), gravity and the mouse (which do not).
#ifndef FLUID_SIM_DFSPH_VISC_FNS_GLSL
#define FLUID_SIM_DFSPH_VISC_FNS_GLSL

// The artificial viscosity's acceleration on i from j, before the mass (d = x_i - x_j, vij = v_i - v_j,
// dw the kernel's dW/dr / r there, where the caller has it: DFSPH_LIST_DW): only between approaching
// particles (vr = vij . d < 0), 0 for a separating pair; alpha c0 hs its constant, 0.01 hs^2 the
// softening of r^2.
vec3 dfsph_visc_pair(vec3 d, vec3 vij, float rhoi, float rhoj, float dw) {
    float vr = dot(vij, d), r2 = dot(d, d);
    if (vr >= 0.0) return vec3(0.0);
    float coef = P.alpha * P.c0 * P.hs * -vr / ((r2 + 0.01 * P.hs * P.hs) * 0.5 * (rhoi + rhoj)) * dw;
    return -coef * d;
}
// The same, the kernel evaluated for an approaching pair alone.
vec3 dfsph_visc_pair(vec3 d, vec3 vij, float rhoi, float rhoj) {
    if (dot(vij, d) >= 0.0) return vec3(0.0);
    return dfsph_visc_pair(d, vij, rhoi, rhoj, sim_pair(dot(d, d), P.hs, sim_kernel_k(P.hs)).y);
}

// a: the viscosity's sum over the neighbours (before the mass); returns the particle's
// acceleration that depends on its velocity vi, at xi: times the mass, and the no-slip walls
// (laminar viscosity against ghost planes at rest).
vec3 dfsph_accel_diss(vec3 a, vec3 xi, vec3 vi) {
    a *= P.mass;
    if (P.wall_friction > 0.0) {
        float ww = sim_walls_w(xi, P.lo.xyz, P.hi.xyz, P.hs, P.dx);
        a -= 4.0 * SIM_PI * P.wall_friction * (P.mass / (P.rho0 * P.dx * P.dx)) * ww * vi;
    }
    return a;
}

// a plus the accelerations that do not depend on the velocity, at xi: gravity, the mouse.
vec3 dfsph_accel_ext(vec3 a, vec3 xi) {
    a += P.gravity.xyz;
    if (P.poke.w > 0.0) {
        vec3 d = xi - P.poke.xyz;
        float r = length(d);
        if (r < P.poke.w && r > 0.0) a += P.poke_strength * (1.0 - r / P.poke.w) * (d / r);
    }
    return a;
}

// The particle's whole non-pressure acceleration (a: the viscosity's sum, before the mass).
vec3 dfsph_accel_local(vec3 a, vec3 xi, vec3 vi) { return dfsph_accel_ext(dfsph_accel_diss(a, xi, vi), xi); }
#endif
