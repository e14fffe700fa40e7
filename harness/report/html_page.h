// What report.html and summary.html share: the page around the content, the style, status badges.
#pragma once

#include <string>

#include "model/status.h"

namespace clgrade {

/// "<!DOCTYPE html>" up to and including "<body>": UTF-8, a Content-Security-Policy that allows no
/// script, no fetch and no external resource (images only from the page's own folder or data: URIs),
/// the shared inline style. `title` is escaped here.
std::string htmlPageStart(const std::string& title);

/// "</body></html>".
std::string htmlPageEnd();

/// "st-passed", "st-failed", "st-not_measured", "st-error".
std::string statusClass(Status status);

/// <span class="badge st-...">failed</span>
std::string statusBadge(Status status);

/// An id attribute value from any text: [A-Za-z0-9_-] kept, anything else '_', prefixed.
std::string htmlId(const std::string& prefix, const std::string& text);

}  // namespace clgrade
