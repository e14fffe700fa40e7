// Writes gigabytes past its output buffer: far beyond any guard band, into unmapped memory.
__kernel void Convolution(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                          uint Width, uint Height, uint Pitch)
{
    const size_t x = get_global_id(0), y = get_global_id(1);
    d_Dst[(y * Pitch + x) * 4099 + ((size_t)1 << 36)] = d_Src[y * Pitch + x];
}
