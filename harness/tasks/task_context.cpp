#include "tasks/task_context.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <sstream>

#include "intake/compiler_identity.h"
#include "util/trace.h"
#include "util/work_time.h"

namespace clgrade {

float floatSentinel() {
  const uint32_t bits = 0x7FC0FEEDu;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

namespace {
/// The first lines of a build log, for the report's one-screen view.
std::vector<std::string> headOf(const std::string& log, size_t maxLines) {
  std::vector<std::string> lines;
  std::istringstream in(log);
  std::string line;
  while (std::getline(in, line) && lines.size() < maxLines) lines.push_back("  " + line);
  return lines;
}
}  // namespace

std::string TaskContext::namedSource() const {
  // The compiler names the student's file in its messages, not the driver's temporary copy (PoCL's
  // cache path); the line numbers stay the file's. Every device (the simulator's too) compiles it
  // without the compilers' identifying macros (spec 5c).
  return hideCompilerIdentity(source_, task_.file);
}

const BuildResult& TaskContext::build(const std::string& options) {
  auto it = programs_.find(options);
  if (it == programs_.end()) {
    const std::string named = namedSource();
    std::function<BuildResult()> compiled;
    if (const auto started = ahead_.find(options); started != ahead_.end())
      compiled = [future = started->second] { return future.get(); };
    it = programs_.emplace(options, buildProgram(rt_, named, options, compiled)).first;
    ahead_.erase(options);
    BuildRecord record;
    record.options = options;
    record.hidden = !caseVisible_;
    record.ok = it->second.ok;
    record.error = it->second.error;
    record.log = it->second.log;
    if (!record.ok) {
      // A kernel that uses a hidden macro as a value fails alike everywhere: say why.
      if (const std::string note = hiddenMacroNote(named); !note.empty())
        record.log += (record.log.empty() ? "" : "\n") + note;
      it->second.log = record.log;
    }
    const std::string path = "evidence/" + task_.id + "/build_" + std::to_string(builds_.size() + 1) + ".log";
    record.logPath = evidence_
                         .text(path, "build log",
                               "file: " + task_.file + "\noptions: " + options +
                                   "\nresult: " + (record.ok ? "ok" : record.error) + "\n\n" + record.log + "\n")
                         .path;
    builds_.push_back(record);
  } else if (caseVisible_) {
    for (BuildRecord& r : builds_)
      if (r.options == options) r.hidden = false;  // a visible case builds with these options too
  }
  if (!it->second.ok) {
    CheckFailure failure{task_.file + " " + it->second.error + (options.empty() ? "" : " (options: " + options + ")"),
                         headOf(it->second.log, 30),
                         {}};
    for (const BuildRecord& r : builds_)
      if (r.options == options && !r.logPath.empty()) failure.evidence.push_back({"build log", r.logPath});
    throw failure;
  }
  return it->second;
}

void TaskContext::buildAhead(const std::string& options) {
  if (rt_.replaying() || programs_.count(options) || ahead_.count(options)) return;
  const std::string named = namedSource();
  const Runtime* rt = &rt_;
  ahead_[options] =
      std::async(std::launch::async, [rt, named, options] { return compileAhead(*rt, named, options); }).share();
}

cl::Kernel TaskContext::kernel(const BuildResult& build, const std::string& name) {
  cl::Kernel k;
  std::string err;
  if (!findKernel(rt_, build, name, &k, &err)) throw CheckFailure{task_.file + ": " + err, {}, {}};
  for (const std::string& signature : task_.kernels) {
    if (signature.compare(0, name.size() + 1, name + "(") != 0) continue;
    const size_t expected = static_cast<size_t>(std::count(signature.begin(), signature.end(), ',')) + 1;
    const cl_uint actual = kernelArgumentCount(rt_, k);
    if (actual != expected)
      throw CheckFailure{task_.file + ": kernel '" + name + "' takes " + std::to_string(actual) +
                             " arguments; the assignment calls it with " + std::to_string(expected) + ": " + signature,
                         {},
                         {}};
  }
  return k;
}

std::array<size_t, 2> TaskContext::groupSize(const cl::Kernel& kernel, std::array<size_t, 2> wanted,
                                             CaseOutcome* outcome) {
  const std::array<size_t, 3> declared = declaredGroupSize(rt_, kernel);
  if (declared[0] == 0) return wanted;
  const std::array<size_t, 2> use{declared[0], declared[1]};
  if (use != wanted && outcome) {
    outcome->details.push_back("note: the kernel declares reqd_work_group_size(" + std::to_string(declared[0]) + ", " +
                               std::to_string(declared[1]) + ", " + std::to_string(declared[2]) +
                               ") where the assignment uses " + std::to_string(wanted[0]) + "x" +
                               std::to_string(wanted[1]) + "; launched with the kernel's size");
  }
  return use;
}

std::array<size_t, 2> TaskContext::hostGroupSize(const cl::Kernel& kernel, const std::string& name,
                                                 const std::string& prefix, std::array<size_t, 2> wanted) {
  const std::array<size_t, 3> declared = declaredGroupSize(rt_, kernel);
  if (declared[0] == 0 || (declared[0] == wanted[0] && declared[1] == wanted[1] && declared[2] == 1)) return wanted;
  const std::string want = std::to_string(wanted[0]) + ", " + std::to_string(wanted[1]) + ", 1";
  throw CheckFailure{name + " declares reqd_work_group_size(" + std::to_string(declared[0]) + ", " +
                         std::to_string(declared[1]) + ", " + std::to_string(declared[2]) +
                         ") but this case builds it with " + prefix + "_GROUPSIZE_X=" + std::to_string(wanted[0]) +
                         " " + prefix + "_GROUPSIZE_Y=" + std::to_string(wanted[1]) +
                         ": the group size is the host's (-D options), so the kernel must "
                         "declare reqd_work_group_size(" +
                         prefix + "_GROUPSIZE_X, " + prefix + "_GROUPSIZE_Y, 1), here (" + want + ")",
                     {"a kernel that fixes its own group size runs the hidden cases and the RESULT_STEPS sweep at a "
                      "size the host did not ask for (spec section 8)"},
                     {}};
}

void TaskContext::runCheck(const CaseSpec& spec, const std::string& checkId, std::map<std::string, CaseOutcome>* out,
                           const std::function<void(CaseOutcome&)>& body) {
  if (!onlyChecks_.empty() && !onlyChecks_.count(checkId)) return;
  if (skippedChecks_.count(checkId)) return;
  CaseOutcome outcome;
  outcome.caseId = spec.id;
  outcome.visible = spec.visible;
  outcome.status = Status::Passed;
  currentCheck_ = checkId;
  try {
    body(outcome);
  } catch (const CheckFailure& f) {
    outcome.status = Status::Failed;
    outcome.message = f.message;
    outcome.details.insert(outcome.details.end(), f.details.begin(), f.details.end());
    outcome.evidence.insert(outcome.evidence.end(), f.evidence.begin(), f.evidence.end());
  } catch (const cl::Error& e) {
    outcome.status = Status::Error;
    outcome.message = "OpenCL error while running the kernels: " + describe(e);
  } catch (const std::exception& e) {
    outcome.status = Status::Error;
    outcome.message = std::string("internal error: ") + e.what();
  }
  // A failed launch can leave commands queued; drain so the next check starts clean.
  if (!rt_.replaying()) try {
      rt_.queue.finish();
    } catch (const cl::Error&) {
    }
  (*out)[checkId] = outcome;
}

void TaskContext::judging(const std::function<void()>& step) const {
  if (rt_.recording()) return;  // the one place the grading of a case asks
  const trace::Span span("judging", "work");  // the keeper's own work on a timeline (CLGRADE_TRACE)
  step();
}

void TaskContext::judge(CaseOutcome& outcome, const std::string& stem, const Comparison& comparison,
                        const Image& expected, const Image& actual) {
  const std::vector<std::string> details = comparison.details();
  outcome.details.insert(outcome.details.end(), details.begin(), details.end());
  if (comparison.passed) {
    if (outcome.message.empty()) outcome.message = comparison.summary();
    return;
  }
  outcome.status = Status::Failed;
  outcome.message = comparison.summary();
  outcome.finding = comparison.finding();
  const std::string shifted = shiftHint(expected, actual, settings_.rule);
  if (!shifted.empty()) {
    outcome.details.insert(outcome.details.begin(), shifted);
    // The shift says more than where the values are: "the output is shifted by one pixel: (x, y) holds ...".
    const std::string hint = shifted.substr(shifted.find(':') + 2);
    outcome.finding = hint.substr(0, hint.find(';'));
  }
  const int limit = settings_.evidenceCasesPerCheck;
  if (limit > 0 && imagesWritten_[currentCheck_]++ >= limit) {
    outcome.details.push_back("no images for this case: images are written for the first " + std::to_string(limit) +
                              " failing case(s) of each check (clgrade grade --evidence-cases)");
    return;
  }
  const int leftOutBefore = evidence_.imagesOverBudget();
  const std::vector<Evidence> files =
      evidence_.comparison(task_.id + "/" + stem, comparison, expected, actual, settings_.rule.maxSquaredError);
  outcome.evidence.insert(outcome.evidence.end(), files.begin(), files.end());
  if (const int leftOut = evidence_.imagesOverBudget() - leftOutBefore; leftOut > 0)
    outcome.details.push_back(std::to_string(leftOut) +
                              " image(s) of this case left out: the task's share of the "
                              "image budget (" +
                              std::to_string(evidence_.policy().imageBudgetBytes >> 10) +
                              " KiB) has no room left for them (clgrade grade --evidence-mib)");
}

void TaskContext::audit(CaseOutcome& outcome, const std::string& kernelName, const WriteAudit& a, bool belowAllowed) {
  // Outputs start as a sentinel (a NaN, or 0xA5A5A5A5 for ints): values that still hold it were never written.
  if (a.untouched > 0 && a.untouched == a.imageValues && outcome.status == Status::Failed) {
    outcome.details.insert(outcome.details.begin(), outcome.message);
    outcome.message = kernelName +
                      " wrote nothing into the output image (every value still holds what "
                      "clgrade fills it with before the run)";
    outcome.finding = outcome.message;
  } else if (a.untouched > 0) {
    outcome.details.push_back(std::to_string(a.untouched) + " of " + std::to_string(a.imageValues) +
                              " output values inside the image were never written by " + kernelName);
  }
  if (std::find(auditedKernels_.begin(), auditedKernels_.end(), kernelName) == auditedKernels_.end())
    auditedKernels_.push_back(kernelName);
  // Padding columns belong to the rows the course lays out (its own vertical pass computes them).
  if (a.padding > 0)
    allowedWrites_.push_back(kernelName + " wrote " + std::to_string(a.padding) +
                             " padding values (columns Width..Pitch-1; harmless)");
  WriteAudit counted = a;
  if (belowAllowed) {
    if (a.belowImage > 0)
      allowedWrites_.push_back(kernelName + " wrote " + std::to_string(a.belowImage) +
                               " values below the image (it gets no height, so this is expected)");
    counted.belowImage = 0;
  }
  const std::string text = counted.describe(kernelName);
  if (text.empty()) return;
  strayWrites_.push_back(text);
  outcome.details.push_back(text + ": not counted here; it costs what the rubric gives the check 'writes'");
}

CheckInfo strayWritesCheck() {
  CheckInfo c{"writes",
              "no writes outside the output image (rows below it where the kernel gets the height, before or past "
              "a buffer) or into the inputs",
              ""};
  c.fromOtherChecks = true;
  return c;
}

void TaskContext::beginCase() {
  strayWrites_.clear();
  allowedWrites_.clear();
  auditedKernels_.clear();
}

void TaskContext::judgeWrites(CaseOutcome& outcome) const {
  outcome.details.insert(outcome.details.end(), allowedWrites_.begin(), allowedWrites_.end());
  if (auditedKernels_.empty()) {
    outcome.status = Status::NotMeasured;
    outcome.message = "no kernel of this case ran to the end, so its writes could not be audited";
    return;
  }
  std::string kernels;
  for (const std::string& k : auditedKernels_) kernels += (kernels.empty() ? "" : ", ") + k;
  if (strayWrites_.empty()) {
    outcome.message = "no writes outside the image (" + kernels + ")";
    return;
  }
  outcome.status = Status::Failed;
  outcome.message = strayWrites_.front();
  if (strayWrites_.size() > 1) outcome.message += " (and " + std::to_string(strayWrites_.size() - 1) + " more, below)";
  outcome.details.insert(outcome.details.begin(), strayWrites_.begin() + 1, strayWrites_.end());
}

std::shared_ptr<const Image> TaskContext::memo(const ResultKey& key, const std::function<Image()>& make) {
  return inputs_.reference(key, make);
}

std::shared_ptr<const std::vector<int32_t>> TaskContext::memoFlags(const ResultKey& key,
                                                                   const std::function<std::vector<int32_t>()>& make) {
  return inputs_.referenceFlags(key, make);
}

void TaskContext::timing(CaseOutcome& outcome, const std::string& what, double ms, const Geometry& geometry) {
  char buffer[160];
  std::snprintf(buffer, sizeof buffer, "%s: %.3f ms (%s)", what.c_str(), ms, geometry.str().c_str());
  outcome.timings.push_back(buffer);
}

}  // namespace clgrade
