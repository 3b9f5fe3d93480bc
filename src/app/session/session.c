/* session: one run's setup and frame (see session.h). */
#include "app/session/session.h"
#include "app/session/app_limits.h"
#include "core/log.h"
#include "core/util.h"
#include "sim/compare.h"
#include "sim/dfsph/dfsph.h" /* dfsph_desc: --strict */
#include "sim/search.h"
#include <math.h>
#include <string.h>

#define _SESSION_DEF(v, def) ((v) ? (v) : (def))

void session_desc_defaults(session_desc *d) {
    d->width = _SESSION_DEF(d->width, SESSION_WIDTH);
    d->height = _SESSION_DEF(d->height, SESSION_HEIGHT);
}

/* The profiler: the step's stages, then the frame's simulation (and render). */
static void _session_prof_remake(session *ss) {
    prof_destroy(ss->prof);
    int n = ss->s ? sim_stage_count(ss->s) : 0;
    int extra = ss->desc.time_render ? 2 : 1;
    if (n > PROF_MAX_STAGES - extra) n = PROF_MAX_STAGES - extra;
    for (int i = 0; i < n; i++) ss->stage_names[i] = sim_stage_name(ss->s, i);
    ss->stages = n;
    ss->stage_sim = n;
    ss->stage_names[n] = "simulation";
    ss->stage_render = ss->desc.time_render ? n + 1 : -1;
    if (ss->desc.time_render) ss->stage_names[n + 1] = "render";
    ss->prof = prof_make(&(prof_desc){.names = ss->stage_names,
                                      .stages = n + extra,
                                      .window = 120, /* the HUD's rolling mean, median and p95 */
                                      .cpu_fallback = ss->desc.prof_cpu_fallback,
                                      .sync = ss->desc.prof_sync,
                                      .no_debug_groups = ss->desc.no_debug_groups},
                         ss->caps);
}

void session_sim_destroy(session *ss) {
    if (!ss->s) return;
    int before = gpu_live_objects();
    sim_destroy(ss->s);
    ss->s = NULL;
    int freed = before - gpu_live_objects();
    if (freed != ss->sim_objects) {
        log_error("APP", "GL object leak: sim_destroy freed %d objects, the sim had made %d", freed, ss->sim_objects);
        ss->status = 1;
    }
    ss->sim_objects = 0;
    if (ss->prof) _session_prof_remake(ss); /* its names may point into the sim that went */
}

bool session_sim_make(session *ss, const sim_desc *desc, char *err) {
    session_sim_destroy(ss);
    int before = gpu_live_objects();
    ss->s = sim_make(desc, ss->caps, err);
    if (!ss->s) return false;
    sim_warm(ss->s); /* the programs built before the first timed frame */
    ss->sim_objects = gpu_live_objects() - before;
    ss->particles = desc->particles;
    if (ss->desc.compare && !sim_set_compare(ss->s, &(sim_compare_desc){0}, err)) {
        session_sim_destroy(ss);
        return false;
    }
    ss->sim_objects = gpu_live_objects() - before; /* the compare's own objects count as the sim's */
    float lo[3], hi[3];
    sim_domain(ss->s, lo, hi);
    camera cam = ss->view.cam;
    app_view_frame(&ss->view.cam, lo, hi);
    if (fabsf(cam.size - ss->view.cam.size) < 1e-6f) ss->view.cam = cam; /* the same tank: keep the orbit and zoom */
    _session_prof_remake(ss);
    ss->sim_gen++;
    ss->tag_from = ss->hud_from = sim_frames_begun(ss->s); /* sim_warm's frames are nobody's */
    return true;
}

/* A live switch: the GL objects it makes or frees count as the sim's. */
static bool _session_switch(session *ss, bool (*set)(sim *, const char *, char *), const char *name, char *err) {
    int before = gpu_live_objects();
    if (!set(ss->s, name, err)) return false;
    ss->sim_objects += gpu_live_objects() - before;
    /* The HUD's steps a frame start again: the old solver's (or sort's) last frames are not the new one's. */
    ss->hud_from = sim_frames_begun(ss->s);
    ss->view.steps_per_frame = 0;
    _session_prof_remake(ss); /* the stage names follow the sort (counting: ranges=sort) and the solver */
    return true;
}
/* The sort's name resolved here, once, into the typed value the sim takes. */
static bool _session_sort(sim *s, const char *name, char *err) {
    const sort_algo *algo = sort_algo_find(name);
    return algo ? sim_set_sort(s, algo, err)
                : fail(err, "unknown sort '%s'; choose one of: %s", name ? name : "(none)", sort_algo_names());
}
bool session_set_sort(session *ss, const char *name, char *err) { return _session_switch(ss, _session_sort, name, err); }
bool session_set_solver(session *ss, const char *name, char *err) { return _session_switch(ss, sim_set_solver, name, err); }

bool session_make(session *ss, const session_desc *desc, char *err) {
    memset(ss, 0, sizeof *ss);
    ss->desc = *desc;
    session_desc_defaults(&ss->desc);
    const session_desc *d = &ss->desc;
    ss->fail_tag = "APP";
    if (!data_dir_init(d->data, err)) return false;
    ss->fail_tag = "GPU";
    ss->gpu = gpu_make(&(gpu_desc){.headless = d->headless,
                                   .width = d->width,
                                   .height = d->height,
                                   .title = "fluid",
                                   .vsync = d->vsync,
                                   .debug = d->debug},
                       err);
    if (!ss->gpu) {
        ss->fail_tag = "GPU";
        return false;
    }
    ss->caps = gpu_get_caps(ss->gpu);
    ss->fail_tag = "APP";
    ss->live0 = gpu_live_objects();
    /* The pictures' size against the GL limits and the memory, before anything is made. */
    bool ok = !d->render || app_size_check(d->width, d->height, d->video, err);
    if (ok && d->render) {
        ss->r = render_make(err);
        ss->h = ss->r ? hud_make(&(hud_desc){0}, err) : NULL;
        ok = ss->h != NULL;
    }
    uint32_t particles = d->particles;
    bool picked = !particles && d->software_particles && ss->caps->llvmpipe;
    if (picked) particles = d->software_particles;
    const sort_algo *sort = d->sort ? sort_algo_find(d->sort) : NULL; /* the edge: the sim takes the typed value */
    if (ok && !d->no_sim && d->sort && !sort) {
        ss->fail_tag = "SIM";
        ok = fail(err, "unknown sort '%s'; choose one of: %s", d->sort, sort_algo_names());
    } else if (ok && !d->no_sim) {
        ss->fail_tag = "SIM";
        ok = session_sim_make(
            ss,
            &(sim_desc){.scene = d->scene,
                        .particles = particles,
                        .sort = sort,
                        .solver = d->solver,
                        .diffuse = {.on = d->diffuse > 0 || (d->diffuse == 0 && d->render)},
                        .solver_descs = (const sim_solver_desc[]){{&sim_solver_dfsph, &(dfsph_desc){.strict = d->strict}}, {0}}},
            err);
    }
    if (!ok) {
        char keep[ERR_LEN];
        const char *tag = ss->fail_tag;
        snprintf(keep, sizeof keep, "%s", err ? err : "");
        session_destroy(ss);
        if (err) snprintf(err, ERR_LEN, "%s", keep);
        ss->fail_tag = tag;
        return false;
    }
    ss->fail_tag = NULL;
    if (picked && ss->s) { /* the count made (whole blocks), not the one asked for */
        const char *r = ss->caps->renderer, *paren = strstr(r, " (");
        snprintf(ss->notice, sizeof ss->notice,
                 "%.*s is a software renderer: %u particles, so that a second of fluid takes minutes, not hours "
                 "(--particles N to choose)",
                 paren ? (int)(paren - r) : (int)strlen(r), r, sim_particle_count(ss->s));
        log_info("CLI", "%s", ss->notice);
    }
    if (d->no_sim) _session_prof_remake(ss);
    else app_view_init(&ss->view, ss->s);
    ss->view.style = (render_style)d->style;
    ss->view.vsync = d->vsync;
    ss->view.headless = d->headless;
    return true;
}

bool session_destroy(session *ss) {
    session_sim_destroy(ss);
    hud_destroy(ss->h);
    render_destroy(ss->r);
    prof_destroy(ss->prof);
    if (ss->gpu && gpu_live_objects() != ss->live0) {
        log_error("APP", "GL object leak: %d objects alive at exit, %d at start", gpu_live_objects(), ss->live0);
        ss->status = 1;
    }
    gpu_destroy(ss->gpu);
    int status = ss->status;
    memset(ss, 0, sizeof *ss);
    ss->status = status;
    return status == 0;
}

int session_simulate(session *ss, double seconds, int substeps, unsigned timing, const volatile sig_atomic_t *stop) {
    bool sampled =
        (timing & SESSION_TIME_STAGES_SAMPLED) && (!sim_stage_note(ss->s) || ss->frames_run % SESSION_STAGE_SAMPLE == 0);
    gpu_prof *stages = (timing & SESSION_TIME_STAGES) || sampled ? ss->prof : NULL;
    if (seconds > 0) ss->frames_run++;
    int live = gpu_live_objects(); /* a solver may build a program on its first step: the sim's */
    if (timing & SESSION_TIME_FRAME) prof_begin(ss->prof, ss->stage_sim);
    int taken = 0;
    if (seconds <= 0) {
        sim_step(ss->s, stages);
        taken = 1;
    } else {
        /* Step by step, so a stop (Ctrl-C) ends a long frame after the step in progress; the frame
         * then ends with the steps it took. */
        int k = sim_frame_begin(ss->s, seconds, substeps);
        for (; taken < k && !(stop && *stop); taken++) sim_frame_step(ss->s, stages);
        sim_frame_end(ss->s);
    }
    if (timing & SESSION_TIME_FRAME) prof_end(ss->prof, ss->stage_sim);
    sim_run_compare(ss->s); /* its own stage, outside the frame's */
    ss->sim_objects += gpu_live_objects() - live;
    /* The HUD's steps a frame: those of the newest frame of fluid time (not a single step, not a
     * frame stopped before its first step) whose records are all back (a few frames late; kept while
     * none is), beside that frame's slots (DFSPH's past the frame's time run empty). Until session 37
     * it showed the steps whose records came back in this frame, several frames' or none, beside this
     * frame's slots. */
    if (seconds > 0)
        for (uint32_t f = sim_frames_begun(ss->s); f > ss->hud_from; f--) {
            sim_frame_counts c;
            int k = sim_frame_tally(ss->s, f, &c);
            if (k < 0) break;
            if (k == 1 && c.timed && c.slots > 0) {
                ss->view.steps_per_frame = (int)c.steps;
                ss->view.slots_per_frame = (int)c.slots;
                break;
            }
        }
    return taken;
}

void session_draw(session *ss, const render_target *target, int w, int h) {
    if (!ss->r) return;
    if (ss->stage_render >= 0) prof_begin(ss->prof, ss->stage_render);
    app_render_frame(ss->r, ss->h, ss->s, ss->prof, &ss->view, target, w, h, NULL);
    if (ss->stage_render >= 0) prof_end(ss->prof, ss->stage_render);
}

/* A profiler frame's tag: the sim (its sim_gen's low 8 bits) and the first and last of its frames
 * that began in that profiler frame (28 bits each: 52 days of frames at 60 a second). */
#define SESSION_TAG_BITS 28
#define SESSION_TAG_MASK ((1u << SESSION_TAG_BITS) - 1)

void session_frame_end(session *ss) {
    uint32_t now = ss->s ? sim_frames_begun(ss->s) : ss->tag_from;
    if (now > ss->tag_from)
        prof_tag(ss->prof, (uint64_t)(ss->sim_gen & 0xffu) << (2 * SESSION_TAG_BITS) |
                               (uint64_t)((ss->tag_from + 1) & SESSION_TAG_MASK) << SESSION_TAG_BITS | (now & SESSION_TAG_MASK));
    ss->tag_from = now;
    prof_frame(ss->prof);
}

void session_frames_untraced(session *ss) {
    if (ss->s) ss->tag_from = sim_frames_begun(ss->s);
}

/* trace_counters.frame_steps: the steps and iterations of the sim's frames a tag names. */
static int _session_frame_steps(const void *user, uint64_t tag, double *steps, double *iterations) {
    const session *ss = user;
    *steps = *iterations = 0;
    if (!tag) return 1; /* no sim frame began in it (a paused window) */
    if (!ss->s || (tag >> (2 * SESSION_TAG_BITS)) != (ss->sim_gen & 0xffu)) return -1; /* another sim's */
    uint32_t first = (uint32_t)(tag >> SESSION_TAG_BITS) & SESSION_TAG_MASK, last = (uint32_t)tag & SESSION_TAG_MASK;
    int done = 1;
    for (uint32_t f = first; f <= last; f++) {
        sim_frame_counts c;
        int k = sim_frame_tally(ss->s, f, &c);
        if (k < 0) return -1;
        done &= k;
        *steps += c.steps, *iterations += c.iterations;
    }
    return done;
}

void session_clock_rate(session *ss, int every) {
    sim_summary sum;
    if (!ss->s) return;
    sim_get_summary(ss->s, &sum);
    if (!sum.phase_steps || (every == SESSION_CLOCK_ONCE && ss->clock_frame)) return;
    /* from the last try, not the last success: a driver where it fails (0) is not asked every frame */
    if (every > 0 && (ss->frames_run < 30 || (ss->clock_frame && ss->frames_run - ss->clock_frame < (unsigned long)every)))
        return;
    ss->clock_frame = ss->frames_run ? ss->frames_run : 1;
    ss->view.phase_mhz = gpu_shader_clock_mhz(ss->caps);
}

void session_trace_counters(const session *ss, trace_counters *out) {
    sim_summary sum;
    sim_get_summary(ss->s, &sum);
    *out = (trace_counters){
        .particles = sim_particle_count(ss->s), .dt_ms = sum.dt_last * 1e3, .frame_steps = _session_frame_steps, .user = ss};
    out->phases = sim_phase_count(ss->s) <= TRACE_MAX_PHASES ? sim_phase_count(ss->s) : 0;
    out->phase_mhz = ss->view.phase_mhz;
    for (int k = 0; k < out->phases; k++) {
        out->phase_names[k] = sim_stage_name(ss->s, SIM_SEARCH_STAGES + k);
        out->phase_cycles[k] = sum.phase_cycles[k];
    }
}

bool session_set_compare(session *ss, bool on, char *err) {
    int before = gpu_live_objects();
    if (!sim_set_compare(ss->s, on ? &(sim_compare_desc){0} : NULL, err)) return false;
    ss->sim_objects += gpu_live_objects() - before;
    ss->desc.compare = on;
    return true;
}

static void _session_line(void *user, const char *text) { fprintf(user, "%s\n", text); }

void session_compare_print(session *ss, FILE *f) {
    sim_compare *c = ss->s ? sim_get_compare(ss->s) : NULL;
    if (!c) return;
    sim_compare_sync(c);
    sim_compare_report r;
    sim_compare_get(c, &r);
    sim_compare_print(&r, _session_line, f);
}
