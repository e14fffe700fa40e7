// Correct counts, and 40 lines of printf per pixel (about 2 GB of output per launch).
__kernel void set_array_to_constant(__global int* array, int num_elements, int val)
{
    int id = get_global_id(0);
    if (id < num_elements)
        array[id] = val;
}

int HistogramBin(float gray, int num_hist_bins)
{
    return clamp((int)(gray * (float)num_hist_bins), 0, num_hist_bins - 1);
}

__kernel void compute_histogram(__global int* histogram, __global const float* img, int width, int height,
                                int pitch, int num_hist_bins)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    for (int i = 0; i < 40; ++i)
        printf("pixel %d %d: line %d of my debugging output, which nobody will ever read\n", x, y, i);
    if (x < width && y < height)
        atomic_inc(&histogram[HistogramBin(img[y * pitch + x], num_hist_bins)]);
}

__kernel void compute_histogram_local_memory(__global int* histogram, __global const float* img, int width,
                                             int height, int pitch, int num_hist_bins,
                                             __local int* local_hist)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    printf("pixel %d %d\n", x, y);
    if (x < width && y < height)
        atomic_inc(&histogram[HistogramBin(img[y * pitch + x], num_hist_bins)]);
}
