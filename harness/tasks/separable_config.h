// The configuration shared by the separable and the bilateral task: weights, group sizes,
// RESULT_STEPS, the `-D` build options and the launch geometry of each pass (spec sections 2-3).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "cl/launch.h"
#include "tasks/params.h"
#include "tasks/presets.h"

namespace clgrade {

struct SeparableConfig {
  std::string input = "photo";
  int width = 780, height = 575;
  std::vector<float> hWeights, vWeights;  ///< 2R+1 each
  int radius = 0;
  std::array<int, 2> hGroup{32, 16}, vGroup{32, 16};
  int hSteps = 4, vSteps = 4;

  /// Exactly the course's options: "-cl-fast-relaxed-math -D KERNEL_RADIUS=4 -D H_GROUPSIZE_X=32 ...".
  std::string buildOptions() const;
  /// Rows every plane allocates: what both passes' launches cover with these group sizes
  /// (the kernels' own when they declare one), plus the halo.
  int rows(std::array<size_t, 2> hGroupUsed, std::array<size_t, 2> vGroupUsed) const;
};

/// The smallest image both passes cover with whole work-groups: a width of whole horizontal
/// runs (group width x steps) and whole vertical groups, a height of whole horizontal groups and whole
/// vertical runs (group height x steps).
std::array<int, 2> wholeGroupsOf(const SeparableConfig& c);

/// Reads a whole case (readSeparableConfig + unknown parameters); false with "case 'id': ..." in *err.
bool readSeparableCase(const CaseSpec& spec, const SeparableConfig& defaults, SeparableConfig* c, std::string* err);

/// Reads the parameters input, width, height, weights, vertical_weights, h_group, v_group, h_steps,
/// v_steps (defaults from `defaults`) and checks the spec's assumptions (R <= group size along the
/// filter, vertical launch width <= Pitch). The caller still calls r.ok().
void readSeparableConfig(ParamReader& r, const SeparableConfig& defaults, SeparableConfig* c, std::string* problem);

/// Horizontal pass: global {roundup(ceil(W / S), gx), roundup(H, gy)}, local {gx, gy}.
/// (The course used floor; ceil launches the same at the course sizes and covers every pixel.)
Geometry horizontalGeometry(int width, int height, std::array<size_t, 2> group, int steps);
/// Vertical pass: global {roundup(W, gx), roundup(ceil(H / S), gy)}, local {gx, gy}.
Geometry verticalGeometry(int width, int height, std::array<size_t, 2> group, int steps);

}  // namespace clgrade
