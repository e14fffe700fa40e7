// One image channel on the device, laid out as the course framework lays it out:
// `pitch` elements per row, `rows` rows (at least the image height), inside a guarded buffer.
#pragma once

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "cl/guarded_buffer.h"
#include "cl/launch.h"

namespace clgrade {

/// What a kernel wrote outside the image of an output plane (counted against a sentinel fill).
struct WriteAudit {
  long padding = 0;     ///< columns Width..Pitch-1 of image rows (harmless; the vertical pass computes them)
  long belowImage = 0;  ///< rows >= Height inside the allocation
  int firstRowBelow = -1;
  long guardBefore = 0;  ///< in front of the buffer
  long guardAfter = 0;   ///< past the end of the buffer
  long untouched = 0;    ///< values inside the image that still hold the sentinel: never written
  long imageValues = 0;  ///< values inside the image
  long intoInputs = 0;   ///< values of the kernel's input buffers (guards included) that changed

  bool outsideBuffer() const { return guardBefore + guardAfter > 0; }
  /// Adds the writes into an input plane (DevicePlane::writesSinceUpload).
  void addInputWrites(long n) { intoInputs += n; }
  /// Adds another plane's counts (one audit for all channels of a pass).
  void add(const WriteAudit& other);
  /// "wrote 12 values past the end of the buffer and 800 below the image (rows 575..)", empty if none.
  std::string describe(const std::string& what) const;
};

template <typename T>
class DevicePlane {
 public:
  /// `rows` >= height; guards on each side as large as the plane (at least 256 KiB, at most
  /// 16 MiB), so a write far before or past the data still lands in a guard and is seen.
  DevicePlane(const Runtime& rt, int width, int height, int pitch, int rows)
      : width_(width),
        height_(height),
        pitch_(pitch),
        rows_(rows),
        buffer_(rt, sizeof(T) * size_t(pitch) * rows, guardBytes(sizeof(T) * size_t(pitch) * rows)) {}

  static size_t guardBytes(size_t dataBytes) {
    return std::min<size_t>(size_t(16) << 20, std::max<size_t>(size_t(256) << 10, dataBytes));
  }

  const cl::Buffer& buffer() const { return buffer_.view(); }
  /// The plane as a timed kernel's output (TimedLaunch::written): set back before each timed launch,
  /// to what it holds when the timing begins, or to zeros when `zero` or when the host never set its
  /// bytes (spec 5c: what a freed buffer or an earlier launch left in the memory is never set back).
  WrittenBuffer written(bool zero = false) const {
    return {buffer_.whole(), buffer_.totalBytes(), zero || !buffer_.given()};
  }
  int pitch() const { return pitch_; }

  /// Input layout: image rows hold `data` (width*height, unpadded) and `pad` in padding columns;
  /// rows below the image hold `below`; the guards hold `guard`.
  /// `data` must stay alive while writesSinceUpload may be asked (it lays the upload out again).
  void upload(const Runtime& rt, const T* data, const T& pad, const T& below, const T& guard) {
    uploaded_ = Upload{data, pad, below, guard};
    buffer_.template writeAll<T>(rt, [this](T* whole) { layOut(uploaded_, whole); });
  }

  /// As upload with what `from` was given: copied on the device from `from` (a plane of the same
  /// layout, uploaded before and never handed to a kernel), so that nothing a kernel did to another
  /// copy reaches this one.
  void uploadCopyOf(const Runtime& rt, const DevicePlane& from) {
    if (!from.uploaded_.data || from.width_ != width_ || from.height_ != height_ || from.pitch_ != pitch_ ||
        from.rows_ != rows_)
      throw std::logic_error("uploadCopyOf: a plane of another layout, or never uploaded");
    uploaded_ = from.uploaded_;
    buffer_.copyAllFrom(rt, from.buffer_);
  }

  /// Values of the whole allocation (guards included) that differ from the last upload: what a
  /// kernel wrote into its input. Compared bit for bit (NaN rows below the image included), block by
  /// block against the upload's layout made when asked for (no copy of the plane is laid out).
  long writesSinceUpload(const Runtime& rt) const {
    if (!uploaded_.data) return 0;
    return buffer_.template countChanged<T>(
        rt, DeltaBaseline::madeBy([this](size_t b, char* out) {
          const size_t first = b * kDeltaBlockBytes, bytes = std::min(kDeltaBlockBytes, buffer_.totalBytes() - first);
          layOutRange(uploaded_, first / sizeof(T), bytes / sizeof(T), reinterpret_cast<T*>(out));
        }));
  }

  /// Output layout: every element, guards included, set to `sentinel`.
  void fill(const Runtime& rt, const T& sentinel) { buffer_.fillAll(rt, sentinel); }

  /// Image rows `rows` (each < height), `width` values each, in that order: a sample of the plane.
  std::vector<T> downloadRows(const Runtime& rt, const std::vector<int>& rows) const {
    std::vector<std::pair<size_t, size_t>> ranges;
    for (int y : rows) ranges.emplace_back(sizeof(T) * size_t(y) * pitch_, sizeof(T) * size_t(width_));
    const std::string bytes = buffer_.readRanges(rt, ranges);
    std::vector<T> values(bytes.size() / sizeof(T));
    std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
    return values;
  }

  /// The image (width*height, unpadded); counts every element outside it that no longer holds `sentinel`.
  /// Only the blocks the read-back says changed are looked at: the others hold the sentinel.
  std::vector<T> download(const Runtime& rt, const T& sentinel, WriteAudit* audit) const {
    std::vector<T> image(size_t(width_) * height_, sentinel);
    WriteAudit a;
    a.imageValues = long(image.size());
    long written = 0;  // image values that no longer hold the sentinel
    buffer_.template visitChangedAgainstFill<T>(rt, sentinel, [&](size_t first, const T* values, size_t count) {
      forEachSegment(first, count, [&](const Segment& seg) {
        const T* v = values + (seg.first - first);
        for (size_t k = 0; k < seg.count; ++k) {
          if (std::memcmp(&v[k], &sentinel, sizeof(T)) == 0) continue;
          if (seg.where == Segment::FrontGuard) {
            ++a.guardBefore;
          } else if (seg.where == Segment::BackGuard) {
            ++a.guardAfter;
          } else if (seg.y >= size_t(height_)) {
            if (a.firstRowBelow < 0) a.firstRowBelow = int(seg.y);
            ++a.belowImage;
          } else if (seg.x + k < size_t(width_)) {
            image[seg.y * width_ + seg.x + k] = v[k];
            ++written;
          } else {
            ++a.padding;
          }
        }
      });
    });
    a.untouched = a.imageValues - written;
    if (audit) *audit = a;
    return image;
  }

 private:
  struct Upload {
    const T* data = nullptr;
    T pad{}, below{}, guard{};
  };

  /// Consecutive values of the allocation in one place: a guard, or a row's columns from x on.
  struct Segment {
    enum Where { FrontGuard, Row, BackGuard } where;
    size_t first, count;  ///< values [first, first + count) of the allocation
    size_t y, x;          ///< a Row's row (below the image from `height` on), and the column of `first`
  };

  /// Values [first, first + count) of the allocation, in order, as segments: what both the upload's
  /// layout and the audit of a read-back walk.
  template <typename F>
  void forEachSegment(size_t first, size_t count, F f) const {
    const size_t front = buffer_.frontBytes() / sizeof(T), data = size_t(pitch_) * rows_, end = first + count;
    size_t i = first;
    if (i < end && i < front) {
      const size_t n = std::min(end, front) - i;
      f(Segment{Segment::FrontGuard, i, n, 0, 0});
      i += n;
    }
    while (i < end && i < front + data) {
      const size_t d = i - front, y = d / pitch_;
      const size_t n = std::min(end, front + (y + 1) * pitch_) - i;  // the rest of the row in range
      f(Segment{Segment::Row, i, n, y, d % pitch_});
      i += n;
    }
    if (i < end) f(Segment{Segment::BackGuard, i, end - i, 0, 0});
  }

  /// The upload's layout of values [first, first + count) of the allocation into `out`.
  void layOutRange(const Upload& u, size_t first, size_t count, T* out) const {
    forEachSegment(first, count, [&](const Segment& seg) {
      if (seg.where != Segment::Row) {
        out = std::fill_n(out, seg.count, u.guard);
      } else if (seg.y < size_t(height_)) {
        const size_t fromData = seg.x < size_t(width_) ? std::min(seg.count, size_t(width_) - seg.x) : 0;
        const T* row = u.data + seg.y * width_ + seg.x;
        out = std::copy(row, row + fromData, out);
        out = std::fill_n(out, seg.count - fromData, u.pad);
      } else {
        out = std::fill_n(out, seg.count, u.below);
      }
    });
  }

  /// The upload's layout into `whole` (totalBytes() of it).
  void layOut(const Upload& u, T* whole) const { layOutRange(u, 0, buffer_.totalBytes() / sizeof(T), whole); }

  int width_, height_, pitch_, rows_;
  GuardedBuffer buffer_;
  Upload uploaded_;
};

}  // namespace clgrade
