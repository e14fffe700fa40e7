#include "util/sha256.h"

#include <openssl/evp.h>

#include <cstdio>

#include "util/files.h"

namespace clgrade {

std::string sha256Hex(std::string_view bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr);
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < length; ++i) {
    out += kHex[digest[i] >> 4];
    out += kHex[digest[i] & 15];
  }
  return out;
}

std::string sha256File(const std::string& path) {
  std::string bytes;
  if (!readFile(path, &bytes, nullptr, size_t(4) << 30)) return "";
  return sha256Hex(bytes);
}

}  // namespace clgrade
