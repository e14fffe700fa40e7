# Helpers of the package tests' scripts.

# run(<command> <args>...): runs it; a non-zero exit stops the script with the command and its output.
# Its standard output is left in `out`.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT status EQUAL 0)
    string(REPLACE ";" " " line "${ARGN}")
    message(FATAL_ERROR "${line}\nexited with ${status}:\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

# check_junit_cases(<junit.xml> <count>): the file has <count> testcases named student.conv3x3.*, each
# with a time, and none failed.
function(check_junit_cases file count)
  file(READ "${file}" junit)
  string(REGEX MATCHALL "<testcase name=\"student\\.conv3x3\\.[a-z_]+\"" cases "${junit}")
  list(LENGTH cases n)
  if(NOT n EQUAL ${count})
    message(FATAL_ERROR "expected ${count} conv3x3 testcases in ${file}, found ${n}:\n${junit}")
  endif()
  if(junit MATCHES "<failure")
    message(FATAL_ERROR "a testcase failed in ${file}:\n${junit}")
  endif()
endfunction()
