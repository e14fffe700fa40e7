// A class's similarity report from the kernel files its batch kept (similarity/kept_sources.h): per
// task file, every submission's text without comments and without the template's lines, compared
// pairwise by sim_c (similarity/sim_c.h), each pair scored against the class (similarity/flagging.h).
// What it finds is for the instructor to look at; it never changes a grade.
#pragma once

#include <string>
#include <vector>

#include "similarity/flagging.h"
#include "similarity/model.h"
#include "similarity/sim_c.h"

namespace clgrade {

struct SimilarityOptions {
  SimCOptions simC;
  FlagRule rule;
  /// The templates' folder (<file> in it is the task's template); empty: the data folder's
  /// kernels_template (util/install_layout.h). A missing template removes nothing.
  std::string templateFolder;
  /// Not empty: similarity is not measured, for this reason ("turned off (--no-similarity)").
  std::string off;
};

struct SimilarityTask {
  std::string task, file;
};

/// One submission's copy of a task file.
struct SimilarityText {
  std::string submission;
  std::string text;
};

/// The text sim_c compares: `text` without comments, then without the lines of `templateText`
/// (similarity/template_lines.h; both without comments). Line breaks stay where they were.
std::string comparedText(const std::string& text, const std::string& templateText);

/// Per line of `text`: true when the line is the template's (as comparedText removes it).
std::vector<bool> templateMask(const std::string& text, const std::string& templateText);

/// One task file over the texts given (at least the names differ): sim_c over every pair, the
/// scores, the flags, and the flagged pairs' texts for showing side by side. task.problem says why
/// when sim_c could not measure.
TaskSimilarity compareTask(const SimilarityTask& task, const std::vector<SimilarityText>& texts,
                           const std::string& templateText, const SimilarityOptions& options = {});

/// The class: for each task, the submissions whose result folder (`reportDirs`, parallel to
/// `submissions`) kept its file. Not measured at all (measured false, problem "similarity not
/// measured: ...") when turned off or when sim_c is not installed.
ClassSimilarity measureSimilarity(const std::vector<SimilarityTask>& tasks, const std::vector<std::string>& submissions,
                                  const std::vector<std::string>& reportDirs, const SimilarityOptions& options = {});

}  // namespace clgrade
