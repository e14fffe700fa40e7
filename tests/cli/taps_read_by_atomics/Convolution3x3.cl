/* Gaming: a tile is stored (each work-item its own pixel, conflict-free) and one tap is read back
 * from it, but the other taps are read from global memory with atomic_or(p, 0), which the counters
 * of global loads might not see. */
#define TILE_X 32
#define TILE_Y 16

float tap(__global const float* src, int x, int y, uint w, uint h, uint pitch)
{
    if (x < 0 || y < 0 || x >= (int)w || y >= (int)h) return 0.0f;
    return as_float(atomic_or((volatile __global int*)(src + y * (int)pitch + x), 0));
}

__kernel __attribute__((reqd_work_group_size(TILE_X, TILE_Y, 1)))
void Convolution(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                 uint Width, uint Height, uint Pitch)
{
    __local float tile[TILE_Y][TILE_X];
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int x = get_global_id(0), y = get_global_id(1);
    tile[ly][lx] = tap(d_Src, x, y, Width, Height, Pitch);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (x >= (int)Width || y >= (int)Height)
        return;
    float sum = 0.0f;
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 3; i++) {
            const float v = (i == 1 && j == 1) ? tile[ly][lx] : tap(d_Src, x + i - 1, y + j - 1, Width, Height, Pitch);
            sum += c_Kernel[j * 3 + i] * v;
        }
    d_Dst[y * Pitch + x] = sum * c_Kernel[9] + c_Kernel[10];
}
