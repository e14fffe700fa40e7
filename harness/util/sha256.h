// SHA-256 of bytes and files, for the reproducibility block of every report.
#pragma once

#include <string>

namespace clgrade {

/// Lower-case hex SHA-256 of `bytes`.
std::string sha256Hex(const std::string& bytes);

/// Lower-case hex SHA-256 of a file's contents (up to 4 GiB); empty string if it cannot be read.
std::string sha256File(const std::string& path);

}  // namespace clgrade
