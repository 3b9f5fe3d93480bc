// The particle buffers the render shaders read, and a particle's colour in a colour mode. Used by
// the raster impostors (spheres.vert) and the compute splat (splat.comp, splat_resolve.comp), so
// both paths colour a particle alike. Needs render/render_common.glsl and render/colormap.glsl.
#ifndef FLUID_PARTICLES_GLSL
#define FLUID_PARTICLES_GLSL

layout(std430, binding = RENDER_BIND_POSITIONS) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = RENDER_BIND_VELOCITIES) readonly buffer Velocities { vec4 velocities[]; };
layout(std430, binding = RENDER_BIND_DENSITIES) readonly buffer Densities { float densities[]; };
layout(std430, binding = RENDER_BIND_CELL_KEYS) readonly buffer CellKeys { uint cell_keys[]; };

// mode: RENDER_COLOR_*, or anything else for white; range: the values mapped to 0 and 1 (the cell
// colour: 0 and the number of cells, by the sorted order; the old hashed hues where range.y <= 1,
// the cell count unknown).
vec3 particle_color(uint id, int mode, vec2 range) {
    if (mode == RENDER_COLOR_SPEED) return colormap_speed((length(velocities[id].xyz) - range.x) / (range.y - range.x));
    if (mode == RENDER_COLOR_DENSITY) return colormap_density((densities[id] - range.x) / (range.y - range.x));
    if (mode == RENDER_COLOR_CELL)
        return range.y > 1.0 ? colormap_cell_order(float(cell_keys[id]) / range.y, cell_keys[id]) : colormap_cell(cell_keys[id]);
    return vec3(1.0);
}
#endif
