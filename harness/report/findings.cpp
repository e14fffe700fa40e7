#include "report/findings.h"

#include <cctype>
#include <map>

namespace clgrade {

std::string findingText(const CaseOutcome& o) { return o.finding.empty() ? o.message : o.finding; }

std::string findingKey(const CaseOutcome& o) {
  // A finding says the same thing in every case already ("the last 2 columns" is not "the last 3").
  if (!o.finding.empty()) return "finding|" + o.finding;
  const std::string text = o.message;
  std::string key;
  for (size_t i = 0; i < text.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(text[i]))) {
      if (key.empty() || key.back() != 'N' || i == 0 || !std::isdigit(static_cast<unsigned char>(text[i - 1]))) key += 'N';
      continue;
    }
    key += text[i];
  }
  return key;
}

std::vector<FindingPlace> Finding::shown() const {
  std::vector<FindingPlace> list;
  for (const FindingPlace& p : places) {
    bool known = false;
    for (FindingPlace& s : list) {
      if (s.check != p.check) continue;
      known = true;
      if (s.outcome->evidence.empty() && !p.outcome->evidence.empty()) s = p;
    }
    if (!known) list.push_back(p);
  }
  return list;
}

std::vector<Finding> taskFindings(const TaskReport& task) {
  std::vector<Finding> findings;
  std::map<std::string, size_t> byKey;
  for (const CheckResult& c : task.checks)
    for (const CaseOutcome& o : c.cases) {
      if (o.status != Status::Failed && o.status != Status::Error) continue;
      const std::string key = std::string(statusName(o.status)) + "|" + findingKey(o);
      auto it = byKey.find(key);
      if (it == byKey.end()) {
        it = byKey.emplace(key, findings.size()).first;
        findings.push_back(Finding{findingText(o), o.status, {}});
      }
      findings[it->second].places.push_back({&c, &o});
    }
  return findings;
}

std::string recurrence(const Finding& f, size_t limit) {
  std::string out;
  size_t named = 0, more = 0;
  const CheckResult* current = nullptr;
  for (const FindingPlace& p : f.places) {
    if (named == limit) {
      ++more;
      continue;
    }
    if (p.check != current) {
      out += (current ? "; " : "") + p.check->id + ": ";
      current = p.check;
    } else {
      out += ", ";
    }
    out += p.outcome->caseId + (p.outcome->visible ? "" : " (hidden)");
    ++named;
  }
  if (more) out += " and " + std::to_string(more) + " more";
  return out;
}

}  // namespace clgrade
