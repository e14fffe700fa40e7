#include "report/html_page.h"

#include "report/text.h"

namespace clgrade {
namespace {

const char kStyle[] = R"css(
:root { --passed: #1a7f37; --failed: #cf222e; --error: #8250df; --nm: #6e7781; --line: #d0d7de; --soft: #f6f8fa; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2328; margin: 0 auto;
       max-width: 1200px; padding: 16px 24px 48px; }
h1 { font-size: 24px; margin: 8px 0; }
h2 { font-size: 20px; margin: 24px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
h3 { font-size: 16px; margin: 20px 0 6px; }
h4 { font-size: 14px; margin: 12px 0 4px; }
h5 { font-size: 13px; margin: 10px 0 4px; }
table { border-collapse: collapse; margin: 6px 0 12px; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
thead th { background: var(--soft); }
td.num, th.num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
tr.task-row th, tr.task-row td { background: var(--soft); font-weight: 600; }
tfoot th, tfoot td { font-weight: 700; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 8px 0; }
dl.meta dt { font-weight: 600; color: #57606a; }
dl.meta dd { margin: 0; }
.total { font-size: 22px; font-weight: 700; }
.badge { display: inline-block; padding: 0 7px; border-radius: 10px; font-size: 12px; font-weight: 600; color: #fff;
         white-space: nowrap; }
.badge.st-passed { background: var(--passed); }
.badge.st-failed { background: var(--failed); }
.badge.st-error { background: var(--error); }
.badge.st-not_measured { background: var(--nm); }
.badge.override { background: #bf8700; }
.badge.stale { background: #cf222e; }
tr.st-passed td:first-child { border-left: 4px solid var(--passed); }
tr.st-failed td:first-child { border-left: 4px solid var(--failed); }
tr.st-error td:first-child { border-left: 4px solid var(--error); }
tr.st-not_measured td:first-child { border-left: 4px solid var(--nm); }
.override-note { color: #7d4e00; background: #fff8c5; padding: 2px 6px; margin-top: 4px; border-radius: 4px; }
.notices { color: #7d4e00; background: #fff8c5; padding: 4px 6px 4px 24px; border-radius: 4px; }
.problem { color: var(--failed); font-weight: 600; }
.check { border: 1px solid var(--line); border-left: 4px solid var(--nm); border-radius: 4px; padding: 4px 12px; margin: 8px 0; }
.check.st-failed { border-left-color: var(--failed); }
.check.st-error { border-left-color: var(--error); }
.case { margin: 6px 0 10px 8px; }
pre { background: var(--soft); border: 1px solid var(--line); padding: 8px; overflow-x: auto; white-space: pre-wrap;
      word-break: break-word; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; max-height: 480px; }
details { margin: 4px 0; }
summary { cursor: pointer; }
.images { display: flex; flex-wrap: wrap; gap: 12px; align-items: flex-start; }
figure { margin: 0; max-width: 380px; }
figure img { display: block; width: 360px; max-width: 100%; height: auto; border: 1px solid var(--line); image-rendering: pixelated;
             background: repeating-conic-gradient(#eee 0 25%, #fff 0 50%) 50% / 16px 16px; }
figcaption { font-size: 12px; color: #57606a; }
figure.crop, figure.map { max-width: none; }
/* At its own size: a difference map is already shrunk keeping the worst pixel; a browser's shrinking would blur it. */
figure.crop img, figure.map img { width: auto; max-width: 100%; }
figure.source { max-width: none; margin: 6px 0; }
figure.source pre { margin: 2px 0; }
mark { background: #fff8c5; display: inline-block; width: 100%; }
p.meta-line { margin: 2px 0; color: #57606a; }
ol.to-fix { padding-left: 24px; margin: 4px 0; }
ol.to-fix li { margin: 3px 0; }
details.task-details { border: 1px solid var(--line); border-radius: 4px; padding: 4px 12px; margin: 6px 0; }
.missing { color: var(--nm); font-style: italic; }
small, .muted { color: #57606a; }
code { font: 12px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; word-break: break-all; }
svg text { font: 11px system-ui, sans-serif; fill: #1f2328; }
svg .bar { fill: #0969da; }
.charts { display: flex; flex-wrap: wrap; gap: 16px; }
.chart { border: 1px solid var(--line); border-radius: 4px; padding: 4px 8px; max-width: 100%; }
.chart svg { display: block; max-width: 100%; height: auto; }
)css";

}  // namespace

std::string htmlPageStart(const std::string& title) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src 'self' data: file:; "
         "style-src 'unsafe-inline'\">\n"
         "<title>" +
         htmlEscape(title) + "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n";
}

std::string htmlPageEnd() { return "</body>\n</html>\n"; }

std::string statusClass(Status status) { return std::string("st-") + statusName(status); }

std::string statusBadge(Status status) {
  return "<span class=\"badge " + statusClass(status) + "\">" + statusLabel(status) + "</span>";
}

std::string htmlId(const std::string& prefix, const std::string& text) {
  std::string id = prefix;
  for (char c : text)
    id += (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ? c : '_';
  return id;
}

}  // namespace clgrade
