// Included by broken.comp.
// The error below must be reported as shaders/tests/broken_inc.glsl:4.

uint broken() { return undefined_name; }
