# scripts/trace_batch.py on a made-up batch (batch_trace_parts.json: five grades, two at once, and
# three timed sets of 5 s): the batch in three parts (the start to the first end, the steady state's
# grades a minute to the last start, the tail) and the timing locks' share of the trace.
#   cmake -DPYTHON=... -DSCRIPT=... -DTRACE=... -P trace_batch_parts.cmake
execute_process(COMMAND "${PYTHON}" "${SCRIPT}" "${TRACE}" RESULT_VARIABLE status OUTPUT_VARIABLE summary
                ERROR_VARIABLE problem)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "trace_batch.py could not read the trace (exit ${status}):\n${problem}")
endif()
# Ends at 10, 12, 20, 22 and 30 s; the last start at 20 s: three ends in the 10 s between.
foreach(expected "start 10.0 s, steady state 18.0 a minute over 10.0 s, tail 10.0 s"
                 "the timing locks held 15.0 s in all: 50 % of the trace")
  string(FIND "${summary}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the summary has no '${expected}':\n${summary}")
  endif()
endforeach()
