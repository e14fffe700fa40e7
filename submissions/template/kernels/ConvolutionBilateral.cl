/*
 * Task 3: edge-stopping ("bilateral") filter.
 *
 * Built with the options of task 2: -cl-fast-relaxed-math -D KERNEL_RADIUS=R -D H_GROUPSIZE_X=..
 * -D H_GROUPSIZE_Y=.. -D H_RESULT_STEPS=.. -D V_GROUPSIZE_X=.. -D V_GROUPSIZE_Y=.. -D V_RESULT_STEPS=..
 * Launch geometry as in task 2 (horizontal kernels with the H sizes, vertical ones with the V sizes);
 * every work-item covers RESULT_STEPS pixels spaced by the group width (height).
 * Pixel (x, y) is at y * Pitch + x in every buffer.
 *
 * d_NormDepth: one float4 per pixel, xyz = normal, w = depth.
 * d_Disc: one int of flags per pixel. Two neighbours p, q are discontinuous if
 * IsNormalDiscontinuity(p, q) or IsDepthDiscontinuity(p.w, q.w) (helpers below).
 *   bit 1: the left neighbour is discontinuous, or x == 0
 *   bit 2: the right neighbour is discontinuous, or x == Width - 1
 *   bit 4: the upper neighbour is discontinuous, or y == 0
 *   bit 8: the lower neighbour is discontinuous, or y == Height - 1
 * DiscontinuityHorizontal writes bits 1/2 with '='; DiscontinuityVertical ORs bits 4/8 into the
 * pixel's own flag word (it never reads a neighbour's flags). Load the normals and depths the group
 * needs into local memory first: that earns the points.
 *
 * ConvHorizontal (edge-stopping): sum = src(x) * c_Kernel[R], wsum = c_Kernel[R]. Walk left from the
 * centre with the offset k = 0, -1, ..., -R: before each step stop if the pixel being left (x + k)
 * has bit 1 or is at x == 0; otherwise step (k -= 1) and add src(x + k) * c_Kernel[R - k] to sum
 * and c_Kernel[R - k] to wsum. Walk right likewise with bit 2 and x == Width - 1.
 * d_Dst(x, y) = sum / wsum. ConvVertical is the same along y with bits 4/8.
 * Use local-memory tiles as in task 2. Never write outside the image (x < Width, y < Height).
 */

#define KERNEL_LENGTH (2 * KERNEL_RADIUS + 1)

#define NORM_THRESHOLD 0.9f
#define DEPTH_THRESHOLD 0.025f

/* Given: the normals (xyz only) of two neighbours differ too much. */
bool IsNormalDiscontinuity(float4 n1, float4 n2)
{
    return fabs(dot(n1.xyz, n2.xyz)) < NORM_THRESHOLD;
}

/* Given: the depths of two neighbours differ too much. */
bool IsDepthDiscontinuity(float d1, float d2)
{
    return fabs(d1 - d2) > DEPTH_THRESHOLD;
}

__kernel __attribute__((reqd_work_group_size(H_GROUPSIZE_X, H_GROUPSIZE_Y, 1)))
void DiscontinuityHorizontal(__global int* d_Disc, __global const float4* d_NormDepth,
                             int Width, int Height, int Pitch)
{
    // TODO: load the group's normals/depths plus the left and right neighbour pixels into local
    // memory, barrier, then for each of this work-item's H_RESULT_STEPS pixels inside the image
    // write bits 1 and 2 with '='.
}

__kernel __attribute__((reqd_work_group_size(V_GROUPSIZE_X, V_GROUPSIZE_Y, 1)))
void DiscontinuityVertical(__global int* d_Disc, __global const float4* d_NormDepth,
                           int Width, int Height, int Pitch)
{
    // TODO: load the group's normals/depths plus the rows above and below into local memory,
    // barrier, then for each of this work-item's V_RESULT_STEPS pixels inside the image OR bits
    // 4 and 8 into its flag word.
}

__kernel __attribute__((reqd_work_group_size(H_GROUPSIZE_X, H_GROUPSIZE_Y, 1)))
void ConvHorizontal(__global float* d_Dst, __global const float* d_Src, __global const int* d_Disc,
                    __constant float* c_Kernel, int Width, int Height, int Pitch)
{
    // TODO: load the source pixels (and flags) of the group plus one group width of halo on each
    // side into local memory, barrier, then run the edge-stopping walk for each of this work-item's
    // H_RESULT_STEPS pixels inside the image.
}

__kernel __attribute__((reqd_work_group_size(V_GROUPSIZE_X, V_GROUPSIZE_Y, 1)))
void ConvVertical(__global float* d_Dst, __global const float* d_Src, __global const int* d_Disc,
                  __constant float* c_Kernel, int Width, int Height, int Pitch)
{
    // TODO: as ConvHorizontal, along y with bits 4 (up) and 8 (down).
}
