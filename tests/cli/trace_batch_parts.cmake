# scripts/trace_batch.py on a made-up batch (batch_trace_parts.json: five grades, two at once, and
# three timed sets of 5 s): the batch in three parts (the start to the first end, the steady state's
# grades a minute to the last start, the tail) and the timing locks' share of the trace.
#   cmake -DPYTHON=... -DSCRIPT=... -DTRACE=... -P trace_batch_parts.cmake
include("${CMAKE_CURRENT_LIST_DIR}/script_summary.cmake")
# Ends at 10, 12, 20, 22 and 30 s; the last start at 20 s: three ends in the 10 s between.
expect_script_summary("${TRACE}" "start 10.0 s, steady state 18.0 a minute over 10.0 s, tail 10.0 s"
                      "the timing locks held 15.0 s in all: 50 % of the trace")
