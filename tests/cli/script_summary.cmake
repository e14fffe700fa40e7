# For the tests of scripts/*.py that print a summary: runs SCRIPT on INPUT with PYTHON and fails
# unless it exits 0 and its output holds each of the expected lines (ARGN). The output is left in
# `summary` for further checks.
function(expect_script_summary input)
  execute_process(COMMAND "${PYTHON}" "${SCRIPT}" "${input}" RESULT_VARIABLE status OUTPUT_VARIABLE out
                  ERROR_VARIABLE problem)
  get_filename_component(name "${SCRIPT}" NAME)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${name} could not read ${input} (exit ${status}):\n${problem}")
  endif()
  foreach(expected IN LISTS ARGN)
    string(FIND "${out}" "${expected}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "the summary has no '${expected}':\n${out}")
    endif()
  endforeach()
  set(summary "${out}" PARENT_SCOPE)
endfunction()
