// The search in one dispatch (src/sim/search.c, the persistent search): the sort's passes as the
// sort's consumer (sort/sort_consumer.glsl: every group resident, a grid barrier after each pass),
// then ranges and reorder as ranges_reorder.comp makes them, over the sorted pairs: the sort's
// dispatch boundaries and the one before ranges+reorder become grid barriers. The groups walk the
// threads of ranges_reorder.comp's dispatch (max(n, cells / SIM_RANGE_CELLS + 1)) in turn; a
// thread's work, and so every value written, is that pass's.
// A shut gate (sort_gate.glsl): the sort does nothing and the particles stay in place, as
// ranges_reorder.comp does.
#version 450
#include "sort/sort_consumer.glsl" // first: it declares the subgroup extensions
#include "sim/sim_common.glsl"
layout(local_size_x = WG) in;
layout(std430, binding = B_POS_IN) readonly buffer PosIn { vec4 pos_in[]; };
layout(std430, binding = B_VEL_IN) readonly buffer VelIn { vec4 vel_in[]; };
layout(std430, binding = B_POS_OUT) writeonly buffer PosOut { vec4 pos_out[]; };
layout(std430, binding = B_VEL_OUT) writeonly buffer VelOut { vec4 vel_out[]; };
layout(std430, binding = B_ID_IN) readonly buffer IdIn { uint id_in[]; };
layout(std430, binding = B_ID_OUT) writeonly buffer IdOut { uint id_out[]; };
layout(std430, binding = B_CELL_KEYS) writeonly buffer CellKeys { uint cell_keys[]; };
layout(std430, binding = B_RANGES) writeonly buffer Starts { uint starts[]; };

uint g_result; // the pair holding the sorted pairs
#define keys sc_keys[g_result].v // ranges_fns.glsl's sorted keys
#include "sim/search/ranges_fns.glsl"

void main() {
    if (!sort_consumer_run(g_result)) return; // the probe (sort_consumer_probe)
    uint lid = gl_LocalInvocationIndex, stride = gl_NumWorkGroups.x * uint(WG);
    uint threads = max(P.n, P.dims.w / uint(SIM_RANGE_CELLS) + 1u);
    if (sort_gate_shut()) { // the particles stay in place; the cell table and cell keys stay
        for (uint t = gl_WorkGroupID.x * uint(WG) + lid; t < P.n; t += stride)
            pos_out[t] = pos_in[t], vel_out[t] = vel_in[t], id_out[t] = id_in[t];
    } else {
        for (uint t = gl_WorkGroupID.x * uint(WG) + lid; t < threads; t += stride) {
            sim_ranges_write(t);
            if (t < P.n) {
                uint j = sort_consumer_val(g_result, t);
                pos_out[t] = pos_in[j];
                vel_out[t] = vel_in[j];
                id_out[t] = id_in[j];
                cell_keys[t] = keys[t];
            }
        }
    }
    grid_loop_check(); // llvmpipe: the limiter on its loops cut nothing short (grid_barrier.glsl)
}
