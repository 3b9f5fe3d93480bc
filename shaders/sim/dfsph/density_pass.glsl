// The dfsph density pass as a function of the thread's index SIM_GID: density.comp runs it as its
// own dispatch, step.comp (the fused step) per virtual group of the same dispatch, so both compute
// the same values in the same order. `groups`: the dispatch's groups over the particles' lanes
// (the step's other passes', Ctl.args_step). The includer declares the buffers (Pos, Vel, Ranges,
// Dens, Kappa, Nbr (read back: the pass walks each list it writes), Wall, NbrCount), and may set
// SIM_NEIGHBOURS_BATCH first (sim/neighbours.glsl, included here, its walk reading DFSPH_POS_R).
// Call from uniform control flow.
// The divergence solve's first predict rides in the same walk (docs/SPH.md, "Divergence solve"):
// it needs only the positions and the velocities the step starts with, and the neighbours the
// walk lists, summed per lane in the lists' order, so the same values the predict's own walk over
// the lists made (solve_fns.glsl, dfsph_predict with DFSPH_DENSITY 0). dfsph_density returns the
// thread's error (0 but on a particle's lane 0) and writes k; the includer reduces the errors into
// C.partial[vg] (the fused step) or over the dispatch (density.comp), and the solve then decides
// from them (the persistent solves: solve_loop.glsl; the indirect path: density.comp's last group).
// The frame's values for its first step (dfsph.c sets u_frame_set to 1 + the frame's mode then, 0
// otherwise): the ticks the frame adds to t_rem (on top of what earlier frames could not finish),
// its step slots, the two iteration caps, its mode; its slots start full (args_step: this
// dispatch's own groups, over the particles' lanes) and not idle. Written into the control block
// here, in the command stream. A buffer upload from the CPU (glNamedBufferSubData) was seen on the H100 to
// land before the last frame's integrate, which counts t_rem down, had run: t_rem read 0 and the
// step took 1e-7 s (docs/BENCHMARKS.md, the persistent solve's reset difference).
// DFSPH_FOLD 1 (dfsph.c: one lane a particle, index lists, the indirect path; in the programs it
// changes alone, dfsph_fold_define): the non-pressure pass's walk rides in the list's walk here, which loads
// x_j and v_j already: the viscosity of each pair (dfsph_visc_pair, the same kernel value), with the
// densities the last step left (dens_prev, which the search's reorder carried into the current
// order: this step's are not made yet), at the velocities the step starts with (the divergence
// solve's, where it iterates, come after), and the warm start's impulse (the same sums as
// nonpressure_pass.glsl's, DFSPH_WARM_NP). Lane 0 leaves the viscosity's sum in accel and the
// impulse in vstar, and the speed the non-pressure pass would reduce (dfsph_fold_speed): that pass
// then walks no list, and runs only where the divergence solve iterates (docs/SPH.md, "The folded
// walk").
// DFSPH_POS_R, DFSPH_VEL_R: the arrays the positions and velocities are read from (pos, vel; the
// fused step reads the positions through a non-coherent alias, nothing in its dispatch having
// written them yet; its velocities through the coherent block: llvmpipe holds no 17th block).
#ifndef DFSPH_POS_R
#define DFSPH_POS_R pos
#endif
#ifndef DFSPH_VEL_R
#define DFSPH_VEL_R vel
#endif
#define SIM_NEIGHBOURS_POS DFSPH_POS_R
#include "sim/neighbours.glsl"
layout(location = 0) uniform uvec4 u_frame;
layout(location = 1) uniform uint u_frame_set;

// An empty slot after an empty slot skips the pass (Ctl.still: the last slot moved nothing). Its
// positions are those the last search sorted, so the search just run reordered nothing (the keys
// were in order; every sort keeps equal keys in index order), and the densities, factors, lists
// and the values k (pos.w) hold what the pass would write again: the fluid, and what the renderer and the stats
// read, are the same bits. The frame's first slot always runs it (it writes the frame's values).
// The same words for every thread: uniform.
bool dfsph_density_skip() { return u_frame_set == 0u && C.idle != 0u && C.still != 0u; }

#if DFSPH_FOLD
// The speed the non-pressure pass would reduce for the particle (0 but on a live particle's lane 0),
// at the velocities the step starts with: density.comp sizes the step from them where the divergence
// solve stops at its first predict, so that those velocities stand (dfsph_density sets it).
float dfsph_fold_speed = 0.0;
#endif

float dfsph_density(uint groups) {
    if (u_frame_set != 0u && SIM_GID == 0u) {
        // The frame's budget: its own ticks and 1 / D.debt_share of what earlier frames could not
        // finish (1: all of it), so that no frame runs a whole debt at once; a catch-up frame (no
        // ticks of its own) and --substeps' frames take all of it.
        // (debt_share is at least 1: dfsph.c.)
        uint mode = u_frame_set - 1u, owed = C.t_rem, share = (owed + D.debt_share - 1u) / D.debt_share;
        C.t_rem += u_frame.x;
        C.t_frame = u_frame.x > 0u && mode == DFSPH_MODE_CFL ? u_frame.x + share : C.t_rem;
        C.steps_left = u_frame.y;
        C.cap_div = u_frame.z;
        C.cap_dens = u_frame.w;
        C.mode = mode;
        C.idle = 0u;
        C.args_step = uvec4(groups, 1u, 1u, 0u);
    }
    uint i = SIM_PARTICLE;
    bool live = i < P.n;
    vec3 xi = live ? DFSPH_POS_R[i].xyz : vec3(0.0), vi = live ? DFSPH_VEL_R[i].xyz : vec3(0.0);
    float h2 = P.h * P.h, sum_w = 0.0, sum_g2 = 0.0, drho = 0.0;
    vec3 kk = sim_kernel_k(P.hs);
    vec3 sum_g = vec3(0.0);
    uint t = SIM_GID, listed = 0u, dropped = 0u, zeros = 0u, self_at = 0xffffffffu;
    // Two loops: the cells' walk only tests the distance and lists the neighbours' indices; then a
    // walk of the list just written evaluates the kernel and makes the sums. In one loop a warp ran
    // a neighbour's whole work (the kernel, the list's record, four sums) in nearly every
    // candidate's turn (about one candidate in six is a neighbour, so one of its 32 threads nearly
    // always has one), and the walk loaded every candidate's velocity. On the H100 the two loops
    // took the dam break at 27,648 3.61 -> 3.44 ms a frame, 109,744 14.85 -> 14.55 and 986,078
    // 197.4 -> 195.8 (t = 0-0.5 s), the same bits (docs/BENCHMARKS.md, s32). A neighbour past
    // the list's capacity (never in a sane fluid: Ctl.dropped counts them) takes its sums in the
    // walk itself.
    if (live) SIM_NEIGHBOURS_BEGIN(xi, j)
        vec3 d = xi - SIM_NBR_X.xyz;
        float r2 = dot(d, d);
        if (r2 >= h2) continue;
        if (r2 == 0.0) { // the particle itself (or one at its very place): its W(0), and no pair
            if (zeros++ == 0u) self_at = listed; // added in the list's walk where the walk met it
            continue;
        }
        if (listed < uint(DFSPH_LIST_CAP)) {
            DFSPH_NBR_SET_IDX(nbr[listed++ * uint(DFSPH_LIST_STRIDE) + t], j);
        } else {
            dropped++;
            vec2 wk = sim_pair(r2, P.hs, kk);
            vec3 g = P.mass * wk.y * d;
            sum_w += wk.x;
            sum_g += g;
            sum_g2 += dot(g, g);
        }
    SIM_NEIGHBOURS_END
    // The list's walk, an entry at a time (two or more at a time measured slower), loading ahead:
    // where the lists hold indices (DFSPH_PREFETCH) the next entry's index, where they hold records
    // (27,648 particles: the fused step, whose velocities come through the coherent block, the L2)
    // the next entry's position and velocity too; each form measured the faster where it is used
    // (docs/BENCHMARKS.md, s32). Past the end the last entry is loaded again. Its sums are the one
    // loop's, term by term in the same order (the particle's own W(0) where the cells' walk met it;
    // a second particle at the very same place is added with it): the same bits. (The order
    // matters to the still pool: with W(0) added last, llvmpipe's test_sim_scenes pool rose +0.25%
    // in energy against +0.008%, past its bound of 0.1%.)
    float w0 = float(zeros) * sim_pair(0.0, P.hs, kk).x;
#if DFSPH_FOLD
    // The non-pressure pass's walk, folded in (see the top): the viscosity over the same pairs, its
    // densities the last step's (dens_prev), and the warm start's impulse, k = half the last total.
    float rhoi_prev = live ? dens_prev[i] : 1.0, ki_w = live ? 0.5 * DFSPH_VEL_R[i].w : 0.0;
    vec3 visc = vec3(0.0), warm = vec3(0.0);
#endif
    uint jn = listed > 0u ? DFSPH_NBR_IDX(nbr[t]) : 0u;
#if !DFSPH_PREFETCH
    vec4 xn = DFSPH_POS_R[jn], vn = DFSPH_VEL_R[jn];
#endif
    for (uint k = 0u; k < listed; k++) {
        uint j = jn;
        jn = DFSPH_NBR_IDX(nbr[min(k + 1u, listed - 1u) * uint(DFSPH_LIST_STRIDE) + t]);
#if DFSPH_PREFETCH
        vec4 vj4 = DFSPH_VEL_R[j];
        vec3 xj = DFSPH_POS_R[j].xyz, vj = vj4.xyz;
#else
        vec4 vj4 = vn;
        vec3 xj = xn.xyz, vj = vn.xyz;
        xn = DFSPH_POS_R[jn], vn = DFSPH_VEL_R[jn];
#endif
        if (k == self_at) sum_w += w0;
        vec3 d = xi - xj;
        vec2 wk = sim_pair(dot(d, d), P.hs, kk); // W, dW/dr / r
        vec3 g = P.mass * wk.y * d;
        DFSPH_NBR_SET_GRAD(nbr[k * uint(DFSPH_LIST_STRIDE) + t], g);
        sum_w += wk.x;
        drho += dot(vi - vj, g); // the first predict's, over the list's entries
        sum_g += g;
        sum_g2 += dot(g, g);
#if DFSPH_FOLD
        visc += dfsph_visc_pair(d, vi - vj, rhoi_prev, dens_prev[j], wk.y);
        warm += (ki_w + 0.5 * vj4.w) * g;
#endif
    }
    if (self_at == listed) sum_w += w0;
    if (t < uint(DFSPH_LIST_STRIDE)) nbr_count[t] = listed;
    if (dropped > 0u) atomicAdd(C.dropped, dropped);
    vec4 g4 = sim_lanes_sum(vec4(sum_g, sum_g2));
    vec4 wd = sim_lanes_sum(vec4(sum_w, drho, float(listed), 0.0)); // each component in lane order alone
    sum_w = wd.x;
    sum_g = g4.xyz;
    sum_g2 = g4.w;
    if (!live || SIM_LANE != 0u) return 0.0;
    vec4 wall = dfsph_wall(xi);
    // The walls push with the particle's own value twice over (update.comp), as a mirrored ghost of
    // the same pressure would: S = (A + B) . (A + 2 B) + sum_j |m grad W_ij|^2, A the fluid's sum of
    // m grad W, B = rho0 grad Phi.
    vec3 b = P.rho0 * wall.yzw;
    float s = dot(sum_g + b, sum_g + 2.0 * b) + sum_g2;
    dens[i] = P.mass * sum_w + P.rho0 * wall.x;
    // For the solves' passes (positions stay until integrate): the factor, and the walls' gradient.
    float factor = s > 0.0 ? 1.0 / s : 0.0;
    wallg[i] = vec4(factor, wall.yzw);
#if DFSPH_FOLD // for the warm update, which adds what a particle feels alone (the non-pressure pass's speed below)
    accel[i] = vec4(visc, 0.0);
    vstar[i] = vec4(warm + 2.0 * ki_w * P.rho0 * wall.yzw, 0.0); // the wall as a mirrored ghost of the same pressure
    dfsph_fold_speed = length(vi + dfsph_accel_local(visc, xi, vi) * C.dt); // nonpressure_pass.glsl's, at these velocities
#endif
    // The divergence solve's first predict (solve_fns.glsl's, with the step's velocities: the
    // solve has no warm start), with the last step's dt as that solve takes it.
    float k, e = dfsph_div_error(wd.y + P.rho0 * dot(vi, wall.yzw), wd.z, factor, C.dt, k);
    DFSPH_K(i) = k;
    return e / P.rho0;
}
