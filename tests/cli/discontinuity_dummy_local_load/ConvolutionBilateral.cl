/*
 * Task 3, hostile (issue 27, spec 5c): the discontinuity kernels read each pixel and both neighbours
 * straight from global memory (as submissions/discontinuity_without_local_memory does) and pass each
 * pixel through one local-memory slot of their own on the way: a local store and a local load per
 * pixel, no tile. The rule that only asked "does it read local memory" gave
 * discontinuity_local_memory 2/2; counted per neighbour, its global reads are three pixels for each
 * it computes, and it gets 0. The edge-stopping passes are the sample's (tiled, correct).
 */

#define KERNEL_LENGTH (2 * KERNEL_RADIUS + 1)

#define NORM_THRESHOLD 0.9f
#define DEPTH_THRESHOLD 0.025f

#define ROUNDUP32(n) ((((n) + 31) / 32) * 32)

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
/* Discontinuity kernels: every work-item reads its pixel and both neighbours from global memory.  */

__kernel __attribute__((reqd_work_group_size(H_GROUPSIZE_X, H_GROUPSIZE_Y, 1)))
void DiscontinuityHorizontal(__global int* d_Disc, __global const float4* d_NormDepth,
                             int Width, int Height, int Pitch)
{
    volatile __local float4 slot[H_GROUPSIZE_X * H_GROUPSIZE_Y];
    const int lid = get_local_id(1) * H_GROUPSIZE_X + get_local_id(0);
    const int y = get_global_id(1);
    if (y >= Height)
        return;
    const int baseX = (int)get_group_id(0) * H_RESULT_STEPS * H_GROUPSIZE_X + (int)get_local_id(0);
    __global const float4* row = d_NormDepth + y * Pitch;

    for (int i = 0; i < H_RESULT_STEPS; ++i) {
        const int x = baseX + i * H_GROUPSIZE_X;
        if (x >= Width)
            break;
        slot[lid] = row[x];
        const float4 c = slot[lid];
        int flags = 0;
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
    volatile __local float4 slot[V_GROUPSIZE_X * V_GROUPSIZE_Y];
    const int lid = get_local_id(1) * V_GROUPSIZE_X + get_local_id(0);
    const int x = get_global_id(0);
    if (x >= Width)
        return;
    const int baseY = (int)get_group_id(1) * V_RESULT_STEPS * V_GROUPSIZE_Y + (int)get_local_id(1);

    for (int i = 0; i < V_RESULT_STEPS; ++i) {
        const int y = baseY + i * V_GROUPSIZE_Y;
        if (y >= Height)
            break;
        slot[lid] = d_NormDepth[y * Pitch + x];
        const float4 c = slot[lid];
        int flags = 0;
        if (y == 0 || IsDiscontinuity(c, d_NormDepth[(y - 1) * Pitch + x]))
            flags |= 4;
        if (y == Height - 1 || IsDiscontinuity(c, d_NormDepth[(y + 1) * Pitch + x]))
            flags |= 8;
        d_Disc[y * Pitch + x] |= flags;
    }
}

/* ---------------------------------------------------------------------------------------------- */
/* Edge-stopping passes: tiles of task 2 (one group of halo on each side), for pixels and flags.    */

#define H_TILE_STRIDE (H_GROUPSIZE_X + ROUNDUP32((H_RESULT_STEPS + 1) * H_GROUPSIZE_X))
#define V_TILE_H ((V_RESULT_STEPS + 2) * V_GROUPSIZE_Y)

__kernel __attribute__((reqd_work_group_size(H_GROUPSIZE_X, H_GROUPSIZE_Y, 1)))
void ConvHorizontal(__global float* d_Dst, __global const float* d_Src, __global const int* d_Disc,
                    __constant float* c_Kernel, int Width, int Height, int Pitch)
{
    __local float l_src[H_GROUPSIZE_Y * H_TILE_STRIDE];
    __local int l_disc[H_GROUPSIZE_Y * H_TILE_STRIDE];

    const int lx = get_local_id(0);
    const int ly = get_local_id(1);
    const int y = get_global_id(1);
    const int baseX = ((int)get_group_id(0) * H_RESULT_STEPS - 1) * H_GROUPSIZE_X + lx;
    const int base = ly * H_TILE_STRIDE + lx;

#pragma unroll
    for (int i = 0; i < H_RESULT_STEPS + 2; ++i) {
        const int x = baseX + i * H_GROUPSIZE_X;
        float v = 0.0f;
        int f = 0;
        if (x >= 0 && x < Width && y < Height) {
            v = d_Src[y * Pitch + x];
            f = d_Disc[y * Pitch + x];
        }
        l_src[base + i * H_GROUPSIZE_X] = v;
        l_disc[base + i * H_GROUPSIZE_X] = f;
    }

    barrier(CLK_LOCAL_MEM_FENCE);

    if (y >= Height)
        return;
#pragma unroll
    for (int i = 1; i <= H_RESULT_STEPS; ++i) {
        const int x = baseX + i * H_GROUPSIZE_X;
        if (x >= Width)
            break;
        __local const float* v = l_src + base + i * H_GROUPSIZE_X;
        __local const int* f = l_disc + base + i * H_GROUPSIZE_X;
        float sum = v[0] * c_Kernel[KERNEL_RADIUS];
        float wsum = c_Kernel[KERNEL_RADIUS];
        /* Walk left: k is the offset of the pixel being left. */
        for (int k = 0; k > -KERNEL_RADIUS; --k) {
            if ((f[k] & 1) || x + k == 0)
                break;
            const float w = c_Kernel[KERNEL_RADIUS - (k - 1)];
            sum += v[k - 1] * w;
            wsum += w;
        }
        /* Walk right. */
        for (int k = 0; k < KERNEL_RADIUS; ++k) {
            if ((f[k] & 2) || x + k == Width - 1)
                break;
            const float w = c_Kernel[KERNEL_RADIUS - (k + 1)];
            sum += v[k + 1] * w;
            wsum += w;
        }
        d_Dst[y * Pitch + x] = sum / wsum;
    }
}

__kernel __attribute__((reqd_work_group_size(V_GROUPSIZE_X, V_GROUPSIZE_Y, 1)))
void ConvVertical(__global float* d_Dst, __global const float* d_Src, __global const int* d_Disc,
                  __constant float* c_Kernel, int Width, int Height, int Pitch)
{
    __local float l_src[V_TILE_H * V_GROUPSIZE_X];
    __local int l_disc[V_TILE_H * V_GROUPSIZE_X];

    const int lx = get_local_id(0);
    const int ly = get_local_id(1);
    const int x = get_global_id(0);
    const int baseY = ((int)get_group_id(1) * V_RESULT_STEPS - 1) * V_GROUPSIZE_Y + ly;
    const int base = ly * V_GROUPSIZE_X + lx;

#pragma unroll
    for (int i = 0; i < V_RESULT_STEPS + 2; ++i) {
        const int y = baseY + i * V_GROUPSIZE_Y;
        float v = 0.0f;
        int f = 0;
        if (y >= 0 && y < Height && x < Width) {
            v = d_Src[y * Pitch + x];
            f = d_Disc[y * Pitch + x];
        }
        l_src[base + i * V_GROUPSIZE_Y * V_GROUPSIZE_X] = v;
        l_disc[base + i * V_GROUPSIZE_Y * V_GROUPSIZE_X] = f;
    }

    barrier(CLK_LOCAL_MEM_FENCE);

    if (x >= Width)
        return;
#pragma unroll
    for (int i = 1; i <= V_RESULT_STEPS; ++i) {
        const int y = baseY + i * V_GROUPSIZE_Y;
        if (y >= Height)
            break;
        __local const float* v = l_src + base + i * V_GROUPSIZE_Y * V_GROUPSIZE_X;
        __local const int* f = l_disc + base + i * V_GROUPSIZE_Y * V_GROUPSIZE_X;
        float sum = v[0] * c_Kernel[KERNEL_RADIUS];
        float wsum = c_Kernel[KERNEL_RADIUS];
        /* Walk up: k is the offset (in rows) of the pixel being left. */
        for (int k = 0; k > -KERNEL_RADIUS; --k) {
            if ((f[k * V_GROUPSIZE_X] & 4) || y + k == 0)
                break;
            const float w = c_Kernel[KERNEL_RADIUS - (k - 1)];
            sum += v[(k - 1) * V_GROUPSIZE_X] * w;
            wsum += w;
        }
        /* Walk down. */
        for (int k = 0; k < KERNEL_RADIUS; ++k) {
            if ((f[k * V_GROUPSIZE_X] & 8) || y + k == Height - 1)
                break;
            const float w = c_Kernel[KERNEL_RADIUS - (k + 1)];
            sum += v[(k + 1) * V_GROUPSIZE_X] * w;
            wsum += w;
        }
        d_Dst[y * Pitch + x] = sum / wsum;
    }
}
