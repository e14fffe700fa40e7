/*
 * Task 2: separable convolution -- NAIVE baseline (no local memory).
 *
 * This is the naive kernel clgrade times beside a submission's tiled kernels to report the speed-up
 * of tiling (naive time / submission time). Every tap is read straight from global memory: no
 * __local, no barriers. It is NOT a grading reference for correctness (reference/kernels is).
 *
 * Built with: -cl-fast-relaxed-math -D KERNEL_RADIUS=R -D H_GROUPSIZE_X=.. -D H_GROUPSIZE_Y=..
 *             -D H_RESULT_STEPS=.. -D V_GROUPSIZE_X=.. -D V_GROUPSIZE_Y=.. -D V_RESULT_STEPS=..
 * and launched exactly like the tiled reference (reference/kernels/ConvolutionSeparable.cl):
 *   horizontal: global {roundup(ceil(W / H_RESULT_STEPS), H_GROUPSIZE_X), roundup(H, H_GROUPSIZE_Y)}
 *   vertical:   global {roundup(W, V_GROUPSIZE_X), roundup(ceil(H / V_RESULT_STEPS), V_GROUPSIZE_Y)}
 * Each work-item computes the same outputs as in the tiled version: RESULT_STEPS pixels spaced by
 * the group width (horizontal) or group height (vertical), starting at the group's segment.
 * The required work-group sizes are the -D sizes themselves, so they never contradict the host.
 *
 * Semantics as the tiled reference: tmp(x, y) = sum over k = -R..R of src(x + k, y) * c[R - k], taps
 * outside [0, Width) count as 0, summed in increasing k; likewise in y with [0, Height).
 * ConvHorizontal has no height: it runs on every launched row, like the reference (the host's
 * buffers have those rows), and never writes a column x >= Width. ConvVertical has no width: it
 * also computes the padding columns (the launch width never exceeds Pitch), and never writes a row
 * y >= Height.
 */

#define KERNEL_LENGTH (2 * KERNEL_RADIUS + 1)

__kernel __attribute__((reqd_work_group_size(H_GROUPSIZE_X, H_GROUPSIZE_Y, 1)))
void ConvHorizontal(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                    int Width, int Pitch)
{
    const int lx = get_local_id(0);
    const int y = get_global_id(1);

    /* Image x of this work-item's first output: the group's segment is H_RESULT_STEPS group widths. */
    const int firstX = (int)get_group_id(0) * H_RESULT_STEPS * H_GROUPSIZE_X + lx;

    __global const float* src = d_Src + y * Pitch;
    __global float* dst = d_Dst + y * Pitch;

    for (int i = 0; i < H_RESULT_STEPS; ++i) {
        const int x = firstX + i * H_GROUPSIZE_X;
        if (x >= Width)
            break; /* later steps lie further right */
        float sum = 0.0f;
        for (int k = -KERNEL_RADIUS; k <= KERNEL_RADIUS; ++k) {
            const int sx = x + k;
            float v = 0.0f;
            if (sx >= 0 && sx < Width)
                v = src[sx];
            sum += v * c_Kernel[KERNEL_RADIUS - k];
        }
        dst[x] = sum;
    }
}

__kernel __attribute__((reqd_work_group_size(V_GROUPSIZE_X, V_GROUPSIZE_Y, 1)))
void ConvVertical(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                  int Height, int Pitch)
{
    const int ly = get_local_id(1);
    const int x = get_global_id(0);

    /* Image y of this work-item's first output: the group's segment is V_RESULT_STEPS group heights. */
    const int firstY = (int)get_group_id(1) * V_RESULT_STEPS * V_GROUPSIZE_Y + ly;

    for (int i = 0; i < V_RESULT_STEPS; ++i) {
        const int y = firstY + i * V_GROUPSIZE_Y;
        if (y >= Height)
            break; /* later steps lie further down */
        float sum = 0.0f;
        for (int k = -KERNEL_RADIUS; k <= KERNEL_RADIUS; ++k) {
            const int sy = y + k;
            float v = 0.0f;
            if (sy >= 0 && sy < Height)
                v = d_Src[sy * Pitch + x];
            sum += v * c_Kernel[KERNEL_RADIUS - k];
        }
        d_Dst[y * Pitch + x] = sum;
    }
}
