// clgrade package prairielearn: a folder to build PrairieLearn's external grader image from
// (Containerfile from debian:12 with Debian packages only, the entrypoint clgrade-prairielearn, the .deb).
// clgrade package gradescope: the autograder zip a course uploads to Gradescope. It holds setup.sh
// (run once, as root, when Gradescope builds the image: installs clgrade's .deb and PoCL with apt),
// run_autograder (run for every submission: grades /autograder/submission with the course's rubric
// and always leaves /autograder/results/results.json, an autograder error when clgrade itself fails),
// the rubric and the .deb. The .deb must be built (`cpack -G DEB`) on the distribution of the image
// it goes into: Gradescope's base images are Ubuntu, whose library versions differ from Debian 12's.
#include <filesystem>
#include <iostream>
#include <memory>
#include <tuple>

#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "util/archive.h"
#include "util/files.h"
#include "util/markup.h"

namespace clgrade::cli {
namespace {

/// The platforms' time limits (README, "Platform timeouts", measured): a grade of the reference on PoCL
/// takes about 16 s on 2 cores, 30 s on 1 and 57 s on half of one, which Gradescope gives by default.
/// A kernel that never ends costs its task the whole --task-timeout (and a task stopped in one kernel
/// runs once more without it, which can time out too), and on a CPU the four tasks run one after
/// another: no task timeout alone keeps a grade under 600 s, Gradescope's default and PrairieLearn's
/// largest timeout. So the scripts give the whole grade --time-limit 540 (60 s left to write the
/// results) and each task 120 s; past the platform's limit it would kill clgrade before results.json
/// is written, and the student would see a failure of the autograder instead of their endless
/// kernel's 0. (In the scripts below as text: keep them in step.)
constexpr int kPlatformTaskTimeout = 120;
constexpr int kPlatformTimeout = 600;
constexpr int kPlatformGradeLimit = 540;

constexpr const char* kSetup = R"(#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image (written by
# `clgrade package gradescope`): clgrade from the .deb beside it, PoCL for a machine without a GPU, Oclgrind
# for the simulated checks (bank conflicts, races, local-memory technique), jq for run_autograder's
# results when clgrade cannot write them.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends /autograder/source/clgrade.deb pocl-opencl-icd oclgrind jq
clgrade --version
)";

constexpr const char* kRunAutograder = R"(#!/usr/bin/env bash
# Gradescope runs this for every submission (written by `clgrade package gradescope`). It always leaves
# /autograder/results/results.json: clgrade's, or one that says the autograder failed (never nothing,
# which Gradescope shows as "The autograder failed to execute correctly", never a 0 for the student).
# The student's kernels run inside clgrade's sandbox, as a uid of their own: they cannot reach this file.
cd /autograder
mkdir -p /autograder/results
results=/autograder/results/results.json
rm -f "$results"
clgrade grade /autograder/submission --rubric /autograder/source/rubric.xml --device auto \
  --out /autograder/results/clgrade-report --gradescope-results "$results" --quiet --task-timeout 120 --time-limit 540 \
  >/autograder/results/clgrade.log 2>&1
status=$?
cat /autograder/results/clgrade.log
if [ ! -s "$results" ]; then
  # clgrade could not even start (missing, killed): say so in the form Gradescope reads, written by jq
  # (any byte of the log quoted right; a cut UTF-8 sequence becomes U+FFFD), else a fixed text.
  reason=$(tail -c 2000 /autograder/results/clgrade.log | tr '\n' ' ')
  jq -n --arg status "$status" --arg reason "$reason" \
    '{output: ("clgrade could not grade this submission (exit " + $status + "): " + $reason + " This is not a verdict on your work: your instructor has to fix the autograder."), extra_data: {autograder_error: true, clgrade_exit: ($status | tonumber)}, tests: []}' \
    > "$results" 2>/dev/null ||
    echo '{"output": "clgrade could not grade this submission; jq is missing to say why: see the log. This is not a verdict on your work: your instructor has to fix the autograder.", "extra_data": {"autograder_error": true}, "tests": []}' > "$results"
fi
exit 0
)";

constexpr const char* kContainerfile = R"(# clgrade's image (written by `clgrade package prairielearn`):
#   podman build -t clgrade-grader .     (or docker build)
# PrairieLearn: the course names this image and the entrypoint /usr/local/bin/clgrade-prairielearn in the
# question's info.json ("externalGradingOptions"); the rubric goes in the question's tests/ as rubric.xml.
# Anyone with Podman or Docker: podman run --rm -v "$PWD":/work clgrade-grader clgrade check /work
FROM debian:12
COPY clgrade.deb /tmp/clgrade.deb
RUN apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
      /tmp/clgrade.deb pocl-opencl-icd oclgrind similarity-tester jq && rm -rf /var/lib/apt/lists/* /tmp/clgrade.deb
COPY clgrade-prairielearn /usr/local/bin/clgrade-prairielearn
RUN chmod 0755 /usr/local/bin/clgrade-prairielearn
)";

constexpr const char* kPrairieLearnEntrypoint = R"(#!/usr/bin/env bash
# PrairieLearn's external grader entrypoint (written by `clgrade package prairielearn`): grades the
# submitted kernels in /grade/student with /grade/tests/rubric.xml (else clgrade's four-task rubric)
# and always leaves /grade/results/results.json, under 1 MB: clgrade's, or gradable: false when clgrade
# cannot grade (the student loses no points and no attempt).
mkdir -p /grade/results
results=/grade/results/results.json
rm -f "$results"
rubric=()
[ -f /grade/tests/rubric.xml ] && rubric=(--rubric /grade/tests/rubric.xml)
clgrade grade /grade/student "${rubric[@]}" --device auto --out /grade/results/clgrade-report \
  --prairielearn-results "$results" --quiet --task-timeout 120 --time-limit 540 >/grade/results/clgrade.log 2>&1
status=$?
cat /grade/results/clgrade.log
if [ ! -s "$results" ]; then
  # Written by jq (any byte of the log quoted right), else a fixed text.
  reason=$(tail -c 2000 /grade/results/clgrade.log | tr '\n' ' ')
  jq -n --arg status "$status" --arg reason "$reason" \
    '{gradable: false, message: ("clgrade could not grade this submission (exit " + $status + "): " + $reason)}' \
    > "$results" 2>/dev/null ||
    echo '{"gradable": false, "message": "clgrade could not grade this submission; jq is missing to say why: see the log"}' > "$results"
fi
exit 0
)";

struct PackageArgs {
  std::string platform, rubric = defaultRubric(), deb, out;
};

/// What each externally graded question's info.json needs (PrairieLearn's docs/externalGrading.md):
/// the image, its entrypoint and a timeout (default 30 s, at most 600 s; see kPlatformTimeout).
std::string questionInfoJson() {
  const nlohmann::ordered_json info = {
      {"externalGradingOptions",
       {{"enabled", true},
        {"image", "clgrade-grader"},
        {"entrypoint", "/usr/local/bin/clgrade-prairielearn"},
        {"timeout", kPlatformTimeout}}}};
  return info.dump(2) + "\n";
}

/// The image recipe and entrypoint for PrairieLearn, as a folder to build the image from.
int packagePrairieLearn(const PackageArgs& args, const std::string& deb) {
  std::string err;
  const std::filesystem::path dir(args.out);
  for (const auto& [name, text, mode] :
       {std::tuple<const char*, std::string, std::filesystem::perms>{"Containerfile", kContainerfile,
                                                                     std::filesystem::perms(0644)},
        {"clgrade-prairielearn", kPrairieLearnEntrypoint, std::filesystem::perms(0755)},
        {"clgrade.deb", deb, std::filesystem::perms(0644)},
        {"question-info.json", questionInfoJson(), std::filesystem::perms(0644)}}) {
    const std::string path = (dir / name).string();
    if (!makeDirectories(dir.string(), &err) || !writeFileAtomically(path, text, &err)) {
      std::cerr << "clgrade: " << terminalText(err) << "\n";
      return kOutput;
    }
    std::error_code ec;
    std::filesystem::permissions(path, mode, ec);
  }
  std::cout << "wrote " << args.out << "/: Containerfile, clgrade-prairielearn (the entrypoint), clgrade.deb, "
            << "question-info.json; build the image there (podman build -t clgrade-grader .), push it where "
               "PrairieLearn pulls from (name it in \"image\"), put the rubric in each question's tests/rubric.xml "
               "and question-info.json's externalGradingOptions in each question's info.json: its timeout is "
            << kPlatformTimeout << " s (PrairieLearn's default of 30 s is too short: a grade takes 16-60 s on a CPU, "
            << "and each of the four tasks may take " << kPlatformTaskTimeout << " s before it is stopped, the whole grade "
            << kPlatformGradeLimit << " s)\n";
  return kOk;
}

int package(const PackageArgs& args) {
  Rubric rubric;
  if (!loadRubricOrComplain(args.rubric, &rubric)) return kUsage;
  std::string rubricXml, deb, err;
  if (!readFile(args.rubric, &rubricXml, &err) || !readFile(args.deb, &deb, &err, size_t(512) << 20)) {
    std::cerr << "clgrade: " << terminalText(err) << "\n";
    return kUsage;
  }
  if (deb.rfind("!<arch>\ndebian-binary", 0) != 0) {
    std::cerr << "clgrade: " << terminalText(args.deb)
              << " is not a .deb (make one with `cpack -G DEB` in a build folder)\n";
    return kUsage;
  }
  if (args.platform == "prairielearn") return packagePrairieLearn(args, deb);
  const std::vector<ArchiveFile> files{{"setup.sh", kSetup, 0755},
                                       {"run_autograder", kRunAutograder, 0755},
                                       {"rubric.xml", rubricXml, 0644},
                                       {"clgrade.deb", deb, 0644}};
  const std::filesystem::path parent = std::filesystem::path(args.out).parent_path();
  if ((!parent.empty() && !makeDirectories(parent.string(), &err)) || !writeZip(args.out, files, &err)) {
    std::cerr << "clgrade: " << terminalText(err) << "\n";
    return kOutput;
  }
  std::cout << "wrote " << args.out << ": setup.sh, run_autograder, rubric.xml (" << rubric.title
            << "), clgrade.deb; upload it as the assignment's autograder, and keep its timeout at "
            << kPlatformTimeout / 60 << " minutes or more (Autograder Settings; Gradescope's default is 10): a grade takes "
            << "about 60 s on Gradescope's default half CPU, and each of the four tasks may take "
            << kPlatformTaskTimeout << " s before it is stopped, the whole grade " << kPlatformGradeLimit << " s\n";
  return kOk;
}

}  // namespace

void addPackageCommand(CLI::App& app, Commands* commands) {
  auto args = std::make_shared<PackageArgs>();
  CLI::App* sub = app.add_subcommand("package", "write what a grading platform needs to run clgrade");
  sub->add_option("platform", args->platform, "gradescope (an autograder zip) | prairielearn (an image folder)")
      ->required()
      ->check(CLI::IsMember({"gradescope", "prairielearn"}));
  sub->add_option("--rubric", args->rubric, "the course's rubric")->capture_default_str();
  sub->add_option("--deb", args->deb,
                  "clgrade's .deb for the platform's image (cpack -G DEB, built on that distribution)")
      ->required();
  sub->add_option("--out", args->out, "the zip (gradescope) or folder (prairielearn) to write")->required();
  commands->push_back({sub, [args] { return package(*args); }});
}

}  // namespace clgrade::cli
