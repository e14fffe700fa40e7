// Text that reaches an HTML, XML or SVG document may come from a student (kernel source lines,
// compiler logs, file names, chart labels) and may hold markup or bytes that are not UTF-8: one
// place turns any bytes into character data those documents accept.
#pragma once

#include <string>

namespace clgrade {

/// Valid UTF-8 that XML 1.0 and HTML5 accept as character data: each byte of an invalid sequence
/// (overlong, surrogate, truncated, stray continuation) becomes U+FFFD, and so do C0 controls other
/// than tab, LF and CR, DEL and C1 controls, and U+FFFE / U+FFFF.
std::string cleanText(const std::string& text);

/// cleanText, then & < > " ' as character references: safe in HTML text and in quoted attributes.
std::string htmlEscape(const std::string& text);

/// cleanText, then & < > " ' and tab, LF, CR as character references (so attribute values keep
/// their line breaks through XML attribute normalization).
std::string xmlEscape(const std::string& text);

/// Text for a terminal: every control character that could drive it (ESC and the other C0 controls
/// but tab and LF, DEL) shown as `\x1b`, the C1 controls U+0080..U+009F and the bidirectional
/// overrides (which reorder what is shown) as `\u009b`, and each byte that is not valid UTF-8 (a
/// lone 0x9b is CSI to some terminals) as `\x9b`: what a student wrote cannot set the window title,
/// write the clipboard, clear the screen or fake a line of the grader's own output. Valid UTF-8
/// otherwise passes unchanged.
std::string terminalText(const std::string& text);

/// A name (a file's, a submission folder's) on one line of a terminal: terminalText, and the line
/// breaks and tabs it lets through shown as \n and \t (a name with a newline would otherwise fake a
/// line of the grader's own output, a progress line or a message).
std::string terminalName(const std::string& name);

}  // namespace clgrade
