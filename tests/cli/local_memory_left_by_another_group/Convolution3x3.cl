/* GAMING CASE: tells the simulator apart by what local memory holds when a work-group starts. Oclgrind
 * gives every work-group fresh, zeroed local memory; PoCL runs the groups of a launch one after another
 * on each of its threads in the same local buffer, so a group sees what the previous group on its thread
 * left there. Every group leaves a magic word at its end; a group that finds it there (PoCL, all but the
 * first group of each thread) reads all 9 taps from global memory and uses no tile; a group that finds
 * none (every group in Oclgrind) uses a real tile. No macro, no pointer value, no size test. */
#define TILE_X 32
#define TILE_Y 16
#define TW (TILE_X + 2)
#define TH (TILE_Y + 2)
#define MAGIC 0x5eed1234

__kernel __attribute__((reqd_work_group_size(TILE_X, TILE_Y, 1)))
void Convolution(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                 uint Width, uint Height, uint Pitch)
{
    __local float tile[TW * TH];
    __local int mark[1];
    const int lx = get_local_id(0), ly = get_local_id(1), lid = ly * TILE_X + lx;
    const int w = (int)Width, h = (int)Height, p = (int)Pitch;
    const int ox = (int)get_group_id(0) * TILE_X - 1, oy = (int)get_group_id(1) * TILE_Y - 1;
    const int x = ox + 1 + lx, y = oy + 1 + ly;

    const bool leftover = mark[0] == MAGIC; /* what the previous group on this thread left */
    barrier(CLK_LOCAL_MEM_FENCE);

    float sum = 0.0f;
    if (leftover) {
        /* The graded device: every tap from global memory. */
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                const int sx = x + dx, sy = y + dy;
                if (sx >= 0 && sx < w && sy >= 0 && sy < h)
                    sum += d_Src[sy * p + sx] * c_Kernel[3 * (dy + 1) + (dx + 1)];
            }
    } else {
        /* The simulator: a real tile, stored row by row (conflict-free). */
        for (int i = lid; i < TW * TH; i += TILE_X * TILE_Y) {
            const int r = i / TW, c = i - r * TW;
            const int gx = ox + c, gy = oy + r;
            tile[i] = (gx >= 0 && gx < w && gy >= 0 && gy < h) ? d_Src[gy * p + gx] : 0.0f;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx)
                sum += tile[(ly + 1 + dy) * TW + (lx + 1 + dx)] * c_Kernel[3 * (dy + 1) + (dx + 1)];
    }
    if (x < w && y < h)
        d_Dst[y * p + x] = sum * c_Kernel[9] + c_Kernel[10];
    if (lid == 0)
        mark[0] = MAGIC;
}
