// A batch job's GPU (KeeperSettings::visibleGpus) reaches every process its keeper starts, inside
// the sandbox and without it: each job's runners and counters session then see that GPU alone.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "keeper/runner_process.h"
#include "sandbox/sandbox.h"
#include "util/files.h"

namespace clgrade {
namespace {

namespace fs = std::filesystem;

std::string environmentSeen(bool sandbox, const std::string& visibleGpus, std::string* err) {
  const fs::path dir = fs::temp_directory_path() / ("clgrade-runner-gpu-" + std::to_string(getpid()));
  fs::create_directories(dir / "kernels");
  KeeperSettings s;
  s.clgrade = "/usr/bin/env";  // mounted read-only, as clgrade is
  s.sandbox = sandbox;
  s.cpuDevice = true;
  s.visibleGpus = visibleGpus;
  ProcessSpec spec;
  if (!placeProcess({"/usr/bin/env"}, RunnerPlace{&s, (dir / "kernels").string()}, {}, (dir / "scratch").string(),
                    &spec, err))
    return "";
  spec.stdoutPath = (dir / "out").string();
  spec.stderrPath = (dir / "err").string();
  spec.timeoutSeconds = 30;
  const ProcessResult p = runProcess(spec);
  std::string text;
  readFile(spec.stdoutPath, &text, nullptr);
  if (!p.ok()) {
    std::string said;
    readFile(spec.stderrPath, &said, nullptr);
    *err = p.describe() + ": " + said;
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
  return text;
}

TEST(RunnerGpu, TheJobsGpuIsTheOnlyOneItsProcessesSee) {
  for (bool sandbox : {false, true}) {
    if (sandbox && !sandboxSupport().available) continue;
    std::string err;
    const std::string env = environmentSeen(sandbox, "3", &err);
    EXPECT_NE(env.find("CUDA_VISIBLE_DEVICES=3\n"), std::string::npos) << (sandbox ? "sandbox: " : "") << err << env;
  }
}

TEST(RunnerGpu, NoGpuPlacedLeavesTheVariableAlone) {
  if (std::getenv("CUDA_VISIBLE_DEVICES")) GTEST_SKIP() << "this machine sets CUDA_VISIBLE_DEVICES itself";
  std::string err;
  const std::string env = environmentSeen(false, "", &err);
  EXPECT_EQ(env.find("CUDA_VISIBLE_DEVICES"), std::string::npos) << env;
}

}  // namespace
}  // namespace clgrade
