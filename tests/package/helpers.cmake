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

# make_deb(<build folder> <work folder> <cpack> <out_var>): the .deb of the build folder's CPack settings
# (name, dependencies through dpkg-shlibdeps, descriptions) made from a staged install in <work>:
# `cpack` in the build folder would first build its `preinstall` target, and a test must not rebuild
# the tree the other tests are running from. Its path is left in <out_var>.
function(make_deb build work cpack out_var)
  run(${CMAKE_COMMAND} --install "${build}" --prefix "${work}/stage/usr" --strip)
  file(WRITE "${work}/CPackStaged.cmake" "include(\"${build}/CPackConfig.cmake\")
set(CPACK_INSTALL_CMAKE_PROJECTS \"\")
set(CPACK_INSTALLED_DIRECTORIES \"${work}/stage;.\")
")
  run(${cpack} -G DEB --config "${work}/CPackStaged.cmake" -B "${work}")
  file(GLOB debs "${work}/clgrade_*.deb")
  list(LENGTH debs n)
  if(NOT n EQUAL 1)
    message(FATAL_ERROR "expected one clgrade_*.deb in ${work}, found: ${debs}")
  endif()
  set(${out_var} "${debs}" PARENT_SCOPE)
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

# mirror_or_fail(<label> <what>): after an execute_process that set status, out and err and needs the
# Debian mirror: "<label> skipped: ..." and the script ends when the mirror could not be reached, a
# failure for any other error. A macro, so that its return() ends the calling script.
macro(mirror_or_fail label what)
  if(NOT status EQUAL 0)
    if(err MATCHES "Could not resolve|Temporary failure|Failed to fetch")
      message("${label} skipped: ${what} could not reach the Debian mirror:\n${err}")
      return()
    endif()
    message(FATAL_ERROR "${what} failed (${status}):\n${out}\n${err}")
  endif()
endmacro()
