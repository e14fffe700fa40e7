// Findings of Oclgrind's checkers (out-of-bounds accesses, data races, uninitialized values),
// parsed from its log into entries a student understands.
#pragma once

#include <string>
#include <vector>

namespace clgrade {

struct SanitizerFinding {
  std::string kind;   ///< "Read-write data race", "Invalid read of size 4", ...
  std::string space;  ///< "local", "global", ... (empty when the message names none)
  std::string kernel;
  int line = 0;       ///< source line of the (first) access
  std::string code;   ///< that line's text
  std::string file;   ///< the file that line is in, as the compiler named it
  int otherLine = 0;  ///< races: the second access
  std::string otherCode;
  std::string otherFile;
  long count = 1;  ///< how many times Oclgrind reported it (one per address)

  bool isRace() const;
  bool isOutOfBounds() const;
  /// A write outside a global buffer: a stray write (spec section 5), not a wrong value.
  bool isStrayGlobalWrite() const;
  /// One sentence for the student: what happened, where, what to do.
  std::string explanation() const;
};

struct SanitizerLog {
  std::vector<SanitizerFinding> findings;  ///< grouped by kind, kernel and lines
  bool truncated = false;                  ///< Oclgrind stopped reporting after its error limit
  std::vector<std::string> fatal;          ///< lines saying the simulation itself broke
};

/// Parses Oclgrind's diagnostic output.
SanitizerLog parseOclgrindLog(const std::string& text);

}  // namespace clgrade
