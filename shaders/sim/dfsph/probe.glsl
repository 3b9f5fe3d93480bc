// The persistent programs' probe mode (dfsph_persistent.c, _dfsph_probe): with u_probe = N > 0 a
// dispatch of step.comp or solve.comp only crosses N grid barriers, on a scratch control block. Its
// registers and shared memory are those of the program's real work, so a grid the GPU cannot keep
// resident stalls here, at prime, and never inside a step (which would leave the fluid
// half-stepped). A program's uniforms start at 0: a step's dispatch never probes.
// Include after grid_barrier.glsl; call first in main (uniform control flow).
layout(location = 2) uniform uint u_probe;
bool dfsph_probe() {
    if (u_probe == 0u) return false;
    for (uint r = 0u; r < u_probe; r++)
        if (!grid_barrier()) break;
    return true;
}
