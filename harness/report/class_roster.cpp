#include "report/class_roster.h"

#include <map>

#include "roster/roster_match.h"

namespace clgrade {

std::vector<ClassEntry> classWithRoster(std::vector<ClassEntry> entries, const Roster& roster,
                                        std::vector<std::string>* messages) {
  if (roster.empty()) return entries;
  std::vector<std::string> names;
  std::map<std::string, ClassEntry*> byName;
  for (ClassEntry& e : entries) {
    names.push_back(e.submission);
    byName[e.submission] = &e;
  }
  const RosterMatch match = matchRoster(roster, names);
  std::map<size_t, std::string> submissionOf;
  for (const auto& [submission, student] : match.studentOf) submissionOf[student] = submission;
  const std::string source = roster.source.empty() ? "roster" : roster.source;

  std::vector<ClassEntry> out;
  for (size_t i = 0; i < roster.students.size(); ++i) {
    const auto it = submissionOf.find(i);
    if (it != submissionOf.end()) {
      ClassEntry e = *byName.at(it->second);
      e.student = roster.students[i];
      out.push_back(std::move(e));
      continue;
    }
    ClassEntry e;
    e.student = roster.students[i];
    e.problem = "no submission";
    e.handedIn = false;
    if (match.uncertain.count(i) && !match.contested.count(i)) {
      // A submission may be theirs: not a 0, and no grade until the instructor says whose it is.
      e.handedIn = true;
      e.problem = "a submission may be theirs, none matched (the roster's problems say which)";
    }
    if (const auto c = match.contested.find(i); c != match.contested.end()) {
      // Handed in more than once: not a 0, but no grade either until the instructor says which.
      e.handedIn = true;
      e.problem = std::to_string(c->second.size()) + " submissions, none taken:";
      for (const std::string& s : c->second) e.problem += " '" + s + "'";
    }
    out.push_back(std::move(e));
  }
  std::map<std::string, size_t> contestedBy;
  for (const auto& [student, subs] : match.contested)
    for (const std::string& s : subs) contestedBy[s] = student;
  for (const std::string& name : match.unmatched) {
    ClassEntry e = *byName.at(name);
    const auto c = contestedBy.find(name);
    const std::string why = c == contestedBy.end()
                                ? "not on the roster"
                                : "one of the submissions of " + roster.students[c->second].id + ", none taken";
    e.problem = why + (e.problem.empty() ? "" : "; " + e.problem);
    out.push_back(std::move(e));
  }
  if (messages) {
    auto list = [](const std::vector<std::string>& items) {
      std::string text;
      for (const std::string& s : items) text += (text.empty() ? "" : ", ") + s;
      return text;
    };
    std::vector<std::string> missing;
    for (size_t i : match.missing) {
      const RosterStudent& s = roster.students[i];
      missing.push_back(s.id + (s.name.empty() ? "" : " (" + s.name + ")"));
    }
    if (!missing.empty())
      messages->push_back(source + ": " + std::to_string(missing.size()) + " of " +
                          std::to_string(roster.students.size()) + " students handed in nothing: " + list(missing));
    if (!match.unmatched.empty())
      messages->push_back(source + ": " + std::to_string(match.unmatched.size()) +
                          (match.unmatched.size() == 1 ? " submission is" : " submissions are") +
                          " no student's on the roster: " + list(match.unmatched));
    for (const std::string& p : match.problems) messages->push_back(source + ": " + p);
  }
  return out;
}

}  // namespace clgrade
