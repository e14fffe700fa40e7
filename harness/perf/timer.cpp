#include "perf/timer.h"

#include <algorithm>
#include <vector>

#include "cl/device_step.h"
#include "util/timing_lock.h"
#include "util/work_time.h"

namespace clgrade {

TimingStats timeLaunch(const Runtime& rt, const TimedLaunch& launch, int warmups, int runs, double budgetSeconds) {
  // The times are what the runner measured, with the warm-ups it kept; the statistics are the keeper's.
  const std::string recorded = deviceStep(rt, "timing", [&] {
    const cl::NDRange global(launch.geometry.global[0], launch.geometry.global[1]);
    const cl::NDRange local(launch.geometry.local[0], launch.geometry.local[1]);
    // Spec 5c: every launch, warm-ups included, starts from nothing. What the kernel writes is set
    // back before each launch (a device copy of its state when this timing began, or zeros),
    // outside the events, so no launch finds an earlier one's result in its output.
    // Those copies are made, and freed, outside the lock: allocating and freeing device memory are
    // driver work of milliseconds that every other grade of the GPU would wait for. Declared before
    // the lock, they outlive it.
    std::vector<cl::Buffer> before(launch.written.size());
    for (size_t i = 0; i < launch.written.size(); ++i)
      if (!launch.written[i].zero) {
        before[i] = cl::Buffer(rt.context, CL_MEM_READ_WRITE, launch.written[i].bytes);
        rt.queue.enqueueCopyBuffer(launch.written[i].whole, before[i], 0, 0, launch.written[i].bytes);
      }
    rt.queue.finish();  // nothing of this grade's still runs when the timed launches start
    auto setBack = [&] {
      for (size_t i = 0; i < launch.written.size(); ++i) {
        const WrittenBuffer& w = launch.written[i];
        if (w.zero)
          rt.queue.enqueueFillBuffer(w.whole, cl_uchar(0), 0, w.bytes);
        else
          rt.queue.enqueueCopyBuffer(before[i], w.whole, 0, 0, w.bytes);
      }
    };
    auto enqueue = [&](cl::Event* e) {
      setBack();
      rt.queue.enqueueNDRangeKernel(launch.handle, cl::NullRange, global, local, nullptr, e);
    };
    auto ms = [](const cl::Event& e) {
      return static_cast<double>(e.getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                                 e.getProfilingInfo<CL_PROFILING_COMMAND_START>()) *
             1e-6;
    };
    // Warm-ups alone first, two at most: a kernel whose launch takes long (a printf in every
    // work-item, a loop of millions of steps) gets the launches that fit the budget, at least
    // kMinTimedRuns, instead of holding the GPU's timing lock, which every other grade of the machine
    // waits for, for minutes. A second lone warm-up before a cut: a first launch can be its slowest.
    int keptWarmups = warmups, keptRuns = runs;
    std::vector<cl::Event> events;
    {
      const TimingLock turn(rt.timingLock);  // before the clock: waiting is not timing
      const work_time::Scope timer("timed launches");
      if (warmups > 0 && budgetSeconds > 0) {
        double fastestMs = 0;
        int alone = 0;
        auto fit = [&] { return budgetSeconds * 1e3 / std::max(fastestMs, 1e-6); };  // launches, from here
        while (alone < std::min(warmups, 2)) {
          events.emplace_back();
          enqueue(&events.back());
          rt.queue.finish();
          const double took = ms(events.back());
          fastestMs = alone++ == 0 ? took : std::min(fastestMs, took);
          if (fit() >= warmups - alone + runs) break;
        }
        if (fit() < warmups - alone + runs) {
          keptRuns = std::clamp(static_cast<int>(fit()), std::min(runs, kMinTimedRuns), runs);
          keptWarmups = alone + std::clamp(static_cast<int>(fit()) - keptRuns, 0, warmups - alone);
        }
      }
      // All launches go into the in-order queue before the next wait, so the device never idles
      // between them waiting for the host (events still time each launch alone).
      const size_t first = events.size();  // the warm-ups launched alone
      events.resize(static_cast<size_t>(keptWarmups + keptRuns));
      for (size_t i = first; i < events.size(); ++i) enqueue(&events[i]);
      rt.queue.finish();
    }  // the lock is let go; the events keep their times
    std::string bytes = tape::f64(keptWarmups);
    for (size_t i = static_cast<size_t>(keptWarmups); i < events.size(); ++i) bytes += tape::f64(ms(events[i]));
    return bytes;
  });
  size_t at = 0;
  const double keptWarmups = recorded.size() >= 8 ? tape::readF64(recorded, &at) : -1;
  const size_t timed = recorded.size() / 8 - 1;
  if (recorded.size() % 8 || !(keptWarmups >= 0 && keptWarmups <= warmups) || timed > size_t(runs) ||
      timed < size_t(std::min(runs, kMinTimedRuns)))
    throw TapeMismatch("the runner's record holds another number of timed launches");
  std::vector<double> times;
  while (at < recorded.size()) times.push_back(tape::readF64(recorded, &at));
  return summarizeTimes(times, static_cast<int>(keptWarmups));
}

}  // namespace clgrade
