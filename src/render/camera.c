#include "render/camera.h"
#include <math.h>

void camera_fit(camera *c, const float lo[3], const float hi[3]) {
    vec3 d = {hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2]};
    *c = (camera){.yaw = -0.42f, .pitch = 0.42f, .fov_y = glm_rad(45.0f)};
    for (int i = 0; i < 3; i++) c->target[i] = 0.5f * (lo[i] + hi[i]);
    c->size = glm_vec3_norm(d);
    if (c->size <= 0) c->size = 1;
    /* Far enough that the bounding sphere fits the vertical field of view, with a margin. */
    c->distance = 0.5f * c->size / sinf(0.5f * c->fov_y) * 0.92f;
}

/* The NDC bounds of box lo..hi's corners seen by c at `aspect` (x0, y0, x1, y1); false when a
 * corner is behind the eye. */
static bool _camera_bounds(const camera *c, const float lo[3], const float hi[3], float aspect, float b[4]) {
    mat4 view, proj, vp;
    camera_matrices(c, 1000, (int)(1000.0f / aspect), view, proj);
    glm_mat4_mul(proj, view, vp);
    b[0] = b[1] = 1e30f, b[2] = b[3] = -1e30f;
    for (int k = 0; k < 8; k++) {
        vec4 w = {k & 1 ? hi[0] : lo[0], k & 2 ? hi[1] : lo[1], k & 4 ? hi[2] : lo[2], 1}, q;
        glm_mat4_mulv(vp, w, q);
        if (q[3] <= 1e-6f) return false;
        b[0] = fminf(b[0], q[0] / q[3]), b[1] = fminf(b[1], q[1] / q[3]);
        b[2] = fmaxf(b[2], q[0] / q[3]), b[3] = fmaxf(b[3], q[1] / q[3]);
    }
    return true;
}

void camera_frame(camera *c, const float lo[3], const float hi[3], float aspect, const float rect[4]) {
    camera_fit(c, lo, hi);
    if (aspect <= 0) return;
    float b[4];
    for (int it = 0; it < 4; it++) {
        /* the distance at which the box just fits the rectangle (bisection on a scale), then the
         * target moved across the view so the box's bounds centre on the rectangle's */
        float near = 0.05f * c->size, far = 20.0f * c->size;
        for (int k = 0; k < 40; k++) {
            c->distance = 0.5f * (near + far);
            bool fits =
                _camera_bounds(c, lo, hi, aspect, b) && b[2] - b[0] <= rect[2] - rect[0] && b[3] - b[1] <= rect[3] - rect[1];
            *(fits ? &far : &near) = c->distance;
        }
        c->distance = far;
        if (!_camera_bounds(c, lo, hi, aspect, b)) return;
        float dx = 0.5f * ((rect[0] + rect[2]) - (b[0] + b[2])), dy = 0.5f * ((rect[1] + rect[3]) - (b[1] + b[3]));
        /* an NDC shift of the target's plane is a pan of -shift * half the view's size there */
        int h = 1000;
        camera_pan(c, dx * 0.5f * (float)h * aspect, -dy * 0.5f * (float)h, h);
    }
}

void camera_orbit(camera *c, float dx_px, float dy_px) {
    c->yaw -= dx_px * 0.008f;
    c->pitch += dy_px * 0.008f;
    c->yaw = fmodf(c->yaw, 2.0f * GLM_PIf);
    c->pitch = glm_clamp(c->pitch, -1.5f, 1.5f);
}

void camera_zoom(camera *c, float steps) {
    c->distance *= powf(0.9f, steps);
    c->distance = glm_clamp(c->distance, 0.05f * c->size, 20.0f * c->size);
}

void camera_eye(const camera *c, vec3 eye) {
    vec3 back = {sinf(-c->yaw) * cosf(c->pitch), sinf(c->pitch), cosf(c->yaw) * cosf(c->pitch)};
    glm_vec3_scale(back, c->distance, back);
    glm_vec3_add((float *)c->target, back, eye);
}

void camera_pan(camera *c, float dx_px, float dy_px, int height) {
    mat4 view;
    vec3 eye, up = {0, 1, 0};
    camera_eye(c, eye);
    glm_lookat(eye, (float *)c->target, up, view);
    /* The view matrix's rows are the camera's right and up axes in world space. */
    vec3 right = {view[0][0], view[1][0], view[2][0]}, cup = {view[0][1], view[1][1], view[2][1]};
    float per_px = 2.0f * c->distance * tanf(0.5f * c->fov_y) / (float)(height > 0 ? height : 1);
    glm_vec3_muladds(right, -dx_px * per_px, c->target);
    glm_vec3_muladds(cup, dy_px * per_px, c->target);
}

void camera_matrices(const camera *c, int width, int height, mat4 view, mat4 proj) {
    vec3 eye, up = {0, 1, 0};
    camera_eye(c, eye);
    glm_lookat(eye, (float *)c->target, up, view);
    float aspect = (width > 0 && height > 0) ? (float)width / (float)height : 1.0f;
    float znear = 0.01f * c->size, zfar = c->distance + 4.0f * c->size;
    glm_perspective(c->fov_y, aspect, znear, zfar, proj);
}

bool camera_pick_plane(const camera *c, int width, int height, float px, float py, vec3 out) {
    if (width <= 0 || height <= 0) return false;
    mat4 view, proj, vp, inv;
    camera_matrices(c, width, height, view, proj);
    glm_mat4_mul(proj, view, vp);
    glm_mat4_inv(vp, inv);
    float nx = 2.0f * px / (float)width - 1.0f, ny = 1.0f - 2.0f * py / (float)height;
    vec4 a = {nx, ny, -1, 1}, b = {nx, ny, 1, 1}, wa, wb;
    glm_mat4_mulv(inv, a, wa);
    glm_mat4_mulv(inv, b, wb);
    vec3 p0 = {wa[0] / wa[3], wa[1] / wa[3], wa[2] / wa[3]}, p1 = {wb[0] / wb[3], wb[1] / wb[3], wb[2] / wb[3]};
    vec3 dir, eye, n;
    glm_vec3_sub(p1, p0, dir);
    camera_eye(c, eye);
    glm_vec3_sub(eye, (float *)c->target, n); /* the plane's normal faces the camera */
    float denom = glm_vec3_dot(dir, n);
    if (fabsf(denom) < 1e-12f) return false;
    vec3 to;
    glm_vec3_sub((float *)c->target, p0, to);
    float t = glm_vec3_dot(to, n) / denom;
    glm_vec3_scale(dir, t, dir);
    glm_vec3_add(p0, dir, out);
    return true;
}
