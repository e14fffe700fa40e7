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
    return clamp((int)(gray * (float)num_hist_bins), 0, num_hist_bins - 1);
}


__kernel void compute_histogram(__global int* histogram, __global const float* img, int width, int height,
                                int pitch, int num_hist_bins)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x < width && y < height)
        atomic_add(&histogram[HistogramBin(img[y * pitch + x], num_hist_bins)], 1);
}

/* Each work-item of the first group of every 4 along x counts 4 neighbouring pixels into a private
 * histogram, then adds its non-zero private bins into the group's local histogram with local atomics;
 * finally one global atomic per non-empty bin per group. */
#define SPAN 4
#define MAX_BINS 64

__kernel void compute_histogram_local_memory(__global int* histogram, __global const float* img, int width,
                                             int height, int pitch, int num_hist_bins,
                                             __local int* local_hist)
{
    if (get_group_id(0) % SPAN != 0)
        return; /* uniform per group */
    const int lid = get_local_id(1) * get_local_size(0) + get_local_id(0);
    const int n = get_local_size(0) * get_local_size(1);
    for (int i = lid; i < num_hist_bins; i += n)
        local_hist[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    int priv[MAX_BINS];
    for (int b = 0; b < MAX_BINS; ++b) priv[b] = 0;
    const int y = get_global_id(1);
    const int x0 = get_group_id(0) * get_local_size(0) + get_local_id(0) * SPAN;
    if (y < height) {
        for (int s = 0; s < SPAN; ++s) {
            const int x = x0 + s;
            if (x < width)
                priv[HistogramBin(img[y * pitch + x], num_hist_bins)]++;
        }
    }
    for (int b = 0; b < num_hist_bins; ++b)
        if (priv[b] != 0)
            atomic_add(&local_hist[b], priv[b]);
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int i = lid; i < num_hist_bins; i += n)
        if (local_hist[i] != 0)
            atomic_add(&histogram[i], local_hist[i]);
}
