# cmake -DCLGRADE=... -DKERNELS=<reference kernels> -DWORK=... -P off_by_one.cmake
# An off-by-one in ConvHorizontal's load (x < Width - 1): the last column is read as 0, so every output
# within KERNEL_RADIUS of it is wrong, the last KERNEL_RADIUS + 1 columns (5 at the course's radius 4),
# one more than the border finding knew of (issue 28, item 5). The kernel is the reference with that
# one change, made here rather than committed as a copy.
file(READ "${KERNELS}/ConvolutionSeparable.cl" source)
set(load "if (x >= 0 && x < Width)\n            v = src[x];")
string(FIND "${source}" "${load}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "the reference's ConvHorizontal load is not where this test changes it: update the test")
endif()
string(REPLACE "${load}" "if (x >= 0 && x < Width - 1)\n            v = src[x];" source "${source}")
file(REMOVE_RECURSE "${WORK}")
file(WRITE "${WORK}/kernels/ConvolutionSeparable.cl" "${source}")
execute_process(COMMAND "${CLGRADE}" check "${WORK}/kernels" --task separable --device cpu --out "${WORK}/report"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "check of the off-by-one: exit ${rc} (expected 1):\n${out}${err}")
endif()
if(NOT out MATCHES "separable +horizontal +0/3 +failed +horizontal: case [a-z_0-9]+: [0-9]+ of [0-9]+ values wrong, all in the last 5 columns \\(x >= W-5\\)")
  message(FATAL_ERROR "the finding does not name the last 5 columns:\n${out}${err}")
endif()
message(STATUS "the off-by-one's finding names its 5 columns")
