#version 450
// Surface style (render_surface.c), the first pass: each particle's ellipsoid, after Yu & Turk,
// "Reconstructing Surfaces of Particle-Based Fluids Using Anisotropic Kernels" (TOG 2013), a
// thread a particle, in one walk over the simulation's cell table (the cells within h of it: the
// sim's sorted ranges, so no search of its own).
//   - the neighbours j within h weigh w = 1 - (r / h)^3; their weighted mean m and covariance
//     C = sum w (x_j - m)(x_j - m)^T / sum w;
//   - C's eigenvalues s1 >= s2 >= s3 and axes by a closed-form symmetric solver (eigen_sym3);
//   - each s_k raised to at least s1 / RENDER_ANISO_KR (k_r), and the axes made proportional to
//     them with the volume of the sphere kept (s1 s2 s3 = 1) and none past RENDER_ANISO_MAX_AXIS;
//   - a particle with fewer than RENDER_ANISO_MIN_NEIGHBOURS neighbours stays a sphere where it is
//     (a lone droplet stays round); the others move RENDER_ANISO_LAMBDA of the way to m (their
//     Laplacian smoothing, which flattens a lattice's bumps).
// Writes 4 vec4 per particle: the centre and the longest axis (in sphere radii), then the rows of
// the symmetric S that takes an offset from the centre, in radii, into the unit sphere.
#include "render/render_common.glsl"
#include "grid.glsl"

layout(local_size_x = 64) in;

layout(std430, binding = RENDER_BIND_POSITIONS) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = RENDER_BIND_RANGES) readonly buffer Ranges { uint ranges[]; };
layout(std430, binding = RENDER_BIND_ELLIPSOIDS) writeonly buffer Ellipsoids { vec4 ellipsoids[]; };

layout(location = RENDER_LOC_COUNT) uniform uint u_count;
layout(location = RENDER_LOC_GRID_LO) uniform vec3 u_lo;
layout(location = RENDER_LOC_INV_CELL) uniform float u_inv_cell;
layout(location = RENDER_LOC_GRID_DIMS) uniform ivec3 u_dims;
layout(location = RENDER_LOC_GRID_BRICK) uniform uvec4 u_brick; // the cell order (grid.glsl)
layout(location = RENDER_LOC_H) uniform float u_h;

// The eigenvalues of symmetric A (descending, in lam) and its unit eigenvectors (V's columns), in
// closed form: the eigenvalues by the trigonometric solution of the characteristic cubic; the
// eigenvector of the one farther from the middle one as the longest cross product of two rows of
// A - lam I (well defined: that eigenvalue is distinct); the other two by the 2x2 problem in the
// plane across it (any basis there where the two are equal).
void eigen_sym3(mat3 A, out vec3 lam, out mat3 V) {
    float p1 = A[0][1] * A[0][1] + A[0][2] * A[0][2] + A[1][2] * A[1][2];
    float q = (A[0][0] + A[1][1] + A[2][2]) / 3.0;
    float p2 = (A[0][0] - q) * (A[0][0] - q) + (A[1][1] - q) * (A[1][1] - q) + (A[2][2] - q) * (A[2][2] - q) + 2.0 * p1;
    float p = sqrt(p2 / 6.0);
    if (p <= 1e-7 * abs(q) + 1e-30) {
        lam = vec3(q);
        V = mat3(1.0);
        return;
    }
    mat3 B = (A - q * mat3(1.0)) / p;
    float phi = acos(clamp(determinant(B) * 0.5, -1.0, 1.0)) / 3.0;
    float l1 = q + 2.0 * p * cos(phi), l3 = q + 2.0 * p * cos(phi + 2.0943951), l2 = 3.0 * q - l1 - l3;
    bool top = l1 - l2 >= l2 - l3;  // the distinct one: l1, else l3
    float ld = top ? l1 : l3;
    mat3 M = A - ld * mat3(1.0);
    vec3 c0 = cross(M[0], M[1]), c1 = cross(M[0], M[2]), c2 = cross(M[1], M[2]);
    float d0 = dot(c0, c0), d1 = dot(c1, c1), d2 = dot(c2, c2);
    vec3 v = d0 >= d1 && d0 >= d2 ? c0 : (d1 >= d2 ? c1 : c2);
    v = normalize(v);
    vec3 u = normalize(abs(v.x) < 0.9 ? cross(v, vec3(1.0, 0.0, 0.0)) : cross(v, vec3(0.0, 1.0, 0.0)));
    vec3 w = cross(v, u);
    float a = dot(u, A * u), b = dot(u, A * w), c = dot(w, A * w);
    float th = 0.5 * atan(2.0 * b, a - c);  // a - c = b = 0 gives 0: any basis
    vec3 e1 = cos(th) * u + sin(th) * w, e2 = -sin(th) * u + cos(th) * w;
    float m1 = dot(e1, A * e1), m2 = dot(e2, A * e2);
    if (m2 > m1) {
        vec3 t = e1;
        e1 = e2, e2 = t;
        float s = m1;
        m1 = m2, m2 = s;
    }
    if (top) {
        lam = vec3(ld, m1, m2);
        V = mat3(v, e1, e2);
    } else {
        lam = vec3(m1, m2, ld);
        V = mat3(e1, e2, v);
    }
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= u_count) return;
    vec3 xi = positions[i].xyz;
    vec3 u = (xi - u_lo) * u_inv_cell;
    ivec3 c = clamp(ivec3(floor(u)), ivec3(0), u_dims - 1);
    int reach = int(ceil(u_h * u_inv_cell - 1e-3));
    // One walk: the weighted sums of the offsets d = x_j - x_i and of their outer products, so the
    // mean is x_i + sum w d / sum w and the covariance sum w d d^T / sum w - (its mean offset)^2
    // (offsets from x_i, a few h at most, keep the difference well conditioned in float).
    float wsum = 0.0;
    vec3 wd = vec3(0.0);
    mat3 wdd = mat3(0.0);
    int n = 0;
    for (int z = max(c.z - reach, 0); z <= min(c.z + reach, u_dims.z - 1); z++)
        for (int y = max(c.y - reach, 0); y <= min(c.y + reach, u_dims.y - 1); y++) {
            int x1 = min(c.x + reach, u_dims.x - 1);
            for (int xs = max(c.x - reach, 0), xe = grid_run_end(xs, x1, u_brick.xyz); xs <= x1; xs = xe + 1, xe = grid_run_end(xs, x1, u_brick.xyz))
            for (uint j = ranges[grid_cell_key(ivec3(xs, y, z), uvec3(u_dims), u_brick.xyz)],
                      j1 = ranges[grid_cell_key(ivec3(xe, y, z), uvec3(u_dims), u_brick.xyz) + 1u]; j < j1; j++) {
                vec3 d = positions[j].xyz - xi;
                float r2 = dot(d, d);
                if (r2 >= u_h * u_h) continue;
                float s = sqrt(r2) / u_h, w = 1.0 - s * s * s;
                wsum += w, wd += w * d, wdd += w * outerProduct(d, d);
                n += int(j != i);
            }
        }
    vec3 md = wd / wsum, m = xi + md;  // wsum > 0: x_i itself weighs 1
    mat3 C = wdd / wsum - outerProduct(md, md);
    vec4 centre = vec4(xi, 1.0);
    mat3 S = mat3(1.0);
    if (n >= RENDER_ANISO_MIN_NEIGHBOURS) {
        centre.xyz = mix(xi, m, float(RENDER_ANISO_LAMBDA));
        vec3 lam;
        mat3 V;
        eigen_sym3(C, lam, V);
        if (lam.x > 0.0) {
            vec3 s = max(lam, vec3(lam.x / float(RENDER_ANISO_KR)));
            s /= pow(s.x * s.y * s.z, 1.0 / 3.0);  // the sphere's volume
            s = min(s, vec3(float(RENDER_ANISO_MAX_AXIS)));
            centre.w = s.x;
            S = V * mat3(1.0 / s.x, 0.0, 0.0, 0.0, 1.0 / s.y, 0.0, 0.0, 0.0, 1.0 / s.z) * transpose(V);
        }
    }
    ellipsoids[4u * i] = centre;
    for (int k = 0; k < 3; k++) ellipsoids[4u * i + 1u + uint(k)] = vec4(S[k], 0.0);
}
