#include "batch/trusted_timer.h"

#include <cstdio>
#include <future>
#include <iostream>

#include "cl/device.h"
#include "cl/runtime.h"
#include "grading/performance.h"
#include "rubric/rubric.h"
#include "store/course_store.h"
#include "tasks/inputs.h"
#include "util/files.h"
#include "util/markup.h"
#include "util/subprocess.h"
#include "util/timing_lock.h"
#include "util/trace.h"

namespace clgrade {

bool trustedTimingsStale(double ageSeconds, int servedSubmissions, double minutes, int every) {
  return (minutes > 0 && ageSeconds >= minutes * 60) || (every > 0 && servedSubmissions >= every);
}

std::string trustedTimingsPolicy(double minutes, int every) {
  char text[64];
  std::string rule;
  if (minutes > 0) {
    std::snprintf(text, sizeof text, "%g minute%s", minutes, minutes == 1 ? "" : "s");
    rule = text;
  }
  if (every > 0) rule += (rule.empty() ? "" : " or ") + std::to_string(every) + " submission" + (every == 1 ? "" : "s");
  return rule.empty() ? "timed once for the whole batch" : "re-timed every " + rule;
}

std::string slowerThanFirst(const TrustedTimings& first, const TrustedTimings& now, double limit) {
  for (const auto& [id, figures] : now.byTask) {
    const auto was = first.byTask.find(id);
    if (was == first.byTask.end()) continue;
    for (const KernelFigure& k : figures.reference)
      for (const KernelFigure& w : was->second.reference) {
        if (w.kernel != k.kernel || !k.untrusted.empty() || !w.untrusted.empty() || !k.error.empty() ||
            !w.error.empty() || w.time.medianMs <= 0 || k.time.medianMs <= w.time.medianMs * (1 + limit))
          continue;
        char text[240];
        std::snprintf(text, sizeof text,
                      "%s: %s took %.1f us against %.1f us when first timed (+%.0f %%, more than %.0f %%)", id.c_str(),
                      k.kernel.c_str(), k.time.medianMs * 1e3, w.time.medianMs * 1e3,
                      100 * (k.time.medianMs / w.time.medianMs - 1), 100 * limit);
        return text;
      }
  }
  return "";
}

bool TrustedTimer::stale() const {
  const double age = std::chrono::duration<double>(std::chrono::steady_clock::now() - taken_).count();
  return !tried_ || trustedTimingsStale(age, served_, s_.minutes, s_.every) || (retryAfter_ && served_ >= retryAfter_);
}

ServedFigures TrustedTimer::current() {
  std::shared_ptr<const TrustedTimings> figures;
  {
    std::unique_lock<std::mutex> hold(mutex_);
    if (stale() && running_ > 0 && s_.quiet) {
      // Spec 5c: a kernel that keeps the GPU busy must not slow the reference that the grades after
      // it are scored against. The grades served before end first; those asking meanwhile wait here,
      // and the first one woken times the figures for all (the others find them fresh).
      const trace::Span span("grades on the GPU ending before a re-timing", "wait");
      const auto quiet = [this] { return running_ == 0 || !stale(); };
      ++waiting_;
      if (s_.quietWaitSeconds <= 0)
        quiet_.wait(hold, quiet);
      else if (!quiet_.wait_for(hold, std::chrono::duration<double>(s_.quietWaitSeconds), quiet))
        std::fprintf(stderr,
                     "clgrade batch: %d grade(s) still running after %.0f s: the reference is timed again beside "
                     "them, its figures compared with the first ones\n",
                     running_, s_.quietWaitSeconds);
      --waiting_;
    }
    if (stale()) {
      retime();
      quiet_.notify_all();  // grades still waiting (this one's bound ran out first) find them fresh
    }
    ++served_;
    ++running_;
    figures = current_;
  }
  // Released by the grade as its keeper ends (ServedFigures::running); the timer outlives its grades.
  // Made outside the lock: should it throw, its deleter (ended) takes the lock itself.
  return {figures, std::shared_ptr<void>(this, [](void* timer) { static_cast<TrustedTimer*>(timer)->ended(); })};
}

int TrustedTimer::waiting() const {
  const std::lock_guard<std::mutex> hold(mutex_);
  return waiting_;
}

void TrustedTimer::ended() {
  {
    const std::lock_guard<std::mutex> hold(mutex_);
    --running_;
  }
  quiet_.notify_all();
}

int TrustedTimer::running() const {
  const std::lock_guard<std::mutex> hold(mutex_);
  return running_;
}

std::string TrustedTimer::problem() const {
  const std::lock_guard<std::mutex> hold(mutex_);
  return problem_;
}

void TrustedTimer::retime() {
  tried_ = true;
  served_ = 0;
  taken_ = std::chrono::steady_clock::now();
  const trace::Span span("time trusted kernels for the batch", "trusted");
  TrustedChildResult child = timeTrustedInChildProcess(s_.clgrade, s_.request, s_.timeoutSeconds, s_.logPath);
  if (!child.timings) {
    problem_ = child.problem + " (for the batch)";
  } else {
    const std::shared_ptr<TrustedTimings>& timings = child.timings;
    timings->policy = trustedTimingsPolicy(s_.minutes, s_.every);
    for (auto& [id, figures] : timings->byTask)
      figures.note += (figures.note.empty() ? "" : "; ") +
                      std::string("the copy, reference and naive kernels were timed for the batch at ") +
                      timings->takenAt + " (" + timings->policy + "), not in this grade";
    for (const auto& [id, why] : timings->left)
      std::fprintf(stderr,
                   "clgrade batch: %s: the reference figures are not used for the batch (%s): each grade has them timed\n",
                   terminalText(id).c_str(), terminalText(why).c_str());
    const std::string slower = first_ ? slowerThanFirst(*first_, *timings, kRetimedSlowerLimit) : "";
    if (slower.empty()) {
      current_ = timings;
      if (!first_) first_ = timings;
      problem_.clear();
      // A task left out is timed by each grade beside the others: tried again soon, quietly.
      if (timings->left.empty()) {
        retryAfter_ = 0;
      } else {
        scheduleRetry();
        if (retryAfter_)
          std::fprintf(stderr, "clgrade batch: the reference figures left out are timed again after %d submission%s\n",
                       retryAfter_, retryAfter_ == 1 ? "" : "s");
      }
      return;
    }
    problem_ = "the re-timed reference figures are not used: " + slower +
               " (work beside the re-timing on this GPU, or a GPU that slowed down)";
  }
  // Earlier figures, when there are any, serve until the next try (their reports say when they were
  // taken); without any, each grade has them timed beside its runners.
  // Earlier figures that serve every task need no early try: the policy's next timing is soon enough.
  if (!current_ || !current_->left.empty())
    scheduleRetry();
  else
    retryAfter_ = 0;
  const std::string when = retryAfter_ ? " (tried again after " + std::to_string(retryAfter_) + " submission" +
                                             (retryAfter_ == 1 ? ")" : "s)")
                                       : "";
  std::fprintf(stderr, "clgrade batch: %s: %s%s\n", terminalText(problem_).c_str(),
               current_ ? "the figures timed before serve until the next try"
                        : "each grade has them timed for itself until the next try",
               when.c_str());
}

void TrustedTimer::scheduleRetry() {
  // Until figures serve, each grade times the reference beside the others' kernels (or the earlier
  // figures serve): sooner than the policy's next timing, and later each time (a GPU that cannot time
  // them at all costs a quiet wait per try).
  // A batch timed once (no count in its policy) is not timed again early either.
  if (s_.every <= 0) {
    retryAfter_ = 0;
    return;
  }
  retryAfter_ = std::min(s_.every, retryAfter_ ? 2 * retryAfter_ : kRetryFirstAfter);
}

int timeTrustedInChild(const TrustedTimingRequest& a) {
  Rubric rubric;
  if (!loadRubricOrComplain(a.rubric, &rubric)) return 2;
  DeviceEntry device;
  std::string err;
  if (!chooseDevice(a.device, &device, &err)) {
    std::cerr << "clgrade: " << err << "\n";
    return 3;
  }
  InputCache inputs(a.seed);  // the grades' inputs: the histogram's speed depends on the image
  std::string why;
  inputs.useStore(openCourseStore(a.storeRoot, &why));  // trusted: it may write the store
  if (!why.empty()) std::cerr << "clgrade time-trusted: " << why << "\n";
  // Read while the device opens (every grade of a batch's start waits for these figures).
  const std::vector<std::future<void>> preparing = prepareTrustedInputs(device.info, rubric, a.tasks, inputs);
  Runtime rt(device);
  // All of them before the first timed launch: nothing of this process's own runs beside its figures.
  for (const std::future<void>& f : preparing) f.wait();
  rt.timingLock = a.timingLock;  // each set of timed launches takes its turn with the grades'
  // No profiler session (ncu, CUPTI) beside these figures: they serve many grades, so one session's
  // replays must not slow them all (the grades' own timings run beside the sessions). The PTX
  // counters' copies are launches like the grades' correctness cases, which take no lock either.
  const TimingLock quiet(a.besideProfiler ? "" : profilerLockFor(a.timingLock));
  const TrustedTimings timings = timeTrustedKernels(rt, rubric, a.tasks, "", inputs, a.besideProfiler);
  if (!writeFileAtomically(a.out, trustedTimingsJson(timings), &err)) {
    std::cerr << "clgrade time-trusted: " << err << "\n";
    return 4;
  }
  return 0;
}

}  // namespace clgrade
