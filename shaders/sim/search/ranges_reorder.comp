// ranges and reorder in one dispatch: both need only the sort's output, not each other, so thread
// t makes the cell table's entries t K .. t K + K - 1 (K = SIM_RANGE_CELLS, up to the cells;
// ranges_fns.glsl) and moves particle t into its sorted place (t < n; reorder.comp), and the step
// saves a dependent dispatch. The search takes it where it makes the table itself (not with the
// counting sort, whose scan is the table).
#version 450
#include "sim/sim_common.glsl"
layout(local_size_x = SIM_WG) in;
layout(std430, binding = B_POS_IN) readonly buffer PosIn { vec4 pos_in[]; };
layout(std430, binding = B_VEL_IN) readonly buffer VelIn { vec4 vel_in[]; };
layout(std430, binding = B_POS_OUT) writeonly buffer PosOut { vec4 pos_out[]; };
layout(std430, binding = B_VEL_OUT) writeonly buffer VelOut { vec4 vel_out[]; };
layout(std430, binding = B_KEYS) readonly buffer Keys { uint keys[]; };
layout(std430, binding = B_VALS) readonly buffer Vals { uint vals[]; };
layout(std430, binding = B_ID_IN) readonly buffer IdIn { uint id_in[]; };
layout(std430, binding = B_ID_OUT) writeonly buffer IdOut { uint id_out[]; };
layout(std430, binding = B_CELL_KEYS) writeonly buffer CellKeys { uint cell_keys[]; };
layout(std430, binding = B_RANGES) buffer Starts { uint starts[]; }; // the last search's entries are its guesses

#include "sim/search/ranges_fns.glsl"
#include "sort/sort_gate.glsl" // the search's gate (search.h): shut, the particles stay in place
#include "sim/search/carry.glsl" // the last step's densities into the current order, where asked

void main() {
    uint t = gl_GlobalInvocationID.x;
    if (sort_gate_shut()) { // the particles stay in place; the cell table and cell keys stay
        if (t < P.n) {
            pos_out[t] = pos_in[t], vel_out[t] = vel_in[t], id_out[t] = id_in[t];
            sim_carry_dens(t, t);
        }
        return;
    }
    sim_ranges_write(t);
    if (t < P.n) {
        uint j = vals[t];
        pos_out[t] = pos_in[j];
        vel_out[t] = vel_in[j];
        id_out[t] = id_in[j];
        cell_keys[t] = keys[t];
        sim_carry_dens(t, j);
    }
}
