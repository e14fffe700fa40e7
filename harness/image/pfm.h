// PFM (portable float map) reading and writing, as the course framework stores images.
#pragma once

#include <string>
#include <string_view>

#include "image/image.h"

namespace clgrade {

/// Reads a `PF` (3 channels) or `Pf` (1 channel) file. The first stored row is y = 0 (no flip);
/// the sign of the scale is ignored (only little-endian files are accepted: a positive scale
/// means big-endian and is rejected with a message).
bool readPfm(const std::string& path, Image* out, std::string* err);

/// The image in a PFM file's `bytes` (as readPfm checks them); `where` starts every message.
bool parsePfm(std::string_view bytes, Image* out, std::string* err, const std::string& where = "PFM: ");

/// Writes 1 channel as `Pf`, 3 as `PF`, scale -1.0 (little-endian). Other channel counts fail.
bool writePfm(const std::string& path, const Image& img, std::string* err);

/// The exact bytes writePfm would write; used for hashing generated inputs.
std::string pfmBytes(const Image& img);

}  // namespace clgrade
