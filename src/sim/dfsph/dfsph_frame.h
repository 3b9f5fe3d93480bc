/* dfsph_frame: DFSPH's frame and slot policy, a pure function of what the step records said (no GL;
 * tests/test_sim_dfsph_frame.c checks it against hand-worked cases, as src/app/pacing.c is).
 *
 * The GPU sizes the steps; the CPU sizes each frame's step slots and the solves' iteration caps
 * (the (update, predict) pairs it records) from records DFSPH_LAG frames old:
 *
 *   dfsph_policy pol;  dfsph_policy_reset(&pol, &(dfsph_policy_desc){ .dt_max = ..., .cfl = ..., .slack = 1, .spare = 1, .history = 4 });
 *   each frame:  dfsph_frame_plan f;  dfsph_policy_plan(&pol, seconds, substeps, persistent, &f);   // f.steps slots
 *   a frame's records read back:      dfsph_policy_learn(&pol, recs, count, mode, caps, out);      // out: its steps' records
 *
 * It does NOT wait for, read or write the GPU: dfsph_records.c does, and hands it the records.
 */
#ifndef FLUID_DFSPH_FRAME_H
#define FLUID_DFSPH_FRAME_H
#include "sim/dfsph/dfsph_layout.h"
#include "sim/step_record.h"
#include <stdbool.h>
#include <stdint.h>

#define DFSPH_LAG 2      /* frames between issuing a step and reading its record */
#define DFSPH_FRAMES 4   /* frames in flight, with their fences */
#define DFSPH_MAX_IT 100 /* SPlisHSPlasH's most iterations */
/* The caps until the first records come back (4 and 8 let the first frames' solves stop at the cap:
 * the worst density error went from 0.09% to 0.23%, H100; 30 cut the dam break's capped first steps
 * at 27,648 (llvmpipe, first 0.1 s: 11 -> 2 capped solves, 124 -> 92 dispatches a step) but the
 * still pool's energy then grew 0.12% in 900 steps, past test_sim_scenes' 0.1%). */
#define DFSPH_CAP_DIV0 10
#define DFSPH_CAP_DENS0 20
/* A frame has no spare slot while the CFL step of its fastest particle at this many times its
 * speed would still be dt_max (dfsph_policy_plan). */
#define DFSPH_SPARE_MARGIN 2.0
/* Where a persistent tail runs a solve's iterations past the pairs the CPU recorded (dfsph_passes.c),
 * the pairs recorded are the fewest that all but 1 in DFSPH_TAIL_SHARE of the last frames' solves
 * finished within: an empty pair costs a step two dispatches (about 6 us at 109,744 on the H100), an
 * iteration the tail runs the coherent reads' extra (about 36 us), so a pair pays where more than
 * about 1 solve in 7 needs it. Since the tail is indirect (session 35) a solve its pairs finish also
 * skips the tail's launch (about 16 us), which moves that share toward 1 in 10; not measured, so 8
 * stays. Iterations counted up to DFSPH_TAIL_BINS - 1. */
#define DFSPH_TAIL_SHARE 8
#define DFSPH_TAIL_BINS 16
#define DFSPH_MAX_STEPS 1000 /* step slots a frame at most (records in flight stay within the ring) */
_Static_assert(DFSPH_MAX_STEPS == SIM_MAX_SUBSTEPS, "--substeps' range is the slots a frame holds");

typedef struct dfsph_policy_desc {
    float dt_max;   /* the largest step, s */
    float cfl;      /* dt_cfl = cfl dx / |v|max */
    uint32_t slack; /* empty (update, predict) pairs recorded past the iterations seen */
    uint32_t spare; /* step slots past the CFL estimate where the speeds' limit may bind */
    float grow;     /* a frame's slots are at most grow times the steps of the frame they are planned from, plus 2 */
    int history;    /* frames of iterations the caps look at: 1..DFSPH_FRAMES */
    uint32_t debt_share; /* a frame's budget on the GPU: its own time and 1 / debt_share of the time owed (1: all) */
} dfsph_policy_desc;

/* What the CPU knows, from records DFSPH_LAG frames old. */
typedef struct dfsph_policy {
    dfsph_policy_desc desc;
    uint32_t cap_div, cap_dens;        /* iterations recorded per solve */
    float dt_cfl_recent;               /* the smallest CFL step of the last frame read (0: none yet) */
    float speed_recent, speed_before;  /* the largest |v| / dx of those two frames' steps (their records' cfl / dt) */
    float carry_recent;                /* seconds the last frame read could not finish */
    uint32_t t_owed;                   /* the same in ticks (Ctl.t_rem after its last slot) */
    uint32_t steps_recent;             /* the steps it took (its empty slots not counted) */
    uint32_t it_seen[DFSPH_FRAMES][2]; /* the most iterations (divergence, pressure) of recent frames */
    uint16_t it_hist[DFSPH_FRAMES][2][DFSPH_TAIL_BINS]; /* their steps by iterations (the last bin: that many or more) */
    uint32_t pairs[2];                                  /* the pairs a solve records before its tail, where one runs */
    int it_seen_head;
    double t_asked;    /* seconds the frames asked for since the last reset */
    uint64_t t_given;  /* ticks given to the GPU for them: round(t_asked / DFSPH_TICK) */
    bool warned_fixed; /* --substeps steps longer than dt_max: said once */
} dfsph_policy;

/* A frame as the policy plans it. */
typedef struct dfsph_frame_plan {
    int steps;        /* step slots, 1..DFSPH_MAX_STEPS */
    uint32_t mode;    /* DFSPH_MODE_* */
    uint32_t add;     /* ticks added to the GPU's time left (Ctl.t_rem) */
    uint32_t caps[2]; /* iterations recorded (divergence, pressure) */
    uint32_t pairs[2]; /* with a persistent tail: the (update, predict) pairs recorded before it */
    bool warn_fixed;  /* the first --substeps frame whose steps are longer than dt_max: say so */
} dfsph_frame_plan;

/* Which path runs the solves (chosen in dfsph.c when the solver is made, before its programs: the
 * folded walk depends on it; dfsph_persistent_choose builds it): the indirect path alone, the persistent
 * solve (the whole solve one dispatch; the fused step where it builds), or the indirect path with a
 * persistent tail. From the desc's `persistent` and `tail` (0 automatic, DFSPH_ZERO (-1) an explicit 0,
 * else set), whether the lists hold records, whether the tail is on by default at this count, and
 * whether the driver runs persistent grids (`progress`: forward progress, not llvmpipe). By default:
 * with records the persistent solve, with index lists the tail where `tail_auto`, else the indirect
 * path alone; `persistent` set: the persistent solve on any driver (the tail where `tail` is set
 * too); `persistent` DFSPH_ZERO: the indirect path alone; `tail` set: the tail wherever a grid runs. */
typedef enum { DFSPH_PATH_INDIRECT, DFSPH_PATH_PERSISTENT, DFSPH_PATH_TAIL } dfsph_path;
dfsph_path dfsph_path_choose(int persistent, int tail, bool records, bool tail_auto, bool progress);

/* New particles or a new solver: the first caps, nothing known, no time asked. */
void dfsph_policy_reset(dfsph_policy *pol, const dfsph_policy_desc *desc);
/* The next frame: `seconds` > 0 with substeps 0: CFL slots; substeps K > 0: K equal steps; seconds
 * 0: one free step; seconds < 0: a catch-up frame for -seconds owed. `persistent`: the solves stop
 * only at SPlisHSPlasH's bound (the caps), their iterations past the recorded pairs (the persistent
 * solve: all of them; a tail: those past `pairs`) run persistent. */
void dfsph_policy_plan(dfsph_policy *pol, double seconds, int substeps, bool persistent, dfsph_frame_plan *out);
/* A frame's `count` records read back (empty slots have dt 0), planned with `mode` and `caps`:
 * writes its steps' records into out (at most count) and returns how many; learns the next caps
 * and the speed. */
int dfsph_policy_learn(dfsph_policy *pol, const dfsph_record *recs, uint32_t count, uint32_t mode, const uint32_t caps[2],
                       sim_step_record *out);

#endif
