// The reference kernels, the naive ones and the copy roofline timed once for a batch instead of in
// every grade (`clgrade time-trusted`, a process that runs no student code), and again when the
// figures are older than a number of minutes or have served a number of submissions, so that a
// clock or thermal drift over a long batch is caught. Every report says when its figures were taken.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "keeper/trusted_child.h"
#include "model/trusted_timings.h"

namespace clgrade {

/// The batch's default policy: timed again after this many minutes or submissions.
constexpr double kRetimeMinutes = 15;
constexpr int kRetimeEvery = 100;
/// A timing that failed or left a task out (or was refused while the figures that serve lack a
/// task) is tried again after this many submissions, then twice as many each time, up to the
/// policy's count; never early where the policy counts no submissions.
constexpr int kRetryFirstAfter = 8;

struct TrustedTimerSettings {
  std::string clgrade;  ///< the executable (`clgrade time-trusted`)
  /// What the child is asked: the batch's rubric, device, tasks (empty: every task of the rubric),
  /// hidden seed (the same inputs as the grades), timing lock (its timed launches take turns with the
  /// grades'), the file the figures are written to (in the batch's output folder) and the store.
  TrustedTimingRequest request;
  std::string logPath;
  double minutes = kRetimeMinutes;  ///< timed again when older (0: no age limit)
  int every = kRetimeEvery;         ///< timed again after serving this many submissions (0: no count limit)
  double timeoutSeconds = 300;      ///< the child's limit (the batch's task limit): jobs wait for it
  /// A re-timing first waits for the grades already served to end, so that no student code runs on
  /// the GPU while the reference is timed (a GPU's; a CPU's figures grade nothing): at most
  /// `quietWaitSeconds` (0: no bound; the grades have limits of their own). A grade still running
  /// then (a machine stuck) is timed beside.
  bool quiet = false;
  double quietWaitSeconds = 0;
};

/// True when figures taken `ageSeconds` ago, already handed to `servedSubmissions` grades, must be
/// timed again before the next grade.
bool trustedTimingsStale(double ageSeconds, int servedSubmissions, double minutes, int every);

/// "re-timed every 15 minutes or 100 submissions": the policy as a report's note says it.
std::string trustedTimingsPolicy(double minutes, int every);

/// Re-timed figures a reference kernel of which is slower than in the batch's first figures by more
/// than this share are not used (kept: the first ones, timed before any grade started).
constexpr double kRetimedSlowerLimit = 0.10;

/// Why figures re-timed during a batch (`now`) are not used: a reference kernel slower than in the
/// batch's first figures (`first`: timed while every grade waited, when that first timing served;
/// else the first that did) by more than `limit`. A task the first figures lack is not compared.
/// A re-timing waits for the batch's grades on the GPU to end (TrustedTimerSettings::quiet), but work
/// of other processes on that GPU, or a grade past the wait, would slow the reference the grades after
/// it are scored against (spec 5c); a GPU's drift is a few per cent. "" when they may serve; figures a
/// device calls untrusted (a CPU's) are not compared.
std::string slowerThanFirst(const TrustedTimings& first, const TrustedTimings& now, double limit);

/// `clgrade time-trusted`: the reference kernels, the naive ones and the copy roofline of each
/// task's performance case, into the JSON file `out` the batch hands its grades. No student code
/// runs here. Returns an exit code (0, or 2 for the rubric, 3 for the device, 4 for the file).
int timeTrustedInChild(const TrustedTimingRequest& request);

class TrustedTimer {
 public:
  explicit TrustedTimer(TrustedTimerSettings settings) : s_(std::move(settings)) {}
  /// The figures for the next grade, timed first when there are none yet or they are stale (a
  /// re-timing on a GPU after the grades served before have released theirs: settings' `quiet`). When
  /// a timing fails, the earlier figures serve until the next try; null figures when there are none
  /// (the grade times them itself; problem() says why). The grade holds `running` until it ends, and
  /// must release it before the timer goes. Thread-safe: jobs asking while they are timed wait.
  ServedFigures current();
  std::string problem() const;
  /// Grades served that have not released their figures yet, and grades waiting for them to end.
  int running() const;
  int waiting() const;

 private:
  bool stale() const;
  void retime();
  void scheduleRetry();
  void ended();

  TrustedTimerSettings s_;
  mutable std::mutex mutex_;
  std::shared_ptr<const TrustedTimings> current_;
  std::shared_ptr<const TrustedTimings> first_;  ///< the batch's first figures, the measure of re-timed ones
  std::chrono::steady_clock::time_point taken_{};
  bool tried_ = false;
  int served_ = 0;
  int retryAfter_ = 0;  ///< > 0: the figures serve not every task; timed again after this many
  int running_ = 0;
  int waiting_ = 0;
  std::condition_variable quiet_;  ///< notified as a grade served ends
  std::string problem_;
};

}  // namespace clgrade
