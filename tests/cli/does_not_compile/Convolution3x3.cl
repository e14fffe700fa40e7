/* A 3x3 kernel that does not compile (a missing semicolon): every check says so, the simulated
 * tile-load check included ("does not compile", not "never ran in the simulator"), and the
 * compiler's messages name this file, not the driver's temporary copy. */
__kernel void Convolution(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                          uint Width, uint Height, uint Pitch)
{
    const int x = get_global_id(0), y = get_global_id(1)
    if (x < Width && y < Height) d_Dst[y * Pitch + x] = d_Src[y * Pitch + x];
}
