# cmake -DCLGRADE=... "-DARGS=a;b;c" -DEXPECT=<regex> -P expect_usage_error.cmake
# A usage error exits 2 (never CLI11's 105-114, never 0) and says what is wrong in words.
execute_process(COMMAND "${CLGRADE}" ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "clgrade ${ARGS}: exit ${rc}, expected 2\n${out}${err}")
endif()
if(NOT "${out}${err}" MATCHES "${EXPECT}")
  message(FATAL_ERROR "clgrade ${ARGS}: the message does not match '${EXPECT}':\n${out}${err}")
endif()
message(STATUS "exit 2: ${err}")
