/* dfsph_records: DFSPH's frames in flight: their fences, the step records read back a fixed
 * DFSPH_LAG frames later (so a run is the same every time), and the frame's values handed to the
 * GPU. What the records mean for the next frames (the slots, the caps) is dfsph_frame.c's. */
#include "core/log.h"
#include "core/util.h"
#include "sim/dfsph/dfsph_internal.h"
#include <stddef.h>
#include <string.h>

/* The persistent path's stalled word (Ctl.stalled): set, it takes the indirect path from now on and
 * says why: 1, a grid barrier waited past its bound (the groups were not all resident); 2, llvmpipe's
 * loop limiter cut a dispatch's loops short (grid_barrier.glsl's grid_loop_check). */
static void _dfsph_stalled(dfsph *d, uint32_t stalled) {
    uint32_t grid = d->solve_groups ? d->solve_groups : d->tail_groups;
    if (!grid || !stalled) return;
    if (stalled == 2)
        log_error("SIM",
                  "dfsph: the persistent path's %u groups ran past llvmpipe's limit of 65,535 loop iterations a shader "
                  "(their loops were cut short: the step is wrong); the indirect path runs from now on (set "
                  "FLUID_DFSPH_PERSISTENT to 0, or ask for fewer particles)",
                  grid);
    else
        log_error("SIM",
                  "dfsph: the persistent solve's %u groups were not all resident (a grid barrier stalled); "
                  "the indirect path runs from now on (set FLUID_DFSPH_PERSISTENT lower, or 0)",
                  grid);
    d->solve_groups = d->tail_groups = 0; /* the barrier's words stay as they are: only the persistent solve reads them */
}

/* The stalled word now: waits for every command in flight (llvmpipe's check after each persistent dispatch). */
void dfsph_stall_check(dfsph *d) {
    if (!d->solve_groups && !d->tail_groups) return;
    uint32_t stalled = 0;
    glGetNamedBufferSubData(d->ctl, offsetof(dfsph_ctl, stalled), 4, &stalled);
    _dfsph_stalled(d, stalled);
}

/* Reads the records of frames at least `lag` frames old (waiting for their fences). */
void dfsph_collect(dfsph *d, int lag) {
    while (d->frames_pending > lag) {
        int f = d->frame_head;
        glClientWaitSync(d->fence[f], GL_SYNC_FLUSH_COMMANDS_BIT, (GLuint64)60e9);
        glDeleteSync(d->fence[f]);
        d->fence[f] = 0;
        uint32_t count = d->frame_steps[f];
        /* What the frame's end copied (dfsph_frame_end): read through the mapping, so the GPU's later
         * frames go on running (a glGetBufferSubData of ctl or the records would wait for them all). */
        const unsigned char *slot = d->rb_map + (size_t)f * DFSPH_RB_SLOT;
        uint32_t stalled;
        memcpy(&stalled, slot, 4);
        _dfsph_stalled(d, stalled);
        const dfsph_record *recs = (const dfsph_record *)(slot + DFSPH_RB_RECORDS); /* read in place */
        sim_step_record got[DFSPH_MAX_STEPS];
        int taken = dfsph_policy_learn(&d->pol, recs, count, d->frame_mode[f], d->frame_caps[f], got);
        for (int k = 0; k < taken && !d->discard; k++) {
            got[k].frame = d->frame_no[f]; /* the frame whose slots ran it (a carried frame's rest runs in the next) */
            d->sink->push(d->sink->owner, &got[k]);
        }
        if (!d->discard) d->sink->frame_done(d->sink->owner, d->frame_no[f]);
        d->read += count;
        d->frame_head = (d->frame_head + 1) % DFSPH_FRAMES;
        d->frames_pending--;
    }
}

int dfsph_frame_begin(void *impl, double seconds, int substeps) {
    dfsph *d = impl;
    dfsph_collect(d, DFSPH_LAG);
    dfsph_policy_plan(&d->pol, seconds, substeps, d->solve_groups || d->tail_groups, &d->plan);
    if (d->desc.tail) d->plan.pairs[0] = d->plan.pairs[1] = d->desc.tail == DFSPH_ZERO ? 0 : (uint32_t)d->desc.tail;
    if (d->plan.warn_fixed)
        log_warn("SIM", "dfsph: %d steps a frame are %.3g s each, longer than its largest step %.3g s: the fluid may blow up",
                 d->plan.steps, seconds / d->plan.steps, d->pol.desc.dt_max);
    /* They reach the GPU as uniforms of the frame's first density pass, in the command stream (see
     * density.comp: a glNamedBufferSubData of them landed early on the H100). */
    d->frame_vals[0] = d->plan.add;
    d->frame_vals[1] = (uint32_t)d->plan.steps;
    d->frame_vals[2] = d->plan.caps[0];
    d->frame_vals[3] = d->plan.caps[1];
    d->frame_set = 1 + d->plan.mode;
    d->frame_issued = 0;
    d->frames_begun++;
    d->in_frame = true;
    return d->plan.steps;
}

void dfsph_frame_end(void *impl) {
    dfsph *d = impl;
    if (!d->in_frame) return;
    d->in_frame = false;
    if (d->frames_pending == DFSPH_FRAMES) dfsph_collect(d, DFSPH_FRAMES - 1);
    int f = (d->frame_head + d->frames_pending) % DFSPH_FRAMES;
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    /* The frame's stalled word and records into its read-back slot (dfsph_collect reads them there);
     * the records in at most two pieces of the ring. */
    GLintptr slot = (GLintptr)((size_t)f * DFSPH_RB_SLOT);
    glCopyNamedBufferSubData(d->ctl, d->rb, offsetof(dfsph_ctl, stalled), slot, 4);
    for (uint32_t k = 0; k < d->frame_issued;) {
        uint32_t at = (d->issued + k) % DFSPH_RECORDS,
                 run = DFSPH_RECORDS - at < d->frame_issued - k ? DFSPH_RECORDS - at : d->frame_issued - k;
        glCopyNamedBufferSubData(d->records, d->rb, (GLintptr)(at * sizeof(dfsph_record)),
                                 slot + DFSPH_RB_RECORDS + (GLintptr)(k * sizeof(dfsph_record)),
                                 (GLsizeiptr)(run * sizeof(dfsph_record)));
        k += run;
    }
    d->fence[f] = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    d->frame_caps[f][0] = d->plan.caps[0];
    d->frame_caps[f][1] = d->plan.caps[1];
    d->frame_mode[f] = d->plan.mode;
    d->frame_no[f] = d->frames_begun;
    d->frame_steps[f] = d->frame_issued;
    d->issued += d->frame_issued;
    d->frames_pending++;
}

/* The records of frames DFSPH_LAG old went to the sink in frame_begin; `wait`: every frame's now. */
void dfsph_poll(void *impl, bool wait) {
    if (wait) dfsph_collect(impl, 0);
}

/* Seconds of the frames asked for that the GPU has not simulated yet (waits for it): a frame whose
 * slots ran out before its time did. */
double dfsph_owed(void *impl) {
    dfsph *d = impl;
    uint32_t t_rem = 0;
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glGetNamedBufferSubData(d->ctl, offsetof(dfsph_ctl, t_rem), sizeof t_rem, &t_rem);
    return t_rem * DFSPH_TICK;
}
