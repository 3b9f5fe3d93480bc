// The next step's hash made by a solver's last pass (integrate), so that the search skips its
// hash dispatch (search.h, "The next step's hash"): the pass writes each particle's (cell key,
// index) pair from the position it has just written, exactly as hash.comp does, and makes the
// sort's producer count where the sorter takes one.
//   SIM_HASH_EMIT 1: built with sim_search_hash_defines (the sorter's fused-count defines and
//   SIM_KEY_BITS); SIM_HASH_EMIT 0: the functions do nothing.
// Include after the pass's layout(local_size_x = ...) in; call sim_hash_begin() first and
// sim_hash_end() last in uniform control flow, sim_hash_emit once per particle.
#ifndef FLUID_SIM_HASH_EMIT_GLSL
#define FLUID_SIM_HASH_EMIT_GLSL
#if SIM_HASH_EMIT
#include "sort/sort_producer_count.glsl"
layout(std430, binding = B_KEYS) writeonly buffer HashKeys { uint h_keys[]; };
layout(std430, binding = B_VALS) writeonly buffer HashVals { uint h_vals[]; };
void sim_hash_begin() { sort_producer_begin(); }
void sim_hash_emit(uint i, vec3 x) {
    uint key = sim_cell_key(sim_cell_of(x));
    h_keys[i] = key;
    h_vals[i] = i;
    sort_producer_add(key, SIM_KEY_BITS);
}
void sim_hash_end() { sort_producer_end(); }
#else
void sim_hash_begin() {}
void sim_hash_emit(uint i, vec3 x) {}
void sim_hash_end() {}
#endif
#endif
