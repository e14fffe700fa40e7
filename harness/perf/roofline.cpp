#include "perf/roofline.h"

#include "cl/device_step.h"

#include <algorithm>

#include "cl/kernel_args.h"

namespace clgrade {
namespace {

// Nothing but loads and stores of consecutive elements: what any kernel of the assignment must
// at least move runs at this rate at best.
const char* kCopySource = R"(
__kernel void copy4(__global float4* dst, __global const float4* src) {
  const size_t i = get_global_id(0);
  dst[i] = src[i];
}
__kernel void read4(__global const float4* src, __global float* sink, uint n4) {
  if (get_global_id(0) >= n4) return;
  const float4 v = src[get_global_id(0)];
  if (v.x == -1.5f && v.y == 2.5f)  /* never true for the fill: nothing is written, nothing optimized away */
    sink[0] = v.z + v.w;
}
__kernel void copy1(__global float* dst, __global const float* src, uint n) {
  const size_t i = get_global_id(0);
  if (i < n) dst[i] = src[i];
}
__kernel void empty(__global int* sink, int never) {
  if (never) sink[0] = 1;  /* an argument and a branch, like any kernel: the launch is what costs */
}
)";

struct CopyBuffers {
  cl::Buffer src, dst;
};

}  // namespace

TimedLaunch copyLaunch(const Runtime& rt, size_t planeBytes, bool wide) {
  auto b = std::make_shared<CopyBuffers>();
  const size_t floats = (planeBytes + 3) / 4;
  const size_t group = 256;
  const bool vector = wide && floats % 4 == 0 && (floats / 4) % group == 0;
  TimedLaunch l;
  // clgrade's own kernel, prepared on the device (a device step: the keeper only lays it out).
  deviceAction(rt, "copy-kernel", [&] {
    cl::Program program(rt.context, kCopySource);
    program.build({rt.device.device});
    b->src = cl::Buffer(rt.context, CL_MEM_READ_WRITE, floats * 4);
    b->dst = cl::Buffer(rt.context, CL_MEM_READ_WRITE, floats * 4);
    rt.queue.enqueueFillBuffer(b->src, 1.0f, 0, floats * 4);
    rt.queue.finish();
    l.handle = cl::Kernel(program, vector ? "copy4" : "copy1");
    if (!vector) l.handle.setArg(2, static_cast<cl_uint>(floats));
    l.handle.setArg(0, b->dst);
    l.handle.setArg(1, b->src);
  });
  l.kernel = wide ? "copy" : "copy (float)";
  l.keepAlive = b;
  l.bytes = 2.0 * floats * 4;
  l.pixels = static_cast<double>(floats);
  if (vector) {
    l.what = "float4 copy of one plane";
    l.geometry = Geometry{{floats / 4, 1}, {group, 1}};
  } else {
    l.what = "float copy of one plane";
    l.geometry = Geometry{{(floats + group - 1) / group * group, 1}, {group, 1}};
  }
  return l;
}

TimedLaunch readLaunch(const Runtime& rt, size_t planeBytes) {
  auto b = std::make_shared<CopyBuffers>();
  const size_t n4 = std::max<size_t>(1, planeBytes / 16);
  TimedLaunch l;
  deviceAction(rt, "read-kernel", [&] {
    cl::Program program(rt.context, kCopySource);
    program.build({rt.device.device});
    b->src = cl::Buffer(rt.context, CL_MEM_READ_WRITE, n4 * 16);
    b->dst = cl::Buffer(rt.context, CL_MEM_READ_WRITE, 16);
    rt.queue.enqueueFillBuffer(b->src, 1.0f, 0, n4 * 16);
    rt.queue.finish();
    l.handle = cl::Kernel(program, "read4");
    l.handle.setArg(0, b->src);
    l.handle.setArg(1, b->dst);
    l.handle.setArg(2, static_cast<cl_uint>(n4));
  });
  l.kernel = "read";
  l.what = "float4 read of one plane";
  l.keepAlive = b;
  l.bytes = static_cast<double>(n4 * 16);
  l.pixels = static_cast<double>(n4 * 4);
  const size_t group = 256;
  l.geometry = Geometry{{(n4 + group - 1) / group * group, 1}, {group, 1}};
  return l;
}

TimedLaunch emptyLaunch(const Runtime& rt, const Geometry& geometry) {
  auto b = std::make_shared<CopyBuffers>();
  TimedLaunch l;
  deviceAction(rt, "empty-kernel", [&] {
    cl::Program program(rt.context, kCopySource);
    program.build({rt.device.device});
    b->dst = cl::Buffer(rt.context, CL_MEM_READ_WRITE, 16);
    l.handle = cl::Kernel(program, "empty");
    l.handle.setArg(0, b->dst);
    l.handle.setArg(1, static_cast<cl_int>(0));
  });
  l.kernel = "empty launch";
  l.what = "an empty kernel on the same geometry";
  l.keepAlive = b;
  l.geometry = geometry;
  return l;
}

}  // namespace clgrade
