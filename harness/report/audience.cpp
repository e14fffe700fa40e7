#include "report/audience.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <vector>

#include "report/findings.h"

namespace clgrade {
namespace {

bool isWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

/// Replaces every occurrence of `from` in *s that is not part of a longer word.
void replaceWord(std::string* s, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (size_t at = s->find(from); at != std::string::npos; at = s->find(from, at)) {
    const size_t end = at + from.size();
    const bool wordBefore = at > 0 && isWordChar((*s)[at - 1]) && isWordChar(from.front());
    const bool wordAfter = end < s->size() && isWordChar((*s)[end]) && isWordChar(from.back());
    if (wordBefore || wordAfter) {
      at = end;
      continue;
    }
    s->replace(at, from.size(), to);
    at += to.size();
  }
}

void replaceAll(std::string* s, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (size_t at = s->find(from); at != std::string::npos; at = s->find(from, at)) {
    s->replace(at, from.size(), to);
    at += to.size();
  }
}

/// A hidden case as the student sees it.
struct Alias {
  std::string id, alias;
};

class Scrubber {
 public:
  /// First every hidden case's id, so that what is said of one may name another.
  void addId(const std::string& id) {
    if (aliases_.count(id)) return;
    // The simulator's run of a hidden case is not a case of its own to the student (a check runs no
    // hidden case, and says nothing of one): it is the simulator's run, whatever case and size.
    aliases_[id] = id.rfind("analysis (", 0) == 0 ? std::string("the simulator's run")
                                                  : "hidden-" + std::to_string(++hidden_);
    order_.push_back(id);
  }
  /// Then how checks and criteria quote it: "case box_1280x720: <message>" (model/status.cpp).
  void addQuote(const CaseOutcome& o, const std::string& redactedMessage) {
    if (!o.message.empty())
      quotes_.push_back({"case " + o.caseId + ": " + o.message, "case " + alias(o.caseId) + ": " + redactedMessage});
  }
  std::string alias(const std::string& id) const { return aliases_.at(id); }
  /// A file of a hidden case: evidence/<task>/<case>/... (checks/evidence.h).
  bool hiddenFile(const std::string& path) const {
    for (const std::string& id : order_)
      if (path.find("/" + id + "/") != std::string::npos) return true;
    return false;
  }
  bool empty() const { return aliases_.empty(); }

  void operator()(std::string* s) const {
    if (aliases_.empty() || s->empty()) return;
    for (const Alias& q : quotes_) replaceAll(s, q.id, q.alias);
    // Longer ids first, so "box_1280x720_wide" is not half-replaced by "box_1280x720".
    std::vector<std::string> ids = order_;
    std::sort(ids.begin(), ids.end(), [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
    for (const std::string& id : ids) {
      // An id like "box_1280x720" is replaced wherever it stands as a word; a plain word ("edge",
      // "border") only where a case is named by it, so "the image border" stays what it says.
      if (id.find_first_of("0123456789_") != std::string::npos) {
        replaceWord(s, id, aliases_.at(id));
        continue;
      }
      for (const std::string& context : {std::string("case "), std::string("(")})
        replaceAll(s, context + id, context + aliases_.at(id));
      if (*s == id) *s = aliases_.at(id);
    }
  }

 private:
  std::map<std::string, std::string> aliases_;
  int hidden_ = 0;  ///< hidden cases named so far
  std::vector<std::string> order_;
  std::vector<Alias> quotes_;
};

/// Counters a student keeps when they were measured on a hidden case: the conflicts the bank-conflict
/// verdicts rest on. Counts of work-groups, loads and stores would give the case's size away.
bool sizeFree(const std::string& counter) { return counter.find("conflicts") != std::string::npos; }

/// What a student reads of a hidden case's outcome: how it went, never where. The simulator's run
/// (an "analysis (...)" outcome) is said as itself, not as a hidden case.
std::string redactedMessage(const CaseOutcome& o) {
  const std::string what = o.caseId.rfind("analysis (", 0) == 0 ? "the simulator's run" : "a hidden case";
  switch (o.status) {
    case Status::Passed:
      return what + " passed";
    case Status::NotMeasured:
      return what + " was not measured";
    case Status::Failed:
      return what + " failed: " + hiddenFailureKind(o);
    case Status::Error:
      return what + " could not run: " + hiddenFailureKind(o);
  }
  return what;
}

}  // namespace

const char* audienceName(Audience audience) { return audience == Audience::Student ? "student" : "instructor"; }

bool audienceFromName(const std::string& name, Audience* audience) {
  for (Audience a : {Audience::Instructor, Audience::Student})
    if (name == audienceName(a)) {
      *audience = a;
      return true;
    }
  return false;
}

std::string hiddenFailureKind(const CaseOutcome& o) {
  // A finding is written not to depend on the case (checks/comparison.h); a message may quote
  // anything of it (a size, a pixel count, "(case box_1280x720)"): every number goes.
  if (!o.finding.empty()) return o.finding;
  const std::string kind = numbersAsN(o.message);
  return kind.empty() ? std::string("no reason given") : kind;
}

GradeReport forStudents(const GradeReport& report) {
  GradeReport r = report;
  r.hiddenSeed.reset();
  Scrubber scrub;
  for (const TaskReport& t : r.tasks)
    for (const CheckResult& c : t.checks)
      for (const CaseOutcome& o : c.cases)
        if (!o.visible) scrub.addId(o.caseId);
  // What a hidden case is said to be, from its message with every hidden id already replaced.
  auto redacted = [&scrub](const CaseOutcome& o) {
    CaseOutcome named = o;
    scrub(&named.message);
    return named;
  };
  for (const TaskReport& t : r.tasks)
    for (const CheckResult& c : t.checks)
      for (const CaseOutcome& o : c.cases)
        if (!o.visible) scrub.addQuote(o, redactedMessage(redacted(o)));
  if (scrub.empty()) return r;
  r.inputs.clear();
  for (TaskReport& t : r.tasks) {
    scrub(&t.problem);
    // The files of hidden cases (pictures, a stopped kernel's evidence) go wherever they are listed.
    std::set<std::string> hiddenFiles;
    for (const CheckResult& c : t.checks)
      for (const CaseOutcome& o : c.cases)
        if (!o.visible)
          for (const Evidence& e : o.evidence) hiddenFiles.insert(e.path);
    for (CriterionResult& c : t.criteria) {
      scrub(&c.message);
      c.evidence.erase(
          std::remove_if(c.evidence.begin(), c.evidence.end(),
                         [&](const Evidence& e) { return hiddenFiles.count(e.path) > 0 || scrub.hiddenFile(e.path); }),
          c.evidence.end());
      for (Evidence& e : c.evidence) scrub(&e.label);
    }
    // A build made for hidden cases only: its options are their parameters (-D group sizes, steps),
    // and its log may quote them. A visible case's build of the same error shows it in full.
    for (BuildRecord& b : t.builds) {
      if (!b.hidden) continue;
      b.options = "(the options of a hidden case)";
      b.log.clear();
      b.logPath.clear();
      b.error = numbersAsN(b.error);
    }
    // What the kernels printed may have been printed in a hidden case: a channel for its size.
    t.process.kernelOutput.clear();
    t.process.kernelOutputBytes = 0;
    t.process.kernelOutputTruncated = false;
    for (CounterRow& row : t.counters)
      row.values.erase(
          std::remove_if(row.values.begin(), row.values.end(), [](const auto& v) { return !sizeFree(v.first); }),
          row.values.end());
    for (CheckResult& c : t.checks) {
      scrub(&c.message);
      for (CaseOutcome& o : c.cases) {
        if (o.visible) {
          scrub(&o.caseId);
          scrub(&o.message);
          scrub(&o.finding);
          for (std::string& d : o.details) scrub(&d);
          for (Evidence& e : o.evidence) scrub(&e.label);
          continue;
        }
        const CaseOutcome named = redacted(o);  // "(case box_1280x720)" is "(case hidden-1)" before the numbers go
        const std::string kind =
            o.status == Status::Failed || o.status == Status::Error ? hiddenFailureKind(named) : "";
        o.message = redactedMessage(named);
        o.finding = kind;
        o.caseId = scrub.alias(o.caseId);
        o.details.clear();
        o.evidence.clear();
        o.timings.clear();
      }
    }
    scrub(&t.performance.caseId);
    scrub(&t.performance.problem);
    scrub(&t.sweep.caseId);
    for (SweepPoint& p : t.sweep.points) scrub(&p.problem);
    scrub(&t.rerun.firstMessage);
    scrub(&t.rerun.message);
    for (SourceQuote& q : t.sourceQuotes) scrub(&q.why);
  }
  return r;
}

}  // namespace clgrade
