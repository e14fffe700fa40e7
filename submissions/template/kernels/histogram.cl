/*
 * Task 4: histogram.
 *
 * The program is built with no options. The host computes the gray image
 * (0.3 R + 0.59 G + 0.11 B); pixel (x, y) is img[y * pitch + x]. A gray value g falls into bin
 * clamp((int)(g * num_hist_bins), 0, num_hist_bins - 1), so g == 1.0 counts in the last bin.
 * The host clears the histogram with set_array_to_constant (1-D range of 256, local 256), then
 * launches one histogram kernel on global {roundup(width, 16), roundup(height, 16)}, local {16, 16}.
 * Every count must be exact: increments from different work-items must be atomic.
 */

/* Given: fills the first num_elements ints of array with val. */
__kernel void set_array_to_constant(__global int* array, int num_elements, int val)
{
    int id = get_global_id(0);
    if (id < num_elements)
        array[id] = val;
}

__kernel void compute_histogram(__global int* histogram, __global const float* img, int width, int height,
                                int pitch, int num_hist_bins)
{
    // TODO: for this work-item's pixel (if inside the image), compute its bin and increment
    // histogram[bin] with a global atomic.
}

__kernel void compute_histogram_local_memory(__global int* histogram, __global const float* img, int width,
                                             int height, int pitch, int num_hist_bins,
                                             __local int* local_hist)
{
    // TODO: clear local_hist (num_hist_bins ints, shared by the work-group), barrier, count this
    // work-item's pixel with a local atomic, barrier, then add each bin of local_hist to the
    // global histogram (one global atomic_add per bin).
}
