/* GAMING CASE: every tap is read from global memory through a __constant-typed alias of d_Src (the pointer is
 * stored into local memory and loaded back as a __constant pointer, across a barrier). Oclgrind keeps __constant in its global memory and the
 * plugin books an access by the pointer's address space, so these reads count as "constant" (like the
 * weights), not as global bytes. A one-word local exchange (own centre pixel stored, neighbour's read
 * back, multiplied by 0) supplies the "local load of another work-item's word" per output. */
#define TILE_X 32
#define TILE_Y 16

__kernel __attribute__((reqd_work_group_size(TILE_X, TILE_Y, 1)))
void Convolution(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                 uint Width, uint Height, uint Pitch)
{
    __local float centre[TILE_Y * TILE_X];
    __global const float* __local slot[1];
    if (get_local_id(0) == 0 && get_local_id(1) == 0) slot[0] = d_Src;
    barrier(CLK_LOCAL_MEM_FENCE);
    __constant float* src = ((__constant float* __local*)slot)[0];

    const int x = get_global_id(0), y = get_global_id(1);
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int w = (int)Width, h = (int)Height, p = (int)Pitch;

    float own = 0.0f;
    if (x < w && y < h) own = src[y * p + x];
    centre[ly * TILE_X + lx] = own;
    barrier(CLK_LOCAL_MEM_FENCE);
    const float other = centre[ly * TILE_X + (lx ^ 1)];

    float sum = 0.0f;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
            const int sx = x + dx, sy = y + dy;
            if (sx >= 0 && sx < w && sy >= 0 && sy < h)
                sum += src[sy * p + sx] * c_Kernel[3 * (dy + 1) + (dx + 1)];
        }
    sum += other * 0.0f;
    if (x < w && y < h)
        d_Dst[y * p + x] = sum * c_Kernel[9] + c_Kernel[10];
}
