#!/usr/bin/env bash
# tests/cli/no_sandbox_batch.sh CLGRADE REFERENCE_KERNELS OUT: a batch with --no-sandbox into a new
# results folder. The probe before grading opens the timing locks as a runner does, creating them
# (the sandbox's set-up creates them for a sandboxed runner; without one nothing had): before,
# "nothing graded: a fault of this machine" and exit 3, on every run.
set -u
clgrade=$1 reference=$2 out=$3
fail() { echo "clgrade-test: FAILED: $*" >&2; exit 1; }
rm -rf "$out" && mkdir -p "$out/class"
cp -r "$reference" "$out/class/alice"
"$clgrade" batch "$out/class" --task histogram --device cpu --seed 42 --no-sandbox --out "$out/results" \
  > "$out/batch.log" 2>&1
rc=$?
[ $rc = 0 ] || { cat "$out/batch.log"; fail "batch --no-sandbox: exit $rc"; }
tr -d "\r" < "$out/results/gradebook.csv" | grep -q "^alice,1,1,0,2,2,2,," || { cat "$out/results/gradebook.csv"; fail "alice is not 2/2"; }
echo "clgrade-test: a batch without a sandbox grades"
