// The scene the water sits in, traced per pixel by the passes that write a whole picture
// (splat_resolve.comp, surface_shade.comp): a sky with a sun, a tiled floor at the tank's bottom
// (lit by the sun, shaded by the fluid's shadow where the sun's thickness map is given), and the
// tank as glass, whose walls reflect the sky faintly. Everything is in world space; a pixel's ray
// comes from the inverse projection and view. With u_backdrop RENDER_BACKDROP_PLAIN the scene is the
// flat background colour, as the raster path draws it. Needs render/render_common.glsl.
#ifndef FLUID_SCENE_GLSL
#define FLUID_SCENE_GLSL

layout(location = RENDER_LOC_INV_VIEW) uniform mat4 u_inv_view;
layout(location = RENDER_LOC_TANK_LO) uniform vec3 u_tank_lo;
layout(location = RENDER_LOC_TANK_HI) uniform vec3 u_tank_hi;
layout(location = RENDER_LOC_SUN) uniform vec3 u_sun;           // world, towards the sun
layout(location = RENDER_LOC_SUN_VIEW) uniform vec3 u_sun_view; // the same in view space
layout(location = RENDER_LOC_BACKDROP) uniform int u_backdrop;
layout(location = RENDER_LOC_SHADOW_VP) uniform mat4 u_shadow_vp;
layout(location = RENDER_LOC_SHADOW_ON) uniform int u_shadow_on;
layout(location = RENDER_LOC_SHADOW_THIN) uniform float u_shadow_thin; // metres: a lone droplet's chord
layout(std430, binding = RENDER_BIND_SHADOW) readonly buffer Shadow { uint shadow_thick[]; };

const vec3 k_plain = vec3(RENDER_CLEAR_R, RENDER_CLEAR_G, RENDER_CLEAR_B);
const vec3 k_sun_color = vec3(1.0, 0.95, 0.86);
// Water's absorption per metre, per channel (Beer-Lambert): red goes first, so a deep column is
// blue-green and a thin sheet almost clear.
const vec3 k_absorb = vec3(12.0, 4.0, 2.2);
const float k_ior = 1.33;

vec3 scene_sky(vec3 d) {
    float h = d.y;
    vec3 zenith = vec3(0.18, 0.38, 0.72), horizon = vec3(0.72, 0.82, 0.92), below = vec3(0.42, 0.44, 0.46);
    vec3 c = h >= 0.0 ? mix(horizon, zenith, pow(h, 0.6)) : mix(horizon, below, min(1.0, -h * 4.0));
    float s = max(dot(d, u_sun), 0.0);
    c += k_sun_color * (pow(s, 900.0) * 12.0 + pow(s, 60.0) * 0.25 + pow(s, 6.0) * 0.08);
    return c;
}

// The fluid's transmittance towards the sun at world point p (1: no shadow).
vec3 scene_shadow(vec3 p) {
    if (u_shadow_on == 0) return vec3(1.0);
    vec4 c = u_shadow_vp * vec4(p, 1.0);
    vec2 uv = (c.xy / c.w * 0.5 + 0.5) * float(RENDER_SHADOW_SIZE);
    ivec2 q = ivec2(floor(uv - 0.5));
    vec2 f = uv - 0.5 - vec2(q);
    float t = 0.0;  // bilinear, so the shadow's edge is soft
    for (int k = 0; k < 4; k++) {
        ivec2 o = q + ivec2(k & 1, k >> 1);
        if (any(lessThan(o, ivec2(0))) || any(greaterThanEqual(o, ivec2(RENDER_SHADOW_SIZE)))) continue;
        float w = ((k & 1) != 0 ? f.x : 1.0 - f.x) * ((k >> 1) != 0 ? f.y : 1.0 - f.y);
        t += w * float(shadow_thick[o.y * RENDER_SHADOW_SIZE + o.x]) * RENDER_SPLAT_THICK_UNIT;
    }
    // A lone droplet's chord (u_shadow_thin) casts little shadow, as a clear drop does (it focuses
    // the light it blocks); thicker water casts its full shadow less that chord.
    if (u_shadow_thin > 0.0) t = max(t - u_shadow_thin * (1.0 - exp(-t / u_shadow_thin)), 0.0);
    return exp(-k_absorb * t * 1.6 - vec3(4.0 * t));
}

// A checker of `tile`-sized squares, box-filtered over a footprint of w tiles (no aliasing far off).
float scene_checker(vec2 p, float w) {
    w = max(w, 1e-4);
    vec2 a = abs(fract((p - 0.5 * w) * 0.5) - 0.5), b = abs(fract((p + 0.5 * w) * 0.5) - 0.5);
    vec2 i = 2.0 * (a - b) / w;
    return 0.5 - 0.5 * i.x * i.y;
}

float scene_floor_y() { return u_tank_lo.y; }

// The floor's colour at world point p, seen from distance t along a ray whose y is dy (a pixel's
// footprint there: px_angle * t across, stretched by 1 / |dy| along the ray).
vec3 scene_floor(vec3 p, float t, float dy, float px_angle) {
    float tile = max(u_tank_hi.x - u_tank_lo.x, u_tank_hi.z - u_tank_lo.z) / 6.0;
    float c = scene_checker(p.xz / tile, px_angle * t / (tile * max(abs(dy), 0.08)) * 1.2);
    vec3 albedo = mix(vec3(0.34, 0.33, 0.31), vec3(0.80, 0.77, 0.71), c);
    vec3 light = vec3(0.36, 0.40, 0.46) + k_sun_color * max(u_sun.y, 0.0) * 0.85 * scene_shadow(p);
    vec3 col = albedo * light;
    float size = length(u_tank_hi - u_tank_lo);
    return mix(col, scene_sky(vec3(0.0, 0.0, 1.0)), 1.0 - exp(-t / (14.0 * size)));  // haze far off
}

// Where the ray o + t d crosses the tank's box: entry and exit t (entry > exit: a miss); n: the
// entry face's normal.
vec2 scene_box(vec3 o, vec3 d, out vec3 n_in, out vec3 n_out) {
    vec3 inv = 1.0 / d;
    vec3 t0 = (u_tank_lo - o) * inv, t1 = (u_tank_hi - o) * inv;
    vec3 tn = min(t0, t1), tf = max(t0, t1);
    float a = max(max(tn.x, tn.y), tn.z), b = min(min(tf.x, tf.y), tf.z);
    n_in = -sign(d) * step(tn.yzx, tn) * step(tn.zxy, tn);
    n_out = sign(d) * step(tf, tf.yzx) * step(tf, tf.zxy);
    return vec2(a, b);
}

float scene_fresnel(float cos_i, float f0) { return f0 + (1.0 - f0) * pow(1.0 - clamp(cos_i, 0.0, 1.0), 5.0); }

// The faint reflection of a glass wall with normal n seen along d.
vec3 scene_glass(vec3 d, vec3 n) {
    vec3 r = reflect(d, n);
    return scene_sky(r) * (scene_fresnel(abs(dot(d, n)), 0.04) * 0.22 + 0.012);
}

// What the ray o + t d (t > t_min) sees of the scene without the fluid: floor or sky, through the
// tank's far walls (their reflection added) where it crosses them.
vec3 scene_behind(vec3 o, vec3 d, float t_min, float px_angle) {
    if (u_backdrop == RENDER_BACKDROP_PLAIN) return k_plain;
    vec3 col;
    float tf = d.y < 0.0 ? (scene_floor_y() - o.y) / d.y : -1.0;
    if (tf > t_min) col = scene_floor(o + tf * d, tf, d.y, px_angle);
    else col = scene_sky(d);
    vec3 n_in, n_out;
    vec2 tb = scene_box(o, d, n_in, n_out);
    // The far wall, unless it is the bottom (the floor is there) or the open top.
    if (tb.x < tb.y && tb.y > t_min && abs(n_out.y) < 0.5) col += scene_glass(d, -n_out) * 0.6;
    return col;
}

// The near wall's reflection (a side wall: the top is open) over whatever is at ray distance t_hit (0 where the eye is inside).
vec3 scene_front_glass(vec3 o, vec3 d, float t_hit) {
    if (u_backdrop == RENDER_BACKDROP_PLAIN) return vec3(0.0);
    vec3 n_in, n_out;
    vec2 tb = scene_box(o, d, n_in, n_out);
    if (tb.x < tb.y && tb.x > 0.0 && tb.x < t_hit && abs(n_in.y) < 0.5) return scene_glass(d, n_in);
    return vec3(0.0);
}

// The world-space eye and ray through a pixel centre (view-space ray from u_inv_proj).
void scene_ray(mat4 inv_proj, ivec2 px, ivec2 size, out vec3 o, out vec3 d, out vec3 d_view) {
    vec2 ndc = (vec2(px) + 0.5) / vec2(size) * 2.0 - 1.0;
    vec4 near = inv_proj * vec4(ndc, -1.0, 1.0);
    d_view = normalize(near.xyz / near.w);
    o = u_inv_view[3].xyz;
    d = normalize(mat3(u_inv_view) * d_view);
}

#endif
