// A folder of images kept by their SHA-256: `NAME.pfm` beside `NAME.pfm.sha256` (the line `sha256sum`
// writes, so a person checks the folder with `sha256sum -c *.sha256`). What is read back is what was
// written: an image whose bytes do not hash to the line beside it (a torn copy, a bad disk, an edit)
// is not returned, and the caller makes it again.
#pragma once

#include <optional>
#include <string>

#include "image/image.h"

namespace clgrade {

class ImageStore {
 public:
  /// `writable`: keep() writes (the trusted side); otherwise it does nothing (a runner's view, mounted
  /// read-only in its sandbox).
  ImageStore(std::string folder, bool writable) : folder_(std::move(folder)), writable_(writable) {}

  /// The image stored as `name` (letters, digits, '_', '-', '.': anything else is never stored),
  /// its PFM bytes checked against the hash beside them; with `sha256`, that hash (the image's golden
  /// hash, as reports give it). Nothing when it is missing, unreadable, does not match or does not
  /// fit in memory.
  std::optional<Image> image(const std::string& name, std::string* sha256 = nullptr) const;

  /// Keeps `image` as `name`; `sha256`, when known, is the hash of its PFM bytes (computed otherwise).
  /// Written without fsync (a file torn by a crash fails its check). False with `err` when it cannot
  /// (a full disk, a read-only store): a store only saves time, so callers go on without it.
  bool keep(const std::string& name, const Image& image, const std::string& sha256 = "",
            std::string* err = nullptr) const;
  /// keep() of an image's PFM bytes (pfmBytes) and their hash, made once by a caller that hashes too.
  bool keepBytes(const std::string& name, const std::string& pfm, const std::string& sha256,
                 std::string* err = nullptr) const;

  const std::string& folder() const { return folder_; }
  bool writable() const { return writable_; }

  /// Whether `name` can be a stored name (see image()).
  static bool storableName(const std::string& name);

 private:
  std::string folder_;
  bool writable_;
};

}  // namespace clgrade
