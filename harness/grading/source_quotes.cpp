#include "grading/source_quotes.h"

#include <algorithm>
#include <regex>
#include <set>
#include <sstream>

namespace clgrade {
namespace {

using FileLines = std::vector<std::pair<std::string, std::vector<std::string>>>;

std::vector<std::string>* linesOf(FileLines& files, const std::string& name) {
  for (auto& [file, lines] : files)
    if (file == name) return &lines;
  files.emplace_back(name, std::vector<std::string>());
  return &files.back().second;
}

/// The file of `files` that `name` names: itself, or with a folder in front (a compiler may name
/// the file by a path of its own cache).
const std::pair<std::string, std::vector<std::string>>* find(const FileLines& files, const std::string& name) {
  for (const auto& entry : files)
    if (entry.first == name) return &entry;
  const size_t cut = name.rfind('/');
  if (cut != std::string::npos)
    for (const auto& entry : files)
      if (name.substr(cut + 1) == entry.first) return &entry;
  return nullptr;
}

/// A place the findings name, with what named it.
struct Place {
  std::string file;
  int line = 0;
  std::string why;
};

std::string firstLine(const std::string& s, size_t limit = 160) {
  std::string one = s.substr(0, s.find('\n'));
  return one.size() > limit ? one.substr(0, limit - 3) + "..." : one;
}

/// "File.cl:7:57: error: expected ';'": the file, the line and the diagnostic, errors first.
void compilerPlaces(const std::string& log, std::vector<Place>* out) {
  static const std::regex diagnostic(R"(([A-Za-z0-9_.\-/]+\.(?:cl|clh|h|hpp|inc|ocl)):(\d+)(?::\d+)?:\s*(?:fatal )?error:\s*([^\n]*))");
  for (auto it = std::sregex_iterator(log.begin(), log.end(), diagnostic); it != std::sregex_iterator(); ++it) {
    const int line = std::atoi((*it)[2].str().c_str());
    if (line > 0) out->push_back({(*it)[1].str(), line, "build: error: " + firstLine((*it)[3].str())});
  }
}

/// "line 31", "lines 31 and 35", "at line 28 and line 30" in a check's text: lines of the task's file.
void textPlaces(const std::string& text, const std::string& file, const std::string& why, std::vector<Place>* out) {
  static const std::regex lines(R"(\blines? (\d+)(?: and (?:line )?(\d+))?)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), lines); it != std::sregex_iterator(); ++it)
    for (int g : {1, 2})
      if ((*it)[g].matched) {
        const int line = std::atoi((*it)[g].str().c_str());
        if (line > 0) out->push_back({file, line, why});
      }
}

}  // namespace

FileLines linesByFile(const KernelSource& source, const std::string& mainFile) {
  FileLines files;
  static const std::regex directive(R"(^\s*#\s*line\s+(\d+)\s+\"((?:[^\"\\]|\\.)*)\"\s*$)");
  std::vector<std::string>* current = linesOf(files, mainFile);
  int next = 1;
  std::istringstream in(source.text.empty() ? source.fileBytes : source.text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::smatch m;
    if (line.find("#") != std::string::npos && std::regex_match(line, m, directive)) {
      std::string name;
      for (size_t i = 0; i < m[2].str().size(); ++i) {
        const char c = m[2].str()[i];
        if (c == '\\' && i + 1 < m[2].str().size()) name += m[2].str()[++i];
        else name += c;
      }
      current = linesOf(files, name);
      next = std::atoi(m[1].str().c_str());
      continue;
    }
    if (next >= 1 && next <= 1 << 20) {
      if (current->size() < size_t(next)) current->resize(size_t(next));
      (*current)[size_t(next) - 1] = line;
    }
    ++next;
  }
  return files;
}

std::vector<SourceQuote> quoteSource(const KernelSource& source, const TaskReport& report, int context,
                                     size_t maxQuotes) {
  std::vector<Place> places;
  for (const BuildRecord& b : report.builds)
    if (!b.ok) compilerPlaces(b.log.empty() ? b.error : b.log, &places);
  for (const CheckResult& c : report.checks) {
    if (c.status != Status::Failed && c.status != Status::Error) continue;
    for (const CaseOutcome& o : c.cases) {
      if (o.status != Status::Failed && o.status != Status::Error) continue;
      compilerPlaces(o.message, &places);
      textPlaces(o.message, report.file, c.id, &places);
      for (const std::string& d : o.details) {
        compilerPlaces(d, &places);
        textPlaces(d, report.file, c.id, &places);
      }
    }
  }
  const FileLines files = linesByFile(source, report.file);
  std::vector<SourceQuote> quotes;
  std::set<std::pair<std::string, int>> seen;
  for (const Place& p : places) {
    if (quotes.size() >= maxQuotes) break;
    const auto* entry = find(files, p.file);
    if (!entry || p.line > int(entry->second.size())) continue;
    const std::string& file = entry->first;
    const std::vector<std::string>* lines = &entry->second;
    if (!seen.insert({file, p.line}).second) continue;
    SourceQuote q;
    q.file = file;
    q.line = p.line;
    q.why = p.why;
    q.firstLine = std::max(1, p.line - context);
    const int last = std::min(int(lines->size()), p.line + context);
    for (int n = q.firstLine; n <= last; ++n) q.lines.push_back((*lines)[size_t(n) - 1]);
    quotes.push_back(q);
  }
  return quotes;
}

}  // namespace clgrade
