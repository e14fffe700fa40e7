#include "similarity/sim_c.h"

#include <stdlib.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "sandbox/sandbox.h"
#include "util/files.h"
#include "util/search_path.h"
#include "util/subprocess.h"

namespace clgrade {
namespace {

namespace fs = std::filesystem;

/// A private folder (0700, mkdtemp) removed with its files when this goes.
class TempFolder {
 public:
  TempFolder() {
    std::error_code ec;
    fs::path base = fs::temp_directory_path(ec);
    if (ec) base = "/tmp";
    std::string pattern = (base / "clgrade-similarity-XXXXXX").string();
    if (mkdtemp(pattern.data())) path_ = pattern;
  }
  ~TempFolder() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

/// A whole non-negative number of at most 9 digits.
bool parseCount(const std::string& s, int* out) {
  if (s.empty() || s.size() > 9) return false;
  int v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *out = v;
  return true;
}

}  // namespace

std::vector<DirectedPercent> parseSimCPercentages(const std::string& output, const std::vector<std::string>& names) {
  std::map<std::string, size_t> index;
  for (size_t i = 0; i < names.size(); ++i) index.emplace(names[i], i);
  std::map<std::pair<size_t, size_t>, int> best;
  static const std::string kConsists = " consists for ", kOf = " % of ", kMaterial = " material";
  size_t start = 0;
  while (start < output.size()) {
    size_t end = output.find('\n', start);
    if (end == std::string::npos) end = output.size();
    std::string line = output.substr(start, end - start);
    start = end + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const size_t consists = line.find(kConsists);
    if (consists == std::string::npos) continue;
    const size_t of = line.find(kOf, consists + kConsists.size());
    if (of == std::string::npos || line.size() < kMaterial.size() ||
        line.compare(line.size() - kMaterial.size(), kMaterial.size(), kMaterial) != 0)
      continue;
    const std::string from = line.substr(0, consists);
    const std::string to = line.substr(of + kOf.size(), line.size() - kMaterial.size() - of - kOf.size());
    int percent = 0;
    if (!parseCount(line.substr(consists + kConsists.size(), of - consists - kConsists.size()), &percent)) continue;
    const auto a = index.find(from), b = index.find(to);
    if (a == index.end() || b == index.end() || a->second == b->second) continue;
    int& kept = best[{a->second, b->second}];
    kept = std::max(kept, std::min(percent, 100));
  }
  std::vector<DirectedPercent> out;
  for (const auto& [pair, percent] : best) out.push_back({pair.first, pair.second, percent});
  return out;
}

std::string findSimC() { return findOnPath("sim_c"); }

SimCResult runSimC(const std::vector<std::string>& texts, const SimCOptions& options) {
  SimCResult r;
  if (texts.size() < 2) {
    r.ok = true;
    return r;
  }
  const std::string program = options.program.empty() ? findSimC() : options.program;
  std::error_code ec;
  if (program.empty() || !fs::is_regular_file(program, ec)) {
    r.problem = "sim_c not found; install similarity-tester";
    return r;
  }
  TempFolder dir;
  if (dir.path().empty()) {
    r.problem = "no temporary folder for sim_c's files";
    return r;
  }
  // Sandboxed, the texts go into the sandbox's scratch folder (its uid's, 0700), which bwrap reaches
  // through this folder (searchable, not listable, by others); the output stays out here.
  const bool sandboxed = options.sandboxed && sandboxSupport().available;
  const std::string inputs = sandboxed ? dir.path() + "/box" : dir.path();
  if (sandboxed) chmod(dir.path().c_str(), 0711);
  std::vector<std::string> names;
  std::string err;
  for (size_t i = 0; i < texts.size(); ++i) names.push_back(inputs + "/" + std::to_string(i) + ".cl");
  ProcessSpec spec;
  spec.argv = {program, "-p", "-e", "-a", "-s", "-T", "-t", "1"};
  spec.argv.insert(spec.argv.end(), names.begin(), names.end());
  spec.timeoutSeconds = options.timeoutSeconds;
  spec.stdoutPath = dir.path() + "/out.txt";
  spec.stderrPath = dir.path() + "/err.txt";
  spec.outputLimitBytes = options.outputLimitBytes;
  spec.limits.noCoreDumps = true;
  spec.limits.addressSpaceBytes = uint64_t(4) << 30;
  spec.env = {{"LC_ALL", "C"}};
  if (sandboxed) {
    SandboxSpec box;
    box.scratch = inputs;
    box.env = spec.env;
    box.maxTreeProcesses = 4;
    // The system's folders are seen inside; a sim_c installed elsewhere (/opt) is shown read-only.
    const std::string folder = fs::path(program).parent_path().string();
    if (folder.rfind("/usr/", 0) != 0 && folder != "/usr" && folder != "/bin") box.mounts.push_back({folder, false});
    if (!sandboxProcess(box, &spec, &err)) {
      r.problem = "sim_c's sandbox cannot be made: " + err;
      return r;
    }
  }
  for (size_t i = 0; i < texts.size(); ++i) {
    const std::string& t = texts[i];
    const std::string text = t.size() > options.textLimitBytes ? t.substr(0, options.textLimitBytes) : t;
    if (!writeFileAtomically(names[i], text, &err, false)) {
      r.problem = "cannot write sim_c's input: " + err;
      return r;
    }
    chmod(names[i].c_str(), 0644);  // read inside by the sandbox's uid
  }
  const ProcessResult run = runProcess(spec);
  if (!run.started) {
    r.problem = "sim_c could not start: " + run.error;
    return r;
  }
  if (!run.ok()) {
    std::string why;
    readFile(spec.stderrPath, &why, nullptr, 4096);
    while (!why.empty() && (why.back() == '\n' || why.back() == ' ')) why.pop_back();
    if (const size_t nl = why.find('\n'); nl != std::string::npos) why = why.substr(0, nl);
    r.problem = "sim_c failed: " + run.describe() + (why.empty() ? "" : ": " + why.substr(0, 200));
    return r;
  }
  if (run.stdoutBytes > options.outputLimitBytes) {
    r.problem = "sim_c wrote more than " + std::to_string(options.outputLimitBytes >> 20) + " MiB";
    return r;
  }
  std::string output;
  if (!readFile(spec.stdoutPath, &output, &err, options.outputLimitBytes + 1)) {
    r.problem = "cannot read sim_c's output: " + err;
    return r;
  }
  r.percents = parseSimCPercentages(output, names);
  r.ok = true;
  return r;
}

}  // namespace clgrade
