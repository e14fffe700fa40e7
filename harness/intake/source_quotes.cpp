#include "intake/source_quotes.h"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <string_view>

namespace clgrade {
namespace {

/// Files a source may name in #line directives before the rest is ignored (clgrade writes one per
/// include, at most a few dozen).
constexpr size_t kMaxFiles = 256;
/// A quoted line longer than this is cut: a kernel line can be a megabyte.
constexpr size_t kQuotedLineBytes = 300;

/// The lines of `name` in `files`, added when new; nullptr past kMaxFiles.
std::map<int, std::string>* linesOf(FileLines& files, const std::string& name) {
  for (auto& [file, lines] : files)
    if (file == name) return &lines;
  if (files.size() >= kMaxFiles) return nullptr;
  files.emplace_back(name, std::map<int, std::string>());
  return &files.back().second;
}

/// The file of `files` that `name` names: itself, or with a folder in front (a compiler may name
/// the file by a path of its own cache).
const std::pair<std::string, std::map<int, std::string>>* find(const FileLines& files, const std::string& name) {
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

// Student text (a compiler log, a message quoting a kernel line) can be megabytes with lines as
// long: parsed by hand, in one pass, never by std::regex (libstdc++'s recurses per character).

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isNameChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || isDigit(c) || c == '_' || c == '.' || c == '-' || c == '/';
}

/// The number at `at` (at most 9 digits; 0 for none), `*end` after it.
int numberAt(const std::string& s, size_t at, size_t* end) {
  size_t i = at;
  long n = 0;
  while (i < s.size() && isDigit(s[i]) && i - at < 9) n = n * 10 + (s[i++] - '0');
  *end = i;
  return i == at ? 0 : int(n);
}

bool endsWithSourceSuffix(const std::string& name) {
  for (const char* suffix : {".cl", ".clh", ".h", ".hpp", ".inc", ".ocl"}) {
    const size_t n = std::string(suffix).size();
    if (name.size() > n && name.compare(name.size() - n, n, suffix) == 0) return true;
  }
  return false;
}

/// "File.cl:7:57: error: expected ';'": the file, the line and the diagnostic, per line of the log.
void compilerPlaces(const std::string& log, std::vector<Place>* out) {
  size_t start = 0;
  while (start < log.size() && out->size() < 64) {
    size_t stop = log.find('\n', start);
    if (stop == std::string::npos) stop = log.size();
    const size_t inLine = std::string_view(log).substr(start, stop - start).find("error:");
    const size_t error = inLine == std::string_view::npos ? std::string::npos : start + inLine;
    if (error != std::string::npos) {
      // Clang's "name:line[:column]: error: text" (or "fatal error:"), else PoCL's own
      // "error: name:line[:column]: text": the first "name:line" of a source before or after it.
      const size_t afterError = error + 6;
      bool found = false;
      for (size_t colon = log.find(':', start); !found && colon != std::string::npos && colon < stop;
           colon = log.find(':', colon + 1)) {
        if (colon == error + 5) continue;  // the colon of "error:"
        size_t nameStart = colon;
        while (nameStart > start && isNameChar(log[nameStart - 1])) --nameStart;
        // After "error:" only the place right behind it ("error: K.cl:7:"), never one the text names.
        if (colon > error && log.find_first_not_of(' ', afterError) != nameStart) break;
        const std::string name = log.substr(nameStart, colon - nameStart);
        size_t after = 0;
        const int line = numberAt(log, colon + 1, &after);
        if (line <= 0 || !endsWithSourceSuffix(name)) continue;
        // The text after "error:", or after the place that follows it ("7:57: text").
        size_t from = afterError;
        if (colon > error) {
          from = after;
          if (from < stop && log[from] == ':') numberAt(log, from + 1, &from);
          if (from < stop && log[from] == ':') ++from;
        }
        std::string text = log.substr(from, std::min<size_t>(stop - std::min(stop, from), 200));
        while (!text.empty() && text.front() == ' ') text.erase(0, 1);
        out->push_back({name, line, "build: error: " + firstLine(text)});
        found = true;
      }
    }
    start = stop + 1;
  }
}

/// "line 31", "lines 31 and 35", "at line 28 and line 30" in a check's text: lines of the task's file.
void textPlaces(const std::string& text, const std::string& file, const std::string& why, std::vector<Place>* out) {
  for (size_t at = text.find("line"); at != std::string::npos && out->size() < 64; at = text.find("line", at + 4)) {
    if (at > 0 && (isNameChar(text[at - 1]) || text[at - 1] == '#')) continue;  // "deadline", "#line"
    size_t i = at + 4;
    if (i < text.size() && text[i] == 's') ++i;
    if (i >= text.size() || text[i] != ' ') continue;
    size_t end = 0;
    const int first = numberAt(text, i + 1, &end);
    if (first <= 0) continue;
    out->push_back({file, first, why});
    // "... and 35" or "... and line 35"
    for (const char* joint : {" and line ", " and "}) {
      const std::string j = joint;
      if (text.compare(end, j.size(), j) == 0) {
        size_t end2 = 0;
        const int second = numberAt(text, end + j.size(), &end2);
        if (second > 0) out->push_back({file, second, why});
        break;
      }
    }
  }
}

/// `#line N "name"` (what source_policy writes, or the student): the line number and the name.
bool lineDirective(const std::string& line, int* number, std::string* name) {
  size_t i = line.find_first_not_of(" \t");
  if (i == std::string::npos || line[i] != '#') return false;
  i = line.find_first_not_of(" \t", i + 1);
  if (i == std::string::npos || line.compare(i, 4, "line") != 0) return false;
  i = line.find_first_not_of(" \t", i + 4);
  size_t end = 0;
  if (i == std::string::npos || (*number = numberAt(line, i, &end)) <= 0) return false;
  i = line.find_first_not_of(" \t", end);
  if (i == std::string::npos) return true;  // "#line N": the same file from line N on
  if (line[i] != '"') return false;
  name->clear();
  for (++i; i < line.size() && line[i] != '"'; ++i) {
    if (line[i] == '\\' && i + 1 < line.size()) ++i;
    *name += line[i];
  }
  return i < line.size();
}

}  // namespace

FileLines linesByFile(const KernelSource& source, const std::string& mainFile) {
  FileLines files;
  std::map<int, std::string>* current = linesOf(files, mainFile);
  int next = 1;
  std::istringstream in(source.text.empty() ? source.fileBytes : source.text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    int number = 0;
    std::string name;
    if (lineDirective(line, &number, &name)) {
      if (!name.empty()) current = linesOf(files, name);
      next = number;
      continue;
    }
    if (current && next >= 1)
      (*current)[next] = line.size() > kQuotedLineBytes ? line.substr(0, kQuotedLineBytes) + "..." : line;
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
    if (!entry || !entry->second.count(p.line)) continue;
    const std::string& file = entry->first;
    const std::map<int, std::string>& lines = entry->second;
    if (!seen.insert({file, p.line}).second) continue;
    SourceQuote q;
    q.file = file;
    q.line = p.line;
    q.why = p.why;
    // The lines around it that the file has, without a gap.
    q.firstLine = p.line;
    while (q.firstLine > std::max(1, p.line - context) && lines.count(q.firstLine - 1)) --q.firstLine;
    for (int n = q.firstLine; n <= p.line + context && lines.count(n); ++n) q.lines.push_back(lines.at(n));
    quotes.push_back(q);
  }
  return quotes;
}

}  // namespace clgrade
