#include "batch/batch.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

#include "batch/class_entry.h"
#include "batch/completion_marker.h"
#include "batch/gpu_placement.h"
#include "batch/shard.h"
#include "batch/trusted_timer.h"
#include "grading/grader.h"
#include "intake/archive_submission.h"
#include "intake/pocl_cache.h"
#include "intake/submission.h"
#include "keeper/control_folder.h"
#include "keeper/machine_timing_lock.h"
#include "keeper/runner_end.h"
#include "keeper/runner_process.h"
#include "keeper/sandbox_probe.h"
#include "model/report_json.h"
#include "report/outputs.h"
#include "report/override_ledger.h"
#include "report/overrides.h"
#include "report/text.h"
#include "roster/roster_json.h"
#include "sandbox/cgroup.h"
#include "sandbox/sandbox.h"
#include "similarity/kept_sources.h"
#include "util/archive.h"
#include "util/cache_home.h"
#include "util/files.h"
#include "util/markup.h"
#include "util/sha256.h"
#include "util/subprocess.h"
#include "util/trace.h"
#include "util/unicode.h"

namespace fs = std::filesystem;

namespace clgrade {

using nlohmann::ordered_json;

/// The NVIDIA GPUs OpenCL lists on the platform of `device`, in its order (none when it is not an
/// NVIDIA GPU).
std::vector<DeviceEntry> nvidiaGpusBeside(const DeviceEntry& device) {
  std::vector<DeviceEntry> gpus;
  if (!isNvidiaGpu(device.info)) return gpus;
  std::string err;
  for (const DeviceEntry& e : listDevices(&err))
    if (e.platformIndex == device.platformIndex && e.info.type == "gpu") gpus.push_back(e);
  if (gpus.empty()) gpus.push_back(device);
  return gpus;
}

namespace {

constexpr int kCoresPerGpuJob = 4, kMostJobsPerGpu = 4;
/// With a submission's tasks in one process (KeeperSettings::tasksTogether), its counters session
/// after them, a job runs one GPU process instead of 5, and about a core and a third of host work:
/// 3 jobs for every 4 cores of a GPU's share. One H200 with 16 cores graded the 32 submissions in
/// 69.6 s with 7 jobs, 63.3 s with 10, 57.8 and 58.8 s with 12, 64.5 s with 14 and 57.5 s with 16
/// (a batch of 32 is paced by its last round); the grades a second, from each grade's median time,
/// went from 0.50 (7 jobs) to 0.63 (12) and 0.66 (16) (docs/performance.md).
constexpr int kTogetherJobsPerFourCores = 3, kMostTogetherJobsPerGpu = 16;
/// A GPU job's share of the memory at the least: its 4 runners' limits (keeper.h's default gives them
/// 3/4 of the memory over all runners) of 3 GiB each. The histogram's runner went past a 1 GiB limit
/// at 4096 x 4096 with NVIDIA's driver; a runner stopped for memory the machine lacked would be the
/// student's failure.
constexpr uint64_t kGpuJobBytes = uint64_t(4) * 3 * (uint64_t(1) << 30) * 4 / 3;
/// A job whose tasks share a process counts as 2 runners (its memory limit is set so): its one
/// process, and the runners of its own a task gets where a part does not end well.
constexpr uint64_t kGpuTogetherJobBytes = uint64_t(2) * 3 * (uint64_t(1) << 30) * 4 / 3;

/// The cores a batch counts its jobs on: those it may run on, or fewer where its groups' CPU quota
/// lends fewer (a container's `--cpus`): jobs for cores that are not there thrash, and a task's
/// time limit counts wall time.
int batchCores() {
  const int quota = cpuQuotaCores();
  return quota > 0 ? std::min(usableCores(), quota) : usableCores();
}

int gpuJobs(int cores, int gpus, uint64_t memoryBytes, bool together, bool* byMemory) {
  int perGpu = together ? std::clamp(cores / gpus * kTogetherJobsPerFourCores / 4, 1, kMostTogetherJobsPerGpu)
                        : std::clamp(cores / gpus / kCoresPerGpuJob, 1, kMostJobsPerGpu);
  if (memoryBytes > 0) {
    const int fit = std::max(1, int(memoryBytes / (together ? kGpuTogetherJobBytes : kGpuJobBytes) / uint64_t(gpus)));
    if (byMemory) *byMemory = fit < perGpu;
    perGpu = std::min(perGpu, fit);
  }
  return gpus * perGpu;
}

}  // namespace

bool tasksTogetherFor(size_t toGrade, size_t tasks, int cores) {
  return toGrade * (tasks + 1) > size_t(std::max(1, cores));
}

int defaultJobs(const DeviceInfo& device, int cores, int gpus, uint64_t memoryBytes, bool tasksTogether) {
  cores = std::max(1, cores);
  if (device.type != "gpu") return cores;
  return gpuJobs(cores, std::max(1, gpus), memoryBytes, tasksTogether, nullptr);
}

std::string defaultJobsReason(const DeviceInfo& device, int cores, int gpus, uint64_t memoryBytes, bool tasksTogether) {
  const std::string c = std::to_string(std::max(1, cores)) + (cores == 1 ? " core" : " cores");
  if (device.type != "gpu") return "one per core: " + c;
  gpus = std::max(1, gpus);
  bool byMemory = false;
  const int perGpu = gpuJobs(std::max(1, cores), gpus, memoryBytes, tasksTogether, &byMemory) / gpus;
  return std::to_string(perGpu) + " per GPU: " + c + (gpus > 1 ? " for " + std::to_string(gpus) + " GPUs" : "") +
         (tasksTogether ? ", a submission's tasks in one process" : "") +
         (byMemory ? ", fewer for " + std::to_string(memoryBytes >> 30) + " GiB of memory" : "");
}

SubmissionList listSubmissions(const std::string& dir, const std::string& exclude) {
  SubmissionList list;
  std::error_code ec;
  const fs::path excluded = exclude.empty() ? fs::path() : fs::weakly_canonical(exclude, ec);
  std::map<std::string, std::vector<std::string>> byName;  // normalised name -> the entries that have it
  bool archives = false;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string entry = it->path().filename().string();
    std::error_code e2;
    if (entry.empty() || (!excluded.empty() && fs::weakly_canonical(it->path(), e2) == excluded)) continue;
    const bool folder = fs::is_directory(it->path(), e2);
    const bool archive = !folder && isArchiveSubmission(it->path().string());
    if (entry[0] == '.') {
      // macOS's ._name files are its zip's metadata, not a student's hand-in: no advice to rename.
      if ((folder || archive) && entry.rfind("._", 0) != 0)
        list.skipped.push_back("'" + entry + "': skipped: a hidden " + (folder ? "folder" : "archive") +
                               " (its name starts with '.'); rename it to grade it");
      continue;
    }
    // The folder macOS adds to a zip it makes holds its metadata, never a student's (found by an intake
    // corpus: a class unpacked from such a zip graded __MACOSX as a student, 0 points, no roster row).
    if (folder && entry == "__MACOSX") {
      list.skipped.push_back("'__MACOSX': skipped: macOS's metadata of the zip the class was unpacked from");
      continue;
    }
    if (!folder && !archive) {
      list.skipped.push_back("'" + entry +
                             "': skipped: neither a submission folder nor an archive (.zip, .tar.gz, .tar.xz, .7z)");
      continue;
    }
    archives = archives || archive;
    byName[nfc(archive ? archiveStem(entry) : entry)].push_back(entry);
  }
  for (auto& [name, entries] : byName) {
    if (entries.size() == 1) {
      list.submissions.push_back({name, entries.front()});
      continue;
    }
    std::sort(entries.begin(), entries.end());
    std::string named;
    for (const std::string& f : entries) {
      named += (named.empty() ? "" : " and ") + ("'" + f + "' (" + codePoints(f) + ")");
      list.submissions.push_back({f, f});
    }
    list.collisions.push_back(named + " are one name once Unicode-normalised (NFC)" +
                              (archives ? " or without an archive's suffix" : "") +
                              ": each is graded under its own file name, but they look alike in the gradebook; "
                              "rename or remove all but one");
  }
  std::sort(list.submissions.begin(), list.submissions.end(),
            [](const SubmissionName& a, const SubmissionName& b) { return a.name < b.name; });
  std::sort(list.skipped.begin(), list.skipped.end());
  return list;
}

bool isArchiveSubmission(const std::string& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec) && looksLikeArchive(path) && !archiveStem(path).empty();
}

namespace {

std::string duration(double s) {
  char buffer[32];
  const long t = static_cast<long>(s + 0.5);
  if (t >= 3600)
    std::snprintf(buffer, sizeof buffer, "%ldh%02ldm", t / 3600, (t / 60) % 60);
  else if (t >= 60)
    std::snprintf(buffer, sizeof buffer, "%ldm%02lds", t / 60, t % 60);
  else
    std::snprintf(buffer, sizeof buffer, "%lds", t);
  return buffer;
}

std::string pointsText(double p) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", p);
  return buffer;
}

std::string dumpJson(const ordered_json& j) { return classFileText(j); }

/// Whether `inner` is `outer` or lies inside it (both as the file system resolves them). Made absolute
/// first: weakly_canonical leaves a relative path whose first part does not exist yet relative
/// (`reports/batch-.` run inside the class folder was not seen inside `.` until it existed).
bool isInside(const fs::path& inner, const fs::path& outer) {
  std::error_code ec;
  return pathWithin(fs::weakly_canonical(fs::absolute(inner, ec), ec),
                    fs::weakly_canonical(fs::absolute(outer, ec), ec));
}

}  // namespace

std::string stagingId(const std::string& name) { return sha256Hex(name).substr(0, 32); }

namespace {

/// The rubric's file of each task the report graded (never a name read inside the submission).
std::vector<std::string> taskFiles(const GradeReport& report) {
  std::vector<std::string> files;
  for (const TaskReport& t : report.tasks)
    if (t.present && std::find(files.begin(), files.end(), t.file) == files.end()) files.push_back(t.file);
  return files;
}

class Batch {
  /// What the jobs of one GPU share: their settings (its CUDA_VISIBLE_DEVICES and locks) and its
  /// trusted figures. Job i runs on places_[i % places_.size()].
  struct GpuPlace {
    DeviceEntry device;  ///< the one its processes see
    KeeperSettings settings;
    std::unique_ptr<TrustedTimer> trusted;
  };

 public:
  Batch(const Rubric& rubric, const DeviceEntry& device, const BatchOptions& options)
      : rubric_(rubric), device_(device), o_(options), tty_(isatty(2)) {}

  BatchSummary run() {
    const auto start = std::chrono::steady_clock::now();
    std::error_code ec;
    if (!fs::is_directory(o_.submissionsDir, ec)) {
      summary_.error = o_.submissionsDir + " is not a folder";
      return summary_;
    }
    // Reports inside the submissions folder would become a submission of the next batch (and the
    // folder holding them would be skipped): refused, with where to put them instead.
    if (isInside(o_.outDir, o_.submissionsDir)) {
      summary_.error = "the output folder " + o_.outDir + " is inside the submissions folder " + o_.submissionsDir +
                       ": choose one outside it";
      return summary_;
    }
    std::string err;
    // The GPUs the jobs go to, before anything is written: a --gpus that names none is a usage error.
    // A --device that names one GPU by its index (nvidia:1) keeps every job on it.
    const bool pinned = o_.keeper.device.find(':') != std::string::npos;
    if (pinned && !o_.gpus.empty()) {
      summary_.error = "--gpus and --device " + o_.keeper.device + " both choose GPUs: give one of them";
      return summary_;
    }
    if (!pinned) gpuDevices_ = nvidiaGpusBeside(device_);
    if (!placeOnGpus(static_cast<int>(gpuDevices_.size()), std::getenv("CUDA_VISIBLE_DEVICES"), o_.gpus, &gpus_,
                     &err)) {
      summary_.error = err;
      return summary_;
    }
    if (!makeDirectories(o_.outDir, &err)) {
      summary_.error = err;
      return summary_;
    }
    out_ = fs::absolute(o_.outDir, ec);
    // One batch per output folder: a second one would grade the same submissions into it.
    lockFd_ = open((out_ / ".batch.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (lockFd_ < 0 || flock(lockFd_, LOCK_EX | LOCK_NB) != 0) {
      summary_.error = "another clgrade batch is writing into " + out_.string();
      return summary_;
    }
    // What a killed batch left half done is discarded and graded again.
    fs::remove_all(out_ / ".partial", ec);
    fs::create_directories(out_ / ".partial", ec);

    // The roster stays with the class: a run without --roster (a resume, new overrides) keeps the one
    // class.json has, so the gradebook's students do not go missing.
    if (o_.roster.empty()) {
      std::string text;
      if (readFile((out_ / "class.json").string(), &text, nullptr)) try {
          const ordered_json earlier = ordered_json::parse(text);
          if (earlier.contains("roster")) o_.roster = rosterFromJson(earlier["roster"]);
        } catch (const nlohmann::json::exception&) {
        }
    }
    if (const CacheEviction evicted = evictSubmissionCachesDaily(); evicted.removed > 0)
      std::fprintf(stderr, "clgrade batch: removed %d PoCL caches of submissions not graded for 14 days or beyond 2 GiB "
                           "(%.0f MB freed, %.0f MB kept)\n",
                   evicted.removed, evicted.freedBytes / 1e6, evicted.keptBytes / 1e6);
    SubmissionList list = listSubmissions(o_.submissionsDir, out_.string());
    if (!checkNames(list.submissions, o_.regrade, "--regrade") ||
        !checkNames(list.submissions, o_.confirmOverrides, "--confirm-overrides") ||
        !checkOverrideNames(list.submissions))
      return summary_;
    confirm_.insert(o_.confirmOverrides.begin(), o_.confirmOverrides.end());
    if (std::string why; !ledger_.load((out_ / kOverrideLedgerFile).string(), &why)) {
      summary_.error = why + ": remove it to record the overrides afresh";
      close(lockFd_);
      return summary_;
    }
    if (o_.shard.active()) {
      // This shard's share only; the skipped folders and collisions are still said (by every shard).
      std::vector<SubmissionName> share;
      for (const SubmissionName& s : list.submissions)
        if (shardOf(s.name, o_.shard.count) == o_.shard.index) share.push_back(s);
      list.submissions = share;
      for (const SubmissionName& s : share) shareNames_.push_back(s.name);
    }
    summary_.submissions = static_cast<int>(list.submissions.size());
    summary_.skipped = list.skipped;
    summary_.collisions = list.collisions;
    std::vector<std::string> names;
    for (const SubmissionName& s : list.submissions) names.push_back(s.name);
    markerSettings_ = {rubric_.sha256, o_.keeper.visibleOnly, o_.onlyTasks, 0, buildId()};
    // One seed for every submission: --seed, else the one this folder's batch started with, else a new one.
    std::optional<uint64_t> seed = o_.hiddenSeed ? o_.hiddenSeed : startedSeed(names);
    o_.keeper.hiddenSeed = seed ? *seed : drawHiddenSeed();
    markerSettings_.hiddenSeed = o_.keeper.hiddenSeed;
    const std::set<std::string> regrade(o_.regrade.begin(), o_.regrade.end());
    for (const SubmissionName& s : list.submissions) {
      // What is graded is hashed before it is graded: files changed meanwhile differ from the marker.
      const std::string entry = (fs::path(o_.submissionsDir) / s.folder).string();
      content_[s.name] = submissionContentSha256(isArchiveSubmission(entry) ? entry : resolveSubmission(entry).kernelsDir);
      if (!o_.regradeAll && !regrade.count(s.name) && complete(s.name)) {
        ++summary_.alreadyDone;
      } else {
        todo_.push_back(s);
      }
    }
    if (std::string why; !saveLedger(&why)) std::fprintf(stderr, "clgrade batch: %s\n", terminalText(why).c_str());
    const int gpus = static_cast<int>(gpus_.size());
    const int cores = batchCores();
    const uint64_t memory = physicalMemoryBytes();
    const size_t tasks = o_.onlyTasks.empty() ? rubric_.tasks.size() : o_.onlyTasks.size();
    const bool together =
        o_.keeper.tasksTogether && (!o_.tasksTogetherByClass || tasksTogetherFor(todo_.size(), tasks, cores));
    const int byDefault = defaultJobs(device_.info, cores, gpus, memory, together);
    jobs_ = std::max(1, std::min(o_.jobs > 0 ? o_.jobs : byDefault, std::max(1, int(todo_.size()))));
    const std::string jobsReason =
        o_.jobs > 0 || jobs_ != byDefault
            ? ""
            : " (the default, " + defaultJobsReason(device_.info, cores, gpus, memory, together) + ")";
    settings_ = o_.keeper;
    settings_.tasksTogether = together;
    // Every submission is graded on the same cases: the stored inputs and CPU results read once, the
    // hidden ones made once.
    settings_.batchShare = std::make_shared<BatchShare>(settings_.hiddenSeed);
    // A job whose tasks share a process runs it and its counters session (its tasks' own runners
    // side by side only where a part did not end well): the limit a runner gets with 2 a job, so that
    // more jobs do not take memory from a task (8 jobs on 128 GiB: 6 GiB, as 4 jobs of 4 runners).
    if (!settings_.memoryLimitBytes)
      settings_.memoryLimitBytes =
          defaultTaskMemoryBytes(jobs_ * (settings_.tasksTogether ? 2 : runnersAtOnce(settings_.taskJobs)));
    // Each GPU its own keeper settings: its processes see it alone, its timed launches and counter
    // sessions take turns on its own locks, and its trusted figures are its own (a node's GPUs
    // need not be alike). One GPU keeps the names it always had.
    const bool ownLock = settings_.timingLock.empty();
    for (int g = 0; g < gpus && g < jobs_; ++g) {
      const std::string suffix = gpus == 1 ? "" : "-gpu" + std::to_string(g);
      auto place = std::make_unique<GpuPlace>();
      // The device its processes see as their only one (a node's GPUs need not be alike).
      const int position = gpus_[g].position;
      place->device = position >= 0 && position < int(gpuDevices_.size()) ? gpuDevices_[position] : device_;
      place->settings = settings_;
      place->settings.visibleGpus = gpus_[g].visible;
      if (ownLock)
        place->settings.timingLock = gpuTimingLock(place->device.info, "timing" + suffix + ".lock", g);
      else if (gpus > 1) place->settings.timingLock += suffix;
      // The trusted kernels' timings, asked by each grade as it starts (the first one times them).
      TrustedTimerSettings timer;
      timer.clgrade = settings_.clgrade;
      timer.request = {rubric_.path,
                       settings_.device,
                       (out_ / (".trusted-timings" + suffix + ".json")).string(),
                       place->settings.timingLock,
                       settings_.store ? settings_.store.root : "none",
                       o_.onlyTasks,
                       settings_.hiddenSeed,
                       /*besideProfiler=*/false,
                       gpus_[g].visible};
      timer.logPath = (out_ / (".trusted-timings" + suffix + ".log")).string();
      timer.minutes = o_.retimeMinutes;
      timer.every = o_.retimeEvery;
      if (settings_.taskTimeoutSeconds > 0) timer.timeoutSeconds = settings_.taskTimeoutSeconds;
      // A re-timing on a GPU waits for the grades running there, as long as a grade may take: each
      // round of tasks a runner and its rerun, and the counters session (ncu after the PTX counters).
      timer.quiet = isHardwareGpu(place->device.info);
      const size_t atOnce = static_cast<size_t>(runnersAtOnce(settings_.taskJobs));
      // With the tasks in one process, that process's parts and its counters session come first (each
      // with its limit), and its tasks and session may then run again alone.
      const size_t oneProcessParts = settings_.tasksTogether ? tasks + 1 : 0;
      timer.quietWaitSeconds =
          settings_.taskTimeoutSeconds * double(2 * ((tasks + atOnce - 1) / atOnce) + 2 + oneProcessParts);
      place->trusted = std::make_unique<TrustedTimer>(timer);
      TrustedTimer* trusted = place->trusted.get();
      place->settings.trustedTimings = [trusted] { return trusted->current(); };
      places_.push_back(std::move(place));
    }
    const std::string shardText = o_.shard.active() ? " (shard " + o_.shard.text() + ")" : "";
    std::string where = device_.info.name;
    if (places_.size() > 1) {
      bool alike = true;
      for (const auto& p : places_) alike = alike && p->device.info.name == places_.front()->device.info.name;
      where = std::to_string(places_.size()) + " GPUs (";
      for (size_t g = 0; g < places_.size(); ++g)
        where += (g ? ", " : "") + gpus_[g].label + (alike ? "" : ": " + places_[g]->device.info.name);
      where += ")" + (alike ? ", " + places_.front()->device.info.name : "");
    }
    std::fprintf(stderr, "clgrade batch: %d submissions in %s%s, %d already graded, %zu to grade with %d job%s%s on %s\n",
                 summary_.submissions, terminalText(o_.submissionsDir).c_str(), shardText.c_str(), summary_.alreadyDone,
                 todo_.size(), jobs_, jobs_ == 1 ? "" : "s", jobsReason.c_str(), where.c_str());
    if (o_.keeper.tasksTogether && !together && !todo_.empty())
      std::fprintf(stderr,
                   "clgrade batch: each task in a process of its own: %zu submission%s of %zu task%s start%s no more "
                   "processes than the %d cores (--task-processes one keeps a submission's tasks in one)\n",
                   todo_.size(), todo_.size() == 1 ? "" : "s", tasks, tasks == 1 ? "" : "s",
                   todo_.size() == 1 ? "s" : "", cores);
    // Folder names are the students' text: escaped for the terminal.
    for (const std::string& m : list.skipped) std::fprintf(stderr, "clgrade batch: %s\n", terminalName(m).c_str());
    for (const std::string& m : list.collisions) std::fprintf(stderr, "clgrade batch: %s\n", terminalName(m).c_str());
    // Before the first submission: the tasks' sandbox sees the device and reaches every path, or
    // nothing is graded (every submission would be a machine fault).
    if (!todo_.empty()) {
      summary_.machineFault = probeSandboxes();
      if (!summary_.machineFault.empty()) {
        fs::remove_all(out_ / ".partial", ec);
        if (!lockFolder_.empty()) fs::remove_all(lockFolder_, ec);
        close(lockFd_);
        return summary_;
      }
      for (auto& place : places_) place->settings.sandboxProbed = true;
    }
    writeClass();
    start_ = start;
    std::vector<std::thread> workers;
    for (int i = 0; i < jobs_; ++i) workers.emplace_back([this, i] { work(*places_[i % places_.size()]); });
    for (std::thread& t : workers) t.join();
    if (tty_) std::fprintf(stderr, "\n");
    // The class results as they stand at the end: a class file that cannot be written makes the batch
    // fail (exit 4), naming it, even when every submission's own results were written.
    if (!writeClass()) summary_.notWrittenFiles.push_back(classWriteError_);
    const ordered_json classJson = classResults();
    std::vector<std::string> problems, errors;
    if (!o_.shard.active()) {
      const trace::Span span("class outputs", "batch");
      writeClassOutputs(out_.string(), classJson, &errors, classOverrides(), &problems, o_.audience, o_.similarity);
    }
    sayStaleOverrides();
    // Rows removed from the overrides file are forgotten; a run without one forgets nothing.
    if (!o_.overrides.empty()) ledger_.keepOnly(o_.overrides);
    if (std::string why; !saveLedger(&why)) errors.push_back(why);
    for (const std::string& e : errors) {
      std::fprintf(stderr, "clgrade batch: class outputs: %s\n", terminalText(e).c_str());
      summary_.notWrittenFiles.push_back(e);
    }
    for (const std::string& p : problems) std::fprintf(stderr, "clgrade batch: %s\n", terminalText(p).c_str());
    fs::remove_all(out_ / ".partial", ec);
    if (!lockFolder_.empty()) fs::remove_all(lockFolder_, ec);
    summary_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    close(lockFd_);
    return summary_;
  }

 private:
  /// The timing lock of a GPU of the batch: the machine's for that GPU, which other batches and
  /// grades on it take too (keeper/machine_timing_lock.h); else the batch's own, and the log says so.
  std::string gpuTimingLock(const DeviceInfo& gpu, const std::string& ownName, int g) {
    std::string why;
    const std::string machine = machineTimingLock(gpu, settings_.sandbox, &why);
    if (!machine.empty()) return machine;
    if (isHardwareGpu(gpu))
      std::fprintf(stderr, "clgrade batch: %s: timed launches take turns within this batch only (%s)\n",
                   gpus_.size() > 1 ? gpus_[g].label.c_str() : "the GPU", terminalText(why).c_str());
    return ownTimingLock(ownName);
  }

  /// The batch's own timing lock, which every job's runners share: in the results folder, or where the sandboxes can
  /// reach it when they cannot reach that (a results folder below a private one, `mktemp -d`).
  std::string ownTimingLock(const std::string& name) {
    const std::string inside = (out_ / ("." + name)).string();
    if (!settings_.sandbox || sandboxCanReach(inside)) return inside;
    if (lockFolder_.empty()) lockFolder_ = makeReachableTempFolder("clgrade-batch");
    return lockFolder_.empty() ? inside : lockFolder_ + "/" + name;
  }

  /// The keeper's probe for each GPU the batch uses, side by side: "" when every one saw its device
  /// and every path, else the first fault (named by its GPU where there are several).
  std::string probeSandboxes() {
    std::vector<std::future<std::string>> probes;
    for (size_t g = 0; g < places_.size(); ++g)
      probes.push_back(std::async(std::launch::async, [this, g] {
        const std::string fault = probeSandbox(*places_[g], places_.size() == 1 ? "" : "-gpu" + std::to_string(g));
        return fault.empty() || places_.size() == 1 ? fault : gpus_[g].label + ": " + fault;
      }));
    std::string first;
    for (auto& p : probes)
      if (std::string fault = p.get(); first.empty()) first = fault;
    return first;
  }

  /// The keeper's probe (keeper/sandbox_probe.h) once for the whole batch (a GPU of it), in a sandbox
  /// like every runner's; "" when it saw the device and every path.
  std::string probeSandbox(const GpuPlace& place, const std::string& suffix) {
    const KeeperSettings& settings = place.settings;
    const fs::path dir = out_ / (".probe" + suffix);
    std::error_code ec;
    fs::remove_all(dir, ec);
    makeDirectories((dir / "kernels").string(), nullptr);  // names the probe's (unused) PoCL cache
    ControlFolder folders(dir.string(), settings.sandbox);
    RunnerProcess launcher(RunnerPlace{&settings, (dir / "kernels").string()});
    const std::string fault = probeRunnerSandbox(rubric_, place.device.info, settings, folders, launcher);
    folders.removeAll();
    fs::remove_all(dir, ec);
    return fault;
  }

  /// A completed submission with tasks killed from outside, graded once more on this run.
  struct Retry {
    GradeReport report;              ///< what its folder holds
    std::vector<std::string> tasks;  ///< the tasks graded again
  };

  /// A folder with a marker matching this batch and a readable report: its class entry is loaded. Not
  /// complete after all when a task of it was killed from outside and not yet retried (retries_).
  bool complete(const std::string& name) {
    const fs::path dir = out_ / name;
    std::string text;
    if (!readFile((dir / "batch.json").string(), &text, nullptr)) return false;
    try {
      const ordered_json stored = ordered_json::parse(text), wanted = marker(name);
      if (const std::string why = whyGradeAgain(stored, wanted); !why.empty()) {
        // A resubmission is news to the instructor; a whole class graded again for another rubric or
        // build is said once, by the count of those graded.
        if (why == "its files changed since it was graded") {
          std::fprintf(stderr, "clgrade batch: %s: %s: graded again\n", terminalName(name).c_str(), why.c_str());
          ++summary_.changed;
        }
        return false;
      }
      GradeReport report;
      std::string why;
      if (!readReportFile((dir / "report.json").string(), &report, &why)) return false;
      entries_[name] = classEntry(name, report, overridesFor(name, report));
      // A task killed from outside (the out-of-memory killer) is graded once more; until then the
      // class results keep what this folder holds.
      const std::vector<std::string> retry = tasksToRetryOnResume(report);
      if (!retry.empty()) {
        std::string ids;
        for (const std::string& id : retry) ids += (ids.empty() ? "" : ", ") + id;
        std::fprintf(stderr, "clgrade batch: %s: %s killed from outside on the last run: graded once more\n",
                     terminalName(name).c_str(), terminalText(ids).c_str());
        retries_[name] = Retry{std::move(report), retry};
        return false;
      }
      return true;
    } catch (const nlohmann::json::exception&) {
      return false;
    }
  }

  /// The hidden seed of a batch already started in the output folder: that of the first completion
  /// marker that matches this batch in everything but the seed (none in a check, or a fresh folder).
  std::optional<uint64_t> startedSeed(const std::vector<std::string>& names) const {
    if (o_.keeper.visibleOnly) return std::nullopt;
    for (const std::string& name : names) {
      std::string text;
      if (!readFile((out_ / name / "batch.json").string(), &text, nullptr)) continue;
      try {
        if (const auto seed = seedOfBatch(ordered_json::parse(text), marker(name))) return seed;
      } catch (const nlohmann::json::exception&) {
      }
    }
    return std::nullopt;
  }

  /// An override naming no submission of the class is refused before anything is graded (a typo in a
  /// name would leave that student's grade unadjusted), unless the instructor allows it.
  bool checkOverrideNames(const std::vector<SubmissionName>& submissions) {
    if (o_.allowUnknownOverrides) return true;
    std::vector<std::string> names;
    for (const SubmissionName& s : submissions) names.push_back(s.name);
    const std::vector<std::string> unknown = unknownOverrideSubmissions(o_.overrides, names);
    if (unknown.empty()) return true;
    for (const std::string& m : unknown) summary_.error += (summary_.error.empty() ? "" : "\n") + m;
    summary_.error += "\n(--allow-unknown-overrides grades the class all the same, those overrides not applied)";
    close(lockFd_);
    return false;
  }

  /// The ledger as it stands, saved whenever a submission's results are in place (and after the kept
  /// ones were read), so a killed batch keeps what its written results were given.
  bool saveLedger(std::string* why) {
    if (o_.overrides.empty() && !fs::exists(out_ / kOverrideLedgerFile)) return true;
    return ledger_.save((out_ / kOverrideLedgerFile).string(), why);
  }

  /// The stale overrides, where the instructor looks at the end of the run.
  void sayStaleOverrides() {
    int count = 0;
    for (const auto& [name, list] : stale_)
      for (const StaleOverride& o : list) {
        const std::string where = o.where.empty() ? "" : o.where + ": ";
        std::fprintf(stderr, "clgrade batch: %s: %s\n", terminalName(name).c_str(),
                     terminalText(where + o.message).c_str());
        ++count;
      }
    summary_.staleOverrides = count;
  }

  /// The completion marker of submission `name` as this batch grades it now.
  ordered_json marker(const std::string& name) const {
    const auto content = content_.find(name);
    return completionMarker(markerSettings_, name, content == content_.end() ? "" : content->second);
  }

  /// --regrade and --confirm-overrides name only submissions of this batch: a typo would keep that
  /// student's old grade. (Every shard checks them against the whole class: each acts on its share.)
  bool checkNames(const std::vector<SubmissionName>& submissions, const std::vector<std::string>& names,
                  const std::string& option) {
    std::set<std::string> known;
    for (const SubmissionName& s : submissions) known.insert(s.name);
    for (const std::string& name : names)
      if (!known.count(name)) {
        summary_.error = option + " " + name + ": no submission of that name in " + o_.submissionsDir;
        close(lockFd_);
        return false;
      }
    return true;
  }

  /// The submission's class.json entry with the instructor's overrides applied, as every other
  /// output shows it (report.json itself keeps what was measured).
  ordered_json classEntry(const std::string& name, GradeReport report, const std::vector<Override>& overrides) const {
    applyOverrides(overrides, name, &report);
    ordered_json entry = classJsonEntry(name, report);
    std::lock_guard<std::mutex> lock(overridesMutex_);
    const auto stale = stale_.find(name);
    if (stale != stale_.end() && !stale->second.empty()) entry["stale_overrides"] = staleOverridesJson(stale->second);
    return entry;
  }

  /// The overrides of `name` that apply to its `report`, by the ledger (report/override_ledger.h);
  /// the stale ones are kept aside for class.json and said at the end.
  std::vector<Override> overridesFor(const std::string& name, const GradeReport& report) {
    std::vector<StaleOverride> stale;
    std::vector<Override> now = ledger_.current(o_.overrides, name, report, confirm_.count(name) > 0, &stale);
    std::lock_guard<std::mutex> lock(overridesMutex_);
    applied_[name] = now;
    stale_[name] = stale;
    return now;
  }

  /// Every override the class outputs apply: those current for each submission, and those naming no
  /// submission of the batch (writeClassOutputs says so).
  std::vector<Override> classOverrides() const {
    std::vector<Override> all;
    std::lock_guard<std::mutex> lock(overridesMutex_);
    for (const auto& [name, list] : applied_) all.insert(all.end(), list.begin(), list.end());
    for (const Override& o : o_.overrides)
      if (!content_.count(o.submission)) all.push_back(o);
    return all;
  }

  bool next(SubmissionName* s) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (nextIndex_ >= todo_.size()) return false;
    *s = todo_[nextIndex_++];
    ++running_;
    return true;
  }

  void work(const GpuPlace& place) {
    SubmissionName s;
    while (next(&s)) {
      try {
        gradeOne(s.name, s.folder, place);
      } catch (const std::exception& e) {  // ours, not the submission's: say so and go on
        std::lock_guard<std::mutex> lock(mutex_);
        --running_;
        ++summary_.graded;
        ++summary_.notWritten;
        std::fprintf(stderr, "%sclgrade batch: %s: not graded: %s\n", tty_ ? "\r\033[K" : "",
                     terminalName(s.name).c_str(), terminalText(e.what()).c_str());
      }
    }
  }

  /// Grades the submission in `folder` (of the submissions folder) under `name`.
  void gradeOne(const std::string& name, const std::string& folderName, const GpuPlace& place) {
    const KeeperSettings& settings = place.settings;
    const trace::Span span("grade " + name, "submission");
    std::error_code ec;
    if (isClassFileName(name)) {
      std::string names;
      for (const std::string& n : classTopLevelNames()) names += (names.empty() ? "" : ", ") + n;
      const std::string why = "a submission folder may not be named like a class file (" + names +
                              " are written into the output folder): rename it";
      std::lock_guard<std::mutex> lock(mutex_);
      --running_;
      ++summary_.graded;
      ++summary_.notWritten;
      // In class.json too, as every submission not graded is (found by an intake corpus: a folder named
      // gradebook.csv was said on the terminal only, and missing from the gradebook's rows).
      recordNotGraded(name, why);
      std::fprintf(stderr, "%sclgrade batch: %s: not graded: %s\n", tty_ ? "\r\033[K" : "", terminalName(name).c_str(),
                   why.c_str());
      return;
    }
    const fs::path partial = out_ / ".partial" / stagingId(name);
    const fs::path final = out_ / name;
    fs::remove_all(partial, ec);
    fs::create_directories(partial, ec);
    // An archive is unpacked in a sandbox of its own (intake/archive_submission.h) and its folder
    // graded; one the student damaged fails every task with the reason.
    std::string entry = (fs::path(o_.submissionsDir) / folderName).string();
    // A folder holding only the archive the student uploaded (an LMS's download) is that archive.
    if (!isArchiveSubmission(entry))
      if (const std::string archive = loneArchive(entry); !archive.empty()) entry = archive;
    const std::string shown = fs::path(entry).lexically_relative(o_.submissionsDir).string();  // "bob/kernels.zip"
    std::optional<UnpackedSubmission> unpacked;
    SubmissionFolder folder;
    std::vector<std::string> notices;  // the report's (GradeReport::notices), said on the terminal too
    if (isArchiveSubmission(entry)) {
      unpacked.emplace(unpackSubmission(entry, settings_.clgrade, settings_.sandbox));
      for (const std::string& line : leftOutLines(*unpacked, unpacked->leftOut.size()))
        std::fprintf(stderr, "%sclgrade batch: %s: left out %s\n", tty_ ? "\r\033[K" : "", terminalName(name).c_str(),
                     terminalText(line).c_str());
      notices = leftOutNotices(*unpacked, fs::path(entry).filename().string());
      if (unpacked->folder.empty() && !unpacked->archiveAtFault) {
        notGraded(name, shown + " could not be unpacked on this machine: " + unpacked->error);
        return;
      }
      if (unpacked->folder.empty()) {
        folder.kernelsDir = unpacked->scratch;
        folder.problem = shown + " cannot be unpacked: " + unpacked->error;
      } else {
        folder = resolveSubmission(unpacked->folder);
      }
    } else {
      folder = resolveSubmission(entry);
    }
    for (const std::string& notice : folder.notices)
      std::fprintf(stderr, "%sclgrade batch: %s: note: %s\n", tty_ ? "\r\033[K" : "", terminalName(name).c_str(),
                   terminalText(notice).c_str());
    notices.insert(notices.end(), folder.notices.begin(), folder.notices.end());
    const std::string kernels = fs::absolute(folder.kernelsDir, ec).string();
    const auto retry = retries_.find(name);  // filled before the workers start: read-only here
    SubmissionResult g;
    if (retry == retries_.end()) {
      g = keepSubmission(rubric_, place.device, kernels, partial.string(), o_.onlyTasks, settings, folder.problem);
    } else {
      g = gradeAgain(retry->second, final, partial, kernels, folder.problem, place);
    }
    g.report.notices = notices;
    std::string err;
    if (const std::string fault = g.report.machineFault(); !fault.empty()) {
      notGraded(name, fault);
      return;
    }
    const std::vector<Override> overrides = overridesFor(name, g.report);
    // Every output, not only report.json: a submission whose Gradescope file could not be written is
    // not complete (no marker), so the batch says so, exits 4, and a resume grades it again.
    bool written = writeFileAtomically((partial / "report.json").string(), toJson(g.report), &err) &&
                   writeSubmissionOutputs(partial.string(), g.report, &err, {overrides, name, o_.audience}) &&
                   keepSources(kernels, taskFiles(g.report), partial.string(), &err);
    // The marker last: a folder without it is never taken as complete.
    written =
        written && writeFileAtomically((partial / "batch.json").string(), dumpJson(marker(name)), &err);
    if (written) {
      const fs::path old = out_ / ".partial" / (stagingId(name) + "-old");
      fs::remove_all(old, ec);
      if (fs::exists(fs::symlink_status(final, ec))) fs::rename(final, old, ec);
      fs::rename(partial, final, ec);
      if (ec) {
        written = false;
        err = "cannot move " + partial.string() + " to " + final.string() + ": " + ec.message();
      }
      fs::remove_all(old, ec);
    }
    int stoppedTasks = 0;
    for (const TaskRun& r : g.runs)
      if (r.stopped()) ++stoppedTasks;
    std::lock_guard<std::mutex> lock(mutex_);
    --running_;
    ++summary_.graded;
    if (stoppedTasks) ++summary_.stopped;
    if (written) {
      entries_[name] = classEntry(name, g.report, overrides);
      writeClass();
      if (std::string why; !saveLedger(&why))
        std::fprintf(stderr, "%sclgrade batch: %s\n", tty_ ? "\r\033[K" : "", terminalText(why).c_str());
    } else {
      ++summary_.notWritten;
      std::fprintf(stderr, "%sclgrade batch: %s: results not written: %s\n", tty_ ? "\r\033[K" : "",
                   terminalName(name).c_str(), terminalText(err).c_str());
    }
    report(name, g, stoppedTasks);
  }

  /// A submission the grading machine kept from being graded (a runner that could not start or see
  /// the device): no total, no outputs and no marker (a run again grades it; a folder graded before
  /// stays as it was), the fault in class.json and so in the gradebook's `problem` column and
  /// summary.html; the batch exits 3.
  void notGraded(const std::string& name, const std::string& fault) {
    std::lock_guard<std::mutex> lock(mutex_);
    --running_;
    ++summary_.graded;
    ++summary_.notGraded;
    recordNotGraded(name, "a fault of the grading machine, not of the submission: " + fault);
    std::fprintf(stderr,
                 "%sclgrade batch: %s: not graded: a fault of this machine, not of the submission: %s (run the "
                 "batch again to grade it)\n",
                 tty_ ? "\r\033[K" : "", terminalName(name).c_str(), terminalText(fault).c_str());
  }

  /// A submission with no report, in class.json with why (the gradebook's `problem` column and
  /// summary.html say it): rewritten there at once. The caller holds mutex_.
  void recordNotGraded(const std::string& name, const std::string& why) {
    entries_[name] = ordered_json{{"submission", name}, {"not_graded", why}};
    writeClass();
  }

  /// The tasks of a completed submission that were killed from outside, graded once more: the
  /// completed folder is copied to `partial` without those tasks' evidence, they are graded there,
  /// and the report is the completed one with those tasks replaced (their outcome saying so).
  SubmissionResult gradeAgain(const Retry& retry, const fs::path& completed, const fs::path& partial,
                              const std::string& kernels, const std::string& kernelsProblem, const GpuPlace& place) {
    std::error_code ec;
    fs::copy(completed, partial, fs::copy_options::recursive | fs::copy_options::copy_symlinks, ec);
    if (ec)
      throw std::runtime_error("cannot copy " + completed.string() + " to " + partial.string() + ": " + ec.message());
    fs::remove(partial / "batch.json", ec);  // written again last
    for (const std::string& id : retry.tasks) fs::remove_all(partial / "evidence" / id, ec);
    SubmissionResult g =
        keepSubmission(rubric_, place.device, kernels, partial.string(), retry.tasks, place.settings, kernelsProblem);
    GradeReport merged = retry.report;
    for (TaskReport& again : g.report.tasks) {
      const auto first =
          std::find_if(merged.tasks.begin(), merged.tasks.end(), [&](const TaskReport& t) { return t.id == again.id; });
      if (first == merged.tasks.end()) continue;
      again.process.outcome = retriedOnResumeOutcome(again.process.outcome, first->process.outcome);
      *first = std::move(again);
    }
    std::set<std::string> seen;
    for (const InputRecord& in : merged.inputs) seen.insert(in.name + "\n" + in.sha256);
    for (const InputRecord& in : g.report.inputs)
      if (seen.insert(in.name + "\n" + in.sha256).second) merged.inputs.push_back(in);
    merged.sumPoints();
    g.report = std::move(merged);
    return g;
  }

  ordered_json classResults() const {
    ordered_json list = ordered_json::array();
    for (const auto& [name, entry] : entries_) list.push_back(entry);  // std::map: sorted by name
    ordered_json j{{"schema", "clgrade-class/1"},
                   {"rubric", {{"id", rubric_.id}, {"title", rubric_.title}, {"sha256", rubric_.sha256}}},
                   {"mode", o_.keeper.visibleOnly ? "check" : "grade"},
                   {"tasks", o_.onlyTasks}};
    // Every submission's hidden inputs came from this seed (a check runs none).
    if (!o_.keeper.visibleOnly) j["hidden_seed"] = o_.keeper.hiddenSeed;
    j["device"] = device_.info.name;
    j["clgrade_version"] = clgradeVersion();
    // What `clgrade merge` needs to tell a complete class from a missing shard or submission (it
    // drops this key: the merged class.json is the one a single batch writes).
    if (o_.shard.active())
      j["shard"] = {{"index", o_.shard.index}, {"count", o_.shard.count}, {"submissions", shareNames_}};
    if (!o_.roster.empty()) j["roster"] = rosterJson(o_.roster);
    j["submissions_found"] = summary_.submissions;
    j["submissions_graded"] = entries_.size();
    j["submissions"] = list;
    return j;
  }

  /// Rewrites class.json; false (said on stderr, the reason kept in classWriteError_) when it could not.
  bool writeClass() {
    std::string err;
    if (writeFileAtomically((out_ / "class.json").string(), dumpJson(classResults()), &err)) return true;
    std::fprintf(stderr, "%sclgrade batch: class results: %s\n", tty_ ? "\r\033[K" : "", terminalText(err).c_str());
    classWriteError_ = err;
    return false;
  }

  void report(const std::string& name, const SubmissionResult& g, int stoppedTasks) {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const int done = summary_.graded;
    const int remaining = static_cast<int>(todo_.size()) - done;
    const double eta = done ? elapsed / done * remaining : 0;
    const int total = summary_.submissions;
    const int finished = summary_.alreadyDone + done;
    // A folder name is the student's text: control characters shown, never obeyed (the \r and
    // escape sequences below are clgrade's own), a line break as \n (found by an intake corpus: a
    // name with one printed a fake line of progress).
    std::string line = "[" + std::to_string(finished) + "/" + std::to_string(total) + "] " + terminalName(name) + ": " +
                       pointsText(g.report.total) + "/" + pointsText(g.report.max);
    if (stoppedTasks) {
      line += " (";
      bool first = true;
      for (const TaskRun& r : g.runs)
        if (r.stopped()) {
          line += (first ? "" : ", ") + r.task + " " + r.outcome;
          first = false;
        }
      line += ")";
    }
    std::string status = std::to_string(summary_.stopped) + " with stopped or crashed tasks";
    if (remaining > 0)
      status += ", " + std::to_string(running_) + " running, ETA " + duration(eta);
    else
      status += ", done in " + duration(elapsed);
    if (tty_)
      std::fprintf(stderr, "\r\033[K%s\n[%d/%d] %s", line.c_str(), finished, total, status.c_str());
    else
      std::fprintf(stderr, "%s; %s\n", line.c_str(), status.c_str());
    std::fflush(stderr);
  }

  const Rubric& rubric_;
  const DeviceEntry& device_;
  BatchOptions o_;  ///< a copy: run() settles the hidden seed in it
  const bool tty_;
  KeeperSettings settings_;  ///< the batch's, before they are placed on GPUs
  std::vector<DeviceEntry> gpuDevices_;  ///< the NVIDIA GPUs this process sees (none: not placed)
  std::vector<GpuSlot> gpus_;
  std::vector<std::unique_ptr<GpuPlace>> places_;
  fs::path out_;
  int lockFd_ = -1;
  OverrideLedger ledger_;
  std::set<std::string> confirm_;  ///< --confirm-overrides
  mutable std::mutex overridesMutex_;
  std::map<std::string, std::vector<Override>> applied_;     ///< the overrides applied to each submission
  std::map<std::string, std::vector<StaleOverride>> stale_;  ///< its stale overrides
  MarkerSettings markerSettings_;
  std::map<std::string, std::string> content_;  ///< each submission's files' hash, taken before grading
  std::string lockFolder_;  ///< the timing lock's folder outside the results folder ("" none)
  int jobs_ = 1;
  std::vector<SubmissionName> todo_;
  std::vector<std::string> shareNames_;  ///< in shard mode: the shard's submissions, sorted
  size_t nextIndex_ = 0;
  int running_ = 0;
  std::map<std::string, ordered_json> entries_;
  std::map<std::string, Retry> retries_;
  BatchSummary summary_;
  std::string classWriteError_;
  std::mutex mutex_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace

BatchSummary runBatch(const Rubric& rubric, const DeviceEntry& device, const BatchOptions& options) {
  Batch batch(rubric, device, options);
  return batch.run();
}

}  // namespace clgrade
