#include "similarity/measure.h"

#include <algorithm>
#include <filesystem>

#include "intake/source_policy.h"
#include "similarity/comments.h"
#include "similarity/kept_sources.h"
#include "similarity/template_lines.h"
#include "util/files.h"
#include "util/install_layout.h"
#include "util/side_by_side.h"
#include "util/subprocess.h"

namespace clgrade {

namespace fs = std::filesystem;

std::string comparedText(const std::string& text, const std::string& templateText) {
  return withoutTemplateLines(withoutComments(text), withoutComments(templateText));
}

std::vector<bool> templateMask(const std::string& text, const std::string& templateText) {
  return templateLineMask(withoutComments(text), withoutComments(templateText));
}

TaskSimilarity compareTask(const SimilarityTask& task, const std::vector<SimilarityText>& texts,
                           const std::string& templateText, const SimilarityOptions& options) {
  TaskSimilarity t;
  t.task = task.task;
  t.file = task.file;
  std::vector<std::string> names, compared;
  for (const SimilarityText& s : texts) {
    names.push_back(s.submission);
    const size_t limit = options.simC.textLimitBytes;
    compared.push_back(comparedText(s.text.size() > limit ? s.text.substr(0, limit) : s.text, templateText));
  }
  const SimCResult run = runSimC(compared, options.simC);
  if (!run.ok) {
    t.compared = static_cast<int>(texts.size());
    t.problem = "not measured: " + run.problem;
    return t;
  }
  scorePairs(names, run.percents, &t, options.rule);
  auto textOf = [&](const std::string& name) -> const std::string& {
    return std::find_if(texts.begin(), texts.end(), [&](const SimilarityText& s) { return s.submission == name; })->text;
  };
  for (const SimilarPair& p : t.top) {
    if (!p.flagged || t.sideBySide.size() >= kSideBySidePairs) break;
    PairSources s;
    s.first = p.first;
    s.second = p.second;
    s.firstText = textOf(p.first);
    s.secondText = textOf(p.second);
    s.firstTemplate = templateMask(s.firstText, templateText);
    s.secondTemplate = templateMask(s.secondText, templateText);
    t.sideBySide.push_back(std::move(s));
  }
  return t;
}

ClassSimilarity measureSimilarity(const std::vector<SimilarityTask>& tasks, const std::vector<std::string>& submissions,
                                  const std::vector<std::string>& reportDirs, const SimilarityOptions& options) {
  ClassSimilarity c;
  if (!options.off.empty()) {
    c.problem = "similarity not measured: " + options.off;
    return c;
  }
  SimilarityOptions o = options;
  if (o.simC.program.empty()) o.simC.program = findSimC();
  std::error_code ec;
  if (o.simC.program.empty() || !fs::is_regular_file(o.simC.program, ec)) {
    c.problem = "similarity not measured: sim_c not found; install similarity-tester";
    return c;
  }
  c.measured = true;
  c.tool = o.simC.program;
  const std::string templates = o.templateFolder.empty() ? dataPath("kernels_template") : o.templateFolder;
  // Each task file's sim_c on a thread of its own (a few: one a task file): they share nothing but
  // the class's folders.
  c.tasks.resize(tasks.size());
  forEachSideBySide(tasks.size(), usableCores(), [&](size_t t) {
    const SimilarityTask& task = tasks[t];
    std::vector<SimilarityText> texts;
    for (size_t i = 0; i < submissions.size() && i < reportDirs.size(); ++i) {
      SimilarityText s{submissions[i], {}};
      if (readKeptSource(reportDirs[i], task.file, &s.text, kMaxSourceBytes)) texts.push_back(std::move(s));
    }
    std::string templateText;
    if (isKeptSourceName(task.file)) readFile((fs::path(templates) / task.file).string(), &templateText, nullptr);
    c.tasks[t] = compareTask(task, texts, templateText, o);
  });
  return c;
}

}  // namespace clgrade
