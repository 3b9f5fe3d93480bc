#version 450
// The fluid's surface from its smoothed view depth: normals from depth differences (the smaller
// of the two one-sided differences, so edges do not smear), Fresnel reflection of a sky, colour
// absorbed by thickness (Beer-Lambert) over the background, and a specular highlight.
layout(binding = 0) uniform sampler2D u_depth;      // smoothed view distance, 0 = none
layout(binding = 1) uniform sampler2D u_thickness;  // metres of fluid along the ray
layout(location = 0) uniform mat4 u_proj;
layout(location = 1) uniform vec3 u_background;

in vec2 v_uv;
layout(location = 0) out vec4 o_color;

vec3 view_pos(ivec2 px, float z) {
    vec2 ndc = (vec2(px) + 0.5) / vec2(textureSize(u_depth, 0)) * 2.0 - 1.0;
    return vec3(ndc.x * z / u_proj[0][0], ndc.y * z / u_proj[1][1], -z);
}

void main() {
    ivec2 px = ivec2(gl_FragCoord.xy);
    float z = texelFetch(u_depth, px, 0).r;
    if (z <= 0.0) discard;
    vec3 p = view_pos(px, z);
    ivec2 size = textureSize(u_depth, 0);
    vec3 d[4];
    ivec2 off[4] = ivec2[](ivec2(1, 0), ivec2(-1, 0), ivec2(0, 1), ivec2(0, -1));
    for (int i = 0; i < 4; i++) {
        ivec2 q = clamp(px + off[i], ivec2(0), size - 1);
        float zq = texelFetch(u_depth, q, 0).r;
        d[i] = zq > 0.0 ? view_pos(q, zq) - p : vec3(0.0);
    }
    vec3 ddx = (d[1] == vec3(0.0) || (d[0] != vec3(0.0) && abs(d[0].z) < abs(d[1].z))) ? d[0] : -d[1];
    vec3 ddy = (d[3] == vec3(0.0) || (d[2] != vec3(0.0) && abs(d[2].z) < abs(d[3].z))) ? d[2] : -d[3];
    vec3 n = normalize(cross(ddx, ddy));
    if (dot(n, -p) < 0.0) n = -n;
    if (any(isnan(n))) n = vec3(0.0, 0.0, 1.0);

    vec3 view_dir = normalize(-p);
    float thickness = texelFetch(u_thickness, px, 0).r;
    const vec3 absorb = vec3(18.0, 6.0, 2.5);            // per metre: red goes first
    vec3 transmit = exp(-absorb * thickness);
    vec3 water = vec3(0.10, 0.42, 0.78);
    vec3 body = mix(water, u_background, transmit);
    const vec3 light = normalize(vec3(0.35, 0.8, 0.5));
    body *= 0.65 + 0.55 * max(dot(n, light), 0.0);
    vec3 r = reflect(-view_dir, n);
    vec3 sky = mix(vec3(0.25, 0.30, 0.38), vec3(0.75, 0.85, 0.95), clamp(r.y * 0.5 + 0.5, 0.0, 1.0));
    float fresnel = 0.02 + 0.98 * pow(1.0 - max(dot(n, view_dir), 0.0), 5.0);
    float spec = pow(max(dot(n, normalize(light + view_dir)), 0.0), 96.0);
    o_color = vec4(mix(body, sky, fresnel) + vec3(0.8 * spec), 1.0);
    vec4 clip = u_proj * vec4(p, 1.0);
    gl_FragDepth = clip.z / clip.w * 0.5 + 0.5;
}
