#include "store/image_store.h"

#include <future>

#include "image/pfm.h"
#include "util/files.h"
#include "util/mapped_file.h"
#include "util/sha256.h"
#include "util/work_time.h"

namespace clgrade {
namespace {

/// The largest stored file read back: a 4096 x 4096 scene's colour is 192 MiB; 1 GiB is the most
/// a PFM may hold (image/pfm.cpp).
constexpr size_t kMaxStoredBytes = (size_t(1) << 30) + 1024;

bool isHex(const std::string& s) {
  if (s.size() != 64) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

}  // namespace

bool ImageStore::storableName(const std::string& name) {
  if (name.empty() || name.size() > 200 || name[0] == '.') return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
          c == '.'))
      return false;
  return true;
}

std::optional<Image> ImageStore::image(const std::string& name, std::string* sha256) const {
  if (folder_.empty() || !storableName(name)) return std::nullopt;
  const work_time::Scope timer("stored reads");
  const std::string path = folder_ + "/" + name + ".pfm";
  try {
    std::string line;
    if (!readFile(path + ".sha256", &line, nullptr, 4096)) return std::nullopt;
    const std::string hash = line.substr(0, line.find(' '));
    if (!isHex(hash) || line != hash + "  " + name + ".pfm\n") return std::nullopt;
    // Mapped, not copied: a store's files are replaced by rename, never cut short in place.
    MappedFile file;
    if (!file.open(path, kMaxStoredBytes, nullptr)) return std::nullopt;
    const std::string_view bytes = file.bytes();
    // The hash and the parse side by side: each takes 0.1 to 0.2 s for a 4096 x 4096 colour image.
    auto hashed = std::async(std::launch::async, [bytes] { return sha256Hex(bytes); });
    Image image;
    const bool parsed = parsePfm(bytes, &image, nullptr);
    if (hashed.get() != hash || !parsed) return std::nullopt;
    if (sha256) *sha256 = hash;
    return image;
  } catch (const std::exception&) {  // no memory or no thread for it: made instead
    return std::nullopt;
  }
}

bool ImageStore::keep(const std::string& name, const Image& image, const std::string& sha256, std::string* err) const {
  if (!writable_ || folder_.empty()) return true;
  if (!storableName(name)) {
    if (err) *err = "'" + name + "' is not a name a store keeps";
    return false;
  }
  const std::string bytes = pfmBytes(image);
  return keepBytes(name, bytes, sha256.empty() ? sha256Hex(bytes) : sha256, err);
}

bool ImageStore::keepBytes(const std::string& name, const std::string& pfm, const std::string& sha256,
                           std::string* err) const {
  if (!writable_ || folder_.empty()) return true;
  if (!storableName(name) || !isHex(sha256)) {
    if (err) *err = "'" + name + "' is not a name a store keeps";
    return false;
  }
  const work_time::Scope timer("stored writes");
  const std::string path = folder_ + "/" + name + ".pfm";
  // The image first: a reader that finds the new line finds the bytes it names (or, written by a
  // grade beside this one, the same bytes).
  return writeFileAtomically(path, pfm, err, false) &&
         writeFileAtomically(path + ".sha256", sha256 + "  " + name + ".pfm\n", err, false);
}

}  // namespace clgrade
