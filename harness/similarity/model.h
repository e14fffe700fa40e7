// What a class's similarity report holds (class.json's "similarity", summary.html's #similarity):
// per task file, the class's distribution of pair scores and its most similar pairs. A report for
// the instructor to look at, never a grade: nothing here changes a point.
#pragma once

#include <string>
#include <vector>

namespace clgrade {

/// Two submissions' copies of one task file, compared both ways.
struct SimilarPair {
  std::string first, second;  ///< submission names, first < second
  int firstInSecond = 0;      ///< % of first's text (template removed) also found in second (sim_c -p)
  int secondInFirst = 0;      ///< % of second's text also found in first
  double score = 0;           ///< the pair's score: the larger of the two (similarity/flagging.h says why)
  double z = 0;               ///< robust z-score of `score` in its task's distribution
  bool flagged = false;       ///< far above the class (flagging.h); never a grade
};

/// A pair's two texts as compared, for showing side by side (not in class.json).
struct PairSources {
  std::string first, second;            ///< submission names
  std::string firstText, secondText;    ///< the files as kept (sources/<file>)
  std::vector<bool> firstTemplate, secondTemplate;  ///< per line: a line of the template (not compared)
};

/// One task's file over the class.
struct TaskSimilarity {
  std::string task, file;
  int compared = 0;  ///< submissions with the file kept (sources/<file>), compared pairwise
  int pairs = 0;     ///< compared * (compared - 1) / 2
  /// The distribution of every pair's score (percent).
  double median = 0, mad = 0, q1 = 0, q3 = 0, highest = 0;
  int flagged = 0;  ///< pairs flagged
  /// The flagged pairs (highest first), then the highest others, at most kShownPairs in all unless
  /// more are flagged (every flagged pair is listed).
  std::vector<SimilarPair> top;
  /// Up to kSideBySidePairs of the flagged pairs with their texts (for summary.html only).
  std::vector<PairSources> sideBySide;
  /// Why nothing is flagged although pairs were compared (a class too small); empty otherwise.
  std::string note;
  /// Why the task was not measured (sim_c missing, failed, timed out); empty when measured.
  std::string problem;
};

/// The class: every task with a file.
struct ClassSimilarity {
  bool measured = false;  ///< false: `problem` says why nothing was measured at all
  std::string problem;    ///< "similarity not measured: ..." when !measured
  std::string tool;       ///< sim_c's path, as run
  std::vector<TaskSimilarity> tasks;
};

constexpr size_t kShownPairs = 10;
constexpr size_t kSideBySidePairs = 3;

}  // namespace clgrade
