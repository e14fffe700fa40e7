// The roster as class.json keeps it: a batch given --roster writes it there, so that the class
// outputs, `clgrade merge` and `clgrade export` all match submissions to the same students.
#pragma once

#include <nlohmann/json.hpp>

#include "roster/roster.h"

namespace clgrade {

/// {"source": "roster.csv", "students": [{"id", "name", "email", "login", "submission"}, ...]}: the
/// roster as read (empty fields left out), in its order.
nlohmann::ordered_json rosterJson(const Roster& roster);

/// The roster from rosterJson's object; an empty roster when `j` is not one (no "students" array),
/// and students without an id left out.
Roster rosterFromJson(const nlohmann::ordered_json& j);

}  // namespace clgrade
