// A grid-wide barrier inside one dispatch: every work group arrives (its writes made visible
// first) on an atomic count, and waits for a generation word to move; the last to arrive resets
// the count and moves it. Sound only where every group of the dispatch is resident at once and
// the driver keeps them running (gpu_forward_progress, and a grid no larger than the GPU holds;
// llvmpipe: at most LP_NUM_THREADS groups, each of its threads runs one group to the end). A wait
// past GRID_SPIN_MAX polls sets the stalled word instead, and every later barrier returns false at
// once, so a grid too large ends (wrongly, and says so) rather than hangs. The whole group polls,
// with atomics: on llvmpipe a loop of the first thread alone, or of the first 32, left early
// (tests/test_gpu.c caught it), and a plain coherent read was hoisted out of the loop.
// GRID_POLL_ONE 1 (GPUs): the first thread alone polls, the others wait at the group barrier.
// Before including, #define GRID_COUNT, GRID_GEN and GRID_STALLED as uint lvalues of a coherent
// buffer (0 at the start; the barrier leaves the count at 0).
#ifndef FLUID_GRID_BARRIER_GLSL
#define FLUID_GRID_BARRIER_GLSL
#ifndef GRID_POLL_ONE
#define GRID_POLL_ONE 0
#endif
#ifndef GRID_SPIN_MAX
#define GRID_SPIN_MAX (1u << 20) // about a second of polls on a GPU; a real wait is microseconds
#endif
shared uint s_grid_gen;
shared bool s_grid_wait, s_grid_stalled;

bool grid_barrier() {
    memoryBarrierBuffer();
    barrier();
    if (gl_LocalInvocationID.x == 0u) {
        s_grid_stalled = atomicAdd(GRID_STALLED, 0u) != 0u;
        s_grid_gen = atomicAdd(GRID_GEN, 0u);
        s_grid_wait = !s_grid_stalled && atomicAdd(GRID_COUNT, 1u) != gl_NumWorkGroups.x - 1u;
        if (!s_grid_stalled && !s_grid_wait) {
            atomicExchange(GRID_COUNT, 0u);
            memoryBarrierBuffer();
            atomicAdd(GRID_GEN, 1u);
        }
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
            moved = atomicAdd(GRID_GEN, 0u) != gen; // atomics: llvmpipe hoists a plain coherent read
            stalled = atomicAdd(GRID_STALLED, 0u) != 0u || ++spins >= GRID_SPIN_MAX;
        }
        if (!moved && gl_LocalInvocationID.x == 0u) atomicExchange(GRID_STALLED, 1u);
    }
    barrier();
    if (gl_LocalInvocationID.x == 0u) s_grid_stalled = stalled; // one answer for the group
    barrier();
    memoryBarrierBuffer();
    return !s_grid_stalled;
}
#endif
