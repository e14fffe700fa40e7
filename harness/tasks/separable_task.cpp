// Task 2: separable convolution, horizontal then vertical pass, every colour channel (spec section 2).
// Each pass is also run alone on the CPU's own input, so one broken pass costs only its own points.
#include <cmath>
#include <optional>

#include "cl/kernel_args.h"
#include "cpu/reference.h"
#include "image/pfm.h"
#include "tasks/channel_pass.h"
#include "tasks/separable_config.h"
#include "tasks/task_context.h"
#include "tasks/timed_output.h"
#include "tasks/typed_task.h"
#include "tasks/weight_order.h"

namespace clgrade {
namespace {

SeparableConfig separableDefaults() {
  SeparableConfig d;
  findPreset("box_4x4", &d.hWeights);
  return d;
}

bool readSeparableCase(const CaseSpec& spec, SeparableConfig* c, std::string* err) {
  return readSeparableCase(spec, separableDefaults(), c, err);
}

/// The CPU side of a case: the source, the horizontal result and the final result.
struct SeparableExpected {
  const Image* source = nullptr;
  Image horizontal;
  Image output;
};

/// For the expected outputs the report offers (expectedOutputs).
SeparableExpected separableExpectedFor(CaseInputs inputs, const SeparableConfig& c) {
  SeparableExpected e;
  e.source = &inputs.colour(c.input, c.width, c.height);
  e.horizontal = ref::convolveHorizontal(*e.source, c.hWeights);
  e.output = ref::convolveVertical(e.horizontal, c.vWeights);
  return e;
}

/// One pass kernel (ConvHorizontal or ConvVertical) with its resolved geometry.
struct Pass {
  cl::Kernel kernel;
  Geometry geometry;
};

/// Both pass kernels of a build with their launch geometry, and the rows every plane allocates.
struct Passes {
  Pass h, v;
  int rows = 0;
};

/// Both passes built for case `c`; a pass the check launches (`launchH`, `launchV`) must take the
/// host's group size (a pass it does not launch is not held to that here).
Passes buildPasses(TaskContext& ctx, const SeparableConfig& c, bool launchH = true, bool launchV = true) {
  Passes p;
  const BuildResult& program = ctx.build(c.buildOptions());
  p.h.kernel = ctx.kernel(program, "ConvHorizontal");
  p.v.kernel = ctx.kernel(program, "ConvVertical");
  const std::array<size_t, 2> h{size_t(c.hGroup[0]), size_t(c.hGroup[1])}, v{size_t(c.vGroup[0]), size_t(c.vGroup[1])};
  const auto hGroup = launchH ? ctx.hostGroupSize(p.h.kernel, "ConvHorizontal", "H", h) : h;
  const auto vGroup = launchV ? ctx.hostGroupSize(p.v.kernel, "ConvVertical", "V", v) : v;
  p.h.geometry = horizontalGeometry(c.width, c.height, hGroup, c.hSteps);
  p.v.geometry = verticalGeometry(c.width, c.height, vGroup, c.vSteps);
  p.rows = c.rows(hGroup, vGroup);
  return p;
}

/// Binds a pass: output, input, weights, its extent (Width or Height), Pitch.
void bindPass(const Runtime& rt, cl::Kernel& k, const cl::Buffer& dst, const cl::Buffer& src, const cl::Buffer& weights,
              int extent, int pitch) {
  setArg(rt, k, 0, dst);
  setArg(rt, k, 1, src);
  setArg(rt, k, 2, weights);
  setArg(rt, k, 3, extent);
  setArg(rt, k, 4, pitch);
}

class SeparableTask : public TypedTask<SeparableConfig> {
 public:
  const TaskInfo& info() const override {
    static const TaskInfo info{
        "separable",
        "Separable convolution",
        "ConvolutionSeparable.cl",
        {"ConvHorizontal(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel, int Width, "
         "int Pitch)",
         "ConvVertical(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel, int Height, "
         "int Pitch)"},
        {{"horizontal", "ConvHorizontal alone against the CPU's horizontal pass", ""},
         {"vertical", "ConvVertical alone, on the CPU's horizontal result, against the CPU's final result", ""},
         {"pipeline", "both passes chained against the CPU's final result", ""},
         {"sweep", "both passes correct at every point of the RESULT_STEPS sweep, with the performance chart", "",
          false, true},
         strayWritesCheck()},
        {{"ConvHorizontal", {"horizontal", "pipeline"}}, {"ConvVertical", {"vertical", "pipeline"}}}};
    return info;
  }

  bool readCase(const CaseSpec& spec, SeparableConfig* c, std::string* err) const override {
    return readSeparableCase(spec, c, err);
  }

  void run(TaskContext& ctx, const CaseSpec& spec, const SeparableConfig& c,
           std::map<std::string, CaseOutcome>* out) const override {
    // What the launches need: the source, and the horizontal result as the vertical pass's input.
    // The CPU's results are made once per input and weights (ctx.memo), not again at each of the
    // sweep's points, which run the same image with other steps and groups.
    const Image& source = ctx.inputs().forCase(spec).colour(c.input, c.width, c.height);
    const ResultKey key{"separable case " + c.input + " " + std::to_string(c.width) + "x" + std::to_string(c.height) +
                            " H" + weightsKey(c.hWeights),
                        !spec.visible};
    const std::shared_ptr<const Image> horizontal =
        ctx.memo(key, [&] { return ref::convolveHorizontal(source, c.hWeights); });
    const Image& tmpExpected = *horizontal;
    // The final result is only compared with: made by the first judging step that needs it.
    std::shared_ptr<const Image> finalResult;
    const std::function<const Image&()> expected = [&]() -> const Image& {
      if (!finalResult)
        finalResult = ctx.memo(key + (" V" + weightsKey(c.vWeights)),
                               [&] { return ref::convolveVertical(tmpExpected, c.vWeights); });
      return *finalResult;
    };
    const int pitch = pitchOf(c.width);

    auto weightsBuffer = [&](const std::vector<float>& w) { return constantFloats(ctx.runtime(), w); };
    auto regions = [&](const Pass& p, bool horizontal) {
      const int tx = int(p.geometry.local[0]) * (horizontal ? c.hSteps : 1);
      const int ty = int(p.geometry.local[1]) * (horizontal ? 1 : c.vSteps);
      return RegionModel{horizontal ? c.radius : 0, horizontal ? 0 : c.radius, tx, ty};
    };

    // One pass alone: `input` (the CPU's) in, one launch per channel, compared with `want`.
    auto runAlone = [&](CaseOutcome& o, bool horizontal, const Image& input,
                        const std::function<const Image&()>& want) {
      Passes both = buildPasses(ctx, c, horizontal, !horizontal);
      const int rows = both.rows;
      Pass& p = horizontal ? both.h : both.v;
      const std::string name = horizontal ? "ConvHorizontal" : "ConvVertical";
      cl::Buffer weights = weightsBuffer(horizontal ? c.hWeights : c.vWeights);
      WriteAudit audit;
      const Image actual = runPerChannel(
          ctx, o, name, p.kernel, p.geometry, input, rows,
          [&](cl::Kernel& k, const cl::Buffer& dst, const cl::Buffer& src) {
            bindPass(ctx.runtime(), k, dst, src, weights, horizontal ? c.width : c.height, pitch);
          },
          &audit);
      // Either weight order is the kernel's choice (weight_order.h).
      ctx.judging([&] {
        const std::vector<WeightOrder> orders =
            passOrders(horizontal ? c.hWeights : c.vWeights, want(), [&input, horizontal](const std::vector<float>& w) {
              return horizontal ? ref::convolveHorizontal(input, w) : ref::convolveVertical(input, w);
            });
        judgeWeightOrders(ctx, o, spec.id + (horizontal ? "/horizontal" : "/vertical"), orders, actual,
                          regions(p, horizontal));
      });
      // The horizontal kernel gets no height: rows below the image are its to write.
      ctx.audit(o, name, audit, horizontal);
    };

    ctx.runCheck(spec, "horizontal", out,
                 [&](CaseOutcome& o) { runAlone(o, true, source, [&]() -> const Image& { return tmpExpected; }); });
    ctx.runCheck(spec, "vertical", out, [&](CaseOutcome& o) { runAlone(o, false, tmpExpected, expected); });
    ctx.runCheck(spec, "pipeline", out, [&](CaseOutcome& o) {
      const Runtime& rt = ctx.runtime();
      Passes both = buildPasses(ctx, c);
      Pass &h = both.h, &v = both.v;
      const int rows = both.rows;
      cl::Buffer hWeights = weightsBuffer(c.hWeights);
      cl::Buffer vWeights = weightsBuffer(c.vWeights);
      Image actual(c.width, c.height, source.channels);
      WriteAudit total;
      for (int ch = 0; ch < source.channels; ++ch) {
        DevicePlane<float> src(rt, c.width, c.height, pitch, rows);
        src.upload(rt, source.plane(ch), 0.0f, NAN, NAN);
        DevicePlane<float> tmp(rt, c.width, c.height, pitch, rows);
        tmp.fill(rt, floatSentinel());
        DevicePlane<float> dst(rt, c.width, c.height, pitch, rows);
        dst.fill(rt, floatSentinel());
        bindPass(rt, h.kernel, tmp.buffer(), src.buffer(), hWeights, c.width, pitch);
        bindPass(rt, v.kernel, dst.buffer(), tmp.buffer(), vWeights, c.height, pitch);
        ctx.timing(o, "ConvHorizontal channel " + std::to_string(ch), launch2d(rt, h.kernel, h.geometry), h.geometry);
        ctx.timing(o, "ConvVertical channel " + std::to_string(ch), launch2d(rt, v.kernel, v.geometry), v.geometry);
        WriteAudit a;
        const std::vector<float> plane = dst.download(rt, floatSentinel(), &a);
        std::copy(plane.begin(), plane.end(), actual.plane(ch));
        a.addInputWrites(src.writesSinceUpload(rt));
        total.add(a);
      }
      RegionModel r{c.radius, c.radius, int(h.geometry.local[0]) * c.hSteps, int(v.geometry.local[1]) * c.vSteps};
      ctx.judging([&] {
        const std::vector<WeightOrder> orders = pipelineOrders(
            c.hWeights, c.vWeights, expected(), [&source](const std::vector<float>& h, const std::vector<float>& v) {
              return ref::convolveVertical(ref::convolveHorizontal(source, h), v);
            });
        judgeWeightOrders(ctx, o, spec.id + "/pipeline", orders, actual, r);
      });
      ctx.audit(o, "ConvVertical", total, false);
    });
  }

  std::vector<std::string> optionsOf(const SeparableConfig& c) const override { return {c.buildOptions()}; }
  std::array<int, 2> wholeGroupsOf(const SeparableConfig& c) const override { return clgrade::wholeGroupsOf(c); }

  void inputsOf(CaseInputs inputs, const SeparableConfig& c) const override { inputs.colour(c.input, c.width, c.height); }

  std::vector<TimedLaunch> launchesToTime(TaskContext& ctx, const CaseSpec& spec,
                                          const SeparableConfig& c) const override {
    const Runtime& rt = ctx.runtime();
    const Image& source = ctx.inputs().forCase(spec).colour(c.input, c.width, c.height);
    Passes p = buildPasses(ctx, c);
    // One channel: the course launches each pass once per channel on the same geometry.
    struct Buffers {
      std::unique_ptr<DevicePlane<float>> src, tmp, dst;
      cl::Buffer hWeights, vWeights;
    };
    auto b = std::make_shared<Buffers>();
    const int pitch = pitchOf(c.width);
    // Uploaded once for the sweep's points (same input, size and rows): each point's plane is a
    // device copy of it, as fresh as an upload.
    const std::string layout = "timed input " + c.input + " " + std::to_string(c.width) + "x" +
                               std::to_string(c.height) + " pitch " + std::to_string(pitch) + " rows " +
                               std::to_string(p.rows) + (spec.visible ? "" : " hidden");
    const auto pristine = ctx.kept<DevicePlane<float>>(layout, [&] {
      auto plane = std::make_shared<DevicePlane<float>>(rt, c.width, c.height, pitch, p.rows);
      plane->upload(rt, source.plane(0), 0.0f, NAN, NAN);
      return plane;
    });
    b->src = std::make_unique<DevicePlane<float>>(rt, c.width, c.height, pitch, p.rows);
    b->src->uploadCopyOf(rt, *pristine);
    b->tmp = std::make_unique<DevicePlane<float>>(rt, c.width, c.height, pitch, p.rows);
    b->tmp->fill(rt, 0.0f);
    b->dst = std::make_unique<DevicePlane<float>>(rt, c.width, c.height, pitch, p.rows);
    b->dst->fill(rt, floatSentinel());  // spec 5c: never what an earlier point's launch left in the memory
    b->hWeights = constantFloats(rt, c.hWeights);
    b->vWeights = constantFloats(rt, c.vWeights);
    bindPass(rt, p.h.kernel, b->tmp->buffer(), b->src->buffer(), b->hWeights, c.width, pitch);
    bindPass(rt, p.v.kernel, b->dst->buffer(), b->tmp->buffer(), b->vWeights, c.height, pitch);
    const double pixels = double(c.width) * c.height;
    std::vector<TimedLaunch> launches{{"ConvHorizontal",
                                       "one channel",
                                       p.h.kernel,
                                       p.h.geometry,
                                       2 * sizeof(float) * pixels,
                                       pixels,
                                       b,
                                       {},
                                       {},
                                       false},
                                      {"ConvVertical",
                                       "one channel",
                                       p.v.kernel,
                                       p.v.geometry,
                                       2 * sizeof(float) * pixels,
                                       pixels,
                                       b,
                                       {},
                                       {},
                                       false}};
    launches[0].written = {b->tmp->written(), b->src->written()};
    launches[1].written = {b->dst->written(), b->tmp->written()};
    // Each pass against the CPU: the horizontal pass on channel 0, the vertical one on the whole
    // chain (a wrong horizontal pass fails both), in either weight order.
    const Runtime* device = &rt;
    const Image* channels = &source;
    const CompareRule rule = ctx.settings().rule;
    const bool either = ctx.settings().eitherWeightOrder;
    const std::vector<int> rows = sampleRows(c.height, ctx.inputs().rowsSeed(), rule.skipLastRow);
    TaskContext* context = &ctx;
    const ResultKey key{"separable " + c.input + " " + std::to_string(c.width) + "x" + std::to_string(c.height),
                        !spec.visible};
    const auto horizontal = [channels](const std::vector<float>& w) {
      return ref::convolveHorizontal(channels->channel(0), w);
    };
    launches[0].verify = [device, b, rows, rule, either, context, key, horizontal, c] {
      return timedOutputCheck(*device, *b->tmp, rows,
                              orderCandidates(context, key + " H", c.hWeights, either, horizontal), rule);
    };
    launches[1].verify = [device, b, rows, rule, either, context, key, horizontal, c] {
      // The vertical pass on the CPU's horizontal result in the order the kernel's own pass uses.
      std::vector<ExpectedImage> all;
      for (const ExpectedImage& h : orderCandidates(context, key + " H", c.hWeights, either, horizontal)) {
        const auto vertical = [h](const std::vector<float>& w) { return ref::convolveVertical(*h(), w); };
        // The horizontal result it runs on: the case's weights, in the candidate's order.
        const ResultKey hKey = key + " V after H" + weightsKey(c.hWeights) + "#" + std::to_string(all.size());
        for (const ExpectedImage& v : orderCandidates(context, hKey, c.vWeights, either, vertical)) all.push_back(v);
      }
      return timedOutputCheck(*device, *b->dst, rows, all, rule);
    };
    return launches;
  }

  std::vector<std::pair<std::string, std::string>> expectedOutputs(InputCache& inputs, const CaseSpec& spec,
                                                                   const SeparableConfig& c) const override {
    const SeparableExpected e = separableExpectedFor(inputs.forCase(spec), c);
    return {{"horizontal", pfmBytes(e.horizontal)}, {"output", pfmBytes(e.output)}};
  }
};

}  // namespace

const Task& separableTask() {
  static const SeparableTask task;
  return task;
}

}  // namespace clgrade
