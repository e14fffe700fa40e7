#include "counters/nvidia/ptx_atomics.h"

#include "counters/nvidia/ptx.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <regex>
#include <sstream>

namespace clgrade {

const char* const kPtxAtomicCounters = "__clgrade_atomics";

namespace {

std::string atomicCounter(int slot) {
  return "[" + std::string(kPtxAtomicCounters) + "+" + std::to_string(8 * slot) + "]";
}

/// Where the added values' slots go until they are numbered (after every site's counting slots).
std::string addedPlaceholder(size_t site) { return "@@clgrade_added_" + std::to_string(site) + "@@"; }

/// The lines that sum, where `predicate` holds, what an integer add adds (its last operand, a register
/// or a literal, widened to 64 bits with its sign: a 32-bit word's add of 0xffffffff takes one away)
/// into the site's added slot, each add held between 0 and kMostAddedAtOnce: with no count of what
/// each work-item read here (the simulator has one), one add of 1 << 30 must not count an image; ""
/// when it is not an integer add or its value is neither (`known` false then for an add).
std::string addedLines(const std::string& qualifiers, const std::string& operands, const std::string& predicate,
                       size_t site, bool* known) {
  *known = true;
  if (qualifiers.find(".add") == std::string::npos) return "";
  const size_t dot = qualifiers.rfind('.');
  const std::string type = dot == std::string::npos ? "" : qualifiers.substr(dot);
  const bool wide = type == ".u64" || type == ".s64", narrow = type == ".u32" || type == ".s32";
  if (!wide && !narrow) return "";  // a float add counts no pixels
  const std::string value = trimmedLine(operands.substr(operands.rfind(',') + 1));
  static const std::regex reg(R"(%[\w$]+)"), literal(R"(-?(0[xX][0-9a-fA-F]+|\d+)[uU]?)");
  std::string widen;
  if (std::regex_match(value, reg)) {
    widen = (wide ? "mov.b64 \t%clg_v, " : "cvt.s64.s32 \t%clg_v, ") + value;
  } else if (std::regex_match(value, literal)) {
    // A literal is widened here (cvt takes registers): a 32-bit one with its sign, as the add does.
    long long v = std::strtoll(value.c_str(), nullptr, 0);
    if (!wide) v = static_cast<int32_t>(static_cast<uint32_t>(std::strtoull(value.c_str(), nullptr, 0)));
    widen = "mov.b64 \t%clg_v, " + std::to_string(v);
  }
  if (widen.empty()) {
    *known = false;
    return "";
  }
  return "\t{ .reg .b64 %clg_v;\n\t" + widen + ";\n\tmax.s64 \t%clg_v, %clg_v, 0;\n\tmin.s64 \t%clg_v, %clg_v, " +
         std::to_string(kMostAddedAtOnce) + ";\n\t" + predicate + "red.global.add.u64 \t[" +
         std::string(kPtxAtomicCounters) + "+" + addedPlaceholder(site) + "], %clg_v; }\n";
}

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
        *err = "PTX line " + std::to_string(number) +
               " holds an atomic written in a way not understood: " + trimmedLine(line);
        return false;
      }
      continue;
    }
    const std::string guard = trimmedLine(m[1]), qualifiers = m[3], operands = m[4];
    PtxAtomicSite site;
    site.entry = current;
    site.line = number;
    site.text = trimmedLine(line.substr(0, line.find(';') + 1));
    site.slot = *slots;
    const bool shared = qualifiers.find(".shared") != std::string::npos;
    const bool global = qualifiers.find(".global") != std::string::npos;
    site.space = shared ? PtxAtomicSpace::Shared : global ? PtxAtomicSpace::Global : PtxAtomicSpace::Generic;
    std::ostringstream add;
    std::string added;
    if (site.space != PtxAtomicSpace::Generic) {
      add << "\t{ " << guard << (guard.empty() ? "" : " ") << "red.global.add.u64 \t" << atomicCounter(site.slot)
          << ", 1; }\n";
      *slots += 1;
      if (site.space == PtxAtomicSpace::Shared)
        added = addedLines(qualifiers, operands, guard.empty() ? "" : guard + " ", sites->size(), &site.addedKnown);
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
      add << "\t@%clg_s red.global.add.u64 \t" << atomicCounter(site.slot) << ", 1;\n";
      added = addedLines(qualifiers, operands, "@%clg_s ", sites->size(), &site.addedKnown);
      if (!added.empty()) add << added;  // inside the block: %clg_s is its own
      added.clear();
      add << "\t@%clg_g red.global.add.u64 \t" << atomicCounter(site.slot + 1) << ", 1; }\n";
      *slots += 2;
    }
    add << added;
    if (add.str().find(addedPlaceholder(sites->size())) != std::string::npos) site.addedSlot = 0;  // numbered below
    body << add.str();
    sites->push_back(site);
  }
  // The added values' slots after every counting slot, so that those keep their places.
  std::string numbered = body.str();
  for (size_t i = 0; i < sites->size(); ++i) {
    PtxAtomicSite& site = (*sites)[i];
    if (site.addedSlot < 0) continue;
    site.addedSlot = (*slots)++;
    const std::string from = addedPlaceholder(i), to = std::to_string(8 * site.addedSlot);
    for (size_t at = numbered.find(from); at != std::string::npos; at = numbered.find(from, at + to.size()))
      numbered.replace(at, from.size(), to);
  }
  body.str(numbered);
  body.seekp(0, std::ios_base::end);
  // The counters after .address_size (PTX wants module-scope variables after the module directives).
  std::string text = body.str();
  const int count = std::max(1, *slots);
  const std::string decl = ".global .align 8 .u64 " + std::string(kPtxAtomicCounters) + "[" + std::to_string(count) + "];\n";
  if (!declareAfterAddressSize(&text, decl, err)) return false;
  *out = text;
  return true;
}

}  // namespace clgrade
