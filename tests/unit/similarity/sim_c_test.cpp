// sim_c on the trusted side: its percentage lines parsed (a recorded sample of sim_c 3.0.2's real
// output), anything else ignored, and a missing sim_c said in words.
#include <gtest/gtest.h>
#include "util/files.h"
#include "sandbox/sandbox.h"
#include <filesystem>
#include <unistd.h>
#include <sys/stat.h>

#include <string>
#include <vector>

#include "similarity/measure.h"
#include "similarity/sim_c.h"

namespace clgrade {
namespace {

// `sim_c -p -e -a -s -T -t 1 /tmp/s/0.cl /tmp/s/1.cl /tmp/s/2.cl /tmp/s/3.cl` (similarity-tester
// 3.0.2, Debian 12): the reference's ConvolutionSeparable.cl, two samples made from it, the
// template; with a file that could not be opened and a line of odd text added.
const char kRecorded[] =
    "File /tmp/s/9.cl: >>>> cannot open <<<<\n"
    "Total input: 4 files (4 new, 0 old), 1888 tokens\n"
    "\n"
    "/tmp/s/1.cl consists for 100 % of /tmp/s/0.cl material\n"
    "/tmp/s/1.cl consists for 100 % of /tmp/s/2.cl material\n"
    "/tmp/s/1.cl consists for 14 % of /tmp/s/3.cl material\n"
    "/tmp/s/0.cl consists for 97 % of /tmp/s/2.cl material\n"
    "/tmp/s/0.cl consists for 100 % of /tmp/s/1.cl material\n"
    "/tmp/s/3.cl consists for 91 % of /tmp/s/1.cl material\r\n"
    "/tmp/s/3.cl consists for 91 % of /tmp/s/3.cl material\n"
    "/tmp/s/4.cl consists for 50 % of /tmp/s/0.cl material\n"
    "/tmp/s/2.cl consists for 250 % of /tmp/s/0.cl material\n"
    "/tmp/s/2.cl consists for x % of /tmp/s/1.cl material\n"
    "/tmp/s/2.cl consists for 12 % of /tmp/s/1.cl material and more\n";

TEST(SimC, ItsPercentageLinesAreParsedAndNothingElse) {
  const std::vector<std::string> names = {"/tmp/s/0.cl", "/tmp/s/1.cl", "/tmp/s/2.cl", "/tmp/s/3.cl"};
  const std::vector<DirectedPercent> got = parseSimCPercentages(kRecorded, names);
  std::vector<std::string> seen;
  for (const DirectedPercent& d : got)
    seen.push_back(std::to_string(d.from) + ">" + std::to_string(d.to) + ":" + std::to_string(d.percent));
  // Sorted by (from, to); a file with itself, an unknown file, a bad number and a longer line are ignored,
  // a percentage above 100 is clamped.
  EXPECT_EQ(seen, (std::vector<std::string>{"0>1:100", "0>2:97", "1>0:100", "1>2:100", "1>3:14", "2>0:100",
                                            "3>1:91"}));
}

TEST(SimC, AMissingSimCIsSaidInWords) {
  SimCOptions o;
  o.program = "/nonexistent/sim_c";
  const SimCResult r = runSimC({"int a;", "int b;"}, o);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.problem, "sim_c not found; install similarity-tester");

  SimilarityOptions options;
  options.simC.program = "/nonexistent/sim_c";
  const ClassSimilarity c = measureSimilarity({{"separable", "ConvolutionSeparable.cl"}}, {"a", "b"}, {"/x", "/y"}, options);
  EXPECT_FALSE(c.measured);
  EXPECT_EQ(c.problem, "similarity not measured: sim_c not found; install similarity-tester");
  EXPECT_TRUE(c.tasks.empty());
}

TEST(SimC, TurnedOffIsSaidToo) {
  SimilarityOptions options;
  options.off = "turned off (--no-similarity)";
  const ClassSimilarity c = measureSimilarity({{"separable", "ConvolutionSeparable.cl"}}, {}, {}, options);
  EXPECT_FALSE(c.measured);
  EXPECT_EQ(c.problem, "similarity not measured: turned off (--no-similarity)");
}

TEST(SimC, ARealRunFindsACopyAndNotAStranger) {
  if (findSimC().empty()) GTEST_SKIP() << "sim_c is not installed (similarity-tester)";
  std::string a, stranger;
  for (int i = 0; i < 12; ++i)
    a += "for (int i" + std::to_string(i) + " = 0; i" + std::to_string(i) + " < n; ++i" + std::to_string(i) +
         ") { s[i" + std::to_string(i) + "] += t[i" + std::to_string(i) + " * 2] * w[k]; }\n";
  for (int i = 0; i < 12; ++i) stranger += "while (q) { if (p->next == 0) break; p = p->next->next; q--; }\n";
  std::string copy = a;
  for (char& c : copy)
    if (c == 's') c = 'S';  // renamed: sim_c compares tokens, not names
  const SimCResult r = runSimC({a, copy, stranger, std::string("\xff\xfe odd \x01 bytes", 15)});
  ASSERT_TRUE(r.ok) << r.problem;
  int aInCopy = 0, aInStranger = 0;
  for (const DirectedPercent& d : r.percents) {
    if (d.from == 0 && d.to == 1) aInCopy = d.percent;
    if (d.from == 0 && d.to == 2) aInStranger = d.percent;
  }
  EXPECT_EQ(aInCopy, 100);
  EXPECT_EQ(aInStranger, 0);
}

// sim_c runs in the runners' sandbox: a stand-in that answers "100 %" only where it cannot read a
// root-only file (inside, as the sandbox's uid) proves where it ran.
TEST(SimC, RunsInsideTheSandbox) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root: outside, only root reads /etc/shadow";
  if (!sandboxSupport().available) GTEST_SKIP() << "no sandbox here: " << sandboxSupport().reason;
  char folder[] = "/tmp/clgrade-simc-test-XXXXXX";
  ASSERT_NE(mkdtemp(folder), nullptr);
  const std::string stand = std::string(folder) + "/sim_c";
  std::string err;
  // Its arguments are sim_c's: -p -e -a -s -T -t 1, then the files.
  ASSERT_TRUE(writeFileAtomically(stand,
                                  "#!/bin/sh\nif cat /etc/shadow > /dev/null 2>&1; then echo outside; exit 0; fi\n"
                                  "echo \"$8 consists for 100 % of $9 material\"\n",
                                  &err))
      << err;
  chmod(stand.c_str(), 0755);
  chmod(folder, 0755);
  SimCOptions o;
  o.program = stand;
  const SimCResult r = runSimC({"int a;", "int b;"}, o);
  std::filesystem::remove_all(folder);
  ASSERT_TRUE(r.ok) << r.problem;
  ASSERT_EQ(r.percents.size(), 1u) << "sim_c ran outside the sandbox";
  EXPECT_EQ(r.percents[0].percent, 100);
}

TEST(SimC, FewerThanTwoTextsRunNothing) {
  SimCOptions o;
  o.program = "/nonexistent/sim_c";
  EXPECT_TRUE(runSimC({"int a;"}, o).ok);
}

}  // namespace
}  // namespace clgrade
