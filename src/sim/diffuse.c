/* diffuse: spray, foam and bubbles from the fluid, once a frame (see diffuse.h). */
#include "sim/diffuse.h"
#include "core/log.h"
#include "core/util.h"
#include "gpu/shader.h"
#include "sim/particles.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Work-group size of every pass and their bindings (after the solver's range, SIM_B_SOLVER +
 * SIM_B_SOLVER_COUNT: the passes run between frames, but nothing of the solver's is disturbed). */
#define DIFFUSE_WG 256
#define DIFFUSE_B_PARTS_IN 22
#define DIFFUSE_B_PARTS_OUT 23
#define DIFFUSE_B_STATE 24
#define DIFFUSE_B_COUNTS 25
#define DIFFUSE_B_NORMALS 26
#define DIFFUSE_B_DEBUG 27 /* the tests' potentials (sim_diffuse_potentials) */
_Static_assert(DIFFUSE_B_PARTS_IN >= SIM_B_SOLVER + SIM_B_SOLVER_COUNT, "the diffuse bindings follow the solver's");

/* The model (Ihmsen et al. 2012's, in this fluid's units; docs/RENDER.md "Diffuse particles"):
 * the potentials' thresholds (tau), the spawn rates a second (k), the classification and motion. */
#define DIFFUSE_SHADER_FLOATS(X)                                                                                                 \
    X(DIFFUSE_SURFACE_GRAD, 0.03) /* |colour-field gradient| from which a particle is on the surface (a flat one's: 0.067) */    \
    X(DIFFUSE_TAU_K_LO, 0.05)     /* kinetic energy a kilogram, in U^2 (U = sqrt(g tank height): the scene's speed) */           \
    X(DIFFUSE_TAU_K_HI, 0.4)                                                                                                     \
    X(DIFFUSE_TAU_TA_LO, 0.75) /* trapped air (a sum over the neighbours), in U */                                               \
    X(DIFFUSE_TAU_TA_HI, 2.0)                                                                                                    \
    X(DIFFUSE_TAU_WC_LO, 0.5) /* wave crest (a sum over the neighbours) */                                                       \
    X(DIFFUSE_TAU_WC_HI, 4.0)                                                                                                    \
    X(DIFFUSE_K_TA, 20.0) /* new ones a second of a particle at full potential */                                                \
    X(DIFFUSE_K_WC, 40.0)                                                                                                        \
    X(DIFFUSE_CREST_VN, 0.6)     /* v^ . n^ from which a surface particle is a crest */                                          \
    X(DIFFUSE_K_BUOYANCY, 2.0)   /* a bubble's buoyancy, in g */                                                                 \
    X(DIFFUSE_DRAG_TIME, 0.024)  /* seconds over which a bubble's slip to the fluid drops to 1/e (halved in 1/60 s) */           \
    X(DIFFUSE_WALL_LIFE, 0.1)    /* seconds spray with no fluid neighbour lives on after it meets a wall or the floor */         \
    X(DIFFUSE_SPAWN_R, 0.5)      /* the spawn cylinder's radius, in h */                                                         \
    X(DIFFUSE_SPAWN_SPREAD, 0.1) /* a new one's velocity across the fluid's, in its speed */                                     \
    X(DIFFUSE_LIFE_MIN, 0.4)     /* a new one's shortest lifetime, in the longest (sim_diffuse_desc.lifetime) */
#define DIFFUSE_SHADER_INTS(X)                                                                                                   \
    X(DIFFUSE_WG)                                                                                                                \
    X(DIFFUSE_B_PARTS_IN)                                                                                                        \
    X(DIFFUSE_B_PARTS_OUT)                                                                                                       \
    X(DIFFUSE_B_STATE) X(DIFFUSE_B_COUNTS) X(DIFFUSE_B_NORMALS) X(DIFFUSE_B_DEBUG) X(DIFFUSE_KIND_SPRAY) X(DIFFUSE_KIND_FOAM)    \
        X(DIFFUSE_KIND_BUBBLE) X(DIFFUSE_MAX_SPAWN) X(DIFFUSE_SPRAY_BELOW) X(DIFFUSE_BUBBLE_ABOVE)
#define DIFFUSE_MAX_SPAWN 8     /* new ones a fluid particle makes a frame, at most */
#define DIFFUSE_SPRAY_BELOW 6   /* fluid neighbours within h below which a diffuse particle is spray */
#define DIFFUSE_BUBBLE_ABOVE 20 /* above which it is a bubble (between: foam) */

/* The state block (uints; twin: ST_* in diffuse_common.glsl). */
enum { ST_ALIVE = 3, ST_KIND = 4, ST_SPAWNED = 7, ST_DROPPED = 8, ST_DROPPED_LO = 9, ST_DROPPED_HI = 10, ST_FRAMES = 11 };
#define ST_GROUPS 16
#define DIFFUSE_STAGING 3 /* read-backs in flight for the HUD's counts */

enum { PASS_NORMALS, PASS_POTENTIALS, PASS_ADVECT, PASS_SCAN, PASS_SCATTER, PASS_COUNT };
static const char *const _diffuse_shaders[PASS_COUNT] = {"sim/diffuse/normals.comp", "sim/diffuse/potentials.comp",
                                                         "sim/diffuse/advect.comp", "sim/diffuse/scan.comp",
                                                         "sim/diffuse/scatter.comp"};

struct sim_diffuse {
    GLuint prog[PASS_COUNT];
    GLuint parts[2]; /* ping-pong: [cur] holds the alive ones */
    int cur;
    GLuint state, counts, normals;
    uint32_t capacity, slots, n, groups; /* slots: capacity rounded up to DIFFUSE_WG */
    uint32_t frame;                      /* frames updated (the hash's seed) */
    float lifetime;                      /* the longest, seconds */
    float speed;                         /* U = sqrt(|g| tank height), m/s: the potentials' scale */
    bool off;                            /* switched off (sim_set_diffuse_shown) */
    GLuint staging[DIFFUSE_STAGING];
    GLsync fence[DIFFUSE_STAGING];
    uint32_t staged; /* copies made */
    sim_diffuse_counts last;
    uint64_t dispatches;
};

uint32_t sim_diffuse_capacity(uint32_t n) {
    uint32_t c = n / 2;
    return c < 4096 ? 4096 : c > (1u << 20) ? (1u << 20) : c;
}

static void _diffuse_defines(char *out, size_t len) {
    size_t used = 0;
#define DIFFUSE_FLOAT_ROW(name, value)                                                                                           \
    if (used < len) used += (size_t)snprintf(out + used, len - used, "#define %s %.9g\n", #name, (double)(value));
#define DIFFUSE_INT_ROW(name)                                                                                                    \
    if (used < len) used += (size_t)snprintf(out + used, len - used, "#define %s %d\n", #name, (int)(name));
    DIFFUSE_SHADER_FLOATS(DIFFUSE_FLOAT_ROW)
    DIFFUSE_SHADER_INTS(DIFFUSE_INT_ROW)
#undef DIFFUSE_FLOAT_ROW
#undef DIFFUSE_INT_ROW
}

sim_diffuse *sim_diffuse_make(const sim_diffuse_desc *desc, uint32_t fluid_particles, char *err) {
    GLint bindings = 0;
    glGetIntegerv(GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS, &bindings);
    if (bindings <= DIFFUSE_B_DEBUG) {
        fail(err, "diffuse particles need %d shader-storage bindings, this GPU has %d; turn them off (--no-diffuse)",
             DIFFUSE_B_DEBUG + 1, bindings);
        return NULL;
    }
    sim_diffuse *d = calloc(1, sizeof *d);
    d->capacity = desc->capacity ? desc->capacity : sim_diffuse_capacity(fluid_particles);
    d->slots = (d->capacity + DIFFUSE_WG - 1) / DIFFUSE_WG * DIFFUSE_WG;
    d->n = fluid_particles;
    d->lifetime = desc->lifetime > 0 ? desc->lifetime : SIM_DIFFUSE_LIFETIME;
    d->groups = d->slots / DIFFUSE_WG + (fluid_particles + DIFFUSE_WG - 1) / DIFFUSE_WG;
    char defines[2048];
    _diffuse_defines(defines, sizeof defines);
    bool ok = true;
    for (int i = 0; i < PASS_COUNT && ok; i++)
        ok = (d->prog[i] = sim_program_make(_diffuse_shaders[i], defines, _diffuse_shaders[i], err)) != 0;
    size_t parts = (size_t)d->slots * 32;
    if (ok) ok = (d->parts[0] = gpu_buffer_make(parts, NULL, "diffuse-particles-0", err)) != 0;
    if (ok) ok = (d->parts[1] = gpu_buffer_make(parts, NULL, "diffuse-particles-1", err)) != 0;
    if (ok) ok = (d->state = gpu_buffer_make(((size_t)ST_GROUPS + d->groups) * 4, NULL, "diffuse-state", err)) != 0;
    if (ok) ok = (d->counts = gpu_buffer_make(((size_t)d->slots + fluid_particles) * 4, NULL, "diffuse-counts", err)) != 0;
    if (ok) ok = (d->normals = gpu_buffer_make((size_t)fluid_particles * 16 + 16, NULL, "diffuse-normals", err)) != 0;
    for (int i = 0; i < DIFFUSE_STAGING && ok; i++)
        ok = (d->staging[i] = gpu_buffer_make(ST_GROUPS * 4, NULL, "diffuse-counts-read", err)) != 0;
    if (!ok) {
        sim_diffuse_destroy(d);
        return NULL;
    }
    sim_diffuse_clear(d);
    return d;
}

void sim_diffuse_destroy(sim_diffuse *d) {
    if (!d) return;
    for (int i = 0; i < PASS_COUNT; i++) shader_destroy(&d->prog[i]);
    gpu_buffer_destroy(&d->parts[0]);
    gpu_buffer_destroy(&d->parts[1]);
    gpu_buffer_destroy(&d->state);
    gpu_buffer_destroy(&d->counts);
    gpu_buffer_destroy(&d->normals);
    for (int i = 0; i < DIFFUSE_STAGING; i++) {
        gpu_buffer_destroy(&d->staging[i]);
        if (d->fence[i]) glDeleteSync(d->fence[i]);
    }
    free(d);
}

void sim_diffuse_clear(sim_diffuse *d) {
    if (!d) return;
    GLuint zero = 0;
    glClearNamedBufferData(d->state, GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    d->frame = 0;
    for (int i = 0; i < DIFFUSE_STAGING; i++)
        if (d->fence[i]) glDeleteSync(d->fence[i]), d->fence[i] = 0;
    d->staged = 0;
    d->last = (sim_diffuse_counts){.capacity = d->capacity};
}

static void _diffuse_run(sim_diffuse *d, int pass, uint32_t groups, float dt) {
    glUseProgram(d->prog[pass]);
    if (pass == PASS_POTENTIALS) glUniform1i(5, 0); /* u_debug, the potentials' only */
    glUniform1f(0, dt);
    glUniform1ui(1, d->frame);
    glUniform1ui(2, d->capacity);
    glUniform1ui(3, d->slots);
    glUniform1ui(4, d->groups);
    if (pass == PASS_POTENTIALS) glUniform1f(6, d->speed);
    if (pass == PASS_SCATTER) glUniform1f(7, d->lifetime);
    glDispatchCompute(groups, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    d->dispatches++;
}

static void _diffuse_bind(sim_diffuse *d, const sim_particles *p, GLuint ranges, const sim_params *params) {
    const float *g = params->gravity;
    d->speed = sqrtf(sqrtf(g[0] * g[0] + g[1] * g[1] + g[2] * g[2]) * (params->hi[1] - params->lo[1]));
    sim_particles_bind(p);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_RANGES, ranges);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_ID_IN, p->id[p->cur]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, DIFFUSE_B_PARTS_IN, d->parts[d->cur]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, DIFFUSE_B_PARTS_OUT, d->parts[1 - d->cur]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, DIFFUSE_B_STATE, d->state);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, DIFFUSE_B_COUNTS, d->counts);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, DIFFUSE_B_NORMALS, d->normals);
}

void sim_diffuse_update(sim_diffuse *d, const sim_particles *p, GLuint ranges, const sim_params *params, double seconds) {
    if (!d || d->off || seconds <= 0 || p->n != d->n) return;
    float dt = (float)seconds;
    _diffuse_bind(d, p, ranges, params);
    GLuint zero = 0; /* the kinds' counts, summed by the advection */
    glClearNamedBufferSubData(d->state, GL_R32UI, ST_KIND * 4, 12, GL_RED_INTEGER, GL_UNSIGNED_INT, &zero);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    uint32_t fluid_groups = (d->n + DIFFUSE_WG - 1) / DIFFUSE_WG;
    _diffuse_run(d, PASS_NORMALS, fluid_groups, dt);
    _diffuse_run(d, PASS_POTENTIALS, fluid_groups, dt);
    _diffuse_run(d, PASS_ADVECT, d->slots / DIFFUSE_WG, dt);
    _diffuse_run(d, PASS_SCAN, 1, dt);
    _diffuse_run(d, PASS_SCATTER, d->groups, dt);
    glMemoryBarrier(GL_COMMAND_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
    d->cur = 1 - d->cur;
    d->frame++;
    /* the counts, copied for a read that does not wait (sim_read_diffuse) */
    int k = (int)(d->staged % DIFFUSE_STAGING);
    if (d->fence[k]) glDeleteSync(d->fence[k]);
    glCopyNamedBufferSubData(d->state, d->staging[k], 0, 0, ST_GROUPS * 4);
    d->fence[k] = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
    d->staged++;
}

static void _diffuse_counts_from(sim_diffuse *d, const uint32_t *st) {
    d->last = (sim_diffuse_counts){.known = true,
                                   .spray = st[ST_KIND + DIFFUSE_KIND_SPRAY],
                                   .foam = st[ST_KIND + DIFFUSE_KIND_FOAM],
                                   .bubble = st[ST_KIND + DIFFUSE_KIND_BUBBLE],
                                   .alive = st[ST_ALIVE],
                                   .spawned = st[ST_SPAWNED],
                                   .dropped = st[ST_DROPPED],
                                   .dropped_total = (uint64_t)st[ST_DROPPED_HI] << 32 | st[ST_DROPPED_LO],
                                   .frames = st[ST_FRAMES],
                                   .capacity = d->capacity};
}

bool sim_diffuse_read(sim_diffuse *d, sim_diffuse_counts *out, bool wait) {
    *out = (sim_diffuse_counts){0};
    if (!d) return false;
    uint32_t st[ST_GROUPS];
    if (wait) {
        if (d->staged == 0 || d->off) {
            *out = d->last;
            return true;
        }
        glGetNamedBufferSubData(d->state, 0, sizeof st, st);
        _diffuse_counts_from(d, st);
    } else {
        /* the newest copy the GPU has finished */
        for (uint32_t back = 0; back < DIFFUSE_STAGING && back < d->staged; back++) {
            int k = (int)((d->staged - 1 - back) % DIFFUSE_STAGING);
            if (!d->fence[k]) continue;
            GLenum r = glClientWaitSync(d->fence[k], 0, 0);
            if (r != GL_ALREADY_SIGNALED && r != GL_CONDITION_SATISFIED) continue;
            glGetNamedBufferSubData(d->staging[k], 0, sizeof st, st);
            _diffuse_counts_from(d, st);
            break;
        }
    }
    *out = d->last;
    return true;
}

void sim_diffuse_get_view(const sim_diffuse *d, sim_diffuse_view *out) {
    *out = (sim_diffuse_view){0};
    if (!d) return;
    *out = (sim_diffuse_view){.particles = d->parts[d->cur], .state = d->state, .capacity = d->capacity, .shown = !d->off};
}

void sim_diffuse_show(sim_diffuse *d, bool on) {
    if (!d || d->off == !on) return;
    d->off = !on;
    sim_diffuse_clear(d);
}

/* ---- tests ---- */

void sim_diffuse_buffers(const sim_diffuse *d, GLuint out[2], uint32_t *slots) {
    out[0] = d ? d->parts[0] : 0, out[1] = d ? d->parts[1] : 0;
    *slots = d ? d->slots : 0;
}

bool sim_diffuse_potentials(sim_diffuse *d, const sim_particles *p, GLuint ranges, const sim_params *params, float dt,
                            float *out4, char *err) {
    if (!d) return fail(err, "this simulation has no diffuse particles (sim_desc.diffuse.on)");
    uint32_t n = p->n;
    GLuint dbg = gpu_buffer_make((size_t)n * 16, NULL, "diffuse-debug", err);
    if (!dbg) return false;
    _diffuse_bind(d, p, ranges, params);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, DIFFUSE_B_DEBUG, dbg);
    uint32_t groups = (n + DIFFUSE_WG - 1) / DIFFUSE_WG;
    _diffuse_run(d, PASS_NORMALS, groups, dt);
    glUseProgram(d->prog[PASS_POTENTIALS]);
    glUniform1f(0, dt);
    glUniform1ui(1, d->frame);
    glUniform1ui(2, d->capacity);
    glUniform1ui(3, d->slots);
    glUniform1ui(4, d->groups);
    glUniform1i(5, 1);
    glUniform1f(6, d->speed);
    glDispatchCompute(groups, 1, 1);
    glMemoryBarrier(GL_ALL_BARRIER_BITS);
    float *cur = malloc((size_t)n * 16);
    uint32_t *ids = malloc((size_t)n * 4);
    glGetNamedBufferSubData(dbg, 0, (GLsizeiptr)n * 16, cur);
    glGetNamedBufferSubData(p->id[p->cur], 0, (GLsizeiptr)n * 4, ids);
    bool ok = true;
    for (uint32_t i = 0; i < n && ok; i++) {
        if (ids[i] >= n) ok = fail(err, "particle id %u out of range", ids[i]);
        else memcpy(out4 + 4 * (size_t)ids[i], cur + 4 * (size_t)i, 16);
    }
    free(cur);
    free(ids);
    gpu_buffer_destroy(&dbg);
    return ok;
}

void sim_diffuse_advect(sim_diffuse *d, const sim_particles *p, GLuint ranges, const sim_params *params, float dt) {
    if (!d || p->n != d->n) return;
    _diffuse_bind(d, p, ranges, params);
    _diffuse_run(d, PASS_ADVECT, d->slots / DIFFUSE_WG, dt);
}
