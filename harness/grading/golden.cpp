#include "grading/golden.h"

#include <filesystem>
#include <set>

#include "image/pfm.h"
#include "image/png.h"
#include "rubric/rubric.h"
#include "tasks/task.h"
#include "util/files.h"
#include "util/sha256.h"

namespace clgrade {

namespace {

/// Writes an input as PFM and as PNG (normals mapped from [-1, 1]).
bool exportInput(const std::string& dir, const std::string& name, const Image& image, std::string* err) {
  if (!makeDirectories(dir, err)) return false;
  const bool normals = name.find(".normals") != std::string::npos;
  return writePfm(dir + "/" + name + ".pfm", image, err) &&
         writePng(dir + "/" + name + ".png", image, normals ? -1.0f : 0.0f, 1.0f, err);
}

}  // namespace

bool goldenManifest(const std::vector<std::string>& rubricPaths, std::string* manifest, std::string* err,
                    const std::string& exportDir) {
  // Hidden cases at the documented golden seed: a grade draws its own, but the generator and the
  // references behind hidden cases are pinned here the same way as the visible ones.
  InputCache inputs(kGoldenHiddenSeed);
  std::string references;
  for (const std::string& path : rubricPaths) {
    Rubric rubric;
    std::vector<std::string> problems;
    if (!loadRubric(path, &rubric, &problems)) {
      *err = problems.empty() ? "cannot load " + path : problems.front();
      return false;
    }
    const std::string name = std::filesystem::path(path).stem().string();
    for (const TaskRubric& t : rubric.tasks) {
      const Task* task = findTask(t.id);
      for (const CaseSpec& spec : t.cases) {
        for (const auto& [what, bytes] : task->referenceOutputs(inputs, spec)) {
          references += "reference\t" + name + "/" + t.id + "/" + spec.id + "/" + what + "\t" +
                        std::to_string(bytes.size()) + "\t" + sha256Hex(bytes) + "\n";
        }
      }
    }
  }
  std::string text =
      "# clgrade golden manifest: regenerate with `build/clgrade golden --write golden/manifest.tsv`\n"
      "# visible cases: the course's fixed inputs; hidden cases (hidden_*): hidden seed " +
      std::to_string(kGoldenHiddenSeed) +
      " (a grade draws its own)\n"
      "# kind\tname\tsize (WxHxC for inputs, bytes for references)\tsha256\n";
  std::set<std::string> seen;
  for (const InputRecord& r : inputs.records()) {
    if (!seen.insert(r.name).second) continue;
    if (!exportDir.empty() && !exportInput(exportDir, r.name, *inputs.find(r.name), err)) return false;
    text += "input\t" + r.name + "\t" + std::to_string(r.width) + "x" + std::to_string(r.height) + "x" +
            std::to_string(r.channels) + "\t" + r.sha256 + "\n";
  }
  *manifest = text + references;
  return true;
}

}  // namespace clgrade
