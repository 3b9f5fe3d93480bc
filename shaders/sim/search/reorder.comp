// reorder: copies every particle into its sorted place (ping-pong buffers), carrying its original
// id along (and, where asked, its last density: carry.glsl), and keeps its cell key for the renderer.
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
#include "sort/sort_gate.glsl" // the search's gate (search.h): shut, the particles stay in place
#include "sim/search/carry.glsl" // the last step's densities into the current order, where asked

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= P.n) return;
    if (sort_gate_shut()) { // the particles stay in place; the cell table and cell keys stay
        pos_out[i] = pos_in[i], vel_out[i] = vel_in[i], id_out[i] = id_in[i];
        sim_carry_dens(i, i);
        return;
    }
    uint j = vals[i];
    pos_out[i] = pos_in[j];
    vel_out[i] = vel_in[j];
    id_out[i] = id_in[j];
    cell_keys[i] = keys[i];
    sim_carry_dens(i, j);
}
