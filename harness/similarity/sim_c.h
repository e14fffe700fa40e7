// Running sim_c (Debian's similarity-tester) on texts the students wrote, on the trusted side: the
// texts go to a private temporary folder under names made from their index (never a student's
// name), sim_c runs with a time limit, an output cap and resource limits, and only its percentage
// lines that name two of those files are believed. A student's text is hostile (huge, odd bytes):
// each is cut at a size limit again here, whatever read it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace clgrade {

/// "A consists for N % of B material": N % of text `from`'s tokens are also found in text `to`.
struct DirectedPercent {
  size_t from = 0, to = 0;
  int percent = 0;  ///< 0..100
};

/// The lines of `sim_c -p` output of the form "<name> consists for N % of <name> material" where
/// both names are in `names` (the paths sim_c was given) and differ, as indexes into `names`;
/// every other line (the header, "cannot open", anything odd) is ignored. N is clamped to 0..100;
/// a pair said twice keeps its highest.
std::vector<DirectedPercent> parseSimCPercentages(const std::string& output, const std::vector<std::string>& names);

struct SimCOptions {
  std::string program;          ///< sim_c's path; empty: the first on $PATH (findSimC)
  double timeoutSeconds = 120;  ///< for one run over every text
  size_t outputLimitBytes = size_t(32) << 20;
  size_t textLimitBytes = size_t(1) << 20;  ///< each text is cut there
  /// sim_c is old C that reads the students' text: it runs in the sandbox every runner runs in
  /// (sandbox/sandbox.h) where one can be made; without one (--no-sandbox machines) under the limits
  /// alone.
  bool sandboxed = true;
};

struct SimCResult {
  bool ok = false;
  /// Why nothing was measured: "sim_c not found; install similarity-tester", "sim_c timed out after
  /// 120 s", ...; empty when ok.
  std::string problem;
  std::vector<DirectedPercent> percents;  ///< indexes into the texts; a pair absent is 0 %
};

/// sim_c on $PATH, "" when none.
std::string findSimC();

/// Compares every text with every other one separately, both ways (`sim_c -p -e -a -s -T -t 1`:
/// percentages, each pair in isolation, in both directions, no text with itself, no file list,
/// threshold 1 %). Fewer than 2 texts: ok with no percentages, sim_c not run.
SimCResult runSimC(const std::vector<std::string>& texts, const SimCOptions& options = {});

}  // namespace clgrade
