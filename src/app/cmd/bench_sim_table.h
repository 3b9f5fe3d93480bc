/* bench_sim_table: `fluid bench --sim`'s rows as one comparison table and as CSV (cmd_bench_sim.c).
 *
 * Rows are grouped by particle count, a (solver, sort) a row, so DFSPH and WCSPH read side by side
 * for the same scene, count and timed window. Each row's `x_fastest` is its mean ms per 1/60 s over
 * the fastest row's at that count. Iterations are columns named by the solvers' own counters
 * (sim_solver.counters: "divergence", "pressure" -> it_divergence, it_pressure), the union over
 * the registered solvers (the same columns whatever --solvers); a solver without that counter
 * shows "-" in the table, empty in the CSV.
 *
 *   bsim_columns cols = {0};
 *   bsim_columns_add(&cols, "dfsph"), bsim_columns_add(&cols, "wcsph");
 *   bsim_table_header(stdout, &cols);
 *   ... run a count's rows ...; bsim_table_group(stdout, rows, n, &cols);   // sets x_fastest
 *   bsim_csv(outfile, all_rows, total, &cols);
 */
#ifndef FLUID_APP_BENCH_SIM_TABLE_H
#define FLUID_APP_BENCH_SIM_TABLE_H
#include "core/outfile.h"
#include "sim/compare.h"
#include "sim/step_record.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define BSIM_COUNTERS 8

typedef struct bsim_columns {
    int n;
    char name[BSIM_COUNTERS][16]; /* the counters' names, in the solvers' order, each once */
} bsim_columns;

typedef struct bsim_row {
    char solver[16], sort[32];
    uint32_t particles;
    int frames, timed;
    double t_start, t_end; /* the timed window, simulated seconds (after --warmup) */
    /* ms_mean: GPU ms per simulated 1/60 s, the mean frame's over the fluid's time a frame (a frame
     * that ran out of slots carries its rest over, so a window can end behind its frames' time: the
     * frame's ms alone would then flatter, by the work left to later frames); ms_frame: the mean
     * frame's; ms_worst: the worst frame's */
    double ms_mean, ms_frame, ms_worst, x_fastest, steps_per_frame, err_mean, err_max, cfl_max, realtime;
    bool has_cfl;                    /* its records carry the CFL number; WCSPH's: NAN ("-", empty) */
    bool has_err;                    /* the solver measures a density error (a pressure solve); WCSPH: no */
    int ncounters;                   /* the solver's own counters */
    char counter[BSIM_COUNTERS][16]; /* their names */
    double it_mean[BSIM_COUNTERS];   /* iterations a step, each */
    uint64_t steps, capped, dropped;
    uint64_t slots; /* step slots issued in the window: the steps, and DFSPH's empty slots past a frame's time */
    double slots_per_frame;
    double disp_mean;  /* dispatches recorded per step slot (sim_get_dispatches) */
    uint32_t disp_1_4; /* dispatches of a step whose solves record 1 divergence and 4 pressure iterations */
    int worst_slots;   /* the worst frame's step slots, steps and dispatches: where its time went */
    int worst_steps;   /* (the steps its slots ran: _bsim_take) */
    int worst_frame;   /* its index in the timed window */
    uint64_t worst_disp;
    int nst;
    char stage_names[16][24];
    double stage_us[16];
    /* The solver's stages measured inside its one-dispatch step (sim_step_record.phase_cycles):
     * nphase of them (its last stages; 0: none measured), the mean cycles a step over the
     * phase_steps steps that measured them, and the shader clock's rate measured after the row (0:
     * unknown, llvmpipe: then only their shares are printed). */
    int nphase;
    uint64_t phase_steps;
    double phase_cycles[SIM_RECORD_PHASES], phase_mhz;
    bool compared; /* --compare's table, for this row */
    sim_compare_report cmp;
} bsim_row;

/* Adds a registered solver's counters to the columns (those not there yet). */
void bsim_columns_add(bsim_columns *cols, const char *solver);
void bsim_table_header(FILE *f, const bsim_columns *cols);
/* One count's rows: sets each x_fastest, prints them and a blank line. */
void bsim_table_group(FILE *f, bsim_row *rows, int n, const bsim_columns *cols, const char *clock);
void bsim_csv(outfile *f, const bsim_row *rows, int n, const bsim_columns *cols, const char *clock);

#endif
