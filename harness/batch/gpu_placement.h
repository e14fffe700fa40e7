// Where a batch's jobs run on a machine with several NVIDIA GPUs (issue 29): on every GPU it shows,
// or on those `--gpus` names, each job's processes seeing only their own through CUDA_VISIBLE_DEVICES
// (NVIDIA's OpenCL and CUDA both follow it, inside the sandbox too). Each GPU then has its own timing
// and profiler locks and its own trusted timings: timed launches and counter sessions of one GPU take
// turns, those of two GPUs do not wait for each other. Other vendors' GPUs are not placed (one GPU,
// as before), and `--gpus` there is a usage error.
#pragma once

#include <string>
#include <vector>

namespace clgrade {

/// One GPU a batch places jobs on.
struct GpuSlot {
  /// CUDA_VISIBLE_DEVICES for the processes of its jobs; "" where the batch leaves the environment
  /// as it is (one GPU, or a device that is not an NVIDIA GPU).
  std::string visible;
  std::string label;  ///< "GPU 2" (CUDA's name for it), "" for the one slot of an unplaced batch
  /// Its position among the GPUs this process sees (NVIDIA's OpenCL lists them in CUDA's order): the
  /// OpenCL device its processes see as their only one; -1 for the one slot of an unplaced batch.
  int position = -1;
};

/// The slots for a batch. `nvidiaGpus`: how many NVIDIA GPUs OpenCL lists (0 for any other device);
/// `visibleNow`: this process's CUDA_VISIBLE_DEVICES (null when unset; Slurm sets it to the job's
/// GPUs, and those are the ones placed); `requested`: --gpus, positions among the GPUs this process
/// sees (0 is the first), empty for all. False with a message for a position that is not there, one
/// given twice, or --gpus without NVIDIA GPUs.
bool placeOnGpus(int nvidiaGpus, const char* visibleNow, const std::vector<int>& requested,
                 std::vector<GpuSlot>* slots, std::string* err);

/// "0,2" -> {0, 2}; false with a message for anything else.
bool parseGpuList(const std::string& text, std::vector<int>* gpus, std::string* err);

}  // namespace clgrade
