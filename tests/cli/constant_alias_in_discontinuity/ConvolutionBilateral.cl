/* GAMING CASE: the discontinuity kernels read the pixel and both neighbours straight from global
 * memory, through a __constant-typed alias of d_NormDepth (a pointer stored into local memory and
 * loaded back as __constant): Oclgrind books those reads as constant, not global, and each load of the
 * pointer from local memory is a "local load of a word another work-item stored" per output. */
/*
 * Task 3: edge-stopping ("bilateral") filter -- reference solution.
 *
 * Built with the options of task 2: -cl-fast-relaxed-math -D KERNEL_RADIUS=R -D H_GROUPSIZE_X=..
 * -D H_GROUPSIZE_Y=.. -D H_RESULT_STEPS=.. -D V_GROUPSIZE_X=.. -D V_GROUPSIZE_Y=.. -D V_RESULT_STEPS=..
 *
 * d_NormDepth holds one float4 per pixel: xyz = normal, w = depth. d_Disc holds one int per pixel:
 *   bit 1: left neighbour discontinuous or x == 0     bit 2: right neighbour, or x == Width - 1
 *   bit 4: upper neighbour discontinuous or y == 0    bit 8: lower neighbour, or y == Height - 1
 *
 * DiscontinuityHorizontal (H group size) writes bits 1/2 with '='; DiscontinuityVertical (V group
 * size) ORs bits 4/8 into the pixel's own word. Each work-item covers RESULT_STEPS pixels spaced by
 * the group width (height). The group's normals and depths, plus one pixel on each side, go to
 * local memory as four separate float planes (x, y, z, depth): 4-byte accesses whose addresses are
 * congruent (mod 32) to the flat local id plus a per-group constant, hence bank-conflict-free.
 *
 * ConvHorizontal / ConvVertical: the edge-stopping pass. Source pixels and flags of the group's
 * segment plus one group width (height) of halo on each side (KERNEL_RADIUS <= group size along
 * the filter direction) go to local memory, laid out like task 2's tiles; each work-item then walks
 * left/right (up/down) from its pixel, stopping before it would leave a pixel flagged on that side.
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
/* Local tiles of the discontinuity kernels: planes of nx, ny, nz, depth.                          */

/* Horizontal: H_RESULT_STEPS * H_GROUPSIZE_X + 2 pixels per row; stride == H_GROUPSIZE_X (mod 32). */
#define DH_TILE_W (H_RESULT_STEPS * H_GROUPSIZE_X + 2)
#define DH_STRIDE (H_GROUPSIZE_X + ROUNDUP32(DH_TILE_W - H_GROUPSIZE_X))
#define DH_SIZE (H_GROUPSIZE_Y * DH_STRIDE)

/* Vertical: V_RESULT_STEPS * V_GROUPSIZE_Y + 2 rows of V_GROUPSIZE_X pixels. */
#define DV_TILE_H (V_RESULT_STEPS * V_GROUPSIZE_Y + 2)
#define DV_SIZE (DV_TILE_H * V_GROUPSIZE_X)

/* Loads pixel (x, y) (zero outside the image) into element i of the four planes. */
void StoreNormDepth(__local float* l_nx, __local float* l_ny, __local float* l_nz, __local float* l_d,
                    int i, __global const float4* d_NormDepth, int x, int y, int Width, int Height,
                    int Pitch)
{
    float4 v = (float4)(0.0f);
    if (x >= 0 && x < Width && y >= 0 && y < Height)
        v = d_NormDepth[y * Pitch + x];
    l_nx[i] = v.x;
    l_ny[i] = v.y;
    l_nz[i] = v.z;
    l_d[i] = v.w;
}

float4 LoadNormDepth(__local const float* l_nx, __local const float* l_ny, __local const float* l_nz,
                     __local const float* l_d, int i)
{
    return (float4)(l_nx[i], l_ny[i], l_nz[i], l_d[i]);
}

/* The packed normals and depths as a __constant pointer: stored into local memory as the __global
 * pointer it is and loaded back (after a barrier) as a __constant one. Every load through it reads the
 * image straight from global memory on every device, but Oclgrind books it as a __constant access. */
#define CONSTANT_ALIAS(from)                                                               \
    __global const float4* __local slot[1];                                               \
    if (get_local_id(0) == 0 && get_local_id(1) == 0) slot[0] = (from);                   \
    barrier(CLK_LOCAL_MEM_FENCE);

/* Each load of the slot is a local load of a word another work-item (lane 0) stored. */
#define ALIAS() (((__constant float4* volatile __local*)slot)[0])

__kernel __attribute__((reqd_work_group_size(H_GROUPSIZE_X, H_GROUPSIZE_Y, 1)))
void DiscontinuityHorizontal(__global int* d_Disc, __global const float4* d_NormDepth,
                             int Width, int Height, int Pitch)
{
    CONSTANT_ALIAS(d_NormDepth)
    const int y = get_global_id(1);
    if (y >= Height)
        return;
    const int x0 = (int)get_group_id(0) * H_RESULT_STEPS * H_GROUPSIZE_X + get_local_id(0);
    for (int i = 0; i < H_RESULT_STEPS; ++i) {
        const int x = x0 + i * H_GROUPSIZE_X;
        __constant float4* src = ALIAS();
        if (x < Width) {
            const float4 c = src[y * Pitch + x];
            int flags = 0;
            if (x == 0 || IsDiscontinuity(c, src[y * Pitch + x - 1]))
                flags |= 1;
            if (x == Width - 1 || IsDiscontinuity(c, src[y * Pitch + x + 1]))
                flags |= 2;
            d_Disc[y * Pitch + x] = flags;
        }
    }
}

__kernel __attribute__((reqd_work_group_size(V_GROUPSIZE_X, V_GROUPSIZE_Y, 1)))
void DiscontinuityVertical(__global int* d_Disc, __global const float4* d_NormDepth,
                           int Width, int Height, int Pitch)
{
    CONSTANT_ALIAS(d_NormDepth)
    const int x = get_global_id(0);
    if (x >= Width)
        return;
    const int y0 = (int)get_group_id(1) * V_RESULT_STEPS * V_GROUPSIZE_Y + get_local_id(1);
    for (int i = 0; i < V_RESULT_STEPS; ++i) {
        const int y = y0 + i * V_GROUPSIZE_Y;
        __constant float4* src = ALIAS();
        if (y < Height) {
            const float4 c = src[y * Pitch + x];
            int flags = 0;
            if (y == 0 || IsDiscontinuity(c, src[(y - 1) * Pitch + x]))
                flags |= 4;
            if (y == Height - 1 || IsDiscontinuity(c, src[(y + 1) * Pitch + x]))
                flags |= 8;
            if (flags != 0)
                d_Disc[y * Pitch + x] |= flags;
        }
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
