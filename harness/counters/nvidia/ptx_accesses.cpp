#include "counters/nvidia/ptx_accesses.h"

#include <algorithm>
#include <map>
#include <regex>
#include <sstream>

#include "counters/nvidia/ncu_csv.h"
#include "counters/nvidia/ptx.h"

namespace clgrade {

const char* const kPtxAccessCounters = "__clgrade_accesses";
const char* const kPtxItsOwnCode = "in its own code: ";
const char* const kPtxCountersNote =
    "counted by clgrade's PTX counters in this process (each shared access and global load of the graded "
    "PTX, warp by warp as the GPU ran it; banks: 32 of 4 bytes; sectors: 32 bytes)";

namespace {

std::string accessCounter(int slot) {
  return "[" + std::string(kPtxAccessCounters) + "+" + std::to_string(8 * slot) + "]";
}

/// Bytes of one element of a load or store type; 0 for a type not known here.
int elementBytes(const std::string& type) {
  static const std::map<std::string, int> bytes{{"b8", 1},  {"u8", 1},  {"s8", 1},    {"b16", 2},    {"u16", 2},
                                                {"s16", 2}, {"f16", 2}, {"bf16", 2},  {"b32", 4},    {"u32", 4},
                                                {"s32", 4}, {"f32", 4}, {"f16x2", 4}, {"bf16x2", 4}, {"b64", 8},
                                                {"u64", 8}, {"s64", 8}, {"f64", 8},   {"b128", 16}};
  const auto it = bytes.find(type);
  return it == bytes.end() ? 0 : it->second;
}

/// Bytes one lane accesses by an instruction of these qualifiers (`v4`, `f32`: 16); 0 for a type
/// not known here.
int laneBytes(const std::vector<std::string>& qualifiers) {
  int vector = 1, element = 0;
  for (const std::string& part : qualifiers) {
    if (part == "v2" || part == "v4" || part == "v8") vector = std::stoi(part.substr(1));
    if (elementBytes(part)) element = elementBytes(part);
  }
  return vector * element;
}

/// An instruction's qualifiers (`.global.nc.f32`: global, nc, f32).
std::vector<std::string> qualifierList(const std::string& qualifiers) {
  std::vector<std::string> q;
  std::istringstream parts(qualifiers.empty() ? "" : qualifiers.substr(1));
  for (std::string part; std::getline(parts, part, '.');) q.push_back(part);
  return q;
}

/// A global load as a part of a split vector load sees it.
struct GlobalLoadParts {
  std::string guard, base, dest;  ///< `@%p1` or "", the address register, the registers written
  long long offset = 0;
  int bytes = 0;  ///< a lane
};

/// True with its parts when `line` is a global load at a register plus a constant offset.
bool globalLoadParts(const std::string& line, GlobalLoadParts* g) {
  static const std::regex form(
      R"(^\s*(@!?%[\w$]+\s+)?ld((?:\.[\w:]+)*)\s+(\{[^}]*\}|[^,\[{]+?)\s*,\s*\[\s*(%[\w$]+)\s*)"
      R"((?:\+\s*(-?\s*(?:0[xX][0-9a-fA-F]+|\d+)))?\s*\]\s*;\s*(//.*)?$)");
  std::smatch m;
  if (!std::regex_match(line, m, form)) return false;
  const std::vector<std::string> q = qualifierList(m[2]);
  if (std::find(q.begin(), q.end(), "global") == q.end()) return false;
  std::string offset = m[5].matched ? m[5].str() : "0";
  offset.erase(std::remove(offset.begin(), offset.end(), ' '), offset.end());
  g->guard = trimmedLine(m[1]);
  g->dest = m[3];
  g->base = m[4];
  g->offset = std::stoll(offset, nullptr, 0);
  g->bytes = laneBytes(q);
  return g->bytes > 0;
}

/// Whether the registers `dest` (`%f1` or `{%f1, %f2}`) include `reg`.
bool writesRegister(const std::string& dest, const std::string& reg) {
  static const std::regex name(R"(%[\w$]+)");
  for (std::sregex_iterator it(dest.begin(), dest.end(), name), end; it != end; ++it)
    if (it->str() == reg) return true;
  return false;
}

/// Where a later part of a split vector load is (PtxAccessSite::splitFrom, by its line's index).
struct SplitPart {
  int from = 0, span = 0, part = 0;
};

/// The split vector loads of `lines`: 2 or 4 consecutive global loads of one address register at
/// consecutive offsets (each as wide as the first), under one guard, spanning 8 or 16 bytes a lane,
/// as NVIDIA's compiler writes a vload4 it cannot prove aligned. Whether the lanes' vectors are
/// aligned is the GPU's to see (countingBlock); the text only says which loads could be one.
std::map<size_t, SplitPart> splitVectorLoads(const std::vector<std::string>& lines) {
  std::map<size_t, SplitPart> parts;
  for (size_t i = 0; i < lines.size();) {
    GlobalLoadParts first;
    if (!globalLoadParts(lines[i], &first)) {
      ++i;
      continue;
    }
    size_t k = 1;
    // A part that writes the address register ends the run after it: later loads use a new address.
    for (bool baseKept = !writesRegister(first.dest, first.base); baseKept && k < 4 && i + k < lines.size(); ++k) {
      GlobalLoadParts next;
      if (!globalLoadParts(lines[i + k], &next) || next.guard != first.guard || next.base != first.base ||
          next.bytes != first.bytes || next.offset != first.offset + static_cast<long long>(k) * first.bytes)
        break;
      baseKept = !writesRegister(next.dest, first.base);
    }
    if (k == 3) k = 2;  // a vector is 2 or 4 elements; the third starts again
    const int span = static_cast<int>(k) * first.bytes;
    if (k >= 2 && (span == 8 || span == 16))
      for (size_t j = 1; j < k; ++j) parts[i + j] = {static_cast<int>(i) + 1, span, static_cast<int>(j)};
    i += k;
  }
  return parts;
}

/// Opcodes that read or write shared or global memory in a way the counters do not follow (bulk
/// and asynchronous copies, matrix loads, images): refused, so that no access goes uncounted.
bool uncountedMemoryOpcode(const std::string& op) {
  static const char* const ops[] = {"cp",   "ldmatrix", "stmatrix", "tex",       "tld4",
                                    "txq",  "suld",     "sust",     "sured",     "suq",
                                    "wmma", "mbarrier", "multimem", "tensormap", "ldu"};
  return std::find(std::begin(ops), std::end(ops), op) != std::end(ops);
}

/// The register widths the module declares (`.reg .b64 %rd<39>;` -> "%rd": 64).
std::map<std::string, int> registerWidths(const std::string& ptx) {
  std::map<std::string, int> widths;
  static const std::regex decl(R"(\.reg\s+\.(\w+)\s+([^;]*);)");
  for (std::sregex_iterator it(ptx.begin(), ptx.end(), decl), end; it != end; ++it) {
    const std::string type = (*it)[1];
    const int bits = type == "b64" || type == "u64" || type == "s64"   ? 64
                     : type == "b32" || type == "u32" || type == "s32" ? 32
                                                                       : 0;
    std::istringstream names((*it)[2].str());
    // `%rd<39>` declares %rd0 to %rd38: kept as "%rd<>"; a name alone as itself.
    for (std::string name; std::getline(names, name, ',');) {
      const bool ranged = name.find('<') != std::string::npos;
      name = trimmedLine(name.substr(0, name.find('<')));
      if (!name.empty() && bits) widths[ranged ? name + "<>" : name] = bits;
    }
  }
  return widths;
}

/// The declared width of register `name` (registerWidths); 0 when it is not declared so.
int widthOf(const std::map<std::string, int>& widths, const std::string& name) {
  if (const auto exact = widths.find(name); exact != widths.end()) return exact->second;
  const size_t digits = name.find_last_not_of("0123456789");
  if (digits == std::string::npos || digits + 1 == name.size()) return 0;
  const auto ranged = widths.find(name.substr(0, digits + 1) + "<>");
  return ranged == widths.end() ? 0 : ranged->second;
}

/// The lines that put a lane's address into %clg_a (64 bits), from an operand such as `[%rd5+8]`,
/// `[%r3]` or `[tile+4]`; "" with a message when it is none of those.
std::string addressInto(const std::string& operand, const std::map<std::string, int>& widths, bool symbolAllowed,
                        std::string* err) {
  static const std::regex form(R"(^\[\s*(%?[\w$.]+)\s*(?:\+\s*(-?\s*(?:0[xX][0-9a-fA-F]+|\d+)))?\s*\]$)");
  std::smatch m;
  const std::string text = trimmedLine(operand);
  if (!std::regex_match(text, m, form)) {
    *err = "the address " + text + " is not a register or symbol with an offset";
    return "";
  }
  const std::string base = m[1];
  std::string offset = m[2].matched ? m[2].str() : "0";
  offset.erase(std::remove(offset.begin(), offset.end(), ' '), offset.end());
  std::ostringstream out;
  if (base[0] == '%') {
    const int width = widthOf(widths, base);
    if (!width) {
      *err = "the address register " + base + " is not declared as a 32- or 64-bit integer";
      return "";
    }
    if (width == 64)
      out << "\tadd.s64 \t%clg_a, " << base << ", " << offset << ";\n";
    else
      out << "\tcvt.u64.u32 \t%clg_a, " << base << ";\n\tadd.s64 \t%clg_a, %clg_a, " << offset << ";\n";
  } else {
    if (!symbolAllowed || std::isdigit(static_cast<unsigned char>(base[0]))) {
      *err = "the address " + text + " is not a register";
      return "";
    }
    out << "\tmov.u64 \t%clg_a, " << base << ";\n\tadd.s64 \t%clg_a, %clg_a, " << offset << ";\n";
  }
  return out.str();
}

/// Where any lane of the warp accesses (%clg_on), its first active lane adds one to `slot` and
/// %clg_c to `slot + 1`.
std::string firstLaneAdds(int slot) {
  return "\tvote.sync.any.pred \t%clg_q, %clg_on, %clg_m;\n"
         "\tsetp.eq.and.b32 \t%clg_first, %clg_first0, 1, %clg_q;\n"
         "\tcvt.u64.u32 \t%clg_v, %clg_c;\n"
         "\t@%clg_first red.global.add.u64 \t" +
         accessCounter(slot) + ", 1;\n\t@%clg_first red.global.add.u64 \t" + accessCounter(slot + 1) + ", %clg_v;\n";
}

/// A warp's shared access at %clg_sa (its lanes in %clg_on): one instruction and its bank conflicts
/// added to `slot` and `slot + 1` by the warp's first lane. Each lane covers `words` consecutive
/// words (naturally aligned, as PTX asks of vector and wide accesses), so word j of every lane lies
/// in a bank = j modulo `words`: the slices never share a word or a bank, and each is counted alone.
std::string sharedCount(int words, int slot) {
  std::ostringstream s;
  s << "\tshr.u64 \t%clg_s, %clg_sa, 2;\n"
    << "\tcvt.u32.u64 \t%clg_w, %clg_s;\n"
    << "\tand.b32 \t%clg_w, %clg_w, 0x7FFFFFFF;\n"
    << "\tmov.u32 \t%clg_words, 0;\n"
    << "\tmov.u32 \t%clg_cmax, 0;\n";
  for (int j = 0; j < words; ++j) {
    s << "\tadd.u32 \t%clg_t, %clg_w, " << j
      << ";\n"
      // The distinct words: the lowest lane of each group asking for the same word leads it.
      << "\tselp.b32 \t%clg_key, %clg_t, %clg_sent, %clg_on;\n"
      << "\tmatch.any.sync.b32 \t%clg_mm, %clg_key, %clg_m;\n"
      << "\tand.b32 \t%clg_c, %clg_mm, %clg_lt;\n"
      << "\tsetp.eq.and.b32 \t%clg_lead, %clg_c, 0, %clg_on;\n"
      << "\tvote.sync.ballot.b32 \t%clg_c, %clg_lead, %clg_m;\n"
      << "\tpopc.b32 \t%clg_c, %clg_c;\n"
      << "\tadd.u32 \t%clg_words, %clg_words, %clg_c;\n"
      // The distinct words of each bank: the leaders of one bank, counted together.
      << "\tand.b32 \t%clg_c, %clg_t, 31;\n"
      << "\tselp.b32 \t%clg_key, %clg_c, %clg_sent, %clg_lead;\n"
      << "\tmatch.any.sync.b32 \t%clg_mm, %clg_key, %clg_m;\n"
      << "\tpopc.b32 \t%clg_c, %clg_mm;\n"
      << "\tselp.b32 \t%clg_c, %clg_c, 0, %clg_lead;\n"
      << "\tmax.u32 \t%clg_cmax, %clg_cmax, %clg_c;\n";
  }
  // The warp's most words in one bank (the wavefronts), bit by bit with votes.
  s << "\tmov.u32 \t%clg_max, 0;\n";
  for (int bit = 32; bit >= 1; bit /= 2)
    s << "\tor.b32 \t%clg_t, %clg_max, " << bit << ";\n"
      << "\tsetp.ge.u32 \t%clg_q, %clg_cmax, %clg_t;\n"
      << "\tvote.sync.any.pred \t%clg_q, %clg_q, %clg_m;\n"
      << "\tselp.b32 \t%clg_max, %clg_t, %clg_max, %clg_q;\n";
  // Conflicts: wavefronts beyond ceil(words / 32), what the request needs anyway.
  s << "\tadd.u32 \t%clg_t, %clg_words, 31;\n"
    << "\tshr.u32 \t%clg_t, %clg_t, 5;\n"
    << "\tsub.u32 \t%clg_c, %clg_max, %clg_t;\n"
    << firstLaneAdds(slot);
  return s.str();
}

/// A warp's global load at %clg_a (its lanes in %clg_on): one request and its distinct 32-byte
/// sectors added to `slot` and `slot + 1` (an aligned access of up to 32 bytes is in one sector).
std::string globalCount(int slot) {
  std::ostringstream s;
  s << "\tshr.u64 \t%clg_s, %clg_a, 5;\n"
    << "\tselp.b64 \t%clg_k, %clg_s, %clg_sent64, %clg_on;\n"
    << "\tmatch.any.sync.b64 \t%clg_mm, %clg_k, %clg_m;\n"
    << "\tand.b32 \t%clg_c, %clg_mm, %clg_lt;\n"
    << "\tsetp.eq.and.b32 \t%clg_lead, %clg_c, 0, %clg_on;\n"
    << "\tvote.sync.ballot.b32 \t%clg_c, %clg_lead, %clg_m;\n"
    << "\tpopc.b32 \t%clg_c, %clg_c;\n"
    << firstLaneAdds(slot);
  return s.str();
}

/// The counting block before one instruction: its registers, the warp's active lanes, the guard.
std::string countingBlock(const PtxAccessSite& site, const std::string& guard, const std::string& address) {
  std::ostringstream s;
  s << "\t{ // clgrade: counts the next instruction\n"
    << "\t.reg .pred %clg_on0, %clg_on, %clg_q, %clg_lead, %clg_first;\n"
    << "\t.reg .b32 %clg_m, %clg_lt, %clg_lane, %clg_sent, %clg_w, %clg_key, %clg_mm, %clg_t, %clg_c, %clg_cmax, "
       "%clg_words, %clg_max, %clg_first0;\n"
    << "\t.reg .b64 %clg_a, %clg_sa, %clg_s, %clg_k, %clg_sent64, %clg_v;\n"
    << "\tactivemask.b32 \t%clg_m;\n"
    << "\tmov.u32 \t%clg_lt, %lanemask_lt;\n"
    << "\tmov.u32 \t%clg_lane, %laneid;\n"
    // A key no address gives, different in every lane: the lanes that do not access match none.
    << "\tor.b32 \t%clg_sent, %clg_lane, 0x80000000;\n"
    << "\tcvt.u64.u32 \t%clg_sent64, %clg_lane;\n"
    << "\tor.b64 \t%clg_sent64, %clg_sent64, 0xFFFFFFFF00000000;\n"
    // The warp's first active lane adds to the counters.
    << "\tand.b32 \t%clg_t, %clg_m, %clg_lt;\n"
    << "\tsetp.eq.b32 \t%clg_q, %clg_t, 0;\n"
    << "\tselp.b32 \t%clg_first0, 1, 0, %clg_q;\n";
  if (guard.empty())
    s << "\tsetp.ne.b32 \t%clg_on0, %clg_m, 0;\n";
  else if (guard[1] == '!')
    s << "\tnot.pred \t%clg_on0, " << guard.substr(2) << ";\n";
  else
    s << "\tmov.pred \t%clg_on0, " << guard.substr(1) << ";\n";
  s << address;
  if (site.splitSpan > 0) {
    // A later part of a split vector load: counted only where some lane's vector is not aligned to
    // its span; where all are, each lane's vector lies in one sector, the sector the first part
    // counted, and the warp's request is the first part's.
    s << "\tsub.s64 \t%clg_s, %clg_a, " << site.splitPart * site.bytes << ";\n"
      << "\tand.b64 \t%clg_s, %clg_s, " << site.splitSpan - 1 << ";\n"
      << "\tsetp.ne.and.u64 \t%clg_q, %clg_s, 0, %clg_on0;\n"
      << "\tvote.sync.any.pred \t%clg_q, %clg_q, %clg_m;\n"
      << "\tand.pred \t%clg_on0, %clg_on0, %clg_q;\n";
  }
  switch (site.kind) {
    case PtxAccessKind::SharedLoad:
    case PtxAccessKind::SharedStore:
      s << "\tmov.pred \t%clg_on, %clg_on0;\n\tmov.b64 \t%clg_sa, %clg_a;\n"
        << sharedCount((site.bytes + 3) / 4, site.slot);
      break;
    case PtxAccessKind::GlobalLoad:
      s << "\tmov.pred \t%clg_on, %clg_on0;\n" << globalCount(site.slot);
      break;
    case PtxAccessKind::GenericLoad:
    case PtxAccessKind::GenericStore:
      // isspacep says where a generic address lies, as the hardware's address windows do.
      s << "\tisspacep.shared \t%clg_q, %clg_a;\n"
        << "\tand.pred \t%clg_on, %clg_on0, %clg_q;\n"
        << "\tcvta.to.shared.u64 \t%clg_sa, %clg_a;\n"
        << sharedCount((site.bytes + 3) / 4, site.slot);
      if (site.kind == PtxAccessKind::GenericLoad)
        s << "\tisspacep.global \t%clg_q, %clg_a;\n"
          << "\tand.pred \t%clg_on, %clg_on0, %clg_q;\n"
          << globalCount(site.slot + 2);
      break;
  }
  s << "\t}\n";
  return s.str();
}

}  // namespace

namespace {

/// instrumentPtxAccesses on a target that has warp-wide match: what it refuses is the module's code.
bool instrumentCode(const std::string& ptx, std::string* out, std::vector<PtxAccessSite>* sites, int* slots,
                    std::string* err) {
  // Inline assembly is the student's own PTX: it may read the clocks (and so tell the counted copy,
  // slower, from the launches that are timed) or write a memory instruction over several lines.
  // ncu counts the code as it runs: it counts such a module. So does a module that already has a
  // symbol of the counters' name.
  static const std::regex clocks(R"(%clock|%globaltimer|begin inline asm)");
  if (std::smatch c; std::regex_search(ptx, c, clocks)) {
    *err = "the PTX has inline assembly or reads a clock (" + c[0].str() + ")";
    return false;
  }
  if (ptx.find(kPtxAccessCounters) != std::string::npos) {
    *err = std::string("the PTX already has a symbol named ") + kPtxAccessCounters;
    return false;
  }
  const std::map<std::string, int> widths = registerWidths(ptx);
  // An instruction line: an optional guard (@%p1, @!%p1), the opcode and its qualifiers, operands.
  static const std::regex instruction(R"(^\s*(@!?%[\w$]+\s+)?([a-z][\w]*)((?:\.[\w:]+)*)\s+([^;]*);\s*(//.*)?$)");
  // The function a line is in: a kernel (.entry) or a function it calls (.func, a helper the
  // compiler did not inline), named for the evidence only: what a launch counts is every site the
  // launch ran, its helpers' too (the counters start at zero for each counted launch).
  static const std::regex entry(
      R"(^\s*(?:\.visible\s+|\.weak\s+)?(?:\.entry|\.func)\s+(?:\([^)]*\)\s*)?([\w$]+))");
  // Any memory instruction anywhere on a line (inline assembly may put several on one).
  static const std::regex anyAccess(
      R"((^|[^\w%$.])(ld|st|ldu|cp|ldmatrix|stmatrix|tex|tld4|suld|sust|sured|wmma|mbarrier|multimem)\.)");
  static const std::regex addressOperand(R"(\[[^\]]*\])");
  std::vector<std::string> lines;
  {
    std::istringstream in(ptx);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
  }
  const std::map<size_t, SplitPart> split = splitVectorLoads(lines);
  std::ostringstream body;
  std::string current;
  int number = 0;
  for (size_t index = 0; index < lines.size(); body << lines[index] << "\n", ++index) {
    const std::string& line = lines[index];
    ++number;
    std::smatch m;
    if (std::regex_search(line, m, entry)) current = m[1];
    const std::string code = line.substr(0, line.find("//"));
    const bool accessHere = std::regex_search(code, anyAccess);
    const bool plain = std::regex_match(line, m, instruction);
    const std::string op = plain ? m[2].str() : "";
    const std::string where = "PTX line " + std::to_string(number) + ": ";
    // An atomic that returns the old value reads memory: a tap read with atomic_or(p, 0) is a read
    // of global memory (spec 5c), as the simulator counts it. A shared atomic writes a word as a store
    // does: a tile stored with atomic_xchg has the store's bank conflicts (and the histogram's shared
    // atomics, which no access rule reads, are counted by ptx_atomics.h). red returns nothing.
    const bool atomic = op == "atom";
    if (op != "ld" && op != "st" && !atomic) {
      if (accessHere && (!plain || uncountedMemoryOpcode(op))) {
        *err = where + "a memory instruction the counters do not follow: " + trimmedLine(line);
        return false;
      }
      continue;
    }
    const std::string guard = trimmedLine(m[1]), qualifiers = m[3], operands = m[4];
    const std::vector<std::string> q = qualifierList(qualifiers);
    auto has = [&](const std::string& name) { return std::find(q.begin(), q.end(), name) != q.end(); };
    // Private and parameter memory have no banks and no global sectors.
    if (has("local") || has("param")) continue;
    // A __constant load through a register reads memory as a global load does: the weights through
    // their parameter (one sector a warp, nothing beyond it), and so the image through a __constant
    // alias of d_Src, which NVIDIA reads as well (found by a gaming corpus: taps so read were free).
    // A load of a module's own constant by name is not.
    static const std::regex registerAddress(R"(\[\s*%)");
    const bool constant = has("const");
    if (constant && (op != "ld" || !std::regex_search(operands, registerAddress))) continue;
    const bool shared = has("shared") || has("shared::cta"), global = has("global") || constant;
    for (const std::string& part : q)
      if (part.find("::cluster") != std::string::npos || part == "async" || part.rfind("bulk", 0) == 0) {
        *err = where + "a memory instruction the counters do not follow: " + trimmedLine(line);
        return false;
      }
    const bool load = op == "ld" || (atomic && !shared);
    if (global && !load) continue;  // the rules read global loads only
    PtxAccessSite site;
    site.entry = current;
    site.line = number;
    site.text = trimmedLine(line.substr(0, line.find(';') + 1));
    site.bytes = laneBytes(q);
    site.kind = shared   ? (load ? PtxAccessKind::SharedLoad : PtxAccessKind::SharedStore)
                : global ? PtxAccessKind::GlobalLoad
                         : (load ? PtxAccessKind::GenericLoad : PtxAccessKind::GenericStore);
    if (site.bytes == 0 || site.bytes > 32 || (site.bytes > 4 && site.bytes % 4 != 0)) {
      *err = where + "an access of a size the counters do not follow: " + site.text;
      return false;
    }
    std::smatch a;
    if (!std::regex_search(operands, a, addressOperand)) {
      *err = where + "no address in " + site.text;
      return false;
    }
    std::string why;
    const bool generic = site.kind == PtxAccessKind::GenericLoad || site.kind == PtxAccessKind::GenericStore;
    const std::string address = addressInto(a[0], widths, !generic, &why);
    if (address.empty()) {
      *err = where + why + ": " + site.text;
      return false;
    }
    if (const auto part = split.find(index); part != split.end() && site.kind == PtxAccessKind::GlobalLoad) {
      site.splitFrom = part->second.from;
      site.splitSpan = part->second.span;
      site.splitPart = part->second.part;
    }
    site.slot = *slots;
    *slots += site.kind == PtxAccessKind::GenericLoad ? 4 : 2;
    body << countingBlock(site, guard, address);
    sites->push_back(site);
  }
  // The counters after .address_size (PTX wants module-scope variables after the module directives).
  std::string text = body.str();
  const std::string decl =
      ".global .align 8 .u64 " + std::string(kPtxAccessCounters) + "[" + std::to_string(std::max(1, *slots)) + "];\n";
  if (!declareAfterAddressSize(&text, decl, err)) return false;
  *out = text;
  return true;
}

}  // namespace

bool instrumentPtxAccesses(const std::string& ptx, std::string* out, std::vector<PtxAccessSite>* sites, int* slots,
                           std::string* err) {
  sites->clear();
  *slots = 0;
  // Warp-wide match needs sm_70 and PTX 6.0, activemask PTX 6.2: the machine's GPU, not the kernel.
  static const std::regex target(R"(\.target\s+sm_(\d+))"), version(R"(\.version\s+(\d+)\.(\d+))");
  std::smatch t, v;
  if (!std::regex_search(ptx, t, target) || std::stoi(t[1]) < 70 || !std::regex_search(ptx, v, version) ||
      std::stoi(v[1]) * 10 + std::stoi(v[2]) < 62) {
    *err = "the PTX's target is older than sm_70 with PTX 6.2 (no warp-wide match to count with)";
    return false;
  }
  if (instrumentCode(ptx, out, sites, slots, err)) return true;
  *err = kPtxItsOwnCode + *err;
  return false;
}

std::vector<double> accessMetricValues(const std::vector<PtxAccessSite>& sites,
                                       const std::vector<unsigned long long>& counts) {
  double loadConflicts = 0, storeConflicts = 0, loads = 0, stores = 0, sectors = 0, requests = 0;
  auto at = [&](int slot) { return slot < int(counts.size()) ? double(counts[slot]) : 0.0; };
  for (const PtxAccessSite& s : sites) {
    switch (s.kind) {
      case PtxAccessKind::SharedLoad:
        loads += at(s.slot), loadConflicts += at(s.slot + 1);
        break;
      case PtxAccessKind::SharedStore:
      case PtxAccessKind::GenericStore:
        stores += at(s.slot), storeConflicts += at(s.slot + 1);
        break;
      case PtxAccessKind::GlobalLoad:
        requests += at(s.slot), sectors += at(s.slot + 1);
        break;
      case PtxAccessKind::GenericLoad:
        loads += at(s.slot), loadConflicts += at(s.slot + 1);
        requests += at(s.slot + 2), sectors += at(s.slot + 3);
        break;
    }
  }
  // By name, in the order of hardwareCounterMetrics().
  const std::map<std::string, double> byMetric{
      {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", loadConflicts},
      {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", storeConflicts},
      {"smsp__sass_inst_executed_op_shared_ld.sum", loads},
      {"smsp__sass_inst_executed_op_shared_st.sum", stores},
      {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", sectors},
      {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", requests}};
  std::vector<double> values;
  for (const std::string& metric : hardwareCounterMetrics()) {
    const auto it = byMetric.find(metric);
    values.push_back(it == byMetric.end() ? 0.0 : it->second);
  }
  return values;
}

}  // namespace clgrade
