// my separable convolution, horizontal and vertical pass
// (uses a local tile with halo)

#define KERNEL_LENGTH (2 * KERNEL_RADIUS + 1)
#define ALIGN_TO_32(v) ((((v) + 31) / 32) * 32)
#define ROW_W ((H_RESULT_STEPS + 2) * H_GROUPSIZE_X)
#define ROW_PITCH (H_GROUPSIZE_X + ALIGN_TO_32((H_RESULT_STEPS + 1) * H_GROUPSIZE_X))
#define COL_H ((V_RESULT_STEPS + 2) * V_GROUPSIZE_Y)

__kernel __attribute__((reqd_work_group_size(H_GROUPSIZE_X, H_GROUPSIZE_Y, 1)))
void ConvHorizontal(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                    int Width, int Pitch) {
  __local float cache[H_GROUPSIZE_Y * ROW_PITCH];
  const int col = get_local_id(0);
  const int row = get_local_id(1);
  const int gy = get_global_id(1);
  const int startX = ((int)get_group_id(0) * H_RESULT_STEPS - 1) * H_GROUPSIZE_X + col;
  __global const float* in = d_Src + gy * Pitch;
  __local float* c = cache + row * ROW_PITCH + col;
#pragma unroll
  for (int s = 0; s < H_RESULT_STEPS + 2; ++s) {
    const int px = startX + s * H_GROUPSIZE_X;
    float value = 0.0f;
    if (px >= 0 && px < Width) value = in[px];
    c[s * H_GROUPSIZE_X] = value;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  __global float* out = d_Dst + gy * Pitch;
#pragma unroll
  for (int s = 1; s <= H_RESULT_STEPS; ++s) {
    const int px = startX + s * H_GROUPSIZE_X;
    float acc = 0.0f;
#pragma unroll
    for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; ++j) acc += c[s * H_GROUPSIZE_X + j] * c_Kernel[KERNEL_RADIUS - j];
    if (px < Width) out[px] = acc;
  }
}

__kernel __attribute__((reqd_work_group_size(V_GROUPSIZE_X, V_GROUPSIZE_Y, 1)))
void ConvVertical(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                  int Height, int Pitch) {
  __local float cache[COL_H * V_GROUPSIZE_X];
  const int col = get_local_id(0);
  const int row = get_local_id(1);
  const int gx = get_global_id(0);
  const int startY = ((int)get_group_id(1) * V_RESULT_STEPS - 1) * V_GROUPSIZE_Y + row;
  __local float* c = cache + row * V_GROUPSIZE_X + col;
#pragma unroll
  for (int s = 0; s < V_RESULT_STEPS + 2; ++s) {
    const int py = startY + s * V_GROUPSIZE_Y;
    float value = 0.0f;
    if (py >= 0 && py < Height) value = d_Src[py * Pitch + gx];
    c[s * V_GROUPSIZE_Y * V_GROUPSIZE_X] = value;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
  for (int s = 1; s <= V_RESULT_STEPS; ++s) {
    const int py = startY + s * V_GROUPSIZE_Y;
    float acc = 0.0f;
#pragma unroll
    for (int j = -KERNEL_RADIUS; j <= KERNEL_RADIUS; ++j)
      acc += c[(s * V_GROUPSIZE_Y + j) * V_GROUPSIZE_X] * c_Kernel[KERNEL_RADIUS - j];
    if (py < Height) d_Dst[py * Pitch + gx] = acc;
  }
}
