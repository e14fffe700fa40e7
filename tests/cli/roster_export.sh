#!/usr/bin/env bash
# tests/cli/roster_export.sh CLGRADE REFERENCE_KERNELS OUT: a class folder as Moodle's and ILIAS's
# "download all submissions" name its folders, graded with a roster (issue 28, item 3): every student a
# gradebook row (one who handed in nothing with 0 and "no submission"), a submission that is no
# student's kept and named; then each LMS export, and its refusals, with their exit codes.
set -u
clgrade=$1 reference=$2 out=$3
fail() { echo "clgrade-test: FAILED: $*" >&2; exit 1; }
rm -rf "$out" && mkdir -p "$out/class"
cp -r "$reference" "$out/class/Ada Lovelace_1234567_assignsubmission_file_"
cp -r "$reference" "$out/class/Smith_Bob_bsmith_6789"
cp -r "$reference" "$out/class/stranger"
printf 'Matrikelnummer,Vorname,Nachname,E-Mail,Username\n4711,Ada,Lovelace,ada@uni.example,alovelace\n4712,Bob,Smith,bob@uni.example,bsmith\n4714,Di,Prince,di@uni.example,dprince\n' > "$out/roster.csv"
printf 'id,name\n1,Ada\n1,Bob\n' > "$out/bad-roster.csv"

# A roster with a wrong row is a usage error before anything is graded.
"$clgrade" batch "$out/class" --task histogram --device cpu --out "$out/results" --roster "$out/bad-roster.csv" > "$out/bad.log" 2>&1; rc=$?
[ $rc = 2 ] || { cat "$out/bad.log"; fail "a roster with an id given twice: exit $rc"; }
grep -q "bad-roster.csv:3: student id '1' is given twice (first on line 2)" "$out/bad.log" || { cat "$out/bad.log"; fail "the roster's problem is not named"; }

"$clgrade" batch "$out/class" --task histogram --device cpu --out "$out/results" --seed 42 --roster "$out/roster.csv" > "$out/batch.log" 2>&1; rc=$?
[ $rc = 0 ] || { cat "$out/batch.log"; fail "batch with a roster: exit $rc"; }
grep -q "roster.csv: 1 of 3 students handed in nothing: 4714 (Di Prince)" "$out/batch.log" || { cat "$out/batch.log"; fail "the missing student is not said"; }
grep -q "roster.csv: 1 submission is no student's on the roster: stranger" "$out/batch.log" || { cat "$out/batch.log"; fail "the unknown submission is not said"; }
book=$(tr -d '\r' < "$out/results/gradebook.csv")
echo "$book" | head -1 | grep -q "^submission,student_id,student_name,student_email," || { echo "$book"; fail "no student columns"; }
echo "$book" | sed -n 2p | grep -q "^Ada Lovelace_1234567_assignsubmission_file_,4711,Ada Lovelace,ada@uni.example,.*,2,2,," || { echo "$book"; fail "Ada's row"; }
echo "$book" | sed -n 3p | grep -q "^Smith_Bob_bsmith_6789,4712,Bob Smith,bob@uni.example," || { echo "$book"; fail "Bob's row"; }
echo "$book" | sed -n 4p | grep -q "^,4714,Di Prince,di@uni.example,.*,0,2,,no submission$" || { echo "$book"; fail "Di's row (no submission, 0)"; }
echo "$book" | sed -n 5p | grep -q "^stranger,,,,.*,2,2,,not on the roster$" || { echo "$book"; fail "stranger's row"; }
grep -q '"roster"' "$out/results/class.json" || fail "class.json keeps no roster"
grep -q "<th>Student</th>" "$out/results/summary.html" || fail "summary.html has no student column"

# A run without --roster (a resume, new overrides) keeps the class's roster.
"$clgrade" batch "$out/class" --task histogram --device cpu --out "$out/results" --seed 42 > "$out/again.log" 2>&1; rc=$?
[ $rc = 0 ] || { cat "$out/again.log"; fail "batch again without --roster: exit $rc"; }
tr -d '\r' < "$out/results/gradebook.csv" | sed -n 4p | grep -q "^,4714,Di Prince,di@uni.example,.*,0,2,,no submission$" ||
  { cat "$out/results/gradebook.csv"; fail "a run without --roster lost the roster"; }

# The exports, from the class folder (the roster the batch was given).
"$clgrade" export canvas "$out/results" --assignment "Lab 3 (12345)" > "$out/canvas.log" 2>&1; rc=$?
[ $rc = 0 ] || { cat "$out/canvas.log"; fail "export canvas: exit $rc"; }
canvas=$(tr -d '\r' < "$out/results/canvas.csv")
[ "$canvas" = "Student,ID,SIS User ID,SIS Login ID,Section,Lab 3 (12345)
Points Possible,,,,,2
Ada Lovelace,,4711,alovelace,,2
Bob Smith,,4712,bsmith,,2
Di Prince,,4714,dprince,,0" ] || { echo "$canvas"; fail "canvas.csv"; }
grep -q "'stranger': no student on the roster: not in the file" "$out/canvas.log" || { cat "$out/canvas.log"; fail "stranger left out silently"; }
"$clgrade" export moodle "$out/results" --out "$out/moodle.csv" > "$out/moodle.log" 2>&1 || { cat "$out/moodle.log"; fail "export moodle"; }
tr -d '\r' < "$out/moodle.csv" | head -1 | grep -q "^ID number,Username,Email address,Full name," || { cat "$out/moodle.csv"; fail "moodle.csv header"; }
"$clgrade" export moodle-worksheet "$out/results" > "$out/ws.log" 2>&1 || { cat "$out/ws.log"; fail "export moodle-worksheet"; }
tr -d '\r' < "$out/results/moodle-worksheet.csv" | sed -n 2p | grep -q "^Participant 1234567,Ada Lovelace,ada@uni.example,2,2," || { cat "$out/results/moodle-worksheet.csv"; fail "moodle-worksheet.csv"; }
"$clgrade" export ilias "$out/results" --pass-at 1 > "$out/ilias.log" 2>&1 || { cat "$out/ilias.log"; fail "export ilias"; }
tr -d '\r' < "$out/results/ilias-status.csv" | sed -n 2p | grep -q "^1,6789,bsmith,Smith,Bob,passed,2,," || { cat "$out/results/ilias-status.csv"; fail "ilias-status.csv"; }

# Refusals: an unknown format, a folder that is no class, a roster-keyed format without a roster.
"$clgrade" export blackboard "$out/results" > "$out/x.log" 2>&1; rc=$?
[ $rc = 2 ] && grep -q "unknown format 'blackboard' (one of: canvas, moodle, moodle-worksheet, ilias)" "$out/x.log" || { cat "$out/x.log"; fail "unknown format: exit $rc"; }
"$clgrade" export canvas "$out/class" > "$out/x.log" 2>&1; rc=$?
[ $rc = 2 ] && grep -q "give the --out folder of a clgrade batch or merge" "$out/x.log" || { cat "$out/x.log"; fail "no class.json: exit $rc"; }
mkdir -p "$out/plain"
# The same class without its roster (class.json is indented by 2: the roster's object ends at "  },").
awk '/^  "roster": \{/ { skip = 1 } !skip { print } skip && /^  \},?$/ { skip = 0 }' "$out/results/class.json" > "$out/plain/class.json"
grep -q '"roster"' "$out/plain/class.json" && fail "the roster is still in the plain class.json"
"$clgrade" export canvas "$out/plain" > "$out/x.log" 2>&1; rc=$?
[ $rc = 2 ] && grep -q "give --roster" "$out/x.log" || { cat "$out/x.log"; fail "canvas without a roster: exit $rc"; }
"$clgrade" export canvas "$out/plain" --roster "$out/roster.csv" > "$out/x.log" 2>&1 || { cat "$out/x.log"; fail "canvas with --roster"; }
echo "clgrade-test: every student in the LMS"
