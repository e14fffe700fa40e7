#include "model/figures.h"

namespace clgrade {

const KernelFigure* PerformanceReport::find(const std::string& kernel) const {
  for (const KernelFigure& f : kernels)
    if (f.kernel == kernel) return &f;
  return nullptr;
}

bool atLaunchFloor(const KernelFigure& f) {
  return f.launchFloorMs > 0 && f.time.medianMs > 0 && f.time.medianMs <= 1.1 * f.launchFloorMs;
}

int SweepReport::incorrect() const {
  int n = 0;
  for (const SweepPoint& p : points) n += !p.correct;
  return n;
}

}  // namespace clgrade
