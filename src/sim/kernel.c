#include "sim/kernel.h"
#include <math.h>

#define _KERNEL_PI 3.14159265358979323846

double sim_kernel_w(double r, double hs) {
    double q = r / hs;
    double f = q < 1 ? 1 - 1.5 * q * q + 0.75 * q * q * q : q < 2 ? 0.25 * (2 - q) * (2 - q) * (2 - q) : 0;
    return f / (_KERNEL_PI * hs * hs * hs);
}

double sim_kernel_dw(double r, double hs) {
    double q = r / hs;
    double f = q < 1 ? -3 * q + 2.25 * q * q : q < 2 ? -0.75 * (2 - q) * (2 - q) : 0;
    return f / (_KERNEL_PI * hs * hs * hs * hs);
}

static double _kernel_i1(double q) {
    double q2 = q * q;
    return q2 * (0.5 - 0.375 * q2 + 0.15 * q2 * q);
}
static double _kernel_a1(double q) {
    double q2 = q * q;
    return 0.25 * q2 * (4 - 4 * q + 1.5 * q2 - 0.2 * q2 * q);
}
static double _kernel_f1(double t) {
    if (t >= 2) return 0;
    if (t >= 1) return _kernel_a1(2) - _kernel_a1(t);
    return _kernel_i1(1) - _kernel_i1(t) + _kernel_a1(2) - _kernel_a1(1);
}

void sim_kernel_plane(double z, double hs, double out[2]) {
    out[0] = 2 / hs * _kernel_f1(fabs(z) / hs);
    out[1] = -2 * _KERNEL_PI * z * sim_kernel_w(fabs(z), hs);
}

void sim_kernel_wall_g(double d, double hs, double dx, double k, double g[2]) {
    g[0] = g[1] = 0;
    for (int j = 0; j < 8; j++) {
        double z = (d > 0 ? d : 0) + (j + 0.5) * dx, p[2];
        if (z >= 2 * hs) break;
        sim_kernel_plane(z, hs, p);
        g[0] += k * p[0];
        g[1] += k * p[1];
    }
}

double sim_kernel_wall_w(double d, double hs, double dx) {
    double w = 0;
    for (int j = 0; j < 8; j++) {
        double z = (d > 0 ? d : 0) + (j + 0.5) * dx;
        if (z >= 2 * hs) break;
        w += sim_kernel_w(z, hs);
    }
    return w;
}

double sim_kernel_wall_fraction(const double p[3], const double lo[3], const double hi[3], double hs, double dx, double k,
                                double grad[3]) {
    double inside = 1, gl[3] = {0, 0, 0};
    for (int a = 0; a < 3; a++) {
        double g0[2], g1[2];
        sim_kernel_wall_g(p[a] - lo[a], hs, dx, k, g0);
        sim_kernel_wall_g(hi[a] - p[a], hs, dx, k, g1);
        inside *= (1 - g0[0]) * (1 - g1[0]);
        gl[a] += g0[1] / (1 - g0[0]) - g1[1] / (1 - g1[0]);
    }
    for (int a = 0; a < 3; a++) grad[a] = inside * gl[a];
    return 1 - inside;
}
