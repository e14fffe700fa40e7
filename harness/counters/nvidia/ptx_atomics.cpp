#include "counters/nvidia/ptx_atomics.h"

#include "counters/nvidia/ptx.h"

#include <algorithm>
#include <regex>
#include <sstream>

namespace clgrade {

const char* const kPtxAtomicCounters = "__clgrade_atomics";

namespace {

std::string trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

std::string counter(int slot) { return "[" + std::string(kPtxAtomicCounters) + "+" + std::to_string(8 * slot) + "]"; }

}  // namespace

bool instrumentPtxAtomics(const std::string& ptx, std::string* out, std::vector<PtxAtomicSite>* sites, int* slots,
                          std::string* err) {
  sites->clear();
  *slots = 0;
  // Each line is read as code: a block comment (NVIDIA's compiler writes none; a kernel's inline
  // assembly can) could hide an ".entry" line, after which the kernel's own atomics would be filed
  // under another kernel and left out of its record, or hold an "atomic" that never runs.
  if (const size_t at = ptx.find("/*"); at != std::string::npos) {
    *err = "PTX line " + std::to_string(1 + std::count(ptx.begin(), ptx.begin() + at, '\n')) +
           " opens a block comment (inline assembly): its atomics are not counted from the text";
    return false;
  }
  // An instruction line: an optional guard (@%p1, @!%p1), the opcode and its qualifiers, operands.
  static const std::regex instruction(R"(^\s*(@!?%[\w$]+\s+)?([a-z][\w]*)((?:\.[\w:]+)*)\s+([^;]*);\s*(//.*)?$)");
  static const std::regex entry(R"(^\s*(?:\.visible\s+)?\.entry\s+([\w$]+))");
  static const std::regex anyAtomic(R"((^|[^\w%$])(atom|red|reduce|ld_reduce)\.)");
  static const std::regex address(R"(\[\s*(%[\w$]+)\s*(?:[+-]\s*-?\w+\s*)?\])");
  std::istringstream in(ptx);
  std::ostringstream body;
  std::string line, current;
  int number = 0;
  for (; std::getline(in, line); body << line << "\n") {
    ++number;
    std::smatch m;
    if (std::regex_search(line, m, entry)) current = m[1];
    // A line that holds an atomic or reduction anywhere but is not one plain instruction of our pattern
    // (inline assembly in braces, two instructions on a line, multimem.red, cp.reduce) is not guessed
    // at: refused, so that no atomic goes uncounted.
    const std::string code = line.substr(0, line.find("//"));
    const bool atomicHere = std::regex_search(code, anyAtomic);
    const bool plain = std::regex_match(line, m, instruction);
    const std::string op = plain ? m[2].str() : "";
    if (op != "atom" && op != "red") {
      if (atomicHere) {
        *err = "PTX line " + std::to_string(number) + " holds an atomic written in a way not understood: " + trim(line);
        return false;
      }
      continue;
    }
    const std::string guard = trim(m[1]), qualifiers = m[3], operands = m[4];
    PtxAtomicSite site;
    site.entry = current;
    site.line = number;
    site.text = trim(line.substr(0, line.find(';') + 1));
    site.slot = *slots;
    const bool shared = qualifiers.find(".shared") != std::string::npos;
    const bool global = qualifiers.find(".global") != std::string::npos;
    site.space = shared ? PtxAtomicSpace::Shared : global ? PtxAtomicSpace::Global : PtxAtomicSpace::Generic;
    std::ostringstream add;
    if (site.space != PtxAtomicSpace::Generic) {
      add << "\t{ " << guard << (guard.empty() ? "" : " ") << "red.global.add.u64 \t" << counter(site.slot)
          << ", 1; }\n";
      *slots += 1;
    } else {
      std::smatch a;
      if (!std::regex_search(operands, a, address)) {
        *err = "PTX line " + std::to_string(number) + ": the address of a generic atomic is not a register: " +
               site.text;
        return false;
      }
      // isspacep.shared tells a local address from a global one, as the hardware's address space does.
      add << "\t{ .reg .pred %clg_s, %clg_g;\n\tisspacep.shared %clg_s, " << a[1].str() << ";\n"
          << "\tnot.pred %clg_g, %clg_s;\n";
      if (!guard.empty()) {
        const bool negated = guard[1] == '!';
        const std::string p = guard.substr(negated ? 2 : 1);
        add << "\tand.pred %clg_s, %clg_s, " << (negated ? "!" : "") << p << ";\n"
            << "\tand.pred %clg_g, %clg_g, " << (negated ? "!" : "") << p << ";\n";
      }
      add << "\t@%clg_s red.global.add.u64 \t" << counter(site.slot) << ", 1;\n"
          << "\t@%clg_g red.global.add.u64 \t" << counter(site.slot + 1) << ", 1; }\n";
      *slots += 2;
    }
    body << add.str();
    sites->push_back(site);
  }
  // The counters after .address_size (PTX wants module-scope variables after the module directives).
  std::string text = body.str();
  const int count = std::max(1, *slots);
  const std::string decl = ".global .align 8 .u64 " + std::string(kPtxAtomicCounters) + "[" + std::to_string(count) + "];\n";
  if (!declareAfterAddressSize(&text, decl, err)) return false;
  *out = text;
  return true;
}

}  // namespace clgrade
