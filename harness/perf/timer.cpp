#include "perf/timer.h"

#include <vector>

namespace clgrade {

TimingStats timeLaunch(const Runtime& rt, const TimedLaunch& launch, int warmups, int runs) {
  const cl::NDRange global(launch.geometry.global[0], launch.geometry.global[1]);
  const cl::NDRange local(launch.geometry.local[0], launch.geometry.local[1]);
  // All launches go into the in-order queue before the first wait, so the device never idles
  // between them waiting for the host (events still time each launch alone).
  std::vector<cl::Event> events(static_cast<size_t>(warmups + runs));
  for (cl::Event& e : events) rt.queue.enqueueNDRangeKernel(launch.handle, cl::NullRange, global, local, nullptr, &e);
  rt.queue.finish();
  std::vector<double> ms;
  for (size_t i = static_cast<size_t>(warmups); i < events.size(); ++i) {
    const cl_ulong start = events[i].getProfilingInfo<CL_PROFILING_COMMAND_START>();
    const cl_ulong end = events[i].getProfilingInfo<CL_PROFILING_COMMAND_END>();
    ms.push_back(static_cast<double>(end - start) * 1e-6);
  }
  return summarizeTimes(ms, warmups);
}

}  // namespace clgrade
