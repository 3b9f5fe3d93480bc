// The pressure solve's coarse level (DFSPH_COARSE 1; docs/SPH.md, "The coarse level"): after each
// of the first DFSPH_COARSE_LEVELS predicts (3 up to 65,536 particles, else 1), a correction of the pool's depth-long mode, the one
// the Jacobi-like iterations damp slowest (their count grew with the square of the depth). The
// grid's layers (each a cell high, the tank wide) are the coarse unknowns:
//   1. dfsph_coarse_sums: each row of cells' (a layer y, a z) signed predicted compression,
//      sum (rho*_i - rho0) V_i over its particles (V = m / rho0), and its highest particle (a work
//      group a row, in a fixed order); each grid column's surface, its highest particle (a thread a
//      column). The last group to finish (an atomic count) then solves the column:
//   2. dfsph_coarse_column: the tank as one column, k'' = -E(y) / (dt^2 rho0^2) (E: the compression
//      a unit of height, the layers' sums over the tank's floor), k = 0 at the highest particle and
//      k' = 0 at the floor (and at a layer with no particle: water above a gap stands on nothing):
//      K(y) at each layer's floor.
//   3. dfsph_coarse_apply: each particle's value k_i (the predict's, signed) becomes
//      max(k_i, 0) + K(y_i) - K(its column's surface + a cell), K interpolated in a layer, and at
//      least minus the total it carries, so the total stays >= 0. From its own column's surface, so
//      where the surface is not flat (a wave, the dam break's column) each column's water is its own
//      depth; a cell above it, so a flat pool's surface noise is not fed back (K is 0 there).
// Signed, so a layer the warm start over-pressed is expanded and the level takes pressure back; the
// fine iterations after it correct compression only, as before. (Summing only the compression, as
// the iterations do, biased every layer's sum upward by its noise, and the still pool gained
// energy; columns narrower than the tank, blocks of 4 x 4 grid columns each solved alone, made the
// settled pool restless: docs/SPH.md.) The predict before it stores the signed value (solve_fns.glsl);
// the fine iteration between two corrections applies the corrected values.
// It runs where DFSPH_COARSE_RUNS (dfsph_common.glsl): the grid's layers, rows and columns fit
// DFSPH_COARSE_MAXY, _MAXR and _MAXC, and the flow is slow: the step's CFL limit (from the speeds) is at
// least min(dt_max, dt_visc). Every group decides alike.
// Needs pos, vel (the totals in w), the values k (DFSPH_K), wallg, ranges, C (its partials from DFSPH_COARSE_AT), P, s_red; call each from
// uniform control flow. Included by solve.comp, step.comp and coarse.comp.
#ifndef FLUID_SIM_DFSPH_COARSE_GLSL
#define FLUID_SIM_DFSPH_COARSE_GLSL
// C.partial from DFSPH_COARSE_AT: each row's sum and highest particle (row y Z + z), each grid
// column's surface (x + X z), then K at each layer's floor, the highest layer and particle.
#define DFSPH_COARSE_ROW_SUM(r) C.partial[DFSPH_COARSE_AT + (r)]
#define DFSPH_COARSE_ROW_TOP(r) C.partial[DFSPH_COARSE_AT + uint(DFSPH_COARSE_MAXR) + (r)]
#define DFSPH_COARSE_SURFACE(c) C.partial[DFSPH_COARSE_AT + 2u * uint(DFSPH_COARSE_MAXR) + (c)]
#define DFSPH_COARSE_K(y) C.partial[DFSPH_COARSE_AT + 2u * uint(DFSPH_COARSE_MAXR) + uint(DFSPH_COARSE_MAXC) + (y)]
#define DFSPH_COARSE_TOP_LAYER DFSPH_COARSE_K(uint(DFSPH_COARSE_MAXY))
#define DFSPH_COARSE_TOP_Y DFSPH_COARSE_K(uint(DFSPH_COARSE_MAXY) + 1u)
shared float s_col[DFSPH_COARSE_MAXY];     // the layers' sums, then K
shared float s_col_top[DFSPH_COARSE_MAXY]; // the layers' highest particles

// Row r (layer r / Z, z = r % Z): its cells are one run of the sorted order (in a brick order, a
// run a cell: sim_run_end).
void dfsph_coarse_row(uint r) {
    uint lid = gl_LocalInvocationID.x, y = r / P.dims.z, z = r % P.dims.z;
    float acc = 0.0, top = -3.0e38, dt2 = C.dt * C.dt;
    barrier(); // s_red: every thread has read what the group reduced last (the solve's error, a row before)
    for (int x1 = int(P.dims.x) - 1, xs = 0, xe = sim_run_end(xs, x1); xs <= x1; xs = xe + 1, xe = sim_run_end(xs, x1)) {
        uint a = ranges[sim_cell_key(ivec3(xs, y, z))], b = ranges[sim_cell_key(ivec3(xe, y, z)) + 1u];
        for (uint i = a + lid; i < b; i += uint(SIM_WG)) {
            float f = wallg[i].x; // the factor 1 / S_i: k = e f / dt^2
            if (f > 0.0) acc += DFSPH_K(i) * dt2 / f;
            top = max(top, pos[i].y);
        }
    }
    s_red[lid] = acc;
    _dfsph_group_reduce(false);
    float sum = s_red[0];
    barrier();
    s_red[lid] = top;
    _dfsph_group_reduce(true);
    if (lid == 0u) {
        DFSPH_COARSE_ROW_SUM(r) = sum * (P.mass / P.rho0);
        DFSPH_COARSE_ROW_TOP(r) = s_red[0];
    }
}

// Grid column c's surface: the highest particle of its highest cell with any (-3e38: none); a thread
// a column. Every cell's range is read (no early exit), so the loads need not wait on each other.
void dfsph_coarse_surface(uint c) {
    if (c >= P.dims.x * P.dims.z) return;
    uint x = c % P.dims.x, z = c / P.dims.x, cell = 0u;
    int top = -1;
    for (uint y = 0u; y < P.dims.y; y++) {
        uint key = sim_cell_key(ivec3(x, y, z));
        if (ranges[key + 1u] > ranges[key]) top = int(y), cell = key;
    }
    float h = -3.0e38;
    if (top >= 0)
        for (uint i = ranges[cell]; i < ranges[cell + 1u]; i++) h = max(h, pos[i].y);
    DFSPH_COARSE_SURFACE(c) = h;
}

// The last group's work: the layers' sums (each layer's rows in a fixed order), the column solved
// by one thread in shared memory, K out to the partials.
void dfsph_coarse_column() {
    uint lid = gl_LocalInvocationID.x, layers = P.dims.y, rows = P.dims.z;
    for (uint y = lid; y < layers; y += uint(SIM_WG)) {
        float sum = 0.0, top = -3.0e38;
        for (uint z = 0u; z < rows; z++) {
            sum += DFSPH_COARSE_ROW_SUM(y * rows + z);
            top = max(top, DFSPH_COARSE_ROW_TOP(y * rows + z));
        }
        s_col[y] = sum;
        s_col_top[y] = top;
    }
    barrier();
    if (lid == 0u) {
        int top = -1;
        for (int y = int(layers) - 1; y >= 0 && top < 0; y--)
            if (s_col_top[y] > -1.0e38) top = y;
        float area = P.cell * P.cell * float(P.dims.x * P.dims.z), inv = 1.0 / (C.dt * C.dt * P.rho0 * P.rho0);
        float acc = 0.0; // the flux: the sum of E up to each layer's top, per unit of floor, from the floor or
                         // from the last layer with no particle (water above a gap stands on nothing)
        for (int y = 0; y <= top; y++) {
            acc = s_col_top[y] > -1.0e38 ? acc + s_col[y] : 0.0;
            s_col[y] = acc / area;
        }
        float k = 0.0;
        for (int y = top; y >= 0; y--) { // down from the top: K at each layer's floor
            float y0 = P.lo.y + float(y) * P.cell, y1 = y == top ? max(s_col_top[top], y0) : y0 + P.cell;
            float below = y > 0 ? s_col[y - 1] : 0.0;
            k += (y1 - y0) * 0.5 * (s_col[y] + below) * inv;
            s_col[y] = k;
        }
        DFSPH_COARSE_TOP_LAYER = float(top);
        DFSPH_COARSE_TOP_Y = top >= 0 ? s_col_top[top] : 0.0;
    }
    barrier();
    for (uint y = lid; y < layers; y += uint(SIM_WG)) DFSPH_COARSE_K(y) = s_col[y];
}

// The first phase's work, as virtual groups: the rows', then the columns' surfaces.
uint dfsph_coarse_groups() { return DFSPH_COARSE_GROUPS; }
void dfsph_coarse_sums(uint vg) {
    uint rows = P.dims.y * P.dims.z;
    if (vg < rows) dfsph_coarse_row(vg);
    else dfsph_coarse_surface((vg - rows) * uint(SIM_WG) + gl_LocalInvocationID.x);
}
// After a group's share of the first phase: the last group to finish solves the column.
void dfsph_coarse_last() {
    if (dfsph_last_group()) dfsph_coarse_column();
}

// K at height h (0 above the highest particle).
float dfsph_coarse_k(float h, int top, float top_y) {
    int y = clamp(int(floor((h - P.lo.y) * P.inv_cell)), 0, int(P.dims.y) - 1);
    if (y > top) return 0.0;
    float y0 = P.lo.y + float(y) * P.cell, y1 = y == top ? top_y : y0 + P.cell;
    float s = y1 > y0 ? clamp((h - y0) / (y1 - y0), 0.0, 1.0) : 1.0;
    return mix(DFSPH_COARSE_K(uint(y)), y == top ? 0.0 : DFSPH_COARSE_K(uint(y + 1)), s);
}

void dfsph_coarse_apply() {
    uint i = SIM_PARTICLE;
    if (i >= P.n || SIM_LANE != 0u) return;
    vec4 x = pos[i];
    ivec3 cell = sim_cell_of(x.xyz);
    int top = int(DFSPH_COARSE_TOP_LAYER);
    float top_y = DFSPH_COARSE_TOP_Y, surface = DFSPH_COARSE_SURFACE(uint(cell.x) + P.dims.x * uint(cell.z));
    // (K at a cell above the column's surface: 0 where it is within a cell of the highest particle, so
    // a flat pool's surface noise is not fed back)
    float kc = dfsph_coarse_k(x.y, top, top_y) - dfsph_coarse_k(surface + P.cell, top, top_y);
    DFSPH_K(i) = max(max(DFSPH_K(i), 0.0) + kc, -vel[i].w); // vel.w: the total it carries
}
#endif
