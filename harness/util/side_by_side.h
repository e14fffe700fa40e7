// Independent pieces of work on threads of their own, a few at a time: a grade's task runners on a
// GPU (each waits on its own child process, so the threads only wait).
#pragma once

#include <cstddef>
#include <functional>

namespace clgrade {

/// Calls work(i) for every i in [0, n), at most `jobs` at once on threads of their own (jobs <= 1:
/// one after another on this thread). Returns when all have returned; the first exception one threw
/// is thrown again here, after the others have finished (on threads, every other i is still worked
/// on; one after another, none after it). Where no more threads can be started, those already
/// started (or this thread) do the rest.
void forEachSideBySide(size_t n, int jobs, const std::function<void(size_t)>& work);

}  // namespace clgrade
