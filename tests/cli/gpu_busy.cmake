# scripts/gpu_busy.py on made-up `nvidia-smi dmon -s u` output (gpu_busy_dmon.txt: two GPUs, four
# samples, the header repeated, a "-" where the driver had no figure): GPU 0's kernels ran 40, 100,
# 90 and 10 % of the samples (mean 60 %, two at 90 % or more); GPU 1 ran none.
#   cmake -DPYTHON=... -DSCRIPT=... -DDMON=... -DEMPTY=... -P gpu_busy.cmake
include("${CMAKE_CURRENT_LIST_DIR}/script_summary.cmake")
expect_script_summary("${DMON}" "GPU 0: a kernel ran 60 % of the time (4 samples of 1 s), at 90 % or more in 2 of them"
                      "GPU 1: no kernel ran (3 samples)")
# No samples (nvidia-smi missing or refused): said, never a figure.
file(WRITE "${EMPTY}" "Failed to initialize NVML: Driver/library version mismatch\n")
expect_script_summary("${EMPTY}" "GPU busy time not measured")
