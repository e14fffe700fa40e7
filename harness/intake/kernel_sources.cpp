#include "intake/kernel_sources.h"

namespace clgrade {

KernelSources::KernelSources(std::string kernelsDir) : kernelsDir_(std::move(kernelsDir)) {}

KernelSources::KernelSources(std::string kernelsDir, std::map<std::string, KernelSource> given)
    : kernelsDir_(std::move(kernelsDir)), given_(true) {
  for (auto& [name, source] : given) files_[name] = std::make_unique<KernelSource>(std::move(source));
}

const KernelSource& KernelSources::file(const std::string& name) const {
  const std::lock_guard<std::mutex> hold(mutex_);
  std::unique_ptr<KernelSource>& slot = files_[name];
  if (!slot) {
    slot = std::make_unique<KernelSource>();
    if (given_)
      slot->problem = name + " is missing from the kernels folder";
    else
      *slot = loadKernelSource(kernelsDir_, name);
  }
  return *slot;
}

}  // namespace clgrade
