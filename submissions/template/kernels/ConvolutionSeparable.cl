/*
 * Task 2: separable convolution.
 *
 * Built with: -cl-fast-relaxed-math -D KERNEL_RADIUS=R -D H_GROUPSIZE_X=.. -D H_GROUPSIZE_Y=..
 *             -D H_RESULT_STEPS=.. -D V_GROUPSIZE_X=.. -D V_GROUPSIZE_Y=.. -D V_RESULT_STEPS=..
 * c_Kernel holds KERNEL_LENGTH raw weights (not normalised).
 *
 * ConvHorizontal: d_Dst(x, y) = sum over k = -R..R of d_Src(x + k, y) * c_Kernel[R - k],
 *   taps outside [0, Width) count as 0.
 *   Launch: global {roundup(ceil(Width / H_RESULT_STEPS), H_GROUPSIZE_X), roundup(Height, H_GROUPSIZE_Y)},
 *   local {H_GROUPSIZE_X, H_GROUPSIZE_Y}. There is no height argument: the kernel runs on every
 *   launched row (the buffers have them). Never write a column x >= Width.
 * ConvVertical: d_Dst(x, y) = sum over k = -R..R of d_Src(x, y + k) * c_Kernel[R - k],
 *   taps outside [0, Height) count as 0.
 *   Launch: global {roundup(Width, V_GROUPSIZE_X), roundup(ceil(Height / V_RESULT_STEPS), V_GROUPSIZE_Y)},
 *   local {V_GROUPSIZE_X, V_GROUPSIZE_Y}. There is no width argument: computing the padding
 *   columns is fine (the launch width never exceeds Pitch). Never write a row y >= Height.
 *
 * Pixel (x, y) is at y * Pitch + x. Each work-item produces RESULT_STEPS outputs spaced by the group
 * width (horizontal) or group height (vertical). What earns the points: a local-memory tile holding
 * the group's pixels plus a halo of one group width (height) on each side -- you may assume
 * KERNEL_RADIUS <= the group size along the filter direction -- loaded cooperatively, then a barrier,
 * then the convolution from local memory. Your code must work for any RESULT_STEPS and group size.
 */

#define KERNEL_LENGTH (2 * KERNEL_RADIUS + 1)

__kernel __attribute__((reqd_work_group_size(H_GROUPSIZE_X, H_GROUPSIZE_Y, 1)))
void ConvHorizontal(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                    int Width, int Pitch)
{
    // TODO: load (H_RESULT_STEPS + 2) * H_GROUPSIZE_X pixels per row of the group into local memory
    // (the group's H_RESULT_STEPS * H_GROUPSIZE_X pixels plus one group width on each side, 0 outside
    // [0, Width)), barrier, then compute and store this work-item's H_RESULT_STEPS outputs (x < Width).
}

__kernel __attribute__((reqd_work_group_size(V_GROUPSIZE_X, V_GROUPSIZE_Y, 1)))
void ConvVertical(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                  int Height, int Pitch)
{
    // TODO: load (V_RESULT_STEPS + 2) * V_GROUPSIZE_Y rows of V_GROUPSIZE_X pixels into local memory
    // (0 outside [0, Height)), barrier, then compute and store this work-item's V_RESULT_STEPS
    // outputs (y < Height).
}
