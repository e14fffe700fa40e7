#include "perf/timer.h"

#include <vector>

#include "cl/device_step.h"
#include "util/timing_lock.h"
#include "util/work_time.h"

namespace clgrade {

TimingStats timeLaunch(const Runtime& rt, const TimedLaunch& launch, int warmups, int runs) {
  // The times are what the runner measured; the statistics are the keeper's.
  const std::string recorded = deviceStep(rt, "timing", [&] {
    const TimingLock turn(rt.timingLock);  // before the clock: waiting is not timing
    const work_time::Scope timer("timed launches");
    const cl::NDRange global(launch.geometry.global[0], launch.geometry.global[1]);
    const cl::NDRange local(launch.geometry.local[0], launch.geometry.local[1]);
    // Spec 5c: every launch, warm-ups included, starts from nothing. What the kernel writes is set
    // back before each launch (a device copy of its state when this timing began, or zeros),
    // outside the events, so no launch finds an earlier one's result in its output.
    std::vector<cl::Buffer> before(launch.written.size());
    for (size_t i = 0; i < launch.written.size(); ++i)
      if (!launch.written[i].zero) {
        before[i] = cl::Buffer(rt.context, CL_MEM_READ_WRITE, launch.written[i].bytes);
        rt.queue.enqueueCopyBuffer(launch.written[i].whole, before[i], 0, 0, launch.written[i].bytes);
      }
    auto setBack = [&] {
      for (size_t i = 0; i < launch.written.size(); ++i) {
        const WrittenBuffer& w = launch.written[i];
        if (w.zero)
          rt.queue.enqueueFillBuffer(w.whole, cl_uchar(0), 0, w.bytes);
        else
          rt.queue.enqueueCopyBuffer(before[i], w.whole, 0, 0, w.bytes);
      }
    };
    // All launches go into the in-order queue before the first wait, so the device never idles
    // between them waiting for the host (events still time each launch alone).
    std::vector<cl::Event> events(static_cast<size_t>(warmups + runs));
    for (cl::Event& e : events) {
      setBack();
      rt.queue.enqueueNDRangeKernel(launch.handle, cl::NullRange, global, local, nullptr, &e);
    }
    rt.queue.finish();
    std::string bytes;
    for (size_t i = static_cast<size_t>(warmups); i < events.size(); ++i) {
      const cl_ulong start = events[i].getProfilingInfo<CL_PROFILING_COMMAND_START>();
      const cl_ulong end = events[i].getProfilingInfo<CL_PROFILING_COMMAND_END>();
      bytes += tape::f64(static_cast<double>(end - start) * 1e-6);
    }
    return bytes;
  });
  if (recorded.size() != size_t(runs) * 8)
    throw TapeMismatch("the runner's record holds another number of timed launches");
  std::vector<double> ms;
  size_t at = 0;
  while (at < recorded.size()) ms.push_back(tape::readF64(recorded, &at));
  return summarizeTimes(ms, warmups);
}

}  // namespace clgrade
