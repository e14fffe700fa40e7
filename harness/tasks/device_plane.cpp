#include "tasks/device_plane.h"

namespace clgrade {

void WriteAudit::add(const WriteAudit& o) {
  padding += o.padding;
  belowImage += o.belowImage;
  guardBefore += o.guardBefore;
  guardAfter += o.guardAfter;
  untouched += o.untouched;
  imageValues += o.imageValues;
  if (firstRowBelow < 0 || (o.firstRowBelow >= 0 && o.firstRowBelow < firstRowBelow)) firstRowBelow = o.firstRowBelow;
}

std::string WriteAudit::describe(const std::string& what) const {
  std::string s;
  auto add = [&](const std::string& part) { s += (s.empty() ? "" : ", ") + part; };
  if (guardBefore) add(std::to_string(guardBefore) + " values in front of the buffer");
  if (guardAfter) add(std::to_string(guardAfter) + " values past the end of the buffer");
  if (belowImage)
    add(std::to_string(belowImage) + " values below the image (rows from " + std::to_string(firstRowBelow) + ")");
  if (s.empty()) return "";
  return what + " wrote " + s;
}

}  // namespace clgrade
