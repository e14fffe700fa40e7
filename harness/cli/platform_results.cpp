#include "cli/platform_results.h"

#include <filesystem>
#include <iostream>
#include <streambuf>

#include "cli/command.h"
#include "report/outputs.h"
#include "report/platform_failure.h"
#include "util/files.h"
#include "util/markup.h"

namespace clgrade::cli {

namespace {

/// Everything written to std::cerr while it lives also goes into `copy` (its last 4000 bytes kept).
class StderrCopy : public std::streambuf {
 public:
  StderrCopy() : original_(std::cerr.rdbuf(this)) {}
  ~StderrCopy() override { std::cerr.rdbuf(original_); }
  std::string text() const { return copy_.size() > 4000 ? "..." + copy_.substr(copy_.size() - 4000) : copy_; }

 protected:
  int overflow(int c) override {
    if (c == traits_type::eof()) return traits_type::not_eof(c);
    copy_.push_back(char(c));
    return original_->sputc(char(c));
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    copy_.append(s, size_t(n));
    if (copy_.size() > 65536) copy_.erase(0, copy_.size() - 8192);
    return original_->sputn(s, n);
  }

 private:
  std::streambuf* original_;
  std::string copy_;
};

bool write(const std::string& path, const std::string& text) {
  std::string err;
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if ((!parent.empty() && !makeDirectories(parent.string(), &err)) || !writeFileAtomically(path, text, &err)) {
    std::cerr << "clgrade: " << terminalText(err) << "\n";
    return false;
  }
  return true;
}

}  // namespace

int withPlatformResults(const PlatformResultPaths& paths, const std::function<int(std::string* reportDir)>& grade) {
  if (!paths.any()) {
    std::string unused;
    return grade(&unused);
  }
  std::string reportDir, said;
  int exit = kOutput;
  {
    StderrCopy copy;
    try {
      exit = grade(&reportDir);
    } catch (const std::exception& e) {
      std::cerr << "clgrade: internal error: " << e.what() << "\n";
      exit = kOutput;
    } catch (...) {
      std::cerr << "clgrade: internal error\n";
      exit = kOutput;
    }
    said = copy.text();
  }
  bool written = true;
  if (exit == kOk || exit == kFailures) {
    // The grade's own files, as the report folder holds them.
    for (const auto& [target, file] : {std::pair<std::string, const char*>{paths.gradescope, kGradescopeJson},
                                       {paths.prairieLearn, kPrairieLearnJson}}) {
      if (target.empty()) continue;
      std::string text, err;
      if (!readFile((std::filesystem::path(reportDir) / file).string(), &text, &err)) {
        // Graded, but its file is not there: the platform still gets one, saying so.
        std::cerr << "clgrade: " << terminalText(err) << "\n";
        const std::string reason = "the grade's results file cannot be read: " + err;
        write(target, target == paths.gradescope ? gradescopeFailure(reason, kOutput)
                                                 : prairieLearnUngradable(reason, kOutput));
        written = false;
        continue;
      }
      written = write(target, text) && written;
    }
    return written ? exit : kOutput;
  }
  const std::string reason = said.empty() ? "no reason was given" : said;
  if (!paths.gradescope.empty()) written = write(paths.gradescope, gradescopeFailure(reason, exit)) && written;
  if (!paths.prairieLearn.empty()) written = write(paths.prairieLearn, prairieLearnUngradable(reason, exit)) && written;
  return exit;
}

}  // namespace clgrade::cli
