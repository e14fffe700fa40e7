#include "cl/launch.h"

#include "cl/kernel_args.h"

namespace clgrade {
namespace {

double eventMilliseconds(const cl::Event& event) {
  try {
    const cl_ulong start = event.getProfilingInfo<CL_PROFILING_COMMAND_START>();
    const cl_ulong end = event.getProfilingInfo<CL_PROFILING_COMMAND_END>();
    return static_cast<double>(end - start) * 1e-6;
  } catch (const cl::Error&) {
    return -1.0;  // a device without profiling still grades; the time is just unknown
  }
}

}  // namespace

std::string Geometry::str() const {
  return "global " + std::to_string(global[0]) + "x" + std::to_string(global[1]) + ", local " +
         std::to_string(local[0]) + "x" + std::to_string(local[1]);
}

double launch2d(const Runtime& rt, const cl::Kernel& kernel, const Geometry& g) {
  cl::Event event;
  rt.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(g.global[0], g.global[1]),
                                cl::NDRange(g.local[0], g.local[1]), nullptr, &event);
  event.wait();
  const double ms = eventMilliseconds(event);
  if (rt.observer) rt.observer->launched(rt, kernel, rt.observer->args[kernel()], g);
  return ms;
}

double launch1d(const Runtime& rt, const cl::Kernel& kernel, size_t global, size_t local) {
  cl::Event event;
  rt.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(global), cl::NDRange(local), nullptr, &event);
  event.wait();
  const double ms = eventMilliseconds(event);
  if (rt.observer) rt.observer->launched(rt, kernel, rt.observer->args[kernel()], Geometry{{global, 1}, {local, 1}});
  return ms;
}

}  // namespace clgrade
