#include "runner/session_args.h"

#include <CLI/CLI.hpp>

#include "util/install_layout.h"

namespace clgrade {

void addSessionOptions(CLI::App* profiler, SessionArgs* session) {
  profiler->add_option("kernels-dir", session->kernelsDir)->required();
  profiler->add_option("--ncu", session->ncu, "NVIDIA's profiler (where --counters ptx: none needed)");
  profiler->add_option("--clgrade", session->clgrade);
  profiler->add_option("--rubric", session->rubric)->required();
  profiler->add_option("--out", session->out)->required();
  profiler->add_option("--log-file", session->csv)->required();
  profiler->add_option("--task", session->tasks)->required();
  profiler->add_option("--atomics", session->atomics);
  profiler->add_option("--profile", session->profile,
                       "task, or task:kernel, whose counters are read (default: every task's)");
  profiler->add_flag("--profile-none", session->profileNone, "no counters: the replay counts the atomics alone");
  profiler->add_option("--timeout", session->timeout);
  profiler
      ->add_option("--counters", session->counters,
                   "ncu; cupti: the replay counts itself (ncu where it cannot); ptx: the replay's PTX counters, "
                   "no profiler (exit 6 where they cannot)")
      ->check(CLI::IsMember({"ncu", "cupti", "ptx"}));
  profiler->add_option("--hidden-seeds", session->seeds, "count the drawn analysis cases on these hidden inputs")
      ->expected(4);
}

ProfilerSessionArgs sessionArgsOf(const SessionArgs& session) {
  ProfilerSessionArgs a;
  a.ncu = session.ncu;
  a.clgrade = session.clgrade.empty() ? toolsFolder() + "/clgrade" : session.clgrade;
  a.kernelsDir = session.kernelsDir;
  a.rubricPath = session.rubric;
  a.tasks = session.tasks;
  a.atomics = session.atomics;
  a.profile = session.profile;
  a.profileNone = session.profileNone;
  a.workDir = session.out;
  a.csvPath = session.csv;
  a.timeoutSeconds = session.timeout;
  if (session.seeds.size() == 4)
    a.seeds = HiddenSeeds{session.seeds[0], session.seeds[1], session.seeds[2], session.seeds[3]};
  a.counters = session.counters;
  return a;
}

bool parseSessionCommandLine(const std::vector<std::string>& argv, ProfilerSessionArgs* args, std::string* err) {
  if (argv.size() < 2 || argv[1] != "hwsession") {
    *err = "not a hwsession command line";
    return false;
  }
  SessionArgs session;
  CLI::App app;
  addSessionOptions(&app, &session);
  std::vector<std::string> rest(argv.rbegin(), argv.rend() - 2);  // CLI11 takes them last first
  try {
    app.parse(rest);
  } catch (const CLI::ParseError& e) {
    *err = std::string("the hwsession command line does not read: ") + e.what();
    return false;
  }
  *args = sessionArgsOf(session);
  return true;
}

}  // namespace clgrade
