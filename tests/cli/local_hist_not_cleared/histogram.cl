// A student histogram whose local array is never cleared: Oclgrind's uninitialized-value check must name line 15.
__kernel void set_array_to_constant(__global int* array, int num_elements, int val) { int id = get_global_id(0); if (id < num_elements) array[id] = val; }
__kernel void compute_histogram(__global int* histogram, __global const float* img, int width, int height, int pitch, int num_hist_bins) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= width || y >= height) return;
  int bin = clamp((int)(img[y * pitch + x] * num_hist_bins), 0, num_hist_bins - 1);
  atomic_inc(&histogram[bin]);
}
__kernel void compute_histogram_local_memory(__global int* histogram, __global const float* img, int width, int height, int pitch, int num_hist_bins, __local int* local_hist) {
  int x = get_global_id(0), y = get_global_id(1);
  int lid = get_local_id(1) * get_local_size(0) + get_local_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (x < width && y < height) {
    int bin = clamp((int)(img[y * pitch + x] * num_hist_bins), 0, num_hist_bins - 1);
    atomic_inc(&local_hist[bin]);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < num_hist_bins) atomic_add(&histogram[lid], local_hist[lid]);
}
