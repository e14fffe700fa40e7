#include "tasks/separable_config.h"

#include <algorithm>
#include <numeric>

#include "tasks/task_context.h"

namespace clgrade {

std::string SeparableConfig::buildOptions() const {
  return "-cl-fast-relaxed-math -D KERNEL_RADIUS=" + std::to_string(radius) +
         " -D H_GROUPSIZE_X=" + std::to_string(hGroup[0]) + " -D H_GROUPSIZE_Y=" + std::to_string(hGroup[1]) +
         " -D H_RESULT_STEPS=" + std::to_string(hSteps) + " -D V_GROUPSIZE_X=" + std::to_string(vGroup[0]) +
         " -D V_GROUPSIZE_Y=" + std::to_string(vGroup[1]) + " -D V_RESULT_STEPS=" + std::to_string(vSteps);
}

int SeparableConfig::rows(std::array<size_t, 2> hGroupUsed, std::array<size_t, 2> vGroupUsed) const {
  const size_t horizontal = roundUp(height, hGroupUsed[1]);
  const size_t vertical = roundUp(ceilDiv(height, vSteps), vGroupUsed[1]) * vSteps;
  return static_cast<int>(std::max(horizontal, vertical)) + radius + 1;
}

void readSeparableConfig(ParamReader& r, const SeparableConfig& d, SeparableConfig* c, std::string* problem) {
  *c = d;
  c->input = r.choice("input", d.input, {"photo", "scene", "extremes"});
  c->width = r.integer("width", d.width, 1, 8192);
  c->height = r.integer("height", d.height, 1, 8192);
  c->hWeights = r.weights("weights", "");
  if (c->hWeights.empty()) c->hWeights = d.hWeights;
  c->vWeights = r.weights("vertical_weights", "");
  if (c->vWeights.empty()) c->vWeights = c->hWeights;  // "the same array may serve both directions"
  c->hGroup = r.pair("h_group", d.hGroup, 1, 1024);
  c->vGroup = r.pair("v_group", d.vGroup, 1, 1024);
  c->hSteps = r.integer("h_steps", d.hSteps, 1, 64);
  c->vSteps = r.integer("v_steps", d.vSteps, 1, 64);
  problem->clear();
  if (c->hWeights.size() % 2 == 0) {
    *problem = "the filter needs an odd number of weights (2R+1), got " + std::to_string(c->hWeights.size());
    return;
  }
  if (c->vWeights.size() != c->hWeights.size()) {
    *problem = "vertical_weights must have as many weights as weights (one KERNEL_RADIUS)";
    return;
  }
  c->radius = static_cast<int>(c->hWeights.size() / 2);
  if (c->radius > c->hGroup[0] || c->radius > c->vGroup[1]) {
    *problem = "radius " + std::to_string(c->radius) +
               " exceeds the group size along the filter (students may assume R <= H_GROUPSIZE_X and "
               "R <= V_GROUPSIZE_Y)";
    return;
  }
  if (static_cast<int>(roundUp(c->width, c->vGroup[0])) > pitchOf(c->width)) {
    *problem = "the vertical launch width roundup(" + std::to_string(c->width) + ", " + std::to_string(c->vGroup[0]) +
               ") exceeds the pitch " + std::to_string(pitchOf(c->width)) +
               " (the vertical kernel has no width): choose V_GROUPSIZE_X dividing 32";
  }
}

bool readSeparableCase(const CaseSpec& spec, const SeparableConfig& defaults, SeparableConfig* c, std::string* err) {
  ParamReader r(spec);
  std::string problem;
  readSeparableConfig(r, defaults, c, &problem);
  if (!r.ok(err)) return false;
  if (!problem.empty()) {
    *err = "case '" + spec.id + "': " + problem;
    return false;
  }
  return true;
}

Geometry horizontalGeometry(int width, int height, std::array<size_t, 2> group, int steps) {
  return {{roundUp(ceilDiv(width, steps), group[0]), roundUp(height, group[1])}, {group[0], group[1]}};
}

Geometry verticalGeometry(int width, int height, std::array<size_t, 2> group, int steps) {
  return {{roundUp(width, group[0]), roundUp(ceilDiv(height, steps), group[1])}, {group[0], group[1]}};
}

std::array<int, 2> wholeGroupsOf(const SeparableConfig& c) {
  const int hRun = c.hGroup[0] * c.hSteps, vRun = c.vGroup[1] * c.vSteps;
  return {std::lcm(hRun, c.vGroup[0]), std::lcm(c.hGroup[1], vRun)};
}

}  // namespace clgrade
