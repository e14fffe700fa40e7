// ConvVertical never ends; ConvHorizontal is correct (plain, without local memory).
#define KERNEL_LENGTH (2 * KERNEL_RADIUS + 1)

// A work-group covers H_GROUPSIZE_Y rows of H_RESULT_STEPS * H_GROUPSIZE_X pixels, as the launch assumes.
__kernel __attribute__((reqd_work_group_size(H_GROUPSIZE_X, H_GROUPSIZE_Y, 1)))
void ConvHorizontal(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                    int Width, int Pitch)
{
    const int y = get_global_id(1);
    const int x0 = (int)get_group_id(0) * H_RESULT_STEPS * H_GROUPSIZE_X + (int)get_local_id(0);
    for (int s = 0; s < H_RESULT_STEPS; ++s) {
        const int x = x0 + s * H_GROUPSIZE_X;
        if (x >= Width)
            continue;
        float sum = 0.0f;
        for (int k = -KERNEL_RADIUS; k <= KERNEL_RADIUS; ++k) {
            const int xk = x + k;
            if (xk >= 0 && xk < Width)
                sum += d_Src[y * Pitch + xk] * c_Kernel[KERNEL_RADIUS - k];
        }
        d_Dst[y * Pitch + x] = sum;
    }
}

// Its loop condition is always true (the first pixel is never NaN), and it keeps storing.
__kernel __attribute__((reqd_work_group_size(V_GROUPSIZE_X, V_GROUPSIZE_Y, 1)))
void ConvVertical(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                  int Height, int Pitch)
{
    float v = 0.0f;
    while (d_Src[0] == d_Src[0])
        d_Dst[0] = (v += 1.0f);
}
