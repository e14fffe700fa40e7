#include "report/profile.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace clgrade {
namespace {

size_t indexOf(std::vector<std::string>* names, const std::string& name) {
  const auto it = std::find(names->begin(), names->end(), name);
  if (it != names->end()) return size_t(it - names->begin());
  names->push_back(name);
  return names->size() - 1;
}

std::string roundedSeconds(double s) {
  char text[32];
  std::snprintf(text, sizeof text, s >= 100 ? "%.0f" : "%.1f", s);
  return text;
}

std::string padded(const std::string& s, size_t width) {
  return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' ');
}

}  // namespace

ProfileTable profileOf(const std::vector<GradeReport>& reports) {
  ProfileTable table;
  table.reports = int(reports.size());
  std::vector<std::string> taskOrder;
  std::map<std::string, ProfileRow> rows;
  ProfileRow all;
  all.task = "all tasks";
  for (const GradeReport& r : reports) {
    table.totalGradeSeconds += r.seconds;
    table.longestGradeSeconds = std::max(table.longestGradeSeconds, r.seconds);
    const std::string device = r.device.name + " (" + r.device.platform + ")";
    if (&r == &reports.front())
      table.device = device;
    else if (table.device != device)
      table.device.clear();
    for (const TaskReport& t : r.tasks) {
      indexOf(&taskOrder, t.id);
      ProfileRow& row = rows[t.id];
      row.task = t.id;
      ++row.reports;
      for (const PhaseTime& p : t.phases) {
        const size_t i = indexOf(&table.phases, p.name);
        for (ProfileRow* target : {&row, &all}) {
          target->phaseSeconds.resize(std::max(target->phaseSeconds.size(), i + 1));
          target->buildSeconds.resize(target->phaseSeconds.size());
          target->phaseSeconds[i] += p.seconds;
          target->buildSeconds[i] += p.of("builds");
        }
        for (const auto& [work, seconds] : p.within) {
          const size_t w = indexOf(&table.work, work);
          for (ProfileRow* target : {&row, &all}) {
            target->workSeconds.resize(std::max(target->workSeconds.size(), w + 1));
            target->workSeconds[w] += seconds;
          }
        }
      }
      for (ProfileRow* target : {&row, &all}) {
        target->processSeconds += t.process.seconds;
        target->waitedSeconds += t.process.waitedSeconds;
        target->replaySeconds += t.process.replaySeconds;
      }
    }
  }
  if (!reports.empty()) table.meanGradeSeconds = table.totalGradeSeconds / double(reports.size());
  // Sums to means: per report that has the task (all tasks: per report).
  auto toMeans = [&](ProfileRow& row, int count) {
    row.phaseSeconds.resize(table.phases.size());
    row.buildSeconds.resize(table.phases.size());
    row.workSeconds.resize(table.work.size());
    if (count <= 0) return;
    for (std::vector<double>* list : {&row.phaseSeconds, &row.buildSeconds, &row.workSeconds})
      for (double& s : *list) s /= count;
    row.processSeconds /= count;
    row.waitedSeconds /= count;
    row.replaySeconds /= count;
  };
  for (const std::string& id : taskOrder) {
    ProfileRow row = rows[id];
    toMeans(row, row.reports);
    table.rows.push_back(row);
  }
  all.reports = table.reports;
  toMeans(all, all.reports);
  table.rows.push_back(all);
  return table;
}

std::string renderProfile(const ProfileTable& t) {
  std::string out = "clgrade profile: " + std::to_string(t.reports) + (t.reports == 1 ? " report" : " reports");
  if (!t.device.empty()) out += " on " + t.device;
  out += "\n";
  if (t.reports == 0) return out;
  out += "grade: " + roundedSeconds(t.meanGradeSeconds) + " s mean, " + roundedSeconds(t.longestGradeSeconds) +
         " s longest, " + roundedSeconds(t.totalGradeSeconds) + " s in all\n";
  out +=
      "mean seconds per task and report; in brackets the program builds within a phase; 'process' is the\n"
      "task's grading process from start to end (device set-up and inputs included), 'waited' the part of it\n"
      "spent waiting while other jobs timed (not counted towards --task-timeout), 'replay' what judging its\n"
      "record took after it ended\n\n";
  const size_t first = 11, column = 15;
  std::string header = padded("task", first);
  for (const std::string& p : t.phases) header += padded(p, column);
  header += padded("process", 10) + padded("waited", 9) + "replay";
  out += header + "\n";
  for (const ProfileRow& row : t.rows) {
    std::string line = padded(row.task, first);
    for (size_t i = 0; i < t.phases.size(); ++i) {
      std::string cell = roundedSeconds(row.phaseSeconds[i]);
      if (row.buildSeconds[i] >= 0.05) cell += " (" + roundedSeconds(row.buildSeconds[i]) + ")";
      line += padded(cell, column);
    }
    line += padded(row.processSeconds > 0 ? roundedSeconds(row.processSeconds) : "-", 10);
    line += padded(row.processSeconds > 0 ? roundedSeconds(row.waitedSeconds) : "-", 9);
    line += row.processSeconds > 0 ? roundedSeconds(row.replaySeconds) : "-";
    out += line + "\n";
  }
  if (t.work.empty()) return out;
  out += "\nof which, over all phases (kinds of work may overlap: a CPU reference may generate its inputs)\n";
  header = padded("task", first);
  for (const std::string& w : t.work) header += padded(w, column);
  while (!header.empty() && header.back() == ' ') header.pop_back();
  out += header + "\n";
  for (const ProfileRow& row : t.rows) {
    std::string line = padded(row.task, first);
    for (double s : row.workSeconds) line += padded(roundedSeconds(s), column);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

}  // namespace clgrade
