# The timeline of a grade (util/trace.h, README): a sandboxed check with CLGRADE_TRACE set leaves one
# trace file with the keeper's spans and, taken over when it ended, its runner's; the script that
# prints it reads it. Fails when the runner's spans or the task's phases are missing.
#   cmake -DCLGRADE=... -DKERNELS=... -DPYTHON=... -DSCRIPT=... -DWORK=... -P trace_timeline.cmake
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")
set(ENV{CLGRADE_TRACE} "${WORK}/trace.json")
execute_process(COMMAND "${CLGRADE}" check "${KERNELS}" --task histogram --device cpu --quiet --out "${WORK}/report"
                RESULT_VARIABLE status OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
unset(ENV{CLGRADE_TRACE})
if(NOT status EQUAL 0 OR NOT EXISTS "${WORK}/trace.json")
  message(FATAL_ERROR "no trace written (exit ${status}):\n${stdout}\n${stderr}")
endif()
execute_process(COMMAND "${PYTHON}" "${SCRIPT}" "${WORK}/trace.json" RESULT_VARIABLE printed
                OUTPUT_VARIABLE timeline ERROR_VARIABLE problem)
if(NOT printed EQUAL 0)
  message(FATAL_ERROR "trace_timeline.py could not read the trace:\n${problem}")
endif()
foreach(expected "process  runner histogram" "replay   replay histogram" "== runner histogram" "phase    cases"
                 "phase    timing")
  string(FIND "${timeline}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the timeline has no '${expected}':\n${timeline}")
  endif()
endforeach()
