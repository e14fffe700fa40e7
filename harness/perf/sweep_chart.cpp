// The chart of a sweep: bandwidth and time against RESULT_STEPS, one line per pass and group size.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>

#include "chart/chart.h"
#include "perf/sweep.h"
#include "util/files.h"

namespace clgrade {
namespace {

/// Both panels: GB/s with the copy roofline, and microseconds.
std::vector<LineChart> panelsOf(const SweepReport& sweep) {
  LineChart bandwidth, time;
  char size[96];
  std::snprintf(size, sizeof size, " (%dx%d%s)", sweep.width, sweep.height, sweep.note.empty() ? "" : ", CPU");
  bandwidth.title = "Effective bandwidth" + std::string(size);
  bandwidth.xLabel = time.xLabel = "RESULT_STEPS";
  bandwidth.yLabel = "GB/s";
  time.title = "Kernel time (median)" + std::string(size);
  time.yLabel = "microseconds";
  // One series per kernel and group size, in the order the points came; the colour follows the
  // group size, the second kernel of a point is dashed.
  std::map<std::string, size_t> index;
  std::vector<std::string> groups;
  for (const SweepPoint& p : sweep.points) {
    const std::string group = std::to_string(p.group[0]) + "x" + std::to_string(p.group[1]);
    int colour = 0;
    while (colour < int(groups.size()) && groups[colour] != group) ++colour;
    if (colour == int(groups.size())) groups.push_back(group);
    for (size_t k = 0; k < p.figures.size(); ++k) {
      const KernelFigure& f = p.figures[k];
      const std::string name = f.kernel + " " + group;
      auto it = index.find(name);
      if (it == index.end()) {
        it = index.emplace(name, bandwidth.series.size()).first;
        Series s;
        s.name = name;
        s.dashed = k % 2 == 1;
        s.colour = colour;
        bandwidth.series.push_back(s);
        time.series.push_back(s);
      }
      const bool usable = f.error.empty() && f.time.medianMs > 0;
      Series& b = bandwidth.series[it->second];
      Series& t = time.series[it->second];
      b.x.push_back(p.steps);
      t.x.push_back(p.steps);
      b.y.push_back(usable ? f.gbPerS : NAN);
      t.y.push_back(usable ? f.time.medianMs * 1e3 : NAN);
      b.ok.push_back(p.correct);
      t.ok.push_back(p.correct);
    }
  }
  if (sweep.copy.gbPerS > 0) {
    char label[64];
    std::snprintf(label, sizeof label, "copy roofline %.0f GB/s", sweep.copy.gbPerS);
    bandwidth.lines.push_back({label, sweep.copy.gbPerS});
  }
  return {bandwidth, time};
}

}  // namespace

bool writeSweepChart(const SweepReport& sweep, const std::string& dir, const std::string& stem, std::string* err) {
  const std::vector<LineChart> panels = panelsOf(sweep);
  const std::filesystem::path svg = std::filesystem::path(dir) / (stem + ".svg");
  const std::filesystem::path png = std::filesystem::path(dir) / (stem + ".png");
  if (!makeDirectories(svg.parent_path().string(), err)) return false;
  return writeFileAtomically(svg.string(), svgOf(panels), err) && writePng(png.string(), panels, {}, err);
}

}  // namespace clgrade
