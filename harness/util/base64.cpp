#include "util/base64.h"

#include <openssl/evp.h>

namespace clgrade {

std::string base64Encode(const std::string& bytes) {
  std::string out((bytes.size() + 2) / 3 * 4 + 1, '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
  out.resize(n < 0 ? 0 : size_t(n));
  return out;
}

bool base64Decode(const std::string& text, std::string* bytes) {
  if (text.size() % 4 != 0) return false;
  std::string out(text.size() / 4 * 3, '\0');
  const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(text.data()), static_cast<int>(text.size()));
  if (n < 0) return false;
  // EVP_DecodeBlock counts the padding's zero bytes too.
  size_t padding = 0;
  if (!text.empty() && text.back() == '=') padding = text.size() > 1 && text[text.size() - 2] == '=' ? 2 : 1;
  out.resize(size_t(n) - padding);
  *bytes = std::move(out);
  return true;
}

}  // namespace clgrade
