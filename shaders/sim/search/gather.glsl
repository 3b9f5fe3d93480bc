// The search's reorder folded into a solver's first pass (search.h, solver_reorders): that pass
// reads every particle in the old order through the sorted values, SIM_SRC(j) for the particle at
// sorted place j, and writes each one to its sorted place with sim_gather_store (its position
// copied, its velocity as the pass makes it, its original id and its cell key), exactly what
// reorder.comp would have written (the cell key recomputed as hash.comp computes it).
// Include after the pass's own Pos (B_POS_IN) and Vel (B_VEL_IN) blocks.
#ifndef FLUID_SIM_GATHER_GLSL
#define FLUID_SIM_GATHER_GLSL
layout(std430, binding = B_VALS) readonly buffer GatherVals { uint g_vals[]; };
layout(std430, binding = B_POS_OUT) writeonly buffer GatherPosOut { vec4 g_pos_out[]; };
layout(std430, binding = B_VEL_OUT) writeonly buffer GatherVelOut { vec4 g_vel_out[]; };
layout(std430, binding = B_ID_IN) readonly buffer GatherIdIn { uint g_id_in[]; };
layout(std430, binding = B_ID_OUT) writeonly buffer GatherIdOut { uint g_id_out[]; };
layout(std430, binding = B_CELL_KEYS) writeonly buffer GatherCellKeys { uint g_cell_keys[]; };
#define SIM_SRC(j) g_vals[j]

void sim_gather_store(uint i, uint src, vec4 v) {
    vec4 x = pos[src];
    g_pos_out[i] = x;
    g_vel_out[i] = v;
    g_id_out[i] = g_id_in[src];
    g_cell_keys[i] = sim_cell_key(sim_cell_of(x.xyz));
}
#endif
