// The counters file: the accumulated tallies as JSON, written whole through a temporary file, so
// a reader never sees half of it.
#pragma once

#include <string>

#include "bank_model.h"
#include "tallies.h"

namespace clgrade::counters {

/// {"model": {...}, "kernels": [{name, invocations, work_groups, global, local, bank, phases,
/// lines}]}; `lines` holds only lines with conflicts, the most first.
std::string countersJson(const BankModel& model, const KernelTallies& kernels);

/// Writes `text` to `path` via `path`.tmp.<pid> and rename; false and `*error` on failure.
bool replaceFile(const std::string& path, const std::string& text, std::string* error);

}  // namespace clgrade::counters
