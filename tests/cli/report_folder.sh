#!/usr/bin/env bash
# tests/cli/report_folder.sh CLGRADE TEMPLATE_KERNELS OUT: where a report goes and what it holds
# (issue 28, item 5). `clgrade check .` run inside the folder a student hands in writes its report
# beside that folder, never inside it (and a relative report folder works: the sandbox probe named
# its request relative to another folder and every task was "not graded"); a trailing slash names the
# same report folder; a report folder used again holds only the new report's files.
set -u
clgrade=$1 template=$2 out=$3
fail() { echo "clgrade-test: FAILED: $*" >&2; exit 1; }
rm -rf "$out" && mkdir -p "$out"
cp -r "$template" "$out/alice"
(cd "$out/alice" && "$clgrade" check . --task histogram --device cpu --quiet > "$out/check.log" 2>&1); rc=$?
[ $rc = 1 ] || { cat "$out/check.log"; fail "check . of the template: exit $rc, expected 1"; }
[ ! -e "$out/alice/reports" ] || fail "check . wrote its report inside the folder it checked"
[ -f "$out/reports/alice/report.json" ] || { ls -R "$out"; fail "check . wrote no report beside the folder"; }
(cd "$out" && "$clgrade" check alice/ --task histogram --device cpu --quiet > "$out/check.log" 2>&1)
[ -f "$out/reports/alice/report.json" ] && [ ! -e "$out/reports/report.json" ] || fail "alice/ is not reported as alice"
# Used again: what the earlier grade wrote goes, anything else stays.
mkdir -p "$out/reports/alice/evidence/histogram" && echo old > "$out/reports/alice/evidence/histogram/old_crop.png"
echo mine > "$out/reports/alice/notes.txt"
(cd "$out" && "$clgrade" check alice --task histogram --device cpu --quiet > "$out/check.log" 2>&1)
[ ! -e "$out/reports/alice/evidence/histogram/old_crop.png" ] || fail "an earlier report's evidence stayed"
[ -f "$out/reports/alice/notes.txt" ] || fail "a file clgrade did not write was removed"
[ -f "$out/reports/alice/report.json" ] || fail "no new report"
echo "clgrade-test: report folders"
