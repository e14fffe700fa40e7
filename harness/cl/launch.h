// Launching a kernel and timing it with profiling events.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "cl/runtime.h"

namespace clgrade {

/// A 2-D launch geometry.
struct Geometry {
  std::array<size_t, 2> global{0, 0};
  std::array<size_t, 2> local{0, 0};
  std::string str() const;  ///< "global 800x576, local 32x16"
};

/// A buffer a timed kernel can write: its outputs, and its inputs too (it can write anywhere in its
/// buffers). Spec 5c, "timed launches start from nothing": before every timed launch, warm-ups
/// included, perf/ sets it back outside the timed events, to `zero` bytes (the histogram's bins) or
/// else to what it held when the kernel's timing began (an output's sentinel and guards; the flags the
/// horizontal discontinuity kernel left for the vertical one). A kernel that skips its work because
/// its output already holds an earlier launch's result leaves a wrong output; one that kept a marker
/// or a copy of its result in an input (its guard, say) finds it gone.
struct WrittenBuffer {
  cl::Buffer whole;  ///< the whole allocation, guards included
  size_t bytes = 0;
  bool zero = false;
};

/// Enqueues a 2-D kernel, waits for it, returns its event time in milliseconds.
/// Throws cl::Error as CLHPP does; callers turn that into an `error` result.
double launch2d(const Runtime& rt, const cl::Kernel& kernel, const Geometry& geometry);

/// Enqueues a 1-D kernel (global, local), waits, returns milliseconds.
double launch1d(const Runtime& rt, const cl::Kernel& kernel, size_t global, size_t local);

}  // namespace clgrade
