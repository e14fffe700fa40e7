#!/usr/bin/env bash
# tests/cli/resubmission.sh CLGRADE REFERENCE_KERNELS TEMPLATE_KERNELS OUT: a class through a semester
# (issue 28, item 1). A batch keeps a submission only while its files, the rubric, clgrade's build and
# the seed are those it was graded with: a student who resubmits is graded again, the others are
# kept; --regrade grades a named student again; an instructor's override written for the first
# grade is stale after the resubmission (not applied, said in the output, class.json and
# summary.html) until --confirm-overrides; an unknown name is a usage error, in the options and in the
# overrides file (issue 28, item 2).
set -u
clgrade=$1 reference=$2 template=$3 out=$4
fail() { echo "clgrade-test: FAILED: $*" >&2; exit 1; }
rm -rf "$out" && mkdir -p "$out/class"
cp -r "$reference" "$out/class/alice" && cp -r "$template" "$out/class/bob" && cp -r "$reference" "$out/class/carol"
printf 'submission,task,criterion,points,comment\nbob,histogram,global_atomics,1,bins right on paper\n' > "$out/overrides.csv"
batch() {
  "$clgrade" batch "$out/class" --task histogram --device cpu --out "$out/results" --overrides "$out/overrides.csv" \
    "$@" > "$out/batch.log" 2>&1
}
row() { tr -d "\r" < "$out/results/gradebook.csv" | grep "^$1,"; }

batch --seed 42 || { cat "$out/batch.log"; fail "first batch: exit $?"; }
row bob | grep -q "^bob,1,0,0,1,1,2,histogram.global_atomics: 1 (measured 0)" || { row bob; fail "bob's override is not applied"; }

# Bob hands in the reference's histogram: graded again, the others kept, his override stale.
cp "$reference/histogram.cl" "$out/class/bob/histogram.cl" || fail "cannot copy histogram.cl"
batch; rc=$?
[ $rc = 0 ] || { cat "$out/batch.log"; fail "batch after bob's resubmission: exit $rc"; }
grep -q "bob: its files changed since it was graded: graded again" "$out/batch.log" || { cat "$out/batch.log"; fail "bob's resubmission is not said"; }
grep -q "3 submissions in .*, 2 already graded, 1 to grade" "$out/batch.log" || { cat "$out/batch.log"; fail "alice and carol are not kept"; }
row bob | grep -q "^bob,1,1,0,2,2,2,," || { row bob; fail "bob's resubmission is not graded, or the stale override applied"; }
grep -q "bob: .*stale override of histogram.global_atomics" "$out/batch.log" || { cat "$out/batch.log"; fail "the stale override is not said"; }
grep -q '"stale_overrides"' "$out/results/class.json" || fail "class.json does not list the stale override"
grep -q "stale override</span>" "$out/results/summary.html" || fail "summary.html does not list the stale override"

# Kept as it is on the next run, until the instructor confirms it; a run without the overrides file
# forgets nothing.
batch && row bob | grep -q "^bob,1,1,0,2,2,2,," && grep -q "stale override" "$out/batch.log" || fail "the stale override was applied unconfirmed"
"$clgrade" batch "$out/class" --task histogram --device cpu --out "$out/results" > "$out/batch.log" 2>&1 || fail "batch without --overrides: exit $?"
batch && grep -q "stale override" "$out/batch.log" || { cat "$out/batch.log"; fail "a run without --overrides forgot the override's grade"; }
# clgrade merge (a batch folder is merged like a shard) does not apply it either.
"$clgrade" merge "$out/results" --out "$out/merged" --overrides "$out/overrides.csv" > "$out/merge.log" 2>&1 || { cat "$out/merge.log"; fail "merge: exit $?"; }
tr -d "\r" < "$out/merged/gradebook.csv" | grep -q "^bob,1,1,0,2,2,2,," || { cat "$out/merged/gradebook.csv"; fail "merge applied the stale override"; }
grep -q '"stale_overrides"' "$out/merged/class.json" && grep -q "stale override</span>" "$out/merged/summary.html" \
  || fail "the merged class results do not list the stale override"
batch --confirm-overrides bob || fail "--confirm-overrides: exit $?"
row bob | grep -q "^bob,1,1,0,2,2,2,histogram.global_atomics: 1 (measured 1)" || { row bob; fail "the confirmed override is not applied"; }
batch && ! grep -q "stale" "$out/batch.log" || { cat "$out/batch.log"; fail "a confirmed override is still stale"; }

# --regrade: carol alone graded again, files unchanged.
batch --regrade carol || fail "--regrade carol: exit $?"
grep -q "2 already graded, 1 to grade" "$out/batch.log" && grep -q "carol: 2/2" "$out/batch.log" || { cat "$out/batch.log"; fail "--regrade carol did not grade carol alone"; }

# A name that is not a submission is a usage error: a typo must not keep the old grade silently.
batch --regrade dave; rc=$?
[ $rc = 2 ] && grep -q -- "--regrade dave: no submission of that name" "$out/batch.log" || { cat "$out/batch.log"; fail "--regrade dave: exit $rc"; }
batch --confirm-overrides dave; rc=$?
[ $rc = 2 ] || fail "--confirm-overrides dave: exit $rc"
# An override naming nobody of the class (a typo) is refused before anything is graded, unless allowed.
printf 'submission,task,criterion,points\neve,histogram,global_atomics,1\n' > "$out/overrides.csv"
batch; rc=$?
[ $rc = 2 ] && grep -q "overrides.csv:2: no submission 'eve' in this batch" "$out/batch.log" \
  || { cat "$out/batch.log"; fail "an override of an unknown student: exit $rc"; }
batch --allow-unknown-overrides || { cat "$out/batch.log"; fail "--allow-unknown-overrides: exit $?"; }
# A late student whose kernel does not compile: graded, and the gradebook's problem column says where.
mkdir -p "$out/class/dan" && printf 'kernel void f(global int* a) {\n  a[0] = 1\n}\n' > "$out/class/dan/histogram.cl"
batch --allow-unknown-overrides || { cat "$out/batch.log"; fail "batch with dan: exit $?"; }
row dan | grep -q "histogram: does not compile: histogram.cl:2: expected ';'" || { row dan; fail "dan's compile error is not the gradebook's problem"; }
echo "clgrade-test: a class through a semester"
