#version 450
// Radix sort, onesweep path (after Adinets & Merrill 2022): the scatter of one pass, with the
// tile offsets from a chained scan with decoupled look-back instead of a scan dispatch.
//
// A group draws its tile from a ticket counter (so a tile only ever waits on tiles whose groups
// have already started), ranks its keys by digit exactly as radix_scatter.comp does, and
// publishes its per-digit counts at once in status[tile * RADIX + digit]:
//   AGG | count                       this tile's count of the digit
//   PREFIX | (count of the digit in tiles 0 .. tile)   once its look-back is done
// Invocation d < RADIX then walks back over the earlier tiles' words of digit d, adding AGG
// counts, until it meets a PREFIX word (tile 0 publishes PREFIX at once), waiting on a word that
// is still 0. That wait is safe only where running groups keep running (forward progress), which
// OpenGL does not promise: with OS_FALLBACK 1 a wait is bounded (LB_SPIN reads) and the group
// then counts the unpublished tile's digits itself (see the look-back below), so the scatter ends
// on any driver; with OS_FALLBACK 0 it waits without bound (drivers known to make progress only).
// The digit's global start (sum of smaller digits, from the one histogram dispatch) plus the
// tiles-before count plus the rank in the tile is where each key goes; the tile is sorted in
// shared memory first so runs of equal digits are written to consecutive addresses.
//
// A shut gate (sort_gate.glsl): the group draws its tile and does its housekeeping, then leaves.
// Housekeeping for the next sort and the next scatter (nothing is cleared by a separate call):
// status words and ticket counters come in two sets used by alternate scatters; this scatter
// clears the other set's first u_clear_rows tile rows and resets its ticket; pass 0 also clears
// the other histogram buffer, which the next sort (or its producer's producer count) fills.
// The tile itself is os_scatter_tile (radix_onesweep_tile.glsl), which the consumer programs share
// (sort_consumer.glsl: every pass in one dispatch).
// Loader defines: WG = RADIX_WG, KPT (keys per invocation: a tile is WG * KPT keys), USE_SUBGROUP,
// SG_SIZE or EMU_SG, LB_WINDOW (look-back words read at a time; OS_FALLBACK 0), OS_FALLBACK (1:
// the look-back with fallback), LB_SPIN (its reads of a word before it falls back), OS_AGG_ONLY
// (tests: 2 = no tile posts any word, so every look-back of the fallback path counts all its
// predecessors itself; 1 = no tile but tile 0 publishes a PREFIX word, so every look-back adds AGG words back to tile 0), and the
// RADIX_* constants of src/sort/sort_layout.h.
#include "sort/radix_common.glsl"
#include "sort/sort_gate.glsl"

layout(local_size_x = WG) in;

layout(std430, binding = RADIX_BIND_KEYS_IN) readonly buffer KeysIn { uint keys_in[]; };
layout(std430, binding = RADIX_BIND_VALS_IN) readonly buffer ValsIn { uint vals_in[]; };
layout(std430, binding = RADIX_BIND_KEYS_OUT) writeonly buffer KeysOut { uint keys_out[]; };
layout(std430, binding = RADIX_BIND_VALS_OUT) writeonly buffer ValsOut { uint vals_out[]; };
layout(std430, binding = RADIX_BIND_HIST) readonly buffer Hist { uint hist[]; };
layout(std430, binding = RADIX_BIND_HIST_NEXT) writeonly buffer HistNext { uint hist_next[]; };
layout(std430, binding = RADIX_BIND_STATUS) coherent volatile buffer Status { uint status[]; };
layout(std430, binding = RADIX_BIND_STATUS_NEXT) writeonly buffer StatusNext { uint status_next[]; };
layout(std430, binding = RADIX_BIND_TICKETS) coherent buffer Tickets { uint tickets[]; };

#define OS_KEY_IN(i) keys_in[i]
#define OS_VAL_IN(i) vals_in[i]
#define OS_KEY_OUT(i) keys_out[i]
#define OS_VAL_OUT(i) vals_out[i]
#define OS_STATUS(i) status[i]
#include "sort/radix_onesweep_tile.glsl"

shared uint s_tile;

layout(location = RADIX_LOC_N) uniform uint u_n;
layout(location = RADIX_LOC_SHIFT) uniform uint u_shift;
layout(location = RADIX_LOC_MASK) uniform uint u_mask;
layout(location = RADIX_LOC_TILES) uniform uint u_tiles;
layout(location = RADIX_LOC_PASS) uniform uint u_pass;
layout(location = RADIX_LOC_PARITY) uniform uint u_parity;
layout(location = RADIX_LOC_CLEAR_ROWS) uniform uint u_clear_rows;

void main() {
    uint lid = gl_LocalInvocationIndex, n = u_n;
    if (lid == 0u) s_tile = atomicAdd(tickets[u_parity], 1u);
    // This pass's digit counts over all keys, loaded first so their latency hides behind the rest.
    uint digit_total = lid < uint(RADIX) ? hist[u_pass * uint(RADIX) + lid] : 0u;
    barrier();
    uint tile = s_tile;
    if (tile >= u_tiles) return; // a 2-D grid's extra groups: the whole group leaves

    // Housekeeping for the next scatter and the next sort (see the top).
    if (lid < uint(RADIX))
        for (uint row = tile; row < u_clear_rows; row += u_tiles) status_next[row * uint(RADIX) + lid] = 0u;
    if (tile == 0u) {
        if (lid == 0u) tickets[1u - u_parity] = 0u;
        if (u_pass == 0u)
            for (uint i = lid; i < uint(RADIX_MAX_PASSES * RADIX); i += uint(WG)) hist_next[i] = 0u;
    }
    if (sort_gate_shut()) return; // the caller's gate (sort_gate.glsl): every group alike

    os_scatter_tile(tile, n, u_shift, u_mask, digit_total);
}
