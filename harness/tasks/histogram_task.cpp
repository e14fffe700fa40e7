// Task 4: 64-bin histogram of the gray image, with global atomics and with local memory (spec section 4).
#include <cmath>

#include "cl/kernel_args.h"
#include "cpu/reference.h"
#include "tasks/params.h"
#include "tasks/task_context.h"
#include "tasks/technique.h"
#include "tasks/typed_task.h"

namespace clgrade {
namespace {

struct HistogramCase {
  std::string input;
  int width = 0, height = 0;
  int bins = 64;
};

bool readCaseParams(const CaseSpec& spec, HistogramCase* c, std::string* err) {
  ParamReader r(spec);
  c->input = r.choice("input", "photo", {"photo", "scene", "extremes"});
  c->width = r.integer("width", 780, 1, 8192);
  c->height = r.integer("height", 575, 1, 8192);
  c->bins = r.integer("bins", 64, 1, 256);  // the clear kernel runs on 256 items
  return r.ok(err);
}

/// "bin 63: expected 1200, got 0" lines for the bins that differ, at most `limit`.
std::vector<std::string> binDifferences(const std::vector<int32_t>& expected, const std::vector<int32_t>& actual,
                                        size_t limit, long* wrongBins) {
  std::vector<std::string> lines;
  *wrongBins = 0;
  for (size_t b = 0; b < expected.size(); ++b) {
    if (expected[b] == actual[b]) continue;
    ++*wrongBins;
    if (lines.size() < limit)
      lines.push_back("bin " + std::to_string(b) + ": expected " + std::to_string(expected[b]) + ", got " +
                      std::to_string(actual[b]));
  }
  return lines;
}

/// Binds a histogram kernel's six arguments (and the local array of the local-memory variant).
void bindCount(const Runtime& rt, cl::Kernel& count, const cl::Buffer& hist, const cl::Buffer& img,
               const HistogramCase& c, int pitch, bool local) {
  setArg(rt, count, 0, hist);
  setArg(rt, count, 1, img);
  setArg(rt, count, 2, c.width);
  setArg(rt, count, 3, c.height);
  setArg(rt, count, 4, pitch);
  setArg(rt, count, 5, c.bins);
  if (local) setArg(rt, count, 6, cl::Local(sizeof(cl_int) * c.bins));
}

class HistogramTask : public TypedTask<HistogramCase> {
 public:
  const TaskInfo& info() const override {
    static const TaskInfo info{
        "histogram",
        "Histogram",
        "histogram.cl",
        {"set_array_to_constant(__global int* array, int num_elements, int val)",
         "compute_histogram(__global int* histogram, __global const float* img, int width, int height, int pitch, "
         "int num_hist_bins)",
         "compute_histogram_local_memory(__global int* histogram, __global const float* img, int width, int height, "
         "int pitch, int num_hist_bins, __local int* local_hist)"},
        {{"global", "compute_histogram: counts equal to the CPU's", ""},
         {"local", "compute_histogram_local_memory: counts equal to the CPU's", ""},
         {"local_atomics",
          "local atomics per group, merged with at most one global atomic per bin (simulated)",
          "",
          true,
          false,
          {HardwareRule::Kind::AtomicsPerWorkItem, "compute_histogram_local_memory", 0, 4, {}}},
         strayWritesCheck()},
        {{"compute_histogram", {"global"}}, {"compute_histogram_local_memory", {"local"}}}};
    return info;
  }

  bool readCase(const CaseSpec& spec, HistogramCase* c, std::string* err) const override {
    return readCaseParams(spec, c, err);
  }

  void run(TaskContext& ctx, const CaseSpec& spec, const HistogramCase& c,
           std::map<std::string, CaseOutcome>* out) const override {
    const Image gray = ref::grayscale(ctx.inputs().forCase(spec).colour(c.input, c.width, c.height));
    const std::vector<int32_t> expected = ref::histogram(gray, c.bins);

    auto run = [&](CaseOutcome& o, const std::string& name, bool local) {
      const Runtime& rt = ctx.runtime();
      const BuildResult& program = ctx.build("");
      cl::Kernel clear = ctx.kernel(program, "set_array_to_constant");
      cl::Kernel count = ctx.kernel(program, name);
      const auto group = ctx.groupSize(count, {16, 16}, &o);
      const Geometry g{{roundUp(c.width, group[0]), roundUp(c.height, group[1])}, {group[0], group[1]}};
      const int pitch = pitchOf(c.width);

      DevicePlane<float> img(rt, c.width, c.height, pitch, static_cast<int>(g.global[1]) + 1);
      img.upload(rt, gray.plane(0), 0.0f, NAN, NAN);
      DevicePlane<int32_t> hist(rt, c.bins, 1, c.bins, 1);
      hist.fill(rt, kIntSentinel);

      setArg(ctx.runtime(), clear, 0, hist.buffer());
      setArg(ctx.runtime(), clear, 1, c.bins);
      setArg(ctx.runtime(), clear, 2, 0);
      const size_t clearGroup = ctx.groupSize(clear, {256, 1}, &o)[0];
      const double clearMs = launch1d(rt, clear, roundUp(256, clearGroup), clearGroup);
      ctx.timing(o, "set_array_to_constant", clearMs, Geometry{{roundUp(256, clearGroup), 1}, {clearGroup, 1}});

      bindCount(rt, count, hist.buffer(), img.buffer(), c, pitch, local);
      ctx.timing(o, name, launch2d(rt, count, g), g);

      WriteAudit audit;
      const std::vector<int32_t> actual = hist.download(rt, kIntSentinel, &audit);
      audit.addInputWrites(img.writesSinceUpload(rt));
      long wrongBins = 0;
      const std::vector<std::string> lines = binDifferences(expected, actual, 8, &wrongBins);
      long total = 0;
      for (int32_t v : actual) total += v;
      if (wrongBins == 0) {
        o.message = "all " + std::to_string(c.bins) + " bins match (" + std::to_string(total) + " pixels)";
      } else {
        o.status = Status::Failed;
        o.message = std::to_string(wrongBins) + " of " + std::to_string(c.bins) + " bins wrong; counted " +
                    std::to_string(total) + " pixels, the image has " + std::to_string(gray.planeSize());
        o.details.insert(o.details.end(), lines.begin(), lines.end());
        std::string listing = "bin expected actual\n";
        for (int b = 0; b < c.bins; ++b)
          listing += std::to_string(b) + " " + std::to_string(expected[b]) + " " + std::to_string(actual[b]) + "\n";
        o.evidence.push_back(ctx.evidence().text("evidence/histogram/" + spec.id + "/" + name + "_bins.txt",
                                                 "expected and actual counts per bin", listing));
      }
      ctx.audit(o, name, audit, false);
    };
    ctx.runCheck(spec, "global", out, [&](CaseOutcome& o) { run(o, "compute_histogram", false); });
    ctx.runCheck(spec, "local", out, [&](CaseOutcome& o) { run(o, "compute_histogram_local_memory", true); });
  }

  void inputsOf(CaseInputs inputs, const HistogramCase& c) const override { inputs.colour(c.input, c.width, c.height); }

  std::vector<TimedLaunch> launchesToTime(TaskContext& ctx, const CaseSpec& spec,
                                          const HistogramCase& c) const override {
    const Runtime& rt = ctx.runtime();
    const Image gray = ref::grayscale(ctx.inputs().forCase(spec).colour(c.input, c.width, c.height));
    const BuildResult& program = ctx.build("");
    CaseOutcome notes;
    struct Buffers {
      std::unique_ptr<DevicePlane<float>> img;
      std::unique_ptr<DevicePlane<int32_t>> hist;
    };
    auto b = std::make_shared<Buffers>();
    std::vector<TimedLaunch> launches;
    auto grayImage = std::make_shared<const Image>(gray);
    auto cpu = std::make_shared<std::vector<int32_t>>();  // the CPU's counts, made once when asked
    const int pitch = pitchOf(c.width);
    const double pixels = double(c.width) * c.height;
    for (bool local : {false, true}) {
      const std::string name = local ? "compute_histogram_local_memory" : "compute_histogram";
      cl::Kernel count = ctx.kernel(program, name);
      const auto group = ctx.groupSize(count, {16, 16}, &notes);
      const Geometry g{{roundUp(c.width, group[0]), roundUp(c.height, group[1])}, {group[0], group[1]}};
      if (!b->img) {
        b->img = std::make_unique<DevicePlane<float>>(rt, c.width, c.height, pitch, static_cast<int>(g.global[1]) + 16);
        b->img->upload(rt, gray.plane(0), 0.0f, NAN, NAN);
        b->hist = std::make_unique<DevicePlane<int32_t>>(rt, c.bins, 1, c.bins, 1);
        b->hist->fill(rt, 0);
      }
      bindCount(rt, count, b->hist->buffer(), b->img->buffer(), c, pitch, local);
      // Every timed launch starts from zeroed bins (spec 5c; the clear is outside the timed events);
      // the check clears them and launches once more.
      TimedLaunch launch{name,
                         "gray image",
                         count,
                         g,
                         sizeof(float) * pixels + 2 * sizeof(int32_t) * c.bins,
                         pixels,
                         b,
                         {},
                         {b->hist->written(true), b->img->written()},
                         true};
      const Runtime* r = &rt;
      const int bins = c.bins;
      launch.verify = [r, b, count, g, bins, grayImage, cpu]() mutable {
        b->hist->fill(*r, 0);
        launch2d(*r, count, g);
        std::vector<int32_t> actual = b->hist->download(*r, kIntSentinel, nullptr);
        return Judgement([actual = std::move(actual), bins, grayImage, cpu]() {
          if (cpu->empty()) *cpu = ref::histogram(*grayImage, bins);
          long wrong = 0;
          binDifferences(*cpu, actual, 0, &wrong);
          return wrong == 0 ? std::string() : std::to_string(wrong) + " of " + std::to_string(bins) + " bins wrong";
        });
      };
      launches.push_back(launch);
    }
    return launches;
  }

  /// The histogram's launch: groups of 16 x 16 over the image.
  std::array<int, 2> wholeGroupsOf(const HistogramCase& c) const override {
    (void)c;
    return {16, 16};
  }

  void judgeCounts(const std::string& checkId, const CounterReport& counters, const CaseSpec& spec,
                   const HistogramCase& c, CaseOutcome* o) const override {
    (void)checkId, (void)spec;
    HistogramShape shape;
    shape.bins = c.bins;
    shape.pixels = long(c.width) * c.height;
    shape.hostGroups = long(ceilDiv(c.width, 16)) * long(ceilDiv(c.height, 16));
    judgeLocalHistogram(counters, "compute_histogram_local_memory", shape, o);
  }

  std::vector<std::pair<std::string, std::string>> expectedOutputs(InputCache& inputs, const CaseSpec& spec,
                                                                   const HistogramCase& c) const override {
    const std::vector<int32_t> counts =
        ref::histogram(ref::grayscale(inputs.forCase(spec).colour(c.input, c.width, c.height)), c.bins);
    std::string text;
    for (int32_t v : counts) text += std::to_string(v) + "\n";
    return {{"counts", text}};
  }
};

}  // namespace

const Task& histogramTask() {
  static const HistogramTask task;
  return task;
}

}  // namespace clgrade
