#!/usr/bin/env bash
# tests/cli/private_results_folder.sh CLGRADE REFERENCE_KERNELS TEMPLATE_KERNELS OUT: a batch and a
# grade whose results folder lies below a private folder (`mktemp -d`, mode 700), which a sandbox's
# uid cannot pass through. What the sandboxes share (the batch's timing lock, the runners' scratch
# folders) goes to a folder of its own under TMPDIR, removed at the end, and the class is graded.
# Before, every submission of the batch was "not graded: a fault of this machine" (issue 27, item 3).
# Root only: as another user the sandbox runs as that user, who can pass through the folder.
set -u
clgrade=$1 reference=$2 template=$3 out=$4
if [ "$(id -u)" != 0 ]; then echo "clgrade-test: skipped: needs root"; exit 0; fi
fail() { echo "clgrade-test: FAILED: $*" >&2; exit 1; }
rm -rf "$out" && mkdir -p "$out/class" "$out/tmp" "$out/private"
chmod 700 "$out/private"
cp -r "$reference" "$out/class/alice" && cp -r "$template" "$out/class/bob"
TMPDIR=$out/tmp "$clgrade" batch "$out/class" --task histogram --device cpu --seed 42 --jobs 2 \
  --out "$out/private/results" > "$out/batch.log" 2>&1
rc=$?
[ $rc = 0 ] || { cat "$out/batch.log"; fail "batch below a private folder: exit $rc"; }
tr -d "\r" < "$out/private/results/gradebook.csv" | grep -qx "alice,1,1,0,2,2,2,," || { cat "$out/private/results/gradebook.csv"; fail "alice is not 2/2"; }
tr -d "\r" < "$out/private/results/gradebook.csv" | grep -qx "bob,0,0,0,0,0,2,," || { cat "$out/private/results/gradebook.csv"; fail "bob is not 0/2"; }
TMPDIR=$out/tmp "$clgrade" grade "$reference" --task histogram --device cpu --out "$out/private/alone" --quiet \
  || fail "grade below a private folder: exit $?"
[ -z "$(ls -A "$out/tmp")" ] || { ls -la "$out/tmp"; fail "folders left in TMPDIR"; }
echo "clgrade-test: graded below a private folder"
