# cmake -DCLGRADE=... -DKERNELS=<reference kernels> -DWORK=... -P quiet.cmake
# --quiet prints nothing when a check passes (issue 28, item 6: it printed a summary line), and exits 0.
execute_process(COMMAND "${CLGRADE}" check "${KERNELS}" --task histogram --device cpu --out "${WORK}" --quiet
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT "${out}${err}" STREQUAL "")
  message(FATAL_ERROR "check --quiet of the reference: exit ${rc}, printed:\n${out}${err}")
endif()
