/* Task 1, "classic" student tile: every work-item loads its own pixel, the border work-items load
 * the halo column/row, the four corner work-items load the corners. Zero outside the image. */
#ifndef _CONVOLUTION3X3_CL_
#define _CONVOLUTION3X3_CL_
#define TILE_X 32
#define TILE_Y 16
/* tile[ly + 1 + DY][lx + 1 + DX] times weight (DY, DX) */
#define TAP(DY, DX) (c_Kernel[3 * (DY + 1) + (DX + 1)] * tile[ly + 1 + (DY)][lx + 1 + (DX)])
#define ROW(DY) (TAP(DY, -1) + TAP(DY, 0) + TAP(DY, 1))
#define KIDX(name) k_##name

float fetch(__global const float* src, int x, int y, uint w, uint h, uint pitch)
{
    if (x < 0 || y < 0 || x >= (int)w || y >= (int)h) return 0.0f;
    return src[y * (int)pitch + x];
}

__kernel __attribute__((reqd_work_group_size(TILE_X, TILE_Y, 1)))
void Convolution(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                 uint Width, uint Height, uint Pitch)
{
    __local float tile[TILE_Y + 2][TILE_X + 2];

    const int lx = get_local_id(0), ly = get_local_id(1);
    const int x = get_global_id(0), y = get_global_id(1);

    tile[ly + 1][lx + 1] = fetch(d_Src, x, y, Width, Height, Pitch);
    if (lx == 0)
        tile[ly + 1][0] = fetch(d_Src, x - 1, y, Width, Height, Pitch);
    if (lx == TILE_X - 1)
        tile[ly + 1][TILE_X + 1] = fetch(d_Src, x + 1, y, Width, Height, Pitch);
    if (ly == 0)
        tile[0][lx + 1] = fetch(d_Src, x, y - 1, Width, Height, Pitch);
    if (ly == TILE_Y - 1)
        tile[TILE_Y + 1][lx + 1] = fetch(d_Src, x, y + 1, Width, Height, Pitch);
    if (lx == 0 && ly == 0)
        tile[0][0] = fetch(d_Src, x - 1, y - 1, Width, Height, Pitch);
    if (lx == TILE_X - 1 && ly == 0)
        tile[0][TILE_X + 1] = fetch(d_Src, x + 1, y - 1, Width, Height, Pitch);
    if (lx == 0 && ly == TILE_Y - 1)
        tile[TILE_Y + 1][0] = fetch(d_Src, x - 1, y + 1, Width, Height, Pitch);
    if (lx == TILE_X - 1 && ly == TILE_Y - 1)
        tile[TILE_Y + 1][TILE_X + 1] = fetch(d_Src, x + 1, y + 1, Width, Height, Pitch);

    barrier(CLK_LOCAL_MEM_FENCE);

    if (x >= (int)Width || y >= (int)Height)
        return;

    const float KIDX(mul) = c_Kernel[9], KIDX(off) = c_Kernel[10];
    float sum = 0.0f;
    sum += ROW(-1);
    sum += ROW(0);
    sum += ROW(1);
    d_Dst[y * Pitch + x] = sum * k_mul + k_off;
}
#endif /* _CONVOLUTION3X3_CL_ */
