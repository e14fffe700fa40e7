// ILIAS has no marks import in its exercise object (only per-row entry, and feedback files by zip);
// the ExerciseStatusFile plugin (ilifau/ExerciseStatusFile, StudOn) adds one: status.csv with exactly
// these columns, rows applied when update is 1, keyed by usr_id (the digits ILIAS's "Download all
// submissions" ends every folder name with: Lastname_Firstname_login_usrid), status one of
// notgraded, passed, failed. Without the plugin the file is the table a tutor types the marks from.
#include <map>

#include "lms/lms_export.h"
#include "report/text.h"
#include "util/csv.h"

namespace clgrade {
namespace {

/// Lastname, firstname and login from an ILIAS folder name, read from the right (names may hold "_").
void fromFolder(const std::string& folder, std::string* last, std::string* first, std::string* login) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t at = folder.find('_'); at != std::string::npos; at = folder.find('_', start)) {
    parts.push_back(folder.substr(start, at - start));
    start = at + 1;
  }
  parts.push_back(folder.substr(start));
  if (parts.size() < 4) return;
  *login = parts[parts.size() - 2];
  *last = parts[0];
  for (size_t i = 1; i + 2 < parts.size(); ++i) *first += (first->empty() ? "" : "_") + parts[i];
}

}  // namespace

std::string iliasStatusCsv(const ClassGrades& grades, const ExportSettings& settings,
                           std::vector<std::string>* warnings) {
  std::string csv = csvRow(
      {"update", "usr_id", "login", "lastname", "firstname", "status", "mark", "notice", "comment", "plagiarism",
       "plag_comment"});
  // Two folders ending with one user id would both set that user's mark: neither is written.
  std::map<std::string, int> uses;
  for (const ClassGrade& g : grades.grades)
    if (g.handedIn) ++uses[iliasUserId(g.submission)];
  for (const ClassGrade& g : grades.grades) {
    if (!g.handedIn) {
      warnings->push_back(whoIs(g) + ": handed in nothing: no ILIAS user id for them here: not in the file");
      continue;
    }
    const std::string user = iliasUserId(g.submission);
    if (user.empty()) {
      warnings->push_back(whoIs(g) + ": its folder name does not end with an ILIAS user id "
                                     "(Lastname_Firstname_login_usrid): not in the file");
      continue;
    }
    if (uses[user] > 1) {
      warnings->push_back(whoIs(g) + ": ILIAS user " + user + " has " + std::to_string(uses[user]) +
                          " folders: not in the file (enter the mark in ILIAS)");
      continue;
    }
    if (!g.graded) {
      warnings->push_back(whoIs(g) + ": no grade (" + g.problem + "): not in the file");
      continue;
    }
    std::string last, first, login;
    fromFolder(g.submission, &last, &first, &login);
    // The folder's parts are the student's text: kept from running as a formula in a spreadsheet.
    last = spreadsheetSafe(last), first = spreadsheetSafe(first), login = spreadsheetSafe(login);
    if (g.student && !g.student->login.empty()) login = g.student->login;
    const std::string status = !settings.passAt ? "notgraded" : g.total >= *settings.passAt ? "passed" : "failed";
    csv += csvRow({"1", user, login, last, first, status, formatPoints(g.total), "", g.feedback, "", ""});
  }
  return csv;
}

}  // namespace clgrade
