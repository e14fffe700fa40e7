// Names that look alike: Unicode normalisation (utf8proc) and a spelling that tells them apart.
#pragma once

#include <string>

namespace clgrade {

/// `text` in Normalization Form C ("e" followed by U+0301 becomes the one character "é"), so that a
/// name typed on one system equals the same name typed on another. Text that is not valid UTF-8
/// comes back unchanged.
std::string nfc(const std::string& text);

/// `text` as names are compared across systems that spell them differently: compatibility
/// decomposition, accents stripped, case folded ("Müller" and "MULLER" are both "muller"; "ﬁ" is "fi").
/// German umlauts and ß also have an ASCII spelling some systems write instead ("Mueller"):
/// `transliterate` gives that one ("mueller", "strasse"). Text that is not valid UTF-8 comes back
/// case folded in ASCII only.
std::string foldName(const std::string& text, bool transliterate = false);

/// Whether `text` is valid UTF-8 (a file saved as Latin-1 is not, as soon as it has an accent).
bool isValidUtf8(const std::string& text);

/// Every character outside printable ASCII as `\u00e9` (`\U0001f600` beyond the BMP), each byte that
/// is not UTF-8 as `\xff`: two names that look the same on screen are told apart ("Jos\u00e9" and
/// "Jose\u0301").
std::string codePoints(const std::string& text);

}  // namespace clgrade
