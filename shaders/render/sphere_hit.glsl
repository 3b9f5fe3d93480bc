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
#endif
