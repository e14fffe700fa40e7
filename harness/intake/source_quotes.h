// The kernel lines a report's findings point at, quoted into the report (issue 14, item 4): a
// compiler error ("Convolution3x3.cl:7:57: error: ..."), a race or out-of-bounds access of the
// simulator ("between lines 31 and 35"), the store with the most bank conflicts ("worst at line 28").
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "intake/source_policy.h"
#include "model/report.h"

namespace clgrade {

/// The lines of each file in `source.text` (the expanded source the compiler got), found by its
/// `#line N "file"` directives, so a line of an #include'd file is quoted from that file: file ->
/// line number -> text (each cut after 300 bytes; at most 256 files). The main file is `mainFile`.
using FileLines = std::vector<std::pair<std::string, std::map<int, std::string>>>;
FileLines linesByFile(const KernelSource& source, const std::string& mainFile);

/// Quotes for the failing checks, failing cases and failed builds of `report`: each line named
/// (compiler diagnostics by file and line, the simulator's and the counters' "line N" in the task's
/// file) with `context` lines before and after, at most `maxQuotes`, in the order found. A line the
/// file does not have is left out (a report never quotes what is not there).
std::vector<SourceQuote> quoteSource(const KernelSource& source, const TaskReport& report, int context = 2,
                                     size_t maxQuotes = 6);

}  // namespace clgrade
