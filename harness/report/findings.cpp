#include "report/findings.h"

#include <cctype>
#include <map>

namespace clgrade {

std::string findingText(const CaseOutcome& o) { return o.finding.empty() ? o.message : o.finding; }

std::string numbersAsN(const std::string& text) {
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  auto letter = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; };
  std::string out;
  bool inName = false;  // within a word that began with a letter: "Convolution3x3", "build_2"
  for (size_t i = 0; i < text.size();) {
    if (digit(text[i]) && !inName) {
      out += 'N';
      while (i < text.size() && digit(text[i])) ++i;
      // The rest of a number's word stays a number's: "1280x720" is "NxN", not "Nx720".
      while (i < text.size() && (letter(text[i]) || digit(text[i]))) {
        if (digit(text[i])) {
          out += 'N';
          while (i < text.size() && digit(text[i])) ++i;
        } else {
          out += text[i++];
        }
      }
    } else if (space(text[i])) {
      if (!out.empty()) out += ' ';
      while (i < text.size() && space(text[i])) ++i;
      inName = false;
    } else {
      inName = letter(text[i]) || (inName && digit(text[i]));
      out += text[i++];
    }
  }
  if (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

std::string findingKey(const CaseOutcome& o) {
  // A finding says the same thing in every case already ("the last 2 columns" is not "the last 3").
  if (!o.finding.empty()) return "finding|" + o.finding;
  return numbersAsN(o.message);
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
