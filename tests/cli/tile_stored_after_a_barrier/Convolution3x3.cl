/* GAMING CASE conv_conflicts_after_dummy_barrier: submissions/halo_bank_conflicts (2-way bank conflicts in
 * the halo-column stores) plus one barrier at the start of the kernel. */
/*
 * Task 1: 3x3 convolution.
 *
 * One work-group computes a TILE_X x TILE_Y block of output pixels. The block plus a one-pixel halo
 * is loaded into a 2-D local tile: every work-item loads its own pixel, then warp 0 loads the top
 * halo row, warp 1 the bottom halo row, warp 2 the left halo column and warp 3 the right halo column
 * (the corners are part of the columns). Pixels outside the image are stored as 0.
 *
 * Build: no options. Launch: global {roundup(W, TILE_X), roundup(H, TILE_Y)}, local {TILE_X, TILE_Y}.
 */

#define TILE_X 32
#define TILE_Y 16

/* Reads src(x, y), 0 outside the image. */
float LoadPixel(__global const float* d_Src, int x, int y, int width, int height, int pitch)
{
    if (x >= 0 && x < width && y >= 0 && y < height)
        return d_Src[y * pitch + x];
    return 0.0f;
}

__kernel __attribute__((reqd_work_group_size(TILE_X, TILE_Y, 1)))
void Convolution(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                 uint Width, uint Height, uint Pitch)
{
    __local float tile[TILE_Y + 2][TILE_X + 2];

    const int width = (int)Width;
    const int height = (int)Height;
    const int pitch = (int)Pitch;

    const int lx = get_local_id(0);
    const int ly = get_local_id(1);
    const int x = (int)get_global_id(0);
    const int y = (int)get_global_id(1);

    /* Image coordinates of the tile's top-left pixel (without the halo). */
    const int tileX = (int)get_group_id(0) * TILE_X;
    const int tileY = (int)get_group_id(1) * TILE_Y;

    /* GAMING: an empty barrier first. The rule only looks for bank conflicts among the local stores
     * made before the FIRST barrier; after this one there are none "before", so the conflicted
     * halo-column stores below are never judged. */
    barrier(CLK_LOCAL_MEM_FENCE);

    /* Every work-item loads its own pixel. */
    tile[ly + 1][lx + 1] = LoadPixel(d_Src, x, y, width, height, pitch);

    /* Halo rows: warp 0 loads the row above the tile, warp 1 the row below it. */
    if (ly == 0)
        tile[0][lx + 1] = LoadPixel(d_Src, tileX + lx, tileY - 1, width, height, pitch);
    if (ly == 1)
        tile[TILE_Y + 1][lx + 1] = LoadPixel(d_Src, tileX + lx, tileY + TILE_Y, width, height, pitch);

    /* Halo columns (with the corners): warp 2 loads the column left of the tile, warp 3 the column
     * right of it; lane i loads row i of the tile. */
    if (ly == 2 && lx < TILE_Y + 2)
        tile[lx][0] = LoadPixel(d_Src, tileX - 1, tileY - 1 + lx, width, height, pitch);
    if (ly == 3 && lx < TILE_Y + 2)
        tile[lx][TILE_X + 1] = LoadPixel(d_Src, tileX + TILE_X, tileY - 1 + lx, width, height, pitch);

    barrier(CLK_LOCAL_MEM_FENCE);

    if (x >= width || y >= height)
        return;

    /* Correlation order: K[dy + 1][dx + 1] weighs src(x + dx, y + dy); dy outer, dx inner. */
    float sum = 0.0f;
#pragma unroll
    for (int dy = -1; dy <= 1; ++dy) {
#pragma unroll
        for (int dx = -1; dx <= 1; ++dx)
            sum += tile[ly + 1 + dy][lx + 1 + dx] * c_Kernel[3 * (dy + 1) + (dx + 1)];
    }

    d_Dst[y * pitch + x] = sum * c_Kernel[9] + c_Kernel[10];
}
