#!/usr/bin/env bash
# tests/cli/class_folder_archives.sh CLGRADE CMAKE REFERENCE_KERNELS OUT: nobody missing from a class
# folder (issue 28, item 2). Archives beside the folders are submissions named by their stem (erin.zip
# is erin), each unpacked in a sandbox; a damaged one is graded with every task failed and the reason
# in the gradebook's problem column; any other file is skipped and said; a resubmitted archive is graded
# again; a folder holding only an archive (an LMS's download) is that archive; a kernels folder given
# as the class is a usage error.
set -u
clgrade=$1 cmake=$2 reference=$3 out=$4
fail() { echo "clgrade-test: FAILED: $*" >&2; exit 1; }
rm -rf "$out" && mkdir -p "$out/class" "$out/pack/erin/kernels"
cp -r "$reference" "$out/class/alice"
cp "$reference/histogram.cl" "$out/pack/erin/kernels/"
(cd "$out/pack" && "$cmake" -E tar cf "$out/class/erin.zip" --format=zip erin) || fail "cannot make erin.zip"
printf 'not a zip at all' > "$out/class/frank.zip"
# An LMS's download: gina's folder holds only the archive she uploaded.
mkdir -p "$out/class/gina_assignsubmission_file_" && cp "$out/class/erin.zip" "$out/class/gina_assignsubmission_file_/kernels.zip"
printf 'the roster is elsewhere\n' > "$out/class/notes.txt"
batch() { "$clgrade" batch "$out/class" --task histogram --device cpu --out "$out/results" --seed 42 "$@" > "$out/batch.log" 2>&1; }
row() { tr -d "\r" < "$out/results/gradebook.csv" | grep "^$1,"; }

batch || { cat "$out/batch.log"; fail "batch: exit $?"; }
grep -q "4 submissions in" "$out/batch.log" || { cat "$out/batch.log"; fail "the archives are not submissions"; }
row erin | grep -q "^erin,1,1,0,2,2,2,," || { cat "$out/results/gradebook.csv"; fail "erin.zip is not graded as erin (2/2)"; }
row gina_assignsubmission_file_ | grep -q "^gina_assignsubmission_file_,1,1,0,2,2,2,," || { cat "$out/results/gradebook.csv"; fail "the archive in gina's folder is not graded"; }
row frank | grep -q "^frank,0,0,0,0,0,2,,.*frank.zip cannot be unpacked" || { cat "$out/results/gradebook.csv"; fail "frank.zip's damage is not the problem"; }
grep -q "'notes.txt': skipped: neither a submission folder nor an archive" "$out/batch.log" || { cat "$out/batch.log"; fail "notes.txt is not said"; }

# Erin hands in again, a template this time: her archive changed, she is graded again.
cp "$reference/../../kernels_template/histogram.cl" "$out/pack/erin/kernels/" 2>/dev/null || printf 'kernel void x() {}\n' > "$out/pack/erin/kernels/histogram.cl"
rm -f "$out/class/erin.zip" && (cd "$out/pack" && "$cmake" -E tar cf "$out/class/erin.zip" --format=zip erin) || fail "cannot make erin.zip again"
batch || { cat "$out/batch.log"; fail "batch after erin's resubmission: exit $?"; }
grep -q "erin: its files changed since it was graded: graded again" "$out/batch.log" || { cat "$out/batch.log"; fail "erin's new archive is not graded again"; }
row erin | grep -q "^erin,0," || { row erin; fail "erin's new archive kept the old grade"; }

# A kernels folder is not a class.
"$clgrade" batch "$reference" --device cpu --out "$out/wrong" > "$out/wrong.log" 2>&1; rc=$?
[ $rc = 2 ] || { cat "$out/wrong.log"; fail "a kernels folder as the class: exit $rc"; }
echo "clgrade-test: nobody missing"
