// A 16 MiB private array per work-item: far more than any work-item stack.
__kernel void Convolution(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                          uint Width, uint Height, uint Pitch)
{
    float big[1 << 22];
    for (int i = 0; i < (1 << 22); ++i)
        big[i] = d_Src[i % Width];
    d_Dst[get_global_id(1) * Pitch + get_global_id(0)] = big[(Width * 7) % (1 << 22)];
}
