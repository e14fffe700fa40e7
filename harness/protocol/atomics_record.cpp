#include "protocol/atomics_record.h"

#include <sstream>
#include <stdexcept>
#include <string>

namespace clgrade {

namespace {

const char* const kHeader = "clgrade atomics record 2";
const char* const kFirstHeader = "clgrade atomics record 1";  // no added values: read, not written

std::string oneLine(std::string s) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  return s;
}

}  // namespace

std::string atomicsRecordText(const AtomicsRecord& r) {
  std::ostringstream out;
  out << kHeader << "\n"
      << "# each atomic instruction of the kernel's module (PTX line), and how many work-items executed it in the\n"
      << "# counted launch, by where its address was: local (shared) memory or global memory, and what its\n"
      << "# local executions added (? where not read)\n"
      << "kernel " << oneLine(r.kernel) << "\n"
      << "work_groups " << r.workGroups << "\n";
  if (!r.error.empty()) out << "error " << oneLine(r.error) << "\n";
  for (const AtomicsRecordSite& s : r.sites)
    out << "site " << s.line << " " << s.space << " " << s.shared << " " << s.global << " "
        << (s.addedKnown ? std::to_string(s.added) : "?") << " " << oneLine(s.instruction) << "\n";
  return out.str();
}

bool readAtomicsRecord(const std::string& text, AtomicsRecord* r, std::string* err) {
  *r = AtomicsRecord{};
  std::istringstream in(text);
  std::string line;
  if (!std::getline(in, line) || (line != kHeader && line != kFirstHeader)) {
    *err = "not an atomics record";
    return false;
  }
  const bool withAdded = line == kHeader;
  bool kernel = false, groups = false;
  for (int number = 2; std::getline(in, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string key;
    fields >> key;
    const auto bad = [&] {
      *err = "line " + std::to_string(number) + " of the atomics record does not read";
      return false;
    };
    if (key == "kernel") {
      if (!(fields >> r->kernel)) return bad();
      kernel = true;
    } else if (key == "work_groups") {
      if (!(fields >> r->workGroups) || r->workGroups < 0) return bad();
      groups = true;
    } else if (key == "error") {
      std::getline(fields >> std::ws, r->error);
      if (r->error.empty()) r->error = "(no message)";
    } else if (key == "site") {
      AtomicsRecordSite s;
      if (!(fields >> s.line >> s.space >> s.shared >> s.global) ||
          (s.space != "shared" && s.space != "global" && s.space != "generic") ||
          (s.space == "shared" && s.global) || (s.space == "global" && s.shared))
        return bad();
      if (withAdded) {
        std::string added;
        if (!(fields >> added)) return bad();
        if (added != "?") {
          size_t used = 0;
          try {
            s.added = std::stoll(added, &used);
          } catch (const std::exception&) {
            return bad();
          }
          if (used != added.size() || s.added < 0) return bad();  // what is added is held at 0 or more
          s.addedKnown = true;
        }
      }
      std::getline(fields >> std::ws, s.instruction);
      r->sites.push_back(s);
    } else {
      return bad();
    }
  }
  if (!kernel || !groups) {
    *err = "the atomics record names no kernel or no work-groups";
    return false;
  }
  return true;
}

}  // namespace clgrade
