#!/usr/bin/env bash
# tests/cli/readonly_tmp.sh CLGRADE REFERENCE_KERNELS OUT: a machine whose /tmp is read-only (a
# platform's container) sets TMPDIR to a writable folder; clgrade makes every temporary folder there
# (the sandbox probe, scratch folders, the simulator's) and grades. Before, the sandbox probe made its
# folder in /tmp whatever TMPDIR said, found no sandbox, and refused to grade (issue 27, item 3).
# Root only: the read-only /tmp is a bind mount in a mount namespace of the test's own (unshare -m).
set -u
clgrade=$1 reference=$2 out=$3
if [ "$(id -u)" != 0 ] || ! command -v unshare > /dev/null; then echo "clgrade-test: skipped: needs root and unshare"; exit 0; fi
rm -rf "$out" && mkdir -p "$out/tmp"
case $out in /tmp/*) echo "clgrade-test: skipped: the build folder is below /tmp"; exit 0 ;; esac
unshare -m sh -c 'mount --bind /tmp /tmp && mount -o remount,bind,ro /tmp' 2> /dev/null \
  || { echo "clgrade-test: skipped: cannot make /tmp read-only here"; exit 0; }
unshare -m sh -c 'mount --bind /tmp /tmp && mount -o remount,bind,ro /tmp && exec env TMPDIR="$1/tmp" "$2" grade "$3" --task histogram --device cpu --out "$1/report" --quiet' \
  sh "$out" "$clgrade" "$reference" > "$out/log" 2>&1
rc=$?
[ $rc = 0 ] || { cat "$out/log"; echo "clgrade-test: FAILED: grade with a read-only /tmp and TMPDIR set: exit $rc"; exit 1; }
sed -n 's/^  "total": \([0-9.]*\),*$/\1/p' "$out/report/report.json" | head -n 1 | grep -qx "2.0" \
  || { echo "clgrade-test: FAILED: the reference did not get its 2 points"; exit 1; }
echo "clgrade-test: graded with a read-only /tmp"
