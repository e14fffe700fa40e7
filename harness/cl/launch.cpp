#include "cl/launch.h"

#include "cl/device_step.h"
#include "cl/kernel_args.h"
#include "protocol/progress.h"

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

namespace {
/// A kernel that never ends or crashes the driver is named by the progress file (task children).
void noteLaunch(const cl::Kernel& kernel) {
  if (!progress::enabled()) return;
  std::string name;
  try {
    name = kernel.getInfo<CL_KERNEL_FUNCTION_NAME>();
  } catch (const cl::Error&) {
  }
  while (!name.empty() && name.back() == '\0') name.pop_back();
  progress::note(progress::Step::Kernel, name);
}
}  // namespace

std::string Geometry::str() const {
  return "global " + std::to_string(global[0]) + "x" + std::to_string(global[1]) + ", local " +
         std::to_string(local[0]) + "x" + std::to_string(local[1]);
}

double launch2d(const Runtime& rt, const cl::Kernel& kernel, const Geometry& g) {
  const std::string ms = deviceStep(rt, "launch", [&] {
    noteLaunch(kernel);
    cl::Event event;
    rt.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(g.global[0], g.global[1]),
                                  cl::NDRange(g.local[0], g.local[1]), nullptr, &event);
    event.wait();
    const double t = eventMilliseconds(event);
    if (rt.observer) rt.observer->launched(rt, kernel, rt.observer->args[kernel()], g);
    return tape::f64(t);
  });
  size_t at = 0;
  return tape::readF64(ms, &at);
}

double launch1d(const Runtime& rt, const cl::Kernel& kernel, size_t global, size_t local) {
  const std::string ms = deviceStep(rt, "launch", [&] {
    noteLaunch(kernel);
    cl::Event event;
    rt.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(global), cl::NDRange(local), nullptr, &event);
    event.wait();
    const double t = eventMilliseconds(event);
    if (rt.observer) rt.observer->launched(rt, kernel, rt.observer->args[kernel()], Geometry{{global, 1}, {local, 1}});
    return tape::f64(t);
  });
  size_t at = 0;
  return tape::readF64(ms, &at);
}

}  // namespace clgrade
