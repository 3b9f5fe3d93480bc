/* C <-> GLSL layouts, read back from the driver: small programs built from the real shared GLSL
 * headers and the real HUD and DFSPH shaders (integrate.comp, density.comp) are asked, through program-interface reflection
 * (glGetProgramResourceiv with GL_OFFSET, GL_BUFFER_DATA_SIZE, GL_TOP_LEVEL_ARRAY_STRIDE,
 * GL_BUFFER_BINDING, GL_LOCATION), where every member went, and that is compared with offsetof
 * and the C constants. Two swapped floats in sim_params, a member added on one side only, or a
 * binding point out of step, each fail it.
 *
 * Each C<->GLSL contract is one table below: a member or a constant added on both sides is one
 * line here (MEMBER(struct, field) or a { "name", C_VALUE } pair). Every member the driver reports
 * must be in the table, and every line of the table must be reported.
 * Needs GL 4.5 (program interface queries are 4.3); skips (77) without it.
 */
#include "check.h"
#include "gpu/shader.h"
#include "render/render_common.h"
#include "sim/dfsph/dfsph_layout.h"
#include "sim/particles.h"
#include "sim/sim_params.h"
#include "sort/sort_layout.h"
#include <string.h>
#include <sys/stat.h>

typedef struct layout_member {
    const char *name; /* the GLSL member */
    size_t offset;    /* offsetof of its C twin */
    bool optional;    /* may be inactive (padding the shader never reads) */
} layout_member;
#define MEMBER(type, field)                                                                                                      \
    { #field, offsetof(type, field), false }
#define PADDING(type, field, glsl)                                                                                               \
    { glsl, offsetof(type, field), true }

/* SimParams in shaders/sim/sim_common.glsl <-> struct sim_params in src/sim/sim_params.h. */
static const layout_member _sim_params_members[] = {
    MEMBER(sim_params, lo),
    MEMBER(sim_params, hi),
    MEMBER(sim_params, dims),
    MEMBER(sim_params, gravity),
    MEMBER(sim_params, poke),
    MEMBER(sim_params, brick),
    MEMBER(sim_params, n),
    MEMBER(sim_params, h),
    MEMBER(sim_params, cell),
    MEMBER(sim_params, inv_cell),
    MEMBER(sim_params, hs),
    MEMBER(sim_params, mass),
    MEMBER(sim_params, rho0),
    MEMBER(sim_params, tait_b),
    MEMBER(sim_params, c0),
    MEMBER(sim_params, alpha),
    MEMBER(sim_params, dt),
    MEMBER(sim_params, margin),
    MEMBER(sim_params, restitution),
    MEMBER(sim_params, poke_strength),
    MEMBER(sim_params, wall_friction),
    MEMBER(sim_params, dx),
};

/* DfsphParams in shaders/sim/dfsph/dfsph_common.glsl <-> struct dfsph_gpu_params in
 * src/sim/dfsph/dfsph_layout.h: DFSPH's own uniform block. */
static const layout_member _dfsph_params_members[] = {
    MEMBER(dfsph_gpu_params, dt_max),
    MEMBER(dfsph_gpu_params, dt_min),
    MEMBER(dfsph_gpu_params, cfl),
    MEMBER(dfsph_gpu_params, eta_density),
    MEMBER(dfsph_gpu_params, eta_divergence),
    MEMBER(dfsph_gpu_params, min_it_density),
    MEMBER(dfsph_gpu_params, min_it_divergence),
    MEMBER(dfsph_gpu_params, min_neighbours),
    MEMBER(dfsph_gpu_params, dt_visc),
    MEMBER(dfsph_gpu_params, dt_press),
    MEMBER(dfsph_gpu_params, tail_groups),
    MEMBER(dfsph_gpu_params, debt_share),
};

/* Ctl in shaders/sim/dfsph/dfsph_common.glsl <-> struct dfsph_ctl in src/sim/dfsph/dfsph_layout.h;
 * one line a member (arrays by their first element), so a member added on both sides is one line. */
static const layout_member _dfsph_ctl_members[] = {
    MEMBER(dfsph_ctl, args_div),
    MEMBER(dfsph_ctl, args_dens),
    MEMBER(dfsph_ctl, args_step),
    MEMBER(dfsph_ctl, args_coarse),
    MEMBER(dfsph_ctl, args_coarse_apply),
    MEMBER(dfsph_ctl, args_tail),
    MEMBER(dfsph_ctl, args_np),
    MEMBER(dfsph_ctl, t_rem),
    MEMBER(dfsph_ctl, steps_left),
    MEMBER(dfsph_ctl, dt),
    MEMBER(dfsph_ctl, dt_cfl),
    MEMBER(dfsph_ctl, done),
    MEMBER(dfsph_ctl, iter),
    MEMBER(dfsph_ctl, it_div),
    MEMBER(dfsph_ctl, it_dens),
    MEMBER(dfsph_ctl, err_div),
    MEMBER(dfsph_ctl, err_dens),
    MEMBER(dfsph_ctl, capped),
    MEMBER(dfsph_ctl, step),
    MEMBER(dfsph_ctl, cap_div),
    MEMBER(dfsph_ctl, cap_dens),
    MEMBER(dfsph_ctl, v_post),
    MEMBER(dfsph_ctl, dropped),
    MEMBER(dfsph_ctl, limited),
    MEMBER(dfsph_ctl, bar_count),
    MEMBER(dfsph_ctl, bar_gen),
    MEMBER(dfsph_ctl, stalled),
    MEMBER(dfsph_ctl, mode),
    MEMBER(dfsph_ctl, idle),
    MEMBER(dfsph_ctl, dt_ticks),
    {"clk[0]", offsetof(dfsph_ctl, clk), false},
    MEMBER(dfsph_ctl, dt_lim),
    MEMBER(dfsph_ctl, depth),
    MEMBER(dfsph_ctl, still),
    MEMBER(dfsph_ctl, t_frame),
    {"partial[0]", sizeof(dfsph_ctl), false}, /* the per-group array after the struct */
};

/* struct Record in shaders/sim/dfsph/integrate_pass.glsl <-> struct dfsph_record in
 * src/sim/dfsph/dfsph_layout.h (std430 array of them: stride sizeof). */
static const layout_member _dfsph_record_members[] = {
    MEMBER(dfsph_record, dt),       MEMBER(dfsph_record, dt_cfl),  MEMBER(dfsph_record, cfl),     MEMBER(dfsph_record, err_div),
    MEMBER(dfsph_record, err_dens), MEMBER(dfsph_record, it_div),  MEMBER(dfsph_record, it_dens), MEMBER(dfsph_record, capped),
    MEMBER(dfsph_record, dropped),  MEMBER(dfsph_record, limited), MEMBER(dfsph_record, t_rem),
    {"clk_density", offsetof(dfsph_record, clk[0]), false},     {"clk_divergence", offsetof(dfsph_record, clk[1]), false},
    {"clk_nonpressure", offsetof(dfsph_record, clk[2]), false}, {"clk_pressure", offsetof(dfsph_record, clk[3]), false},
    {"clk_integrate", offsetof(dfsph_record, clk[4]), false},
};

/* struct NbrRec in shaders/sim/dfsph/dfsph_common.glsl <-> struct dfsph_nbr_rec in
 * src/sim/dfsph/dfsph_layout.h (the neighbour lists with records, DFSPH_REC 1). */
static const layout_member _dfsph_nbr_rec_members[] = {
    {"grad", offsetof(dfsph_nbr_rec, grad), false},
    MEMBER(dfsph_nbr_rec, idx),
};

/* struct hud_quad in shaders/render/hud.vert <-> hud_quad in src/render/render_common.h. */
static const layout_member _hud_quad_members[] = {
    MEMBER(hud_quad, rect),
    MEMBER(hud_quad, uv),
    MEMBER(hud_quad, color),
    MEMBER(hud_quad, kind),
    PADDING(hud_quad, pad[0], "pad0"),
    PADDING(hud_quad, pad[1], "pad1"),
};

/* The sort's shared binding points and uniform locations: shaders/sort/sort_common.glsl <->
 * src/sort/sort_layout.h (the sort shaders hold no struct: pairs are uint arrays). Where the
 * constants are injected from C instead (no sort_common.glsl), there is no copy to check. */
typedef struct layout_constant {
    const char *name; /* a buffer block (binding) or a uniform (location) of layout_sort.comp */
    GLenum interface; /* GL_SHADER_STORAGE_BLOCK or GL_UNIFORM */
    int value;        /* the C constant */
} layout_constant;
static const layout_constant _sort_constants[] = {
    {"KeysIn", GL_SHADER_STORAGE_BLOCK, RADIX_BIND_KEYS_IN},
    {"ValsIn", GL_SHADER_STORAGE_BLOCK, RADIX_BIND_VALS_IN},
    {"KeysOut", GL_SHADER_STORAGE_BLOCK, RADIX_BIND_KEYS_OUT},
    {"ValsOut", GL_SHADER_STORAGE_BLOCK, RADIX_BIND_VALS_OUT},
    {"Table", GL_SHADER_STORAGE_BLOCK, RADIX_BIND_TABLE},
    {"Totals", GL_SHADER_STORAGE_BLOCK, RADIX_BIND_TOTALS},
    {"TableNext", GL_SHADER_STORAGE_BLOCK, RADIX_BIND_TABLE_NEXT},
    {"TotalsNext", GL_SHADER_STORAGE_BLOCK, RADIX_BIND_TOTALS_NEXT},
    {"Counter", GL_SHADER_STORAGE_BLOCK, RADIX_BIND_COUNTER},
    {"u_n", GL_UNIFORM, RADIX_LOC_N},
    {"u_shift", GL_UNIFORM, RADIX_LOC_SHIFT},
    {"u_mask", GL_UNIFORM, RADIX_LOC_MASK},
    {"u_tiles", GL_UNIFORM, RADIX_LOC_TILES},
    {"u_bits", GL_UNIFORM, RADIX_LOC_BITS},
    {"u_count_ahead", GL_UNIFORM, RADIX_LOC_COUNT_AHEAD},
    {"u_next_shift", GL_UNIFORM, RADIX_LOC_NEXT_SHIFT},
    {"u_next_mask", GL_UNIFORM, RADIX_LOC_NEXT_MASK},
};

static GLint _layout_prop(GLuint prog, GLenum interface, GLuint index, GLenum prop) {
    GLint v = -1;
    glGetProgramResourceiv(prog, interface, index, 1, &prop, 1, NULL, &v);
    return v;
}

/* Compares every member of block `block` (an interface block of `prog`) with the table:
 * `prefix` + name is the member's resource name ("SimParams." + "lo", "quads[0]." + "rect"). */
static void _layout_check_block(const char *what, GLuint prog, GLenum block_if, GLenum member_if, const char *block,
                                const char *prefix, const layout_member *t, size_t n, size_t c_size, size_t c_stride) {
    GLuint bi = glGetProgramResourceIndex(prog, block_if, block);
    CHECK(bi != GL_INVALID_INDEX, "%s: the driver reports no block %s", what, block);
    if (bi == GL_INVALID_INDEX) return;
    if (c_size) {
        GLint size = _layout_prop(prog, block_if, bi, GL_BUFFER_DATA_SIZE);
        CHECK((size_t)size == c_size, "%s: block %s is %d bytes in GLSL, %zu in C", what, block, size, c_size);
    }
    size_t found = 0;
    for (size_t k = 0; k < n; k++) {
        char name[128];
        snprintf(name, sizeof name, "%s%s", prefix, t[k].name);
        GLuint mi = glGetProgramResourceIndex(prog, member_if, name);
        if (mi == GL_INVALID_INDEX) {
            CHECK(t[k].optional, "%s: %s is in the C table but not in the GLSL block (renamed or removed?)", what, name);
            continue;
        }
        found++;
        GLint off = _layout_prop(prog, member_if, mi, GL_OFFSET);
        CHECK((size_t)off == t[k].offset, "%s: %s is at byte %d in GLSL, %zu in C (offsetof)", what, name, off, t[k].offset);
        if (c_stride) {
            GLint stride = _layout_prop(prog, member_if, mi, GL_TOP_LEVEL_ARRAY_STRIDE);
            CHECK((size_t)stride == c_stride, "%s: %s has an array stride of %d in GLSL, sizeof is %zu in C", what, name, stride,
                  c_stride);
        }
    }
    /* Every member the driver reports for the block must be in the table. */
    GLint count = 0;
    glGetProgramInterfaceiv(prog, member_if, GL_ACTIVE_RESOURCES, &count);
    size_t in_block = 0;
    for (GLint i = 0; i < count; i++) {
        if (_layout_prop(prog, member_if, (GLuint)i, GL_BLOCK_INDEX) != (GLint)bi) continue;
        in_block++;
        char name[128];
        glGetProgramResourceName(prog, member_if, (GLuint)i, sizeof name, NULL, name);
        bool known = false;
        for (size_t k = 0; k < n && !known; k++) {
            char full[128];
            snprintf(full, sizeof full, "%s%s", prefix, t[k].name);
            known = strcmp(full, name) == 0;
        }
        CHECK(known, "%s: GLSL member %s has no line in the C table (add MEMBER(...) and the C field)", what, name);
    }
    CHECK(in_block == found, "%s: the driver reports %zu members, %zu of the table's found", what, in_block, found);
    printf("%s: %zu members checked\n", what, found);
}

static void test_sim_params(void) {
    char err[ERR_LEN] = "";
    char defines[2048];
    sim_shader_defines(defines, sizeof defines); /* what every sim program is given (SIM_WG, the bindings) */
    GLuint p = shader_make_compute("tests/layout_sim.comp", defines, err);
    CHECK(p, "tests/layout_sim.comp: %s", err);
    if (!p) return;
    _layout_check_block("SimParams", p, GL_UNIFORM_BLOCK, GL_UNIFORM, "SimParams", "SimParams.", _sim_params_members,
                        ARRAY_LEN(_sim_params_members), sizeof(sim_params), 0);
    shader_destroy(&p);
}

static void test_dfsph(void) {
    /* The real pass that writes both: integrate.comp, built as dfsph.c builds it (one lane, index
     * lists; the next step's hash left out, SIM_HASH_EMIT 0, which touches neither block). */
    char err[ERR_LEN] = "";
    char defines[2048];
    sim_shader_defines(defines, sizeof defines);
    dfsph_shader_defines(defines + strlen(defines), sizeof defines - strlen(defines)); /* its bindings, as dfsph.c gives them */
    size_t used = strlen(defines);
    /* DFSPH's own uniform block, at the solver's binding. */
    GLuint b = shader_make_compute("tests/layout_dfsph.comp", defines, err);
    CHECK(b, "tests/layout_dfsph.comp: %s", err);
    if (b) {
        _layout_check_block("DfsphParams", b, GL_UNIFORM_BLOCK, GL_UNIFORM, "DfsphParams", "DfsphParams.", _dfsph_params_members,
                            ARRAY_LEN(_dfsph_params_members), sizeof(dfsph_gpu_params), 0);
        shader_destroy(&b);
    }
    snprintf(defines + used, sizeof defines - used,
             "#define SIM_LANES 1\n#define DFSPH_LIST_CAP 56\n#define DFSPH_LIST_STRIDE 1\n#define DFSPH_REC 0\n");
    GLuint p = shader_make_compute("sim/dfsph/integrate.comp", defines, err);
    CHECK(p, "sim/dfsph/integrate.comp: %s", err);
    if (!p) return;
    _layout_check_block("dfsph Ctl", p, GL_SHADER_STORAGE_BLOCK, GL_BUFFER_VARIABLE, "Ctl", "Ctl.", _dfsph_ctl_members,
                        ARRAY_LEN(_dfsph_ctl_members), 0, 0);
    _layout_check_block("dfsph Record", p, GL_SHADER_STORAGE_BLOCK, GL_BUFFER_VARIABLE, "Records", "records[0].",
                        _dfsph_record_members, ARRAY_LEN(_dfsph_record_members), 0, sizeof(dfsph_record));
    shader_destroy(&p);
    /* The neighbour-list records: the density pass writes them, built with records on. */
    snprintf(defines + used, sizeof defines - used,
             "#define SIM_LANES 1\n#define DFSPH_LIST_CAP 56\n#define DFSPH_LIST_STRIDE 1\n#define DFSPH_REC 1\n");
    p = shader_make_compute("sim/dfsph/density.comp", defines, err);
    CHECK(p, "sim/dfsph/density.comp: %s", err);
    if (!p) return;
    _layout_check_block("dfsph NbrRec", p, GL_SHADER_STORAGE_BLOCK, GL_BUFFER_VARIABLE, "Nbr", "nbr[0].", _dfsph_nbr_rec_members,
                        ARRAY_LEN(_dfsph_nbr_rec_members), 0, sizeof(dfsph_nbr_rec));
    shader_destroy(&p);
}

static void test_hud_quad(void) {
    char err[ERR_LEN] = "";
    GLuint p = shader_make_graphics("render/hud.vert", "render/hud.frag", render_shader_defines(), err); /* as hud.c builds it */
    CHECK(p, "render/hud.vert: %s", err);
    if (!p) return;
    _layout_check_block("hud_quad", p, GL_SHADER_STORAGE_BLOCK, GL_BUFFER_VARIABLE, "Quads", "quads[0].", _hud_quad_members,
                        ARRAY_LEN(_hud_quad_members), 0, sizeof(hud_quad));
    shader_destroy(&p);
}

static void test_sort_constants(void) {
    char err[ERR_LEN] = "";
    struct stat st;
    if (stat(data_path("shaders", "sort/sort_common.glsl"), &st) != 0) {
        /* The sort's constants are injected from sort_layout.h as #defines: no GLSL copy to twin. */
        printf("sort: no shaders/sort/sort_common.glsl (constants injected from C): nothing to twin\n");
        return;
    }
    GLuint p = shader_make_compute("tests/layout_sort.comp", NULL, err);
    CHECK(p, "tests/layout_sort.comp: %s", err);
    if (!p) return;
    for (size_t k = 0; k < ARRAY_LEN(_sort_constants); k++) {
        const layout_constant *c = &_sort_constants[k];
        GLuint i = glGetProgramResourceIndex(p, c->interface, c->name);
        CHECK(i != GL_INVALID_INDEX, "sort: %s is not active in tests/layout_sort.comp", c->name);
        if (i == GL_INVALID_INDEX) continue;
        GLint v = _layout_prop(p, c->interface, i, c->interface == GL_UNIFORM ? GL_LOCATION : GL_BUFFER_BINDING);
        CHECK(v == c->value, "sort: %s is at %s %d in GLSL, %d in C", c->name,
              c->interface == GL_UNIFORM ? "location" : "binding", v, c->value);
    }
    printf("sort: %zu bindings and locations checked\n", ARRAY_LEN(_sort_constants));
    shader_destroy(&p);
}

int main(void) {
    gpu_ctx *gpu = check_gpu();
    test_sim_params();
    test_dfsph();
    test_hud_quad();
    test_sort_constants();
    gpu_destroy(gpu);
    return check_done();
}
