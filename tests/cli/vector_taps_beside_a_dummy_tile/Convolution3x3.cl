/* VARIANT: conv_vector_taps at the assignment groups 32 x 16 (budget 2*34*18/512 = 2.39 loads per item). */
/* GAMING CASE conv_vector_taps: no tile at all. Every work-item reads its own 3x3 neighbourhood
 * straight from global memory, one vload4 per row (3 global load instructions per pixel), and makes
 * one dummy store into a volatile local array so that "stores something into local memory" holds.
 * With the kernel's own 128 x 2 groups the rule's budget is 2 * 130 * 4 = 1040 loads per group of
 * 256 items (4.06 per item), so 3 vector loads per pixel fit under it. */
#define TILE_X 32
#define TILE_Y 16

__kernel __attribute__((reqd_work_group_size(TILE_X, TILE_Y, 1)))
void Convolution(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                 uint Width, uint Height, uint Pitch)
{
    volatile __local float dummy[TILE_X * TILE_Y];
    const int width = (int)Width, height = (int)Height, pitch = (int)Pitch;
    const int x = get_global_id(0), y = get_global_id(1);
    const int lid = get_local_id(1) * TILE_X + get_local_id(0);
    dummy[lid] = 0.0f; /* consecutive ids, consecutive words: no bank conflicts */
    if (x >= width || y >= height)
        return;
    float sum = 0.0f;
    for (int dy = -1; dy <= 1; ++dy) {
        const int sy = y + dy;
        float4 v = (float4)(0.0f);
        if (sy >= 0 && sy < height) {
            __global const float* row = d_Src + sy * pitch;
            if (x >= 1 && x + 2 < pitch) {
                v = vload4(0, row + x - 1); /* columns x-1 .. x+2 */
            } else {
                if (x >= 1) v.x = row[x - 1];
                v.y = row[x];
                if (x + 1 < width) v.z = row[x + 1];
            }
            if (x + 1 >= width) v.z = 0.0f;
        }
        sum += v.x * c_Kernel[3 * (dy + 1) + 0];
        sum += v.y * c_Kernel[3 * (dy + 1) + 1];
        sum += v.z * c_Kernel[3 * (dy + 1) + 2];
    }
    d_Dst[y * pitch + x] = sum * c_Kernel[9] + c_Kernel[10];
}
