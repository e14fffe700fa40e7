// A kernel file not where it must be: the hint names what the student did instead (issue 13, item 6).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>

#include "../../scratch.h"
#include "intake/missing_kernel_file.h"
#include "intake/source_policy.h"
#include "tasks/task.h"
#include "util/nearest_name.h"

namespace fs = std::filesystem;

namespace clgrade {
namespace {

fs::path folder(const std::string& name) {
  const fs::path dir = test::freshFolder("missing_kernel_file", name);
  return dir;
}

void touch(const fs::path& path) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << "__kernel void k() {}\n";
}

TEST(NearestName, TyposAndPrefixesButNotStrangers) {
  EXPECT_EQ(editDistance("chek", "check"), 1u);
  EXPECT_EQ(editDistance("", "abc"), 3u);
  EXPECT_EQ(nearestName("chek", {"grade", "check", "batch"}), "check");
  EXPECT_EQ(nearestName("conv3", {"conv3x3", "separable"}), "conv3x3");  // a prefix
  EXPECT_EQ(nearestName("frobnicate", {"grade", "check", "batch"}), "");
}

TEST(MissingKernelFile, AnotherCaseIsNamed) {
  const fs::path dir = folder("case");
  touch(dir / "convolution3x3.cl");
  const std::string hint = missingKernelFileHint(dir, "Convolution3x3.cl");
  EXPECT_NE(hint.find("convolution3x3.cl is there: file names are case-sensitive; rename it to Convolution3x3.cl"),
            std::string::npos)
      << hint;
  // And the grade says it where it says the file is missing.
  const KernelSource s = loadKernelSource(dir.string(), "Convolution3x3.cl");
  EXPECT_NE(s.problem.find("is missing from the kernels folder: convolution3x3.cl is there"), std::string::npos)
      << s.problem;
}

TEST(MissingKernelFile, ATypoIsNamedButAnotherTasksFileIsNot) {
  const fs::path dir = folder("typo");
  touch(dir / "ConvolutionSeperable.cl");
  EXPECT_NE(missingKernelFileHint(dir, "ConvolutionSeparable.cl").find("ConvolutionSeperable.cl is there: rename it"),
            std::string::npos);
  // The assignment's files are 7 or more edits apart: another task's file is no misspelling.
  const fs::path other = folder("other");
  touch(other / "ConvolutionBilateral.cl");
  EXPECT_EQ(missingKernelFileHint(other, "ConvolutionSeparable.cl"), "");
}

// Found by an intake corpus: a copy kept under another name had no hint (more than two edits away).
TEST(MissingKernelFile, ACopyUnderAnotherNameIsNamed) {
  for (const char* copy : {"histogram (1).cl", "Histogram-final.cl", "histogram.cl.txt", "HISTOGRAM_v2.CL"}) {
    const fs::path dir = folder(std::string("copy-") + std::to_string(std::hash<std::string>()(copy)));
    touch(dir / copy);
    EXPECT_EQ(missingKernelFileHint(dir, "histogram.cl"), std::string(copy) + " is there: rename it to histogram.cl");
  }
  // ".cl" must be an extension of its own, and the name must start with the file's stem.
  const fs::path other = folder("not-a-copy");
  touch(other / "histogram.class");
  touch(other / "my_histogram.cl.txt");
  EXPECT_EQ(missingKernelFileHint(other, "histogram.cl"), "");
}

// The copy rule and the typo rule hold for every task the registry has: no task's file is hinted as
// another task's (a new task named like Convolution3x3Tiled.cl would fail here, not in a student's grade).
TEST(MissingKernelFile, NoTasksFileIsTakenForAnothers) {
  for (const Task* present : allTasks()) {
    const fs::path dir = folder("task-" + present->info().id);
    touch(dir / present->info().file);
    for (const Task* missing : allTasks()) {
      if (missing == present) continue;
      EXPECT_EQ(missingKernelFileHint(dir, missing->info().file), "")
          << present->info().file << " taken for " << missing->info().file;
    }
  }
}

// Found by an intake corpus: two archives in a submission folder (neither unpacked) gave only
// "missing"; the hint names them and says to keep one.
TEST(MissingKernelFile, TwoArchivesAreNamed) {
  const fs::path dir = folder("archives");
  touch(dir / "kernels.zip");
  touch(dir / "kernels-old.tar.gz");
  touch(dir / "readme.txt");
  EXPECT_EQ(missingKernelFileHint(dir, "histogram.cl"),
            "the folder holds 2 archives (kernels-old.tar.gz, kernels.zip): an archive is unpacked only when it is "
            "the only one; keep the one to grade");
  const fs::path one = folder("one-archive");
  touch(one / "kernels.zip");
  EXPECT_EQ(missingKernelFileHint(one, "histogram.cl"), "");
}

TEST(MissingKernelFile, ANestedFolderIsNamed) {
  const fs::path dir = folder("nested");
  touch(dir / "alice" / "kernels" / "Convolution3x3.cl");
  const std::string hint = missingKernelFileHint(dir, "Convolution3x3.cl");
  EXPECT_NE(hint.find("is in the folder alice/kernels inside it: give clgrade that folder"), std::string::npos) << hint;
  // Four folders deep is looked at, five is not.
  const fs::path deep = folder("deep");
  touch(deep / "a" / "b" / "c" / "d" / "Convolution3x3.cl");
  EXPECT_NE(missingKernelFileHint(deep, "Convolution3x3.cl").find("a/b/c/d"), std::string::npos);
  const fs::path deeper = folder("deeper");
  touch(deeper / "a" / "b" / "c" / "d" / "e" / "Convolution3x3.cl");
  EXPECT_EQ(missingKernelFileHint(deeper, "Convolution3x3.cl"), "");
}

TEST(MissingKernelFile, NamesReachTheTerminalAsTextOnOneLine) {
  const fs::path dir = folder("escape");
  touch(dir / "\x1bonvolution3x3.cl");  // one edit from the name: it is named
  std::string hint = missingKernelFileHint(dir, "Convolution3x3.cl");
  EXPECT_NE(hint.find("\\x1bonvolution3x3.cl is there"), std::string::npos) << hint;
  EXPECT_EQ(hint.find('\x1b'), std::string::npos) << hint;
  const fs::path nested = folder("newline");
  touch(nested / "x\nclgrade: all passed\t" / "Convolution3x3.cl");
  hint = missingKernelFileHint(nested, "Convolution3x3.cl");
  EXPECT_NE(hint.find("x\\nclgrade: all passed\\t"), std::string::npos) << hint;
  EXPECT_EQ(hint.find('\n'), std::string::npos) << hint;
}

TEST(MissingKernelFile, FollowsNoSymbolicLink) {
  const fs::path outside = folder("outside");
  touch(outside / "Convolution3x3.cl");
  const fs::path dir = folder("links");
  fs::create_directory_symlink(outside, dir / "linked");
  fs::create_symlink(outside / "Convolution3x3.cl", dir / "convolution3x3.cl");
  EXPECT_EQ(missingKernelFileHint(dir, "Convolution3x3.cl"), "");
}

}  // namespace
}  // namespace clgrade
