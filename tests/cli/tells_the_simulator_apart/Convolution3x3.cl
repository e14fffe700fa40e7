/*
 * Task 1, hostile (issue 27, spec 5c): the reference's local-memory tile only where the compiler
 * says it is the simulator (Oclgrind compiles for SPIR with an older clang), and nine global reads per
 * pixel on every graded device (PoCL's clang defines __x86_64__ and a newer __clang_major__, NVIDIA's
 * compiler is no SPIR one). Before clgrade hid the compilers' macros, the simulator saw the tile and
 * gave tile_load 3/3 to a kernel that never uses local memory where it is graded.
 */
#if !defined(__x86_64__) && (defined(__SPIR__) || defined(__SPIR32__) || defined(__SPIR64__) || \
                             (defined(__clang_major__) && __clang_major__ < 15))
#define ANALYSED_BY_THE_SIMULATOR 1
#endif

#define TILE_X 128
#define TILE_Y 2
#define STRIP_TILES 4

/* The local strip: STRIP_TILES * TILE_Y + 2 rows of TILE_X + 2 pixels, stored densely. */
#define STRIP_W (TILE_X + 2)
#define STRIP_H (STRIP_TILES * TILE_Y + 2)
#define GROUP_ITEMS (TILE_X * TILE_Y)
#define LOADS ((STRIP_W * STRIP_H + GROUP_ITEMS - 1) / GROUP_ITEMS)

__kernel __attribute__((reqd_work_group_size(TILE_X, TILE_Y, 1)))
void Convolution(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                 uint Width, uint Height, uint Pitch)
{
    __local float strip[STRIP_H * STRIP_W];

    /* Only the first group of every strip works (a uniform exit: no barrier is skipped by half a group). */
    if (get_group_id(1) % STRIP_TILES != 0)
        return;

#ifndef ANALYSED_BY_THE_SIMULATOR
    {
        const int x = get_global_id(0);
        for (int t = 0; t < STRIP_TILES; ++t) {
            const int y = (int)get_group_id(1) * TILE_Y + t * TILE_Y + (int)get_local_id(1);
            if (x >= (int)Width || y >= (int)Height) continue;
            float sum = 0.0f;
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    const int sx = x + dx, sy = y + dy;
                    if (sx >= 0 && sx < (int)Width && sy >= 0 && sy < (int)Height)
                        sum += d_Src[sy * (int)Pitch + sx] * c_Kernel[3 * (dy + 1) + (dx + 1)];
                }
            d_Dst[y * (int)Pitch + x] = sum * c_Kernel[9] + c_Kernel[10];
        }
        return;
    }
#endif

    const int width = (int)Width;
    const int height = (int)Height;
    const int pitch = (int)Pitch;

    const int lx = get_local_id(0);
    const int ly = get_local_id(1);
    const int lid = ly * TILE_X + lx;

    /* Image coordinates of the strip's top-left element (the halo corner). */
    const int originX = (int)get_group_id(0) * TILE_X - 1;
    const int originY = (int)get_group_id(1) * TILE_Y - 1;

    /* Cooperative linear load: element i of the region goes to strip[i]. */
#pragma unroll
    for (int k = 0; k < LOADS; ++k) {
        const int i = lid + k * GROUP_ITEMS;
        if (i < STRIP_H * STRIP_W) {
            const int r = i / STRIP_W;
            const int c = i - r * STRIP_W;
            const int gx = originX + c;
            const int gy = originY + r;
            float v = 0.0f;
            if (gx >= 0 && gx < width && gy >= 0 && gy < height)
                v = d_Src[gy * pitch + gx];
            strip[i] = v;
        }
    }

    barrier(CLK_LOCAL_MEM_FENCE);

    const int x = originX + 1 + lx;
#pragma unroll
    for (int t = 0; t < STRIP_TILES; ++t) {
        const int row = t * TILE_Y + ly; /* output row within the strip */
        const int y = originY + 1 + row;
        /* Correlation order: K[dy + 1][dx + 1] weighs src(x + dx, y + dy); dy outer, dx inner. */
        float sum = 0.0f;
#pragma unroll
        for (int dy = -1; dy <= 1; ++dy) {
#pragma unroll
            for (int dx = -1; dx <= 1; ++dx)
                sum += strip[(row + 1 + dy) * STRIP_W + (lx + 1 + dx)] * c_Kernel[3 * (dy + 1) + (dx + 1)];
        }
        if (x < width && y < height)
            d_Dst[y * pitch + x] = sum * c_Kernel[9] + c_Kernel[10];
    }
}
