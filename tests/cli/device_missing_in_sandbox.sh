#!/usr/bin/env bash
# tests/cli/device_missing_in_sandbox.sh CLGRADE REFERENCE_KERNELS TEMPLATE_KERNELS OUT: the keeper sees a
# device the sandbox does not (issue 27, item 3). An ICD file names Oclgrind's library by a bare name
# that only the keeper's LD_LIBRARY_PATH finds (no sandbox passes LD_LIBRARY_PATH on): `--device auto`
# chooses Oclgrind (a "gpu") outside, and inside the runners' loader finds only PoCL. Before, the
# runners graded on PoCL what the keeper judged as Oclgrind's: the reference got 0/2 and exit 0. Now
# the probe before grading finds the difference: `grade` exits 3 naming the two devices, and `batch`
# grades nothing and exits 3.
set -u
clgrade=$1 reference=$2 template=$3 out=$4
oclgrind=/usr/lib/oclgrind
fail() { echo "clgrade-test: FAILED: $*" >&2; exit 1; }
[ -f $oclgrind/liboclgrind-rt-icd.so ] || { echo "clgrade-test: skipped: no Oclgrind ICD library"; exit 0; }
pocl=$(ls /etc/OpenCL/vendors/*pocl*.icd 2> /dev/null | head -n 1)
[ -n "$pocl" ] || { echo "clgrade-test: skipped: no PoCL ICD file"; exit 0; }
rm -rf "$out" && mkdir -p "$out/vendors" "$out/class"
cp "$pocl" "$out/vendors/" && echo liboclgrind-rt-icd.so > "$out/vendors/oclgrind.icd"
cp -r "$reference" "$out/class/alice" && cp -r "$template" "$out/class/bob"
export OCL_ICD_VENDORS=$out/vendors LD_LIBRARY_PATH=$oclgrind
"$clgrade" devices 2> /dev/null | grep -q '^Oclgrind' || { echo "clgrade-test: skipped: the keeper does not see Oclgrind"; exit 0; }

"$clgrade" grade "$reference" --task histogram --out "$out/grade" --quiet > "$out/grade.log" 2>&1
rc=$?
[ $rc = 3 ] || { cat "$out/grade.log"; fail "grade: exit $rc, not 3"; }
grep -q "not graded: a fault of this machine.*did not find the grade's OpenCL device.*not the grade's device Oclgrind" \
  "$out/grade.log" || { cat "$out/grade.log"; fail "grade does not name the device the sandbox lacks"; }

"$clgrade" batch "$out/class" --task histogram --seed 42 --out "$out/batch" > "$out/batch.log" 2>&1
rc=$?
[ $rc = 3 ] || { cat "$out/batch.log"; fail "batch: exit $rc, not 3"; }
grep -q "nothing graded: a fault of this machine" "$out/batch.log" || { cat "$out/batch.log"; fail "batch does not say why"; }
[ ! -e "$out/batch/alice" ] && [ ! -e "$out/batch/gradebook.csv" ] || fail "batch graded something"
echo "clgrade-test: a device the sandbox lacks grades nothing"
