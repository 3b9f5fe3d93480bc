#version 450
// Radix sort, onesweep path (after Adinets & Merrill 2022): the scatter of one pass, with the
// tile offsets from a chained scan with decoupled look-back instead of a scan dispatch.
//
// A group draws its tile from a ticket counter (so a tile only ever waits on tiles whose groups
// have already started), ranks its keys by digit exactly as radix_scatter.comp does, and
// publishes its per-digit counts at once in status[tile * RX_RADIX + digit]:
//   AGG | count                       this tile's count of the digit
//   PREFIX | (count of the digit in tiles 0 .. tile)   once its look-back is done
// Invocation d < RX_RADIX then walks back over the earlier tiles' words of digit d, adding AGG
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
// Digits of RX_BITS (radix_common.glsl): 8, or 9 in the wide variant (sort_radix.c takes it where it
// saves a pass), where each invocation takes RX_DPI = 2 digits, lid * 2 + j (os_digit), wherever
// the text says "invocation d".
// Loader defines: WG = RADIX_WG, KPT (keys per invocation: a tile is WG * KPT keys), USE_SUBGROUP,
// SG_SIZE or EMU_SG, LB_WINDOW (look-back words read at a time; OS_FALLBACK 0), OS_FALLBACK (1:
// the look-back with fallback), LB_SPIN (its reads of a word before it falls back), OS_AGG_ONLY
// (tests: 2 = no tile posts any word, so every look-back of the fallback path counts all its
// predecessors itself; 1 = no tile but tile 0 publishes a PREFIX word, so every look-back adds AGG words back to tile 0), and the
// RADIX_* constants of src/sort/sort_layout.h.
#include "sort/radix_common.glsl"
#include "sort/radix_passes.glsl"
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

layout(location = RADIX_LOC_N) uniform uint u_n;
layout(location = RADIX_LOC_SHIFT) uniform uint u_shift;
layout(location = RADIX_LOC_MASK) uniform uint u_mask;
layout(location = RADIX_LOC_TILES) uniform uint u_tiles;
layout(location = RADIX_LOC_PASS) uniform uint u_pass;
layout(location = RADIX_LOC_PARITY) uniform uint u_parity;
layout(location = RADIX_LOC_CLEAR_ROWS) uniform uint u_clear_rows;

// Look-back words: a flag in the top two bits, a count below (n < 2^30, checked by the C side).
#define OS_AGG 0x40000000u
#define OS_PREFIX 0x80000000u
#define OS_VALUE 0x3FFFFFFFu

shared uint s_tile;
#if OS_FALLBACK
shared uint s_stuck;           // look-back: the latest earlier tile some digit found unpublished
shared uint s_active;          // look-back: 1 while some digit has not reached a PREFIX word
shared uint s_fb[RX_RADIX];    // look-back: the stuck tile's digit counts, made by this group
#endif
shared uint s_x[KPT * WG];     // the tile in sorted order: keys, then values
shared uint s_dstart[RX_RADIX]; // first sorted position of each digit in the tile
shared uint s_dest[RX_RADIX];  // global index of sorted position p of digit d: s_dest[d] + p

// This invocation's j-th digit (RX_RADIX and past it: none).
uint os_digit(uint j) { return gl_LocalInvocationIndex * uint(RX_DPI) + j; }

void main() {
    uint lid = gl_LocalInvocationIndex, n = u_n;
    if (lid == 0u) s_tile = atomicAdd(tickets[u_parity], 1u);
    // This pass's digit counts over all keys, loaded first so their latency hides behind the rest.
    uint global_start[RX_DPI];
    for (uint j = 0u; j < uint(RX_DPI); j++) {
        uint d = os_digit(j);
        global_start[j] = d < uint(RX_RADIX) ? hist[u_pass * uint(RX_RADIX) + d] : 0u;
    }
    barrier();
    uint tile = s_tile;
    if (tile >= u_tiles) return; // a 2-D grid's extra groups: the whole group leaves

    // Housekeeping for the next scatter and the next sort (see the top).
    for (uint j = 0u; j < uint(RX_DPI); j++) {
        uint d = os_digit(j);
        if (d < uint(RX_RADIX))
            for (uint row = tile; row < u_clear_rows; row += u_tiles) status_next[row * uint(RX_RADIX) + d] = 0u;
    }
    if (tile == 0u) {
        if (lid == 0u) tickets[1u - u_parity] = 0u;
        if (u_pass == 0u)
            for (uint i = lid; i < uint(RX_HIST_WORDS); i += uint(WG)) hist_next[i] = 0u;
    }
    if (sort_gate_shut()) return; // the caller's gate (sort_gate.glsl): every group alike

    uint base = tile * uint(KPT * WG);
    uint valid = min(uint(KPT * WG), n - base);
    uint sg = rx_sg_id();
    uint first = base + sg * uint(KPT * SG) + rx_lane();
    // The values are loaded with the keys, their latency hidden behind the ranking (loading them
    // after the keys are written was slower; docs/BENCHMARKS.md).
    uint keys[KPT], vals[KPT], ranked[KPT];
    for (uint k = 0u; k < uint(KPT); k++) {
        uint i = first + k * uint(SG);
        keys[k] = i < n ? keys_in[i] : 0u;
        vals[k] = i < n ? vals_in[i] : 0u;
    }
    rx_clear_whist();
    barrier();
    for (uint k = 0u; k < uint(KPT); k++) {
        uint d = first + k * uint(SG) < n ? (keys[k] >> u_shift) & u_mask : uint(RX_RADIX - 1);
        ranked[k] = (rx_rank_round(d, sg) << RX_BITS) | d;
    }
    barrier();

    // This tile's count of each digit, published at once. (The last tile also counts its empty
    // slots under the last digit; no tile looks back at the last one.)
    uint count[RX_DPI], start[RX_DPI];
    for (uint j = 0u; j < uint(RX_DPI); j++) {
        uint d = os_digit(j);
        count[j] = d < uint(RX_RADIX) ? rx_digit_offsets(d) : 0u;
        start[j] = count[j];
#if OS_AGG_ONLY != 2 // tests: with 2 no tile posts anything, so every look-back falls back, to tile 0
        if (d < uint(RX_RADIX)) status[tile * uint(RX_RADIX) + d] = (tile == 0u ? OS_PREFIX : OS_AGG) | count[j];
#endif
    }
    rx_digits_exclusive_scan(start);
    rx_digits_exclusive_scan(global_start);
    for (uint j = 0u; j < uint(RX_DPI); j++)
        if (os_digit(j) < uint(RX_RADIX)) s_dstart[os_digit(j)] = start[j];
    barrier();

    // Sort the tile in shared memory while the earlier tiles finish publishing.
    for (uint k = 0u; k < uint(KPT); k++) {
        uint d = ranked[k] & uint(RX_RADIX - 1);
        ranked[k] = s_dstart[d] + s_whist[sg * uint(RX_RADIX) + d] + (ranked[k] >> RX_BITS); // sorted position
        s_x[ranked[k]] = keys[k];
    }

#if OS_FALLBACK
    // Decoupled look-back with fallback (after Smith, Levien & Owens, SPAA 2025), which needs no
    // forward progress between groups. The group steps in uniform control flow; in a step each
    // digit's invocation that has not yet met a PREFIX word reads its next earlier word up to
    // LB_SPIN times. A word still 0 after that makes the group count that tile's digits itself
    // (its keys are in keys_in; an earlier tile is always a full one) and post them with
    // atomicCompSwap(0 -> AGG | count, PREFIX | count for tile 0): the value the tile would post,
    // so a race with the tile itself is harmless, and a posted word is never 0 again in this
    // scatter. Every step either moves some digit back a tile or posts a tile's words, so the
    // look-back ends after at most 2 x tile steps whether or not the earlier groups ever run.
    uint before[RX_DPI];
    int t[RX_DPI];
    bool done[RX_DPI];
    for (uint j = 0u; j < uint(RX_DPI); j++) {
        before[j] = 0u;
        t[j] = int(tile) - 1;
        done[j] = tile == 0u || os_digit(j) >= uint(RX_RADIX);
    }
    for (;;) {
        if (lid == 0u) {
            s_stuck = 0xFFFFFFFFu;
            s_active = 0u;
        }
        barrier();
        for (uint j = 0u; j < uint(RX_DPI); j++) {
            if (done[j]) continue;
            uint w = 0u;
            for (uint spin = 0u; spin < uint(LB_SPIN); spin++) {
                w = status[uint(t[j]) * uint(RX_RADIX) + os_digit(j)];
                if ((w & (OS_AGG | OS_PREFIX)) != 0u) break;
            }
            if ((w & (OS_AGG | OS_PREFIX)) != 0u) {
                before[j] += w & OS_VALUE;
                done[j] = (w & OS_PREFIX) != 0u;
                t[j]--;
            } else {
                atomicMin(s_stuck, uint(t[j])); // any stuck tile will do; the earliest ends soonest
            }
            if (!done[j]) s_active = 1u;
        }
        barrier();
        if (s_active == 0u) break;
        uint stuck = s_stuck;
        if (stuck != 0xFFFFFFFFu) { // uniform: every invocation read the same s_stuck
            for (uint d = lid; d < uint(RX_RADIX); d += uint(WG)) s_fb[d] = 0u;
            barrier();
            uint from = stuck * uint(KPT * WG);
            for (uint i = lid; i < uint(KPT * WG); i += uint(WG))
                atomicAdd(s_fb[(keys_in[from + i] >> u_shift) & u_mask], 1u);
            barrier();
            // Tile 0's count is also its inclusive count: posted as PREFIX, as tile 0 posts it (an
            // AGG there would send a look-back on past tile 0).
            uint flag = stuck == 0u ? OS_PREFIX : OS_AGG;
            for (uint d = lid; d < uint(RX_RADIX); d += uint(WG))
                atomicCompSwap(status[stuck * uint(RX_RADIX) + d], 0u, flag | s_fb[d]);
        }
        barrier(); // s_stuck and s_active are reset next step
    }
    for (uint j = 0u; j < uint(RX_DPI); j++) {
        uint d = os_digit(j);
        if (d >= uint(RX_RADIX)) continue;
#if !OS_AGG_ONLY
        if (tile > 0u) status[tile * uint(RX_RADIX) + d] = OS_PREFIX | (before[j] + count[j]);
#endif
        s_dest[d] = global_start[j] + before[j] - start[j];
    }
#else
    // Decoupled look-back, one invocation per digit, reading LB_WINDOW earlier tiles' words at a
    // time (loads in flight together) and adding them in order up to the nearest PREFIX word; a
    // word not yet published stops the step, and the next step reads again from it.
    for (uint j = 0u; j < uint(RX_DPI); j++) {
        uint d = os_digit(j);
        if (d >= uint(RX_RADIX)) continue;
        uint before = 0u;
        if (tile > 0u) {
            int t = int(tile) - 1;
            for (;;) {
                uint w[LB_WINDOW];
                for (int i = 0; i < LB_WINDOW; i++) // before tile 0 (never reached): an empty PREFIX
                    w[i] = t - i >= 0 ? status[uint(t - i) * uint(RX_RADIX) + d] : OS_PREFIX;
                int used = 0;
                bool done = false;
                for (int i = 0; i < LB_WINDOW; i++) {
                    if (done || (w[i] & (OS_AGG | OS_PREFIX)) == 0u) break; // not published yet: wait
                    before += w[i] & OS_VALUE;
                    done = (w[i] & OS_PREFIX) != 0u;
                    used++;
                }
                if (done) break;
                t -= used;
            }
#if !OS_AGG_ONLY
            status[tile * uint(RX_RADIX) + d] = OS_PREFIX | (before + count[j]);
#endif
        }
        s_dest[d] = global_start[j] + before - start[j];
    }
#endif
    barrier();

    // Write runs of equal digits to consecutive addresses: keys, then values.
    uint dest[KPT];
    for (uint k = 0u; k < uint(KPT); k++) {
        uint p = k * uint(WG) + lid;
        dest[k] = 0u;
        if (p < valid) {
            uint key = s_x[p];
            dest[k] = s_dest[(key >> u_shift) & u_mask] + p;
            keys_out[dest[k]] = key;
        }
    }
    barrier();
    for (uint k = 0u; k < uint(KPT); k++) s_x[ranked[k]] = vals[k];
    barrier();
    for (uint k = 0u; k < uint(KPT); k++) {
        uint p = k * uint(WG) + lid;
        if (p < valid) vals_out[dest[k]] = s_x[p];
    }
}
