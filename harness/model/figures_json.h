// report.json's "performance" and "sweep" blocks of a task, written and read back.
#pragma once

#include <nlohmann/json.hpp>

#include "model/figures.h"

namespace clgrade {

nlohmann::ordered_json performanceJson(const PerformanceReport& p);
nlohmann::ordered_json sweepJson(const SweepReport& s);

/// The inverse of performanceJson / sweepJson (missing keys keep their defaults).
PerformanceReport performanceFromJson(const nlohmann::json& j);
SweepReport sweepFromJson(const nlohmann::json& j);

}  // namespace clgrade
