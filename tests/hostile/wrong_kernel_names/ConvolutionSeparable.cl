// The passes under other names than the assignment's ConvHorizontal / ConvVertical.
__kernel void ConvolutionHorizontal(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                                    int Width, int Pitch)
{
    d_Dst[get_global_id(1) * Pitch + get_global_id(0)] = d_Src[get_global_id(1) * Pitch + get_global_id(0)];
}

__kernel void ConvolutionVertical(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                                  int Height, int Pitch)
{
    d_Dst[get_global_id(1) * Pitch + get_global_id(0)] = d_Src[get_global_id(1) * Pitch + get_global_id(0)];
}
