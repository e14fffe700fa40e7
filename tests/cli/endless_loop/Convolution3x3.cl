// A kernel that never ends (its loop condition is always true, and it keeps storing): clgrade must
// stop its task after --task-timeout with a message naming the kernel, not hang, and grade the
// other task of this folder (histogram.cl, a copy of the reference's) as usual.
#define TILE_X 32
#define TILE_Y 16
__kernel __attribute__((reqd_work_group_size(TILE_X, TILE_Y, 1)))
void Convolution(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel,
                 uint Width, uint Height, uint Pitch)
{
    float v = 0.0f;
    while (d_Src[0] == d_Src[0])  // the first pixel is never NaN
        d_Dst[0] = (v += 1.0f);
}
