// Task 1: 3x3 convolution of one grayscale channel (spec section 1).
#include <cmath>

#include "cl/kernel_args.h"
#include "cpu/reference.h"
#include "image/pfm.h"
#include "tasks/channel_pass.h"
#include "tasks/params.h"
#include "tasks/task_context.h"
#include "tasks/technique.h"
#include "tasks/timed_output.h"
#include "tasks/typed_task.h"

namespace clgrade {
namespace {

struct Conv3x3Case {
  std::string input;
  int width = 0, height = 0;
  std::array<float, 9> weights{};
  float offset = 0;
};

bool readCaseParams(const CaseSpec& spec, Conv3x3Case* c, std::string* err) {
  ParamReader r(spec);
  c->input = r.choice("input", "photo", {"photo", "scene", "extremes"});
  c->width = r.integer("width", 780, 1, 8192);
  c->height = r.integer("height", 575, 1, 8192);
  const std::vector<float> w = r.weights("weights", "edge");
  c->offset = r.number("offset", 0.0f);
  if (!r.ok(err)) return false;
  if (w.size() != 9) {
    *err = "case '" + spec.id + "': a 3x3 filter needs 9 weights, got " + std::to_string(w.size());
    return false;
  }
  std::copy(w.begin(), w.end(), c->weights.begin());
  return true;
}

/// The CPU side of a case: the grayscale input, the constant buffer and the expected output.
struct Conv3x3Expected {
  Image gray;
  std::array<float, 11> constants{};
  Image output;
};

/// `output`: the CPU's result too (a runner, which only uploads the inputs, does without it).
Conv3x3Expected expectedFor(CaseInputs inputs, const Conv3x3Case& c, bool output = true) {
  Conv3x3Expected e;
  // The course filters one grayscale channel, computed here for real (spec section 8).
  e.gray = ref::grayscale(inputs.colour(c.input, c.width, c.height));
  e.constants = ref::conv3x3Constants(c.weights, c.offset);
  if (output) e.output = ref::convolve3x3(e.gray, e.constants);
  return e;
}

/// A launch made ready: the kernel with every argument bound to uploaded planes.
struct Prepared {
  cl::Kernel kernel;
  Geometry geometry;
  std::shared_ptr<DevicePlane<float>> src, dst;
  cl::Buffer constants;
};

Prepared prepare(TaskContext& ctx, const Conv3x3Case& c, const Image& gray, const std::array<float, 11>& constants,
                 CaseOutcome* o) {
  const Runtime& rt = ctx.runtime();
  Prepared p;
  const BuildResult& program = ctx.build("");
  p.kernel = ctx.kernel(program, "Convolution");
  const std::array<size_t, 2> group = ctx.groupSize(p.kernel, {32, 16}, o);
  p.geometry = Geometry{{roundUp(c.width, group[0]), roundUp(c.height, group[1])}, {group[0], group[1]}};
  const int pitch = pitchOf(c.width);
  const int rows = static_cast<int>(p.geometry.global[1]) + 2;  // the last tile's halo row stays inside

  p.src = std::make_shared<DevicePlane<float>>(rt, c.width, c.height, pitch, rows);
  p.src->upload(rt, gray.plane(0), 0.0f, NAN, NAN);
  p.dst = std::make_shared<DevicePlane<float>>(rt, c.width, c.height, pitch, rows);
  p.dst->fill(rt, floatSentinel());
  p.constants = constantFloats(rt, std::vector<float>(constants.begin(), constants.end()));
  setArg(rt, p.kernel, 0, p.dst->buffer());
  setArg(rt, p.kernel, 1, p.src->buffer());
  setArg(rt, p.kernel, 2, p.constants);
  setArg(rt, p.kernel, 3, static_cast<cl_uint>(c.width));
  setArg(rt, p.kernel, 4, static_cast<cl_uint>(c.height));
  setArg(rt, p.kernel, 5, static_cast<cl_uint>(pitch));
  return p;
}

class Conv3x3Task : public TypedTask<Conv3x3Case> {
 public:
  const TaskInfo& info() const override {
    static const TaskInfo info{
        "conv3x3",
        "3x3 convolution",
        "Convolution3x3.cl",
        {"Convolution(__global float* d_Dst, __global const float* d_Src, __constant float* c_Kernel, uint Width, "
         "uint Height, uint Pitch)"},
        {{"output", "Convolution against the CPU reference (course rule)", ""},
         {"bank_conflicts",
          "tile and halo stored into local memory without bank conflicts (simulated)",
          "",
          true,
          false,
          {HardwareRule::Kind::StoreConflicts, "Convolution", 1, sizeof(float), {}}},
         strayWritesCheck()},
        {{"Convolution", {"output"}}}};
    return info;
  }

  bool readCase(const CaseSpec& spec, Conv3x3Case* c, std::string* err) const override {
    return readCaseParams(spec, c, err);
  }

  void run(TaskContext& ctx, const CaseSpec& spec, const Conv3x3Case& c,
           std::map<std::string, CaseOutcome>* out) const override {
    ctx.runCheck(spec, "output", out, [&](CaseOutcome& o) {
      const Runtime& rt = ctx.runtime();
      const Conv3x3Expected e = expectedFor(ctx.inputs().forCase(spec), c, false);  // what the launch needs
      const Image& gray = e.gray;

      Prepared run = prepare(ctx, c, gray, e.constants, &o);
      cl::Kernel& kernel = run.kernel;
      const Geometry& g = run.geometry;
      const std::array<size_t, 2> group{g.local[0], g.local[1]};
      DevicePlane<float>& dst = *run.dst;
      const double ms = launch2d(rt, kernel, g);

      WriteAudit audit;
      Image actual(c.width, c.height, 1);
      actual.pixels = dst.download(rt, floatSentinel(), &audit);
      audit.addInputWrites(run.src->writesSinceUpload(rt));
      const RegionModel regions{1, 1, static_cast<int>(group[0]), static_cast<int>(group[1])};
      ctx.judging([&] {
        const Image expected = ref::convolve3x3(e.gray, e.constants);
        ctx.judge(o, spec.id + "/output", compareImages(expected, actual, ctx.settings().rule, regions), expected,
                  actual);
      });
      ctx.audit(o, "Convolution", audit, false);
      ctx.timing(o, "Convolution", ms, g);
    });
  }

  void inputsOf(CaseInputs inputs, const Conv3x3Case& c) const override { inputs.colour(c.input, c.width, c.height); }

  std::vector<TimedLaunch> launchesToTime(TaskContext& ctx, const CaseSpec& spec, const Conv3x3Case& c) const override {
    const Image gray = ref::grayscale(ctx.inputs().forCase(spec).colour(c.input, c.width, c.height));
    CaseOutcome notes;
    auto p = std::make_shared<Prepared>(prepare(ctx, c, gray, ref::conv3x3Constants(c.weights, c.offset), &notes));
    const double pixels = double(c.width) * c.height;
    TimedLaunch launch{"Convolution",
                       "one gray plane",
                       p->kernel,
                       p->geometry,
                       2 * sizeof(float) * pixels,
                       pixels,
                       p,
                       {},
                       {p->dst->written(), p->src->written()},
                       false};
    const Runtime* rt = &ctx.runtime();
    const CaseInputs inputs = ctx.inputs().forCase(spec);
    const CompareRule rule = ctx.settings().rule;
    const std::vector<int> rows = sampleRows(c.height, ctx.inputs().rowsSeed(), rule.skipLastRow);
    TaskContext* context = &ctx;
    // Everything the CPU's result depends on (the cache lives for the submission's grade).
    const ResultKey key{"conv3x3 " + c.input + " " + std::to_string(c.width) + "x" + std::to_string(c.height) +
                            " offset" + weightsKey({c.offset}) +
                            weightsKey(std::vector<float>(c.weights.begin(), c.weights.end())),
                        !spec.visible};
    launch.verify = [rt, context, key, inputs, p, c, rule, rows] {
      const ExpectedImage cpu = [context, key, inputs, c] {
        return context->memo(key, [&] { return expectedFor(inputs, c).output; });
      };
      return timedOutputCheck(*rt, *p->dst, rows, {cpu}, rule);
    };
    return {launch};
  }

  void judgeCounts(const std::string& checkId, const CounterReport& counters, const CaseSpec& spec,
                   const Conv3x3Case& c, CaseOutcome* o) const override {
    (void)checkId, (void)spec, (void)c;
    judgeTileLoad(counters, "Convolution", c.width, c.height, o);
  }

  std::vector<std::pair<std::string, std::string>> expectedOutputs(InputCache& inputs, const CaseSpec& spec,
                                                                   const Conv3x3Case& c) const override {
    return {{"output", pfmBytes(expectedFor(inputs.forCase(spec), c).output)}};
  }
};

}  // namespace

const Task& conv3x3Task() {
  static const Conv3x3Task task;
  return task;
}

}  // namespace clgrade
