/*
 * Task 3: edge-stopping ("bilateral") filter -- NAIVE baseline (no local memory).
 *
 * This is the naive kernel clgrade times beside a submission's tiled kernels to report the speed-up
 * of tiling (naive time / submission time). Every neighbour, tap and flag is read straight from
 * global memory: no __local, no barriers. It is NOT a grading reference for correctness
 * (reference/kernels is).
 *
 * Built with the options of task 2: -cl-fast-relaxed-math -D KERNEL_RADIUS=R -D H_GROUPSIZE_X=..
 * -D H_GROUPSIZE_Y=.. -D H_RESULT_STEPS=.. -D V_GROUPSIZE_X=.. -D V_GROUPSIZE_Y=.. -D V_RESULT_STEPS=..
 * and launched like the tiled reference (reference/kernels/ConvolutionBilateral.cl): the H kernels
 * with the H group size, the V kernels with the V group size, each work-item covering RESULT_STEPS
 * pixels spaced by the group width (height) within its group's segment, exactly as in the tiled
 * version. The required work-group sizes are the -D sizes themselves.
 *
 * d_NormDepth holds one float4 per pixel: xyz = normal, w = depth. d_Disc holds one int per pixel:
 *   bit 1: left neighbour discontinuous or x == 0     bit 2: right neighbour, or x == Width - 1
 *   bit 4: upper neighbour discontinuous or y == 0    bit 8: lower neighbour, or y == Height - 1
 * DiscontinuityHorizontal writes bits 1/2 with '='; DiscontinuityVertical ORs bits 4/8 into the
 * pixel's own word. ConvHorizontal / ConvVertical walk left/right (up/down) from the centre and stop
 * before leaving a pixel flagged on that side or at the image border; out = sum / wsum.
 */

#define KERNEL_LENGTH (2 * KERNEL_RADIUS + 1)

#define NORM_THRESHOLD 0.9f
#define DEPTH_THRESHOLD 0.025f

bool IsNormalDiscontinuity(float4 n1, float4 n2)
{
    return fabs(dot(n1.xyz, n2.xyz)) < NORM_THRESHOLD;
}

bool IsDepthDiscontinuity(float d1, float d2)
{
    return fabs(d1 - d2) > DEPTH_THRESHOLD;
}

bool IsDiscontinuity(float4 p, float4 q)
{
    return IsNormalDiscontinuity(p, q) || IsDepthDiscontinuity(p.w, q.w);
}

/* ---------------------------------------------------------------------------------------------- */
/* Discontinuity kernels: the pixel and its neighbour read from global memory.                      */

__kernel __attribute__((reqd_work_group_size(H_GROUPSIZE_X, H_GROUPSIZE_Y, 1)))
void DiscontinuityHorizontal(__global int* d_Disc, __global const float4* d_NormDepth,
                             int Width, int Height, int Pitch)
{
    const int lx = get_local_id(0);
    const int y = get_global_id(1);
    if (y >= Height)
        return;

    /* Image x of this work-item's first pixel: the group's segment is H_RESULT_STEPS group widths. */
    const int firstX = (int)get_group_id(0) * H_RESULT_STEPS * H_GROUPSIZE_X + lx;
    __global const float4* row = d_NormDepth + y * Pitch;

    for (int i = 0; i < H_RESULT_STEPS; ++i) {
        const int x = firstX + i * H_GROUPSIZE_X;
        if (x >= Width)
            break; /* later steps lie further right */
        const float4 c = row[x];
        int flags = 0;
        /* The border tests come first: a neighbour outside the image is never read. */
        if (x == 0 || IsDiscontinuity(c, row[x - 1]))
            flags |= 1;
        if (x == Width - 1 || IsDiscontinuity(c, row[x + 1]))
            flags |= 2;
        d_Disc[y * Pitch + x] = flags;
    }
}

__kernel __attribute__((reqd_work_group_size(V_GROUPSIZE_X, V_GROUPSIZE_Y, 1)))
void DiscontinuityVertical(__global int* d_Disc, __global const float4* d_NormDepth,
                           int Width, int Height, int Pitch)
{
    const int ly = get_local_id(1);
    const int x = get_global_id(0);
    if (x >= Width)
        return;

    /* Image y of this work-item's first pixel: the group's segment is V_RESULT_STEPS group heights. */
    const int firstY = (int)get_group_id(1) * V_RESULT_STEPS * V_GROUPSIZE_Y + ly;

    for (int i = 0; i < V_RESULT_STEPS; ++i) {
        const int y = firstY + i * V_GROUPSIZE_Y;
        if (y >= Height)
            break; /* later steps lie further down */
        const float4 c = d_NormDepth[y * Pitch + x];
        int flags = 0;
        if (y == 0 || IsDiscontinuity(c, d_NormDepth[(y - 1) * Pitch + x]))
            flags |= 4;
        if (y == Height - 1 || IsDiscontinuity(c, d_NormDepth[(y + 1) * Pitch + x]))
            flags |= 8;
        if (flags != 0) /* OR-ing 0 in changes nothing: skip the read-modify-write */
            d_Disc[y * Pitch + x] |= flags;
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* Edge-stopping passes: source pixels and flags read from global memory.                           */

__kernel __attribute__((reqd_work_group_size(H_GROUPSIZE_X, H_GROUPSIZE_Y, 1)))
void ConvHorizontal(__global float* d_Dst, __global const float* d_Src, __global const int* d_Disc,
                    __constant float* c_Kernel, int Width, int Height, int Pitch)
{
    const int lx = get_local_id(0);
    const int y = get_global_id(1);
    if (y >= Height)
        return;

    const int firstX = (int)get_group_id(0) * H_RESULT_STEPS * H_GROUPSIZE_X + lx;
    __global const float* src = d_Src + y * Pitch;
    __global const int* disc = d_Disc + y * Pitch;

    for (int i = 0; i < H_RESULT_STEPS; ++i) {
        const int x = firstX + i * H_GROUPSIZE_X;
        if (x >= Width)
            break;
        float sum = src[x] * c_Kernel[KERNEL_RADIUS];
        float wsum = c_Kernel[KERNEL_RADIUS];
        /* Walk left: k is the offset of the pixel being left; the walk never leaves the image. */
        for (int k = 0; k > -KERNEL_RADIUS; --k) {
            if ((disc[x + k] & 1) || x + k == 0)
                break;
            const float w = c_Kernel[KERNEL_RADIUS - (k - 1)];
            sum += src[x + k - 1] * w;
            wsum += w;
        }
        /* Walk right. */
        for (int k = 0; k < KERNEL_RADIUS; ++k) {
            if ((disc[x + k] & 2) || x + k == Width - 1)
                break;
            const float w = c_Kernel[KERNEL_RADIUS - (k + 1)];
            sum += src[x + k + 1] * w;
            wsum += w;
        }
        d_Dst[y * Pitch + x] = sum / wsum;
    }
}

__kernel __attribute__((reqd_work_group_size(V_GROUPSIZE_X, V_GROUPSIZE_Y, 1)))
void ConvVertical(__global float* d_Dst, __global const float* d_Src, __global const int* d_Disc,
                  __constant float* c_Kernel, int Width, int Height, int Pitch)
{
    const int ly = get_local_id(1);
    const int x = get_global_id(0);
    if (x >= Width)
        return;

    const int firstY = (int)get_group_id(1) * V_RESULT_STEPS * V_GROUPSIZE_Y + ly;

    for (int i = 0; i < V_RESULT_STEPS; ++i) {
        const int y = firstY + i * V_GROUPSIZE_Y;
        if (y >= Height)
            break;
        const int p = y * Pitch + x;
        float sum = d_Src[p] * c_Kernel[KERNEL_RADIUS];
        float wsum = c_Kernel[KERNEL_RADIUS];
        /* Walk up: k is the offset (in rows) of the pixel being left. */
        for (int k = 0; k > -KERNEL_RADIUS; --k) {
            if ((d_Disc[p + k * Pitch] & 4) || y + k == 0)
                break;
            const float w = c_Kernel[KERNEL_RADIUS - (k - 1)];
            sum += d_Src[p + (k - 1) * Pitch] * w;
            wsum += w;
        }
        /* Walk down. */
        for (int k = 0; k < KERNEL_RADIUS; ++k) {
            if ((d_Disc[p + k * Pitch] & 8) || y + k == Height - 1)
                break;
            const float w = c_Kernel[KERNEL_RADIUS - (k + 1)];
            sum += d_Src[p + (k + 1) * Pitch] * w;
            wsum += w;
        }
        d_Dst[y * Pitch + x] = sum / wsum;
    }
}
