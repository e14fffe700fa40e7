#include "counters_json.h"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <vector>

#include "util/files.h"

namespace clgrade::counters {
namespace {

/// A JSON string literal; kernel names are identifiers, but the file must stay valid whatever comes.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\u%04x", c);
      out += escape;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string triple(const BankTally& t) {
  std::ostringstream out;
  out << "{\"requests\": " << t.requests << ", \"wavefronts\": " << t.wavefronts << ", \"conflicts\": " << t.conflicts
      << "}";
  return out.str();
}

std::string counts(const AccessCounts& c) {
  std::ostringstream out;
  out << "{\"loads\": " << c.loads << ", \"stores\": " << c.stores << ", \"atomics\": " << c.atomics
      << ", \"load_bytes\": " << c.loadBytes << ", \"shared_loads\": " << c.sharedLoads
      << ", \"atomics_added\": " << c.atomicsAdded << "}";
  return out.str();
}

/// {"load": ..., "store": ..., "atomic": ...} from a per-kind getter.
template <typename PerKind>
std::string byKind(PerKind perKind) {
  return "{\"load\": " + triple(perKind(AccessKind::Load)) + ", \"store\": " + triple(perKind(AccessKind::Store)) +
         ", \"atomic\": " + triple(perKind(AccessKind::Atomic)) + "}";
}

std::string linesJson(const KernelTally& k) {
  std::vector<std::pair<LineKey, BankTally>> conflicting;
  for (const auto& entry : k.lines)
    if (entry.second.conflicts > 0) conflicting.push_back(entry);
  // Most conflicts first; ties in source order, so the file is the same from run to run.
  std::stable_sort(conflicting.begin(), conflicting.end(),
                   [](const auto& a, const auto& b) { return a.second.conflicts > b.second.conflicts; });
  std::ostringstream out;
  out << "[";
  for (size_t i = 0; i < conflicting.size(); ++i) {
    const auto& [key, t] = conflicting[i];
    out << (i ? ",\n    " : "\n    ") << "{\"line\": " << key.line << ", \"kind\": \"" << kindName(key.kind)
        << "\", \"phase\": \"" << phaseName(key.phase) << "\", \"requests\": " << t.requests
        << ", \"wavefronts\": " << t.wavefronts << ", \"conflicts\": " << t.conflicts << "}";
  }
  out << (conflicting.empty() ? "]" : "\n   ]");
  return out.str();
}

/// `"name_read": true, "name_line": 12`: whether and where (counters.cpp reads it so).
std::string sighting(const std::string& name, const Sighting& s) {
  return "\"" + name + "_read\": " + (s.seen ? "true" : "false") + ", \"" + name + "_line\": " + std::to_string(s.line);
}

std::string kernelJson(const std::string& name, const KernelTally& k) {
  std::ostringstream out;
  out << "  {\"name\": " << quoted(name) << ", \"invocations\": " << k.invocations
      << ", \"work_groups\": " << k.workGroups << ",\n"
      << "   " << sighting("pointer_value", k.pointerValue) << ", " << sighting("unset_local", k.unsetLocal) << ",\n"
      << "   " << sighting("undefined_operation", k.undefinedOperation) << ", "
      << sighting("order_dependent_write", k.orderDependentWrite) << ",\n"
      << "   \"group_size\": [" << k.groupSize[0] << ", " << k.groupSize[1] << ", " << k.groupSize[2] << "],\n"
      << "   \"global\": " << counts(k.global) << ",\n"
      << "   \"constant\": " << counts(k.constant) << ",\n"
      << "   \"local\": " << counts(k.local) << ",\n"
      << "   \"bank\": " << byKind([&](AccessKind kind) { return k.bankTotal(kind); }) << ",\n"
      << "   \"phases\": {\"load\": " << byKind([&](AccessKind kind) { return k.bankTotal(kind, Phase::Load); })
      << ",\n              \"compute\": " << byKind([&](AccessKind kind) { return k.bankTotal(kind, Phase::Compute); })
      << "},\n"
      << "   \"lines\": " << linesJson(k) << "}";
  return out.str();
}

}  // namespace

std::string countersJson(const BankModel& model, const KernelTallies& kernels) {
  std::ostringstream out;
  out << "{\"model\": {\"banks\": " << model.banks << ", \"bank_bytes\": " << model.bankBytes
      << ", \"warp_size\": " << model.warpSize << "},\n \"kernels\": [";
  bool first = true;
  for (const auto& [name, tally] : kernels) {
    out << (first ? "\n" : ",\n") << kernelJson(name, tally);
    first = false;
  }
  out << "]}\n";
  return out.str();
}

bool writeCountersFile(const std::string& path, const BankModel& model, const KernelTallies& kernels,
                       std::string* error) {
  return writeFileAtomically(path, countersJson(model, kernels), error);
}

}  // namespace clgrade::counters
