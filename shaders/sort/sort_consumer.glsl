// The sort inside a consumer program (src/sort/sort.h, "Consumer"): every pass of the radix sort's
// onesweep path in one dispatch whose groups are all resident at once, behind grid-wide barriers,
// so that the program's own work on the sorted pairs follows in the same dispatch. The sort's
// dispatch boundaries (a pass each) and the one after it become grid barriers.
//
// A pass: each group draws tiles from the pass's ticket counter until they run out and scatters
// each (os_scatter_tile, radix_onesweep_tile.glsl: the same ranking, look-back and writes as the
// pass-a-dispatch kernel), then every group meets at a grid barrier, so the next pass reads this
// one's whole output. The passes ping-pong between the caller's pair (sc_keys[0], sc_vals[0]) and
// the sorter's scratch pair ([1]). A tile only waits (in its look-back) on tiles whose groups have
// drawn them, and every group is resident, so the waits end.
// Housekeeping, after the last barrier (no group reads them again in this dispatch): the look-back
// words the passes wrote and the tickets go back to 0, and the next sort's histograms (the other
// buffer, which its producer fills) are cleared, as radix_onesweep.comp's pass 0 does.
// A shut gate (sort_gate.glsl): no pass runs, both pairs stay as they were, and only the next
// histograms are cleared.
// Probe mode (u_sc_probe = N > 0, set by sort_consumer_probe only): the dispatch crosses N grid
// barriers and nothing else, with the program's own registers and shared memory, so a grid the GPU
// cannot keep resident stalls there (the stalled word set) and never inside a search.
//
// Loader defines: sort_consumer_defines (the radix kernels' own: WG, KPT, the subgroup and look-back
// defines, the RADIX_* and SORT_* constants), SORT_CONSUMER_BINDING (the first of
// SORT_CONSUMER_BINDINGS consecutive free storage bindings), GRID_POLL_ONE and GRID_LOOP_CHECK
// (grid_barrier.glsl). Include it first (radix_common.glsl declares the subgroup extensions), then
// layout(local_size_x = WG) in; call sort_consumer_run first in main, from every invocation.
#ifndef FLUID_SORT_CONSUMER_GLSL
#define FLUID_SORT_CONSUMER_GLSL
#include "sort/radix_common.glsl"
#include "sort/radix_passes.glsl"
#include "sort/sort_gate.glsl"

// [0] the caller's pair, [1] the sorter's scratch pair: read and written by other groups within
// the dispatch, so coherent.
layout(std430, binding = SORT_CONSUMER_BINDING + 0) coherent buffer SortCKeys { uint v[]; } sc_keys[2];
layout(std430, binding = SORT_CONSUMER_BINDING + 2) coherent buffer SortCVals { uint v[]; } sc_vals[2];
layout(std430, binding = SORT_CONSUMER_BINDING + 4) readonly buffer SortCHist { uint sc_hist[]; };
layout(std430, binding = SORT_CONSUMER_BINDING + 5) writeonly buffer SortCHistNext { uint sc_hist_next[]; };
// The run's words, in one block (a consumer may use every other binding up to the 16 storage blocks
// a program has on llvmpipe).
layout(std430, binding = SORT_CONSUMER_BINDING + 6) coherent volatile buffer SortCState {
    uint sc_ticket[RADIX_MAX_PASSES]; // each pass's next tile
    uint sc_bar;                      // the grid barrier's word
    uint sc_stalled;                  // set where a grid barrier stalled (the probe's answer)
    uint sc_clk[2];                   // the consumer's own (its phase clocks), the sort leaves them
    uint sc_status[];                 // pass p's look-back words: tile t's row at (p * u_sc_rows + t) * RADIX
};

layout(location = RADIX_LOC_N) uniform uint u_sc_n;
layout(location = RADIX_LOC_BITS) uniform uint u_sc_bits;
layout(location = RADIX_LOC_TILES) uniform uint u_sc_tiles;
layout(location = RADIX_LOC_CLEAR_ROWS) uniform uint u_sc_rows; // look-back rows a pass has in sc_status
layout(location = RADIX_LOC_PASS) uniform uint u_sc_probe;      // 0, or the probe's barriers

#define GRID_COUNT sc_bar
#define GRID_STALLED sc_stalled
#include "grid_barrier.glsl"

uint sc_src;  // the pass's input pair
uint sc_base; // the pass's first look-back word
#define OS_KEY_IN(i) sc_keys[sc_src].v[i]
#define OS_VAL_IN(i) sc_vals[sc_src].v[i]
#define OS_KEY_OUT(i) sc_keys[1u - sc_src].v[i]
#define OS_VAL_OUT(i) sc_vals[1u - sc_src].v[i]
#define OS_STATUS(i) sc_status[sc_base + (i)]
#include "sort/radix_onesweep_tile.glsl"

shared uint s_sc_tile;

// Sorts the pairs, every group alike. False in probe mode (the caller's main returns at once);
// else true. `result`: the pair that holds the sorted pairs (0: the caller's, 1: the scratch; the
// one sort_consumer_bind returned on the host).
bool sort_consumer_run(out uint result) {
    uint lid = gl_LocalInvocationIndex, n = u_sc_n, passes = rx_passes(u_sc_bits);
    result = passes & 1u;
    if (u_sc_probe != 0u) {
        for (uint r = 0u; r < u_sc_probe; r++)
            if (!grid_barrier()) break;
        return false;
    }
    bool shut = sort_gate_shut();
    if (!shut) {
        for (uint p = 0u; p < passes; p++) {
            sc_src = p & 1u;
            sc_base = p * u_sc_rows * uint(RADIX);
            for (;;) {
                if (lid == 0u) s_sc_tile = atomicAdd(sc_ticket[p], 1u);
                uint digit_total = lid < uint(RADIX) ? sc_hist[p * uint(RADIX) + lid] : 0u;
                barrier();
                uint tile = s_sc_tile;
                barrier(); // every invocation has read it before the next draw
                if (tile >= u_sc_tiles) break;
                os_scatter_tile(tile, n, p * uint(RADIX_BITS), rx_pass_mask(u_sc_bits, p), digit_total);
                barrier(); // the tile's shared memory is read before the next tile writes it
            }
            grid_barrier();
        }
        // Housekeeping: the look-back rows the passes wrote, and the tickets.
        uint stride = gl_NumWorkGroups.x * uint(WG);
        for (uint i = gl_WorkGroupID.x * uint(WG) + lid; i < passes * u_sc_tiles * uint(RADIX); i += stride) {
            uint p = i / (u_sc_tiles * uint(RADIX)), w = i % (u_sc_tiles * uint(RADIX));
            sc_status[p * u_sc_rows * uint(RADIX) + w] = 0u;
        }
        if (gl_WorkGroupID.x == 0u && lid < uint(RADIX_MAX_PASSES)) sc_ticket[lid] = 0u;
    }
    if (gl_WorkGroupID.x == 0u)
        for (uint i = lid; i < uint(RADIX_MAX_PASSES * RADIX); i += uint(WG)) sc_hist_next[i] = 0u;
    return true;
}

// The sorted pairs' key and value i (after sort_consumer_run, of its result).
#define sort_consumer_key(result, i) sc_keys[result].v[i]
#define sort_consumer_val(result, i) sc_vals[result].v[i]
#endif
