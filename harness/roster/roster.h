// The course's roster: who should have handed in, read from the instructor's CSV file, so that the
// class outputs list every student (those who handed in nothing too) under their student id, which
// is what an LMS matches grades on.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace clgrade {

struct RosterStudent {
  std::string id;     ///< the student id the LMS knows (required, unique)
  std::string name;   ///< full name ("Ada Lovelace"), or first and last name joined
  std::string email;  ///< optional
  std::string login;  ///< optional: the LMS user name (ILIAS login, Moodle username, Canvas SIS login)
  /// Optional: the submission folder or archive as it lies in the class folder ("alice", "alice.zip");
  /// empty: found by matching (roster/roster_match.h).
  std::string submission;
  size_t line = 0;  ///< where in the file (messages)
};

struct Roster {
  std::string source;  ///< the file, for messages ("roster.csv")
  std::vector<RosterStudent> students;
  bool empty() const { return students.empty(); }
};

/// The columns a roster's header may name, each matched without regard to case, spaces, "_" and "-":
///   id:         id, student id, student number, sis user id, id number, matriculation number, matrikelnummer
///   name:       name, full name, student, student name
///   first name: first name, firstname, given name, vorname      (joined with the last name when no name column)
///   last name:  last name, lastname, surname, family name, nachname
///   email:      email, email address, e-mail
///   login:      login, username, user name, sis login id
///   submission: submission, folder, archive
/// Other columns are left alone (an LMS's user export has many). An id column is required; every row
/// needs an id, and no id, login or submission may be given twice. Problems are reported with their
/// line ("roster.csv:4: student id 'x' is given twice (first on line 2)"); valid rows are still read.
/// True when there was no problem.
bool parseRoster(const std::string& text, const std::string& source, Roster* roster,
                 std::vector<std::string>* errors);

/// parseRoster on a file (at most 16 MiB).
bool loadRoster(const std::string& path, Roster* roster, std::vector<std::string>* errors);

}  // namespace clgrade
