// The particle colour maps, used by the sphere shader and by the HUD's colour bar (so the legend
// can never disagree with the particles). Needs render/render_common.glsl.
#ifndef FLUID_COLORMAP_GLSL
#define FLUID_COLORMAP_GLSL

// Speed: deep water blue -> light blue -> white foam.
vec3 colormap_speed(float t) {
    t = clamp(t, 0.0, 1.0);
    vec3 a = vec3(0.05, 0.18, 0.55), b = vec3(0.15, 0.55, 0.95), c = vec3(0.95, 0.98, 1.0);
    return t < 0.5 ? mix(a, b, t * 2.0) : mix(b, c, t * 2.0 - 1.0);
}

// Density: a blue - white - red diverging map; 0.5 is the middle of the range.
vec3 colormap_density(float t) {
    t = clamp(t, 0.0, 1.0);
    vec3 lo = vec3(0.23, 0.30, 0.75), mid = vec3(0.87, 0.87, 0.87), hi = vec3(0.71, 0.02, 0.15);
    return t < 0.5 ? mix(lo, mid, t * 2.0) : mix(mid, hi, t * 2.0 - 1.0);
}

vec3 colormap_hsv(float h, float s, float v) {
    vec3 k = clamp(abs(fract(h + vec3(0.0, 2.0 / 3.0, 1.0 / 3.0)) * 6.0 - 3.0) - 1.0, 0.0, 1.0);
    return v * mix(vec3(1.0), k, s);
}

// Cell: the cell index hashed to a hue, so neighbouring cells differ and the sorted grid shows.
vec3 colormap_cell(uint cell) {
    uint h = cell * 0x9E3779B1u;
    h ^= h >> 15; h *= 0x85EBCA77u; h ^= h >> 13;
    float hue = float(h & 0xFFFFu) / 65536.0;
    float val = 0.70 + 0.30 * float((h >> 16) & 0xFFu) / 255.0;
    return colormap_hsv(hue, 0.70, val);
}

// Cell, in the sorted order: the cell's place among `cells` keys (the sort's order: x fastest, then
// y, then z) as a hue from red through to magenta, so neighbouring cells and neighbouring places in
// the sorted order get neighbouring hues and the sorted runs show as a sweep of colour; every other
// key a little darker, so single cells stay visible inside the sweep.
vec3 colormap_cell_order(float t, uint cell) {
    return colormap_hsv(0.82 * clamp(t, 0.0, 1.0), 0.75, (cell & 1u) != 0u ? 0.84 : 1.0);
}

vec3 colormap(int mode, float t) {
    if (mode == RENDER_COLOR_SPEED) return colormap_speed(t);
    if (mode == RENDER_COLOR_DENSITY) return colormap_density(t);
    return colormap_cell_order(t, 0u);
}

#endif
