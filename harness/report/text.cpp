#include "report/text.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <set>

#include "util/files.h"

namespace clgrade {
namespace {

bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::string urlPath(const std::string& path) {
  static const char hex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : path) {
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
        c == '_' || c == '~' || c == '/') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

std::string formatPoints(double points) {
  if (!std::isfinite(points)) return std::isnan(points) ? "nan" : (points > 0 ? "inf" : "-inf");
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.4f", points);
  std::string s = buffer;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  if (s == "-0") s = "0";
  return s;
}

std::string statusLabel(Status status) {
  std::string s = statusName(status);
  for (char& c : s)
    if (c == '_') c = ' ';
  return s;
}

namespace {

const char kRetriedOnResume[] = ", retried on resume after ";

}  // namespace

std::string retriedOnResumeOutcome(const std::string& retryOutcome, const std::string& firstOutcome) {
  return retryOutcome + kRetriedOnResume + firstOutcome;
}

std::vector<std::string> processNotes(const TaskReport& t) {
  std::vector<std::string> notes;
  const size_t retried = t.process.outcome.rfind(kRetriedOnResume);
  if (retried != std::string::npos) {
    // A signal from outside, or a wait for another job's lock that ran the time out (keeper/runner_end.h).
    const std::string first = t.process.outcome.substr(retried + std::strlen(kRetriedOnResume));
    notes.push_back("graded again when the batch was resumed: its first grading process " +
                    (first.rfind("signal ", 0) == 0
                         ? "was killed from outside (" + first + "; the system's out-of-memory killer?)"
                         : "was stopped (" + first + ")") +
                    ", which is not the kernels' doing");
  }
  if (t.rerun.ran) {
    std::string note = "the first grading process was stopped (" + t.rerun.firstOutcome + "): " + t.rerun.firstMessage +
                       "; a second one left out " + t.rerun.leftOut;
    note += t.rerun.outcome.empty() ? " and finished, so the task's other checks keep their results"
                                    : " and was stopped too (" + t.rerun.outcome + "): " + t.rerun.message;
    notes.push_back(note);
  }
  if (t.process.kernelOutputBytes > 0 && !t.process.kernelOutput.empty())
    notes.push_back("the kernels printed " + std::to_string(t.process.kernelOutputBytes) + " bytes (" +
                    t.process.kernelOutput +
                    (t.process.kernelOutputTruncated ? ": the first part is kept" : std::string()) + ")");
  return notes;
}

bool isSafeRelativePath(const std::string& path) {
  if (path.empty() || path[0] == '/' || path.find('\\') != std::string::npos || path.find('\0') != std::string::npos ||
      path.find(':') != std::string::npos)
    return false;
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    if (path.compare(start, end - start, "..") == 0) return false;
    start = end + 1;
  }
  return true;
}

std::string pngDataUri(const std::string& reportDir, const std::string& relativePath, size_t limitBytes,
                       std::string* err) {
  if (!isSafeRelativePath(relativePath)) {
    *err = "not a path inside the report folder: " + relativePath;
    return "";
  }
  std::string bytes;
  const std::string full = (reportDir.empty() ? std::string(".") : reportDir) + "/" + relativePath;
  if (!readFile(full, &bytes, err, limitBytes)) return "";
  if (bytes.compare(0, 8, "\x89PNG\r\n\x1a\n", 8) != 0) {
    *err = relativePath + " is not a PNG file";
    return "";
  }
  return "data:image/png;base64," + base64Encode(bytes);
}

std::vector<ImageSet> imageSets(const std::vector<Evidence>& evidence, std::vector<const Evidence*>* others) {
  std::vector<ImageSet> sets;
  std::map<std::string, size_t> byStem;
  std::set<std::string> seen;
  for (const Evidence& e : evidence) {
    if (e.path.empty() || !seen.insert(e.path).second) continue;
    const Evidence* ImageSet::*slot = nullptr;
    std::string suffix;
    if (endsWith(e.path, "_crop.png"))
      slot = &ImageSet::crop, suffix = "_crop.png";
    else if (endsWith(e.path, "_diff.png"))
      slot = &ImageSet::difference, suffix = "_diff.png";
    else if (endsWith(e.path, "_expected.png"))
      slot = &ImageSet::expected, suffix = "_expected.png";
    else if (endsWith(e.path, "_actual.png"))
      slot = &ImageSet::actual, suffix = "_actual.png";
    if (!slot) {
      if (others) others->push_back(&e);
      continue;
    }
    const std::string stem = e.path.substr(0, e.path.size() - suffix.size());
    auto it = byStem.find(stem);
    if (it == byStem.end()) {
      it = byStem.emplace(stem, sets.size()).first;
      sets.push_back(ImageSet{stem});
    }
    sets[it->second].*slot = &e;
  }
  return sets;
}

std::vector<CaseImages> criterionImages(const TaskReport& task, const CriterionResult& criterion, bool hiddenCases) {
  std::vector<CaseImages> list;
  std::set<std::string>
      seen;  // two criteria's checks never share a case's files, but one criterion may name a check twice
  for (const std::string& id : criterion.checks)
    for (const CheckResult& check : task.checks) {
      if (check.id != id || !seen.insert(id).second) continue;
      for (const CaseOutcome& o : check.cases) {
        if (o.status == Status::Passed || (!o.visible && !hiddenCases)) continue;
        for (const ImageSet& set : imageSets(o.evidence)) list.push_back({&check, &o, set});
      }
    }
  return list;
}

std::string overrideLine(const CriterionResult& c) {
  if (!c.overridden) return "";
  std::string line = "Instructor override: " + formatPoints(c.points) + " of " + formatPoints(c.max) +
                     " points (measured " + formatPoints(c.originalPoints) + ")";
  if (!c.overrideAuthor.empty()) line += " by " + c.overrideAuthor;
  if (!c.overrideComment.empty()) line += ": " + c.overrideComment;
  return line;
}

std::string criterionDetails(const TaskReport& task, const CriterionResult& criterion, const DetailOptions& options) {
  std::string out;
  auto line = [&out](const std::string& indent, const std::string& text) { out += indent + text + "\n"; };
  if (criterion.overridden) line("", overrideLine(criterion));
  if (!task.problem.empty()) line("", "task " + task.id + ": " + task.problem);
  for (const std::string& id : criterion.checks) {
    const CheckResult* check = nullptr;
    for (const CheckResult& c : task.checks)
      if (c.id == id) check = &c;
    if (!check || check->status == Status::Passed) continue;
    line("", check->id + " " + statusName(check->status) + ": " + check->message);
    size_t listed = 0, skipped = 0;
    for (const CaseOutcome& o : check->cases) {
      if (o.status == Status::Passed) continue;
      if (listed == options.casesPerCheck) {
        ++skipped;
        continue;
      }
      ++listed;
      line("  ", "case " + o.caseId + (o.visible ? "" : " (hidden)") + " " + statusName(o.status) + ": " + o.message);
      if (!o.visible && !options.hiddenCaseDetails) continue;
      for (size_t i = 0; i < o.details.size() && i < options.detailLines; ++i) line("    ", o.details[i]);
      if (o.details.size() > options.detailLines)
        line("    ", "... " + std::to_string(o.details.size() - options.detailLines) + " more lines in report.json");
    }
    if (skipped) line("  ", "... " + std::to_string(skipped) + " more cases that did not pass");
  }
  return out;
}

}  // namespace clgrade
