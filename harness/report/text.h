// Text helpers the renderers share: every string that reaches a report may come from a student
// (kernel source lines, compiler logs, file names) and may hold markup or bytes that are not UTF-8.
#pragma once

#include <string>
#include <vector>

#include "model/report.h"
#include "model/status.h"
#include "util/base64.h"  // base64Encode
#include "util/markup.h"  // cleanText, htmlEscape, xmlEscape

namespace clgrade {

/// A relative path as a URL: each byte outside A-Z a-z 0-9 - . _ ~ / percent-encoded.
std::string urlPath(const std::string& path);

/// Points as people write them: "2", "2.5", "0.3333" (at most 4 decimals, no exponent).
std::string formatPoints(double points);

/// "passed", "failed", "not measured", "error".
std::string statusLabel(Status status);

/// What the task's grading processes say beyond its checks: a rerun (what stopped the first runner,
/// what the second left out, how it ended), a retry on resume, and what the kernels printed. Empty
/// lines for none.
std::vector<std::string> processNotes(const TaskReport& task);

/// The process.outcome of a task that a resumed batch graded again because its first runner was
/// killed from outside: the retry's own outcome, then what ended the first ("ok, retried on resume
/// after signal SIGKILL").
std::string retriedOnResumeOutcome(const std::string& retryOutcome, const std::string& firstOutcome);

/// A path from a report that stays inside the report folder: relative, no ".." component, no
/// backslash or NUL byte.
bool isSafeRelativePath(const std::string& path);

/// Reads <reportDir>/<relativePath> as a PNG (signature checked, at most `limitBytes`) and returns
/// it as a data:image/png;base64 URI; empty with the reason in *err otherwise.
std::string pngDataUri(const std::string& reportDir, const std::string& relativePath, size_t limitBytes,
                       std::string* err);

/// The pictures of a failed comparison: evidence.cpp writes <stem>_crop.png (the first wrong pixels
/// up close: expected | actual | difference), <stem>_diff.png (the heat map of the whole image),
/// <stem>_expected.png and <stem>_actual.png.
struct ImageSet {
  std::string stem;  ///< "evidence/conv3x3/edge/output"
  const Evidence* crop = nullptr;
  const Evidence* difference = nullptr;
  const Evidence* expected = nullptr;
  const Evidence* actual = nullptr;
};

/// The PNG sets among `evidence`, in order of first appearance; *others gets every other file
/// (PFM, logs, listings), each once.
std::vector<ImageSet> imageSets(const std::vector<Evidence>& evidence, std::vector<const Evidence*>* others = nullptr);

/// The picture sets of a criterion's checks, case by case (failing cases only), each with the check
/// and case they show; hidden cases only when `hiddenCases`.
struct CaseImages {
  const CheckResult* check = nullptr;
  const CaseOutcome* outcome = nullptr;
  ImageSet images;
};
std::vector<CaseImages> criterionImages(const TaskReport& task, const CriterionResult& criterion, bool hiddenCases);

/// What a reader needs to know about one criterion beyond its one-line message: its checks that did
/// not pass, their failing cases with messages and details, and the instructor's override. Plain text
/// for Gradescope, PrairieLearn and JUnit.
struct DetailOptions {
  size_t detailLines = 12;         ///< per case; the rest is counted ("... 40 more lines")
  size_t casesPerCheck = 4;        ///< failing cases listed per check
  bool hiddenCaseDetails = false;  ///< details of hidden cases (their message is always shown)
};
std::string criterionDetails(const TaskReport& task, const CriterionResult& criterion,
                             const DetailOptions& options = {});

/// "Instructor override: 3 of 3 points (measured 0) by ta1: comment"; empty when not overridden.
std::string overrideLine(const CriterionResult& criterion);

}  // namespace clgrade
