#include "checks/sanitizer.h"

#include <cstdlib>
#include <map>
#include <sstream>
#include <tuple>

namespace clgrade {

bool SanitizerFinding::isRace() const { return kind.find("data race") != std::string::npos; }
bool SanitizerFinding::isOutOfBounds() const { return kind.rfind("Invalid", 0) == 0; }
bool SanitizerFinding::isStrayGlobalWrite() const {
  return kind.rfind("Invalid write", 0) == 0 && (space == "global" || space == "constant");
}

std::string SanitizerFinding::explanation() const {
  const std::string at = "line " + std::to_string(line);
  if (isRace() && space == "local") {
    if (otherLine && otherLine != line) {
      const int a = std::min(line, otherLine), b = std::max(line, otherLine);
      return "work-items use local memory that other work-items of the group write, with no barrier in between: "
             "a barrier(CLK_LOCAL_MEM_FENCE) is missing between lines " +
             std::to_string(a) + " and " + std::to_string(b) + " (" + kernel + ")";
    }
    return "work-items of one group access the same local address at " + at +
           " without synchronisation: use a local atomic or a barrier (" + kernel + ")";
  }
  if (isRace()) {
    const std::string where = "the same " + (space.empty() ? std::string("memory") : space + " memory") +
                              " address at " + at +
                              (otherLine && otherLine != line ? " and line " + std::to_string(otherLine) : "");
    // Only a read-modify-write (a counter) wants an atomic; two stores to one element mean an index
    // that reaches another work-item's element (a row that runs past its end, say).
    auto increments = [](const std::string& text) {
      return text.find("++") != std::string::npos || text.find("+=") != std::string::npos ||
             text.find("-=") != std::string::npos || text.find("--") != std::string::npos;
    };
    if (increments(code) || increments(otherCode))
      return "work-items update " + where +
             " without synchronisation: an increment shared by work-items needs "
             "an atomic (" +
             kernel + ")";
    if (kind.rfind("Write-write", 0) == 0)
      return "two work-items store to " + where +
             ": every element must be written by one work-item; check the "
             "store's index (a row that runs past its end writes into the next row) (" +
             kernel + ")";
    return "one work-item reads what another writes at " + where +
           ", and work-items cannot wait for each other "
           "across groups: check the indices (a store past the end of its row or image lands on data another "
           "work-item reads) (" +
           kernel + ")";
  }
  if (isOutOfBounds()) {
    const bool write = kind.find("write") != std::string::npos;
    return std::string(write ? "writes" : "reads") + " outside the " + (space.empty() ? "" : space + " ") +
           "buffer at " + at + ": check the coordinates against Width/Height (or the array size) before the " +
           (write ? "store" : "load") + " (" + kernel + ")";
  }
  if (kind.find("ninitiali") != std::string::npos)
    return "uses a value that was never written, at " + at +
           (space == "local" ? " (is the local array cleared before use?)" : "") + ": initialise it (" + kernel + ")";
  return kind + " at " + at + " (" + kernel + ")";
}

namespace {

/// "Invalid read of size 4 at global memory address 0x..." -> "Invalid read of size 4", "global";
/// "Uninitialized value written to local memory address 0x..." -> "Uninitialized value written to", "local".
void splitHeader(const std::string& header, std::string* kind, std::string* space) {
  space->clear();
  const size_t memory = header.find(" memory address");
  if (memory == std::string::npos) {
    *kind = header.substr(0, header.find(" at "));
    return;
  }
  std::string prefix = header.substr(0, memory);
  const size_t lastSpace = prefix.rfind(' ');
  *space = prefix.substr(lastSpace + 1);
  prefix = prefix.substr(0, lastSpace);
  if (prefix.size() >= 3 && prefix.compare(prefix.size() - 3, 3, " at") == 0) prefix.resize(prefix.size() - 3);
  *kind = prefix;
}

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

}  // namespace

SanitizerLog parseOclgrindLog(const std::string& text) {
  SanitizerLog log;
  std::map<std::tuple<std::string, std::string, std::string, int, int>, size_t> index;
  std::istringstream in(text);
  std::string line;
  SanitizerFinding current;
  bool open = false;
  int atLines = 0;
  auto flush = [&]() {
    if (!open) return;
    open = false;
    const auto key = std::make_tuple(current.kind, current.space, current.kernel, current.line, current.otherLine);
    auto it = index.find(key);
    if (it != index.end()) {
      ++log.findings[it->second].count;
    } else {
      index[key] = log.findings.size();
      log.findings.push_back(current);
    }
  };
  std::string pendingCodeFor;  // "first" or "second": the next indented line is that access's source
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    if (line[0] != '\t' && line[0] != ' ') {
      if (line.rfind("Oclgrind: ", 0) == 0) {
        if (line.find("suppressing") != std::string::npos)
          log.truncated = true;
        else
          log.fatal.push_back(line);
        continue;
      }
      if (line.rfind("clgrade: ", 0) == 0) continue;  // our own notes in the log
      // A finding's first line names memory, a race, an invalid access or an error.
      static const char* kMarks[] = {"memory address", "Invalid", "race", "ninitiali", "rror"};
      bool header = false;
      for (const char* mark : kMarks) header = header || line.find(mark) != std::string::npos;
      if (!header) continue;
      flush();
      current = SanitizerFinding();
      splitHeader(line, &current.kind, &current.space);
      open = true;
      atLines = 0;
      pendingCodeFor.clear();
      continue;
    }
    if (!open) continue;
    const std::string t = trim(line);
    if (t.rfind("Kernel: ", 0) == 0) {
      current.kernel = t.substr(8);
    } else if (t.rfind("At line ", 0) == 0) {
      const int n = std::atoi(t.c_str() + 8);
      // "At line 42 (column 23) of Convolution3x3.cl:"
      const size_t of = t.find(") of ");
      const std::string file = of == std::string::npos || t.back() != ':' ? "" : t.substr(of + 5, t.size() - of - 6);
      if (atLines++ == 0) {
        current.line = n;
        current.file = file;
        pendingCodeFor = "first";
      } else {
        current.otherLine = n;
        current.otherFile = file;
        pendingCodeFor = "second";
      }
    } else if (!pendingCodeFor.empty()) {
      (pendingCodeFor == "first" ? current.code : current.otherCode) = t;
      pendingCodeFor.clear();
    }
  }
  flush();
  return log;
}

}  // namespace clgrade
