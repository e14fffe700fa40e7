#include <filesystem>
#include <iostream>

#include "cli/command.h"

#ifndef CLGRADE_SOURCE_DIR
#define CLGRADE_SOURCE_DIR "."
#endif

namespace clgrade::cli {

std::string repositoryRoot() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec && std::filesystem::exists(exe.parent_path().parent_path() / "rubrics" / "four_tasks.xml", ec))
    return exe.parent_path().parent_path().string();
  return CLGRADE_SOURCE_DIR;
}

std::string defaultRubric() { return repositoryRoot() + "/rubrics/four_tasks.xml"; }

bool loadRubricOrComplain(const std::string& path, Rubric* rubric) {
  std::vector<std::string> problems;
  if (loadRubric(path, rubric, &problems)) return true;
  std::cerr << "clgrade: the rubric cannot be used:\n";
  for (const std::string& p : problems) std::cerr << "  " << p << "\n";
  return false;
}

int loadRubricAndDevice(const std::string& rubricPath, const std::vector<std::string>& tasks,
                        const std::string& deviceSpec, Rubric* rubric, DeviceEntry* device) {
  if (!loadRubricOrComplain(rubricPath, rubric)) return kUsage;
  for (const std::string& t : tasks) {
    bool known = false;
    for (const TaskRubric& tr : rubric->tasks) known = known || tr.id == t;
    if (!known) {
      std::cerr << "clgrade: the rubric has no task '" << t << "'\n";
      return kUsage;
    }
  }
  std::string err;
  if (!chooseDevice(deviceSpec, device, &err)) {
    std::cerr << "clgrade: " << err << "\n";
    return kNoDevice;
  }
  return kOk;
}

}  // namespace clgrade::cli
