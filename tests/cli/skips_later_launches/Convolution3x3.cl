/* A test of clgrade (issue 27): a correct 3x3 convolution that does its work once and skips it on
 * every later launch. Each work-group keeps a marker in front of its input buffer (the allocation's
 * front guard, outside the image: d_Src[-1 - group]); a group that finds its marker returns at once.
 * Without the refill of the output before each timed launch it looked many times faster than it is. */
#define MARKER 4242.5f

__kernel void Convolution(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                          uint Width, uint Height, uint Pitch)
{
    const int width = (int)Width, height = (int)Height, pitch = (int)Pitch;
    const int x = get_global_id(0), y = get_global_id(1);
    __global float* marker =
        (__global float*)d_Src - 1 - (int)(get_group_id(1) * get_num_groups(0) + get_group_id(0));
    if (*marker == MARKER)
        return; /* the whole group: done in an earlier launch */
    if (x < width && y < height) {
        float sum = 0.0f;
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                const int sx = x + dx, sy = y + dy;
                const float v = sx >= 0 && sx < width && sy >= 0 && sy < height ? d_Src[sy * pitch + sx] : 0.0f;
                sum += v * c_Kernel[3 * (dy + 1) + (dx + 1)];
            }
        d_Dst[y * pitch + x] = sum * c_Kernel[9] + c_Kernel[10];
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (get_local_id(0) == 0 && get_local_id(1) == 0)
        *marker = MARKER;
}
