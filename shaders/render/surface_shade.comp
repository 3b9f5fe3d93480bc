#version 450
// Surface style (render_surface.c), the last pass, a thread a pixel, writing every pixel of the
// colour image. Where there is fluid: the normal from the smoothed view distance (the smaller of
// the two one-sided differences, so silhouettes do not smear); the scene behind seen through the
// water, refracted (IOR 1.33): the refracted ray runs through the fluid's thickness and meets the
// floor if it gets there first (shallow water shows the tiles, displaced where the surface curves),
// else leaves the fluid and goes on as it came in, so thick water shifts what is behind it; that
// light absorbed per channel by the thickness (Beer-Lambert); the environment reflected by Fresnel
// (Schlick); the sun's highlight; where the water is thinner than one drawn sphere (a lone droplet,
// a sheet's rim), a small clear drop shaped by its chord, bright at its rim. Spray droplets are drawn over it as small soft translucent white
// discs (most opaque at the centre, never darker than what is behind), and
// as foam, fading white, where they sit just under the surface; the diffuse particles' soft
// points (diffuse.comp) over all, as 1 - exp(-their summed weight) of white. The
// scene (scene.glsl) everywhere else; the tank's edges where they are nearer (or just behind the
// surface); the near glass wall's reflection over all. It clears its per-pixel buffers for the
// next frame.
#include "render/render_common.glsl"
#include "render/sphere_hit.glsl"
#include "render/splat_edges.glsl"
#include "render/scene.glsl"

layout(local_size_x = 16, local_size_y = 16) in;

layout(std430, binding = RENDER_BIND_POSITIONS) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = RENDER_BIND_SPLAT_DEPTH) writeonly buffer Depth { uint depth_bits[]; };
layout(std430, binding = RENDER_BIND_SPLAT_THICK) buffer Thickness { uint thickness[]; };
layout(std430, binding = RENDER_BIND_SURFACE_SRC) readonly buffer Smoothed { float smoothed[]; };
layout(std430, binding = RENDER_BIND_SPRAY_DEPTH) buffer SprayDepth { uint spray_bits[]; };
layout(std430, binding = RENDER_BIND_SPRAY_IDS) buffer SprayIds { uint spray_ids[]; };
layout(std430, binding = RENDER_BIND_DIFFUSE_SUM) buffer DiffuseSum { uint diffuse_sum[]; };
layout(location = RENDER_LOC_IMAGE, binding = RENDER_UNIT_IMAGE, rgba8) uniform writeonly image2D u_color;

layout(location = RENDER_LOC_VIEW) uniform mat4 u_view;
layout(location = RENDER_LOC_SIZE) uniform ivec2 u_size;
layout(location = RENDER_LOC_PROJ) uniform mat4 u_proj;
layout(location = RENDER_LOC_INV_PROJ) uniform mat4 u_inv_proj;
layout(location = RENDER_LOC_EDGE_BIAS) uniform float u_edge_bias; // metres: an edge this far behind the surface still shows
layout(location = RENDER_LOC_SPRAY_RADIUS) uniform float u_spray_radius;
layout(location = RENDER_LOC_SHOW) uniform int u_show;             // bit 0: water, bit 1: spray

vec3 view_pos(ivec2 px, float z) {
    vec2 ndc = (vec2(px) + 0.5) / vec2(u_size) * 2.0 - 1.0;
    return vec3(ndc.x * z / u_proj[0][0], ndc.y * z / u_proj[1][1], -z);
}

float distance_at(ivec2 q) { return smoothed[uint(q.y * u_size.x + q.x)]; }

// The view-space normal of the smoothed surface at px (view point p).
vec3 surface_normal(ivec2 px, vec3 p) {
    vec3 d[4];
    ivec2 off[4] = ivec2[](ivec2(1, 0), ivec2(-1, 0), ivec2(0, 1), ivec2(0, -1));
    for (int i = 0; i < 4; i++) {
        ivec2 q = clamp(px + off[i], ivec2(0), u_size - 1);
        float zq = distance_at(q);
        d[i] = zq > 0.0 ? view_pos(q, zq) - p : vec3(0.0);
    }
    vec3 ddx = (d[1] == vec3(0.0) || (d[0] != vec3(0.0) && abs(d[0].z) < abs(d[1].z))) ? d[0] : -d[1];
    vec3 ddy = (d[3] == vec3(0.0) || (d[2] != vec3(0.0) && abs(d[2].z) < abs(d[3].z))) ? d[2] : -d[3];
    vec3 n = normalize(cross(ddx, ddy));
    if (dot(n, -p) < 0.0) n = -n;
    if (any(isnan(n)) || ddx == vec3(0.0) || ddy == vec3(0.0)) n = normalize(-p);
    return n;
}

void main() {
    ivec2 px = ivec2(gl_GlobalInvocationID.xy);
    if (px.x >= u_size.x || px.y >= u_size.y) return;
    uint at = uint(px.y * u_size.x + px.x);
    float thick = float(thickness[at]) * RENDER_SPLAT_THICK_UNIT, z = distance_at(px);
    uint sid = spray_ids[at];
    float diffuse = float(diffuse_sum[at]) / float(RENDER_DIFFUSE_UNIT);
    diffuse_sum[at] = 0u;
    thickness[at] = 0u;
    depth_bits[at] = RENDER_SPLAT_FAR;
    spray_bits[at] = RENDER_SPLAT_FAR;
    spray_ids[at] = RENDER_SPLAT_NONE;

    vec3 o, d, d_view;
    scene_ray(u_inv_proj, px, u_size, o, d, d_view);
    float px_angle = 2.0 / (u_proj[1][1] * float(u_size.y));
    float ze = edge_depth(vec2(px) + 0.5);
    vec3 col = vec3(RENDER_TANK_R, RENDER_TANK_G, RENDER_TANK_B);
    // The surface stands out of the tank by the enlarged spheres' radius: the walls' edges would
    // fight it where the fluid touches them, so an edge just behind the surface still shows.
    float edge_distance = ze < 1.0 ? u_proj[3][2] / (ze * 2.0 - 1.0 + u_proj[2][2]) : 1e30;
    float t_hit = 1e30;  // ray distance to what this pixel shows
    bool water = (u_show & 1) != 0 && z > 0.0 && z + u_edge_bias < edge_distance;
    if (!water && ze >= 1.0) col = scene_behind(o, d, 0.0, px_angle);  // the water traces its own
    if (water) {
        vec3 p = view_pos(px, z);
        vec3 n_view = surface_normal(px, p);
        vec3 n = normalize(mat3(u_inv_view) * n_view), pw = (u_inv_view * vec4(p, 1.0)).xyz;
        float cos_i = clamp(dot(-d, n), 0.0, 1.0);
        // Through the water: refracted, absorbed by the thickness, a little light scattered back.
        vec3 r = refract(d, n, 1.0 / k_ior);
        if (r == vec3(0.0)) r = d;
        // Where the refracted ray meets the floor within the fluid's thickness (the chord sum,
        // which counts overlapping spheres more than once, so up to twice it), the floor; where
        // it would run far past the thickness, it has left the fluid; between, a blend, so the
        // thickness's noise does not cut the picture into bands.
        vec3 behind = scene_behind(pw + r * thick, d, 0.0, px_angle);
        float fy = scene_floor_y();
        if (u_backdrop != RENDER_BACKDROP_PLAIN && r.y < 0.0) {
            float tf = (fy - pw.y) / r.y;
            float w = 1.0 - smoothstep(1.2, 2.4, tf / max(thick, 1e-4));
            if (w > 0.0) behind = mix(behind, scene_floor(pw + tf * r, length(pw - o) + tf, r.y, px_angle), w);
        }
        vec3 transmit = exp(-k_absorb * thick);
        vec3 scatter = vec3(0.03, 0.16, 0.22) * (0.45 + 0.55 * max(u_sun.y, 0.0));
        vec3 through = behind * transmit + scatter * (1.0 - transmit);
        // Off the surface: the environment, and the sun's highlight.
        vec3 rr = reflect(d, n);
        vec3 mirrored = rr.y >= 0.0 || u_backdrop == RENDER_BACKDROP_PLAIN ? scene_sky(rr) : scene_behind(pw, rr, 1e-4, px_angle);
        float fresnel = scene_fresnel(cos_i, 0.02);
        float spec = pow(max(dot(rr, u_sun), 0.0), 1500.0) * 6.0 + pow(max(dot(rr, u_sun), 0.0), 90.0) * 0.25;
        // A lone droplet, or a drip (a line of them): thinner than 1.5 drawn spheres across
        // (fading out at 3), with no water three drawn radii away, or only water well behind it,
        // in at least 6 of 8 directions (a sheet, its rim, the bulk, water before it have more).
        // Its smoothed depth is nearly flat, so its shape comes from its chord (a sphere of radius
        // R is 2 R cos(theta) thick where its normal is theta off the view ray) and the side the
        // smoothed normal leans to. Drawn as a small water drop, not a tinted disc: clear (a drop
        // this small hardly tints), the sun and sky's light on it and off it (Fresnel), a soft
        // glint, fading into what is behind it at its edge.
        float across = thick / (2.0 * u_edge_bias);
        float drop = 1.0 - smoothstep(1.5, 3.0, across);
        if (drop > 0.0) {
            float r_px = 3.0 * u_edge_bias * u_proj[1][1] * float(u_size.y) * 0.5 / z, alone = 0.0;
            int near = 0;
            for (int k = 0; k < 8 && near < 3; k++) { // 3 with water near: not alone (5/8 < 0.63 below), stop
                float a = float(k) * 0.78539816;
                ivec2 q = px + ivec2(round(r_px * vec2(cos(a), sin(a))));
                bool inside = all(greaterThanEqual(q, ivec2(0))) && all(lessThan(q, u_size));
                float zq = inside ? distance_at(q) : 0.0;
                bool water = zq > 0.0 && zq < z + 4.0 * u_edge_bias; // none there, or only far behind: alone
                near += water ? 1 : 0;
                alone += water ? 0.0 : 0.125;
            }
            drop *= smoothstep(0.63, 0.75, alone);  // 6 of 8 empty: a drop, or a line of them (a drip)
        }
        col = mix(through, mirrored, fresnel) + k_sun_color * spec * (1.0 - drop); // a drop's glint is its own
        if (drop > 0.0) {
            float facing = clamp(across, 0.0, 1.0);
            vec3 to_eye = normalize(-p), side = n_view - dot(n_view, to_eye) * to_eye;
            side /= max(length(side), 0.25);  // where the smoothed normal hardly leans, the drop faces the eye
            vec3 nv = side * sqrt(1.0 - facing * facing) + to_eye * facing;
            vec3 nd = normalize(mat3(u_inv_view) * (dot(nv, nv) > 1e-6 ? nv : to_eye));
            vec3 rd = reflect(d, nd);
            vec3 sky = rd.y >= 0.0 || u_backdrop == RENDER_BACKDROP_PLAIN ? scene_sky(rd) : scene_behind(pw, rd, 1e-4, px_angle);
            sky = min(sky, vec3(1.0));  // not the sun's disc: on a normal this rough it is an arc, not a point
            float glint = pow(max(dot(rd, u_sun), 0.0), 12.0) * 0.12;  // broad: its normal is rough
            vec3 lit = vec3(0.80, 0.88, 0.92) * (0.55 + 0.45 * max(dot(nd, u_sun), 0.0));  // the sun and sky on it
            vec3 body = mix(behind * mix(vec3(1.0), transmit, 0.35), lit, 0.35);
            vec3 dcol = mix(body, sky, 0.6 * scene_fresnel(facing, 0.02)) + k_sun_color * glint;
            col = mix(col, mix(behind, dcol, smoothstep(0.0, 0.6, facing)), drop);
        }
        t_hit = length(pw - o);
    }
    if ((u_show & 2) != 0 && sid != RENDER_SPLAT_NONE) {
        vec3 center = (u_view * vec4(positions[sid].xyz, 1.0)).xyz, hit, n;
        if (sphere_hit(d_view, center, u_spray_radius, hit, n) && -hit.z < edge_distance) {
            // Soft and translucent, never dark: white lit a little by the sun, most opaque at its
            // centre and fading to nothing at its rim (no marble, no dark disc).
            float facing = max(dot(n, normalize(-hit)), 0.0);
            vec3 white = vec3(0.86, 0.90, 0.93) * (0.82 + 0.18 * max(dot(n, u_sun_view), 0.0));
            float alpha = 0.8 * smoothstep(0.0, 0.7, facing);
            float behind = length(hit) - t_hit;  // how far behind the water's surface the droplet is
            if (behind < 0.0) {
                col = mix(col, max(col, white), alpha);  // spray, in the air before the surface
                t_hit = length(hit);
            } else if (behind < 4.0 * u_spray_radius) {
                col = mix(col, max(col, white), 0.55 * (1.0 - behind / (4.0 * u_spray_radius)));  // foam, just under it
            }
        }
    }
    // The diffuse particles (diffuse.comp's sum): soft white, lit by the sky and the sun, over all;
    // never darker than what is behind (over the sun's highlight they add nothing).
    if (diffuse > 0.0) {
        vec3 white = vec3(0.90, 0.93, 0.95) * (0.78 + 0.22 * max(u_sun.y, 0.0));
        col = mix(col, max(col, white), 1.0 - exp(-diffuse));
    }
    if (ze >= 1.0) col += scene_front_glass(o, d, t_hit);
    imageStore(u_color, px, vec4(col, 1.0));
}
