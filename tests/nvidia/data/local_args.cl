__kernel void onlyDyn(__global int* out, __local int* a, __local float* b, __constant int* k, int n) {
  int l = get_local_id(0);
  a[l] = l * k[0]; b[l] = l + n;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = a[(l + 1) % get_local_size(0)] + (int)b[(l + 3) % get_local_size(0)];
}
__kernel void staticAndDyn(__global int* out, __local int* a, int n) {
  __local int s[64];
  int l = get_local_id(0);
  a[l] = l * n; s[l % 64] = l;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = a[(l + 1) % get_local_size(0)] + s[(l + 5) % 64];
}
