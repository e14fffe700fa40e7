/*
 * A test of clgrade (spec 5c, "timed launches start from nothing"): a correct 3x3 convolution that
 * writes a wrong value wherever it finds an earlier launch's result in its output (a finite value
 * where clgrade's sentinel is a NaN). A kernel that skips its work there would have been timed on
 * the first launch's result; with every timed launch starting from the sentinel it never finds one.
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
    if (!isnan(d_Dst[y * pitch + x])) {
        d_Dst[y * pitch + x] = -12345.0f; /* "an earlier launch's result is here" */
        return;
    }

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
