// Which pairs of a class stand out. Independent solutions of this short assignment are alike (the
// same tile, halo, barrier and loops, in the order the sheet gives them), so a fixed threshold would
// flag whole classes one year and nobody the next: a pair is flagged only when its score is far above
// its own class's distribution for that file. "Far above" is a robust z-score (from the median and
// the median absolute deviation, which a few copied pairs cannot drag along as they would a mean and
// a standard deviation) at or above FlagRule::minZ, AND a score of at least FlagRule::minScore, so a
// class whose pairs are almost all 0 % does not flag a pair for sharing 5 %. A class of fewer than
// FlagRule::minSubmissions submissions with the file has too few pairs for a distribution: its pairs
// are listed, none flagged.
#pragma once

#include <string>
#include <vector>

#include "similarity/model.h"
#include "similarity/sim_c.h"

namespace clgrade {

struct FlagRule {
  double minZ = 3.5;        ///< Iglewicz and Hoaglin's cut for the modified z-score
  double minScore = 50;     ///< percent
  int minSubmissions = 4;   ///< fewer: nothing flagged (note says why)
  /// The z-score's scale is 1.4826 * MAD (a normal distribution's standard deviation), at least this
  /// many percent: where most pairs score the same (MAD 0) a pair a few percent above is no outlier.
  double minScale = 5;
};

/// A pair's score from its two directed percentages: the larger one. A student who copies a
/// classmate's kernel and pads it with code of their own lowers "padded in original" but not
/// "original in padded"; the mean would halve the evidence of a copy, the larger keeps it. Both
/// directions are reported beside it.
double pairScore(int firstInSecond, int secondInFirst);

/// The median and quartiles of `sorted` (ascending; linear interpolation), 0 when empty.
double quantile(const std::vector<double>& sorted, double p);

/// Fills `task`'s counts, distribution, flags and top pairs from the pairwise percentages of the
/// texts of `names` (percents index into names; a pair not said is 0 %). Every pair of the class
/// counts in the distribution. Nothing else of `task` is touched.
void scorePairs(const std::vector<std::string>& names, const std::vector<DirectedPercent>& percents,
                TaskSimilarity* task, const FlagRule& rule = {});

}  // namespace clgrade
