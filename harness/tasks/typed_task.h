// A task whose rubric cases read into a struct of its own (the case's typed parameters). The task
// says how a case reads (readCase) and works on the typed case; this base reads it once for each
// thing asked of the task and never goes on with defaults: a case that does not read ends its
// checks as errors with the reason (the rubric loader refuses such cases before grading starts).
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "tasks/task.h"
#include "tasks/task_context.h"

namespace clgrade {

template <typename Case>
class TypedTask : public Task {
 public:
  bool validateCase(const CaseSpec& spec, std::string* err) const final {
    Case c;
    return readCase(spec, &c, err);
  }

  void runCase(TaskContext& ctx, const CaseSpec& spec, std::map<std::string, CaseOutcome>* out) const final {
    Case c;
    std::string err;
    if (readCase(spec, &c, &err)) {
      ctx.beginCase();
      run(ctx, spec, c, out);
      // A case where no kernel ran to the end has no writes to judge: its value checks say why.
      if (ctx.auditedWrites())
        ctx.runCheck(spec, strayWritesCheck().id, out, [&](CaseOutcome& o) { ctx.judgeWrites(o); });
      return;
    }
    for (const CheckInfo& ci : info().checks)
      if (!ci.simulated && !ci.swept && ci.notMeasuredReason.empty())
        ctx.runCheck(spec, ci.id, out, [&](CaseOutcome&) { throw std::invalid_argument(unreadable(spec, err)); });
  }

  std::vector<TimedLaunch> timedLaunches(TaskContext& ctx, const CaseSpec& spec) const final {
    Case c;
    std::string err;
    if (!readCase(spec, &c, &err)) throw CheckFailure{unreadable(spec, err), {}, {}};
    return launchesToTime(ctx, spec, c);
  }

  void prepareInputs(InputCache& inputs, const CaseSpec& spec) const final {
    Case c;
    std::string err;
    if (readCase(spec, &c, &err)) inputsOf(inputs.forCase(spec), c);
  }

  std::vector<std::string> buildOptions(const CaseSpec& spec) const final {
    Case c;
    std::string err;
    return readCase(spec, &c, &err) ? optionsOf(c) : std::vector<std::string>{};
  }

  void judgeSimulation(const std::string& checkId, const CounterReport& counters, const CaseSpec& spec,
                       CaseOutcome* outcome) const final {
    Case c;
    std::string err;
    if (readCase(spec, &c, &err)) return judgeCounts(checkId, counters, spec, c, outcome);
    outcome->status = Status::Error;
    outcome->message = unreadable(spec, err);
  }

  std::array<int, 2> wholeGroupsSize(const CaseSpec& spec) const final {
    Case c;
    std::string err;
    return readCase(spec, &c, &err) ? wholeGroupsOf(c) : Task::wholeGroupsSize(spec);
  }

  std::vector<std::pair<std::string, std::string>> referenceOutputs(InputCache& inputs,
                                                                    const CaseSpec& spec) const final {
    Case c;
    std::string err;
    if (!readCase(spec, &c, &err)) throw std::invalid_argument(unreadable(spec, err));
    return expectedOutputs(inputs, spec, c);
  }

 protected:
  /// The case's parameters into `c`; false with a message naming the bad or unknown parameter.
  virtual bool readCase(const CaseSpec& spec, Case* c, std::string* err) const = 0;
  /// Runs one case: one CaseOutcome per measurable check, keyed by check id.
  virtual void run(TaskContext& ctx, const CaseSpec& spec, const Case& c,
                   std::map<std::string, CaseOutcome>* out) const = 0;
  /// The CPU reference results of the case as named byte strings ("output" -> PFM bytes).
  virtual std::vector<std::pair<std::string, std::string>> expectedOutputs(InputCache& inputs, const CaseSpec& spec,
                                                                           const Case& c) const = 0;
  /// Asks `inputs` for the images a read case launches on (Task::prepareInputs; none by default).
  virtual void inputsOf(CaseInputs inputs, const Case& c) const {
    (void)inputs, (void)c;
  }
  /// The build options of the programs a case builds (none known by default).
  virtual std::vector<std::string> optionsOf(const Case& c) const {
    (void)c;
    return {};
  }
  /// Task::wholeGroupsSize of a read case (the spec's TILE_X x TILE_Y of task 1 by default).
  virtual std::array<int, 2> wholeGroupsOf(const Case& c) const {
    (void)c;
    return {32, 16};
  }
  /// The launches to time, in launch order (none by default).
  virtual std::vector<TimedLaunch> launchesToTime(TaskContext& ctx, const CaseSpec& spec, const Case& c) const {
    (void)ctx, (void)spec, (void)c;
    return {};
  }
  /// Judges simulated check `checkId` from counters of the case's analysis run (none by default).
  virtual void judgeCounts(const std::string& checkId, const CounterReport& counters, const CaseSpec& spec,
                           const Case& c, CaseOutcome* outcome) const {
    (void)counters, (void)spec, (void)c;
    outcome->status = Status::NotMeasured;
    outcome->message = "task has no simulated check '" + checkId + "'";
  }

 private:
  static std::string unreadable(const CaseSpec& spec, const std::string& err) {
    return "case '" + spec.id + "' cannot be read: " + err;
  }
};

}  // namespace clgrade
