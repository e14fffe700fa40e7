#include "tasks/device_plane.h"

namespace clgrade {

void WriteAudit::add(const WriteAudit& o) {
  padding += o.padding;
  belowImage += o.belowImage;
  guardBefore += o.guardBefore;
  guardAfter += o.guardAfter;
  untouched += o.untouched;
  imageValues += o.imageValues;
  intoInputs += o.intoInputs;
  if (firstRowBelow < 0 || (o.firstRowBelow >= 0 && o.firstRowBelow < firstRowBelow)) firstRowBelow = o.firstRowBelow;
}

namespace {
std::string values(long n) { return std::to_string(n) + (n == 1 ? " value" : " values"); }
}  // namespace

std::string WriteAudit::describe(const std::string& what) const {
  std::string s;
  auto add = [&](const std::string& part) { s += (s.empty() ? "" : ", ") + part; };
  if (guardBefore) add(values(guardBefore) + " in front of the buffer");
  if (guardAfter) add(values(guardAfter) + " past the end of the buffer");
  if (belowImage) add(values(belowImage) + " below the image (rows from " + std::to_string(firstRowBelow) + ")");
  if (intoInputs) add(values(intoInputs) + " into its input buffers");
  if (s.empty()) return "";
  return what + " wrote " + s;
}

}  // namespace clgrade
