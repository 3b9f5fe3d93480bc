// The tank's edges drawn by the compute passes that write a whole picture (splat_resolve.comp,
// surface_shade.comp): up to RENDER_SPLAT_EDGES lines, set by render_splat_set_edges (C), in
// window coordinates, cut at the near plane. Needs render/render_common.glsl.
#ifndef FLUID_SPLAT_EDGES_GLSL
#define FLUID_SPLAT_EDGES_GLSL

layout(location = RENDER_LOC_EDGES) uniform int u_edges;                        // how many of the edges below
layout(location = RENDER_LOC_EDGE_A) uniform vec3 u_edge_a[RENDER_SPLAT_EDGES];  // window x, y (pixels), depth
layout(location = RENDER_LOC_EDGE_B) uniform vec3 u_edge_b[RENDER_SPLAT_EDGES];

// The window depth of the nearest edge through pixel centre q, 1.0 (far) where none.
float edge_depth(vec2 q) {
    float best = 1.0;
    for (int e = 0; e < u_edges; e++) {
        vec3 a = u_edge_a[e], d = u_edge_b[e] - a;
        bool x_major = abs(d.x) >= abs(d.y);
        float t = x_major ? (q.x - a.x) / d.x : (q.y - a.y) / d.y;  // d's major part is never 0 (render_splat.c)
        vec2 on = a.xy + t * d.xy;
        float off = x_major ? q.y - on.y : q.x - on.x;
        if (t >= 0.0 && t <= 1.0 && off > -0.5 && off <= 0.5) best = min(best, a.z + t * d.z);
    }
    return best;
}

#endif
