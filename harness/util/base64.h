// Base64 (RFC 4648, with padding, no line breaks): images inside HTML and JSON pages, and bytes that
// are not UTF-8 (a kernel file) inside a JSON record.
#pragma once

#include <string>

namespace clgrade {

std::string base64Encode(const std::string& bytes);

/// False for anything that is not base64 as base64Encode writes it.
bool base64Decode(const std::string& text, std::string* bytes);

}  // namespace clgrade
