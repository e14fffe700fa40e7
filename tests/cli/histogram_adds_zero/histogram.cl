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

/* One global atomic per pixel. */
__kernel void compute_histogram(__global int* histogram, __global const float* img, int width, int height,
                                int pitch, int num_hist_bins)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x < width && y < height)
        atomic_inc(&histogram[HistogramBin(img[y * pitch + x], num_hist_bins)]);
}

/* GAMING CASE hist_dummy_atomic_per_pixel: no local histogram. Every work-item makes one local
 * atomic that adds 0 to local_hist[0] (a local atomic per pixel, result thrown away); the counts are
 * made by the group's first 64 work-items, each of which walks the group's 16 x 16 pixels in global
 * memory and counts those of its own bin in a private register, then one global atomic_add per
 * non-empty bin: at most one global atomic per bin and group. */
__kernel void compute_histogram_local_memory(__global int* histogram, __global const float* img, int width,
                                             int height, int pitch, int num_hist_bins,
                                             __local int* local_hist)
{
    const int lid = get_local_id(1) * get_local_size(0) + get_local_id(0);
    if (lid == 0) local_hist[0] = 0; /* cleared, as an honest histogram's bins are */
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add(&local_hist[0], 0); /* the "local atomic per pixel" */
    if (lid < num_hist_bins) {
        const int gx0 = get_group_id(0) * get_local_size(0), gy0 = get_group_id(1) * get_local_size(1);
        int count = 0;
        for (int j = 0; j < (int)get_local_size(1); ++j)
            for (int i = 0; i < (int)get_local_size(0); ++i) {
                const int x = gx0 + i, y = gy0 + j;
                if (x < width && y < height && HistogramBin(img[y * pitch + x], num_hist_bins) == lid)
                    ++count;
            }
        if (count != 0)
            atomic_add(&histogram[lid], count);
    }
}
