/*
 * Kernels for how lanes are paired into requests, what counts as which kind, and phases.
 * Launch: 1-D, local size 64 (two warps a group).
 */

/* Lane l runs 1 + l % 3 iterations and stores word i * 32 + l in iteration i. A warp runs the
 * loop three times; iteration i holds the lanes still in it, one word per bank: 3 requests a warp,
 * no conflict. Paired by instruction alone, a bank would get up to 3 words. buf: 128 floats. */
__kernel void UnevenLoop(__global float* out, __local float* buf)
{
    const int l = get_local_id(0);
    const int n = 1 + l % 3;
    for (int i = 0; i < n; ++i)
        buf[i * 32 + l] = (float)i;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = buf[l];
}

/* One cost per kind: stores stride 2 (1 conflict a request), loads stride 4 (8 banks with 4 words:
 * 3 conflicts), atomics on words 0 and 32 (both bank 0: 1 conflict). buf: 256 ints. */
__kernel void Kinds(__global int* out, __local int* buf)
{
    const int l = get_local_id(0);
    buf[2 * l] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    const int v = buf[4 * l];
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add(&buf[(l & 1) * 32], 1);
    out[get_global_id(0)] = v;
}

/* Phase "load" holds what happens before the first barrier only: a stride-2 store (1 conflict).
 * Phase "compute": a stride-2 load (1 conflict), a consecutive store and load (none). buf: 128 floats. */
__kernel void Phases(__global float* out, __local float* buf)
{
    const int l = get_local_id(0);
    buf[2 * l] = (float)l; /* PHASE-LOAD-STORE */
    barrier(CLK_LOCAL_MEM_FENCE);
    const float v = buf[2 * l]; /* PHASE-COMPUTE-LOAD */
    barrier(CLK_LOCAL_MEM_FENCE);
    buf[l] = v + 1.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = buf[63 - l];
}

/* Accesses per address space, a lane at a time: global loads 3 (two of a, one of the __constant
 * c, which Oclgrind keeps in global memory), global stores 1, global atomics 1; local stores 1
 * (plus 1 for lane 0), local loads 1 for even lanes, local atomics 1. a: global size + 1 floats. */
__kernel void Counts(__global float* a, __global int* hist, __constant float* c, __local float* buf)
{
    __local int count[1];
    const int l = get_local_id(0);
    const int g = get_global_id(0);
    float x = (a[g] + a[g + 1]) * c[0];
    buf[l] = x;
    if (l == 0)
        count[0] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l % 2 == 0)
        x += buf[l + 1];
    atomic_inc(&count[0]);
    atomic_inc(&hist[l % 4]);
    a[g] = x;
}

/* The group copies 64 floats into local memory with async_work_group_copy, then each lane loads
 * one. Oclgrind performs the copy for the group, element by element, with no lane: 64 global loads
 * and 64 local stores a group that form no request. wait_group_events is a barrier for Oclgrind:
 * the lanes' loads are phase "compute". buf: 64 floats. */
__kernel void AsyncCopy(__global float* out, __global const float* in, __local float* buf)
{
    event_t e = async_work_group_copy(buf, in + get_group_id(0) * 64, 64, 0);
    wait_group_events(1, &e);
    out[get_global_id(0)] = buf[get_local_id(0)];
}

/* Each warp fills 2 rows of 34 words: a row loop outside, a column loop inside that runs twice
 * for lanes 0 and 1 (x = lx, lx + 32) and once for the others. The warp issues (row 0, first
 * column pass: 32 lanes), (row 0, second pass: lanes 0 and 1), then the same for row 1:
 * 4 requests, each on consecutive words, no conflict. Pairing each lane's k-th store instead
 * would put lanes 0 and 1's second store (words 32, 33) with the others' row-1 store (words
 * 36..65): 32 and 64 share bank 0, a conflict the hardware never sees. buf: 136 floats. */
__kernel void NestedLoops(__global float* out, __local float* buf)
{
    const int lx = get_local_id(0) % 32;
    const int warp = get_local_id(0) / 32;
    for (int y = 0; y < 2; ++y)
        for (int x = lx; x < 34; x += 32)
            buf[warp * 68 + y * 34 + x] = 1.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = buf[get_local_id(0)];
}

/* A helper kept as a call, called from two places: one store instruction, two for the warp.
 * The first call stores consecutive words (free), the second stride 2 (1 conflict a request).
 * buf: 128 floats. */
__attribute__((noinline)) void put(__local float* p, int i, float v)
{
    p[i] = v; /* HELPER-STORE */
}

__kernel void TwoCallSites(__global float* out, __local float* buf)
{
    const int l = get_local_id(0);
    put(buf, l, 1.0f);
    put(buf, 2 * l, 2.0f);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = buf[l];
}

/* What a tile is for (spec 5c): each lane stores its word, then loads its own (shares nothing) and
 * its neighbour's (another work-item stored it). Local atomics: an add of 0 (reads only), an inc
 * and an add of 3: they add up to 4 a lane, as many as the words it reads. buf: 64 ints; h: 4 ints. */
__kernel void Sharing(__global int* out, __local int* buf, __local int* h)
{
    const int l = get_local_id(0);
    if (l < 4) h[l] = 0;
    buf[l] = l;
    barrier(CLK_LOCAL_MEM_FENCE);
    const int own = buf[l];
    const int next = buf[(l + 1) % 64];
    int read = 0;  /* four words of global memory: what the atomics may count */
    for (int i = 0; i < 4; ++i) read += out[(get_global_id(0) + i) % 128];
    atomic_add(&h[0], 0);
    atomic_inc(&h[1]);
    atomic_add(&h[2], 3);
    out[get_global_id(0)] = own + next + read;
}

/* Spec 5c: a kernel that reads a pointer's value can tell the simulator (whose buffers carry their
 * number in an address's top bits) from a device. PointerNone stores, loads and compares pointers
 * with null only; PointerCast casts one to an integer (Oclgrind's optimiser makes it a comparison
 * with a fixed address); PointerUnion reads one back through a union. out: 128 ints. */
__kernel void PointerNone(__global int* out)
{
    __global int* mine = out + get_global_id(0);
    if (mine != 0) *mine = (int)get_global_id(0);
}

__kernel void PointerCast(__global int* out)
{
    const int g = get_global_id(0);
    out[g] = ((ulong)out >> 47) != 0 ? g + 1 : g;
}

typedef union { __global int* p; ulong u; } PointerBits;
__kernel void PointerUnion(__global int* out)
{
    volatile PointerBits bits;
    bits.p = out;
    const int g = get_global_id(0);
    out[g] = (bits.u >> 47) != 0 ? g + 1 : g;
}

/* Found by an honest corpus: reading no address. PointerOffsets walks a local pointer up to the
 * tile's end, takes its offset as a difference of pointers into the tile and tests a buffer's
 * alignment; PointerApart subtracts two buffers' addresses (their distance, which the simulator's
 * buffer numbers set) and PointerLowBits reads 12 low bits of one (beyond what every device aligns).
 * out, in: 128 ints. */
__kernel void PointerOffsets(__global int* out)
{
    __local int tile[64];
    const int l = get_local_id(0);
    for (__local int* t = tile + l; t < tile + 64; t += get_local_size(0)) *t = (int)(t - tile);
    barrier(CLK_LOCAL_MEM_FENCE);
    const int aligned = ((size_t)out & 15) == 0;
    out[get_global_id(0)] = tile[l % 64] + aligned;
}

__kernel void PointerApart(__global int* out, __global int* in)
{
    out[get_global_id(0)] = (out - in) > 100000 ? 1 : 0;
}

__kernel void PointerLowBits(__global int* out)
{
    out[get_global_id(0)] = ((size_t)out & 0xFFF) == 0 ? 1 : 0;
}

/* A lane counts at most the global words it read (found by a review): lane 0 reads one word and
 * adds 1 << 30, lane 1 reads none and adds 5, lane 2 reads one and subtracts 3. h: 4 ints. */
__kernel void HugeAdd(__global int* in, __local int* h)
{
    const int l = get_local_id(0);
    if (l == 0) atomic_add(&h[0], in[get_global_id(0)] + (1 << 30));
    if (l == 1) atomic_add(&h[1], 5);
    if (l == 2) atomic_sub(&h[2], 3 + in[get_global_id(0)]);
}

/* Found by an honest corpus: what an async copy reads counts for the group's adds (each lane adds 2,
 * reading nothing itself; the copy read 64 words a group), and a compare-and-swap that swaps adds new
 * minus old (one that fails adds nothing). h: 64 ints. */
__kernel void StagedAdds(__global int* in, __local int* h)
{
    __local int stage[64];
    event_t e = async_work_group_copy(stage, in + get_group_id(0) * 64, 64, 0);
    wait_group_events(1, &e);
    atomic_add(&h[get_local_id(0) % 4], 2);
}

__kernel void SwapAdds(__global int* in, __local int* h)
{
    const int l = get_local_id(0);
    h[l] = in[get_global_id(0)] == -7 ? 3 : 0;  /* a word read: what a lane may count */
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_cmpxchg(&h[l], 0, 1);
    atomic_cmpxchg(&h[l], 5, 9);
}

/* Found by a gaming corpus: what the simulator sees that no device need run alike. UnsetLocal reads a
 * local word its group never stored (undefined: zeros here, another group's leftovers on a device);
 * Float3Local stores and reads float3s (their padding is no unset word); FloatOverflow converts a float
 * out of int's range; ExchangeApart has two work-items exchange different values into one local word
 * with no barrier between, ExchangeAlike the same value. out: 128 ints. */
__kernel void UnsetLocal(__global int* out)
{
    __local int mark[2];
    const int seen = mark[1];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) mark[1] = 5; /* what the next group on a device would find */
    out[get_global_id(0)] = seen;
}

__kernel void Float3Local(__global int* out)
{
    __local float3 v[64];
    const int l = get_local_id(0);
    v[l] = (float3)(l, 1, 2);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = (int)v[63 - l].x;
}

__kernel void FloatOverflow(__global int* out)
{
    out[get_global_id(0)] = (int)((float)get_global_size(0) * 1e10f);
}

__kernel void ConvertOverflow(__global int* out)
{
    out[get_global_id(0)] = convert_int((float)get_global_size(0) * 1e10f) != 0 ? 1 : 0;
}

__kernel void ExchangeApart(__global int* out)
{
    __local int word[1];
    const int l = get_local_id(0);
    if (l < 2) atomic_xchg(&word[0], l);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = word[0];
}

__kernel void ExchangeAlike(__global int* out)
{
    __local int word[1];
    atomic_xchg(&word[0], 7);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = word[0];
}

/* Found by a review: an atomic that changes nothing still reads what another group left; a byte's
 * store leaves its word's other bytes unset; a __local array's address is read as a constant
 * expression; a test-and-set lock exchanges 1 and 0 by turns, which is no race. out: 128 ints. */
__kernel void AtomicOnUnset(__global int* out)
{
    __local int probe[1];
    const int seen = atomic_or(&probe[0], 0);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = seen;
}

__kernel void ByteOfAWord(__global int* out)
{
    __local int probe[1];
    if (get_local_id(0) == 0) ((__local uchar*)probe)[0] = 0x39;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = probe[0] >> 8;
}

__kernel void LocalAddressBits(__global int* out)
{
    __local int tile[64];
    tile[get_local_id(0)] = 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = ((ulong)(&tile[0]) >> 48) != 0 ? tile[0] : 2;
}

__kernel void LockByExchange(__global int* out)
{
    __local int lock[1];
    __local int count[1];
    if (get_local_id(0) == 0) { lock[0] = 0; count[0] = 0; }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) < 2) {
        while (atomic_xchg(&lock[0], 1) != 0) {}
        count[0] += 1;
        atomic_xchg(&lock[0], 0);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = count[0];
}
