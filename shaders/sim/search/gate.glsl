// The search's gate (search.h, sim_search_run): u_gate is 0, or 1 + the index of a word in Gate
// that, where it is not 0, says the particles are where the last search left them, in its order
// (a DFSPH step slot after an empty slot). The sort then skipped its work, so the reorder copies
// each particle to its own place (the particle buffers swap all the same) and leaves the cell table
// and the cell keys as they are: what a search of keys already in order would have made.
// Twins: SEARCH_LOC_GATE in src/sim/search.c, SIM_B_GATE (B_GATE) in src/sim/sim_params.h.
layout(std430, binding = B_GATE) readonly buffer Gate { uint gate_words[]; };
layout(location = 0) uniform uint u_gate;

// True where the gate is shut (every invocation alike).
bool sim_search_gate_shut() { return u_gate != 0u && gate_words[u_gate - 1u] != 0u; }
