#include "util/markup.h"

namespace clgrade {
namespace {

const char kReplacement[] = "\xef\xbf\xbd";  // U+FFFD

bool continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

/// Code points HTML5 calls parse errors and XML 1.0 does not allow (besides surrogates, which
/// cannot be decoded from valid UTF-8): controls other than tab, LF, CR, and noncharacters.
bool refused(unsigned cp) {
  if (cp < 0x20) return cp != 0x09 && cp != 0x0A && cp != 0x0D;
  if (cp >= 0x7F && cp <= 0x9F) return true;
  if (cp >= 0xFDD0 && cp <= 0xFDEF) return true;
  return (cp & 0xFFFE) == 0xFFFE;
}

/// The length of the valid UTF-8 sequence at s[i] and its code point; 0 for an invalid byte.
size_t decode(const unsigned char* s, size_t n, size_t i, unsigned* cp) {
  const unsigned char b = s[i];
  if (b < 0x80) {
    *cp = b;
    return 1;
  }
  if (b >= 0xC2 && b <= 0xDF && i + 1 < n && continuation(s[i + 1])) {
    *cp = ((b & 0x1Fu) << 6) | (s[i + 1] & 0x3Fu);
    return 2;
  }
  if (b >= 0xE0 && b <= 0xEF) {
    const unsigned char lo = b == 0xE0 ? 0xA0 : 0x80, hi = b == 0xED ? 0x9F : 0xBF;
    if (i + 2 < n && s[i + 1] >= lo && s[i + 1] <= hi && continuation(s[i + 2])) {
      *cp = ((b & 0x0Fu) << 12) | ((s[i + 1] & 0x3Fu) << 6) | (s[i + 2] & 0x3Fu);
      return 3;
    }
  }
  if (b >= 0xF0 && b <= 0xF4) {
    const unsigned char lo = b == 0xF0 ? 0x90 : 0x80, hi = b == 0xF4 ? 0x8F : 0xBF;
    if (i + 3 < n && s[i + 1] >= lo && s[i + 1] <= hi && continuation(s[i + 2]) && continuation(s[i + 3])) {
      *cp = ((b & 0x07u) << 18) | ((s[i + 1] & 0x3Fu) << 12) | ((s[i + 2] & 0x3Fu) << 6) | (s[i + 3] & 0x3Fu);
      return 4;
    }
  }
  return 0;
}

}  // namespace

std::string terminalText(const std::string& text) {
  static const char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  for (size_t i = 0; i < n;) {
    unsigned cp = 0;
    const size_t length = decode(s, n, i, &cp);
    if (length == 0) {  // a byte that is not UTF-8: shown, never passed on (0x9b alone is CSI to some terminals)
      out += "\\x";
      out += hex[s[i] >> 4];
      out += hex[s[i] & 15];
      ++i;
      continue;
    }
    if ((cp < 0x20 && cp != '\t' && cp != '\n') || cp == 0x7F) {
      out += "\\x";
      out += hex[cp >> 4];
      out += hex[cp & 15];
    } else if ((cp >= 0x80 && cp <= 0x9F) || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069)) {
      out += "\\u";
      for (int shift = 12; shift >= 0; shift -= 4) out += hex[(cp >> shift) & 15];
    } else {
      out.append(text, i, length);
    }
    i += length;
  }
  return out;
}

std::string terminalName(const std::string& name) {
  std::string out;
  for (const char c : terminalText(name)) {
    if (c == '\n')
      out += "\\n";
    else if (c == '\t')
      out += "\\t";
    else
      out += c;
  }
  return out;
}

std::string cleanText(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  size_t i = 0;
  while (i < n) {
    const unsigned char b = s[i];
    size_t length = 0;
    unsigned cp = 0;
    if (b < 0x80) {
      length = 1;
      cp = b;
    } else if (b >= 0xC2 && b <= 0xDF) {
      if (i + 1 < n && continuation(s[i + 1])) {
        length = 2;
        cp = ((b & 0x1Fu) << 6) | (s[i + 1] & 0x3Fu);
      }
    } else if (b >= 0xE0 && b <= 0xEF) {
      const unsigned char lo = b == 0xE0 ? 0xA0 : 0x80, hi = b == 0xED ? 0x9F : 0xBF;
      if (i + 2 < n && s[i + 1] >= lo && s[i + 1] <= hi && continuation(s[i + 2])) {
        length = 3;
        cp = ((b & 0x0Fu) << 12) | ((s[i + 1] & 0x3Fu) << 6) | (s[i + 2] & 0x3Fu);
      }
    } else if (b >= 0xF0 && b <= 0xF4) {
      const unsigned char lo = b == 0xF0 ? 0x90 : 0x80, hi = b == 0xF4 ? 0x8F : 0xBF;
      if (i + 3 < n && s[i + 1] >= lo && s[i + 1] <= hi && continuation(s[i + 2]) && continuation(s[i + 3])) {
        length = 4;
        cp = ((b & 0x07u) << 18) | ((s[i + 1] & 0x3Fu) << 12) | ((s[i + 2] & 0x3Fu) << 6) | (s[i + 3] & 0x3Fu);
      }
    }
    if (length == 0) {  // an invalid byte: replaced alone, the next one is decoded afresh
      out += kReplacement;
      ++i;
      continue;
    }
    if (refused(cp))
      out += kReplacement;
    else
      out.append(text, i, length);
    i += length;
  }
  return out;
}

std::string htmlEscape(const std::string& text) {
  const std::string clean = cleanText(text);
  std::string out;
  out.reserve(clean.size() + clean.size() / 8);
  for (char c : clean) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string xmlEscape(const std::string& text) {
  const std::string clean = cleanText(text);
  std::string out;
  out.reserve(clean.size() + clean.size() / 8);
  for (char c : clean) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      case '\t':
        out += "&#9;";
        break;
      case '\n':
        out += "&#10;";
        break;
      case '\r':
        out += "&#13;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace clgrade
