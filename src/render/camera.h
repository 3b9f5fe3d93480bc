/* camera: an orbit camera around a target point (cglm matrices), and the ray under a pixel.
 *
 *   camera cam;
 *   camera_fit(&cam, lo, hi);                 // look at the box lo..hi from the front, above
 *   camera_orbit(&cam, dx_px, dy_px);         // mouse drag
 *   camera_zoom(&cam, wheel_steps);           // mouse wheel
 *   camera_pan(&cam, dx_px, dy_px, height);   // right drag / keys, in pixels of a `height` view
 *   camera_matrices(&cam, width, height, view, proj);
 *   camera_pick_plane(&cam, w, h, px, py, out); // the point under pixel (px, py) on the plane
 *                                               // through the target facing the camera
 *
 * Pixels are window pixels with y down. It does NOT read input: the app turns events into calls.
 */
#ifndef FLUID_CAMERA_H
#define FLUID_CAMERA_H
#include <cglm/cglm.h>
#include <stdbool.h>

typedef struct camera {
    vec3 target;      /* the point orbited around */
    float yaw, pitch; /* radians; yaw 0 looks along -z, pitch > 0 looks down */
    float distance;   /* from target to eye */
    float fov_y;      /* radians */
    float size;       /* the fitted box's diagonal: sets the zoom limits and pan speed */
} camera;

void camera_fit(camera *c, const float lo[3], const float hi[3]);
/* As camera_fit, then the distance and target set so the box's 8 corners fill the NDC rectangle
 * rect (x0, y0, x1, y1, y up) of a view of that aspect (width / height): the scene framed, with
 * room left for the HUD. */
void camera_frame(camera *c, const float lo[3], const float hi[3], float aspect, const float rect[4]);
void camera_orbit(camera *c, float dx_px, float dy_px);
void camera_zoom(camera *c, float steps);
void camera_pan(camera *c, float dx_px, float dy_px, int height);
void camera_eye(const camera *c, vec3 eye);
void camera_matrices(const camera *c, int width, int height, mat4 view, mat4 proj);
/* False when the ray misses the plane (parallel to it) or the size is 0. */
bool camera_pick_plane(const camera *c, int width, int height, float px, float py, vec3 out);

#endif
