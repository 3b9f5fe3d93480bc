/* compare: every sort of the registry on the same keys, live (see compare.h). */
#include "sim/compare.h"
#include "core/log.h"
#include "core/util.h"
#include "gpu/shader.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CMP_RING 4 /* frames of mismatch counts in flight */
#define CMP_WG 256

typedef struct _cmp_row {
    sorter *sorter;
    GLuint keys, vals; /* scratch: the copy, sorted in place or into the sorter's own */
    sort_pairs result;
} _cmp_row;

struct sim_compare {
    sim_compare_desc desc;
    sim_compare_report rep; /* names, skipped, counts; times filled by sim_compare_get */
    _cmp_row row[SIM_COMPARE_MAX];
    GLuint in_keys, in_vals;   /* the step's pairs before the driving sort */
    GLuint ref_keys, ref_vals; /* the driving sort's result */
    GLuint counts;             /* CMP_RING x SIM_COMPARE_MAX differing pairs */
    GLuint program;
    GLsync fence[CMP_RING];
    uint64_t ring_step[CMP_RING];
    int ring_head;
    gpu_prof *prof; /* stage 0 "compare", 1 + r the rows */
    const char *names[SIM_COMPARE_MAX + 1];
    bool armed, have_in, have_out;
    uint32_t n;
    uint64_t step;
};

static bool _cmp_buffers(GLuint *k, GLuint *v, uint32_t cap, const char *label, char *err) {
    char l[64];
    snprintf(l, sizeof l, "compare.%s.keys", label);
    if (!(*k = gpu_buffer_make(4ull * (cap ? cap : 1), NULL, l, err))) return false;
    snprintf(l, sizeof l, "compare.%s.vals", label);
    return (*v = gpu_buffer_make(4ull * (cap ? cap : 1), NULL, l, err)) != 0;
}

static void _cmp_skip(sim_compare *c, const char *name, const char *why) {
    if (c->rep.skipped >= SIM_COMPARE_MAX) return;
    sim_compare_skip *k = &c->rep.skip[c->rep.skipped++];
    snprintf(k->name, sizeof k->name, "%s", name);
    snprintf(k->why, sizeof k->why, "%s", why);
}

/* One row per distinct path; the driving sort's algorithm first, so that it names its path. */
static bool _cmp_rows(sim_compare *c, const gpu_caps *caps, char *err) {
    const sort_algo *order[16];
    int count = 0;
    order[count++] = c->desc.drive;
    for (int i = 0; i < sort_algo_count && count < 16; i++)
        if (sort_algos[i] != c->desc.drive) order[count++] = sort_algos[i];
    char paths[SIM_COMPARE_MAX][128];
    for (int i = 0; i < count; i++) {
        const sort_algo *a = order[i];
        if (a == &sort_algo_cpu) {
            _cmp_skip(c, a->name,
                      "reads the pairs back: it would stall the GPU every frame (the tests check every row "
                      "against a CPU sort of their own)");
            continue;
        }
        char serr[ERR_LEN], label[48];
        snprintf(label, sizeof label, "compare.%s", a->name);
        sorter *t =
            sort_make(a->name, &(sort_desc){.capacity = c->desc.capacity, .key_bits = c->desc.bits, .label = label}, caps, serr);
        if (!t) {
            _cmp_skip(c, a->name, serr);
            continue;
        }
        char path[128];
        sort_path(t, c->desc.capacity, c->desc.bits, path, sizeof path);
        int same = -1;
        for (int r = 0; r < c->rep.rows; r++)
            if (strcmp(paths[r], path) == 0) same = r;
        if (same >= 0) {
            sim_compare_row *row = &c->rep.row[same];
            size_t l = strlen(row->same);
            snprintf(row->same + l, sizeof row->same - l, "%s%s", l ? ", " : "", a->name);
            log_info("COMPARE", "%s: the same path as %s here; run once", a->name, row->name);
            sort_destroy(t);
            continue;
        }
        if (c->rep.rows >= SIM_COMPARE_MAX) {
            sort_destroy(t);
            break;
        }
        int r = c->rep.rows++;
        sim_compare_row *row = &c->rep.row[r];
        snprintf(paths[r], sizeof paths[r], "%s", path);
        snprintf(row->name, sizeof row->name, "%s", a->name);
        sort_describe(t, c->desc.capacity, c->desc.bits, row->path, sizeof row->path);
        row->drives = a == c->desc.drive;
        c->row[r].sorter = t;
        c->names[1 + r] = sort_get_algo(t)->name;
        if (!_cmp_buffers(&c->row[r].keys, &c->row[r].vals, c->desc.capacity, a->name, err)) return false;
    }
    return true;
}

sim_compare *sim_compare_make(const sim_compare_desc *desc, const gpu_caps *caps, char *err) {
    sim_compare *c = calloc(1, sizeof *c);
    c->desc = *desc;
    if (!c->desc.drive) c->desc.drive = sort_algos[0];
    if (!c->desc.window) c->desc.window = 120;
    c->names[0] = "compare";
    bool ok = _cmp_buffers(&c->in_keys, &c->in_vals, desc->capacity, "in", err) &&
              _cmp_buffers(&c->ref_keys, &c->ref_vals, desc->capacity, "drive", err) &&
              (c->counts = gpu_buffer_make(4 * CMP_RING * SIM_COMPARE_MAX, NULL, "compare.counts", err)) &&
              (c->program = shader_make_compute("sim/compare.comp", NULL, err)) && _cmp_rows(c, caps, err);
    if (!ok) {
        sim_compare_destroy(c);
        return NULL;
    }
    c->prof = prof_make(
        &(prof_desc){.names = c->names, .stages = 1 + c->rep.rows, .window = c->desc.window, .cpu_fallback = true}, caps);
    return c;
}

void sim_compare_destroy(sim_compare *c) {
    if (!c) return;
    for (int i = 0; i < CMP_RING; i++)
        if (c->fence[i]) glDeleteSync(c->fence[i]);
    for (int r = 0; r < SIM_COMPARE_MAX; r++) {
        if (c->row[r].sorter) sort_destroy(c->row[r].sorter);
        gpu_buffer_destroy(&c->row[r].keys);
        gpu_buffer_destroy(&c->row[r].vals);
    }
    GLuint *all[] = {&c->in_keys, &c->in_vals, &c->ref_keys, &c->ref_vals, &c->counts};
    for (size_t i = 0; i < ARRAY_LEN(all); i++) gpu_buffer_destroy(all[i]);
    shader_destroy(&c->program);
    if (c->prof) prof_destroy(c->prof);
    free(c);
}

void sim_compare_arm(sim_compare *c, uint64_t step) {
    c->armed = true;
    c->have_in = c->have_out = false;
    c->step = step;
}

static void _cmp_copy(GLuint from_k, GLuint from_v, GLuint to_k, GLuint to_v, uint32_t n) {
    if (!n) return;
    glCopyNamedBufferSubData(from_k, to_k, 0, 0, 4ll * n);
    glCopyNamedBufferSubData(from_v, to_v, 0, 0, 4ll * n);
}

void sim_compare_take_input(sim_compare *c, sort_pairs in, uint32_t n) {
    if (!c->armed || c->have_in) return;
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    _cmp_copy(in.keys, in.vals, c->in_keys, c->in_vals, n);
    c->n = n;
    c->have_in = true;
}

void sim_compare_take_output(sim_compare *c, sort_pairs out, uint32_t n) {
    if (!c->armed || !c->have_in || c->have_out || n != c->n) return;
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    _cmp_copy(out.keys, out.vals, c->ref_keys, c->ref_vals, n);
    c->have_out = true;
    c->armed = false;
}

/* The counts of ring slot i, once its fence has passed (wait: until it has). */
static void _cmp_collect(sim_compare *c, int i, bool wait) {
    if (!c->fence[i]) return;
    GLenum st = glClientWaitSync(c->fence[i], 0, wait ? 10000000000ull : 0);
    if (st != GL_ALREADY_SIGNALED && st != GL_CONDITION_SATISFIED) return;
    glDeleteSync(c->fence[i]);
    c->fence[i] = 0;
    uint32_t got[SIM_COMPARE_MAX];
    glGetNamedBufferSubData(c->counts, 4ll * i * SIM_COMPARE_MAX, sizeof got, got);
    c->rep.frames_checked++;
    for (int r = 0; r < c->rep.rows; r++) {
        if (!got[r]) continue;
        sim_compare_row *row = &c->rep.row[r];
        row->mismatches += got[r];
        row->bad_frames++;
        row->last_bad_step = c->ring_step[i];
        row->last_bad_count = got[r];
        snprintf(c->rep.warning, sizeof c->rep.warning, "%s disagrees with the driving sort (%s) at step %llu: %u pairs differ",
                 row->name, c->desc.drive->name, (unsigned long long)c->ring_step[i], got[r]);
        log_warn("COMPARE", "%s", c->rep.warning);
    }
}

void sim_compare_frame(sim_compare *c) {
    for (int i = 0; i < CMP_RING; i++) _cmp_collect(c, i, false);
    if (!c->have_out) return; /* no step this frame */
    c->have_in = c->have_out = false;
    int slot = c->ring_head;
    c->ring_head = (slot + 1) % CMP_RING;
    _cmp_collect(c, slot, true); /* four frames late at most: it has passed long ago */
    uint32_t zero = 0, n = c->n, bits = c->desc.bits;
    c->rep.frames_captured++;
    c->ring_step[slot] = c->step;
    prof_begin(c->prof, 0);
    glClearNamedBufferSubData(c->counts, GL_R32UI, 4ll * slot * SIM_COMPARE_MAX, 4 * SIM_COMPARE_MAX, GL_RED_INTEGER,
                              GL_UNSIGNED_INT, &zero);
    for (int r = 0; r < c->rep.rows; r++) {
        _cmp_row *w = &c->row[r];
        _cmp_copy(c->in_keys, c->in_vals, w->keys, w->vals, n);
        prof_begin(c->prof, 1 + r);
        w->result = sort_run(w->sorter, (sort_pairs){w->keys, w->vals}, n, bits, NULL);
        prof_end(c->prof, 1 + r);
        if (c->desc.test_corrupt && strcmp(c->desc.test_corrupt, c->rep.row[r].name) == 0 && n) {
            uint32_t bad = 0xFFFFFFFFu; /* no key of `bits` < 32 */
            glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
            glNamedBufferSubData(w->result.keys, 4ll * (n / 2), 4, &bad);
        }
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
        glUseProgram(c->program);
        GLuint bind[5] = {c->ref_keys, c->ref_vals, w->result.keys, w->result.vals, c->counts};
        for (int b = 0; b < 5; b++) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, b, bind[b]);
        glUniform1ui(0, n);
        glUniform1ui(1, (GLuint)(slot * SIM_COMPARE_MAX + r));
        if (n) glDispatchCompute((n + CMP_WG - 1) / CMP_WG, 1, 1);
    }
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT | GL_SHADER_STORAGE_BARRIER_BIT);
    prof_end(c->prof, 0);
    c->fence[slot] = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    glFlush();
    prof_frame(c->prof);
}

void sim_compare_sync(sim_compare *c) {
    for (int k = 1; k <= CMP_RING; k++) _cmp_collect(c, (c->ring_head + k) % CMP_RING, true);
}

void sim_compare_get(const sim_compare *c, sim_compare_report *out) {
    *out = c->rep;
    out->clock = prof_clock_name(c->prof);
    double mean;
    out->timed = prof_stats(c->prof, 0, &mean, &out->stage_median_us, &out->stage_p95_us);
    double fastest = INFINITY;
    for (int r = 0; r < out->rows; r++) {
        sim_compare_row *row = &out->row[r];
        row->timed = prof_stats(c->prof, 1 + r, &mean, &row->median_us, &row->p95_us);
        if (row->timed && row->median_us < fastest) fastest = row->median_us;
    }
    for (int r = 0; r < out->rows; r++)
        out->row[r].ratio = out->row[r].timed && fastest > 0 && isfinite(fastest) ? out->row[r].median_us / fastest : NAN;
}

const sim_compare_desc *sim_compare_get_desc(const sim_compare *c) { return &c->desc; }
sort_pairs sim_compare_input(const sim_compare *c) { return (sort_pairs){c->in_keys, c->in_vals}; }
sort_pairs sim_compare_result(const sim_compare *c, int row) { return c->row[row].result; }
sort_pairs sim_compare_driving(const sim_compare *c) { return (sort_pairs){c->ref_keys, c->ref_vals}; }

static void _cmp_time(double us, bool ok, char *out, size_t len) {
    if (!ok || !isfinite(us)) snprintf(out, len, "-");
    else if (us >= 1000) snprintf(out, len, "%.3g ms", us / 1000);
    else snprintf(out, len, "%.3g us", us);
}

void sim_compare_print(const sim_compare_report *r, void (*line)(void *user, const char *text), void *user) {
    char t[512], med[32], p95[32];
    _cmp_time(r->stage_median_us, r->timed, med, sizeof med);
    _cmp_time(r->stage_p95_us, r->timed, p95, sizeof p95);
    snprintf(t, sizeof t, "sorts on the same keys (%s clock; %llu frames checked; the compare stage: median %s, p95 %s a frame)",
             r->clock, (unsigned long long)r->frames_checked, med, p95);
    line(user, t);
    snprintf(t, sizeof t, "  %-10s %10s %10s %8s %10s  %s", "sort", "median", "p95", "x fastest", "mismatches", "notes");
    line(user, t);
    for (int i = 0; i < r->rows; i++) {
        const sim_compare_row *w = &r->row[i];
        char ratio[16], note[160] = "";
        _cmp_time(w->median_us, w->timed, med, sizeof med);
        _cmp_time(w->p95_us, w->timed, p95, sizeof p95);
        snprintf(ratio, sizeof ratio, w->timed && isfinite(w->ratio) ? "%.2f" : "-", w->ratio);
        if (w->drives) snprintf(note, sizeof note, "drives the fluid");
        if (w->same[0]) {
            size_t l = strlen(note);
            snprintf(note + l, sizeof note - l, "%s%s: the same path as %s here", l ? "; " : "", w->same, w->name);
        }
        snprintf(t, sizeof t, "  %-10s %10s %10s %8s %10llu  %s", w->name, med, p95, ratio, (unsigned long long)w->mismatches,
                 note);
        line(user, t);
    }
    for (int i = 0; i < r->skipped; i++) {
        snprintf(t, sizeof t, "  %-10s skipped: %s", r->skip[i].name, r->skip[i].why);
        line(user, t);
    }
    if (r->warning[0]) {
        snprintf(t, sizeof t, "  warning: %s", r->warning);
        line(user, t);
    }
}
