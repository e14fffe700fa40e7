#include "roster/roster_match.h"

#include <algorithm>
#include <regex>
#include <set>

#include "util/archive.h"
#include "util/unicode.h"

namespace clgrade {
namespace {

bool isSeparator(char c) {
  return c == '_' || c == ' ' || c == '\t' || c == '-' || c == '(' || c == ')' || c == '[' || c == ']' || c == ',';
}

/// The words of `text` once folded, in both spellings of umlauts ("müller" gives "muller" and "mueller").
std::set<std::string> words(const std::string& text) {
  std::set<std::string> out;
  for (bool transliterate : {false, true}) {
    const std::string folded = foldName(text, transliterate);
    std::string word;
    for (char c : folded + " ") {
      if (!isSeparator(c)) {
        word += c;
        continue;
      }
      if (!word.empty()) out.insert(word);
      word.clear();
    }
  }
  return out;
}

/// Whether `value` (an id, a login, an email: one word, or several for a value with separators) is
/// in the submission's words.
bool hasWord(const std::set<std::string>& submissionWords, const std::string& value) {
  if (value.empty()) return false;
  const std::set<std::string> valueWords = words(value);
  if (valueWords.empty()) return false;
  for (const std::string& w : valueWords)
    if (!submissionWords.count(w)) return false;
  return true;
}

/// Every word of the student's name is a word of the submission's (words of one letter aside: an
/// initial says too little), and at least one word of two letters or more is.
bool hasName(const std::set<std::string>& submissionWords, const std::string& name) {
  bool any = false;
  // One spelling of the name must match as a whole: both spellings of each word are in words(name).
  for (bool transliterate : {false, true}) {
    std::set<std::string> nameWords;
    std::string word;
    for (char c : foldName(name, transliterate) + " ") {
      if (!isSeparator(c)) {
        word += c;
        continue;
      }
      if (word.size() > 1) nameWords.insert(word);
      word.clear();
    }
    if (nameWords.empty()) continue;
    bool all = true;
    for (const std::string& w : nameWords) all = all && submissionWords.count(w) > 0;
    any = any || all;
  }
  return any;
}

/// The part of a folder name that names its student: without the numbers and suffixes an LMS's
/// download adds (they are no student id, and a Moodle folder in flat mode ends with the uploaded
/// file's name, which the student chose): Moodle's "Ada Lovelace_1234567_assignsubmission_file_x" is
/// "Ada Lovelace", ILIAS's "Lovelace_Ada_alovelace_6789" is "Lovelace_Ada_alovelace".
std::string subjectOf(const std::string& submission) {
  static const std::regex moodle("^([^_]*)_[0-9]+_assignsubmission_.*$");
  static const std::regex ilias("^([^_]+_.+_[^_]+)_[0-9]+$");
  std::smatch m;
  if (std::regex_match(submission, m, moodle) || std::regex_match(submission, m, ilias)) return m[1].str();
  return submission;
}

std::string stemOf(const std::string& submission) {
  const std::string stem = archiveStem(submission);
  return stem.empty() ? submission : stem;
}

std::string describe(const Roster& roster, const std::vector<size_t>& students) {
  std::string out;
  for (size_t i : students) {
    const RosterStudent& s = roster.students[i];
    out += (out.empty() ? "" : " and ") + s.id + (s.name.empty() ? "" : " (" + s.name + ")");
  }
  return out;
}

}  // namespace

RosterMatch matchRoster(const Roster& roster, const std::vector<std::string>& submissionsIn) {
  RosterMatch m;
  std::vector<std::string> submissions = submissionsIn;
  std::sort(submissions.begin(), submissions.end());
  std::map<size_t, std::vector<std::string>> claims;  // student -> the submissions matched to them
  // 1. the submission column, exactly (an archive's suffix optional on either side)
  std::map<std::string, size_t> named;
  for (size_t i = 0; i < roster.students.size(); ++i)
    if (!roster.students[i].submission.empty()) named[nfc(stemOf(roster.students[i].submission))] = i;
  for (const std::string& sub : submissions) {
    const auto it = named.find(nfc(stemOf(sub)));
    if (it != named.end()) {
      claims[it->second].push_back(sub);
      m.how[sub] = "submission column";
      continue;
    }
    const std::set<std::string> w = words(subjectOf(sub));
    std::vector<size_t> byLogin, byId, byName;
    for (size_t i = 0; i < roster.students.size(); ++i) {
      const RosterStudent& s = roster.students[i];
      if (!s.submission.empty()) continue;  // matched by its column only
      if (hasWord(w, s.login) || hasWord(w, s.email)) byLogin.push_back(i);
      if (hasWord(w, s.id)) byId.push_back(i);
      if (!s.name.empty() && hasName(w, s.name)) byName.push_back(i);
    }
    // A login, email or id is one word of the name, and a common word can be one ("lee"), as can a
    // number: where the folder also spells a student's name, the two must point at the same student.
    std::vector<size_t> identified = byLogin.empty() ? byId : byLogin;
    std::vector<size_t> chosen;
    std::string how;
    if (!identified.empty() && !byName.empty()) {
      for (size_t i : identified)
        if (std::find(byName.begin(), byName.end(), i) != byName.end()) chosen.push_back(i);
      how = byLogin.empty() ? "id and name" : "login or email and name";
      if (chosen.empty()) {
        m.problems.push_back("submission '" + sub + "' has the " + (byLogin.empty() ? "id" : "login or email") +
                             " of " + describe(roster, identified) + " but the name of " + describe(roster, byName) +
                             ": not matched (give it in the roster's submission column)");
        m.uncertain.insert(identified.begin(), identified.end());
        m.uncertain.insert(byName.begin(), byName.end());
        continue;
      }
    } else if (!identified.empty()) {
      chosen = identified, how = byLogin.empty() ? "id" : "login or email";
    } else if (!byName.empty()) {
      chosen = byName, how = "name";
    }
    if (chosen.empty()) continue;
    if (chosen.size() > 1) {
      m.problems.push_back("submission '" + sub + "' could be " + describe(roster, chosen) + " (by " + how +
                           "): not matched (give it in the roster's submission column)");
      m.uncertain.insert(chosen.begin(), chosen.end());
      continue;
    }
    claims[chosen.front()].push_back(sub);
    m.how[sub] = how;
  }
  for (const auto& [student, subs] : claims) {
    if (subs.size() == 1) {
      m.studentOf[subs.front()] = student;
      continue;
    }
    m.contested[student] = subs;
    std::string list;
    for (const std::string& s : subs) {
      list += (list.empty() ? "'" : "', '") + s;
      m.how.erase(s);
    }
    m.problems.push_back("student " + describe(roster, {student}) + " has " + std::to_string(subs.size()) +
                         " submissions (" + list + "'): none is matched (remove all but one, or name one in the "
                         "roster's submission column)");
  }
  for (const std::string& sub : submissions)
    if (!m.studentOf.count(sub)) m.unmatched.push_back(sub);
  for (size_t i = 0; i < roster.students.size(); ++i)
    if (!claims.count(i) && !m.uncertain.count(i)) m.missing.push_back(i);
  return m;
}

}  // namespace clgrade
