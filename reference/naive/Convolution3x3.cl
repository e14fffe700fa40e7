/*
 * Task 1: 3x3 convolution -- NAIVE baseline (no local memory).
 *
 * This is the naive kernel clgrade times beside a submission's tiled kernel to report the speed-up
 * of tiling (naive time / submission time). Every tap is read straight from global memory: no
 * __local, no barriers. It is NOT a grading reference for correctness (reference/kernels is).
 *
 * Build: no options. The kernel declares no reqd_work_group_size, so clgrade launches it with its
 * default task-1 geometry: global {roundup(W, 32), roundup(H, 16)}, local {32, 16}. One work-item
 * computes one output pixel, so any local size works.
 *
 * Semantics as reference/kernels/Convolution3x3.cl: correlation order (K[dy + 1][dx + 1] weighs
 * src(x + dx, y + dy)), dy outer and dx inner, taps outside the image count as 0, then
 * out = sum * c_Kernel[9] + c_Kernel[10].
 */

__kernel void Convolution(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                          uint Width, uint Height, uint Pitch)
{
    const int width = (int)Width;
    const int height = (int)Height;
    const int pitch = (int)Pitch;

    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height)
        return; /* launch padding: nothing to compute, nothing written outside the image */

    float sum = 0.0f;
    for (int dy = -1; dy <= 1; ++dy) {
        const int sy = y + dy;
        for (int dx = -1; dx <= 1; ++dx) {
            const int sx = x + dx;
            /* Outside the image the pixel is 0 (the tiled reference stores 0 there). */
            float v = 0.0f;
            if (sx >= 0 && sx < width && sy >= 0 && sy < height)
                v = d_Src[sy * pitch + sx];
            sum += v * c_Kernel[3 * (dy + 1) + (dx + 1)];
        }
    }
    d_Dst[y * pitch + x] = sum * c_Kernel[9] + c_Kernel[10];
}
