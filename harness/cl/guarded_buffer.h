// A device buffer with guard bands, so writes and reads past the data are caught.
//
// Guards made of separate buffers caught nothing on NVIDIA (a write one past the end went
// unseen), so the guards live inside ONE allocation: [front guard | data | back guard].
// Kernels get a sub-buffer over the data region whose origin is aligned as the device needs.
// After a run the host reads the whole allocation back and looks at the guards.
#pragma once

#include <algorithm>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cl/device_step.h"
#include "cl/host_staging.h"
#include "cl/runtime.h"
#include "protocol/block_delta.h"

namespace clgrade {

class GuardedBuffer {
 public:
  /// Allocates data plus at least `minGuardBytes` before and after it.
  GuardedBuffer(const Runtime& rt, size_t dataBytes, size_t minGuardBytes);

  /// The data region: this is what a kernel argument gets.
  const cl::Buffer& view() const { return view_; }
  size_t frontBytes() const { return front_; }
  size_t dataBytes() const { return data_; }
  size_t totalBytes() const { return total_; }
  /// The whole allocation, guards included (a timed launch's refill sets all of it back).
  const cl::Buffer& whole() const { return whole_; }
  /// Whether the host has set every byte of the allocation (written, filled or copied it). Until
  /// then it holds what the device left there: a freed buffer's bytes, an earlier launch's output.
  bool given() const { return given_; }

  /// Uploads the whole allocation (guards included) as `lay` lays it out into the `totalBytes()` it
  /// is given, only where the upload runs: a keeper replaying a record has nothing to send. The
  /// host side is a staging area kept by the thread from one upload to the next: a fresh 96 MB vector
  /// for each 4096 x 4096 plane cost most of the 0.1 s its upload took (page faults).
  template <typename T>
  void writeAll(const Runtime& rt, const std::function<void(T* whole)>& lay) {
    if (total_ % sizeof(T) != 0) throw std::logic_error("writeAll: an allocation of another element size");
    deviceAction(rt, "write", [&] {
      // Pinned where the GPU's copy engine can read it directly (cl/host_staging.h).
      const HostStaging::Lease pinned = rt.staging ? rt.staging->lease(total_) : HostStaging::Lease();
      static thread_local std::vector<T> staging;
      T* area = reinterpret_cast<T*>(pinned.data());
      if (!area) {
        if (staging.size() < total_ / sizeof(T)) staging.resize(total_ / sizeof(T));
        area = staging.data();
      }
      lay(area);
      rt.queue.enqueueWriteBuffer(whole_, CL_TRUE, 0, total_, area);
    });
    given_ = true;
  }
  /// Sets the whole allocation to what `from` (an allocation of the same size) holds, copied on the
  /// device: an input uploaded once and handed to several launches' buffers (the sweep's points)
  /// costs one upload, not one per point (a 4096 x 4096 plane: 33 ms each on an H200).
  void copyAllFrom(const Runtime& rt, const GuardedBuffer& from) {
    if (from.total_ != total_) throw std::logic_error("copyAllFrom: an allocation of another size");
    deviceAction(rt, "copy", [&] { rt.queue.enqueueCopyBuffer(from.whole_, whole_, 0, 0, total_); });
    given_ = from.given_;
  }
  /// Sets every element of the allocation (guards included) to `value`. On a GPU the device fills it
  /// (in-order queue: launches after it see the fill) and no host copy of the buffer is made; elsewhere
  /// the host writes it, because Oclgrind (whose device says it is every type, GPU included) does not
  /// count a clEnqueueFillBuffer as a write in its check for uninitialised values (an atomic add into
  /// a zeroed histogram was "never written").
  template <typename T>
  void fillAll(const Runtime& rt, const T& value) {
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16,
                  "a fill pattern OpenCL takes");
    if (total_ % sizeof(T) != 0) throw std::logic_error("fillAll: an allocation that the value does not tile");
    if (!isHardwareGpu(rt.device.info)) {
      writeAll<T>(rt, [&](T* whole) { std::fill(whole, whole + total_ / sizeof(T), value); });
      return;
    }
    deviceAction(rt, "fill", [&] { rt.queue.enqueueFillBuffer(whole_, value, 0, total_); });
    given_ = true;
  }
  /// Reads the whole allocation back (blocking). `baseline` (totalBytes() of them) is what the host
  /// knows is there, its own upload: the record keeps only the blocks that differ
  /// (protocol/block_delta.h), and replayed, they must rebuild exactly an allocation of this size.
  template <typename T>
  std::vector<T> readAll(const Runtime& rt, const std::vector<T>& baseline) const {
    if (baseline.size() * sizeof(T) != total_) throw std::logic_error("readAll: a baseline of another size");
    return readAgainst<T>(rt, DeltaBaseline::of(reinterpret_cast<const char*>(baseline.data())));
  }
  /// The same against a fill of the whole allocation with `fill` (no copy of the buffer made for it).
  template <typename T>
  std::vector<T> readAll(const Runtime& rt, const T& fill) const {
    static_assert(kDeltaBlockBytes % sizeof(T) == 0, "a fill value must tile a block");
    const std::vector<T> block(kDeltaBlockBytes / sizeof(T), fill);
    return readAgainst<T>(rt, DeltaBaseline::repeating(reinterpret_cast<const char*>(block.data())));
  }

  /// How many T values of the allocation differ, bit for bit, from `base` (what the host knows is
  /// there: its upload): what a kernel wrote into its input. The same record as readAll; the keeper
  /// compares only the blocks the record says changed, with no copy of the buffer made.
  template <typename T>
  long countChanged(const Runtime& rt, const DeltaBaseline& base) const {
    static_assert(kDeltaBlockBytes % sizeof(T) == 0, "a value must not straddle two blocks");
    const std::string delta = readDelta(rt, base);
    const BlockDeltaView view = openDelta(delta);
    long changed = 0;
    alignas(16) char scratch[kDeltaBlockBytes];
    for (size_t b = 0; b < view.blocks(); ++b) {
      const char* now = view.changed(b);
      if (!now) continue;
      const char* then = base.block(b, scratch);
      for (size_t at = 0; at + sizeof(T) <= view.blockBytes(b); at += sizeof(T))
        changed += std::memcmp(now + at, then + at, sizeof(T)) != 0;
    }
    return changed;
  }

  /// Reads the allocation back against a fill with `fill` (its sentinel) and hands `visit` only the
  /// blocks that differ from it: visit(first value's index, values, count), in order. Every other
  /// value still holds `fill`. No copy of the buffer is made.
  template <typename T, typename Visit>
  void visitChangedAgainstFill(const Runtime& rt, const T& fill, Visit visit) const {
    static_assert(kDeltaBlockBytes % sizeof(T) == 0, "a fill value must tile a block");
    if (total_ % sizeof(T) != 0)
      throw std::logic_error("visitChangedAgainstFill: an allocation of another element size");
    const std::vector<T> block(kDeltaBlockBytes / sizeof(T), fill);
    const std::string delta = readDelta(rt, DeltaBaseline::repeating(reinterpret_cast<const char*>(block.data())));
    const BlockDeltaView view = openDelta(delta);
    std::vector<T> values(kDeltaBlockBytes / sizeof(T));  // aligned for T: the record's bytes are not
    for (size_t b = 0; b < view.blocks(); ++b) {
      const char* now = view.changed(b);
      if (!now) continue;
      std::memcpy(values.data(), now, view.blockBytes(b));
      visit(b * (kDeltaBlockBytes / sizeof(T)), static_cast<const T*>(values.data()), view.blockBytes(b) / sizeof(T));
    }
  }

  /// Reads byte ranges of the data region (offset, size), concatenated (blocking): a sample of a
  /// large output, so a check at the timing size hands back megabytes, not the whole plane.
  std::string readRanges(const Runtime& rt, const std::vector<std::pair<size_t, size_t>>& ranges) const {
    size_t bytes = 0;
    for (const auto& r : ranges) bytes += r.second;
    std::string out = deviceStep(rt, "read rows", [&] {
      std::string raw(bytes, '\0');
      size_t at = 0;
      for (const auto& [offset, size] : ranges) {
        rt.queue.enqueueReadBuffer(whole_, CL_TRUE, front_ + offset, size, raw.data() + at);
        at += size;
      }
      return raw;
    });
    if (out.size() != bytes) throw TapeMismatch("the runner's record holds rows of another size");
    return out;
  }

 private:
  /// The allocation read back, as the blocks that differ from `base` (protocol/block_delta.h): the
  /// runner reads the device and records the encoding; the keeper gets the recorded one.
  std::string readDelta(const Runtime& rt, const DeltaBaseline& base) const {
    return deviceStep(rt, "read delta", [&] {
      // A staging area kept by the thread, as writeAll's: a fresh zeroed buffer for each read cost
      // page faults and a clearing pass per read (a sweep point reads back a dozen planes).
      // Pinned where the GPU's copy engine can fill it directly, as writeAll's.
      const HostStaging::Lease pinned = rt.staging ? rt.staging->lease(total_) : HostStaging::Lease();
      static thread_local std::vector<char> raw;
      char* area = pinned.data();
      if (!area) {
        if (raw.size() < total_) raw.resize(total_);
        area = raw.data();
      }
      rt.queue.enqueueReadBuffer(whole_, CL_TRUE, 0, total_, area);
      return encodeBlockDelta(area, base, total_);
    });
  }

  /// The recorded encoding checked against this allocation's size (an untrusted record).
  BlockDeltaView openDelta(const std::string& delta) const {
    BlockDeltaView view;
    std::string why;
    if (!view.open(delta, total_, &why))
      throw TapeMismatch("the runner's record holds " + why + " where a buffer was read back");
    return view;
  }

  /// The allocation read back and rebuilt from its differing blocks; no more than the buffer and
  /// its encoding held at once besides the result (a runner's memory limit counts them).
  template <typename T>
  std::vector<T> readAgainst(const Runtime& rt, const DeltaBaseline& base) const {
    const std::string delta = readDelta(rt, base);
    std::vector<T> whole(total_ / sizeof(T));
    std::string why;
    if (total_ % sizeof(T) != 0 || !decodeBlockDelta(delta, base, total_, reinterpret_cast<char*>(whole.data()), &why))
      throw TapeMismatch("the runner's record holds " + (why.empty() ? std::string("a buffer of another size") : why) +
                         " where a buffer was read back");
    return whole;
  }

  size_t front_ = 0, data_ = 0, total_ = 0;
  cl::Buffer whole_;
  cl::Buffer view_;
  bool given_ = false;
};

}  // namespace clgrade
