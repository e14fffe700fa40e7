/* GAMING CASE: submissions/barrier_missing_pocl_lucky (lane 0 clears its tile row while the other
 * work-items store their pixels, no barrier between: a write-write race in local memory that PoCL's
 * in-order work-item loop happens to win), with both the clear and the stores made by atomic_xchg.
 * Oclgrind's race detector never reports two atomics (RaceDetector: "No race if both operations are
 * atomics"), but the order of the two writes is still undefined: the race is there on a GPU. */
/*
 * Task 2: separable convolution (NVIDIA SDK style).
 *
 * Built with: -cl-fast-relaxed-math -D KERNEL_RADIUS=R -D H_GROUPSIZE_X=.. -D H_GROUPSIZE_Y=..
 *             -D H_RESULT_STEPS=.. -D V_GROUPSIZE_X=.. -D V_GROUPSIZE_Y=.. -D V_RESULT_STEPS=..
 *
 * ConvHorizontal: a work-group computes H_GROUPSIZE_Y rows of H_RESULT_STEPS * H_GROUPSIZE_X pixels;
 * each work-item produces H_RESULT_STEPS outputs spaced by the group width. The group loads its row
 * segment plus one group width of halo on each side (KERNEL_RADIUS <= H_GROUPSIZE_X) into local
 * memory: every work-item loads H_RESULT_STEPS + 2 pixels, again spaced by the group width, so the
 * global reads of a warp are consecutive. The tile row is cleared first, so pixels outside
 * [0, Width) read as 0.
 * The local row stride is padded to be congruent to H_GROUPSIZE_X modulo 32, which makes every local
 * address congruent (mod 32) to the flat local id plus a constant shared by the whole group: the
 * stores and the filter reads are bank-conflict-free for every group width.
 * The kernel has no height: it runs on every launched row (up to roundup(H, H_GROUPSIZE_Y)); the
 * host's buffers have those rows. It never writes a column x >= Width.
 *
 * ConvVertical: the same along y. A work-group computes V_RESULT_STEPS * V_GROUPSIZE_Y rows of
 * V_GROUPSIZE_X columns with one group height of halo above and below (KERNEL_RADIUS <=
 * V_GROUPSIZE_Y). The tile is stored row-major with a row stride of V_GROUPSIZE_X, so the local
 * address is again the flat local id plus a per-group constant. Rows outside [0, Height) are
 * treated as 0 and never read; the kernel has no width and also computes the padding columns
 * (the launch width never exceeds Pitch); it never writes a row y >= Height.
 */

#define KERNEL_LENGTH (2 * KERNEL_RADIUS + 1)

#define ROUNDUP32(n) ((((n) + 31) / 32) * 32)

/* Horizontal tile: H_RESULT_STEPS + 2 group widths per row. */
#define H_TILE_W ((H_RESULT_STEPS + 2) * H_GROUPSIZE_X)
/* Row stride >= H_TILE_W and == H_GROUPSIZE_X (mod 32). */
#define H_TILE_STRIDE (H_GROUPSIZE_X + ROUNDUP32((H_RESULT_STEPS + 1) * H_GROUPSIZE_X))

/* Vertical tile: V_RESULT_STEPS + 2 group heights of V_GROUPSIZE_X columns. */
#define V_TILE_H ((V_RESULT_STEPS + 2) * V_GROUPSIZE_Y)

__kernel __attribute__((reqd_work_group_size(H_GROUPSIZE_X, H_GROUPSIZE_Y, 1)))
void ConvHorizontal(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                    int Width, int Pitch)
{
    __local float tile[H_GROUPSIZE_Y * H_TILE_STRIDE];

    const int lx = get_local_id(0);
    const int ly = get_local_id(1);
    const int y = get_global_id(1);

    /* Image x of this work-item's element 0 (in the left halo). */
    const int baseX = ((int)get_group_id(0) * H_RESULT_STEPS - 1) * H_GROUPSIZE_X + lx;

    __global const float* src = d_Src + y * Pitch;
    __local float* t = tile + ly * H_TILE_STRIDE + lx;

    /* The first work-item of each row clears the row of the tile, so the halo left of and right
     * of the image reads as 0; then every work-item stores only the pixels inside the image. */
    /* The same racy clear and stores, each made with atomic_xchg: the race detector never pairs
     * two atomics, whatever order they land in. */
    if (lx == 0) {
        for (int i = 0; i < H_TILE_W; ++i)
            atomic_xchg((volatile __local int*)&tile[ly * H_TILE_STRIDE + i], 0);
    }

#pragma unroll
    for (int i = 0; i < H_RESULT_STEPS + 2; ++i) {
        const int x = baseX + i * H_GROUPSIZE_X;
        if (x >= 0 && x < Width)
            atomic_xchg((volatile __local int*)&t[i * H_GROUPSIZE_X], as_int(src[x]));
    }

    barrier(CLK_LOCAL_MEM_FENCE);

    __global float* dst = d_Dst + y * Pitch;
#pragma unroll
    for (int i = 1; i <= H_RESULT_STEPS; ++i) {
        const int x = baseX + i * H_GROUPSIZE_X;
        float sum = 0.0f;
#pragma unroll
        for (int k = -KERNEL_RADIUS; k <= KERNEL_RADIUS; ++k)
            sum += t[i * H_GROUPSIZE_X + k] * c_Kernel[KERNEL_RADIUS - k];
        if (x < Width)
            dst[x] = sum;
    }
}

__kernel __attribute__((reqd_work_group_size(V_GROUPSIZE_X, V_GROUPSIZE_Y, 1)))
void ConvVertical(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                  int Height, int Pitch)
{
    __local float tile[V_TILE_H * V_GROUPSIZE_X];

    const int lx = get_local_id(0);
    const int ly = get_local_id(1);
    const int x = get_global_id(0);

    /* Image y of this work-item's element 0 (in the top halo). */
    const int baseY = ((int)get_group_id(1) * V_RESULT_STEPS - 1) * V_GROUPSIZE_Y + ly;

    __local float* t = tile + ly * V_GROUPSIZE_X + lx;

#pragma unroll
    for (int i = 0; i < V_RESULT_STEPS + 2; ++i) {
        const int y = baseY + i * V_GROUPSIZE_Y;
        float v = 0.0f;
        if (y >= 0 && y < Height)
            v = d_Src[y * Pitch + x];
        t[i * V_GROUPSIZE_Y * V_GROUPSIZE_X] = v;
    }

    barrier(CLK_LOCAL_MEM_FENCE);

#pragma unroll
    for (int i = 1; i <= V_RESULT_STEPS; ++i) {
        const int y = baseY + i * V_GROUPSIZE_Y;
        float sum = 0.0f;
#pragma unroll
        for (int k = -KERNEL_RADIUS; k <= KERNEL_RADIUS; ++k)
            sum += t[(i * V_GROUPSIZE_Y + k) * V_GROUPSIZE_X] * c_Kernel[KERNEL_RADIUS - k];
        if (y < Height)
            d_Dst[y * Pitch + x] = sum;
    }
}
