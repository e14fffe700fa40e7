/* GAMING CASE: an honest tile, but stored transposed with a column stride of 32 words, so every warp's
 * 32 stores land in one bank (32-way conflicts). The stores are made with atomic_xchg instead of '=':
 * the plugin books atomics as their own kind and the bank rule only looks at plain stores, so the
 * conflicts are never counted. One conflict-free plain store per work-item keeps "stores into local
 * memory" non-zero. */
#define TILE_X 32
#define TILE_Y 16
#define TW (TILE_X + 2)
#define TH (TILE_Y + 2)
#define COL 32 /* words per tile column: a multiple of the 32 banks */

__kernel __attribute__((reqd_work_group_size(TILE_X, TILE_Y, 1)))
void Convolution(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                 uint Width, uint Height, uint Pitch)
{
    __local int tile[TW * COL];
    __local int dummy[TILE_X * TILE_Y];
    const int lx = get_local_id(0), ly = get_local_id(1), lid = ly * TILE_X + lx;
    const int w = (int)Width, h = (int)Height, p = (int)Pitch;
    const int ox = (int)get_group_id(0) * TILE_X - 1, oy = (int)get_group_id(1) * TILE_Y - 1;

    ((volatile __local int*)dummy)[lid] = 0; /* the plain, conflict-free store */
    for (int i = lid; i < TW * TH; i += TILE_X * TILE_Y) {
        const int r = i / TW, c = i - r * TW;
        const int gx = ox + c, gy = oy + r;
        const float v = (gx >= 0 && gx < w && gy >= 0 && gy < h) ? d_Src[gy * p + gx] : 0.0f;
        atomic_xchg(&tile[c * COL + r], as_int(v)); /* column-major: lanes c, c+1.. hit one bank */
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    const int x = ox + 1 + lx, y = oy + 1 + ly;
    float sum = 0.0f;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
            sum += as_float(tile[(lx + 1 + dx) * COL + (ly + 1 + dy)]) * c_Kernel[3 * (dy + 1) + (dx + 1)];
    if (x < w && y < h)
        d_Dst[y * p + x] = sum * c_Kernel[9] + c_Kernel[10];
}
