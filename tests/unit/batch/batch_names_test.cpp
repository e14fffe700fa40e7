// A batch's submission names: hidden folders listed as skipped, names in Unicode Normalization Form C,
// two folders that are one name once normalised both kept and named; what the class outputs say about
// an override of a submission that is not in the batch.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "../../scratch.h"
#include "batch/batch.h"
#include "model/report_json.h"
#include "report/outputs.h"
#include "report/overrides.h"
#include "util/unicode.h"

namespace fs = std::filesystem;

namespace clgrade {
namespace {

const std::string kComposed = "Jos\xc3\xa9";     // "José", é as one character (U+00E9)
const std::string kDecomposed = "Jose\xcc\x81";  // "José", e then U+0301 COMBINING ACUTE ACCENT
const std::string kZoe = "Zoe\xcc\x88";          // "Zoë" decomposed, alone

fs::path freshDir(const std::string& name) { return test::freshFolder("clgrade_batch_names", name); }

TEST(Unicode, NfcComposesAndLeavesOtherBytesAlone) {
  EXPECT_EQ(nfc(kDecomposed), kComposed);
  EXPECT_EQ(nfc(kComposed), kComposed);
  EXPECT_EQ(nfc("alice"), "alice");
  EXPECT_EQ(nfc("bad\xff"
                "name"),
            "bad\xff"
            "name");  // not UTF-8: unchanged
  EXPECT_EQ(codePoints(kComposed), "Jos\\u00e9");
  EXPECT_EQ(codePoints(kDecomposed), "Jose\\u0301");
  EXPECT_EQ(codePoints("a\xff\xf0\x9f\x98\x80"), "a\\xff\\U0001f600");
}

// Folders starting with '.' were skipped without a word; a decomposed name was used as it was, so it
// matched no override typed on another system, and two spellings of one name looked the same.
TEST(BatchNames, HiddenFoldersAreListedAndNamesAreNormalised) {
  const fs::path dir = freshDir("list");
  for (const std::string& f : {std::string("alice"), std::string(".git"), kZoe, kComposed, kDecomposed})
    fs::create_directories(dir / f);
  fs::create_directories(dir / "out");
  std::ofstream(dir / "notes.txt") << "not a folder";
  const SubmissionList list = listSubmissions(dir.string(), (dir / "out").string());
  const std::vector<SubmissionName> expected{
      {kComposed, kComposed}, {kDecomposed, kDecomposed}, {nfc(kZoe), kZoe}, {"alice", "alice"}};
  EXPECT_EQ(list.submissions.size(), expected.size());
  for (const SubmissionName& s : expected)
    EXPECT_NE(std::find(list.submissions.begin(), list.submissions.end(), s), list.submissions.end())
        << codePoints(s.folder);
  EXPECT_TRUE(std::is_sorted(list.submissions.begin(), list.submissions.end(),
                             [](const SubmissionName& a, const SubmissionName& b) { return a.name < b.name; }));
  // Sorted: '.git' before 'notes.txt' (issue 28: no file is left out without a word either).
  ASSERT_EQ(list.skipped.size(), 2u);
  EXPECT_EQ(list.skipped[0], "'.git': skipped: a hidden folder (its name starts with '.'); rename it to grade it");
  EXPECT_EQ(list.skipped[1],
            "'notes.txt': skipped: neither a submission folder nor an archive (.zip, .tar.gz, .tar.xz, .7z)");
  ASSERT_EQ(list.collisions.size(), 1u);
  EXPECT_NE(list.collisions[0].find("'" + kDecomposed + "' (Jose\\u0301)"), std::string::npos) << list.collisions[0];
  EXPECT_NE(list.collisions[0].find("'" + kComposed + "' (Jos\\u00e9)"), std::string::npos) << list.collisions[0];
  EXPECT_NE(list.collisions[0].find("are one name once Unicode-normalised (NFC)"), std::string::npos);
}

// Found by an intake corpus: a class unpacked from a zip made on macOS holds __MACOSX (graded as a
// student, 0 points) and ._name files (told to be renamed).
TEST(BatchNames, MacOsZipMetadataIsNoStudent) {
  const fs::path dir = freshDir("macos");
  fs::create_directories(dir / "alice");
  fs::create_directories(dir / "__MACOSX" / "alice");
  std::ofstream(dir / "._erin.zip") << "metadata";
  const SubmissionList list = listSubmissions(dir.string(), (dir / "out").string());
  ASSERT_EQ(list.submissions.size(), 1u);
  EXPECT_EQ(list.submissions[0].name, "alice");
  ASSERT_EQ(list.skipped.size(), 1u);
  EXPECT_EQ(list.skipped[0], "'__MACOSX': skipped: macOS's metadata of the zip the class was unpacked from");
}

TEST(BatchNames, AnOverrideTypedInEitherFormNamesTheNormalisedSubmission) {
  std::vector<Override> overrides;
  std::vector<std::string> errors;
  ASSERT_TRUE(parseOverrides("submission,task,criterion,points\n" + kZoe + ",histogram,global_atomics,0\n", "o.csv",
                             &overrides, &errors));
  ASSERT_EQ(overrides.size(), 1u);
  EXPECT_EQ(overrides[0].submission, nfc(kZoe));
}

// The message was nested twice: "overrides: no submission 'o.csv:2: no submission 'eve' in this batch
// (...)' in this batch".
TEST(BatchNames, AnOverrideOfAnUnknownSubmissionIsSaidOnce) {
  const fs::path out = freshDir("unknown");
  std::vector<Override> overrides;
  std::vector<std::string> errors, problems;
  ASSERT_TRUE(parseOverrides("submission,task,criterion,points\neve,histogram,global_atomics,0\n", "o.csv", &overrides,
                             &errors));
  const nlohmann::ordered_json classResults = {{"submissions", nlohmann::ordered_json::array()}};
  EXPECT_TRUE(writeClassOutputs(out.string(), classResults, &errors, overrides, &problems));
  EXPECT_EQ(problems,
            std::vector<std::string>{
                "o.csv:2: no submission 'eve' in this batch (override of histogram.global_atomics not applied)"});
}

// Issue 27: a runner that could not start gave every student 0 and an empty problem column. A
// submission a machine fault kept from being graded has no total, and the gradebook says why.
TEST(ClassOutputs, ASubmissionNotGradedHasNoTotalAndItsFaultIsTheProblem) {
  const fs::path out = freshDir("not_graded");
  std::vector<std::string> errors, problems;
  const nlohmann::ordered_json classResults = {
      {"submissions",
       {{{"submission", "alice"},
         {"not_graded", "a fault of the grading machine, not of the submission: conv3x3: no OpenCL device"}}}}};
  EXPECT_TRUE(writeClassOutputs(out.string(), classResults, &errors, {}, &problems)) << errors.front();
  std::ifstream in(out / "gradebook.csv");
  std::string header, row;
  std::getline(in, header);
  std::getline(in, row);
  EXPECT_EQ(row.rfind("alice,", 0), 0u) << row;
  EXPECT_NE(row.find(",,,\"not graded: a fault of the grading machine"), std::string::npos)
      << "no total, no max, and the fault as the problem: " << header << "\n"
      << row;
  EXPECT_FALSE(fs::exists(out / "alice")) << "no outputs for a submission without a grade";
}

// The class outputs read and write each submission's on threads of their own: a large class keeps
// its order in the gradebook and in what they say, and every graded submission its own outputs.
TEST(ClassOutputs, AClassOfManyKeepsItsOrderAndEachSubmissionItsOwnOutputs) {
  const fs::path out = freshDir("many");
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  std::string overridesText = "submission,task,criterion,points\n";
  const int n = 40;
  for (int i = 0; i < n; ++i) {
    const std::string name = "s" + std::to_string(100 + i);
    if (i % 5 == 4) {  // a fault of the machine: no report
      list.push_back({{"submission", name}, {"not_graded", "fault " + std::to_string(i)}});
      continue;
    }
    GradeReport r;
    r.mode = "grade";
    TaskReport t;
    t.id = "histogram";
    t.present = true;
    t.points = i;
    t.max = 100;
    r.tasks.push_back(t);
    r.total = i;
    r.max = 100;
    fs::create_directories(out / name);
    std::ofstream(out / name / "report.json") << toJson(r);
    list.push_back({{"submission", name}, {"total", i}, {"max", 100}});
    if (i % 3 == 0) overridesText += name + ",histogram,no_such_criterion,1\n";  // said, in the class's order
  }
  std::vector<Override> overrides;
  std::vector<std::string> errors, problems;
  ASSERT_TRUE(parseOverrides(overridesText, "o.csv", &overrides, &errors));
  ASSERT_TRUE(
      writeClassOutputs(out.string(), {{"submissions", list}}, &errors, overrides, &problems, std::nullopt, false))
      << errors.front();
  std::ifstream in(out / "gradebook.csv");
  std::string line;
  std::getline(in, line);
  for (int i = 0; i < n; ++i) {
    ASSERT_TRUE(std::getline(in, line)) << i;
    const std::string name = "s" + std::to_string(100 + i);
    EXPECT_EQ(line.rfind(name + ",", 0), 0u) << line;
    if (i % 5 == 4) {
      EXPECT_NE(line.find("fault " + std::to_string(i)), std::string::npos) << line;
    } else {
      // Its own report, not another's written from a thread beside it.
      std::ifstream page(out / name / "gradescope" / "results.json");
      const std::string results((std::istreambuf_iterator<char>(page)), std::istreambuf_iterator<char>());
      EXPECT_NE(results.find("\"score\": " + std::to_string(i) + ".0"), std::string::npos) << name << ": " << results;
    }
  }
  std::vector<std::string> said;
  for (const std::string& p : problems)
    if (p.find("no_such_criterion") != std::string::npos) said.push_back(p.substr(0, p.find(':')));
  std::vector<std::string> expected;
  for (int i = 0; i < n; ++i)
    if (i % 5 != 4 && i % 3 == 0) expected.push_back("o.csv");
  EXPECT_EQ(said.size(), expected.size()) << "each override that names no criterion of its report, once";
  std::vector<size_t> positions;
  for (const std::string& p : problems)
    if (p.find("no_such_criterion") != std::string::npos) positions.push_back(std::stoul(p.substr(p.find(':') + 1)));
  EXPECT_TRUE(std::is_sorted(positions.begin(), positions.end())) << "in the class's order";
}

}  // namespace
}  // namespace clgrade
