/* particles: the shared particle buffers and the sim's shader and dispatch helpers. */
#include "sim/particles.h"
#include "core/env.h"
#include "core/util.h"
#include "gpu/shader.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint32_t sim_lanes_for(uint32_t capacity, uint32_t lanes4_upto, uint32_t lanes2_upto, const gpu_caps *caps) {
    if (strstr(caps->renderer, "llvmpipe") || strstr(caps->renderer, "softpipe")) return 1;
    return capacity <= lanes4_upto ? 4 : capacity <= lanes2_upto ? 2 : 1;
}

bool sim_lanes_resolve(uint32_t asked, uint32_t *lanes, char *err) {
    *lanes = asked;
    if (!*lanes && !env_u32(ENV_SIM_LANES, 1, 16, lanes, err)) return false;
    if (*lanes & (*lanes - 1) || *lanes > 16) {
        if (!asked)
            return fail(err, "%s=%u is not one of %s; fix or unset it", env_table[ENV_SIM_LANES].name, *lanes,
                        env_table[ENV_SIM_LANES].value);
        return fail(err, "%u lanes a particle; choose %s", *lanes, env_table[ENV_SIM_LANES].value);
    }
    return true;
}

bool sim_particles_make(sim_particles *p, uint32_t capacity, uint32_t lanes, int fast_asked, bool fast_default,
                        const sim_params *params, const gpu_caps *caps, char *err) {
    memset(p, 0, sizeof *p);
    p->capacity = capacity;
    p->lanes = lanes ? lanes : 1;
    p->reach = sim_cell_reach(params);
    uint32_t fast = fast_default;
    if (fast_asked) fast = fast_asked > 0;
    else if (!env_u32(ENV_SIM_FAST, 0, 1, &fast, err)) return false;
    p->fast = fast != 0;
    /* The lanes' sums by subgroup shuffles where a particle's lanes share a subgroup (lanes.glsl) */
    bool shuffle = p->lanes > 1 && caps->subgroup && caps->subgroup_size % p->lanes == 0 && SIM_WG % caps->subgroup_size == 0;
    snprintf(p->pass_defines, sizeof p->pass_defines,
             "%s#define SIM_LANES %u\n#define SIM_CELL_REACH %u\n#define SIM_FAST %u\n#define SIM_BRICKS %d\n",
             shuffle ? "#extension GL_KHR_shader_subgroup_basic : require\n#extension GL_KHR_shader_subgroup_shuffle : require\n"
                       "#define SIM_LANES_SHUFFLE 1\n"
                     : "",
             p->lanes, p->reach, fast, sim_bricked(params));
    size_t n = capacity ? capacity : 1;
    struct {
        GLuint *b;
        size_t size;
        const char *label;
    } all[] = {{&p->pos[0], 16 * n, "sim.pos0"}, {&p->pos[1], 16 * n, "sim.pos1"},
               {&p->vel[0], 16 * n, "sim.vel0"}, {&p->vel[1], 16 * n, "sim.vel1"},
               {&p->id[0], 4 * n, "sim.id0"},    {&p->id[1], 4 * n, "sim.id1"},
               {&p->dens, 4 * n, "sim.density"}, {&p->dens_prev, 4 * n, "sim.density_prev"}};
    p->params = gpu_buffer_make(sizeof *params, params, "sim.params", err);
    if (!p->params) return false;
    for (size_t i = 0; i < ARRAY_LEN(all); i++)
        if (!(*all[i].b = gpu_buffer_make(all[i].size, NULL, all[i].label, err))) {
            sim_particles_destroy(p);
            return false;
        }
    glClearNamedBufferData(p->dens_prev, GL_R32F, GL_RED, GL_FLOAT, &params->rho0); /* before any step made them */
    return true;
}

void sim_particles_destroy(sim_particles *p) {
    GLuint *all[] = {&p->params, &p->pos[0], &p->pos[1], &p->vel[0], &p->vel[1], &p->id[0], &p->id[1], &p->dens, &p->dens_prev};
    for (size_t i = 0; i < ARRAY_LEN(all); i++) gpu_buffer_destroy(all[i]);
}

void sim_particles_bind(const sim_particles *p) {
    glBindBufferBase(GL_UNIFORM_BUFFER, SIM_UBO_PARAMS, p->params);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_POS_IN, p->pos[p->cur]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_VEL_IN, p->vel[p->cur]);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_DENS, p->dens);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, SIM_B_DENS_PREV, p->dens_prev);
}

void sim_defines_write(const sim_define *defs, size_t count, char *out, size_t len) {
    size_t used = 0;
    out[0] = 0;
    for (size_t i = 0; i < count && used < len; i++)
        used += (size_t)snprintf(out + used, len - used, "#define %s %d\n", defs[i].name, defs[i].value);
}

void sim_shader_defines(char *out, size_t len) {
    static const sim_define defs[] = {
#define SIM_DEFINE_ROW(glsl, c) {#glsl, c},
        SIM_SHADER_CONSTANTS(SIM_DEFINE_ROW)
#undef SIM_DEFINE_ROW
    };
    sim_defines_write(defs, ARRAY_LEN(defs), out, len);
}

GLuint sim_program_make(const char *path, const char *defines, const char *label, char *err) {
    char all[16384];
    sim_shader_defines(all, sizeof all);
    if (defines && strlen(all) + strlen(defines) >= sizeof all) {
        fail(err, "SHADER: shaders/%s: its defines are longer than %zu bytes", path, sizeof all);
        return 0;
    }
    if (defines) strcat(all, defines);
    GLuint p = shader_make_compute(path, all, err);
    if (p) glObjectLabel(GL_PROGRAM, p, -1, label);
    return p;
}

void sim_dispatch_neighbours(const sim_particles *p, GLuint program) { sim_dispatch(program, p->n * p->lanes); }

static uint64_t _sim_dispatches; /* one GL context per process: a process-wide count */

uint64_t sim_dispatch_count(void) { return _sim_dispatches; }
void sim_dispatch_count_add(uint32_t k) { _sim_dispatches += k; }

void sim_dispatch_indirect(GLuint program, GLintptr offset) {
    glUseProgram(program);
    glDispatchComputeIndirect(offset);
    _sim_dispatches++;
}

void sim_dispatch(GLuint program, uint32_t threads) {
    if (!threads) return;
    _sim_dispatches++;
    glUseProgram(program);
    glDispatchCompute(gpu_groups(threads, SIM_WG), 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}
