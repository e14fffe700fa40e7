# scripts/gpu_busy.py on made-up `nvidia-smi dmon -s u` output (gpu_busy_dmon.txt: two GPUs, four
# samples, the header repeated, a "-" where the driver had no figure): GPU 0's kernels ran 40, 100,
# 90 and 10 % of the samples (mean 60 %, two at 90 % or more); GPU 1 ran none.
#   cmake -DPYTHON=... -DSCRIPT=... -DDMON=... -DEMPTY=... -P gpu_busy.cmake
execute_process(COMMAND "${PYTHON}" "${SCRIPT}" "${DMON}" RESULT_VARIABLE status OUTPUT_VARIABLE summary
                ERROR_VARIABLE problem)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "gpu_busy.py could not read the samples (exit ${status}):\n${problem}")
endif()
foreach(expected "GPU 0: a kernel ran 60 % of the time (4 samples of 1 s), at 90 % or more in 2 of them"
                 "GPU 1: no kernel ran (3 samples)")
  string(FIND "${summary}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "the summary has no '${expected}':\n${summary}")
  endif()
endforeach()
# No samples (nvidia-smi missing or refused): said, never a figure.
file(WRITE "${EMPTY}" "Failed to initialize NVML: Driver/library version mismatch\n")
execute_process(COMMAND "${PYTHON}" "${SCRIPT}" "${EMPTY}" OUTPUT_VARIABLE summary)
string(FIND "${summary}" "GPU busy time not measured" at)
if(at EQUAL -1)
  message(FATAL_ERROR "no samples, and the summary does not say so:\n${summary}")
endif()
