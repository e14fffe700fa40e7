// 262144 fully unrolled multiply-adds: the compiler works for minutes, with little memory.
__kernel void Convolution(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                          uint Width, uint Height, uint Pitch)
{
    float s = 0.0f;
    #pragma unroll
    for (int i = 0; i < 64; ++i) {
        #pragma unroll
        for (int j = 0; j < 64; ++j) {
            #pragma unroll
            for (int k = 0; k < 64; ++k)
                s = s * c_Kernel[(i + j + k) % 11] + d_Src[(i * 7 + j * 3 + k) % Width];
        }
    }
    d_Dst[get_global_id(1) * Pitch + get_global_id(0)] = s;
}
