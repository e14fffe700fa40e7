#include "roster/roster.h"

#include <filesystem>
#include <map>
#include <optional>

#include "util/archive.h"
#include "util/csv.h"
#include "util/files.h"
#include "util/unicode.h"

namespace clgrade {
namespace {

enum class Column { Id, Name, FirstName, LastName, Email, Login, Submission };

/// A header cell as compared: lower case, no spaces, "_", "-" or ".".
std::string key(const std::string& cell) {
  std::string out;
  for (char c : cell) {
    if (c == ' ' || c == '_' || c == '-' || c == '.' || c == '\t') continue;
    out += (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
  }
  return out;
}

std::optional<Column> columnOf(const std::string& cell) {
  static const std::map<std::string, Column> names = {
      {"id", Column::Id},
      {"studentid", Column::Id},
      {"studentnumber", Column::Id},
      {"sisuserid", Column::Id},
      {"idnumber", Column::Id},
      {"matriculationnumber", Column::Id},
      {"matrikelnummer", Column::Id},
      {"name", Column::Name},
      {"fullname", Column::Name},
      {"student", Column::Name},
      {"studentname", Column::Name},
      {"firstname", Column::FirstName},
      {"givenname", Column::FirstName},
      {"vorname", Column::FirstName},
      {"lastname", Column::LastName},
      {"surname", Column::LastName},
      {"familyname", Column::LastName},
      {"nachname", Column::LastName},
      {"email", Column::Email},
      {"emailaddress", Column::Email},
      {"login", Column::Login},
      {"username", Column::Login},
      {"sisloginid", Column::Login},
      {"submission", Column::Submission},
      {"folder", Column::Submission},
      {"archive", Column::Submission},
  };
  const auto it = names.find(key(cell));
  if (it == names.end()) return std::nullopt;
  return it->second;
}

std::string trim(const std::string& s) {
  const size_t begin = s.find_first_not_of(" \t");
  if (begin == std::string::npos) return "";
  return s.substr(begin, s.find_last_not_of(" \t") - begin + 1);
}

}  // namespace

bool parseRoster(const std::string& text, const std::string& source, Roster* roster,
                 std::vector<std::string>* errors) {
  const size_t before = errors->size();
  roster->source = source;
  std::vector<CsvRecord> records;
  std::string err;
  if (!parseCsv(text, &records, &err)) errors->push_back(source + ":" + err.substr(5));  // "line N: ..." -> "N: ..."
  if (records.empty()) {
    errors->push_back(source + ": no header: the first line names the columns (id, name, email, login, submission)");
    return false;
  }
  std::map<Column, size_t> at;
  for (size_t i = 0; i < records[0].fields.size(); ++i) {
    const std::optional<Column> c = columnOf(trim(records[0].fields[i]));
    if (!c) continue;
    // Canvas's export has both "ID" (Canvas's own user id) and "SIS User ID" (the student id): a
    // column that says whose id it is wins over a bare "id".
    if (*c == Column::Id && at.count(*c) && key(records[0].fields[at[*c]]) == "id" && key(records[0].fields[i]) != "id") {
      at[*c] = i;
      continue;
    }
    if (*c == Column::Id && at.count(*c) && key(records[0].fields[i]) == "id") continue;
    if (at.count(*c)) {
      errors->push_back(source + ":" + std::to_string(records[0].line) + ": two columns mean the same: '" +
                        records[0].fields[at[*c]] + "' and '" + records[0].fields[i] + "'");
      continue;
    }
    at[*c] = i;
  }
  if (!at.count(Column::Id)) {
    const bool semicolons = records[0].fields.size() == 1 && records[0].fields[0].find(';') != std::string::npos;
    errors->push_back(source + ":" + std::to_string(records[0].line) +
                      ": no student id column (one of: id, student id, student number, sis user id, id number, "
                      "matriculation number)" +
                      (semicolons ? "; the columns seem to be separated by ';': save the file as CSV with commas" : ""));
    return false;
  }
  std::map<std::string, size_t> seenId, seenLogin, seenSubmission;
  auto once = [&](std::map<std::string, size_t>& seen, const std::string& what, const std::string& value,
                  size_t line) {
    if (value.empty()) return true;
    const auto [it, fresh] = seen.emplace(value, line);
    if (fresh) return true;
    errors->push_back(source + ":" + std::to_string(line) + ": " + what + " '" + value + "' is given twice (first on line " +
                      std::to_string(it->second) + ")");
    return false;
  };
  for (size_t r = 1; r < records.size(); ++r) {
    const CsvRecord& record = records[r];
    auto field = [&](Column c) {
      const auto i = at.find(c);
      return i == at.end() || i->second >= record.fields.size() ? std::string() : trim(record.fields[i->second]);
    };
    bool utf8 = true;
    for (const std::string& f : record.fields) utf8 = utf8 && isValidUtf8(f);
    if (!utf8) {
      errors->push_back(source + ":" + std::to_string(record.line) +
                        ": not UTF-8 (saved as Latin-1?): save the file as UTF-8, so that names match");
      continue;
    }
    // Canvas's gradebook export has a "Points Possible" row under its header: no student.
    if (!record.fields.empty() && trim(record.fields[0]) == "Points Possible") continue;
    RosterStudent s;
    s.line = record.line;
    s.id = field(Column::Id);
    s.name = field(Column::Name);
    if (s.name.empty()) {
      const std::string first = field(Column::FirstName), last = field(Column::LastName);
      s.name = trim(first + " " + last);
    }
    s.email = field(Column::Email);
    s.login = field(Column::Login);
    s.submission = field(Column::Submission);
    if (s.id.empty()) {
      errors->push_back(source + ":" + std::to_string(record.line) + ": no student id" +
                        (s.name.empty() ? std::string() : " for " + s.name));
      continue;
    }
    // Compared as matching compares them: a login without case, a submission without an archive's suffix.
    const std::string stem = archiveStem(s.submission).empty() ? s.submission : archiveStem(s.submission);
    bool ok = once(seenId, "student id", s.id, s.line);
    ok = once(seenLogin, "login", foldName(s.login), s.line) && ok;
    ok = once(seenSubmission, "submission", nfc(stem), s.line) && ok;
    if (ok) roster->students.push_back(s);
  }
  return errors->size() == before;
}

bool loadRoster(const std::string& path, Roster* roster, std::vector<std::string>* errors) {
  std::string text, err;
  if (!readFile(path, &text, &err, size_t(16) << 20)) {
    errors->push_back(err);  // it names the file
    return false;
  }
  return parseRoster(text, std::filesystem::path(path).filename().string(), roster, errors);
}

}  // namespace clgrade
