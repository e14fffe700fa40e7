#include "report/audience.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <vector>

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
  void addCase(const CaseOutcome& o, const std::string& redactedMessage) {
    if (!aliases_.count(o.caseId)) {
      aliases_[o.caseId] = "hidden-" + std::to_string(aliases_.size() + 1);
      order_.push_back(o.caseId);
    }
    // "case box_1280x720: <message>" is how checks and criteria quote a case (model/status.cpp).
    if (!o.message.empty()) quotes_.push_back({"case " + o.caseId + ": " + o.message, "case " + aliases_[o.caseId] + ": " + redactedMessage});
  }
  std::string alias(const std::string& id) const { return aliases_.at(id); }
  bool empty() const { return aliases_.empty(); }

  void operator()(std::string* s) const {
    if (aliases_.empty() || s->empty()) return;
    for (const Alias& q : quotes_) replaceAll(s, q.id, q.alias);
    // Longer ids first, so "box_1280x720_wide" is not half-replaced by "box_1280x720".
    std::vector<std::string> ids = order_;
    std::sort(ids.begin(), ids.end(), [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
    for (const std::string& id : ids) replaceWord(s, id, aliases_.at(id));
  }

 private:
  std::map<std::string, std::string> aliases_;
  std::vector<std::string> order_;
  std::vector<Alias> quotes_;
};

std::string redactedMessage(const CaseOutcome& o) {
  switch (o.status) {
    case Status::Passed:
      return "a hidden case passed";
    case Status::NotMeasured:
      return "a hidden case was not measured";
    case Status::Failed:
      return "a hidden case failed: " + hiddenFailureKind(o);
    case Status::Error:
      return "a hidden case could not run: " + hiddenFailureKind(o);
  }
  return "a hidden case";
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
  const std::string text = o.finding.empty() ? o.message : o.finding;
  std::string out;
  for (size_t i = 0; i < text.size();) {
    size_t j = i;
    while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
    if (j - i >= 3) {
      out += 'N';
      i = j;
    } else if (j > i) {
      out += text.substr(i, j - i);
      i = j;
    } else {
      out += text[i++];
    }
  }
  return out.empty() ? std::string("no reason given") : out;
}

GradeReport forStudents(const GradeReport& report) {
  GradeReport r = report;
  r.hiddenSeed.reset();
  Scrubber scrub;
  for (const TaskReport& t : r.tasks)
    for (const CheckResult& c : t.checks)
      for (const CaseOutcome& o : c.cases)
        if (!o.visible) scrub.addCase(o, redactedMessage(o));
  if (scrub.empty()) return r;
  r.inputs.clear();
  for (TaskReport& t : r.tasks) {
    scrub(&t.problem);
    for (CriterionResult& c : t.criteria) scrub(&c.message);
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
        const std::string kind = o.status == Status::Failed || o.status == Status::Error ? hiddenFailureKind(o) : "";
        o.message = redactedMessage(o);
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
