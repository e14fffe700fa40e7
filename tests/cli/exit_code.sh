#!/usr/bin/env bash
# tests/cli/exit_code.sh EXPECTED COMMAND [ARGS...]: runs COMMAND with its output unchanged, and fails
# when it does not exit with EXPECTED. CTest ignores the exit code of a test that matches its output
# against PASS_REGULAR_EXPRESSION, so the mismatch is also a line that FAIL_REGULAR_EXPRESSION catches
# (tests/cli/CMakeLists.txt adds it to every test run through this script).
expected=$1
shift
"$@"
rc=$?
if [ "$rc" -ne "$expected" ]; then
  echo "clgrade-test: exit $rc, expected $expected" >&2
  exit 1
fi
exit 0
