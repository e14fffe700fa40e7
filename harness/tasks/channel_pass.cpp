#include "tasks/channel_pass.h"

#include <cmath>

#include "cl/device_step.h"

namespace clgrade {

cl::Buffer constantFloats(const Runtime& rt, const std::vector<float>& values) {
  cl::Buffer buffer;
  deviceAction(rt, "buffer", [&] {
    buffer = cl::Buffer(rt.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(float) * values.size(),
                        const_cast<float*>(values.data()));
  });
  return buffer;
}

Image runPerChannel(TaskContext& ctx, CaseOutcome& outcome, const std::string& name, cl::Kernel& kernel,
                    const Geometry& geometry, const Image& input, int rows, const BindPlanes& bind, WriteAudit* audit) {
  const Runtime& rt = ctx.runtime();
  const int pitch = pitchOf(input.width);
  Image output(input.width, input.height, input.channels);
  for (int ch = 0; ch < input.channels; ++ch) {
    DevicePlane<float> src(rt, input.width, input.height, pitch, rows);
    src.upload(rt, input.plane(ch), 0.0f, NAN, NAN);
    DevicePlane<float> dst(rt, input.width, input.height, pitch, rows);
    dst.fill(rt, floatSentinel());
    bind(kernel, dst.buffer(), src.buffer());
    const double ms = launch2d(rt, kernel, geometry);
    TaskContext::timing(outcome, name + " channel " + std::to_string(ch), ms, geometry);
    WriteAudit a;
    const std::vector<float> plane = dst.download(rt, floatSentinel(), &a);
    std::copy(plane.begin(), plane.end(), output.plane(ch));
    a.addInputWrites(src.writesSinceUpload(rt));
    audit->add(a);
  }
  return output;
}

}  // namespace clgrade
