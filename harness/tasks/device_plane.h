// One image channel on the device, laid out as the course framework lays it out:
// `pitch` elements per row, `rows` rows (at least the image height), inside a guarded buffer.
#pragma once

#include <cstring>
#include <string>
#include <vector>

#include "cl/guarded_buffer.h"

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

  bool outsideBuffer() const { return guardBefore + guardAfter > 0; }
  /// Adds another plane's counts (one audit for all channels of a pass).
  void add(const WriteAudit& other);
  /// "wrote 12 values past the end of the buffer and 800 below the image (rows 575..)", empty if none.
  std::string describe(const std::string& what) const;
};

template <typename T>
class DevicePlane {
 public:
  /// `rows` >= height; guards of at least 16 rows (and 4 KiB) on each side.
  DevicePlane(const Runtime& rt, int width, int height, int pitch, int rows)
      : width_(width), height_(height), pitch_(pitch), rows_(rows),
        buffer_(rt, sizeof(T) * size_t(pitch) * rows, std::max<size_t>(4096, sizeof(T) * size_t(pitch) * 16)) {}

  const cl::Buffer& buffer() const { return buffer_.view(); }
  int pitch() const { return pitch_; }

  /// Input layout: image rows hold `data` (width*height, unpadded) and `pad` in padding columns;
  /// rows below the image hold `below`; the guards hold `guard`.
  void upload(const Runtime& rt, const T* data, const T& pad, const T& below, const T& guard) {
    std::vector<T> whole(buffer_.totalBytes() / sizeof(T), guard);
    T* base = whole.data() + buffer_.frontBytes() / sizeof(T);
    for (int y = 0; y < rows_; ++y)
      for (int x = 0; x < pitch_; ++x)
        base[size_t(y) * pitch_ + x] = y < height_ ? (x < width_ ? data[size_t(y) * width_ + x] : pad) : below;
    buffer_.writeAll(rt, whole);
  }

  /// Output layout: every element, guards included, set to `sentinel`.
  void fill(const Runtime& rt, const T& sentinel) {
    buffer_.writeAll(rt, std::vector<T>(buffer_.totalBytes() / sizeof(T), sentinel));
  }

  /// The image (width*height, unpadded); counts every element outside it that no longer holds `sentinel`.
  std::vector<T> download(const Runtime& rt, const T& sentinel, WriteAudit* audit) const {
    const std::vector<T> whole = buffer_.template readAll<T>(rt);
    const size_t front = buffer_.frontBytes() / sizeof(T);
    const size_t data = size_t(pitch_) * rows_;
    auto changed = [&](size_t i) { return std::memcmp(&whole[i], &sentinel, sizeof(T)) != 0; };
    WriteAudit a;
    for (size_t i = 0; i < front; ++i) a.guardBefore += changed(i);
    for (size_t i = front + data; i < whole.size(); ++i) a.guardAfter += changed(i);
    std::vector<T> image(size_t(width_) * height_);
    for (int y = 0; y < rows_; ++y) {
      for (int x = 0; x < pitch_; ++x) {
        const size_t i = front + size_t(y) * pitch_ + x;
        if (y < height_ && x < width_) {
          image[size_t(y) * width_ + x] = whole[i];
          ++a.imageValues;
          a.untouched += !changed(i);
        } else if (changed(i)) {
          if (y < height_) {
            ++a.padding;
          } else {
            if (a.firstRowBelow < 0) a.firstRowBelow = y;
            ++a.belowImage;
          }
        }
      }
    }
    if (audit) *audit = a;
    return image;
  }

 private:
  int width_, height_, pitch_, rows_;
  GuardedBuffer buffer_;
};

}  // namespace clgrade
