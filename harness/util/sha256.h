// SHA-256 of bytes and files, for the reproducibility block of every report.
#pragma once

#include <string>
#include <string_view>

namespace clgrade {

/// Lower-case hex SHA-256 of `bytes`.
std::string sha256Hex(std::string_view bytes);

/// Lower-case hex SHA-256 of a file's contents (up to 4 GiB); empty string if it cannot be read.
std::string sha256File(const std::string& path);

}  // namespace clgrade
