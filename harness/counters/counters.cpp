#include "counters/counters.h"

#include <nlohmann/json.hpp>

#include "util/files.h"

namespace clgrade {

const KernelCounters* CounterReport::find(const std::string& name) const {
  for (const KernelCounters& k : kernels)
    if (k.name == name) return &k;
  return nullptr;
}

namespace {

using nlohmann::json;

AccessCounts accesses(const json& j) {
  return {j.value("loads", 0L),       j.value("stores", 0L),        j.value("atomics", 0L),
          j.value("load_bytes", -1L), j.value("shared_loads", -1L), j.value("atomics_added", -1L)};
}

BankTally tally(const json& j) {
  return {j.value("requests", 0L), j.value("wavefronts", 0L), j.value("conflicts", 0L)};
}

BankCounts bankCounts(const json& j) {
  return {tally(j.value("load", json::object())), tally(j.value("store", json::object())),
          tally(j.value("atomic", json::object()))};
}

}  // namespace

std::vector<CounterRow> counterRows(const CounterReport& r) {
  std::vector<CounterRow> rows;
  const std::string provider = "simulated (Oclgrind, " + std::to_string(r.banks) + " banks of " +
                               std::to_string(r.bankBytes) + " bytes, warps of " + std::to_string(r.warpSize) + ")";
  for (const KernelCounters& k : r.kernels) {
    rows.push_back({k.name,
                    provider,
                    {{"work_groups", double(k.workGroups)},
                     {"local_store_conflicts_before_first_barrier", double(k.loadPhase.store.conflicts)},
                     {"local_store_requests_before_first_barrier", double(k.loadPhase.store.requests)},
                     {"local_load_conflicts", double(k.bank.load.conflicts)},
                     {"local_load_requests", double(k.bank.load.requests)},
                     {"local_store_conflicts", double(k.bank.store.conflicts)},
                     {"local_store_requests", double(k.bank.store.requests)},
                     {"local_atomic_conflicts", double(k.bank.atomic.conflicts)},
                     {"local_loads", double(k.local.loads)},
                     {"local_stores", double(k.local.stores)},
                     {"local_atomics", double(k.local.atomics)},
                     {"global_loads", double(k.global.loads)},
                     {"global_stores", double(k.global.stores)},
                     {"global_atomics", double(k.global.atomics)},
                     {"constant_loads", double(k.constant.loads)}}});
    if (k.global.loadBytes >= 0) rows.back().values.push_back({"global_load_bytes", double(k.global.loadBytes)});
  }
  return rows;
}

bool readCounters(const std::string& path, CounterReport* report, std::string* err) {
  std::string text;
  if (!readFile(path, &text, err)) return false;
  try {
    const json j = json::parse(text);
    CounterReport r;
    const json model = j.value("model", json::object());
    r.banks = model.value("banks", 32);
    r.bankBytes = model.value("bank_bytes", 4);
    r.warpSize = model.value("warp_size", 32);
    for (const json& k : j.at("kernels")) {
      KernelCounters c;
      c.name = k.at("name").get<std::string>();
      c.invocations = k.value("invocations", 0L);
      c.workGroups = k.value("work_groups", 0L);
      c.pointerValueRead = k.value("pointer_value_read", false);
      c.pointerValueLine = k.value("pointer_value_line", 0);
      c.unsetLocalRead = k.value("unset_local_read", false);
      c.unsetLocalLine = k.value("unset_local_line", 0);
      c.undefinedOperation = k.value("undefined_operation_read", false);
      c.undefinedOperationLine = k.value("undefined_operation_line", 0);
      c.orderDependentWrite = k.value("order_dependent_write_read", false);
      c.orderDependentWriteLine = k.value("order_dependent_write_line", 0);
      c.global = accesses(k.value("global", json::object()));
      c.constant = accesses(k.value("constant", json::object()));
      const json size = k.value("group_size", json::array());
      for (size_t i = 0; i < 3 && i < size.size(); ++i) c.groupSize[i] = size[i].get<long>();
      c.local = accesses(k.value("local", json::object()));
      c.bank = bankCounts(k.value("bank", json::object()));
      const json phases = k.value("phases", json::object());
      c.loadPhase = bankCounts(phases.value("load", json::object()));
      c.computePhase = bankCounts(phases.value("compute", json::object()));
      for (const json& l : k.value("lines", json::array())) {
        c.lines.push_back({l.value("line", 0), l.value("kind", std::string()), l.value("phase", std::string()),
                           l.value("requests", 0L), l.value("wavefronts", 0L), l.value("conflicts", 0L)});
      }
      r.kernels.push_back(c);
    }
    *report = r;
    return true;
  } catch (const std::exception& e) {
    if (err) *err = path + ": not a counters file: " + e.what();
    return false;
  }
}

}  // namespace clgrade
