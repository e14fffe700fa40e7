#include "batch/gpu_placement.h"

#include <algorithm>
#include <set>
#include <sstream>

namespace clgrade {

namespace {

std::string trimmed(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

}  // namespace

bool parseGpuList(const std::string& text, std::vector<int>* gpus, std::string* err) {
  gpus->clear();
  std::istringstream in(text);
  for (std::string part; std::getline(in, part, ',');) {
    part = trimmed(part);
    if (part.empty() || part.size() > 4 || !std::all_of(part.begin(), part.end(), ::isdigit)) {
      *err = "--gpus takes GPU numbers separated by commas (0,2), not \"" + text + "\"";
      return false;
    }
    gpus->push_back(std::stoi(part));
  }
  if (gpus->empty()) {
    *err = "--gpus names no GPU";
    return false;
  }
  return true;
}

bool placeOnGpus(int nvidiaGpus, const char* visibleNow, const std::vector<int>& requested,
                 std::vector<GpuSlot>* slots, std::string* err) {
  slots->clear();
  if (nvidiaGpus <= 0) {
    if (!requested.empty()) {
      *err = "--gpus places jobs on NVIDIA GPUs, and the chosen device is not one";
      return false;
    }
    slots->push_back({});
    return true;
  }
  // The names CUDA_VISIBLE_DEVICES takes for the GPUs this process sees: its own list where it has
  // one (ordinals or UUIDs, as Slurm or the instructor set them), else CUDA's ordinals.
  std::vector<std::string> names;
  if (visibleNow && *visibleNow) {
    std::istringstream in(visibleNow);
    for (std::string part; std::getline(in, part, ',') && int(names.size()) < nvidiaGpus;)
      if (!trimmed(part).empty()) names.push_back(trimmed(part));
  } else {
    for (int i = 0; i < nvidiaGpus; ++i) names.push_back(std::to_string(i));
  }
  std::vector<int> chosen = requested;
  if (chosen.empty())
    for (int i = 0; i < int(names.size()); ++i) chosen.push_back(i);
  std::set<int> seen;
  for (int g : chosen) {
    if (g < 0 || g >= int(names.size())) {
      *err = "--gpus " + std::to_string(g) + ": this machine shows " + std::to_string(names.size()) + " GPU" +
             (names.size() == 1 ? "" : "s") + " (0 to " + std::to_string(names.size() - 1) + ")";
      return false;
    }
    if (!seen.insert(g).second) {
      *err = "--gpus names GPU " + std::to_string(g) + " twice";
      return false;
    }
  }
  // One GPU of one: the environment stays as it is (the batch runs as it did before GPUs were placed).
  if (names.size() == 1) {
    slots->push_back({});
    return true;
  }
  for (int g : chosen) slots->push_back({names[g], "GPU " + names[g], g});
  return true;
}

}  // namespace clgrade
