#!/usr/bin/env bash
# tests/cli/intake_corpus.sh CLGRADE CMAKE REFERENCE_KERNELS OUT: what an intake corpus of bad
# submissions found, in one class. Bad input gets a clear message and the batch goes on; a student who
# zipped their work in a common way is graded, or told exactly what to do:
#   big.zip      a video over one file's limit beside the kernels: left out, the rest graded (2/2)
#   many.zip     a project zipped with node_modules (over 10000 entries): its kernels graded (2/2)
#   readme.zip   alice/ and README.md at the top: the root goes down into alice/ (2/2)
#   nested.zip   a zip holding only kernels.zip (an LMS's download): that one unpacked too (2/2)
#   both/        kernels/ and a .cl beside it: kernels/ graded, the other named in the report (2/2)
#   two/         two archives: "missing" names them and says to keep one
#   copy/        "histogram (1).cl": "missing" says to rename it
#   new<LF>line/ a newline in a folder's name: shown as \n on the progress line
#   gradebook.csv/  named like a class file: not graded, and said so in class.json
# Each archive's left-out entries reach its report's notices, as .cl files not graded do.
set -u
clgrade=$1 cmake=$2 reference=$3 out=$4
fail() { echo "clgrade-test: FAILED: $*" >&2; exit 1; }
rm -rf "$out" && mkdir -p "$out/class" "$out/pack"
zipOf() { # zipOf ARCHIVE FOLDER [ENTRY...]: ARCHIVE (absolute) of the entries of FOLDER
  local archive=$1 folder=$2; shift 2
  (cd "$folder" && "$cmake" -E tar cf "$archive" --format=zip "$@") || fail "cannot make $archive"
}

mkdir -p "$out/pack/big/alice"
cp "$reference/histogram.cl" "$out/pack/big/alice/"
head -c $((17 * 1024 * 1024)) /dev/zero > "$out/pack/big/alice/video.bin"
zipOf "$out/class/big.zip" "$out/pack/big" alice

mkdir -p "$out/pack/many/project/kernels" "$out/pack/many/project/node_modules"
cp "$reference/histogram.cl" "$out/pack/many/project/kernels/"
(cd "$out/pack/many/project/node_modules" && for i in $(seq 1 10050); do : > "m$i.js"; done)
zipOf "$out/class/many.zip" "$out/pack/many" project

mkdir -p "$out/pack/readme/alice/kernels"
cp "$reference/histogram.cl" "$out/pack/readme/alice/kernels/"
printf 'my lab\n' > "$out/pack/readme/README.md"
zipOf "$out/class/readme.zip" "$out/pack/readme" README.md alice

mkdir -p "$out/pack/inner"
cp "$reference/histogram.cl" "$out/pack/inner/"
zipOf "$out/pack/kernels.zip" "$out/pack/inner" histogram.cl
zipOf "$out/class/nested.zip" "$out/pack" kernels.zip

mkdir -p "$out/class/both/kernels"
cp "$reference/histogram.cl" "$out/class/both/kernels/"
printf 'kernel void old() {}\n' > "$out/class/both/histogram.cl"

mkdir -p "$out/class/two"
cp "$out/pack/kernels.zip" "$out/class/two/a.zip" && cp "$out/pack/kernels.zip" "$out/class/two/b.zip"

mkdir -p "$out/class/copy"
cp "$reference/histogram.cl" "$out/class/copy/histogram (1).cl"

newline=$'new\nline'
mkdir -p "$out/class/$newline" "$out/class/gradebook.csv"
cp "$reference/histogram.cl" "$out/class/$newline/"
cp "$reference/histogram.cl" "$out/class/gradebook.csv/"

# One folder could not be graded under its name (gradebook.csv): the batch exits 4, as it always has.
"$clgrade" batch "$out/class" --task histogram --device cpu --seed 1 --out "$out/results" > "$out/batch.log" 2>&1
rc=$?
[ $rc = 4 ] || { cat "$out/batch.log"; fail "batch: exit $rc, expected 4"; }
results=$out/results
row() { tr -d "\r" < "$results/gradebook.csv" | grep "^$1,"; }
for name in big many readme nested both; do
  row $name | grep -q "^$name,1,1,0,2,2,2,," || { cat "$out/batch.log"; row $name; fail "$name is not graded 2/2"; }
done
notices() { grep -A30 '"notices"' "$results/$1/report.json"; }
notices big | grep -qF '"big.zip: left out alice/video.bin: larger than 16 MiB, the limit of one file"' ||
  fail "big.zip's video is not in its report's notices"
grep -qF 'big: left out alice/video.bin: larger than 16 MiB' "$out/batch.log" || fail "big.zip's video is not said"
grep -qF 'class="notices"' "$results/big/report.html" || fail "big's report.html has no notices"
notices many | grep -qF 'only .cl and .h files are unpacked' || fail "many.zip's notices do not say what was left out"
notices many | grep -qE '"many.zip: and [0-9]+ more entries left out"' || fail "many.zip's notices do not count the rest"
notices both | grep -qF '"histogram.cl is beside the kernels folder and not graded' || fail "both/'s notice is missing"
grep -qF 'both: note: histogram.cl is beside the kernels folder and not graded' "$out/batch.log" ||
  fail "both/'s notice is not on the terminal"
grep -qF 'the folder holds 2 archives (a.zip, b.zip): an archive is unpacked only when it is the only one; keep the one to grade' \
  "$results/two/report.json" || fail "two/'s archives are not named"
grep -qF 'histogram (1).cl is there: rename it to histogram.cl' "$results/copy/report.json" ||
  fail "copy/'s histogram (1).cl is not named"
grep -qF '] new\nline: 2/2' "$out/batch.log" || { cat "$out/batch.log"; fail "the newline is not shown as \\n"; }
grep -q '^line: ' "$out/batch.log" && fail "the newline reached the terminal raw"
grep -A1 '"submission": "gradebook.csv"' "$results/class.json" | grep -q '"not_graded": "a submission folder may not be named like a class file' ||
  fail "gradebook.csv/ is not in class.json"
echo "clgrade-test: the intake corpus is graded or told"
