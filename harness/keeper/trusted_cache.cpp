#include "keeper/trusted_cache.h"

#include <sys/stat.h>

#include <ctime>
#include <filesystem>

#include "grading/drawn_analysis.h"
#include "grading/performance.h"
#include "tasks/task.h"
#include "util/cache_home.h"
#include "util/files.h"
#include "util/sha256.h"

namespace clgrade {
namespace {

std::string folder() { return cacheHome() + "/clgrade/trusted"; }

}  // namespace

std::string trustedFiguresKey(const Rubric& rubric, const std::vector<std::string>& tasks, const DeviceInfo& device,
                              uint64_t hiddenSeed) {
  bool hidden = false;
  for (const TaskRubric& t : rubric.tasks)
    for (const std::string& id : tasks)
      if (t.id == id)
        if (const CaseSpec* timed = t.findCase(t.performance.caseId); timed && !timed->visible) hidden = true;
  std::string text = buildId() + "\n" + device.platform + "\n" + device.platformVersion + "\n" + device.name + "\n" +
                     device.driver + "\n" + device.version + "\n" +
                     withoutDrawnAnalysis(rubricForTasks(rubric, tasks)) + "\n";
  // The trusted kernels themselves: an instructor who edits a reference kernel gets it timed anew.
  for (const std::string& id : tasks) {
    text += id + "\n";
    if (const Task* task = findTask(id))
      for (const std::string& dir : {defaultReferenceKernelsDir(), defaultNaiveKernelsDir()})
        text += sha256File((std::filesystem::path(dir) / task->info().file).string()) + "\n";
  }
  if (hidden) text += "seed " + std::to_string(hiddenSeed) + "\n";
  return sha256Hex(text);
}

std::shared_ptr<const TrustedTimings> keptTrustedFigures(const std::string& key) {
  const std::string path = folder() + "/" + key + ".json";
  struct stat st {};
  if (stat(path.c_str(), &st) != 0 || std::difftime(std::time(nullptr), st.st_mtime) > kReuseTrustedMinutes * 60 ||
      std::difftime(std::time(nullptr), st.st_mtime) < 0)
    return nullptr;
  std::string text;
  auto timings = std::make_shared<TrustedTimings>();
  if (!readFile(path, &text, nullptr, size_t(16) << 20) || !readTrustedTimings(text, timings.get(), nullptr))
    return nullptr;
  timings->policy = "re-timed after " + std::to_string(int(kReuseTrustedMinutes)) + " minutes";
  for (auto& [id, figures] : timings->byTask)
    figures.note += (figures.note.empty() ? "" : "; ") +
                    std::string("the copy, reference and naive kernels were timed on this machine at ") +
                    timings->takenAt + " for an earlier grade (" + timings->policy + "), not in this grade";
  return timings;
}

void keepTrustedFigures(const std::string& key, const TrustedTimings& timings) {
  if (!makeDirectories(folder(), nullptr)) return;
  writeFileAtomically(folder() + "/" + key + ".json", trustedTimingsJson(timings), nullptr, false);
}

}  // namespace clgrade
