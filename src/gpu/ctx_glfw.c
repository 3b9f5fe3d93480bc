/* A GLFW window with a GL 4.5 core context current. */
#include "core/util.h"
#include "gpu/gpu.h"
#include <GLFW/glfw3.h>
#include <stdio.h>
#include <stdlib.h>

static char _glfw_last_error[256];

static void _glfw_on_error(int code, const char *msg) {
    snprintf(_glfw_last_error, sizeof _glfw_last_error, "%s (GLFW error 0x%x)", msg, code);
}

static void *_glfw_make(const gpu_desc *desc, char *err) {
    glfwSetErrorCallback(_glfw_on_error);
    if (!glfwInit()) {
        fail(err, "cannot open a window: %s; run with --headless, or under xvfb-run", _glfw_last_error);
        return NULL;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 5);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_OPENGL_DEBUG_CONTEXT, desc->debug ? GLFW_TRUE : GLFW_FALSE);
    glfwWindowHint(GLFW_SAMPLES, 0);
    GLFWwindow *w = glfwCreateWindow(desc->width, desc->height, desc->title, NULL, NULL);
    if (!w) {
        fail(err, "no OpenGL 4.5 core window: %s; update the GPU driver or run with --headless", _glfw_last_error);
        glfwTerminate();
        return NULL;
    }
    glfwMakeContextCurrent(w);
    glfwSwapInterval(desc->vsync ? 1 : 0);
    return w;
}

static void _glfw_destroy(void *p) {
    glfwDestroyWindow(p);
    glfwTerminate();
}

static GLFWwindow *_glfw_window(void *p) { return p; }

const gpu_backend gpu_backend_glfw = {"glfw", _glfw_make, _glfw_destroy, _glfw_window};
