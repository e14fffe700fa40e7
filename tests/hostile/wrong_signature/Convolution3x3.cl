// Convolution without its Height and Pitch arguments.
__kernel void Convolution(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel, uint Width)
{
    d_Dst[get_global_id(1) * Width + get_global_id(0)] = d_Src[get_global_id(1) * Width + get_global_id(0)];
}
