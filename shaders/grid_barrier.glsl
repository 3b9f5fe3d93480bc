// A grid-wide barrier inside one dispatch: every work group arrives (its writes made visible
// first) and waits until the last one has arrived. Sound only where every group of the dispatch
// is resident at once and the driver keeps them running (gpu_forward_progress, and a grid no
// larger than the GPU holds; llvmpipe: at most LP_NUM_THREADS groups, each of its threads runs one
// group to the end). A wait past GRID_SPIN_MAX polls sets the stalled word instead, and every
// later barrier returns false at once, so a grid too large ends (wrongly, and says so) rather
// than hangs.
// GRID_FORM 1 (default): one word, arrivals in its low 16 bits and the generation in its high 16.
//   A group arrives with one atomicAdd, which also returns the generation it waits to see move;
//   the last to arrive adds 65536 - groups (count back to 0, generation + 1) in one more. The
//   waiters read the word: plain loads of a volatile word on GPUs (GRID_POLL_ONE), so the
//   polls do not queue read-modify-writes at the L2 ahead of the arrivals.
// GRID_FORM 0: the first form (a count, a generation and the stalled word read with atomics before
//   arriving; polls are atomics), kept for measuring against the default (docs/BENCHMARKS.md).
// Polling: the whole group polls, with atomics, unless GRID_POLL_ONE: on llvmpipe a loop of the
// first thread alone, or of the first 32, left early (tests/test_gpu.c caught it), and a plain
// coherent read was hoisted out of the loop. GRID_POLL_ONE 1 (GPUs): the first thread alone
// polls, the others wait at the group barrier.
// Before including, #define GRID_COUNT, GRID_GEN (GRID_FORM 0) and GRID_STALLED as uint lvalues
// of a coherent buffer, GRID_COUNT and GRID_STALLED volatile where GRID_POLL_ONE (0 at the start;
// the barrier leaves the count at 0). GRID_FORM 1 holds at most 65,535 groups (a dispatch's most).
#ifndef FLUID_GRID_BARRIER_GLSL
#define FLUID_GRID_BARRIER_GLSL
#ifndef GRID_POLL_ONE
#define GRID_POLL_ONE 0
#endif
#ifndef GRID_FORM
#define GRID_FORM 1
#endif
#ifndef GRID_LOOP_CHECK
#define GRID_LOOP_CHECK 0
#endif
#ifndef GRID_SPIN_MAX
#define GRID_SPIN_MAX (1u << 20) // about a second of polls on a GPU; a real wait is microseconds
#endif
#if GRID_POLL_ONE
#define GRID_READ(w) (w)
#else
#define GRID_READ(w) atomicAdd(w, 0u) // atomics: llvmpipe hoists a plain coherent read
#endif
shared uint s_grid_gen;
shared bool s_grid_wait, s_grid_stalled;

bool grid_barrier() {
    memoryBarrierBuffer();
    barrier();
    uint groups = gl_NumWorkGroups.x;
    if (gl_LocalInvocationID.x == 0u) {
#if GRID_FORM == 1
        s_grid_stalled = GRID_READ(GRID_STALLED) != 0u;
        uint old = atomicAdd(GRID_COUNT, 1u);
        s_grid_gen = old >> 16;
        s_grid_wait = !s_grid_stalled && (old & 0xffffu) != groups - 1u;
        if (!s_grid_stalled && !s_grid_wait) atomicAdd(GRID_COUNT, 65536u - groups);
#else
        s_grid_stalled = atomicAdd(GRID_STALLED, 0u) != 0u;
        s_grid_gen = atomicAdd(GRID_GEN, 0u);
        s_grid_wait = !s_grid_stalled && atomicAdd(GRID_COUNT, 1u) != groups - 1u;
        if (!s_grid_stalled && !s_grid_wait) {
            atomicExchange(GRID_COUNT, 0u);
            memoryBarrierBuffer();
            atomicAdd(GRID_GEN, 1u);
        }
#endif
    }
    barrier();
    bool stalled = s_grid_stalled;
#if GRID_POLL_ONE
    if (s_grid_wait && gl_LocalInvocationID.x == 0u) {
#else
    if (s_grid_wait) {
#endif
        uint gen = s_grid_gen, spins = 0u;
        bool moved = false;
        while (!moved && !stalled) {
#if GRID_FORM == 1
            moved = (GRID_READ(GRID_COUNT) >> 16) != gen;
            stalled = ++spins >= GRID_SPIN_MAX || ((spins & 31u) == 0u && GRID_READ(GRID_STALLED) != 0u);
#else
            moved = atomicAdd(GRID_GEN, 0u) != gen;
            stalled = atomicAdd(GRID_STALLED, 0u) != 0u || ++spins >= GRID_SPIN_MAX;
#endif
        }
        if (!moved && gl_LocalInvocationID.x == 0u) atomicExchange(GRID_STALLED, 1u);
    }
    barrier();
    if (gl_LocalInvocationID.x == 0u) s_grid_stalled = stalled; // one answer for the group
    barrier();
    memoryBarrierBuffer();
    return !s_grid_stalled;
}

// GRID_LOOP_CHECK 1 (llvmpipe; src/sim/dfsph/dfsph_persistent.c sets it): gallivm ends every loop of
// a shader invocation once that invocation's loops have run 65,535 iterations in all
// (LP_MAX_TGSI_LOOP_ITERATIONS, one count shared by every loop, never reset), silently: each loop
// then stops after its current iteration. A persistent dispatch walks its virtual groups, their
// neighbour lists and the solves' iterations in one invocation, so past that count its passes are
// cut short and the fluid is wrong (src/sim/dfsph/dfsph_persistent.c). Call last in main, from
// every thread: a loop of at least 2 iterations the compiler cannot count; cut to 1, the limiter
// was spent, and the stalled word is set to 2 (every later barrier fails; the host says why and
// takes the indirect path).
void grid_loop_check() {
#if GRID_LOOP_CHECK
    uint want = gl_NumWorkGroups.x + 1u, ran = 0u;
    for (uint k = 0u; k < want; k++) ran++;
    if (ran != want) atomicMax(GRID_STALLED, 2u);
#endif
}
#endif
