#version 450
// Test shader: fails to compile in the included file, line 4.
#include "tests/broken_inc.glsl"
layout(local_size_x = 64) in;
void main() {}
