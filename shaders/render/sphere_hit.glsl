// Ray from the eye (view-space origin) through a point on an impostor quad, against the sphere.
// Returns false on a miss; else the view-space hit point and normal.
#ifndef FLUID_SPHERE_HIT_GLSL
#define FLUID_SPHERE_HIT_GLSL
bool sphere_hit(vec3 quad_pos, vec3 center, float radius, out vec3 hit, out vec3 normal) {
    vec3 dir = normalize(quad_pos);
    float b = dot(dir, center);
    float disc = b * b - (dot(center, center) - radius * radius);
    if (disc < 0.0) return false;
    float t = b - sqrt(disc);
    hit = dir * t;
    normal = (hit - center) / radius;
    return true;
}

// Window depth of a view-space point (default depth range 0..1).
float sphere_depth(mat4 proj, vec3 p) {
    vec4 clip = proj * vec4(p, 1.0);
    return clip.z / clip.w * 0.5 + 0.5;
}
// A lit sphere's colour at a view-space hit point with normal n, lit from view-space direction
// `light` (the sun): diffuse, specular and a darker rim.
vec3 sphere_shade(vec3 hit, vec3 n, vec3 color, vec3 light) {
    vec3 view_dir = normalize(-hit);
    float diffuse = max(dot(n, light), 0.0);
    float spec = pow(max(dot(n, normalize(light + view_dir)), 0.0), 48.0);
    float rim = 1.0 - 0.35 * pow(1.0 - max(dot(n, view_dir), 0.0), 3.0);
    return color * (0.28 + 0.72 * diffuse) * rim + vec3(0.35 * spec);
}
#endif
