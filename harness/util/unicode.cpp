#include "util/unicode.h"

#include <utf8proc.h>

#include <cstdio>
#include <cstdlib>
#include <utility>

namespace clgrade {

std::string nfc(const std::string& text) {
  utf8proc_uint8_t* composed = nullptr;
  // utf8proc_NFC's options, with the length given (a name is not NUL-terminated for utf8proc's sake).
  const utf8proc_ssize_t length =
      utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(text.data()), utf8proc_ssize_t(text.size()), &composed,
                   utf8proc_option_t(UTF8PROC_STABLE | UTF8PROC_COMPOSE));
  if (length < 0) return text;  // not UTF-8 (or out of memory): nothing to normalise
  std::string out(reinterpret_cast<const char*>(composed), size_t(length));
  std::free(composed);
  return out;
}

std::string foldName(const std::string& textIn, bool transliterate) {
  std::string text = nfc(textIn);
  if (transliterate) {
    // Before the accents go: "ü" would otherwise become "u".
    static const std::pair<const char*, const char*> german[] = {{"\u00e4", "ae"}, {"\u00f6", "oe"}, {"\u00fc", "ue"},
                                                                 {"\u00c4", "Ae"}, {"\u00d6", "Oe"}, {"\u00dc", "Ue"},
                                                                 {"\u00df", "ss"}};
    for (const auto& [from, to] : german)
      for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + 1))
        text.replace(at, std::string(from).size(), to);
  }
  utf8proc_uint8_t* folded = nullptr;
  const utf8proc_ssize_t length =
      utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(text.data()), utf8proc_ssize_t(text.size()), &folded,
                   utf8proc_option_t(UTF8PROC_STABLE | UTF8PROC_COMPAT | UTF8PROC_DECOMPOSE | UTF8PROC_STRIPMARK |
                                     UTF8PROC_CASEFOLD));
  if (length < 0) {
    for (char& c : text)
      if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
    return text;
  }
  std::string out(reinterpret_cast<const char*>(folded), size_t(length));
  std::free(folded);
  return out;
}

bool isValidUtf8(const std::string& text) {
  const auto* s = reinterpret_cast<const utf8proc_uint8_t*>(text.data());
  const utf8proc_ssize_t n = utf8proc_ssize_t(text.size());
  for (utf8proc_ssize_t i = 0; i < n;) {
    utf8proc_int32_t c = 0;
    const utf8proc_ssize_t used = utf8proc_iterate(s + i, n - i, &c);
    if (used <= 0 || c < 0) return false;
    i += used;
  }
  return true;
}

std::string codePoints(const std::string& text) {
  std::string out;
  const auto* s = reinterpret_cast<const utf8proc_uint8_t*>(text.data());
  const utf8proc_ssize_t n = utf8proc_ssize_t(text.size());
  char buffer[16];
  for (utf8proc_ssize_t i = 0; i < n;) {
    utf8proc_int32_t cp = -1;
    const utf8proc_ssize_t length = utf8proc_iterate(s + i, n - i, &cp);
    if (length <= 0 || cp < 0) {
      std::snprintf(buffer, sizeof buffer, "\\x%02x", unsigned(s[i]));
      out += buffer;
      ++i;
      continue;
    }
    if (cp >= 0x20 && cp < 0x7F && cp != '\\') {
      out += char(cp);
    } else {
      std::snprintf(buffer, sizeof buffer, cp > 0xFFFF ? "\\U%08x" : "\\u%04x", unsigned(cp));
      out += buffer;
    }
    i += length;
  }
  return out;
}

}  // namespace clgrade
