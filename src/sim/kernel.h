/* kernel: the SPH smoothing kernel and the semi-analytic box walls, on the CPU.
 *
 * C twin of shaders/sim/kernel.glsl (same formulas): the cubic B-spline of Monaghan (1992) with
 * smoothing length hs and support 2 hs, normalised in 3D, and the walls' share of a particle's
 * kernel sum: the fluid's lattice continued behind each wall as ghost planes of particles at rest
 * density, each plane's mass spread evenly over it (see docs/SPH.md).
 * Used by sim.c (particle mass) and by the tests as the independent reference.
 */
#ifndef FLUID_SIM_KERNEL_H
#define FLUID_SIM_KERNEL_H

double sim_kernel_w(double r, double hs);  /* W(r), 1/m^3 */
double sim_kernel_dw(double r, double hs); /* dW/dr */
/* A plane of unit areal density at distance z: its kernel sum P(z) in out[0], dP/dz in out[1]. */
void sim_kernel_plane(double z, double hs, double out[2]);
/* The wall's share Phi(d) of the kernel sum at distance d from a plane wall (ghost planes at
 * d + (j + 1/2) dx of areal density k = m / (rho0 dx^2)) in g[0], dPhi/dd in g[1]. */
void sim_kernel_wall_g(double d, double hs, double dx, double k, double g[2]);
/* sum_j W(d + (j + 1/2) dx): the ghost planes' weight in the walls' no-slip viscosity. */
double sim_kernel_wall_w(double d, double hs, double dx);
/* 1 - prod over the six walls of (1 - Phi(d_k)) at p in the box [lo, hi], and its gradient. */
double sim_kernel_wall_fraction(const double p[3], const double lo[3], const double hi[3], double hs, double dx, double k,
                                double grad[3]);

#endif
