/*
 * Task 4: histogram -- NAIVE baseline (no local memory).
 *
 * This is the naive kernel clgrade times beside a submission's kernels to report the speed-up of
 * local memory (naive time / submission time). Both histogram kernels use global atomics only, one
 * per pixel: no __local histogram, no barriers. It is NOT a grading reference for correctness
 * (reference/kernels is).
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

/* One global atomic per pixel. */
__kernel void compute_histogram(__global int* histogram, __global const float* img, int width, int height,
                                int pitch, int num_hist_bins)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x < width && y < height)
        atomic_inc(&histogram[HistogramBin(img[y * pitch + x], num_hist_bins)]);
}

/* The naive version of the local-memory kernel: the same signature, but local_hist is left unused
 * and every pixel goes straight to the global histogram with one global atomic. */
__kernel void compute_histogram_local_memory(__global int* histogram, __global const float* img, int width,
                                             int height, int pitch, int num_hist_bins,
                                             __local int* local_hist)
{
    (void)local_hist; /* the naive baseline keeps no local histogram */
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x < width && y < height)
        atomic_inc(&histogram[HistogramBin(img[y * pitch + x], num_hist_bins)]);
}
