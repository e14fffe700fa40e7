# cmake -DCXX=... -DSOURCE_DIR=... -DMODE=headers|guard -P check_headers.cmake
#  headers: every harness/model and harness/report header compiles alone with cmake/no_opencl first on
#           the include path (an OpenCL include anywhere below it is an #error);
#  guard:   harness/cl/device.h (which includes CLHPP) must fail there with the guard's message.
set(flags -std=c++17 -fsyntax-only -x c++ -I${SOURCE_DIR}/cmake/no_opencl -I${SOURCE_DIR}/harness)

if(MODE STREQUAL "headers")
  file(GLOB headers ${SOURCE_DIR}/harness/model/*.h ${SOURCE_DIR}/harness/report/*.h)
  list(LENGTH headers count)
  if(count LESS 10)
    message(FATAL_ERROR "found only ${count} headers under harness/model and harness/report")
  endif()
  set(failed "")
  foreach(header IN LISTS headers)
    execute_process(COMMAND ${CXX} ${flags} ${header} RESULT_VARIABLE rc ERROR_VARIABLE out OUTPUT_VARIABLE out)
    if(NOT rc EQUAL 0)
      string(APPEND failed "${header}:\n${out}\n")
    endif()
  endforeach()
  if(failed)
    message(FATAL_ERROR "headers that do not compile without OpenCL:\n${failed}")
  endif()
  message(STATUS "${count} headers compile without OpenCL")
elseif(MODE STREQUAL "guard")
  execute_process(COMMAND ${CXX} ${flags} ${SOURCE_DIR}/harness/cl/device.h RESULT_VARIABLE rc ERROR_VARIABLE out
                  OUTPUT_VARIABLE out)
  if(rc EQUAL 0 OR NOT out MATCHES "must not include OpenCL")
    message(FATAL_ERROR "the guard did not stop an OpenCL include (exit ${rc}):\n${out}")
  endif()
  message(STATUS "the guard stops an OpenCL include")
else()
  message(FATAL_ERROR "MODE must be headers or guard")
endif()
