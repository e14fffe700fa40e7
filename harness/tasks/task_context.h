// What a task needs while it runs a case: the device, the student's source and its builds,
// the generated inputs, the comparison rule and a place for evidence.
#pragma once

#include <array>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "checks/comparison.h"
#include "checks/evidence.h"
#include "cl/launch.h"
#include "cl/program.h"
#include "model/report.h"
#include "model/settings.h"
#include "tasks/device_plane.h"
#include "tasks/inputs.h"
#include "tasks/task.h"

namespace clgrade {

/// Thrown inside a check to end it as failed with a message (a missing kernel, a failed build).
struct CheckFailure {
  std::string message;
  std::vector<std::string> details;
  std::vector<Evidence> evidence;
};

class TaskContext {
 public:
  TaskContext(const Runtime& rt, const TaskInfo& task, std::string source, EvidenceWriter& evidence, InputCache& inputs,
              GradeSettings settings)
      : rt_(rt), task_(task), source_(std::move(source)), evidence_(evidence), inputs_(inputs), settings_(settings) {}

  const Runtime& runtime() const { return rt_; }
  InputCache& inputs() { return inputs_; }
  EvidenceWriter& evidence() { return evidence_; }
  const GradeSettings& settings() const { return settings_; }
  const std::vector<BuildRecord>& builds() const { return builds_; }
  /// Whether the case that builds from now on is a visible one: a build made only for hidden cases
  /// is marked `hidden` (its options are a hidden case's parameters: report/audience.h).
  void runningCase(bool visible) { caseVisible_ = visible; }

  /// The program built with exactly `options` (cached); throws CheckFailure with the log if it fails.
  const BuildResult& build(const std::string& options);
  /// Starts compiling the program of `options` on another thread, for a build() to come (the sweep's
  /// next point while this one runs); nothing when replaying a record, or already built or started.
  void buildAhead(const std::string& options);
  /// A kernel of a built program; throws CheckFailure naming the kernels that exist, or quoting the
  /// assignment's signature when the kernel takes another number of arguments.
  cl::Kernel kernel(const BuildResult& build, const std::string& name);
  /// The work-group size to launch with: the kernel's reqd_work_group_size when it declares one,
  /// else `wanted`. A difference is noted in `outcome` (the launch follows the kernel).
  std::array<size_t, 2> groupSize(const cl::Kernel& kernel, std::array<size_t, 2> wanted, CaseOutcome* outcome);
  /// The host's group size `wanted`, built into the program as -D `prefix`_GROUPSIZE_X/Y (tasks 2 and 3,
  /// spec section 8): a kernel whose reqd_work_group_size says otherwise ignores the host, and the
  /// check fails (CheckFailure) with a message that says so.
  std::array<size_t, 2> hostGroupSize(const cl::Kernel& kernel, const std::string& name, const std::string& prefix,
                                      std::array<size_t, 2> wanted);

  /// Runs `body` as check `checkId` of `spec`: catches CheckFailure (failed), cl::Error and other
  /// exceptions (error), so one check's trouble never stops the next one.
  void runCheck(const CaseSpec& spec, const std::string& checkId, std::map<std::string, CaseOutcome>* out,
                const std::function<void(CaseOutcome&)>& body);

  /// A check's judging step: the comparison of what the device handed back with the CPU's results,
  /// and the CPU's results made only for it. Launching and judging are separate steps: a task's
  /// runner only launches and records (the keeper judges when it replays the tape), so there `step`
  /// is left out; everywhere else it runs here. Tasks never ask how the runtime runs.
  void judging(const std::function<void()>& step) const;

  /// Judges a float comparison: sets status, message, details, evidence (files only when failed).
  void judge(CaseOutcome& outcome, const std::string& stem, const Comparison& comparison, const Image& expected,
             const Image& actual);
  /// Notes in `outcome` what a kernel left unwritten inside the image, and keeps what it wrote
  /// outside it (below the image, before or past the buffer, into an input) for the case's
  /// check "writes": stray writes never fail the value checks (spec section 5).
  /// `belowAllowed`: kernels without a height argument may write rows below the image.
  void audit(CaseOutcome& outcome, const std::string& kernelName, const WriteAudit& audit, bool belowAllowed);
  /// Starts a case: forgets the writes audited for the previous one.
  void beginCase();
  /// Whether a kernel of the case begun last ran to the end and had its writes audited.
  bool auditedWrites() const { return !auditedKernels_.empty(); }
  /// The check "writes" of the case begun last: failed with every stray write audited since
  /// beginCase, passed when kernels ran and wrote only their image, not measured when none ran.
  void judgeWrites(CaseOutcome& outcome) const;
  /// From now on runCheck runs only these checks (empty: all); the sweep reruns only what it decides on.
  void restrictChecks(std::set<std::string> checks) { onlyChecks_ = std::move(checks); }
  /// runCheck never runs these checks (a kernel they launch stopped an earlier grading process).
  void skipChecks(std::set<std::string> checks) { skippedChecks_ = std::move(checks); }
  /// The image `make` computes, made once per `key` while the inputs live (InputCache::reference: the
  /// CPU's results a check at the timing size compares with, asked for at every sweep point).
  std::shared_ptr<const Image> memo(const ResultKey& key, const std::function<Image()>& make);
  std::shared_ptr<const std::vector<int32_t>> memoFlags(const ResultKey& key,
                                                        const std::function<std::vector<int32_t>()>& make);
  /// The device object `make` makes, made once per `key` for this context's life (the sweep's: its
  /// timing-size input, uploaded once for all its points). `make` runs on the first call only; the
  /// keeper's replay makes and keeps the same, so both ask the device for the same steps.
  template <typename T>
  std::shared_ptr<T> kept(const std::string& key, const std::function<std::shared_ptr<T>()>& make) {
    std::shared_ptr<void>& slot = kept_[key];
    if (!slot) slot = make();
    return std::static_pointer_cast<T>(slot);
  }
  /// Records a launch time line in the outcome.
  static void timing(CaseOutcome& outcome, const std::string& what, double ms, const Geometry& geometry);

 private:
  std::string namedSource() const;  ///< the source as the compiler gets it
  const Runtime& rt_;
  const TaskInfo& task_;
  std::string source_;
  EvidenceWriter& evidence_;
  InputCache& inputs_;
  GradeSettings settings_;
  std::map<std::string, BuildResult> programs_;
  std::map<std::string, std::shared_future<BuildResult>> ahead_;  ///< builds started by buildAhead
  std::map<std::string, std::shared_ptr<void>> kept_;               ///< what kept() made
  std::string currentCheck_;                                      ///< the check runCheck is running
  std::map<std::string, int> imagesWritten_;                      ///< failing cases with images, per check
  std::vector<BuildRecord> builds_;
  bool caseVisible_ = true;
  std::set<std::string> onlyChecks_;
  std::set<std::string> skippedChecks_;
  /// The case's audited writes (beginCase clears them): stray ones, and notes about allowed ones.
  std::vector<std::string> strayWrites_, allowedWrites_;
  std::vector<std::string> auditedKernels_;
};

/// roundup(n, m): n rounded up to a multiple of m.
inline size_t roundUp(size_t n, size_t m) { return (n + m - 1) / m * m; }
/// ceil(n / d).
inline size_t ceilDiv(size_t n, size_t d) { return (n + d - 1) / d; }
/// The course's pitch: width rounded up to a multiple of 32.
inline int pitchOf(int width) { return static_cast<int>(roundUp(width, 32)); }

/// A quiet NaN with a recognisable payload: what output buffers hold before a kernel runs.
float floatSentinel();
/// What integer output buffers (flags, histograms) hold before a kernel runs.
constexpr int32_t kIntSentinel = static_cast<int32_t>(0xA5A5A5A5u);

}  // namespace clgrade
