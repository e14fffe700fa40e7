// clgrade profile: phase times summed over reports (report/profile), and their way through the codec.
#include <gtest/gtest.h>

#include "model/report_json.h"
#include "report/profile.h"

namespace clgrade {
namespace {

TaskReport task(const std::string& id, std::vector<PhaseTime> phases, double process, double waited) {
  TaskReport t;
  t.id = id;
  t.phases = std::move(phases);
  t.process.recorded = true;
  t.process.seconds = process;
  t.process.waitedSeconds = waited;
  return t;
}

GradeReport grade(double seconds, std::vector<TaskReport> tasks) {
  GradeReport r;
  r.seconds = seconds;
  r.device.name = "pthread-cpu";
  r.device.platform = "Portable Computing Language";
  r.tasks = std::move(tasks);
  return r;
}

TEST(Profile, MeansPerTaskAndPhaseOverReports) {
  const std::vector<GradeReport> reports{
      grade(10, {task("conv3x3", {{"cases", 2, {{"builds", 1}}}, {"simulator", 4, {}}}, 7, 0),
                 task("separable", {{"cases", 3, {{"builds", 2}}}, {"sweep", 8, {{"builds", 6}, {"inputs", 0.5}}}}, 12,
                      2)}),
      grade(20, {task("conv3x3", {{"cases", 4, {{"builds", 1}}}, {"simulator", 6, {}}}, 11, 1)})};
  std::vector<GradeReport> withReplays = reports;
  withReplays[0].tasks[0].process.replaySeconds = 1;
  withReplays[1].tasks[0].process.replaySeconds = 2;
  const ProfileTable t = profileOf(withReplays);
  EXPECT_EQ(t.reports, 2);
  EXPECT_EQ(t.phases, (std::vector<std::string>{"cases", "simulator", "sweep"}));
  EXPECT_DOUBLE_EQ(t.meanGradeSeconds, 15);
  EXPECT_DOUBLE_EQ(t.longestGradeSeconds, 20);
  ASSERT_EQ(t.rows.size(), 3u);
  EXPECT_EQ(t.rows[0].task, "conv3x3");
  EXPECT_DOUBLE_EQ(t.rows[0].phaseSeconds[0], 3);
  EXPECT_DOUBLE_EQ(t.rows[0].phaseSeconds[1], 5);
  EXPECT_DOUBLE_EQ(t.rows[0].phaseSeconds[2], 0);
  EXPECT_DOUBLE_EQ(t.rows[0].processSeconds, 9);
  // separable is in one report: its means are over that one.
  EXPECT_EQ(t.rows[1].reports, 1);
  EXPECT_DOUBLE_EQ(t.rows[1].phaseSeconds[2], 8);
  EXPECT_DOUBLE_EQ(t.rows[1].buildSeconds[2], 6);
  EXPECT_DOUBLE_EQ(t.rows[1].waitedSeconds, 2);
  EXPECT_DOUBLE_EQ(t.rows[0].replaySeconds, 1.5) << "the replays' tails, mean per report";
  // All tasks: per report.
  EXPECT_EQ(t.rows[2].task, "all tasks");
  EXPECT_DOUBLE_EQ(t.rows[2].phaseSeconds[0], 4.5);
  EXPECT_DOUBLE_EQ(t.rows[2].processSeconds, 15);
  EXPECT_EQ(t.device, "pthread-cpu (Portable Computing Language)");
  EXPECT_EQ(t.work, (std::vector<std::string>{"builds", "inputs"}));
  EXPECT_DOUBLE_EQ(t.rows[1].workSeconds[0], 8);
  EXPECT_DOUBLE_EQ(t.rows[2].workSeconds[1], 0.25);
  const std::string text = renderProfile(t);
  EXPECT_NE(text.find("2 reports"), std::string::npos) << text;
  EXPECT_NE(text.find("8.0 (6.0)"), std::string::npos) << text;
  EXPECT_NE(text.find("15.0 s mean"), std::string::npos) << text;
}

TEST(Profile, NoReportsIsSaidNotDividedByZero) {
  const std::string text = renderProfile(profileOf({}));
  EXPECT_NE(text.find("0 reports"), std::string::npos);
}

TEST(Profile, PhaseTimesTravelThroughTheCodec) {
  GradeReport r = grade(3, {task("histogram", {{"cases", 1.5, {{"builds", 0.25}}}, {"timing", 0.75, {}}}, 2.5, 0.5)});
  r.tasks[0].process.replaySeconds = 1.25;
  GradeReport back;
  std::string err;
  ASSERT_TRUE(readReportJson(toJson(r), &back, &err)) << err;
  ASSERT_EQ(back.tasks.size(), 1u);
  ASSERT_EQ(back.tasks[0].phases.size(), 2u);
  EXPECT_EQ(back.tasks[0].phases[1].name, "timing");
  EXPECT_DOUBLE_EQ(back.tasks[0].phases[0].of("builds"), 0.25);
  EXPECT_DOUBLE_EQ(back.tasks[0].process.waitedSeconds, 0.5);
  EXPECT_DOUBLE_EQ(back.tasks[0].process.replaySeconds, 1.25);
}

}  // namespace
}  // namespace clgrade
