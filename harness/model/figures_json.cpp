#include "model/figures_json.h"

namespace clgrade {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

ordered_json figureJson(const KernelFigure& f) {
  return {{"kernel", f.kernel},
          {"what", f.what},
          {"geometry", f.geometry},
          {"bytes", f.bytes},
          {"pixels", f.pixels},
          {"warmups", f.time.warmups},
          {"runs", f.time.runs},
          {"median_ms", f.time.medianMs},
          {"min_ms", f.time.minMs},
          {"max_ms", f.time.maxMs},
          {"mean_ms", f.time.meanMs},
          {"cv", f.time.cv},
          {"robust_cv", f.time.robustCv},
          {"samples_ms", f.time.samplesMs},
          {"gb_per_s", f.gbPerS},
          {"gpixels_per_s", f.gpixPerS},
          {"of_copy_roofline", f.ofRoofline},
          {"vs_reference", f.vsReference},
          {"vs_naive", f.vsNaive},
          {"launch_floor_ms", f.launchFloorMs},
          {"error", f.error},
          {"untrusted", f.untrusted},
          {"wrong_output", f.wrongOutput},
          {"impossible", f.impossible}};
}

template <typename T>
T get(const json& j, const char* key, T fallback) {
  auto it = j.find(key);
  return it == j.end() || it->is_null() ? fallback : it->get<T>();
}

KernelFigure figureFromJson(const json& j) {
  KernelFigure f;
  f.kernel = get<std::string>(j, "kernel", "");
  f.what = get<std::string>(j, "what", "");
  f.geometry = get<std::string>(j, "geometry", "");
  f.bytes = get<double>(j, "bytes", 0);
  f.pixels = get<double>(j, "pixels", 0);
  f.time.warmups = get<int>(j, "warmups", 0);
  f.time.runs = get<int>(j, "runs", 0);
  f.time.medianMs = get<double>(j, "median_ms", 0);
  f.time.minMs = get<double>(j, "min_ms", 0);
  f.time.maxMs = get<double>(j, "max_ms", 0);
  f.time.meanMs = get<double>(j, "mean_ms", 0);
  f.time.cv = get<double>(j, "cv", 0);
  f.time.robustCv = get<double>(j, "robust_cv", 0);
  f.time.samplesMs = get<std::vector<double>>(j, "samples_ms", {});
  f.gbPerS = get<double>(j, "gb_per_s", 0);
  f.gpixPerS = get<double>(j, "gpixels_per_s", 0);
  f.ofRoofline = get<double>(j, "of_copy_roofline", 0);
  f.vsReference = get<double>(j, "vs_reference", 0);
  f.vsNaive = get<double>(j, "vs_naive", 0);
  f.launchFloorMs = get<double>(j, "launch_floor_ms", 0);
  f.error = get<std::string>(j, "error", "");
  f.untrusted = get<std::string>(j, "untrusted", "");
  f.wrongOutput = get<bool>(j, "wrong_output", false);
  f.impossible = get<bool>(j, "impossible", false);
  return f;
}

ordered_json figuresJson(const std::vector<KernelFigure>& figures) {
  ordered_json list = ordered_json::array();
  for (const KernelFigure& f : figures) list.push_back(figureJson(f));
  return list;
}

std::vector<KernelFigure> figuresFromJson(const json& j, const char* key) {
  std::vector<KernelFigure> figures;
  auto it = j.find(key);
  if (it != j.end() && it->is_array())
    for (const json& f : *it) figures.push_back(figureFromJson(f));
  return figures;
}

}  // namespace

ordered_json performanceJson(const PerformanceReport& p) {
  if (!p.measured && p.problem.empty()) return nullptr;
  return {{"measured", p.measured},
          {"case", p.caseId},
          {"width", p.width},
          {"height", p.height},
          {"problem", p.problem},
          {"note", p.note},
          {"device", p.device},
          {"copy", figureJson(p.copy)},
          {"kernels", figuresJson(p.kernels)},
          {"reference", figuresJson(p.reference)},
          {"naive", figuresJson(p.naive)},
          {"trusted_timed_at", p.trustedTimedAt}};
}

ordered_json sweepJson(const SweepReport& s) {
  if (!s.ran) return nullptr;
  ordered_json points = ordered_json::array();
  for (const SweepPoint& p : s.points)
    points.push_back({{"case", p.caseId},
                      {"steps", p.steps},
                      {"group", {p.group[0], p.group[1]}},
                      {"correct", p.correct},
                      {"problem", p.problem},
                      {"figures", figuresJson(p.figures)}});
  return {{"case", s.caseId}, {"width", s.width},        {"height", s.height},
          {"note", s.note},   {"device", s.device},      {"copy", figureJson(s.copy)},
          {"points", points}, {"chart_svg", s.chartSvg}, {"chart_png", s.chartPng}};
}

PerformanceReport performanceFromJson(const json& j) {
  PerformanceReport p;
  if (!j.is_object()) return p;
  p.measured = get<bool>(j, "measured", false);
  p.caseId = get<std::string>(j, "case", "");
  p.width = get<int>(j, "width", 0);
  p.height = get<int>(j, "height", 0);
  p.problem = get<std::string>(j, "problem", "");
  p.note = get<std::string>(j, "note", "");
  p.device = get<std::string>(j, "device", "");
  if (j.contains("copy")) p.copy = figureFromJson(j.at("copy"));
  p.kernels = figuresFromJson(j, "kernels");
  p.reference = figuresFromJson(j, "reference");
  p.naive = figuresFromJson(j, "naive");
  p.trustedTimedAt = get<std::string>(j, "trusted_timed_at", "");
  return p;
}

SweepReport sweepFromJson(const json& j) {
  SweepReport s;
  if (!j.is_object()) return s;
  s.ran = true;
  s.caseId = get<std::string>(j, "case", "");
  s.width = get<int>(j, "width", 0);
  s.height = get<int>(j, "height", 0);
  s.note = get<std::string>(j, "note", "");
  s.device = get<std::string>(j, "device", "");
  if (j.contains("copy")) s.copy = figureFromJson(j.at("copy"));
  s.chartSvg = get<std::string>(j, "chart_svg", "");
  s.chartPng = get<std::string>(j, "chart_png", "");
  if (j.contains("points"))
    for (const json& p : j.at("points")) {
      SweepPoint point;
      point.caseId = get<std::string>(p, "case", "");
      point.steps = get<int>(p, "steps", 0);
      if (p.contains("group") && p.at("group").size() == 2) point.group = {p.at("group")[0], p.at("group")[1]};
      point.correct = get<bool>(p, "correct", false);
      point.problem = get<std::string>(p, "problem", "");
      point.figures = figuresFromJson(p, "figures");
      s.points.push_back(point);
    }
  return s;
}

}  // namespace clgrade
