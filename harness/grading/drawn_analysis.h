// Spec 5c: the technique is judged at the course configuration and at one more graded case drawn
// per batch from the hidden seed (size and input). A kernel that keeps its local-memory technique for
// the rubric's analysis size (100 x 37) and uses global memory at every other size earned the
// technique points; a drawn size and input it cannot know in advance take them away.
#pragma once

#include "model/hidden_seeds.h"
#include "rubric/rubric.h"

namespace clgrade {

/// The id of the case withDrawnAnalysis adds to a task.
constexpr const char* kDrawnAnalysisCase = "analysis_drawn";

/// `rubric` with, for each task that has an <analysis> and a criterion needing a simulated check, a
/// hidden case "analysis_drawn": the task's first visible case (the course configuration) at a size
/// drawn from `seeds` among the multiples of that configuration's whole work-groups (the sizes every
/// honest kernel is written for, so that its output must be right there: spec section 5) up to one
/// and a half times the analysis case's pixels (the simulator's cost), its input a hidden one; the
/// <analysis> names it (drawn="analysis_drawn"). The device grades it like any hidden case, and the
/// simulator runs it beside the analysis case. The text (rubricForTask, for the runners and the
/// simulator) holds the case too; path and SHA-256 stay the file's. The same seeds give the same
/// rubric; a rubric that already has its drawn cases, or that cannot take one, is returned as it is.
Rubric withDrawnAnalysis(const Rubric& rubric, const HiddenSeeds& seeds);

/// A rubric's text without what withDrawnAnalysis added: what depends on the file alone (the trusted
/// figures kept across grades are keyed by it, and a grade's drawn size changes nothing they time).
std::string withoutDrawnAnalysis(const std::string& rubricText);

}  // namespace clgrade
