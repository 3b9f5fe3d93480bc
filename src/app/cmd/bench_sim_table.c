/* bench_sim_table: bench --sim's comparison table and CSV (bench_sim_table.h). */
#include "app/cmd/bench_sim_table.h"
#include "sim/solver.h"
#include <math.h>
#include <string.h>

void bsim_columns_add(bsim_columns *cols, const char *solver) {
    for (int s = 0; sim_solvers[s]; s++) {
        if (strcmp(sim_solvers[s]->name, solver)) continue;
        for (int i = 0; i < sim_solvers[s]->counter_count; i++) {
            const char *name = sim_solvers[s]->counters[i];
            bool have = false;
            for (int k = 0; k < cols->n; k++) have |= !strcmp(cols->name[k], name);
            if (!have && cols->n < BSIM_COUNTERS) snprintf(cols->name[cols->n++], sizeof cols->name[0], "%s", name);
        }
    }
}

/* The row's mean iterations of the column's counter; false where its solver has no such counter. */
static bool _bsim_it(const bsim_row *r, const char *name, double *out) {
    for (int i = 0; i < r->ncounters; i++)
        if (!strcmp(r->counter[i], name)) return *out = r->it_mean[i], true;
    return false;
}

static int _bsim_it_width(const char *name) {
    int w = 3 + (int)strlen(name);
    return w < 7 ? 7 : w;
}

void bsim_table_header(FILE *f, const bsim_columns *cols) {
    fprintf(f, "%9s %-6s %-8s %5s %7s %7s %11s %9s %9s %6s %6s", "particles", "solver", "sort", "clock", "t_start", "t_end",
            "ms_per_60th", "worst_ms", "x_fastest", "steps", "slots");
    for (int k = 0; k < cols->n; k++) {
        char name[24];
        snprintf(name, sizeof name, "it_%s", cols->name[k]);
        fprintf(f, " %*s", _bsim_it_width(cols->name[k]), name);
    }
    fprintf(f, " %9s %9s %7s %7s %6s %6s %s\n", "err_mean%", "err_max%", "cfl", "rt", "disp", "disp14", "stages (us, one step)");
}

/* " | in one dispatch (us a step, shader clock N MHz): density 38.1, ...": the solver's stages as
 * its one-dispatch step measured them (bsim_row.nphase); shares of the dispatch where the clock's
 * rate is unknown. */
static void _bsim_phases(FILE *f, const bsim_row *r) {
    if (!r->nphase) return;
    double total = 0;
    for (int k = 0; k < r->nphase; k++) total += r->phase_cycles[k];
    if (r->phase_mhz > 0) fprintf(f, " | in one dispatch (us a step, shader clock %.0f MHz): ", r->phase_mhz);
    else fprintf(f, " | in one dispatch (share of its cycles): ");
    for (int k = 0; k < r->nphase; k++) {
        const char *name = r->stage_names[r->nst - r->nphase + k];
        if (r->phase_mhz > 0) fprintf(f, "%s%s %.1f", k ? ", " : "", name, r->phase_cycles[k] / r->phase_mhz);
        else fprintf(f, "%s%s %.0f%%", k ? ", " : "", name, total > 0 ? 100 * r->phase_cycles[k] / total : 0);
    }
}

void bsim_table_group(FILE *f, bsim_row *rows, int n, const bsim_columns *cols, const char *clock) {
    double fastest = INFINITY;
    for (int i = 0; i < n; i++)
        if (rows[i].ms_mean < fastest) fastest = rows[i].ms_mean;
    for (int i = 0; i < n; i++) {
        bsim_row *r = &rows[i];
        r->x_fastest = r->ms_mean / fastest;
        fprintf(f, "%9u %-6s %-8s %5s %7.3f %7.3f %11.3f %9.3f %9.2f %6.1f %6.1f", r->particles, r->solver, r->sort, clock,
                r->t_start, r->t_end, r->ms_mean, r->ms_worst, r->x_fastest, r->steps_per_frame, r->slots_per_frame);
        for (int k = 0; k < cols->n; k++) {
            double it;
            if (_bsim_it(r, cols->name[k], &it)) fprintf(f, " %*.2f", _bsim_it_width(cols->name[k]), it);
            else fprintf(f, " %*s", _bsim_it_width(cols->name[k]), "-");
        }
        if (r->has_err) fprintf(f, " %9.4f %9.4f", 100 * r->err_mean, 100 * r->err_max);
        else fprintf(f, " %9s %9s", "-", "-");
        if (r->has_cfl) fprintf(f, " %7.3f", r->cfl_max);
        else fprintf(f, " %7s", "-");
        fprintf(f, " %7.2f %6.1f %6u ", r->realtime, r->disp_mean, r->disp_1_4);
        for (int s = 0; s < r->nst; s++) /* "-": not timed (no work of its own) */
            if (isnan(r->stage_us[s])) fprintf(f, "%s%s -", s ? ", " : "", r->stage_names[s]);
            else fprintf(f, "%s%s %.1f", s ? ", " : "", r->stage_names[s], r->stage_us[s]);
        fprintf(f, " | worst frame: %d steps, %d slots, %llu dispatches", r->worst_steps, r->worst_slots,
                (unsigned long long)r->worst_disp);
        _bsim_phases(f, r);
        fprintf(f, "\n");
    }
    fprintf(f, "\n");
    fflush(f);
}

void bsim_csv(outfile *f, const bsim_row *rows, int n, const bsim_columns *cols, const char *clock) {
    outfile_printf(f, "solver,sort,particles,clock,t_start,t_end,ms_per_60th_mean,ms_per_60th_worst,x_fastest,steps_per_60th,"
                      "slots_per_60th");
    for (int k = 0; k < cols->n; k++) outfile_printf(f, ",it_%s", cols->name[k]);
    outfile_printf(f, ",err_density_mean,err_density_max,cfl_max,capped,dropped,realtime,dispatches_per_step,"
                      "dispatches_1div_4dens,stages,phase_mhz,phases_cycles,ms_frame_mean\n");
    for (int i = 0; i < n; i++) {
        const bsim_row *r = &rows[i];
        outfile_printf(f, "%s,%s,%u,%s,%.4f,%.4f,%.4f,%.4f,%.4f,%.2f,%.2f", r->solver, r->sort, r->particles, clock, r->t_start,
                       r->t_end, r->ms_mean, r->ms_worst, r->x_fastest, r->steps_per_frame, r->slots_per_frame);
        for (int k = 0; k < cols->n; k++) {
            double it;
            if (_bsim_it(r, cols->name[k], &it)) outfile_printf(f, ",%.3f", it);
            else outfile_printf(f, ",");
        }
        if (r->has_err) outfile_printf(f, ",%.6g,%.6g", r->err_mean, r->err_max);
        else outfile_printf(f, ",,");
        if (r->has_cfl) outfile_printf(f, ",%.4f", r->cfl_max);
        else outfile_printf(f, ",");
        outfile_printf(f, ",%llu,%llu,%.4f,%.2f,%u,", (unsigned long long)r->capped, (unsigned long long)r->dropped, r->realtime,
                       r->disp_mean, r->disp_1_4);
        for (int s = 0; s < r->nst; s++)
            if (isnan(r->stage_us[s])) outfile_printf(f, "%s%s=", s ? ";" : "", r->stage_names[s]);
            else outfile_printf(f, "%s%s=%.2f", s ? ";" : "", r->stage_names[s], r->stage_us[s]);
        outfile_printf(f, ",%.1f,", r->phase_mhz); /* the phases: mean cycles a step (empty: not measured) */
        for (int k = 0; k < r->nphase; k++)
            outfile_printf(f, "%s%s=%.0f", k ? ";" : "", r->stage_names[r->nst - r->nphase + k], r->phase_cycles[k]);
        outfile_printf(f, ",%.4f\n", r->ms_frame);
    }
}
