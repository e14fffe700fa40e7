#include "counters/nvidia/ncu_csv.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>

namespace clgrade {

const char* const kNcuSharedMetrics =
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,"
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,"
    "smsp__sass_inst_executed_op_shared_ld.sum,"
    "smsp__sass_inst_executed_op_shared_st.sum,"
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,"
    "launch__grid_size,launch__block_dim_x,launch__block_dim_y";

std::vector<std::string> hardwareCounterMetrics() {
  std::vector<std::string> metrics;
  std::istringstream list(kNcuSharedMetrics);
  for (std::string m; std::getline(list, m, ',');)
    if (m.rfind("launch__", 0) != 0) metrics.push_back(m);
  return metrics;
}

namespace {

std::string quoted(const std::string& field) {
  std::string out = "\"";
  for (char c : field) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string csvNumber(double value) {
  std::ostringstream text;
  text.precision(17);
  text << value;
  return text.str();
}

}  // namespace

std::string counterRowsCsv(const std::vector<CountedLaunchRow>& rows, const std::string& note) {
  const std::vector<std::string> metrics = hardwareCounterMetrics();
  std::string csv = "==PROF== " + note + "\n";
  csv += "\"ID\",\"Kernel Name\",\"Block Size\",\"Grid Size\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n";
  for (size_t id = 0; id < rows.size(); ++id) {
    const CountedLaunchRow& r = rows[id];
    const std::string block = "(" + std::to_string(r.groupSize[0]) + ", " + std::to_string(r.groupSize[1]) + ", " +
                              std::to_string(r.groupSize[2]) + ")";
    const std::string grid = "(" + std::to_string(r.groups[0]) + ", " + std::to_string(r.groups[1]) + ", " +
                             std::to_string(r.groups[2]) + ")";
    auto row = [&](const std::string& metric, double value) {
      csv += quoted(std::to_string(id)) + "," + quoted(r.kernel) + "," + quoted(block) + "," + quoted(grid) + "," +
             quoted(metric) + "," + quoted("") + "," + quoted(csvNumber(value)) + "\n";
    };
    for (size_t m = 0; m < metrics.size() && m < r.values.size(); ++m) row(metrics[m], r.values[m]);
    row("launch__grid_size", double(r.groups[0]) * double(r.groups[1]) * double(r.groups[2]));
    row("launch__block_dim_x", double(r.groupSize[0]));
    row("launch__block_dim_y", double(r.groupSize[1]));
  }
  return csv;
}

bool splitNcuCsvLine(const std::string& line, std::vector<std::string>* fields) {
  fields->clear();
  if (line.empty() || line[0] != '"') return false;
  std::string field;
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields->push_back(field);
      field.clear();
    } else if (c != '\r') {
      field += c;
    }
  }
  fields->push_back(field);
  return !quoted;
}

bool parseNcuNumber(std::string text, double* value) {
  text.erase(std::remove(text.begin(), text.end(), ','), text.end());
  if (text.empty()) return false;
  char* end = nullptr;
  *value = std::strtod(text.c_str(), &end);
  return end && *end == '\0';
}

std::string ncuPermissionError(const std::string& output) {
  if (output.find("ERR_NVGPUCTRPERM") == std::string::npos) return "";
  return "ncu has no permission to read the GPU's performance counters (ERR_NVGPUCTRPERM): run as root, or set the "
         "driver option NVreg_RestrictProfilingToAdminUsers=0";
}

namespace {

int column(const std::vector<std::string>& header, const std::string& name) {
  const auto it = std::find(header.begin(), header.end(), name);
  return it == header.end() ? -1 : static_cast<int>(it - header.begin());
}

}  // namespace

bool parseNcuCsv(const std::string& csv, std::vector<HardwareCounts>* counts, std::string* err) {
  counts->clear();
  if (const std::string denied = ncuPermissionError(csv); !denied.empty()) {
    *err = denied;
    return false;
  }
  std::istringstream lines(csv);
  std::string line;
  std::vector<std::string> header, fields;
  int idCol = -1, kernelCol = -1, metricCol = -1, valueCol = -1;
  std::set<std::pair<std::string, std::string>> launches;  // (kernel, ID)
  bool sawRow = false;
  while (std::getline(lines, line)) {
    if (!splitNcuCsvLine(line, &fields)) continue;
    if (column(fields, "Metric Name") >= 0 && column(fields, "Metric Value") >= 0) {
      header = fields;
      idCol = column(header, "ID");
      kernelCol = column(header, "Kernel Name");
      metricCol = column(header, "Metric Name");
      valueCol = column(header, "Metric Value");
      continue;
    }
    if (header.empty() || fields.size() != header.size() || kernelCol < 0) continue;
    double value = 0;
    if (!parseNcuNumber(fields[valueCol], &value)) continue;
    const std::string& kernel = fields[kernelCol];
    auto it = std::find_if(counts->begin(), counts->end(), [&](const HardwareCounts& c) { return c.kernel == kernel; });
    if (it == counts->end()) {
      counts->push_back(HardwareCounts{});
      counts->back().kernel = kernel;
      it = counts->end() - 1;
    }
    if (launches.insert({kernel, idCol >= 0 ? fields[idCol] : std::to_string(launches.size())}).second) ++it->launches;
    const std::string& metric = fields[metricCol];
    if (metric == "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum")
      it->sharedLoadConflicts += value;
    else if (metric == "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum")
      it->sharedStoreConflicts += value;
    else if (metric == "smsp__sass_inst_executed_op_shared_ld.sum")
      it->sharedLoadInstructions += value;
    else if (metric == "smsp__sass_inst_executed_op_shared_st.sum")
      it->sharedStoreInstructions += value;
    else if (metric == "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")
      it->globalLoadSectors = std::max(0.0, it->globalLoadSectors) + value;
    else if (metric == "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum")
      it->globalLoadRequests = std::max(0.0, it->globalLoadRequests) + value;
    else if (metric == "launch__grid_size")
      it->workGroups += std::lround(value);
    else if (metric == "launch__block_dim_x")
      it->groupSize[0] = std::max(it->groupSize[0], std::lround(value));
    else if (metric == "launch__block_dim_y")
      it->groupSize[1] = std::max(it->groupSize[1], std::lround(value));
    sawRow = true;
  }
  if (sawRow) return true;
  if (csv.find("No kernels were profiled") != std::string::npos)
    *err = "ncu profiled no kernels (it does not see OpenCL launches; were they replayed through CUDA?)";
  else if (header.empty())
    *err = "no ncu CSV header (\"Metric Name\", \"Metric Value\") in the output";
  else
    *err = "ncu CSV has a header but no metric rows";
  return false;
}

}  // namespace clgrade
