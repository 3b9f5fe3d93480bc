// What the dfsph passes share: the control block that keeps the solver's decisions on the GPU
// (indirect dispatch arguments, the step size, the reductions), and the last-group reduction.
// C twin of Ctl: struct dfsph_ctl in src/sim/dfsph/dfsph_layout.h (tests/test_layout.c checks it by reflection).
#ifndef FLUID_SIM_DFSPH_COMMON_GLSL
#define FLUID_SIM_DFSPH_COMMON_GLSL
#ifndef SIM_GID
#define SIM_GID gl_GlobalInvocationID.x
#endif

// DFSPH's own parameters, its uniform block at the solver's binding (UBO_SOLVER, src/sim/sim_params.h).
// C twin: struct dfsph_gpu_params in src/sim/dfsph/dfsph_layout.h (tests/test_layout.c checks it).
layout(std140, binding = UBO_SOLVER) uniform DfsphParams {
    float dt_max;          // the largest step, seconds
    float dt_min;          // the smallest step, seconds
    float cfl;             // dt = cfl * dx / v_max
    float eta_density;     // mean density error allowed, relative
    float eta_divergence;  // mean density change over one step from the divergence, relative
    uint min_it_density;   // at least this many pressure iterations
    uint min_it_divergence;// at least this many divergence iterations
    uint min_neighbours;   // fewer: the divergence solve leaves the particle alone (free surface)
    float dt_visc;         // the explicit viscosity's bound: a longer step takes it in two half-steps (solve_fns.glsl)
    float dt_press;        // sqrt(K dx^3): the depth bound, dt <= dt_press / (sqrt(g) H) (nonpressure_pass.glsl); 0: none
    uint tail_groups;      // the indirect path's persistent tail's grid at most (0: no tail; dfsph_tail_grid)
    uint debt_share;       // a frame's budget: its own time and 1 / debt_share of what earlier frames owed (Ctl.t_frame)
} D;

layout(std430, binding = B_CTL) coherent buffer Ctl {
    uvec4 args_div;    // groups of the divergence solve's next update + predict (0: converged)
    uvec4 args_dens;   // the same for the pressure (constant-density) solve
    uvec4 args_step;   // groups of the step's other passes: 0 in the empty slots once the frame's time is used
    uvec4 args_coarse; // groups of the coarse level's sums and apply after the predict just done (0: it does not follow;
    uvec4 args_coarse_apply; //   the indirect path, coarse.comp: predict.comp's last group writes them)
    uvec4 args_tail;   // groups of the indirect path's persistent tail after the solve's recorded pairs (0: the solve stopped; dfsph_decide_next)
    uvec4 args_np;     // groups of the non-pressure pass with DFSPH_FOLD: the step's where the divergence solve iterated, else 0 (density.comp)
    uint t_rem;        // simulated time left in the frame, in ticks of DFSPH_TICK s
    uint steps_left;   // step slots left in the frame
    float dt;          // this step's size (the last step's until the CFL pass sets it)
    float dt_cfl;      // this step's CFL limit (from the speeds alone)
    uint done;         // work groups finished in the reduction under way
    uint iter;         // the iteration the solve under way's next predict makes (its updates so far)
    uint it_div;       // iterations of this step's divergence solve
    uint it_dens;      // iterations of this step's pressure solve
    float err_div;     // the error each solve stopped at
    float err_dens;
    uint capped;       // solves of this step that hit the iteration cap before converging
    uint step;         // steps taken (the record slot)
    uint cap_div;      // the frame's iteration caps (the dispatches the CPU recorded)
    uint cap_dens;
    float v_post;      // the largest speed the last step ended with (after its pressure solve)
    uint dropped;      // neighbours past a list's capacity this step (left out: should stay 0)
    uint limited;      // particles whose speed integrate limited to the CFL bound this step
    volatile uint bar_count; // the persistent solve's grid barrier (grid_barrier.glsl): its word
    uint bar_gen;      // its generation (GRID_FORM 0 only)
    volatile uint stalled; // set when a grid barrier waited past its bound (the groups were not co-resident)
    uint mode;         // DFSPH_MODE_*: how a step's dt is chosen (nonpressure.comp)
    uint idle;         // 1 once the frame's time is used: the slots left run empty
    uint dt_ticks;     // this step's dt in ticks
    uint clk[5];       // the fused step's phases, in shader-clock cycles (step.comp, DFSPH_PHASE_CLOCK); 0: not measured
    float dt_lim;      // the limit this step was held to: dt_cfl, or the depth bound where smaller
    float depth;       // the water's depth the last step left, twice the mean height above the floor (0: none yet)
    uint still;        // 1 after a slot that moved nothing (dt 0): the next empty slot skips its density pass
    uint t_frame;      // the ticks this frame may still take: its own and 1 / D.debt_share of what earlier frames owed
    float partial[];   // one value per work group of the reduction under way
} C;

// Time in ticks of 2^-28 s (twin of DFSPH_TICK in dfsph_layout.h): whole ticks add up exactly,
// and a dt below 2^24 ticks (62.5 ms) is exact as a float.
#define DFSPH_TICK (1.0 / 268435456.0)
#define DFSPH_MODE_CFL 0u
#define DFSPH_MODE_FIXED 1u
#define DFSPH_MODE_FREE 2u

shared float s_red[SIM_WG];
shared bool s_last;

// Whether this step passes the explicit viscosity's bound, so takes the viscosity in half-steps
// (solve_fns.glsl; only where the flow is slow, nonpressure_pass.glsl).
bool dfsph_visc_split() { return C.dt > D.dt_visc; }

float _dfsph_op(float a, float b, bool is_max) { return is_max ? max(a, b) : a + b; }

void _dfsph_group_reduce(bool is_max) {
    uint lid = gl_LocalInvocationID.x;
    for (uint s = SIM_WG / 2u; s > 0u; s >>= 1u) {
        barrier();
        if (lid < s) s_red[lid] = _dfsph_op(s_red[lid], s_red[lid + s], is_max);
    }
    barrier();
}

// The group's sum (or max) of v, thread by thread, into C.partial[at] by its first thread: a
// group's part of a reduction over the dispatch, or over the virtual groups of a persistent one.
// Call from uniform control flow.
void dfsph_group_partial(float v, bool is_max, uint at) {
    s_red[gl_LocalInvocationID.x] = v;
    _dfsph_group_reduce(is_max);
    if (gl_LocalInvocationID.x == 0u) C.partial[at] = s_red[0];
}

// The sum (or max) of C.partial[0 .. count-1] in every thread of the group, in a fixed order:
// thread l takes every SIM_WG-th part from l, then the group's tree. Call from uniform control flow.
// dfsph_reduce_partials_at: of C.partial[base .. base+count-1] (the fused step keeps two regions).
// DFSPH_RED_BATCH > 1 (the default: the indirect path's passes, where the dispatch's last group
// reduces alone): the parts are loaded that many at a time, every load issued before the first is
// taken in (past the end the last part is loaded again, and not taken in), then taken in order:
// the same sums. C is coherent, and the compiler keeps its loads in program order, so one at a
// time each waited for the one before: 61 parts a thread at 986,078, where the batches took the
// frame 0.8% faster on the H200. The persistent programs (step.comp, solve.comp), where every group
// reduces the same parts at once, define 1: one at a time (batched, 27,648 ran 0.9% slower;
// docs/BENCHMARKS.md, s42).
#ifndef DFSPH_RED_BATCH
#define DFSPH_RED_BATCH 8
#endif
float dfsph_reduce_partials_at(uint base, uint count, bool is_max) {
    uint lid = gl_LocalInvocationID.x;
    float acc = 0.0;
#if DFSPH_RED_BATCH > 1
    for (uint g = lid; g < count; g += uint(DFSPH_RED_BATCH) * SIM_WG) {
        float v[DFSPH_RED_BATCH];
        for (uint u = 0u; u < uint(DFSPH_RED_BATCH); u++) v[u] = C.partial[base + min(g + u * SIM_WG, count - 1u)];
        for (uint u = 0u; u < uint(DFSPH_RED_BATCH); u++)
            if (g + u * SIM_WG < count) acc = _dfsph_op(acc, v[u], is_max);
    }
#else
    for (uint g = lid; g < count; g += SIM_WG) acc = _dfsph_op(acc, C.partial[base + g], is_max);
#endif
    s_red[lid] = acc;
    _dfsph_group_reduce(is_max);
    float r = s_red[0];
    barrier(); // every thread has read it before any writes s_red again (the next reduction's first store)
    return r;
}
float dfsph_reduce_partials(uint count, bool is_max) { return dfsph_reduce_partials_at(0u, count, is_max); }

// Two values in one tree: the largest of x and the sum of y (integrate's |v| dt / dx and heights).
// The group's own, in every thread; then of C.partial[at.x + g] and C.partial[at.y + g], g < count,
// in the fixed order above. Call from uniform control flow.
shared vec2 s_red2[SIM_WG];
vec2 _dfsph_group_max_sum(vec2 v) {
    uint lid = gl_LocalInvocationID.x;
    s_red2[lid] = v;
    for (uint s = SIM_WG / 2u; s > 0u; s >>= 1u) {
        barrier();
        if (lid < s) s_red2[lid] = vec2(max(s_red2[lid].x, s_red2[lid + s].x), s_red2[lid].y + s_red2[lid + s].y);
    }
    barrier();
    vec2 r = s_red2[0];
    barrier(); // every thread has read it before the next call writes
    return r;
}
vec2 dfsph_reduce_partials_max_sum(uvec2 at, uint count) {
    vec2 acc = vec2(0.0);
#if DFSPH_RED_BATCH > 1
    for (uint g = gl_LocalInvocationID.x; g < count; g += uint(DFSPH_RED_BATCH) * SIM_WG) { // batched as above
        vec2 v[DFSPH_RED_BATCH];
        for (uint u = 0u; u < uint(DFSPH_RED_BATCH); u++) {
            uint at_u = min(g + u * SIM_WG, count - 1u);
            v[u] = vec2(C.partial[at.x + at_u], C.partial[at.y + at_u]);
        }
        for (uint u = 0u; u < uint(DFSPH_RED_BATCH); u++)
            if (g + u * SIM_WG < count) acc = vec2(max(acc.x, v[u].x), acc.y + v[u].y);
    }
#else
    for (uint g = gl_LocalInvocationID.x; g < count; g += SIM_WG) acc = vec2(max(acc.x, C.partial[at.x + g]), acc.y + C.partial[at.y + g]);
#endif
    return _dfsph_group_max_sum(acc);
}

// The divergence solve's error at a particle from its Drho/Dt (the walls' term included), its
// listed neighbours and its factor 1/S: e = max(Drho/Dt, 0) dt, 0 with fewer than min_neighbours
// (the free surface); its value k = e / (S dt^2) into k. The first predict (density_pass.glsl) and
// the later ones (solve_fns.glsl) alike.
float dfsph_div_error(float drho, float neighbours, float factor, float dt, out float k) {
    float e = neighbours < float(D.min_neighbours) || dt <= 0.0 ? 0.0 : max(drho, 0.0) * dt;
    k = e > 0.0 ? e * factor / (dt * dt) : 0.0;
    return e;
}

// A solve's decision from the mean error after iteration `it` (density: the pressure solve, else
// the divergence solve): converged (at least the minimum iterations and the mean error within eta),
// or one more iteration (returned true) unless at the cap. When it stops, the solve's iterations
// and error go in the control block (and a solve stopped at the cap unconverged is counted) by the
// one thread that passes `record`; every thread that calls it with the same it and mean gets the
// same answer.
bool dfsph_decide_solve(bool density, uint it, float mean, bool record) {
    uint cap = density ? C.cap_dens : C.cap_div, min_it = density ? D.min_it_density : D.min_it_divergence;
    float eta = density ? D.eta_density : D.eta_divergence;
    bool converged = it >= min_it && mean <= eta;
    bool more = !converged && it < cap;
    if (!more && record) {
        if (!converged) C.capped += 1u;
        if (density) {
            C.it_dens = it;
            C.err_dens = mean;
        } else {
            C.it_div = it;
            C.err_div = mean;
        }
    }
    return more;
}

// The persistent tail's grid (solve.comp, DFSPH_TAIL; dfsph_passes.c) for `groups` virtual groups:
// as few as take them in as few rounds as D.tail_groups would (twin of dfsph_grid in
// dfsph_persistent.c); 0 where there is no tail. The tail is indirect, its groups written by the
// decision before it, so that a solve its pairs finished costs an empty dispatch there, not a
// grid's launch (the H100 at 109,744: docs/BENCHMARKS.md, s35).
uint dfsph_tail_grid(uint groups) {
    uint most = D.tail_groups, rounds = most == 0u ? 0u : (groups + most - 1u) / most;
    return rounds == 0u ? 0u : (groups + rounds - 1u) / rounds;
}

// The indirect path's decision after predict `it` (predict.comp; the divergence solve's first,
// it = 0, made by the density pass: density.comp), by the last group's first thread: the solve's
// next (update, predict) pair gets this dispatch's groups, or 0 once it stops, and C.iter the
// iteration that pair applies. The persistent solves decide again from the same partials
// (solve_loop.glsl), alike. Returns whether the pair runs.
bool dfsph_decide_next(bool density, uint it, float mean) {
    bool more = dfsph_decide_solve(density, it, mean, true);
    C.iter = more ? it + 1u : it;
    uvec4 args = uvec4(more ? gl_NumWorkGroups.x : 0u, 1u, 1u, 0u);
    if (density) C.args_dens = args;
    else C.args_div = args;
    C.args_tail = uvec4(more ? dfsph_tail_grid(gl_NumWorkGroups.x) : 0u, 1u, 1u, 0u);
    return more;
}

// Whether this is the last work group of the dispatch to get here (an atomic count on C.done,
// which that group clears): true in every thread of that group, with every other group's writes
// before its call visible; false elsewhere. Call from uniform control flow, once a dispatch (a
// persistent one may call it again only after a grid barrier).
bool dfsph_last_group() {
    if (gl_LocalInvocationID.x == 0u) {
        memoryBarrierBuffer();
        s_last = atomicAdd(C.done, 1u) == gl_NumWorkGroups.x - 1u;
        if (s_last) C.done = 0u; // every group has counted
    }
    barrier();
    bool last = s_last;
    if (last) memoryBarrierBuffer();
    return last;
}

// Reduces v (>= 0) over every work group of the dispatch: each group writes its part, and the
// last group to finish adds them up. Returns true in every thread of that last group, with the
// result in s_red[0]; false elsewhere. Call from uniform control flow. The order of the additions
// does not depend on which group is last, so the result is deterministic.
bool dfsph_reduce_last(float v, bool is_max) {
    dfsph_group_partial(v, is_max, gl_WorkGroupID.x);
    if (!dfsph_last_group()) return false;
    dfsph_reduce_partials(gl_NumWorkGroups.x, is_max);
    return true;
}

// The neighbour lists the density pass builds each step, one per lane (neighbours.glsl deals a
// particle's candidates round its lanes; each lane keeps those within h, itself excluded, up to
// DFSPH_LIST_CAP), stored slot-major so that a warp's reads of slot k are contiguous. Every later
// pass of the step walks only these: positions do not change until integrate.
//   DFSPH_REC 1: a record is 16 bytes, the pair's m grad W_ij (which every solve pass needs) and
//     the neighbour's index j, so the solves' passes read no position and evaluate no kernel;
//     taken where the lists fit the GPU's L2 cache (src/sim/dfsph/dfsph.c: past it the records'
//     four times the bytes cost more than they save; measured in docs/BENCHMARKS.md).
//   DFSPH_REC 0: the index j alone; the passes read x_j and evaluate the gradient (the same
//     expression), so they need xi in scope, and x_j from DFSPH_NBR_POS: pos, or the fused step's
//     non-coherent alias (step.comp: pos.xyz is not written before integrate, so a coherent read
//     would only cost, L2 for L1).
// DFSPH_LIST_CAP, DFSPH_LIST_STRIDE (lanes a buffer holds) and DFSPH_REC come from dfsph.c.
//   DFSPH_PREFETCH 1: the walk loads entry k+1 before it uses entry k, so a thread waits on one
//     chain of loads a neighbour fewer (the entry's); at the list's last entry it loads that entry
//     again (clamped, no branch: since session 26, as the batches do); the same sums in the same
//     order.
//   DFSPH_PREFETCH N >= 2: the walk loads N entries at a time, then takes them in order (the loop
//     over them has a constant count, so the compiler unrolls it and can issue the N entries'
//     loads of x_j, v_j or k_j together); past the list's end the last entry is loaded again, with
//     no branch between the loads (as the cells' walk does: neighbours.glsl); the same sums in the
//     same order.
//   DFSPH_PREFETCH_NP: the non-pressure pass's where it differs (nonpressure.comp takes it as its
//   DFSPH_PREFETCH; dfsph.c defines it in that program alone).
//   dfsph.c takes, where the lists hold indices and a particle has one lane (98,305 up), 8 in the
//   non-pressure pass (three gathers a neighbour) and 1 in the rest (the solves' passes: 8 there
//   measured 2.1% slower a frame at 986,078 on the H200, s41), 1 where it has more lanes; with
//   records either costs, so 0 there (docs/BENCHMARKS.md, s13, s24 and s41).
// DFSPH_MOMENTUM 1: the pressure solve's iterations take momentum (solve_fns.glsl; dfsph_desc.momentum).
// DFSPH_WARM_NP 1: the pressure solve's warm-start impulse is summed in the non-pressure pass's walk
// and handed to the warm update in vstar (nonpressure_pass.glsl), which then walks no list; 0: the
// warm update walks the lists itself. The same values either way. 1 where a particle has one lane
// (and the warm start is ours: not DFSPH_WARM_SPH's, whose k needs the pass's sums first). On the
// H100 (s34, docs/BENCHMARKS.md) it took 432,000 and 986,078 from 67.2 and 173.9 ms a frame to 65.9
// and 171.1; with 2 lanes the non-pressure pass grew more than the warm walk saved (at 109,744 it
// went from 37 to 47 µs a step, the pressure solve from 213 to 205).
#ifndef DFSPH_WARM_NP
#if defined(SIM_LANES) && defined(DFSPH_WARM_SPH)
#if SIM_LANES == 1 && !DFSPH_WARM_SPH
#define DFSPH_WARM_NP 1
#endif
#endif
#endif
#ifndef DFSPH_WARM_NP
#define DFSPH_WARM_NP 0
#endif
#ifndef DFSPH_MOMENTUM
#define DFSPH_MOMENTUM 0
#endif
// DFSPH_FOLD 1: the non-pressure pass's walk rides in the density pass's (density_pass.glsl);
// dfsph.c defines it in the programs it changes alone (dfsph_fold_define: the density and
// non-pressure passes, the pressure solve's warm update).
#ifndef DFSPH_FOLD
#define DFSPH_FOLD 0
#endif
#ifndef DFSPH_PREFETCH
#define DFSPH_PREFETCH 0
#endif
// DFSPH_COARSE 1: the pressure solve's coarse level after each of its first DFSPH_COARSE_LEVELS predicts (coarse.glsl; dfsph_desc.coarse),
// in a step whose flow is slow (its CFL limit from the speeds at least min(dt_max, dt_visc): its
// pressure near the hydrostatic the level models) where the grid's layers fit (twin in dfsph_internal.h).
#ifndef DFSPH_COARSE
#define DFSPH_COARSE 0
#endif
#ifndef DFSPH_COARSE_LEVELS
#define DFSPH_COARSE_LEVELS 1 // (dfsph.c gives dfsph.coarse_levels: 3 up to 65,536 particles, else 1)
#endif
// Whether the coarse level follows the pressure solve's predict `n` (0, 1, ...; where DFSPH_COARSE_RUNS):
// the first wherever it runs; the repeats only where gravity acts: the mode they correct is the
// column's weight (without gravity, in a cellular flow at small steps, they added damping: docs/SPH.md).
#define DFSPH_COARSE_AFTER(n) ((n) < uint(DFSPH_COARSE_LEVELS) && ((n) == 0u || dot(P.gravity.xyz, P.gravity.xyz) > 0.0))
// The coarse level's first phase, as work groups: a group a row of cells (y, z), then a thread a grid column (coarse.glsl;
// its C twin: the tests' hook in src/sim/dfsph/dfsph.c).
#define DFSPH_COARSE_GROUPS (P.dims.y * P.dims.z + (P.dims.x * P.dims.z + uint(SIM_WG) - 1u) / uint(SIM_WG))
// The momentum's share in a step the coarse level runs in (solve_fns.glsl; 0.5 in any other step):
// dfsph.c gives 0.3 with the repeats, 0.5 without.
#ifndef DFSPH_COARSE_BETA
#define DFSPH_COARSE_BETA 0.5
#endif
#define DFSPH_COARSE_MAXY 256 // the most layers
#define DFSPH_COARSE_MAXC 65536 // the most grid columns (x, z)
#define DFSPH_COARSE_MAXR 65536 // the most rows of cells (y, z)
#define DFSPH_COARSE_RUNS                                                                                      \
    (P.dims.y <= uint(DFSPH_COARSE_MAXY) && P.dims.x * P.dims.z <= uint(DFSPH_COARSE_MAXC) &&                  \
     P.dims.y * P.dims.z <= uint(DFSPH_COARSE_MAXR) && C.dt_cfl >= min(D.dt_max, D.dt_visc))
#ifndef DFSPH_NBR_POS
#define DFSPH_NBR_POS pos
#endif
#if DFSPH_REC
struct NbrRec {
    vec3 grad; // m grad W_ij = m W'(r) / r (x_i - x_j)
    uint idx;  // j
};
#define DFSPH_NBR_T NbrRec
#define DFSPH_NBR_MAKE(g, j) NbrRec(g, j)
#define DFSPH_NBR_NONE NbrRec(vec3(0.0), 0u)
#define DFSPH_NBR_IDX(e) (e).idx
#define DFSPH_NBR_SET_IDX(e, j) (e).idx = (j)
#define DFSPH_NBR_SET_GRAD(e, g) (e).grad = (g)
#define DFSPH_LIST_TAKE(j, g, e) \
    uint j = e.idx;              \
    vec3 g = e.grad;
#else
#define DFSPH_NBR_T uint
#define DFSPH_NBR_MAKE(g, j) (j)
#define DFSPH_NBR_NONE 0u
#define DFSPH_NBR_IDX(e) (e)
#define DFSPH_NBR_SET_IDX(e, j) (e) = (j)
#define DFSPH_NBR_SET_GRAD(e, g)
#define DFSPH_LIST_TAKE(j, g, e)                                \
    uint j = e;                                                 \
    vec4 xj_ = DFSPH_NBR_POS[j];                                \
    vec3 d_ = xi - xj_.xyz;                                     \
    vec2 wk_ = sim_pair(dot(d_, d_), P.hs, sim_kernel_k(P.hs)); \
    vec3 g = P.mass * wk_.y * d_; /* as density.comp made it */
#endif
// DFSPH_LIST_DW: inside an index list's walk, the pair's dW/dr / r (sim_pair's) that the walk
// evaluated for g, so a pass that needs both evaluates the kernel once (the non-pressure pass's
// viscosity and warm start, DFSPH_WARM_NP).
#if !DFSPH_REC
#define DFSPH_LIST_DW wk_.y
#endif
// The values k of the solve under way: DFSPH_K(i) a particle's own (read and written by its
// thread), DFSPH_KJ(j) a neighbour's, inside a walk. Where the lists hold indices they ride in
// pos.w, so the walk gathers x_j and k_j in one 16-byte load (the update passes at 986,078 on the
// H100: -4%, the frame -2.4%; docs/BENCHMARKS.md, s25); DFSPH_K_WITH_X 0 (the fused step, whose
// DFSPH_NBR_POS is a non-coherent alias of positions other groups' k change under): k_j from the
// coherent pos. Records hold no x_j, so their k stay in a dense array of their own, 8 to a 32-byte
// sector (kappa; in pos.w the fused step's pressure phase took 4% longer). The pressure solve's running
// total, carried to the next step's warm start through the reorder, rides in vel.w (solve_fns.glsl).
#ifndef DFSPH_K_WITH_X
#define DFSPH_K_WITH_X 1
#endif
#if DFSPH_REC
#define DFSPH_K(i) kappa[i]
#define DFSPH_KJ(j) kappa[j]
#else
#define DFSPH_K(i) pos[i].w
#if DFSPH_K_WITH_X
#define DFSPH_KJ(j) xj_.w
#else
#define DFSPH_KJ(j) pos[j].w
#endif
#endif
#if DFSPH_PREFETCH >= 2
#define DFSPH_LIST_BEGIN(j, g)                                                                   \
    {                                                                                            \
        uint t_ = SIM_GID;                                                                       \
        uint n_ = live ? nbr_count[t_] : 0u;                                                     \
        for (uint b_ = 0u; b_ < n_; b_ += uint(DFSPH_PREFETCH)) {                                \
            DFSPH_NBR_T batch_[DFSPH_PREFETCH];                                                  \
            for (uint u_ = 0u; u_ < uint(DFSPH_PREFETCH); u_++)                                  \
                batch_[u_] = nbr[min(b_ + u_, n_ - 1u) * uint(DFSPH_LIST_STRIDE) + t_]; /* past: the last */ \
            for (uint u_ = 0u; u_ < uint(DFSPH_PREFETCH); u_++) {                                \
                if (b_ + u_ >= n_) break;                                                        \
                DFSPH_NBR_T e_ = batch_[u_];                                                     \
                DFSPH_LIST_TAKE(j, g, e_)
#define DFSPH_LIST_END \
            }          \
        }              \
    }
#elif DFSPH_PREFETCH
#define DFSPH_LIST_BEGIN(j, g)                                                              \
    {                                                                                       \
        uint t_ = SIM_GID;                                                                  \
        uint n_ = live ? nbr_count[t_] : 0u;                                                \
        DFSPH_NBR_T next_ = n_ > 0u ? nbr[t_] : DFSPH_NBR_NONE;                             \
        for (uint k_ = 0u; k_ < n_; k_++) {                                                 \
            DFSPH_NBR_T e_ = next_;                                                         \
            next_ = nbr[min(k_ + 1u, n_ - 1u) * uint(DFSPH_LIST_STRIDE) + t_]; /* past: the last */ \
            DFSPH_LIST_TAKE(j, g, e_)
#else
#define DFSPH_LIST_BEGIN(j, g)                                         \
    {                                                                  \
        uint t_ = SIM_GID;                                             \
        uint n_ = live ? nbr_count[t_] : 0u;                           \
        for (uint k_ = 0u; k_ < n_; k_++) {                            \
            DFSPH_NBR_T e_ = nbr[k_ * uint(DFSPH_LIST_STRIDE) + t_];     \
            DFSPH_LIST_TAKE(j, g, e_)
#endif
#if DFSPH_PREFETCH < 2
#define DFSPH_LIST_END \
        }              \
    }
#endif

// The walls' kernel share Phi at x and its gradient (toward the walls): a wall acts as ghost
// fluid at rest density, so it adds rho0 Phi to the density and rho0 grad Phi to its gradient.
vec4 dfsph_wall(vec3 x) { return sim_wall_fraction(x, P.lo.xyz, P.hi.xyz, P.hs, P.dx, P.mass / (P.rho0 * P.dx * P.dx)); }

#endif
