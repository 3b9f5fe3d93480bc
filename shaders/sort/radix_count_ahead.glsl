// The count-ahead path's end of a dispatch: the last work group to finish scans the table that all the
// groups have just filled, so that no separate scan dispatch is needed. No group waits for
// another: each takes a ticket when done, and only the one that draws the last ticket goes on.
// Included after the kernel declares (coherent) RX_SCAN_TABLE[] (digit-major, u_tiles columns
// per digit row), RX_SCAN_TOTALS[] and the Counter block, and u_tiles.
#ifndef FLUID_RADIX_COUNT_AHEAD_GLSL
#define FLUID_RADIX_COUNT_AHEAD_GLSL

shared uint s_ticket;

// Uniform control flow. True in the one work group that finished last; every write and atomic of
// every group is visible to it.
bool rx_last_group(void) {
    memoryBarrierBuffer(); // this invocation's table writes and atomics, before the ticket
    barrier();
    if (gl_LocalInvocationIndex == 0u) s_ticket = atomicAdd(counter, 1u);
    barrier();
    bool last = s_ticket == u_tiles - 1u;
    if (last) memoryBarrierBuffer();
    return last;
}

// In the last group: each digit row of the table becomes its exclusive prefix sums (in place),
// its sum goes to RX_SCAN_TOTALS[digit], and the ticket counter is reset for the next dispatch.
void rx_scan_table(void) {
    uint lid = gl_LocalInvocationIndex;
    if (lid < uint(RADIX)) {
        uint row = lid * u_tiles, sum = 0u;
        for (uint t = 0u; t < u_tiles; t += 16u) { // 16 loads in flight at a time
            uint v[16];
            for (uint j = 0u; j < 16u; j++) v[j] = t + j < u_tiles ? RX_SCAN_TABLE[row + t + j] : 0u;
            for (uint j = 0u; j < 16u; j++) {
                if (t + j < u_tiles) RX_SCAN_TABLE[row + t + j] = sum;
                sum += v[j];
            }
        }
        RX_SCAN_TOTALS[lid] = sum;
    }
    if (lid == 0u) counter = 0u;
}

#endif
