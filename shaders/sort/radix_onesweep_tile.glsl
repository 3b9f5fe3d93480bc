// Radix sort, onesweep path: the scatter of one tile of one pass (after Adinets & Merrill 2022),
// shared by the kernel that runs a pass a dispatch (radix_onesweep.comp, whose top says how a tile
// works) and the consumer programs that run every pass in one dispatch (sort_consumer.glsl).
// The includer defines, before including it (after radix_common.glsl):
//   OS_KEY_IN(i), OS_VAL_IN(i)    the pass's input pair, read
//   OS_KEY_OUT(i), OS_VAL_OUT(i)  its output pair (lvalues)
//   OS_STATUS(i)                  the pass's look-back words (a coherent volatile lvalue; tile t's
//                                 row at t * RADIX)
#ifndef FLUID_RADIX_ONESWEEP_TILE_GLSL
#define FLUID_RADIX_ONESWEEP_TILE_GLSL

// Look-back words: a flag in the top two bits, a count below (n < 2^30, checked by the C side).
#define OS_AGG 0x40000000u
#define OS_PREFIX 0x80000000u
#define OS_VALUE 0x3FFFFFFFu

#if OS_FALLBACK
shared uint s_stuck;           // look-back: the latest earlier tile some digit found unpublished
shared uint s_active;          // look-back: 1 while some digit has not reached a PREFIX word
shared uint s_fb[RADIX];       // look-back: the stuck tile's digit counts, made by this group
#endif
shared uint s_x[KPT * WG];     // the tile in sorted order: keys, then values
shared uint s_dstart[RADIX];   // first sorted position of each digit in the tile
shared uint s_dest[RADIX];     // global index of sorted position p of digit d: s_dest[d] + p

// Scatters tile `tile` of the pass whose digit is (key >> shift) & mask, of n keys. digit_total:
// the pass's count of digit lid over all keys (lid < RADIX; the caller loads it early, so its
// latency hides behind its own work). Every invocation of the group calls it, in uniform control
// flow.
void os_scatter_tile(uint tile, uint n, uint shift, uint mask, uint digit_total) {
    uint lid = gl_LocalInvocationIndex;
    uint base = tile * uint(KPT * WG);
    uint valid = min(uint(KPT * WG), n - base);
    uint sg = rx_sg_id();
    uint first = base + sg * uint(KPT * SG) + rx_lane();
    // The values are loaded with the keys, their latency hidden behind the ranking (loading them
    // after the keys are written was slower; docs/BENCHMARKS.md).
    uint keys[KPT], vals[KPT], ranked[KPT];
    for (uint k = 0u; k < uint(KPT); k++) {
        uint i = first + k * uint(SG);
        keys[k] = i < n ? OS_KEY_IN(i) : 0u;
        vals[k] = i < n ? OS_VAL_IN(i) : 0u;
    }
    rx_clear_whist();
    barrier();
    for (uint k = 0u; k < uint(KPT); k++) {
        uint d = first + k * uint(SG) < n ? (keys[k] >> shift) & mask : 255u;
        ranked[k] = (rx_rank_round(d, sg) << 8) | d;
    }
    barrier();

    // This tile's count of each digit, published at once. (The last tile also counts its empty
    // slots under digit 255; no tile looks back at the last one.)
    uint count = rx_streams_to_offsets(), unused;
#if OS_AGG_ONLY == 2 // tests: no tile posts anything, so every look-back falls back, to tile 0
#else
    if (lid < uint(RADIX)) OS_STATUS(tile * uint(RADIX) + lid) = (tile == 0u ? OS_PREFIX : OS_AGG) | count;
#endif
    uint start = rx_wg_exclusive_scan(count, unused);
    uint global_start = rx_wg_exclusive_scan(digit_total, unused);
    if (lid < uint(RADIX)) s_dstart[lid] = start;
    barrier();

    // Sort the tile in shared memory while the earlier tiles finish publishing.
    for (uint k = 0u; k < uint(KPT); k++) {
        uint d = ranked[k] & 255u;
        ranked[k] = s_dstart[d] + s_whist[sg * uint(RADIX) + d] + (ranked[k] >> 8); // sorted position
        s_x[ranked[k]] = keys[k];
    }

#if OS_FALLBACK
    // Decoupled look-back with fallback (after Smith, Levien & Owens, SPAA 2025), which needs no
    // forward progress between groups. The group steps in uniform control flow; in a step each
    // digit's invocation that has not yet met a PREFIX word reads its next earlier word up to
    // LB_SPIN times. A word still 0 after that makes the group count that tile's digits itself
    // (its keys are the pass's input; an earlier tile is always a full one) and post them with
    // atomicCompSwap(0 -> AGG | count, PREFIX | count for tile 0): the value the tile would post,
    // so a race with the tile itself is harmless, and a posted word is never 0 again in this
    // scatter. Every step either moves some digit back a tile or posts a tile's words, so the
    // look-back ends after at most 2 x tile steps whether or not the earlier groups ever run.
    uint before = 0u;
    int t = int(tile) - 1;
    bool done = tile == 0u || lid >= uint(RADIX);
    for (;;) {
        if (lid == 0u) {
            s_stuck = 0xFFFFFFFFu;
            s_active = 0u;
        }
        barrier();
        if (!done) {
            uint w = 0u;
            for (uint spin = 0u; spin < uint(LB_SPIN); spin++) {
                w = OS_STATUS(uint(t) * uint(RADIX) + lid);
                if ((w & (OS_AGG | OS_PREFIX)) != 0u) break;
            }
            if ((w & (OS_AGG | OS_PREFIX)) != 0u) {
                before += w & OS_VALUE;
                done = (w & OS_PREFIX) != 0u;
                t--;
            } else {
                atomicMin(s_stuck, uint(t)); // any stuck tile will do; the earliest ends soonest
            }
            if (!done) s_active = 1u;
        }
        barrier();
        if (s_active == 0u) break;
        uint stuck = s_stuck;
        if (stuck != 0xFFFFFFFFu) { // uniform: every invocation read the same s_stuck
            if (lid < uint(RADIX)) s_fb[lid] = 0u;
            barrier();
            uint from = stuck * uint(KPT * WG);
            for (uint i = lid; i < uint(KPT * WG); i += uint(WG))
                atomicAdd(s_fb[(OS_KEY_IN(from + i) >> shift) & mask], 1u);
            barrier();
            // Tile 0's count is also its inclusive count: posted as PREFIX, as tile 0 posts it (an
            // AGG there would send a look-back on past tile 0).
            uint flag = stuck == 0u ? OS_PREFIX : OS_AGG;
            if (lid < uint(RADIX)) atomicCompSwap(OS_STATUS(stuck * uint(RADIX) + lid), 0u, flag | s_fb[lid]);
        }
        barrier(); // s_stuck and s_active are reset next step
    }
    if (lid < uint(RADIX)) {
#if !OS_AGG_ONLY
        if (tile > 0u) OS_STATUS(tile * uint(RADIX) + lid) = OS_PREFIX | (before + count);
#endif
        s_dest[lid] = global_start + before - start;
    }
#else
    // Decoupled look-back, one invocation per digit, reading LB_WINDOW earlier tiles' words at a
    // time (loads in flight together) and adding them in order up to the nearest PREFIX word; a
    // word not yet published stops the step, and the next step reads again from it.
    if (lid < uint(RADIX)) {
        uint before = 0u;
        if (tile > 0u) {
            int t = int(tile) - 1;
            for (;;) {
                uint w[LB_WINDOW];
                for (int j = 0; j < LB_WINDOW; j++) // before tile 0 (never reached): an empty PREFIX
                    w[j] = t - j >= 0 ? OS_STATUS(uint(t - j) * uint(RADIX) + lid) : OS_PREFIX;
                int used = 0;
                bool done = false;
                for (int j = 0; j < LB_WINDOW; j++) {
                    if (done || (w[j] & (OS_AGG | OS_PREFIX)) == 0u) break; // not published yet: wait
                    before += w[j] & OS_VALUE;
                    done = (w[j] & OS_PREFIX) != 0u;
                    used++;
                }
                if (done) break;
                t -= used;
            }
#if !OS_AGG_ONLY
            OS_STATUS(tile * uint(RADIX) + lid) = OS_PREFIX | (before + count);
#endif
        }
        s_dest[lid] = global_start + before - start;
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
            dest[k] = s_dest[(key >> shift) & mask] + p;
            OS_KEY_OUT(dest[k]) = key;
        }
    }
    barrier();
    for (uint k = 0u; k < uint(KPT); k++) s_x[ranked[k]] = vals[k];
    barrier();
    for (uint k = 0u; k < uint(KPT); k++) {
        uint p = k * uint(WG) + lid;
        if (p < valid) OS_VAL_OUT(dest[k]) = s_x[p];
    }
}
#endif
