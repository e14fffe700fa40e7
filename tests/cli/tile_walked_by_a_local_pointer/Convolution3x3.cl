/* Task 1, student variant (pointer style): the tile is filled by walking a local pointer over it in
 * steps of the group size, from tile + lid up to the end of the tile; the matching image pixel is
 * worked out from the element's offset. Taps through three row pointers. */
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

    int i = lid;
    for (__local float* t = tile + lid; t < tile + TW * TH; t += TILE_X * TILE_Y, i += TILE_X * TILE_Y) {
        const int gx = ox + i % TW, gy = oy + i / TW;
        *t = (gx >= 0 && gx < (int)Width && gy >= 0 && gy < (int)Height) ? d_Src[gy * (int)Pitch + gx] : 0.0f;
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    const int lx = get_local_id(0), ly = get_local_id(1);
    const int x = ox + 1 + lx, y = oy + 1 + ly;
    if (x < (int)Width && y < (int)Height) {
        __local const float* r0 = tile + ly * TW + lx;
        __local const float* r1 = r0 + TW;
        __local const float* r2 = r1 + TW;
        float sum = r0[0] * c_Kernel[0] + r0[1] * c_Kernel[1] + r0[2] * c_Kernel[2]
                  + r1[0] * c_Kernel[3] + r1[1] * c_Kernel[4] + r1[2] * c_Kernel[5]
                  + r2[0] * c_Kernel[6] + r2[1] * c_Kernel[7] + r2[2] * c_Kernel[8];
        d_Dst[y * (int)Pitch + x] = sum * c_Kernel[9] + c_Kernel[10];
    }
}
