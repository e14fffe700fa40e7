/*
 * Task 1: 3x3 convolution -- reference solution.
 *
 * One work-group computes a TILE_X x TILE_Y block of output pixels. The block plus a one-pixel halo,
 * (TILE_Y + 2) x (TILE_X + 2) source pixels, is loaded into local memory cooperatively: the work-items
 * walk that region linearly by their flat local id, so consecutive ids store to consecutive local
 * addresses (every warp's stores hit 32 different banks) and read consecutive global addresses.
 * Pixels outside the image are stored as 0, which is the same as skipping their taps.
 * After one barrier every work-item reads its 3x3 neighbourhood from local memory; a warp is one
 * tile row (TILE_X = 32), so those reads are conflict-free as well.
 *
 * Build: no options. Launch: global {roundup(W, TILE_X), roundup(H, TILE_Y)}, local {TILE_X, TILE_Y}.
 */

#define TILE_X 32
#define TILE_Y 16

/* The local tile: TILE_Y + 2 rows of TILE_X + 2 pixels, stored densely. */
#define TILE_W (TILE_X + 2)
#define TILE_H (TILE_Y + 2)

__kernel __attribute__((reqd_work_group_size(TILE_X, TILE_Y, 1)))
void Convolution(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                 uint Width, uint Height, uint Pitch)
{
    __local float tile[TILE_H * TILE_W];

    const int width = (int)Width;
    const int height = (int)Height;
    const int pitch = (int)Pitch;

    const int lx = get_local_id(0);
    const int ly = get_local_id(1);
    const int lid = ly * TILE_X + lx;

    /* Image coordinates of the tile's top-left element (the halo corner). */
    const int originX = (int)get_group_id(0) * TILE_X - 1;
    const int originY = (int)get_group_id(1) * TILE_Y - 1;

    /* Cooperative linear load: element i of the region goes to tile[i]. */
    for (int i = lid; i < TILE_H * TILE_W; i += TILE_X * TILE_Y) {
        const int r = i / TILE_W;
        const int c = i - r * TILE_W;
        const int gx = originX + c;
        const int gy = originY + r;
        float v = 0.0f;
        if (gx >= 0 && gx < width && gy >= 0 && gy < height)
            v = d_Src[gy * pitch + gx];
        tile[i] = v;
    }

    barrier(CLK_LOCAL_MEM_FENCE);

    const int x = (int)get_global_id(0);
    const int y = (int)get_global_id(1);
    if (x >= width || y >= height)
        return;

    /* Correlation order: K[dy + 1][dx + 1] weighs src(x + dx, y + dy); dy outer, dx inner. */
    float sum = 0.0f;
#pragma unroll
    for (int dy = -1; dy <= 1; ++dy) {
#pragma unroll
        for (int dx = -1; dx <= 1; ++dx)
            sum += tile[(ly + 1 + dy) * TILE_W + (lx + 1 + dx)] * c_Kernel[3 * (dy + 1) + (dx + 1)];
    }

    d_Dst[y * pitch + x] = sum * c_Kernel[9] + c_Kernel[10];
}
