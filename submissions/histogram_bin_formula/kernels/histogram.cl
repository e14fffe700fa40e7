/*
 * Task 4: histogram -- reference solution.
 *
 * Build: no options. The host computes the gray image (0.3 R + 0.59 G + 0.11 B) with a pitch of
 * roundup(W, 32); pixel (x, y) is img[y * pitch + x]. Bin of a gray value g:
 * clamp((int)(g * num_hist_bins), 0, num_hist_bins - 1), so g == 1.0 lands in the last bin.
 * Launch: set_array_to_constant on a 1-D range of 256 (local 256), then one histogram kernel on
 * global {roundup(W, 16), roundup(H, 16)}, local {16, 16}.
 */

/* Given: fills the first num_elements ints of array with val. */
__kernel void set_array_to_constant(__global int* array, int num_elements, int val)
{
    int id = get_global_id(0);
    if (id < num_elements)
        array[id] = val;
}

int HistogramBin(float gray, int num_hist_bins)
{
    return clamp((int)(gray * (float)(num_hist_bins - 1)), 0, num_hist_bins - 1);
}

/* One global atomic per pixel. */
__kernel void compute_histogram(__global int* histogram, __global const float* img, int width, int height,
                                int pitch, int num_hist_bins)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x < width && y < height)
        atomic_inc(&histogram[HistogramBin(img[y * pitch + x], num_hist_bins)]);
}

/* Per-group histogram in local memory (local atomics), merged with one global atomic per non-empty
 * bin per group. local_hist is a local allocation of num_hist_bins ints. */
__kernel void compute_histogram_local_memory(__global int* histogram, __global const float* img, int width,
                                             int height, int pitch, int num_hist_bins,
                                             __local int* local_hist)
{
    const int lid = get_local_id(1) * get_local_size(0) + get_local_id(0);
    const int groupSize = get_local_size(0) * get_local_size(1);

    for (int i = lid; i < num_hist_bins; i += groupSize)
        local_hist[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x < width && y < height)
        atomic_inc(&local_hist[HistogramBin(img[y * pitch + x], num_hist_bins)]);
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int i = lid; i < num_hist_bins; i += groupSize) {
        const int count = local_hist[i];
        if (count != 0)
            atomic_add(&histogram[i], count);
    }
}
