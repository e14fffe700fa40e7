// NaN in every output pixel.
__kernel void Convolution(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                          uint Width, uint Height, uint Pitch)
{
    const int x = get_global_id(0), y = get_global_id(1);
    if (x >= (int)Width || y >= (int)Height)
        return;
    float sum = 0.0f;
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
            const int sx = x + dx, sy = y + dy;
            if (sx >= 0 && sx < (int)Width && sy >= 0 && sy < (int)Height)
                sum += d_Src[sy * (int)Pitch + sx] * c_Kernel[3 * (dy + 1) + (dx + 1)];
        }
    d_Dst[y * (int)Pitch + x] = NAN + sum;
}
