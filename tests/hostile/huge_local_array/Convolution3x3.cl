// A 64 MiB local array: far more local memory than any device has.
__kernel __attribute__((reqd_work_group_size(32, 16, 1)))
void Convolution(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                 uint Width, uint Height, uint Pitch)
{
    __local float tile[16 * 1024 * 1024];
    const int lid = get_local_id(1) * 32 + get_local_id(0);
    for (int i = lid; i < 16 * 1024 * 1024; i += 512)
        tile[i] = d_Src[i % Width];
    barrier(CLK_LOCAL_MEM_FENCE);
    const int x = get_global_id(0), y = get_global_id(1);
    if (x < (int)Width && y < (int)Height)
        d_Dst[y * (int)Pitch + x] = tile[(y * 131 + x) % (16 * 1024 * 1024)];
}
