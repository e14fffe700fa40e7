# scripts/trace_batch.py on a batch's trace (batch_trace.json: the spans of a `clgrade batch` of two
# submissions on PoCL that the summary reads, cut from a real trace): the trusted timings before the
# grades, the grades at once, and each runner's life around its own spans. Fails when a part is missing.
#   cmake -DPYTHON=... -DSCRIPT=... -DTRACE=... -P trace_batch.cmake
include("${CMAKE_CURRENT_LIST_DIR}/script_summary.cmake")
expect_script_summary("${TRACE}"
                      "trace: 28.74 s"
                      "4.08 s  time trusted kernels for the batch"
                      "grades waiting for the trusted figures: 2"
                      "grades: 2, the first from 0.08 s, the last until 28.65 s"
                      "grades at once, every 2 s: 0222"
                      "runner separable              2: lived 12.85 s (median)"
                      "before 0.13 s, inside 12.61 s, after 0.11 s"
                      "class outputs"
                      "after 0.11 s, starting 0.06 s")
