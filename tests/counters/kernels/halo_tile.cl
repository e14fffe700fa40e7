/*
 * A 3x3-style tile for a 32x16 work-group: __local float tile[18][TILE_W], interior, halo rows and
 * halo columns stored before the barrier, nine reads after it. TILE_W 34 is the dense tile; 35 pads
 * each row by one word. The halo columns are stored by lanes along a column: in warp 2 lane r
 * stores tile[r][0], in warp 3 lane r stores tile[r][33], r = 0..17.
 *
 * Bank of tile[r][c] = (r * TILE_W + c) % 32. TILE_W 34: column 0 hits banks 2r % 32, so rows 16
 * and 17 land on banks 0 and 2 again (rows 0 and 1): 2 wavefronts for 18 words, 1 conflict; column
 * 33 the same (banks 1 and 3). 2 conflicts a group. TILE_W 35: banks 3r % 32, all 18 different.
 * Every other request covers 32 consecutive words of one row: 1 wavefront.
 * Launch: 2-D, local 32x16; src and dst hold get_global_size(0) * get_global_size(1) floats.
 */
#ifndef TILE_W
#define TILE_W 34
#endif

__kernel __attribute__((reqd_work_group_size(32, 16, 1)))
void HaloTile(__global const float* src, __global float* dst)
{
    __local float tile[18][TILE_W];
    const int lx = get_local_id(0);
    const int ly = get_local_id(1);
    const int width = get_global_size(0);
    const int gx = get_global_id(0);
    const int gy = get_global_id(1);

    tile[ly + 1][lx + 1] = src[gy * width + gx];
    if (ly < 2)
        tile[ly * 17][lx + 1] = 0.0f;
    if (ly >= 2 && ly < 4 && lx < 18)
        tile[lx][(ly - 2) * 33] = 0.0f; /* HALO-COLUMN-STORE */
    barrier(CLK_LOCAL_MEM_FENCE);

    float sum = 0.0f;
    for (int dy = 0; dy < 3; ++dy)
        for (int dx = 0; dx < 3; ++dx)
            sum += tile[ly + dy][lx + dx];
    dst[gy * width + gx] = sum;
}
