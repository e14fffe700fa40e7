#include "counters/nvidia/ncu_source.h"

#include <algorithm>
#include <set>
#include <sstream>
#include <utility>

#include "counters/nvidia/ncu_csv.h"

namespace clgrade {

namespace {

int column(const std::vector<std::string>& header, const std::string& name) {
  const auto it = std::find(header.begin(), header.end(), name);
  return it == header.end() ? -1 : static_cast<int>(it - header.begin());
}

/// The errors every page shares: the permission error, and a run that profiled nothing.
bool commonError(const std::string& csv, std::string* err) {
  if (std::string denied = ncuPermissionError(csv); !denied.empty()) {
    *err = denied;
    return true;
  }
  if (csv.find("No kernels were profiled") != std::string::npos) {
    *err = "ncu profiled no kernels (it does not see OpenCL launches; were they replayed through CUDA?)";
    return true;
  }
  return false;
}

/// A block of the source page as it is read: what its rows hold (to recognise ncu's repeat) and tallies.
struct SourceBlock {
  std::string kernel;
  std::vector<std::string> header;
  int sourceCol = -1, threadsCol = -1, spaceCol = -1;
  std::string text;
  double shared = 0, global = 0;
  long sharedInstructions = 0, globalInstructions = 0;
};

}  // namespace

AtomicSpace classifyAtomic(const std::string& source, const std::string& addressSpace) {
  std::istringstream tokens(source);
  std::string opcode;
  do {
    if (!(tokens >> opcode)) return AtomicSpace::None;
  } while (opcode[0] == '@');  // the predicate: "@P0", "@!P1"
  const std::string base = opcode.substr(0, opcode.find('.'));
  if (base == "ATOMS") return AtomicSpace::Shared;
  if (base == "ATOMG" || base == "REDG") return AtomicSpace::Global;
  if (base == "ATOM" || base == "RED") return addressSpace == "Shared" ? AtomicSpace::Shared : AtomicSpace::Global;
  return AtomicSpace::None;
}

bool parseNcuSourceAtomics(const std::string& csv, std::vector<AtomicCounts>* counts, std::string* err) {
  counts->clear();
  if (commonError(csv, err)) return false;
  std::set<std::pair<std::string, std::string>> seen;  // (kernel, text) of the blocks counted
  std::vector<SourceBlock> blocks;
  std::istringstream lines(csv);
  std::string line;
  std::vector<std::string> fields;
  while (std::getline(lines, line)) {
    if (!splitNcuCsvLine(line, &fields)) continue;
    if (fields.size() >= 2 && fields[0] == "Kernel Name") {
      blocks.push_back(SourceBlock{});
      blocks.back().kernel = fields[1];
      continue;
    }
    if (blocks.empty()) continue;
    SourceBlock& b = blocks.back();
    if (fields[0] == "Address" && column(fields, "Source") >= 0) {
      b.header = fields;
      b.sourceCol = column(fields, "Source");
      b.threadsCol = column(fields, "Predicated-On Thread Instructions Executed");
      // ncu leaves "Address Space" out for a kernel without memory instructions (an empty body).
      b.spaceCol = column(fields, "Address Space");
      if (b.threadsCol < 0) {
        *err = "ncu's source page for " + b.kernel +
               " has no \"Predicated-On Thread Instructions Executed\" column (was it profiled with --section "
               "SourceCounters?)";
        return false;
      }
      continue;
    }
    if (b.header.empty() || fields.size() != b.header.size()) continue;
    // What identifies a repeat: each instruction and the columns counted (not the sampled stalls).
    const std::string addressSpace = b.spaceCol >= 0 ? fields[b.spaceCol] : "-";
    b.text += fields[0] + '\t' + fields[b.sourceCol] + '\t' + fields[b.threadsCol] + '\t' + addressSpace + '\n';
    const AtomicSpace space = classifyAtomic(fields[b.sourceCol], addressSpace);
    if (space == AtomicSpace::None) continue;
    double threads = 0;
    if (!parseNcuNumber(fields[b.threadsCol], &threads)) continue;
    if (space == AtomicSpace::Shared) {
      b.shared += threads;
      ++b.sharedInstructions;
    } else {
      b.global += threads;
      ++b.globalInstructions;
    }
  }
  for (const SourceBlock& b : blocks) {
    if (b.header.empty()) continue;
    if (!seen.insert({b.kernel, b.text}).second) continue;  // ncu printed this block again
    auto it = std::find_if(counts->begin(), counts->end(), [&](const AtomicCounts& c) { return c.kernel == b.kernel; });
    if (it == counts->end()) {
      counts->push_back(AtomicCounts{});
      counts->back().kernel = b.kernel;
      it = counts->end() - 1;
    }
    ++it->blocks;
    it->sharedAtomics += b.shared;
    it->globalAtomics += b.global;
    it->sharedInstructions += b.sharedInstructions;
    it->globalInstructions += b.globalInstructions;
  }
  if (!counts->empty()) return true;
  *err = blocks.empty() ? "no ncu source page (\"Kernel Name\" blocks) in the output"
                        : "ncu's source page has no instruction header (\"Address\", \"Source\", ...)";
  return false;
}

bool parseNcuLaunches(const std::string& csv, std::vector<NcuLaunch>* launches, std::string* err) {
  launches->clear();
  if (commonError(csv, err)) return false;
  std::istringstream lines(csv);
  std::string line;
  std::vector<std::string> header, fields;
  int idCol = -1, kernelCol = -1, gridCol = -1;
  while (std::getline(lines, line)) {
    if (!splitNcuCsvLine(line, &fields)) continue;
    if (column(fields, "launch__grid_size") >= 0 && column(fields, "Kernel Name") >= 0) {
      header = fields;
      idCol = column(header, "ID");
      kernelCol = column(header, "Kernel Name");
      gridCol = column(header, "launch__grid_size");
      continue;
    }
    if (header.empty() || fields.size() != header.size()) continue;
    double grid = 0;
    if (!parseNcuNumber(fields[gridCol], &grid)) continue;  // the units row
    launches->push_back(
        {idCol >= 0 ? fields[idCol] : std::to_string(launches->size()), fields[kernelCol], static_cast<long>(grid)});
  }
  if (!launches->empty()) return true;
  *err = header.empty() ? "no \"launch__grid_size\" column in ncu's raw page" : "ncu's raw page lists no launches";
  return false;
}

}  // namespace clgrade
