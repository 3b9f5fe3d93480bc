// The caller's gate (src/sort/sort.h, "Gate"), in every sort kernel: u_gate is 0, or 1 + the index
// of a word in SortGate; where that word is not 0 the run skips its work. Each kernel returns at
// once, but for what the next run needs done (the onesweep scatter's housekeeping, the counting
// scatter's cleared counts).
#ifndef FLUID_SORT_GATE_GLSL
#define FLUID_SORT_GATE_GLSL
layout(std430, binding = SORT_BIND_GATE) readonly buffer SortGate { uint sort_gate_words[]; };
layout(location = SORT_LOC_GATE) uniform uint u_gate;

// True where the gate is shut (every invocation of the dispatch alike).
bool sort_gate_shut() { return u_gate != 0u && sort_gate_words[u_gate - 1u] != 0u; }
#endif
