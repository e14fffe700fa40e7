#!/usr/bin/env bash
# tests/cli/platform_fallback.sh CLGRADE OUT: when clgrade cannot even start on Gradescope or
# PrairieLearn, the platform scripts `clgrade package` writes still leave a results.json that is JSON
# (issue 28, item 6): written by jq from a log holding quotes, backslashes, control bytes and a cut
# UTF-8 sequence, and a fixed one when jq is missing too. The scripts' absolute paths are moved below
# OUT; a stub `clgrade` plays the one that could not start.
set -u
clgrade=$1 out=$2
fail() { echo "clgrade-test: FAILED: $*" >&2; exit 1; }
rm -rf "$out" && mkdir -p "$out/bin" "$out/nojq"
printf '!<arch>\ndebian-binary   not really a package\n' > "$out/fake.deb"
"$clgrade" package prairielearn --deb "$out/fake.deb" --out "$out/pl" > "$out/pl.log" 2>&1 || { cat "$out/pl.log"; fail "package prairielearn"; }
"$clgrade" package gradescope --deb "$out/fake.deb" --out "$out/gs.zip" > "$out/gs.log" 2>&1 || { cat "$out/gs.log"; fail "package gradescope"; }
(cd "$out" && mkdir gs && cd gs && cmake -E tar xf ../gs.zip) || fail "cannot unpack the autograder zip"
# The platforms' timeouts (README, "Platform timeouts"): each task 120 s in both scripts, and the
# question's timeout 600 s, PrairieLearn's largest (its default of 30 s is too short for a grade).
grep -q -- "--task-timeout 120 --time-limit 540" "$out/gs/run_autograder" || fail "run_autograder sets no task timeout"
grep -q -- "--task-timeout 120 --time-limit 540" "$out/pl/clgrade-prairielearn" || fail "the PrairieLearn entrypoint sets no task timeout"
jq -e '.externalGradingOptions.timeout == 600 and .externalGradingOptions.entrypoint == "/usr/local/bin/clgrade-prairielearn"' \
  "$out/pl/question-info.json" > /dev/null || { cat "$out/pl/question-info.json"; fail "question-info.json"; }
grep -q "keep its timeout at 10 minutes or more" "$out/gs.log" || { cat "$out/gs.log"; fail "package gradescope says no timeout"; }
# The clgrade that cannot start: its last words are hostile to hand-made JSON.
cat > "$out/bin/clgrade" <<'STUB'
#!/usr/bin/env bash
printf 'error: "quoted" \\ back\\slash\ttab \001\002 and a cut \xc3' >&2
exit 127
STUB
chmod +x "$out/bin/clgrade"
# A PATH with this stub and the basic tools, but no jq (a folder of links to what the script uses).
for tool in bash mkdir rm cat tail tr cd; do p=$(command -v $tool) && [ -x "$p" ] && ln -sf "$p" "$out/nojq/$tool"; done
ln -sf "$out/bin/clgrade" "$out/nojq/clgrade"
check() {  # check NAME SCRIPT RESULTS PATH
  local name=$1 script=$2 results=$3 path=$4
  PATH=$path bash "$script" > "$out/$name.run.log" 2>&1 || fail "$name: the script did not exit 0"
  # jq reads invalid UTF-8 leniently: iconv tells it apart first.
  iconv -f UTF-8 -t UTF-8 "$results" > /dev/null 2>&1 || { cat "$results"; fail "$name: results.json is not UTF-8"; }
  jq -e . "$results" > /dev/null 2>&1 || { cat "$results"; fail "$name: results.json is not JSON"; }
}
sed "s#/autograder#$out/gsroot#g" "$out/gs/run_autograder" > "$out/run_autograder"
sed "s#/grade#$out/plroot#g" "$out/pl/clgrade-prairielearn" > "$out/entrypoint"
mkdir -p "$out/gsroot/submission" "$out/plroot/student"
check gradescope "$out/run_autograder" "$out/gsroot/results/results.json" "$out/bin:$PATH"
jq -e '.extra_data.autograder_error == true and .extra_data.clgrade_exit == 127 and (.output | contains("\"quoted\" \\ back"))' \
  "$out/gsroot/results/results.json" > /dev/null || { cat "$out/gsroot/results/results.json"; fail "gradescope: the reason is not quoted whole"; }
check prairielearn "$out/entrypoint" "$out/plroot/results/results.json" "$out/bin:$PATH"
jq -e '.gradable == false and (.message | contains("exit 127"))' "$out/plroot/results/results.json" > /dev/null ||
  { cat "$out/plroot/results/results.json"; fail "prairielearn: not gradable:false with the exit"; }
check gradescope-nojq "$out/run_autograder" "$out/gsroot/results/results.json" "$out/nojq"
check prairielearn-nojq "$out/entrypoint" "$out/plroot/results/results.json" "$out/nojq"
jq -e '.gradable == false' "$out/plroot/results/results.json" > /dev/null || fail "prairielearn without jq"
echo "clgrade-test: platform fallbacks are JSON"
