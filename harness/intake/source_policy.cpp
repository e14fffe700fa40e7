#include "intake/source_policy.h"

#include <algorithm>

#include <cctype>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <set>
#include <string_view>
#include <utility>

#include "intake/compiler_identity.h"
#include "intake/missing_kernel_file.h"
#include "intake/pp_lexer.h"
#include "util/byte_size.h"
#include "util/files.h"
#include "util/markup.h"
#include "util/sha256.h"

namespace fs = std::filesystem;

namespace clgrade {
namespace {

using namespace pp;  // the lexer

/// A preprocessing directive that reads a file, found by scanning the source the way the C
/// preprocessor reads it: trigraphs, backslash-newline splices, comments and literals.
struct IncludeDirective {
  int firstLine = 0, lastLine = 0;  ///< physical lines, 1-based (a directive may span several)
  std::string spelling;             ///< "#include \"x.h\"", for messages
  std::string name;                 ///< the quoted file name
  std::string refusal;              ///< why it is refused before any file is looked at; empty if not
  bool probe = false;               ///< not an #include but another way to make the compiler look for a file
  bool explained = false;           ///< the refusal says what to do itself (no advice about #include)
};

/// Identifiers that make the compiler look for a file by name: C23 and clang's builtins, answered in
/// #if, so a kernel could learn which files the grading machine has.
const std::set<std::string>& fileProbes() {
  static const std::set<std::string> names{"__has_include", "__has_include_next", "__has_embed"};
  return names;
}

/// Why a pragma's text (what follows `#pragma`, or a _Pragma's string) may make the compiler open or
/// test a file: GCC's `dependency` (a missing file is an error, a newer one a warning), include
/// aliases, clang's modules, #embed's relatives, or any quoted path. Empty for the harmless ones
/// (`unroll`, `OPENCL EXTENSION ...`, `GCC system_header`).
std::string pragmaProbe(const std::string& text) {
  std::vector<Token> tokens;
  tokenize(text, 0, &tokens);
  for (const Token& t : tokens) {
    if (t.kind == Token::Identifier && (t.text == "dependency" || t.text.find("include") != std::string::npos ||
                                        t.text == "import" || t.text == "embed" || t.text == "module"))
      return "a pragma naming '" + t.text + "' may make the compiler look for a file";
    if (t.kind == Token::Literal && t.text.find_first_of("/\\") != std::string::npos)
      return "a pragma naming a path may make the compiler look for a file";
  }
  return "";
}

/// The text a _Pragma string literal stands for (C11 6.10.9: \" and \\ undone).
std::string destringize(const std::string& literal) {
  std::string text;
  for (size_t i = 1; i + 1 < literal.size(); ++i) {
    if (literal[i] == '\\' && (literal[i + 1] == '"' || literal[i + 1] == '\\')) ++i;
    text += literal[i];
  }
  return text;
}

/// True when `name` is the concatenation of two or more of `pieces`: what `##` could paste together
/// from the identifiers of a source (every pasted token comes from tokens of the source itself).
bool pasteable(const std::string& name, const std::set<std::string>& pieces) {
  // reach[i]: the fewest pieces that spell name[0, i), capped at 2.
  std::vector<int> reach(name.size() + 1, 0);
  reach[0] = -1;  // the empty prefix: zero pieces
  for (size_t i = 0; i < name.size(); ++i) {
    if (reach[i] == 0) continue;
    const int used = reach[i] < 0 ? 0 : reach[i];
    for (size_t j = i + 1; j <= name.size(); ++j)
      if (pieces.count(name.substr(i, j - i))) reach[j] = std::max(reach[j], std::min(used + 1, 2));
  }
  return reach[name.size()] == 2;
}

/// Phase 4's directives that read a file, and every other way the source could make the compiler
/// look for one (a probe is refused like an #include of a file outside the kernels folder), in
/// line order.
std::vector<IncludeDirective> scanIncludes(const std::string& text) {
  const std::vector<LogicalLine> lines = logicalLines(text);
  std::vector<IncludeDirective> found;
  std::vector<Token> tokens;  // the whole source, a directive's tokens ended by EndOfDirective
  auto refuse = [&](size_t lineIndex, const std::string& reason) {
    const LogicalLine& l = lines[lineIndex];
    IncludeDirective d;
    d.firstLine = l.firstLine;
    d.lastLine = l.lastLine;
    d.spelling = terminalText(l.text);
    while (!d.spelling.empty() && isSpace(d.spelling.front())) d.spelling.erase(d.spelling.begin());
    while (!d.spelling.empty() && isSpace(d.spelling.back())) d.spelling.pop_back();
    if (d.spelling.size() > 120) d.spelling = d.spelling.substr(0, 117) + "...";
    d.refusal = reason;
    d.probe = true;
    found.push_back(d);
  };
  for (size_t index = 0; index < lines.size(); ++index) {
    const std::string& logical = lines[index].text;
    tokenize(logical, index, &tokens);
    size_t p = 0;
    while (p < logical.size() && isSpace(logical[p])) ++p;
    bool hash = false;
    if (p < logical.size() && logical[p] == '#') {
      hash = true;
      ++p;
    } else if (p + 1 < logical.size() && logical[p] == '%' && logical[p + 1] == ':') {
      hash = true;  // the digraph of '#'
      p += 2;
    }
    if (!hash) continue;
    tokens.push_back({Token::EndOfDirective, "", index});
    while (p < logical.size() && isSpace(logical[p])) ++p;
    size_t q = p;
    while (q < logical.size() && isIdent(logical[q])) ++q;
    const std::string name = logical.substr(p, q - p);
    if (name == "pragma") {
      const std::string reason = pragmaProbe(logical.substr(q));
      if (!reason.empty()) refuse(index, reason);
    } else if (name == "embed") {
      refuse(index, "#embed reads a file; it is not OpenCL C");
    }
    if (name == "include" || name == "include_next" || name == "import") {
      IncludeDirective d;
      d.firstLine = lines[index].firstLine;
      d.lastLine = lines[index].lastLine;
      std::string rest = logical.substr(q);
      while (!rest.empty() && isSpace(rest.front())) rest.erase(rest.begin());
      while (!rest.empty() && isSpace(rest.back())) rest.pop_back();
      d.spelling = terminalText("#" + name + (rest.empty() ? "" : " " + rest));
      if (d.spelling.size() > 120) d.spelling = d.spelling.substr(0, 117) + "...";
      if (name != "include") {
        d.refusal = "#" + name + " is not OpenCL C; use #include \"file\"";
      } else if (rest.empty()) {
        d.refusal = "it names no file";
      } else if (rest.front() == '<') {
        d.refusal = "system headers (#include <...>) are not available to kernels";
      } else if (rest.front() != '"') {
        d.refusal = "a computed #include (a macro instead of a quoted file name) is not allowed";
      } else {
        const size_t close = rest.find('"', 1);
        if (close == std::string::npos) {
          d.refusal = "the file name has no closing quote";
        } else {
          d.name = rest.substr(1, close - 1);
          std::string after = rest.substr(close + 1);
          while (!after.empty() && isSpace(after.front())) after.erase(after.begin());
          if (!after.empty()) d.refusal = "unexpected text after the file name";
        }
      }
      found.push_back(d);
    }
  }
  // Identifiers anywhere: `#define H __has_include` probes as well as `#if __has_include(...)`.
  std::set<std::string> identifiers;
  std::vector<size_t> builtPragmas;  // the lines of _Pragma operands that are not a plain string
  size_t firstPaste = tokens.size();
  for (size_t i = 0; i < tokens.size(); ++i) {
    const Token& t = tokens[i];
    if (t.kind == Token::Punctuator && t.text == "##" && firstPaste == tokens.size()) firstPaste = i;
    if (t.kind != Token::Identifier) continue;
    identifiers.insert(t.text);
    if (fileProbes().count(t.text)) {
      refuse(t.line,
             t.text + " asks the compiler whether a file exists, and the file may be outside the kernels folder");
    } else if (t.text == "_Pragma") {
      const bool plain = i + 3 < tokens.size() && tokens[i + 1].text == "(" && tokens[i + 2].kind == Token::Literal &&
                         tokens[i + 2].text.front() == '"' && tokens[i + 3].text == ")";
      if (!plain)
        builtPragmas.push_back(t.line);
      else if (const std::string reason = pragmaProbe(destringize(tokens[i + 2].text)); !reason.empty())
        refuse(t.line, reason);
    }
  }
  // A _Pragma whose operand macros build (`#define PRAGMA(x) _Pragma(#x)`, for `PRAGMA(unroll 4)`)
  // spells only tokens of the source: judged by them, as a pragma is by its own. Found by an honest
  // corpus: refused whatever it built. With ## its words could be pasted, so it still is.
  for (const size_t line : builtPragmas) {
    std::string reason;
    for (const std::string& name : identifiers)
      if (reason.empty()) reason = pragmaProbe(name);
    if (reason.empty() && firstPaste < tokens.size())
      reason = "a _Pragma whose operand macros build, in a source that pastes tokens (##), could spell any pragma";
    if (!reason.empty()) refuse(line, reason + " (its operand is built by macros from the tokens of this source)");
  }
  // `##` can build a probe from pieces that are harmless alone (__has_ ## include).
  if (firstPaste < tokens.size()) {
    for (const std::string& name : {std::string("__has_include"), std::string("__has_include_next"),
                                    std::string("__has_embed"), std::string("_Pragma")})
      if (pasteable(name, identifiers)) {
        refuse(tokens[firstPaste].line, "token pasting (##) could build " + name + " from identifiers of this source");
        break;
      }
    // ... or a header macro one implementation defines and another does not (spec 5c).
    for (const std::string& name : differingHeaderMacros())
      if (pasteable(name, identifiers)) {
        refuse(tokens[firstPaste].line, "token pasting (##) could build " + name +
                                            ", which OpenCL implementations define differently, from identifiers of "
                                            "this source (spec 5c)");
        found.back().explained = true;
        break;
      }
  }
  // `##` can build a compiler's predefined macro that the prelude does not hide (spec 5c): the start
  // of a reserved __x name or a vendor's extension macro, or a known _X name, from pieces of the source.
  if (firstPaste < tokens.size()) {
    // Any identifier of the file may be a piece (an argument's last token, a macro named by another,
    // an object-like macro's body): only include guards are left out, which no ## can reach.
    const std::set<std::string> guards = includeGuardNames(text);
    std::set<std::string> pieces;
    for (const std::string& name : identifiers)
      if (!guards.count(name)) pieces.insert(name);
    if (const std::vector<std::string> route = pastedMacroStart(pieces); !route.empty()) {
      std::string spelled;
      for (const std::string& piece : route) spelled += (spelled.empty() ? "" : " ## ") + terminalText(piece);
      refuse(tokens[firstPaste].line,
             "token pasting (##) in this source could paste " + spelled +
                 " into a compiler's predefined macro, which clgrade hides from every build so that the simulator "
                 "and the graded device compile the same code (spec 5c); rename those identifiers (an include "
                 "guard may keep its name)");
      found.back().explained = true;
    }
  }
  std::stable_sort(found.begin(), found.end(),
                   [](const IncludeDirective& a, const IncludeDirective& b) { return a.firstLine < b.firstLine; });
  return found;
}

std::string quoted(const std::string& name) {
  std::string s = "\"";
  for (char c : name) {
    if (c == '"' || c == '\\') s += '\\';
    s += c;
  }
  return s + "\"";
}

/// The source as refused when it holds NUL bytes.
std::string nulProblem(const std::string& bytes, const std::string& display) {
  return bytes.find('\0') == std::string::npos ? "" : display + " contains NUL bytes; it is not OpenCL C source";
}

struct Expander {
  fs::path root;  ///< the kernels folder, canonical
  size_t limit = kMaxSourceBytes;
  std::vector<fs::path> stack;     ///< canonical paths of the files being expanded
  std::vector<std::string> names;  ///< their names relative to the root, for messages
  std::vector<std::string>* included = nullptr;
  std::vector<std::string>* includedSha256 = nullptr;

  std::string relative(const fs::path& canonical) const { return canonical.lexically_relative(root).generic_string(); }

  /// Appends `text` (the file `self`, shown as `display`, included from `where`: "a.h line 3, from
  /// Convolution3x3.cl line 1") with its includes expanded; a message when refused.
  std::string expand(const std::string& withBom, const fs::path& self, const std::string& display,
                     const std::string& where, std::string* out) {
    // A UTF-8 byte order mark (editors on Windows write one) is not OpenCL C: once a #line directive
    // or another file comes before it the compiler refuses it, and a correct kernel scored 0. Each
    // file's mark is left out of what the compiler gets (the file's SHA-256 is of its bytes as sent).
    const std::string text = withBom.rfind("\xEF\xBB\xBF", 0) == 0 ? withBom.substr(3) : withBom;
    const std::vector<IncludeDirective> directives = scanIncludes(text);
    if (directives.empty()) {
      *out += text;
      return out->size() > limit ? tooLarge() : "";
    }
    size_t pos = 0;
    int line = 1;  // the physical line at `pos`
    // Moves past the physical lines before stopLine, copying them or not.
    auto advance = [&](int stopLine, bool copy) {
      size_t end = pos;
      while (line < stopLine && end < text.size()) {
        const size_t nl = text.find('\n', end);
        end = nl == std::string::npos ? text.size() : nl + 1;
        ++line;
      }
      if (copy) out->append(text, pos, end - pos);
      pos = end;
    };
    for (const IncludeDirective& d : directives) {
      // Names and spellings in messages are the student's bytes: shown, never passed to a terminal raw.
      const std::string here = terminalText(display) + " line " + std::to_string(d.firstLine);
      const std::string at = here + (where.empty() ? "" : " (included from " + where + ")") + ": " + d.spelling;
      std::string problem;
      fs::path target;
      if (!d.refusal.empty())
        return at + " is refused: " + d.refusal + (d.explained ? "" : d.probe ? probeAdvice() : advice());
      if ((problem = resolve(d.name, self, &target)).size()) return at + " is refused: " + problem + advice();
      if (stack.size() > size_t(kMaxIncludeDepth))
        return at + " is refused: includes nest deeper than " + std::to_string(kMaxIncludeDepth) + " levels";
      for (size_t i = 0; i < stack.size(); ++i)
        if (stack[i] == target) {
          std::string cycle;
          for (size_t j = i; j < names.size(); ++j) cycle += names[j] + " -> ";
          return at + " is refused: an include cycle (" + terminalText(cycle + relative(target)) + ")";
        }
      std::error_code ec;
      const uintmax_t size = fs::file_size(target, ec);
      if (ec || size > limit)
        return at + " is refused: the file is " + (ec ? "unreadable" : mib(size)) + "; sources over " + mib(limit) +
               " are refused";
      std::string bytes, err;
      if (!readFile(target.string(), &bytes, &err, limit))
        return at + ": " + terminalText(relative(target)) + " cannot be read";  // err names the grader's path
      if (!(problem = nulProblem(bytes, terminalText(relative(target)))).empty()) return at + " is refused: " + problem;
      advance(d.firstLine, true);
      const std::string name = relative(target);
      // A header included twice is listed once.
      if (included && std::find(included->begin(), included->end(), name) == included->end()) {
        included->push_back(name);
        if (includedSha256) includedSha256->push_back(sha256Hex(bytes));
      }
      *out += "#line 1 " + quoted(name) + "\n";
      stack.push_back(target);
      names.push_back(name);
      problem = expand(bytes, target, name, here + (where.empty() ? "" : ", from " + where), out);
      stack.pop_back();
      names.pop_back();
      if (!problem.empty()) return problem;
      if (!out->empty() && out->back() != '\n') *out += '\n';
      advance(d.lastLine + 1, false);  // the directive's own lines are replaced by the file
      *out += "#line " + std::to_string(d.lastLine + 1) + " " + quoted(display) + "\n";
      if (out->size() > limit) return tooLarge();
    }
    out->append(text, pos, std::string::npos);
    return out->size() > limit ? tooLarge() : "";
  }

  std::string tooLarge() const {
    return "the source is larger than " + mib(limit) + " once its #include files are expanded; sources over " +
           mib(limit) + " are refused";
  }

  static std::string advice() {
    return " (#include may only name a file of your own kernels folder by a relative path, e.g. "
           "#include \"common.h\")";
  }

  static std::string probeAdvice() {
    return " (clgrade expands your #include files itself; the compiler may not look for files, so "
           "__has_include, #pragma GCC dependency and the like are refused)";
  }

  /// The canonical file an include names, relative to the including file's folder; a reason when refused.
  std::string resolve(const std::string& name, const fs::path& self, fs::path* target) const {
    const fs::path rel(name);
    if (name.empty()) return "it names no file";
    if (rel.is_absolute()) return "an absolute path";
    for (const fs::path& part : rel)
      if (part == "..") return "\"..\" leaves the kernels folder";
    const fs::path candidate = self.parent_path() / rel;
    std::error_code ec;
    const fs::file_status link = fs::symlink_status(candidate, ec);
    if (!fs::exists(link)) return "there is no such file in the kernels folder";
    const fs::path canonical = fs::canonical(candidate, ec);
    if (ec) return "it is a symbolic link to a file that does not exist";
    if (!pathWithin(canonical, root)) return "it is a symbolic link to a file outside the kernels folder";
    if (!fs::is_regular_file(canonical, ec)) return "it is not a regular file";
    *target = canonical;
    return "";
  }
};

}  // namespace

KernelSource loadKernelSource(const std::string& kernelsDir, const std::string& file, size_t limitBytes) {
  KernelSource s;
  std::error_code ec;
  const fs::path root = fs::canonical(kernelsDir, ec);
  if (ec || !fs::is_directory(root, ec)) {
    s.problem = file + " is missing: the kernels folder " + terminalText(kernelsDir) + " does not exist";
    return s;
  }
  const fs::path path = root / file;
  const fs::file_status link = fs::symlink_status(path, ec);
  if (!fs::exists(link)) {
    s.problem = file + " is missing from the kernels folder";
    if (const std::string hint = missingKernelFileHint(root, file); !hint.empty()) s.problem += ": " + hint;
    return s;
  }
  s.exists = true;
  fs::path target = path;
  if (fs::is_symlink(link)) {
    target = fs::canonical(path, ec);
    if (ec) {
      s.problem = file + " is a symbolic link to a file that does not exist (" +
                  terminalText(fs::read_symlink(path, ec).string()) + "); submit the file itself";
      return s;
    }
    if (!pathWithin(target, root)) {
      s.problem = file + " is a symbolic link to " + terminalText(fs::read_symlink(path, ec).string()) +
                  ", outside the kernels folder; submit the file itself";
      return s;
    }
  }
  const fs::file_status status = fs::status(target, ec);
  if (fs::is_directory(status)) {
    s.problem = file + " is a folder, not a kernel source file";
    return s;
  }
  if (!fs::is_regular_file(status)) {
    s.problem = file + " is not a regular file (a device, a pipe or a socket); submit the source file itself";
    return s;
  }
  const uintmax_t size = fs::file_size(target, ec);
  if (ec) {
    s.problem = file + " cannot be read: " + ec.message();
    return s;
  }
  if (size > limitBytes) {
    s.problem = file + " is " + mib(size) + "; kernel sources over " + mib(limitBytes) +
                " are refused (the limit protects the compiler and the report)";
    return s;
  }
  std::string err;
  if (!readFile(target.string(), &s.fileBytes, &err, limitBytes)) {
    s.problem = file + " cannot be read";  // err names the grader's path, which students do not see
    return s;
  }
  s.present = true;
  if (!(s.problem = nulProblem(s.fileBytes, file)).empty()) return s;
  Expander expander;
  expander.root = root;
  expander.limit = limitBytes;
  expander.included = &s.included;
  expander.includedSha256 = &s.includedSha256;
  expander.stack.push_back(target);
  expander.names.push_back(file);
  s.problem = expander.expand(s.fileBytes, target, file, "", &s.text);
  // A paste's pieces may stand in one file and its ## in another (found by a review: a header's
  // CAT(a, b) a##b fed __AVX512 and BW__ from the kernel file): the paste rules judge the whole
  // source once more, with its includes.
  if (s.problem.empty() && !s.included.empty())
    for (const IncludeDirective& d : scanIncludes(s.text))
      if (d.probe) {
        s.problem = file + " with the files it includes (line " + std::to_string(d.firstLine) +
                    " of them together): " + d.spelling + " is refused: " + d.refusal;
        break;
      }
  if (!s.problem.empty()) s.text.clear();
  return s;
}

std::string refuseSource(const std::string& source) {
  for (const IncludeDirective& d : scanIncludes(source))
    return "line " + std::to_string(d.firstLine) + ": " + d.spelling +
           " is refused: " + (d.probe ? d.refusal : "this source has no kernels folder to include from");
  if (source.find('\0') != std::string::npos) return "the file contains NUL bytes; it is not OpenCL C source";
  return "";
}

}  // namespace clgrade
