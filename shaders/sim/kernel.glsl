// The SPH kernel (cubic B-spline, Monaghan 1992, support 2 hs) and the walls as ghost planes.
// C twin: src/sim/kernel.c (same formulas, same names with sim_ prefix); test_sim_kernels checks
// that GPU and CPU agree.
#ifndef FLUID_SIM_KERNEL_GLSL
#define FLUID_SIM_KERNEL_GLSL

const float SIM_PI = 3.14159265358979;

// W(r): 1/(pi hs^3) * { 1 - 1.5q^2 + 0.75q^3 (q<1); 0.25(2-q)^3 (q<2); 0 }, q = r/hs.
float sim_w(float r, float hs) {
    float q = r / hs;
    float f = q < 1.0 ? 1.0 - 1.5 * q * q + 0.75 * q * q * q : q < 2.0 ? 0.25 * (2.0 - q) * (2.0 - q) * (2.0 - q) : 0.0;
    return f / (SIM_PI * hs * hs * hs);
}

// dW/dr.
float sim_dw(float r, float hs) {
    float q = r / hs;
    float f = q < 1.0 ? -3.0 * q + 2.25 * q * q : q < 2.0 ? -0.75 * (2.0 - q) * (2.0 - q) : 0.0;
    return f / (SIM_PI * hs * hs * hs * hs);
}

// The same spline with its reciprocals taken once per thread (the neighbour passes' inner loops,
// SIM_FAST 1): k = (1 / hs, 1 / (pi hs^3), 1 / (pi hs^4)) from sim_kernel_k. sim_pair_k gives
// (W, dW/dr / r) at squared distance r2 < h^2 through one inversesqrt (r = 0: W(0) and 0), where
// SIM_FAST 0 takes sqrt, three divisions and one more; the results differ in rounding only.
vec3 sim_kernel_k(float hs) { return vec3(1.0 / hs, 1.0 / (SIM_PI * hs * hs * hs), 1.0 / (SIM_PI * hs * hs * hs * hs)); }
vec2 sim_pair_k(float r2, vec3 k) {
    float ri = r2 > 0.0 ? inversesqrt(r2) : 0.0, q = r2 * ri * k.x, t = 2.0 - q;
    vec2 f = q < 1.0 ? vec2(1.0 - 1.5 * q * q + 0.75 * q * q * q, -3.0 * q + 2.25 * q * q) : vec2(0.25 * t * t * t, -0.75 * t * t);
    return vec2(f.x * k.y, f.y * k.z * ri);
}
#ifndef SIM_FAST
#define SIM_FAST 0
#endif
// (W, dW/dr / r) of a pair at squared distance r2 (0 <= r2 < h^2; r2 = 0 gives 0 for the second):
// sim_pair_k where SIM_FAST, else the plain forms. k from sim_kernel_k(hs).
vec2 sim_pair(float r2, float hs, vec3 k) {
#if SIM_FAST
    return sim_pair_k(r2, k);
#else
    float r = sqrt(r2);
    return vec2(sim_w(r, hs), r2 > 0.0 ? sim_dw(r, hs) / r : 0.0);
#endif
}

// F1(t) = integral_t^2 q f(q) dq (f: the spline above).
float _sim_i1(float q) { float q2 = q * q; return q2 * (0.5 - 0.375 * q2 + 0.15 * q2 * q); }
float _sim_a1(float q) { float q2 = q * q; return 0.25 * q2 * (4.0 - 4.0 * q + 1.5 * q2 - 0.2 * q2 * q); }
float _sim_f1(float t) {
    if (t >= 2.0) return 0.0;
    if (t >= 1.0) return _sim_a1(2.0) - _sim_a1(t);
    return _sim_i1(1.0) - _sim_i1(t) + _sim_a1(2.0) - _sim_a1(1.0);
}

// A plane of fluid at distance z, its mass spread evenly (areal density 1): its kernel sum is
// P(z) = 2 pi integral_z^2hs r W(r) dr = (2 / hs) F1(z / hs); dP/dz = -2 pi z W(z).
vec2 sim_plane(float z, float hs) { return vec2(2.0 / hs * _sim_f1(z / hs), -2.0 * SIM_PI * z * sim_w(z, hs)); }

// The walls' share of a particle's kernel sum at distance d (>= 0) from a plane wall: ghost planes
// of fluid continuing the lattice behind the wall, at d + (j + 1/2) dx, each of areal density
// k = m / (rho0 dx^2). Returns (Phi(d), dPhi/dd).
// The walks over the planes (here and sim_wall_w) run to the planes within 2 hs (at most 8; the
// break is exact, the bound has a plane's margin), a bound the compiler does not know, so it does
// not unroll them to 8 at each call site (s40: WCSPH at 986,078 on the H100 0.2% faster, within
// one call's noise; the fluid differs from the unrolled walks' in rounding).
int _sim_planes(float d, float hs, float dx) { return clamp(int((2.0 * hs - max(d, 0.0)) / dx) + 1, 0, 8); }
vec2 sim_wall_g(float d, float hs, float dx, float k) {
    vec2 g = vec2(0.0);
    for (int j = 0; j < _sim_planes(d, hs, dx); j++) {
        float z = max(d, 0.0) + (float(j) + 0.5) * dx;
        if (z >= 2.0 * hs) break;
        g += sim_plane(z, hs);
    }
    return k * g;
}

// The kernel sum over the ghost planes behind a wall at distance d, per unit areal density:
// sum_j W(d + (j + 1/2) dx), the weight of the wall's no-slip viscosity.
float sim_wall_w(float d, float hs, float dx) {
    float w = 0.0;
    for (int j = 0; j < _sim_planes(d, hs, dx); j++) {
        float z = max(d, 0.0) + (float(j) + 0.5) * dx;
        if (z >= 2.0 * hs) break;
        w += sim_w(z, hs);
    }
    return w;
}

// Whether the kernel at p reaches a ghost plane of a wall of the box [lo, hi]: the first plane,
// at max(d, 0) + dx/2 from p, lies within 2 hs (tested against 2.0001 hs, so that float rounding
// can only make a particle take the walls' terms for nothing). Where it does not, sim_wall_g and
// sim_wall_w are 0 for every wall (their walks end at the first plane), and so is every wall term
// made from them, to the bit: sim_wall_fraction and sim_walls_w return those zeros at once, and the
// callers may skip their own wall terms. Most particles are away from the walls (on the H100 at
// 986,078 particles WCSPH's forces took 398 -> 391 µs a step; DFSPH's passes did not change:
// docs/BENCHMARKS.md, s40).
bool sim_near_walls(vec3 p, vec3 lo, vec3 hi, float hs, float dx) {
    bool near = false;
    for (int a = 0; a < 3; a++)
        near = near || max(p[a] - lo[a], 0.0) + 0.5 * dx < 2.0001 * hs || max(hi[a] - p[a], 0.0) + 0.5 * dx < 2.0001 * hs;
    return near;
}

// The walls' share at p in the box [lo, hi]: 1 - prod_k (1 - Phi(d_k)) over the six walls
// (exact for a separable kernel; within 1% of the ghost-lattice sum at a corner for the spline),
// in .x; its gradient in .yzw. keep: per axis, the product over its two walls of (1 - Phi).
vec4 sim_wall_fraction_keep(vec3 p, vec3 lo, vec3 hi, float hs, float dx, float k, out vec3 keep) {
    keep = vec3(1.0);
    if (!sim_near_walls(p, lo, hi, hs, dx)) return vec4(0.0);
    float inside = 1.0;
    vec3 grad_log = vec3(0.0); // sum_k n_k Phi'_k / (1 - Phi_k)
    for (int a = 0; a < 3; a++) {
        vec2 g0 = sim_wall_g(p[a] - lo[a], hs, dx, k);
        vec2 g1 = sim_wall_g(hi[a] - p[a], hs, dx, k);
        keep[a] = (1.0 - g0.x) * (1.0 - g1.x);
        inside *= keep[a];
        grad_log[a] += g0.y / (1.0 - g0.x) - g1.y / (1.0 - g1.x);
    }
    return vec4(1.0 - inside, inside * grad_log);
}
vec4 sim_wall_fraction(vec3 p, vec3 lo, vec3 hi, float hs, float dx, float k) {
    vec3 keep;
    return sim_wall_fraction_keep(p, lo, hi, hs, dx, k, keep);
}

// sim_wall_w over the six walls of the box [lo, hi] at p.
float sim_walls_w(vec3 p, vec3 lo, vec3 hi, float hs, float dx) {
    float w = 0.0;
    if (!sim_near_walls(p, lo, hi, hs, dx)) return w;
    for (int a = 0; a < 3; a++) w += sim_wall_w(p[a] - lo[a], hs, dx) + sim_wall_w(hi[a] - p[a], hs, dx);
    return w;
}

#endif
