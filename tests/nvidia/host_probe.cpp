// host_probe: what one process gets from an OpenCL GPU while others use it too: the rate of one
// operation, for a few seconds, on the first GPU device. Run several at once (each its own
// CUDA_VISIBLE_DEVICES) to see what the host's processes share; docs/performance.md has the figures
// this gave on H100s (session of 2026-11-28, morning). Run by hand, not by CTest.
//
//   host_probe MODE SECONDS MB
//   MODE: step (a tiny kernel and a finish: a round trip), alloc (create a buffer of MB, write it,
//   release it), write / read (a blocking transfer of MB from or into ordinary memory),
//   pinned-write / pinned-read (the same from a mapped CL_MEM_ALLOC_HOST_PTR buffer: pinned memory),
//   ctx (a context, a queue, a build of a new source, all released),
//   life (once, as a runner's process lives: the platforms, the device, a context, a queue, a pinned
//   area of MB mapped, a build, all released; prints each step's milliseconds and ends: time it from
//   outside to see what starting and ending a process costs), life-exit (the same, ended by _exit
//   with nothing released: the driver frees it all at once).
// Prints "MODE MB: N in T s = X ms each".
#include <CL/cl.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include <unistd.h>
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}
static const char* src = "__kernel void k(__global float* a) { a[get_global_id(0)] += 1.0f; }";
int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: host_probe MODE SECONDS MB (see the file's first lines)\n");
    return 2;
  }
  const char* mode = argv[1];
  double secs = atof(argv[2]);
  size_t bytes = (size_t)(atof(argv[3]) * 1e6);
  const bool life = !strncmp(mode, "life", 4);
  double mark = now();
  auto lap = [&mark, life](const char* step) {  // life: one step's milliseconds
    const double t = now();
    if (life) std::printf("%s %.1f ", step, 1e3 * (t - mark));
    mark = t;
  };
  cl_platform_id plats[8];
  cl_uint np;
  clGetPlatformIDs(8, plats, &np);
  lap("platforms");
  cl_device_id dev = 0;
  for (cl_uint i = 0; i < np && !dev; ++i)
    if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS) dev = 0;
  if (!dev) {
    fprintf(stderr, "no GPU\n");
    return 1;
  }
  lap("device");
  cl_int e;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
  lap("context");
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &e);
  lap("queue");
  if (life) {
    cl_mem pin = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &e);
    void* mapped = clEnqueueMapBuffer(q, pin, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL, NULL, &e);
    lap("pinned");
    cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
    clBuildProgram(p, 1, &dev, "", NULL, NULL);
    lap("build");
    if (!strcmp(mode, "life-exit")) {
      std::printf("\n");
      std::fflush(stdout);
      _exit(0);
    }
    clEnqueueUnmapMemObject(q, pin, mapped, 0, NULL, NULL);
    clFinish(q);
    clReleaseMemObject(pin);
    clReleaseProgram(p);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    lap("release");
    std::printf("\n");
    return 0;
  }
  char* host = static_cast<char*>(std::malloc(bytes));
  memset(host, 1, bytes);
  if (!strncmp(mode, "pinned-", 7)) {  // the host side pinned: a mapped ALLOC_HOST_PTR buffer
    cl_mem pin = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &e);
    host = static_cast<char*>(
        clEnqueueMapBuffer(q, pin, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL, NULL, &e));
    memset(host, 1, bytes);
    mode += 7;
  }
  cl_mem keep = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &e);
  clEnqueueWriteBuffer(q, keep, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
  clBuildProgram(p, 1, &dev, "", NULL, NULL);
  cl_kernel k = clCreateKernel(p, "k", &e);
  clSetKernelArg(k, 0, sizeof(cl_mem), &keep);
  long n = 0;
  double t0 = now();
  while (now() - t0 < secs) {
    if (!strcmp(mode, "alloc")) {
      cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &e);
      clEnqueueWriteBuffer(q, b, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
      clReleaseMemObject(b);
    } else if (!strcmp(mode, "write")) {
      clEnqueueWriteBuffer(q, keep, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
    } else if (!strcmp(mode, "read")) {
      clEnqueueReadBuffer(q, keep, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
    } else if (!strcmp(mode, "step")) {
      size_t g = 1024;
      clEnqueueNDRangeKernel(q, k, 1, NULL, &g, NULL, 0, NULL, NULL);
      clFinish(q);
    } else if (!strcmp(mode, "ctx")) {
      cl_context c2 = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
      cl_command_queue q2 = clCreateCommandQueue(c2, dev, 0, &e);
      char s2[200];
      snprintf(s2, sizeof s2, "__kernel void k(__global float* a) { a[get_global_id(0)] += %ld.0f; }", n);
      const char* s2p = s2;
      cl_program p2 = clCreateProgramWithSource(c2, 1, &s2p, NULL, &e);
      clBuildProgram(p2, 1, &dev, "", NULL, NULL);
      clReleaseProgram(p2);
      clReleaseCommandQueue(q2);
      clReleaseContext(c2);
    }
    ++n;
  }
  double t = now() - t0;
  printf("%s %.0f MB: %ld in %.2f s = %.2f ms each\n", mode, bytes / 1e6, n, t, 1e3 * t / n);
  return 0;
}
