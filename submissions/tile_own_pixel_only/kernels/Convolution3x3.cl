/*
 * Task 1 with a "tile" that holds only each work-item's own pixel: the stores are conflict-free and
 * there is a barrier, but 8 of the 9 taps are read from global memory. The output is right; the tile
 * and halo are never loaded into local memory.
 */
#define TILE_X 32
#define TILE_Y 16

__kernel __attribute__((reqd_work_group_size(TILE_X, TILE_Y, 1)))
void Convolution(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                 uint Width, uint Height, uint Pitch)
{
    __local float tile[TILE_Y][TILE_X];
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    const int lx = get_local_id(0);
    const int ly = get_local_id(1);
    const int width = (int)Width;
    const int height = (int)Height;
    const int pitch = (int)Pitch;

    float own = 0.0f;
    if (x < width && y < height)
        own = d_Src[y * pitch + x];
    tile[ly][lx] = own;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (x >= width || y >= height)
        return;

    float sum = 0.0f;
    for (int dy = -1; dy <= 1; ++dy) {
        for (int dx = -1; dx <= 1; ++dx) {
            const int sx = x + dx;
            const int sy = y + dy;
            float v;
            if (dx == 0 && dy == 0)
                v = tile[ly][lx];
            else
                v = (sx >= 0 && sx < width && sy >= 0 && sy < height) ? d_Src[sy * pitch + sx] : 0.0f;
            sum += v * c_Kernel[3 * (dy + 1) + (dx + 1)];
        }
    }
    d_Dst[y * pitch + x] = sum * c_Kernel[9] + c_Kernel[10];
}
