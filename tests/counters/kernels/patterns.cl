/*
 * Local-memory access patterns with known bank costs (32 banks of 4 bytes, warps of 32).
 * Each kernel stores to local memory before its barrier (phase "load") and loads after it
 * (phase "compute"), with the same pattern, so both kinds must show the same cost.
 * Launch: 1-D, local size 64 (two warps a group); `buf` needs 64 * STRIDE elements.
 */
#ifndef STRIDE
#define STRIDE 1
#endif

/* Lane l uses word l * STRIDE: STRIDE 1 is conflict-free, 2 puts two words in every even bank
 * (1 conflict a request), 32 puts all 32 words in bank 0 (31 conflicts), 33 is free again. */
__kernel void Stride(__global float* out, __local float* buf)
{
    const int l = get_local_id(0);
    buf[l * STRIDE] = (float)l;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = buf[l * STRIDE];
}

/* Every lane loads the same word: one wavefront, a broadcast, no conflict. */
__kernel void Broadcast(__global float* out, __local float* buf)
{
    const int l = get_local_id(0);
    buf[l] = (float)l;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = buf[5];
}

/* Half the lanes load word 0, half word 32: two distinct words in bank 0, 1 conflict a request. */
__kernel void TwoWordsOneBank(__global float* out, __local float* buf)
{
    const int l = get_local_id(0);
    buf[l] = (float)l;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = buf[(l & 1) * 32];
}

/* float4 per lane, 16 bytes = 4 words: STRIDE 1 covers 128 consecutive words, 4 in each bank,
 * 4 wavefronts and no conflict; STRIDE 2 covers 16 banks with 8 words each: 8 wavefronts, 4 conflicts. */
__kernel void Float4(__global float4* out, __local float4* buf)
{
    const int l = get_local_id(0);
    buf[l * STRIDE] = (float4)(l);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = buf[l * STRIDE];
}
