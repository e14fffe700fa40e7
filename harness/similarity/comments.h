// Comments taken out of a kernel before it is compared: sim_c ignores them itself, but the template's
// comments must not decide which of a student's lines are the template's (a student's code on the
// line of a template comment), and a comment opened on a template line must not turn the student's
// code after it into "comment" once that line is removed.
#pragma once

#include <string>

namespace clgrade {

/// `text` with every comment (// to the end of the line, /* to */) replaced by spaces, its line
/// breaks kept (so line numbers stay). String and character literals are kept as written (a "//"
/// inside one is no comment). Line splices (backslash-newline) are not interpreted: a rough C lexer,
/// enough for comparing texts.
std::string withoutComments(const std::string& text);

}  // namespace clgrade
