/* Task 1, student variant: the taps are accumulated in double precision (enabled with the usual
 * fp64 snippet); the tile is loaded with a flat strided loop. */
#if defined(cl_khr_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#elif defined(cl_amd_fp64)
#pragma OPENCL EXTENSION cl_amd_fp64 : enable
#else
#error "Double precision floating point not supported by OpenCL implementation."
#endif

#define TILE_X 32
#define TILE_Y 16
#define TW (TILE_X + 2)
#define TH (TILE_Y + 2)

__kernel __attribute__((reqd_work_group_size(TILE_X, TILE_Y, 1)))
void Convolution(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                 uint Width, uint Height, uint Pitch)
{
    __local float tile[TH * TW];
    const int lid = get_local_id(1) * TILE_X + get_local_id(0);
    const int ox = get_group_id(0) * TILE_X - 1, oy = get_group_id(1) * TILE_Y - 1;

    for (int i = lid; i < TW * TH; i += TILE_X * TILE_Y) {
        const int gx = ox + i % TW, gy = oy + i / TW;
        tile[i] = (gx >= 0 && gx < (int)Width && gy >= 0 && gy < (int)Height) ? d_Src[gy * (int)Pitch + gx] : 0.0f;
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    const int lx = get_local_id(0), ly = get_local_id(1);
    const int x = ox + 1 + lx, y = oy + 1 + ly;
    if (x < (int)Width && y < (int)Height) {
        double sum = 0.0;
        for (int j = 0; j < 3; ++j)
            for (int i = 0; i < 3; ++i)
                sum += (double)tile[(ly + j) * TW + lx + i] * (double)c_Kernel[3 * j + i];
        d_Dst[y * (int)Pitch + x] = (float)(sum * c_Kernel[9] + c_Kernel[10]);
    }
}
