// The blocks of a pass that writes each particle's own k (DFSPH_K: pos.w with index lists, the
// kappa array with records) while its walks read the positions: pos write-only (only its w) and a
// read-only alias, pos_r, for the walks (the driver's non-coherent cache), which read no w of it.
// density.comp and nonpressure.comp include it after dfsph_common.glsl.
#ifndef FLUID_DFSPH_K_OUT_GLSL
#define FLUID_DFSPH_K_OUT_GLSL
layout(std430, binding = B_POS_IN) writeonly buffer Pos { vec4 pos[]; };
layout(std430, binding = B_POS_IN) readonly buffer PosR { vec4 pos_r[]; };
#if DFSPH_REC
layout(std430, binding = B_KAPPA) writeonly buffer Kappa { float kappa[]; };
#endif
#endif
