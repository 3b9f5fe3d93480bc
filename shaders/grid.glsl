// The simulation grid's cell keys, shared by the sim's shaders (sim_common.glsl) and the renderer's
// walk (render/aniso.comp). A cell's key is its place in the sorted order. The grid is cut into
// bricks of 2^brick.x by 2^brick.y by 2^brick.z cells, the bricks in x, y, z order and the cells
// in x, y, z order inside each; bricks of one cell (brick.xyz 0) are the rows x + dims.x (y +
// dims.y z). The walks take a row's cells x0 .. x1 as runs x0 .. grid_run_end(x0, x1, brick) of
// consecutive keys: with rows the whole row, with bricks a cell a run (as the walks measured
// fastest, docs/BENCHMARKS.md s31).
// Twin: sim_cell_key() in src/sim/sim.c.
#ifndef FLUID_GRID_GLSL
#define FLUID_GRID_GLSL
uint grid_cell_key(ivec3 c, uvec3 dims, uvec3 brick) {
    uvec3 u = uvec3(c), b = u >> brick, m = u - (b << brick);
    uint nbx = (dims.x + (1u << brick.x) - 1u) >> brick.x, nby = (dims.y + (1u << brick.y) - 1u) >> brick.y;
    return (((b.z * nby + b.y) * nbx + b.x) << (brick.x + brick.y + brick.z)) | (((m.z << brick.y) | m.y) << brick.x) | m.x;
}
int grid_run_end(int x0, int x1, uvec3 brick) { return (brick.x | brick.y | brick.z) == 0u ? x1 : x0; }
#endif
