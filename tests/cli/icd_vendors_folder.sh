#!/usr/bin/env bash
# tests/cli/icd_vendors_folder.sh CLGRADE REFERENCE_KERNELS OUT: the OpenCL loader set up by
# environment (issue 27, "machine faults never become scores"): OCL_ICD_VENDORS=<a folder> naming
# PoCL's library by absolute path (the README's recipe for a driver installed without root). The
# sandboxes get the folder and the library, so the runners see the device the keeper sees and the
# reference gets full marks; before, every runner found no device and every task was an error worth 0.
# (A runner that finds no device anyway is a machine fault: tests/unit/keeper.)
set -u
clgrade=$1 reference=$2 out=$3
rm -rf "$out" && mkdir -p "$out/abs"
pocl=$(sed -n 's/^\(.*libpocl[^ ]*\)$/\1/p' /etc/OpenCL/vendors/pocl.icd | head -n 1)
library=$pocl
case $pocl in /*) ;; *) library=$(find /usr/lib /usr/local/lib /lib -name "$pocl" 2> /dev/null | head -n 1) ;; esac
if [ ! -f "$library" ]; then echo "clgrade-test: skipped: PoCL's library not found ($pocl)"; exit 0; fi
fail() { echo "clgrade-test: FAILED: $*" >&2; exit 1; }
total() { sed -n 's/^  "total": \([0-9.]*\),*$/\1/p' "$1" | head -n 1; }

echo "$library" > "$out/abs/pocl.icd"
OCL_ICD_VENDORS=$out/abs "$clgrade" grade "$reference" --task conv3x3 --device cpu --out "$out/absolute" --quiet \
  || fail "grade with OCL_ICD_VENDORS=<folder>: exit $?"
[ "$(total "$out/absolute/report.json")" = "5.0" ] || fail "the reference did not get 5 points with OCL_ICD_VENDORS"

echo "clgrade-test: the runners see the device the keeper sees"
