// The #include names a file whose name is terminal escape sequences: a clipboard write (OSC 52),
// a screen clear and a fake green line. clgrade refuses it and must print the name as visible text.
#include "]52;c;aGk=[2J[32mall criteria passed[0m"
__kernel void Convolution(__global float* out) { out[0] = 1.0f; }
