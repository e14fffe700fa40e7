// Task 3: bilateral filter (spec section 3). The discontinuity flags are compared exactly; the two
// edge-stopping passes also run alone on the CPU's flags, so a student without working
// discontinuity detection can still earn the filtering points.
#include <cmath>
#include <memory>
#include <optional>

#include "cl/kernel_args.h"
#include "cpu/reference.h"
#include "image/pfm.h"
#include "tasks/channel_pass.h"
#include "tasks/separable_config.h"
#include "tasks/task_context.h"
#include "tasks/technique.h"
#include "tasks/timed_output.h"
#include "tasks/typed_task.h"
#include "tasks/weight_order.h"

namespace clgrade {
namespace {

SeparableConfig defaults() {
  SeparableConfig d;
  d.input = "scene";
  d.width = 1280;
  d.height = 720;
  d.hGroup = {32, 4};
  d.vGroup = {32, 4};
  findPreset("gauss_bilateral", &d.hWeights);
  return d;
}

bool readCaseParams(const CaseSpec& spec, SeparableConfig* c, std::string* err) {
  if (!readSeparableCase(spec, defaults(), c, err)) return false;
  if (c->input == "scene") return true;
  *err = "case '" + spec.id + "': the bilateral filter needs input=\"scene\" (normals, depth)";
  return false;
}

/// xyz = normal, w = depth: the packed buffer the discontinuity kernels read.
std::vector<cl_float4> packNormalDepth(const Scene& scene) {
  std::vector<cl_float4> packed(scene.depth.planeSize());
  const Image& n = scene.normals;
  for (int y = 0; y < n.height; ++y)
    for (int x = 0; x < n.width; ++x)
      packed[size_t(y) * n.width + x] =
          cl_float4{{n.at(0, x, y), n.at(1, x, y), n.at(2, x, y), scene.depth.at(0, x, y)}};
  return packed;
}

Image flagsAsImage(const std::vector<int32_t>& flags, int w, int h) {
  Image img(w, h, 1);
  for (size_t i = 0; i < flags.size(); ++i) img.pixels[i] = static_cast<float>(flags[i]);
  return img;
}

/// "bit 1 (left) wrong at 12 pixels, ..." so a student sees which pass is broken.
std::vector<std::string> bitReport(const std::vector<int32_t>& expected, const std::vector<int32_t>& actual) {
  static const char* kNames[4] = {"1 (left, DiscontinuityHorizontal)", "2 (right, DiscontinuityHorizontal)",
                                  "4 (up, DiscontinuityVertical)", "8 (down, DiscontinuityVertical)"};
  long wrong[4] = {0, 0, 0, 0}, other = 0;
  for (size_t i = 0; i < expected.size(); ++i) {
    const int32_t diff = expected[i] ^ actual[i];
    for (int b = 0; b < 4; ++b) wrong[b] += (diff >> b) & 1;
    other += (diff & ~15) != 0;
  }
  std::vector<std::string> lines;
  for (int b = 0; b < 4; ++b)
    if (wrong[b])
      lines.push_back("bit " + std::string(kNames[b]) + " wrong at " + std::to_string(wrong[b]) + " pixels");
  if (other) lines.push_back(std::to_string(other) + " flag words have bits above 8 set (never written, or garbage)");
  return lines;
}

/// The CPU side of a case: flags, horizontal and final result.
struct BilateralExpected {
  const Scene* scene = nullptr;
  std::vector<int32_t> flags;
  Image horizontal;
  Image output;
};

/// `output`: the final result too (a runner only uploads: flags and the horizontal result are the
/// inputs of the passes run alone, the final one is only compared with).
BilateralExpected expectedFor(CaseInputs inputs, const SeparableConfig& c, bool output = true) {
  BilateralExpected e;
  e.scene = &inputs.scene(c.width, c.height);
  e.flags = ref::discontinuityFlags(e.scene->normals, e.scene->depth);
  e.horizontal = ref::bilateralHorizontal(e.scene->colour, e.flags, c.hWeights);
  // The vertical pass uses the vertical weights (the course reused the horizontal ones).
  if (output) e.output = ref::bilateralVertical(e.horizontal, e.flags, c.vWeights);
  return e;
}

struct Kernels {
  cl::Kernel discH, discV, convH, convV;
  Geometry discHGeometry, discVGeometry, convHGeometry, convVGeometry;
  int rows = 0;
};

/// Which kernels a check launches: those must take the host's group size (the others are not held
/// to it by that check: one defect costs in one place).
enum Launches { kDiscontinuity = 1, kFilterH = 2, kFilterV = 4, kAll = 7 };

Kernels buildKernels(TaskContext& ctx, const SeparableConfig& c, int launches) {
  Kernels k;
  const BuildResult& program = ctx.build(c.buildOptions());
  k.discH = ctx.kernel(program, "DiscontinuityHorizontal");
  k.discV = ctx.kernel(program, "DiscontinuityVertical");
  k.convH = ctx.kernel(program, "ConvHorizontal");
  k.convV = ctx.kernel(program, "ConvVertical");
  const std::array<size_t, 2> h{size_t(c.hGroup[0]), size_t(c.hGroup[1])};
  const std::array<size_t, 2> v{size_t(c.vGroup[0]), size_t(c.vGroup[1])};
  const bool disc = launches & kDiscontinuity;
  const auto dh = disc ? ctx.hostGroupSize(k.discH, "DiscontinuityHorizontal", "H", h) : h;
  const auto dv = disc ? ctx.hostGroupSize(k.discV, "DiscontinuityVertical", "V", v) : v;
  const auto ch = launches & kFilterH ? ctx.hostGroupSize(k.convH, "ConvHorizontal", "H", h) : h;
  const auto cv = launches & kFilterV ? ctx.hostGroupSize(k.convV, "ConvVertical", "V", v) : v;
  k.discHGeometry = horizontalGeometry(c.width, c.height, dh, c.hSteps);
  k.discVGeometry = verticalGeometry(c.width, c.height, dv, c.vSteps);
  k.convHGeometry = horizontalGeometry(c.width, c.height, ch, c.hSteps);
  k.convVGeometry = verticalGeometry(c.width, c.height, cv, c.vSteps);
  k.rows = std::max(c.rows(dh, dv), c.rows(ch, cv));
  return k;
}

/// Binds a discontinuity kernel: flags, packed normals and depth, Width, Height, Pitch.
void bindDiscontinuity(const Runtime& rt, cl::Kernel& k, const cl::Buffer& disc, const cl::Buffer& normalDepth, int W,
                       int H, int pitch) {
  setArg(rt, k, 0, disc);
  setArg(rt, k, 1, normalDepth);
  setArg(rt, k, 2, W);
  setArg(rt, k, 3, H);
  setArg(rt, k, 4, pitch);
}

/// Binds an edge-stopping pass: output, input, flags, weights, Width, Height, Pitch.
void bindFilter(const Runtime& rt, cl::Kernel& k, const cl::Buffer& dst, const cl::Buffer& src, const cl::Buffer& disc,
                const cl::Buffer& weights, int W, int H, int pitch) {
  setArg(rt, k, 0, dst);
  setArg(rt, k, 1, src);
  setArg(rt, k, 2, disc);
  setArg(rt, k, 3, weights);
  setArg(rt, k, 4, W);
  setArg(rt, k, 5, H);
  setArg(rt, k, 6, pitch);
}

/// The pipeline's filter passes on every channel of `colour`, reading the flags the device's own
/// discontinuity kernels left in `disc`: ConvHorizontal, then ConvVertical, each launch timed.
Image pipelineOnEveryChannel(TaskContext& ctx, CaseOutcome& o, Kernels& k, const SeparableConfig& c,
                             const cl::Buffer& disc, const Image& colour, WriteAudit* audit) {
  const Runtime& rt = ctx.runtime();
  const int W = c.width, H = c.height, pitch = pitchOf(c.width);
  cl::Buffer hWeights = constantFloats(rt, c.hWeights), vWeights = constantFloats(rt, c.vWeights);
  Image actual(W, H, colour.channels);
  for (int ch = 0; ch < colour.channels; ++ch) {
    DevicePlane<float> src(rt, W, H, pitch, k.rows), tmp(rt, W, H, pitch, k.rows), dst(rt, W, H, pitch, k.rows);
    src.upload(rt, colour.plane(ch), 0.0f, NAN, NAN);
    tmp.fill(rt, floatSentinel());
    dst.fill(rt, floatSentinel());
    bindFilter(rt, k.convH, tmp.buffer(), src.buffer(), disc, hWeights, W, H, pitch);
    bindFilter(rt, k.convV, dst.buffer(), tmp.buffer(), disc, vWeights, W, H, pitch);
    ctx.timing(o, "ConvHorizontal channel " + std::to_string(ch), launch2d(rt, k.convH, k.convHGeometry),
               k.convHGeometry);
    ctx.timing(o, "ConvVertical channel " + std::to_string(ch), launch2d(rt, k.convV, k.convVGeometry),
               k.convVGeometry);
    WriteAudit a;
    const std::vector<float> plane = dst.download(rt, floatSentinel(), &a);
    std::copy(plane.begin(), plane.end(), actual.plane(ch));
    a.addInputWrites(src.writesSinceUpload(rt));
    audit->add(a);
  }
  return actual;
}

class BilateralTask : public TypedTask<SeparableConfig> {
 public:
  const TaskInfo& info() const override {
    static const TaskInfo info{
        "bilateral",
        "Bilateral filter",
        "ConvolutionBilateral.cl",
        {"DiscontinuityHorizontal(__global int* d_Disc, __global const float4* d_NormDepth, int Width, int Height, "
         "int Pitch)",
         "DiscontinuityVertical(__global int* d_Disc, __global const float4* d_NormDepth, int Width, int Height, "
         "int Pitch)",
         "ConvHorizontal(__global float* d_Dst, __global const float* d_Src, __global const int* d_Disc, "
         "__constant float* c_Kernel, int Width, int Height, int Pitch)",
         "ConvVertical(__global float* d_Dst, __global const float* d_Src, __global const int* d_Disc, "
         "__constant float* c_Kernel, int Width, int Height, int Pitch)"},
        {{"discontinuity", "DiscontinuityHorizontal then DiscontinuityVertical: flags equal to the CPU's", ""},
         {"discontinuity_local_memory",
          "the discontinuity kernels read their tile from local memory (simulated)",
          "",
          true,
          false,
          {HardwareRule::Kind::AccessCounts, "", 0, 4, {"DiscontinuityHorizontal", "DiscontinuityVertical"}}},
         {"filter_horizontal", "ConvHorizontal alone, on the CPU's flags, against the CPU's horizontal pass", ""},
         {"filter_vertical", "ConvVertical alone, on the CPU's flags and horizontal result, against the CPU", ""},
         {"pipeline", "all four kernels chained against the CPU's final result", ""},
         strayWritesCheck()},
        {{"DiscontinuityHorizontal", {"discontinuity", "pipeline"}},
         {"DiscontinuityVertical", {"discontinuity", "pipeline"}},
         {"ConvHorizontal", {"filter_horizontal", "pipeline"}},
         {"ConvVertical", {"filter_vertical", "pipeline"}}}};
    return info;
  }

  bool readCase(const CaseSpec& spec, SeparableConfig* c, std::string* err) const override {
    return readCaseParams(spec, c, err);
  }

  void run(TaskContext& ctx, const CaseSpec& spec, const SeparableConfig& c,
           std::map<std::string, CaseOutcome>* out) const override {
    // What the launches need: the scene, the CPU's flags and horizontal result (the inputs of the
    // passes run alone).
    const BilateralExpected e = expectedFor(ctx.inputs().forCase(spec), c, false);
    const Scene& scene = *e.scene;
    const std::vector<int32_t>& flagsExpected = e.flags;
    const Image& tmpExpected = e.horizontal;
    // The final result is only compared with: made by the first judging step that needs it.
    std::optional<Image> finalResult;
    auto expected = [&]() -> const Image& {
      if (!finalResult) finalResult = ref::bilateralVertical(tmpExpected, flagsExpected, c.vWeights);
      return *finalResult;
    };
    const std::vector<cl_float4> packed = packNormalDepth(scene);
    const int pitch = pitchOf(c.width), W = c.width, H = c.height;
    auto kernels = [&](int launches) { return buildKernels(ctx, c, launches); };
    auto weightsBuffer = [&](const std::vector<float>& w) { return constantFloats(ctx.runtime(), w); };
    // Runs both discontinuity kernels into `disc` (filled with the sentinel first).
    auto detect = [&](CaseOutcome& o, Kernels& k, DevicePlane<int32_t>& disc, WriteAudit* audit) {
      const Runtime& rt = ctx.runtime();
      DevicePlane<cl_float4> normalDepth(rt, W, H, pitch, k.rows);
      const cl_float4 zero{{0, 0, 0, 0}}, nan{{NAN, NAN, NAN, NAN}};
      normalDepth.upload(rt, packed.data(), zero, nan, nan);
      disc.fill(rt, kIntSentinel);
      for (cl::Kernel* kernel : {&k.discH, &k.discV})
        bindDiscontinuity(rt, *kernel, disc.buffer(), normalDepth.buffer(), W, H, pitch);
      ctx.timing(o, "DiscontinuityHorizontal", launch2d(rt, k.discH, k.discHGeometry), k.discHGeometry);
      ctx.timing(o, "DiscontinuityVertical", launch2d(rt, k.discV, k.discVGeometry), k.discVGeometry);
      audit->addInputWrites(normalDepth.writesSinceUpload(rt));
    };
    // One edge-stopping pass over every channel, reading `flags` from `disc`.
    auto filter = [&](CaseOutcome& o, cl::Kernel& kernel, const Geometry& g, const std::string& name,
                      const Image& input, const cl::Buffer& disc, const std::vector<float>& w, int rows,
                      WriteAudit* audit) {
      cl::Buffer weights = weightsBuffer(w);
      return runPerChannel(
          ctx, o, name, kernel, g, input, rows,
          [&](cl::Kernel& k, const cl::Buffer& dst, const cl::Buffer& src) {
            bindFilter(ctx.runtime(), k, dst, src, disc, weights, W, H, pitch);
          },
          audit);
    };
    auto cpuFlags = [&](int rows) {
      auto plane = std::make_unique<DevicePlane<int32_t>>(ctx.runtime(), W, H, pitch, rows);
      plane->upload(ctx.runtime(), flagsExpected.data(), 0, 0, 0);
      return plane;
    };

    ctx.runCheck(spec, "discontinuity", out, [&](CaseOutcome& o) {
      Kernels k = kernels(kDiscontinuity);
      DevicePlane<int32_t> disc(ctx.runtime(), W, H, pitch, k.rows);
      WriteAudit intoInputs;
      detect(o, k, disc, &intoInputs);
      WriteAudit audit;
      const std::vector<int32_t> flags = disc.download(ctx.runtime(), kIntSentinel, &audit);
      audit.add(intoInputs);
      const RegionModel regions{1, 1, int(k.discHGeometry.local[0]) * c.hSteps,
                                int(k.discVGeometry.local[1]) * c.vSteps};
      ctx.judging([&] {
        const Comparison cmp = compareExact(flagsExpected, flags, W, H, ctx.settings().rule.skipLastRow, regions);
        ctx.judge(o, spec.id + "/discontinuity", cmp, flagsAsImage(flagsExpected, W, H), flagsAsImage(flags, W, H));
        if (!cmp.passed) {
          const std::vector<std::string> bits = bitReport(flagsExpected, flags);
          o.details.insert(o.details.begin(), bits.begin(), bits.end());
        }
      });
      ctx.audit(o, "DiscontinuityHorizontal/Vertical", audit, false);
    });
    ctx.runCheck(spec, "filter_horizontal", out, [&](CaseOutcome& o) {
      Kernels k = kernels(kFilterH);
      auto flags = cpuFlags(k.rows);
      WriteAudit audit;
      const Image actual = filter(o, k.convH, k.convHGeometry, "ConvHorizontal", scene.colour, flags->buffer(),
                                  c.hWeights, k.rows, &audit);
      audit.addInputWrites(flags->writesSinceUpload(ctx.runtime()));
      const RegionModel regions{c.radius, 0, int(k.convHGeometry.local[0]) * c.hSteps, int(k.convHGeometry.local[1])};
      ctx.judging([&] {
        const std::vector<WeightOrder> orders = passOrders(c.hWeights, tmpExpected, [&](const std::vector<float>& w) {
          return ref::bilateralHorizontal(scene.colour, flagsExpected, w);
        });
        judgeWeightOrders(ctx, o, spec.id + "/filter_horizontal", orders, actual, regions);
      });
      ctx.audit(o, "ConvHorizontal", audit, false);
    });
    ctx.runCheck(spec, "filter_vertical", out, [&](CaseOutcome& o) {
      Kernels k = kernels(kFilterV);
      auto flags = cpuFlags(k.rows);
      WriteAudit audit;
      const Image actual =
          filter(o, k.convV, k.convVGeometry, "ConvVertical", tmpExpected, flags->buffer(), c.vWeights, k.rows, &audit);
      audit.addInputWrites(flags->writesSinceUpload(ctx.runtime()));
      const RegionModel regions{0, c.radius, int(k.convVGeometry.local[0]), int(k.convVGeometry.local[1]) * c.vSteps};
      ctx.judging([&] {
        const std::vector<WeightOrder> orders = passOrders(c.vWeights, expected(), [&](const std::vector<float>& w) {
          return ref::bilateralVertical(tmpExpected, flagsExpected, w);
        });
        judgeWeightOrders(ctx, o, spec.id + "/filter_vertical", orders, actual, regions);
      });
      ctx.audit(o, "ConvVertical", audit, false);
    });
    ctx.runCheck(spec, "pipeline", out, [&](CaseOutcome& o) {
      const Runtime& rt = ctx.runtime();
      Kernels k = kernels(kAll);
      DevicePlane<int32_t> disc(rt, W, H, pitch, k.rows);
      WriteAudit audit;
      detect(o, k, disc, &audit);
      const Image actual = pipelineOnEveryChannel(ctx, o, k, c, disc.buffer(), scene.colour, &audit);
      const RegionModel regions{c.radius, c.radius, int(k.convHGeometry.local[0]) * c.hSteps,
                                int(k.convVGeometry.local[1]) * c.vSteps};
      ctx.judging([&] {
        const std::vector<WeightOrder> orders = pipelineOrders(
            c.hWeights, c.vWeights, expected(), [&](const std::vector<float>& h, const std::vector<float>& v) {
              return ref::bilateralVertical(ref::bilateralHorizontal(scene.colour, flagsExpected, h), flagsExpected, v);
            });
        judgeWeightOrders(ctx, o, spec.id + "/pipeline", orders, actual, regions);
      });
      ctx.audit(o, "ConvVertical", audit, false);
    });
  }

  void inputsOf(CaseInputs inputs, const SeparableConfig& c) const override { inputs.scene(c.width, c.height); }

  std::vector<TimedLaunch> launchesToTime(TaskContext& ctx, const CaseSpec& spec,
                                          const SeparableConfig& c) const override {
    const Runtime& rt = ctx.runtime();
    const Scene& scene = ctx.inputs().forCase(spec).scene(c.width, c.height);
    const std::vector<cl_float4> packed = packNormalDepth(scene);
    const int W = c.width, H = c.height, pitch = pitchOf(W);
    Kernels k = buildKernels(ctx, c, kAll);
    struct Buffers {
      std::unique_ptr<DevicePlane<cl_float4>> normalDepth;
      std::unique_ptr<DevicePlane<int32_t>> disc;
      std::unique_ptr<DevicePlane<float>> src, tmp, dst;
      cl::Buffer hWeights, vWeights;
    };
    auto b = std::make_shared<Buffers>();
    const cl_float4 zero{{0, 0, 0, 0}};
    b->normalDepth = std::make_unique<DevicePlane<cl_float4>>(rt, W, H, pitch, k.rows);
    b->normalDepth->upload(rt, packed.data(), zero, zero, zero);
    b->disc = std::make_unique<DevicePlane<int32_t>>(rt, W, H, pitch, k.rows);
    b->disc->fill(rt, 0);
    b->src = std::make_unique<DevicePlane<float>>(rt, W, H, pitch, k.rows);
    b->src->upload(rt, scene.colour.plane(0), 0.0f, 0.0f, 0.0f);
    b->tmp = std::make_unique<DevicePlane<float>>(rt, W, H, pitch, k.rows);
    b->tmp->fill(rt, 0.0f);
    b->dst = std::make_unique<DevicePlane<float>>(rt, W, H, pitch, k.rows);
    b->dst->fill(rt, floatSentinel());  // spec 5c: never what an earlier launch left in the memory
    b->hWeights = constantFloats(rt, c.hWeights);
    b->vWeights = constantFloats(rt, c.vWeights);
    bindDiscontinuity(rt, k.discH, b->disc->buffer(), b->normalDepth->buffer(), W, H, pitch);
    bindDiscontinuity(rt, k.discV, b->disc->buffer(), b->normalDepth->buffer(), W, H, pitch);
    bindFilter(rt, k.convH, b->tmp->buffer(), b->src->buffer(), b->disc->buffer(), b->hWeights, W, H, pitch);
    bindFilter(rt, k.convV, b->dst->buffer(), b->tmp->buffer(), b->disc->buffer(), b->vWeights, W, H, pitch);
    const double px = double(W) * H;
    // Bytes per pixel that a launch must move at the least (spec 5c bounds its time by them): a
    // discontinuity kernel reads a float4 and needs to write a flag only where there is a
    // discontinuity (the flags start at 0; the reference's vertical kernel reads and writes only those:
    // counted as 24 bytes it ran at 145 % of the copy's bandwidth on an H100); a filter pass reads a
    // value and a flag and writes a value.
    std::vector<TimedLaunch> launches{
        {"DiscontinuityHorizontal", "flags", k.discH, k.discHGeometry, 16 * px, px, b, {}, {}, false},
        {"DiscontinuityVertical", "flags", k.discV, k.discVGeometry, 16 * px, px, b, {}, {}, false},
        {"ConvHorizontal", "one channel", k.convH, k.convHGeometry, 12 * px, px, b, {}, {}, false},
        {"ConvVertical", "one channel", k.convV, k.convVGeometry, 12 * px, px, b, {}, {}, false}};
    // The vertical flag kernel ORs into the horizontal one's flags: each of its launches starts from them.
    launches[0].written = launches[1].written = {b->disc->written(), b->normalDepth->written()};
    launches[2].written = {b->tmp->written(), b->src->written(), b->disc->written()};
    launches[3].written = {b->dst->written(), b->tmp->written(), b->disc->written()};
    // Checked where the CPU has a result to compare with: the flags once both kernels have run, the
    // horizontal pass on channel 0 and the vertical one on the whole chain, in either weight order.
    const Runtime* device = &rt;
    const CompareRule rule = ctx.settings().rule;
    const bool either = ctx.settings().eitherWeightOrder;
    const std::vector<int> rows = sampleRows(H, ctx.inputs().rowsSeed(), rule.skipLastRow);
    TaskContext* context = &ctx;
    const Scene* s = &scene;
    const ResultKey key{"bilateral " + std::to_string(W) + "x" + std::to_string(H), !spec.visible};
    const auto flags = [context, key, s] {
      return context->memoFlags(key + " flags", [s] { return ref::discontinuityFlags(s->normals, s->depth); });
    };
    launches[1].verify = [device, b, rows, W, flags] { return timedFlagsCheck(*device, *b->disc, rows, flags, W); };
    const auto horizontal = [s, flags](const std::vector<float>& w) {
      return ref::bilateralHorizontal(s->colour.channel(0), *flags(), w);
    };
    launches[2].verify = [device, b, rows, rule, either, context, key, horizontal, c] {
      return timedOutputCheck(*device, *b->tmp, rows,
                              orderCandidates(context, key + " H", c.hWeights, either, horizontal), rule);
    };
    launches[3].verify = [device, b, rows, rule, either, context, key, horizontal, flags, c] {
      std::vector<ExpectedImage> all;
      for (const ExpectedImage& h : orderCandidates(context, key + " H", c.hWeights, either, horizontal)) {
        const auto vertical = [h, flags](const std::vector<float>& w) {
          return ref::bilateralVertical(*h(), *flags(), w);
        };
        // The horizontal result it runs on: the case's weights, in the candidate's order.
        const ResultKey hKey = key + " V after H" + weightsKey(c.hWeights) + "#" + std::to_string(all.size());
        for (const ExpectedImage& v : orderCandidates(context, hKey, c.vWeights, either, vertical)) all.push_back(v);
      }
      return timedOutputCheck(*device, *b->dst, rows, all, rule);
    };
    return launches;
  }

  std::array<int, 2> wholeGroupsOf(const SeparableConfig& c) const override { return clgrade::wholeGroupsOf(c); }

  void judgeCounts(const std::string& checkId, const CounterReport& counters, const CaseSpec& spec,
                   const SeparableConfig& c, CaseOutcome* o) const override {
    (void)checkId, (void)spec;
    judgeNeighboursFromLocal(counters,
                             {{"DiscontinuityHorizontal", true, c.hSteps, c.width, c.height},
                              {"DiscontinuityVertical", false, c.vSteps, c.width, c.height}},
                             o);
  }

  std::vector<std::pair<std::string, std::string>> expectedOutputs(InputCache& inputs, const CaseSpec& spec,
                                                                   const SeparableConfig& c) const override {
    const BilateralExpected e = expectedFor(inputs.forCase(spec), c);
    const std::string flags(reinterpret_cast<const char*>(e.flags.data()), e.flags.size() * sizeof(int32_t));
    return {{"flags", flags}, {"horizontal", pfmBytes(e.horizontal)}, {"output", pfmBytes(e.output)}};
  }
};

}  // namespace

const Task& bilateralTask() {
  static const BilateralTask task;
  return task;
}

}  // namespace clgrade
