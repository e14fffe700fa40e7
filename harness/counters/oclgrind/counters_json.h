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

/// Writes countersJson to `path` through the checked writer (util/files.h: a temporary name, every
/// step checked, a rename); false and `*error`, naming `path`, on failure.
bool writeCountersFile(const std::string& path, const BankModel& model, const KernelTallies& kernels,
                       std::string* error);

}  // namespace clgrade::counters
